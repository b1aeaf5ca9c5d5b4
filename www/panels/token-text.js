// A token's text as the page shows it: whitespace drawn as symbols, a lone byte of a UTF-8
// character as ⟨E6⟩, and the character a run of byte tokens spells named in a tooltip.
// Presentation only: the texts come from the core's tokenizer.

/** Newlines and tabs drawn as symbols, and a lone byte of a UTF-8 character as ⟨E6⟩. */
export const visible = (text) =>
  text.replace(/\n/g, "↵").replace(/\t/g, "⇥").replace(/\\x([0-9A-Fa-f]{2})/g, (_, hex) => `⟨${hex.toUpperCase()}⟩`);

/** The bytes of a token that is part of a UTF-8 character (`\xE6`, `\xE8\xB0`); null otherwise. */
const byteParts = (text) => (/^(\\x[0-9A-Fa-f]{2})+$/.test(text) ? text.match(/[0-9A-Fa-f]{2}/g).map((h) => parseInt(h, 16)) : null);

/** Whether a token's text is (part of) a UTF-8 character's bytes. */
export const isByteToken = (text) => byteParts(text) !== null;

/** Bytes a UTF-8 sequence starting with `lead` has (1 for a stray continuation byte). */
const sequenceLength = (lead) => (lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1);

/** Marks the byte tokens (`items`: [{el, text}] in order) and names, in a tooltip, the character
 * each group of them spells once its last byte arrives: `⟨E6⟩ ⟨84⟩ ⟨9F⟩ → “感”`. A group ends at
 * the first token after which no character is left half-written. */
export function nameByteRuns(items) {
  let group = [];
  let pending = 0; // bytes the character being spelled still needs
  const close = () => {
    const bytes = Uint8Array.from(group.flatMap((item) => byteParts(item.text)));
    const label = `${group.map((item) => visible(item.text)).join(" ")} → “${new TextDecoder().decode(bytes)}”`;
    for (const item of group) {
      item.el.classList.add("byte-token");
      item.el.title = label;
    }
    group = [];
  };
  for (const item of items) {
    const bytes = byteParts(item.text);
    if (!bytes) {
      if (group.length) close();
      pending = 0;
      continue;
    }
    group.push(item);
    for (const b of bytes) pending = pending > 0 && b >= 0x80 && b < 0xc0 ? pending - 1 : sequenceLength(b) - 1;
    if (pending === 0) close();
  }
  if (group.length) close();
}

/** Blocks of Unicode a reader can name. */
const SCRIPTS = [
  [0x0370, 0x03ff, "Greek"], [0x0400, 0x04ff, "Cyrillic"], [0x0590, 0x05ff, "Hebrew"], [0x0600, 0x06ff, "Arabic"],
  [0x0900, 0x097f, "Devanagari"], [0x0e00, 0x0e7f, "Thai"], [0x3040, 0x30ff, "Japanese kana"],
  [0x4e00, 0x9fff, "Chinese characters"], [0xac00, 0xd7af, "Korean syllables"], [0x1f300, 0x1faff, "emoji"],
];

const hex = (n) => `U+${n.toString(16).toUpperCase().padStart(4, "0")}`;

/** A byte token as a chart's row names it, short: `⟨E6⟩ (Chinese, byte 1 of 3)`, `⟨84⟩ (a middle
 * byte)`, `⟨E6⟩⟨84⟩⟨9F⟩ “感”`; any other token as it reads. */
export function chartLabel(text) {
  const bytes = byteParts(text);
  if (!bytes) return visible(text);
  const [lead] = bytes;
  if (lead < 0xc0) return `${visible(text)} (${bytes.length === 1 ? "a middle byte" : "middle bytes"})`;
  const length = sequenceLength(lead);
  if (bytes.length >= length) return `${visible(text)} “${new TextDecoder().decode(Uint8Array.from(bytes))}”`;
  const [from, to] = codePoints(bytes, length);
  const script = SCRIPTS.find(([start, end]) => from >= start && to <= end)?.[2];
  const which = bytes.length === 1 ? "byte 1" : `bytes 1–${bytes.length}`;
  return `${visible(text)} (${script ? `${script.replace(/ characters$/, "")}, ` : ""}${which} of ${length})`;
}

/** The code points a UTF-8 character of `length` bytes starting with `bytes` can be. */
function codePoints(bytes, length) {
  let value = bytes[0] & (0x7f >> length);
  for (const b of bytes.slice(1, length)) value = (value << 6) | (b & 0x3f);
  const shift = 6 * (length - Math.min(bytes.length, length));
  return [value << shift, ((value + 1) << shift) - 1];
}

/** What a byte token is, in words: which part of a UTF-8 character, and which characters it can
 * begin (the tokens after it decide which one). Null for any other token. */
export function byteNote(text) {
  const bytes = byteParts(text);
  if (!bytes) return null;
  const [lead] = bytes;
  if (lead < 0xc0) return `${visible(text)}: ${bytes.length === 1 ? "a byte" : "bytes"} in the middle of a UTF-8 character, finishing what the tokens before began`;
  const length = sequenceLength(lead);
  // The code points the bytes so far allow: the lead's bits, then 6 per continuation byte.
  const [from, to] = codePoints(bytes, length);
  if (bytes.length >= length) return `${visible(text)}: the ${length} bytes of the UTF-8 character “${String.fromCodePoint(from)}”`;
  const script = SCRIPTS.find(([start, end]) => from >= start && to <= end)?.[2];
  const range = `one of ${hex(from)}–${hex(to)}${script ? ` (${script})` : ""}`;
  return `${visible(text)}: ${bytes.length === 1 ? "the first byte" : `the first ${bytes.length} bytes`} of a ${length}-byte UTF-8 character, ${range}; the tokens after it finish the character`;
}
