"""Writes tests/fixtures/model/ from real transformers: tokenizer ids, chat renders and logits.

transformers loads the same GGUF the project loads (tokenizer and weights, dequantized to f32),
so each fixture is what a transformers user gets from that file:
- tokenizer_corpus.json: ids and decoded text of a corpus of strings chosen to break tokenizers;
- chat.json: `apply_chat_template` text and ids for conversations of every shape;
- logits.json + logits/*.npy: last-position logits of a full forward for several contexts,
  one of them longer than 500 tokens, and the greedy continuation of the reference context.

Usage: python reference/make_model_fixtures.py MODEL.gguf OUT_DIR
"""

import json
import os
import random
import sys

import reference_env  # noqa: F401  (before torch: one thread, offline, quiet)

import numpy as np
import torch
import transformers
from transformers import AutoModelForCausalLM, AutoTokenizer

REFERENCE_QUESTION = "How do you say thank you in Chinese?"
REFERENCE_PREFIX = 'In Chinese, you can say "'
GREEDY_TOKENS = 32

NUMBERS = [
    "0", "7", "42", "123", "2024", "1234567890", "3.14159", "-273.15", "1,000,000", "1e-5",
    "0x1F", "50%", "$19.99", "€5,00", "10:45", "2026-12-02", "+1 (555) 010-9999", "v1.2.3",
    "x2", "H2O", "COVID-19", "3rd", "21st century", "1/3", "½", "²³", "٣٤٥", "१२३", "一二三",
    "Ⅻ", "007", " 7", "  99", "9\n8", "1 2 3 4 5", "3.0e+10", "π≈3.14", "99 bottles", "1000s",
    "123abc456", "a1b2c3", "#42", "No. 5", "24/7", "1.5x", "-0", "1_000_000", "0.000001", "12345678901234567890",
]
CJK = [
    "你好", "谢谢", "谢谢你", "在中文里，你可以说“谢谢”。", "中华人民共和国", "我爱北京天安门",
    "こんにちは", "ありがとうございます", "日本語のテキスト", "カタカナとひらがな", "東京タワー",
    "안녕하세요", "감사합니다", "한국어 문장입니다.", "汉字 and English mixed", "「引用」と『二重』",
    "，。！？；：", "中文 标点，混合 spaces", "繁體中文測試", "𠀀𠀁 rare ideographs", "一", "龍",
    "三个数字123和字母abc", "ｆｕｌｌｗｉｄｔｈ", "半角ｶﾀｶﾅ", "漢字かな交じり文", "谢 谢", "  中文",
    "你好\n世界", "Chinese: 谢谢 (xièxie)",
]
EMOJI = [
    "😀", "👍", "👍🏽", "❤️", "🇫🇷", "🇨🇳🇯🇵", "👨‍👩‍👧‍👦", "🏳️‍🌈", "🤖 robots", "I ❤️ NY", "🙂🙂🙂",
    "emoji🚀inside", "✅ done", "⚠️ warning", "🧑‍💻", "🫠", "1️⃣", "©®™", "★☆", "♠♥♦♣",
    "👋 hello", "🐍 + 🦀", "😂😂", "🎉🎊", "👩🏾‍🔬", "🍣🍜", "🔥", "💯", "🌍🌎🌏", "🥲",
]
COMBINING = [
    "e\u0301", "cafe\u0301", "café", "naïve", "Ångström", "A\u030a", "n\u0303",
    "Tiếng Việt", "Việt Nam", "हिन्दी", "नमस्ते", "عَرَبِيّ", "שָׁלוֹם", "Z\u0351\u0317a\u0336l\u0310g\u0315o",
    "a\u0300\u0301\u0302", "ḍ", "ﬁ ligature", "Å", "ö vs o\u0308", "c\u0327a", "ภาษาไทย",
    "ગુજરાતી", "தமிழ்", "ಕನ್ನಡ", "\u0301 leading combining",
]
WHITESPACE = [
    " ", "  ", "   ", "\t", "\n", "\n\n", "\n\n\n", "\r\n", " \n", "\n ", "a  b", "a   b", "a\tb",
    "a\nb", "a\n\nb", "  leading", "trailing  ", "  both  ", "\t\tindented", "line1\nline2\n",
    "x \n y", "\u00a0nbsp", "thin\u2009space", "ideographic\u3000space", "zero\u200bwidth",
    "a \t \n b", "end\n", "    four spaces", "\n    code", " \t",
]
CONTRACTIONS = [
    "don't", "I'm", "you'll", "we've", "she'd", "they're", "it's", "DON'T", "I'M", "You'LL",
    "can't won't shouldn't", "y'all", "'tis", "rock 'n' roll", "O'Brien", "it’s", "don’t",
    "'s", "'re", "'ve", "'m", "'ll", "'d", "the dog's bone", "students' books", "'quoted'",
    "I'd've", "ma'am", "goin'", "'90s",
]
CODE = [
    "def f(x):\n    return x + 1\n",
    "fn main() {\n    println!(\"Hello, world!\");\n}",
    "const x = () => { return [1, 2, 3].map(n => n * 2); };",
    "<div class=\"a\">Hi</div>",
    "<script>alert(1)</script>",
    "{\"key\": [1, 2.5, null, true]}",
    "SELECT * FROM users WHERE id = 42;",
    "#include <stdio.h>\nint main(void) { return 0; }",
    "x += 1; y -= 2; z *= 3; w /= 4;",
    "if (a && b || !c) { }",
    "for i in range(10):\n\tprint(i)",
    "let v: Vec<u8> = vec![0u8; 16];",
    "import numpy as np\nnp.zeros((3, 4))",
    "git commit -m \"fix: typo\"",
    "$ cargo build --release",
    "a->b::c<d>(e)",
    "/* comment */ // line comment",
    "@decorator\nclass A(B):\n    pass",
    "user@example.com",
    "https://huggingface.co/HuggingFaceTB/SmolLM2-135M-Instruct",
    "C:\\Users\\name\\file.txt",
    "```python\nprint('hi')\n```",
    "    indented code line",
    "x=1;y=2",
    "λx.x",
    "df['col'].apply(lambda s: s.strip())",
    "<|im_start|> not a special token inside text? <|im_end|>",
    "#!/bin/bash\nset -euo pipefail",
    "a == b != c <= d >= e",
    "0b1010 | 0o17 & ~0xff ^ 1 << 2 >> 3",
]
MISC = [
    "Hello", "Hello world", "Hello, world!", " Hello", "HELLO", "hello", "HeLLo WoRLD",
    "The quick brown fox jumps over the lazy dog.", "Привет, мир!", "Γειά σου Κόσμε", "Ελληνικά",
    "Türkçe karakterler: ğüşöçı", "Polski: zażółć gęślą jaźń", "Español: ¿Qué tal?", "Français: où est-ce ?",
    "Deutsch: Straße, Größe", "!!!", "???", "...", "—", "–", "…", "«guillemets»", "„Anführungszeichen“",
    "a-b_c.d", "snake_case_name", "camelCaseName", "PascalCase", "kebab-case-name", "ALL_CAPS",
    "supercalifragilisticexpialidocious", "pneumonoultramicroscopicsilicovolcanoconiosis",
    "\"double\" 'single'", "(parens) [brackets] {braces}", "tab\tseparated\tvalues", "a,b,c\n1,2,3",
    "\u0000", "\u007f", "\ufeffBOM", "\ufffd", "\U0010ffff", "",
]


