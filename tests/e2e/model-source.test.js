// Where a model comes from, as a user types it: every form the Hub field and `?model=` take,
// what each resolves to, what a link writes back, and a message naming what to type for the rest.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { modelSource, sourceText } from "../../www/shared/model-source.js";
import { say } from "./catalog.js";

const PAGE = "https://user.github.io/repo/?embed=1";
const HUB = "https://huggingface.co";

test("each form names the file or folder a user means", () => {
  const cases = {
    "HuggingFaceTB/SmolLM2-135M-Instruct": { kind: "hub", base: `${HUB}/HuggingFaceTB/SmolLM2-135M-Instruct/resolve/main/` },
    "HuggingFaceTB/SmolLM2-135M-Instruct-GGUF/smollm2-135m-instruct-q8_0.gguf":
      { kind: "url", url: `${HUB}/HuggingFaceTB/SmolLM2-135M-Instruct-GGUF/resolve/main/smollm2-135m-instruct-q8_0.gguf` },
    [`${HUB}/Org/Repo`]: { kind: "hub", base: `${HUB}/Org/Repo/resolve/main/` },
    [`${HUB}/Org/Repo/blob/main/sub/x.gguf`]: { kind: "url", url: `${HUB}/Org/Repo/resolve/main/sub/x.gguf` },
    [`${HUB}/Org/Repo/resolve/v1.0/x.gguf`]: { kind: "url", url: `${HUB}/Org/Repo/resolve/v1.0/x.gguf` },
    [`${HUB}/Org/Repo/tree/main/onnx`]: { kind: "hub", base: `${HUB}/Org/Repo/resolve/main/onnx/` },
    "https://hf.co/Org/Repo": { kind: "hub", base: `${HUB}/Org/Repo/resolve/main/` },
    "models/x.gguf": { kind: "url", url: "https://user.github.io/repo/models/x.gguf" },
    "./a/b/c.gguf": { kind: "url", url: "https://user.github.io/repo/a/b/c.gguf" },
    "/elsewhere/x.gguf": { kind: "url", url: "https://user.github.io/elsewhere/x.gguf" },
    "./hub-layout/": { kind: "hub", base: "https://user.github.io/repo/hub-layout/" },
    "https://user.github.io/repo/models/y.gguf": { kind: "url", url: "https://user.github.io/repo/models/y.gguf" },
  };
  for (const [text, source] of Object.entries(cases)) assert.deepEqual(modelSource(text, PAGE), { source }, text);
});

test("what cannot be loaded is refused with what to type", () => {
  const refusals = {
    "": /no model given: type a Hugging Face repo id/,
    "   ": /no model given/,
    "SmolLM2": /“SmolLM2” is not a Hub repo id \(Org\/Repo\)/,
    "Org/Repo/weights.bin": /a file in a Hub repo must be a \.gguf/,
    "bad id/x": /has spaces/,
    "https://example.com/x.gguf": /not from example\.com \(the page's Content-Security-Policy allows no other host\)/,
    "http://huggingface.co/Org/Repo": /not from huggingface\.co/,
    [`${HUB}/Org/Repo/discussions/1`]: /is not a repo, a file or a folder on the Hub/,
    "https://user.github.io/repo/readme.txt": /neither a \.gguf file nor a folder/,
    "javascript:alert(1)": /not from/,
    "O%rg/Re$po": /is not a Hub repo id/,
  };
  for (const [text, message] of Object.entries(refusals)) {
    const read = modelSource(text, PAGE);
    assert.ok(read.error, `${JSON.stringify(text)} is refused`);
    assert.match(say(read.error), message, text);
  }
});

test("a link writes a model back in a form that reads as the same model", () => {
  fc.assert(fc.property(fc.oneof(
    fc.tuple(fc.stringMatching(/^[A-Za-z0-9][\w.-]{0,20}$/), fc.stringMatching(/^[A-Za-z0-9][\w.-]{0,20}$/), fc.stringMatching(/^[\w-]{1,12}(\/[\w-]{1,12}){0,2}$/))
      .map(([org, repo, file]) => `${org}/${repo}/${file}.gguf`),
    fc.tuple(fc.stringMatching(/^[A-Za-z0-9][\w.-]{0,20}$/), fc.stringMatching(/^[A-Za-z0-9][\w.-]{0,20}$/)).map(([org, repo]) => `${org}/${repo}`),
    fc.stringMatching(/^\.\/[\w-]{1,12}(\/[\w-]{1,12}){0,3}\.gguf$/),
  ), (text) => {
    const first = modelSource(text, PAGE);
    fc.pre(first.source !== undefined);
    const again = modelSource(sourceText(first.source, PAGE), PAGE);
    assert.deepEqual(again, first);
  }), { numRuns: 2000, seed: 20261204 });
});