def random_strings(count, seed):
    """Strings mixing every category character by character, where pre-tokenizer splits interact."""
    rng = random.Random(seed)
    pools = [
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "0123456789",
        " \t\n  ",
        "'’\".,;:!?-_()[]{}<>/\\|@#$%^&*+=~`",
        "éèüößçñøåæœ",
        "你好谢谢中文日本語한국어",
        "😀👍🏽❤️🇫🇷🚀",
        "\u0301\u0308\u200b\u00a0",
    ]
    out = []
    for _ in range(count):
        n = rng.randint(1, 40)
        out.append("".join(rng.choice(rng.choice(pools)) for _ in range(n)))
    return out


CHATS = {
    "reference": {"messages": [{"role": "user", "content": REFERENCE_QUESTION}], "add_generation_prompt": True},
    "user_no_prompt": {"messages": [{"role": "user", "content": "Hi"}], "add_generation_prompt": False},
    "with_system": {
        "messages": [{"role": "system", "content": "You are a pirate."}, {"role": "user", "content": "Greet me."}],
        "add_generation_prompt": True,
    },
    "multi_turn": {
        "messages": [
            {"role": "user", "content": "Name a prime number."},
            {"role": "assistant", "content": "7"},
            {"role": "user", "content": "Another one, bigger than 100?"},
        ],
        "add_generation_prompt": True,
    },
    "multi_turn_system": {
        "messages": [
            {"role": "system", "content": "You are a concise assistant."},
            {"role": "user", "content": "Name a prime number."},
            {"role": "assistant", "content": "7"},
            {"role": "user", "content": "Another one, bigger than 100?"},
        ],
        "add_generation_prompt": True,
    },
    "ends_with_assistant": {
        "messages": [{"role": "user", "content": "Say hi"}, {"role": "assistant", "content": "Hi!"}],
        "add_generation_prompt": False,
    },
    "unicode_and_newlines": {
        "messages": [{"role": "user", "content": "谢谢 👍🏽\n\n  indented\tand 'quoted' <b>html</b>"}],
        "add_generation_prompt": True,
    },
    "empty_content": {"messages": [{"role": "user", "content": ""}], "add_generation_prompt": True},
}

LONG_TEXT = (
    "Sampling from a language model turns a vector of scores into a choice. The scores, called logits, "
    "are first divided by a temperature: values below one sharpen the distribution, values above one "
    "flatten it. Then a truncation rule removes the unlikely tail. Top-k keeps the k highest scores; "
    "top-p keeps the smallest set of tokens whose probabilities add up to at least p; min-p keeps the "
    "tokens whose probability is at least a fraction of the most likely one. Libraries differ in the "
    "order in which they apply these rules, in whether they renormalise between them, and in how they "
    "treat ties. "
)


def long_chat():
    turns = []
    for i in range(3):
        turns.append({"role": "user", "content": f"Part {i + 1}. Please read this carefully.\n\n" + LONG_TEXT})
        turns.append({"role": "assistant", "content": f"I have read part {i + 1}. " + LONG_TEXT[: 120 + 40 * i]})
    turns.append({"role": "user", "content": "Summarise the difference between top-k and top-p in one sentence."})
    return turns


def ids_of(encoding):
    return list(encoding["input_ids"]) if hasattr(encoding, "keys") else list(encoding)


def tokenizer_fixture(tok):
    strings = NUMBERS + CJK + EMOJI + COMBINING + WHITESPACE + CONTRACTIONS + CODE + MISC
    strings += [tok.apply_chat_template(c["messages"], add_generation_prompt=c["add_generation_prompt"], tokenize=False)
                for c in CHATS.values()]
    added = [t.content for t in tok.added_tokens_decoder.values()]
    strings += added
    strings += [f"{t}text {t}\n" for t in added]
    strings += random_strings(90, seed=7)
    cases = []
    for s in strings:
        ids = tok(s, add_special_tokens=False)["input_ids"]
        cases.append({"text": s, "ids": ids, "decoded": tok.decode(ids)})
    return {
        "added_tokens": added,
        "pipeline": json.loads(tok.backend_tokenizer.to_str())["pre_tokenizer"],
        "cases": cases,
    }


def chat_fixture(tok):
    out = []
    for name, c in CHATS.items():
        text = tok.apply_chat_template(c["messages"], add_generation_prompt=c["add_generation_prompt"], tokenize=False)
        ids = ids_of(tok.apply_chat_template(c["messages"], add_generation_prompt=c["add_generation_prompt"], tokenize=True))
        out.append({"name": name, **c, "text": text, "ids": ids})
    return {"template": tok.chat_template, "cases": out}


def main():
    gguf, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(os.path.join(out_dir, "logits"), exist_ok=True)
    model_dir, gguf_file = os.path.split(os.path.abspath(gguf))
    tok = AutoTokenizer.from_pretrained(model_dir, gguf_file=gguf_file)

    tokenizer = tokenizer_fixture(tok)
    chat = chat_fixture(tok)
    print(f"{len(tokenizer['cases'])} tokenizer strings, {len(chat['cases'])} chats", file=sys.stderr)

    model = AutoModelForCausalLM.from_pretrained(model_dir, gguf_file=gguf_file, dtype=torch.float32)
    model.eval()
    prefix_ids = tok(REFERENCE_PREFIX, add_special_tokens=False)["input_ids"]

    def chat_ids(messages):
        return ids_of(tok.apply_chat_template(messages, add_generation_prompt=True, tokenize=True))

    contexts = {
        "reference": chat_ids([{"role": "user", "content": REFERENCE_QUESTION}]) + prefix_ids,
        "france": chat_ids([{"role": "user", "content": "What is the capital of France?"}]),
        "system_multi_turn": chat_ids(CHATS["multi_turn_system"]["messages"]),
        "plain_text": tok("The quick brown fox jumps over the lazy dog. The quick brown", add_special_tokens=False)["input_ids"],
        "long_chat": chat_ids(long_chat()),
    }
    assert len(contexts["long_chat"]) > 500, len(contexts["long_chat"])
    logits = {"transformers": transformers.__version__, "torch": torch.__version__, "model": gguf_file, "contexts": {}}
    with torch.no_grad():
        for name, ids in contexts.items():
            last = model(torch.tensor([ids])).logits[0, -1].float().numpy().astype(np.float32)
            path = f"logits/{name}.npy"
            np.save(os.path.join(out_dir, path), last)
            logits["contexts"][name] = {"ids": ids, "logits_file": path}
            print(f"{name}: {len(ids)} ids", file=sys.stderr)
        ids = torch.tensor([contexts["reference"]])
        out = model.generate(ids, attention_mask=torch.ones_like(ids), do_sample=False, max_new_tokens=GREEDY_TOKENS,
                             min_new_tokens=GREEDY_TOKENS, pad_token_id=2)
    logits["greedy_reference"] = out[0, ids.shape[1]:].tolist()
    logits["greedy_reference_text"] = tok.decode(logits["greedy_reference"])

    for name, value in [("tokenizer_corpus.json", tokenizer), ("chat.json", chat), ("logits.json", logits)]:
        with open(os.path.join(out_dir, name), "w") as f:
            json.dump(value, f, indent=1, ensure_ascii=False)
            f.write("\n")


if __name__ == "__main__":
    main()
