// The wasm build of the model, driven through the page and its worker in Debian's Chromium:
// the same ids, kept counts and greedy tokens as the native build, and a worker that survives
// bad files and comes back from a crash.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { BASE, MODEL, PRESETS, cliGenerateIds, cliInspect, exactly, openPage, useBrowser, waitReady } from "./harness.js";

const browser = useBrowser();
const REFERENCE_IDS = JSON.parse(readFileSync("tests/fixtures/cases.json", "utf8")).contexts.reference.ids;

test("the reference chat gives the 46 reference ids and the five published kept counts", async () => {
  const { page, errors } = await openPage(browser);
  await page.locator("#tokens-box summary").filter({ hasText: "Tokens (46)" }).waitFor();
  const ids = await page.locator("#chips .chip small").allTextContents();
  assert.deepEqual(ids.map(Number), REFERENCE_IDS);
  for (const [label, expected] of Object.keys(PRESETS).map((l, i) => [l, [50, 49152, 40, 58, 24][i]])) {
    await page.getByRole("button", { name: label, exact: true }).click();
    await page.getByTestId("kept-hf").filter({ hasText: exactly(expected) }).waitFor();
  }
  assert.deepEqual(errors, []);
});

test("greedy generation of 32 tokens gives the native build's ids, and a step can be inspected", async () => {
  const { page, errors } = await openPage(browser);
  const native = cliGenerateIds({}, 32);
  assert.equal(native.length, 32);
  await page.getByLabel(/generate\(\) keyword arguments/).fill("{}");
  await page.getByLabel("max new tokens").fill("32");
  await page.getByRole("button", { name: "Generate" }).click();
  await page.locator("#gen-stats").filter({ hasText: "max_new_tokens" }).waitFor({ timeout: 120_000 });
  const ids = await page.locator("#completion [data-token]").evaluateAll((els) => els.map((e) => Number(e.dataset.token)));
  assert.deepEqual(ids, native);
  console.log(`# browser: ${await page.locator("#model-info").textContent()} · ${await page.locator("#gen-stats").textContent()}`);

  const params = { do_sample: true, temperature: 0.7, top_k: 40, top_p: 0.9 };
  await page.getByLabel(/generate\(\) keyword arguments/).fill(JSON.stringify(params));
  await page.locator("#completion [data-step='0']").click();
  await page.getByTestId("inspecting").filter({ hasText: "generated token 0" }).waitFor();
  const cli = cliInspect(params); // step 0's logits are those of the token after the prompt
  await page.getByTestId("kept-hf").filter({ hasText: exactly(cli.hf.kept) }).waitFor();
  assert.equal(await page.getByTestId("tv-literal").textContent(), cli.compare.literal.tv.toFixed(4));
  assert.deepEqual(errors, []);
});

test("a generated token can be branched: the answer goes on from another token, the focus with it, and the earlier branch comes back", async () => {
  const { page, errors } = await openPage(browser);
  await page.getByLabel(/generate\(\) keyword arguments/).fill("{}");
  await page.getByLabel("max new tokens").fill("10");
  await page.getByRole("button", { name: "Generate" }).click();
  await page.locator("#gen-stats").filter({ hasText: "max_new_tokens" }).waitFor({ timeout: 120_000 });
  const tokens = () => page.locator("#completion [data-token]").evaluateAll((els) => els.map((e) => Number(e.dataset.token)));
  const original = await tokens();
  // The answer's Chinese characters come in byte tokens: marked, each run naming its character.
  const runs = await page.locator("#completion .byte-token").evaluateAll((els) => els.map((e) => [e.title, e.textContent]));
  assert.ok(runs.length >= 2, "byte tokens in the greedy answer");
  for (const [title, text] of runs) {
    const [, spelled] = /^(?:⟨[0-9A-F]{2}⟩ ?)+ → “(.+)”$/.exec(title);
    if (text) assert.ok(spelled.endsWith(text), `${title} ends with ${text}`);
  }
  await page.locator("#completion [data-step='3']").click();
  await page.getByTestId("branch-form").waitFor();
  const other = Number(await page.getByTestId("branch-token").inputValue());
  assert.notEqual(other, original[3]);
  await page.getByRole("button", { name: "Branch", exact: true }).click();
  await page.locator("#gen-stats").filter({ hasText: "decoded after the branch" }).waitFor({ timeout: 120_000 });
  const branched = await tokens();
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.step), "3", "the focus is on the new answer's first token");
  assert.deepEqual(branched.slice(0, 3), original.slice(0, 3));
  assert.equal(branched[3], other);
  assert.equal(branched.length, 10);
  await page.getByTestId("branches").getByRole("button", { name: "Go back" }).click();
  await page.locator("#gen-stats").filter({ hasText: "0 decoded after the branch" }).waitFor();
  assert.deepEqual(await tokens(), original);
  assert.equal(await page.getByTestId("branches").locator("li").count(), 1, "the branch just left is listed");
  await page.screenshot({ path: "target/screenshots/branching.png", fullPage: true });
  assert.deepEqual(errors, []);
});

test("on a phone, a tapped token of the answer offers its figures, out of sight above, and takes the reader there", async () => {
  const page = await browser.browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(BASE);
  await waitReady(page);
  await page.getByLabel("max new tokens").fill("6");
  await page.getByRole("button", { name: "Generate" }).click();
  await page.locator("#gen-stats").filter({ hasText: "max_new_tokens" }).waitFor({ timeout: 120_000 });
  await page.locator("#completion [data-step='2']").click();
  const offer = page.getByRole("button", { name: "See its figures ↑" });
  await offer.waitFor();
  await page.getByTestId("inspecting").filter({ hasText: "generated token 2" }).waitFor();
  await offer.click();
  await page.waitForFunction(() => {
    const box = document.getElementById("finding").getBoundingClientRect();
    return box.top >= -1 && box.bottom <= innerHeight;
  });
  assert.equal(await page.evaluate(() => document.activeElement.id), "finding");
  await page.close();
});

test("a generation can be cancelled between tokens", async () => {
  const { page } = await openPage(browser);
  await page.getByLabel("max new tokens").fill("4000");
  await page.getByLabel(/generate\(\) keyword arguments/).fill("{}");
  await page.getByRole("button", { name: "Generate" }).click();
  await page.locator("#completion [data-step='3']").waitFor();
  await page.getByRole("button", { name: "Cancel" }).click();
  await page.locator("#gen-stats").filter({ hasText: "cancelled" }).waitFor();
  assert.ok((await page.locator("#completion [data-token]").count()) < 4000);
});

test("a corrupt model file is reported and the running model keeps working", async () => {
  const { page } = await openPage(browser);
  const truncated = readFileSync(MODEL).subarray(0, 4 << 20);
  await page.getByLabel("Open a .gguf file").setInputFiles({ name: "broken.gguf", mimeType: "application/octet-stream", buffer: truncated });
  await page.getByTestId("error").filter({ hasText: /truncated/i }).waitFor({ timeout: 60_000 });
  await waitReady(page);
  await page.getByRole("button", { name: "top_k 40", exact: true }).click();
  await page.getByTestId("kept-hf").filter({ hasText: /^40$/ }).waitFor();

  await page.getByLabel("Open a .gguf file").setInputFiles({ name: "notes.gguf", mimeType: "text/plain", buffer: Buffer.from("not a model") });
  await page.getByTestId("error").filter({ hasText: /not a GGUF/i }).waitFor({ timeout: 60_000 });
  // The model's refusal is a sentence of the catalogs, said in the page's language.
  await page.getByTestId("lang").selectOption("zh-Hans");
  await page.locator("#model-file").setInputFiles({ name: "notes.gguf", mimeType: "text/plain", buffer: Buffer.from("not a model") });
  await page.getByTestId("error").filter({ hasText: "不是 GGUF 文件：它以字节 6e6f7420 开头，GGUF 以 `GGUF` 开头" }).waitFor({ timeout: 60_000 });
  await page.getByTestId("lang").selectOption("en");
  await page.getByRole("button", { name: "temp 0.7", exact: true }).click();
  await page.getByTestId("kept-hf").filter({ hasText: /^50$/ }).waitFor();
});

for (const [cause, event] of [["a panic", "sampling-lab:trap"], ["running out of memory", "sampling-lab:trap-memory"]]) test(`a crash inside the wasm (${cause}) is reported, the worker restarts, the error line says so until the user acts, and the user's prompt, arguments and view stay`, async () => {
  const { page } = await openPage(browser);
  await page.getByLabel("User message").fill("Name a colour.");
  await page.getByRole("button", { name: "top_k 0, top_p 0.9", exact: true }).click();
  await page.locator('#compare-table th[data-column="vllm"] button.compare-toggle').click();
  await page.waitForURL(/cols=literal%2Ccorrected%2Cvllm/);
  await page.getByLabel("Panels").check();
  // The figures of this chat and preset, not those of the chat the page opened with.
  await page.locator("#effective-top_k").filter({ hasText: /→ 0 \(passed\)/ }).waitFor();
  const kept = await page.getByTestId("kept-hf").filter({ hasText: /^\d+$/ }).textContent();
  const before = { url: page.url(), params: await page.getByLabel(/generate\(\) keyword arguments/).inputValue() };
  await page.evaluate((name) => window.dispatchEvent(new Event(name)), event);
  // The status says the model is coming back, not that it is ready, from the moment of the crash.
  const statusAtCrash = await page.waitForFunction(() => /crashed/.test(document.querySelector("[data-testid=error]").textContent)
    && document.querySelector("[data-testid=model-status]").textContent, null, { timeout: 120_000 });
  assert.notEqual(await statusAtCrash.jsonValue(), "ready");
  await waitReady(page);
  await page.getByTestId("kept-hf").filter({ hasText: exactly(kept) }).waitFor();
  // Back to work, the error line still says what happened, until the reader changes something.
  await page.getByTestId("error").filter({ hasText: /crashed.*restarted/ }).waitFor();
  assert.equal(await page.getByLabel("User message").inputValue(), "Name a colour.");
  assert.equal(await page.getByLabel(/generate\(\) keyword arguments/).inputValue(), before.params);
  assert.equal(page.url(), before.url, "the view and the columns compared are kept in the URL");
  assert.equal(await page.locator("#panel-literal").isVisible(), true);
  await page.getByLabel("Compare").check();
  await page.locator('#compare-table[data-compared="literal,corrected,vllm"]').waitFor();
  await page.getByRole("button", { name: "top_k 40", exact: true }).click();
  await page.getByTestId("kept-hf").filter({ hasText: /^40$/ }).waitFor();
  assert.equal(await page.getByTestId("error").textContent(), "");
});

test("a long session does not leak: 260 inspects and 10 generations leave wasm memory within 5 %", async () => {
  const page = await browser.browser.newPage();
  await page.goto(BASE);
  const growth = await page.evaluate(async (modelUrl) => {
    const wasm = await import("./pkg/sampling_lab.js");
    const exports = await wasm.default();
    const lab = wasm.Lab.fromGguf(new Uint8Array(await (await fetch(modelUrl)).arrayBuffer()), "exact");
    const chat = { messages: [{ role: "user", content: "How do you say thank you in Chinese?" }], answer_prefix: 'In Chinese, you can say "' };
    const params = ['{"do_sample": true, "temperature": 0.7}', '{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}'];
    const size = () => exports.memory.buffer.byteLength;
    // The file's copy, freed once parsed, leaves a hole of ~93 MiB under the weights that the
    // allocator fills before it grows memory: steps held until memory grows take it up, so that
    // anything kept from here on shows as growth.
    const holding = [];
    for (const start = size(); size() === start && holding.length < 2_000;) holding.push(lab.nextStep(chat));
    const round = (i) => {
      const inspected = (step, params) => {
        step.inspect(params, null);
        step.free();
      };
      for (let j = 0; j < 25; j++) inspected(lab.nextStep(chat), params[j % 2]);
      const generation = lab.startGeneration(chat, { params: params[i % 2], seed: i, maxNewTokens: 8 });
      while (generation.step() !== null);
      inspected(generation.stepAt(3), params[0]);
      generation.free();
    };
    round(0);
    const first = size();
    // Of the ~245 MiB after the first round, the 234 steps of the rounds below, each kept rather
    // than freed, add 18 %; the 9 generations, kept, add 47 %.
    for (let i = 1; i < 10; i++) round(i);
    for (const step of holding) step.free();
    return size() / first - 1;
  }, `${BASE}models/SmolLM2-135M-Instruct.Q4_1.gguf`);
  assert.ok(growth <= 0.05, `wasm memory grew by ${(100 * growth).toFixed(1)} %`);
  await page.close();
});

/** The reference chat as the wasm API takes it. */
const REFERENCE_CHAT = {
  messages: [{ role: "user", content: "How do you say thank you in Chinese?" }],
  answer_prefix: 'In Chinese, you can say "',
};

/** A page with the wasm API's `Lab` for the default GGUF, exact precision, as `window.lab`. */
async function pageWithLab() {
  const page = await browser.browser.newPage();
  await page.goto(BASE);
  await page.evaluate(async (modelUrl) => {
    const wasm = await import("./pkg/sampling_lab.js");
    await wasm.default();
    window.lab = wasm.Lab.fromGguf(new Uint8Array(await (await fetch(modelUrl)).arrayBuffer()), "exact");
  }, `${BASE}${MODEL}`);
  return page;
}

test("in the browser, a branch's logits at its first new step equal a fresh forward of the same ids", async () => {
  const page = await pageWithLab();
  const result = await page.evaluate((chat) => {
    const lab = window.lab;
    const generation = lab.generate(chat, { params: '{"do_sample": true}', seed: 3, maxNewTokens: 6 }, () => true);
    const [first, second] = generation.stepAt(2).candidates(2);
    const other = second[0] === generation.generatedIds()[2] ? first[0] : second[0];
    generation.branch(2, other);
    generation.step();
    const ids = [...generation.promptIds(), ...generation.generatedIds()];
    const context = ids.slice(0, generation.promptIds().length + 3);
    const cached = generation.stepAt(3).logits;
    const fresh = lab.nextLogitsAfter(Uint32Array.from(context));
    let diff = 0;
    for (let i = 0; i < fresh.length; i++) diff = Math.max(diff, Math.abs(cached[i] - fresh[i]));
    return { diff, chosen: generation.generatedIds()[2], other, branches: generation.branches().length };
  }, REFERENCE_CHAT);
  assert.equal(result.chosen, result.other);
  assert.equal(result.branches, 1);
  assert.ok(result.diff <= 1e-4, `max |Δlogit| ${result.diff}`);
});

test("the wasm API streams tokens to a callback, stops when it returns false, and keeps each step", async () => {
  const page = await pageWithLab();
  const result = await page.evaluate(async (chat) => {
    const lab = window.lab;
    const seen = [];
    const generation = lab.generate(chat, { params: "{}", maxNewTokens: 32 }, (step) => { seen.push(step); return seen.length < 5; });
    const report = generation.stepAt(4).inspect('{"do_sample": true, "temperature": 0.7, "top_k": 40}', null);
    let error = null;
    try { lab.startGeneration(chat, { semantics: "sideways" }); } catch (e) { error = e instanceof Error ? e.message : `not an Error: ${e}`; }
    return { seen, steps: generation.steps, ids: Array.from(generation.generatedIds()), kept: report.hf.kept, contextLength: generation.stepAt(4).contextIds.length, error };
  }, REFERENCE_CHAT);
  assert.equal(result.steps, 5);
  assert.deepEqual(result.seen.map((s) => s.index), [0, 1, 2, 3, 4]);
  assert.deepEqual(result.seen.map((s) => s.token), result.ids);
  assert.deepEqual(Object.keys(result.seen[0]).sort(), ["finish", "index", "probability", "text", "token", "token_text"]);
  assert.equal(result.kept, 40);
  assert.equal(result.contextLength, 46 + 4);
  assert.match(result.error, /semantics must be one of `hf`, .+, not `sideways`/);
});

test("in the browser, speculation at temperature zero gives greedy decoding's ids for every draft source", async () => {
  const page = await pageWithLab();
  const result = await page.evaluate((chat) => {
    const lab = window.lab;
    const generation = lab.generate(chat, { params: "{}", maxNewTokens: 64 }, () => true);
    const plain = Array.from(generation.generatedIds());
    const runs = Object.fromEntries(["greedy", "prompt-lookup", "sampled"].map((draft) => {
      const s = lab.speculate(chat, { semantics: "dflash", params: "{}", maxNewTokens: 64 }, draft, 16);
      return [draft, { ids: s.ids, tau: s.mean_acceptance_length, rounds: s.rounds.length }];
    }));
    const curve = lab.acceptanceCurve(chat, 8, Float64Array.from([0, 0.5, 1.5]));
    return { plain, runs, curve };
  }, REFERENCE_CHAT);
  for (const [draft, run] of Object.entries(result.runs)) assert.deepEqual(run.ids, result.plain, draft);
  assert.ok(result.runs.greedy.tau > 8, `a greedy draft at zero is kept nearly whole: ${result.runs.greedy.tau}`);
  assert.equal(result.curve[0][1], 8, "at temperature zero the expected acceptance is the whole block");
  assert.ok(result.curve[1][1] > result.curve[2][1], JSON.stringify(result.curve));
});

test("the page's speculative view shows every round, the histogram, the curve and the distribution at a rejection", async () => {
  const { page, errors } = await openPage(browser);
  await page.getByRole("button", { name: "DFlash's temperature 0.6" }).click();
  await page.getByLabel("max new tokens").fill("16");
  assert.equal(await page.locator("#spec-draft").inputValue(), "prompt-lookup", "the view opens on the draft speculation is for");
  await page.locator("#spec-draft").selectOption("greedy");
  assert.match(await page.getByTestId("spec-draft-note").textContent(), /not a speed-up/);
  await page.getByRole("button", { name: "Speculate" }).click();
  await page.getByTestId("spec-status").filter({ hasText: /mean τ/ }).waitFor({ timeout: 120_000 });
  const rounds = await page.locator("#spec-rounds .spec-round").count();
  assert.ok(rounds >= 1);
  // One token of the target's own per round; the last round may end on the token limit first.
  const own = await page.locator("#spec-rounds .bonus").count();
  assert.ok(own >= rounds - 1 && own <= rounds, `${own} own tokens in ${rounds} rounds`);
  assert.match(await page.locator("#chart-tau").getAttribute("aria-label"), /T 0\.00: 16\.00/);
  // A rejected draft token opens the target's distribution there, the draft and the draw marked.
  await page.locator("#spec-rounds button.rejected").first().click();
  const rejection = page.getByTestId("spec-rejection");
  await rejection.waitFor();
  assert.match(await rejection.locator("#spec-rejection-head").textContent(), /the draft proposed .+ \(p = [\d.]+\); the target drew .+ \(p = [\d.]+\)/);
  assert.equal(await rejection.locator("tr.draft").count(), 1);
  assert.equal(await rejection.locator("tr.drawn").count(), 1);
  await page.getByTestId("spec-rounds").screenshot({ path: "target/screenshots/speculative-rounds.png" });
  await rejection.screenshot({ path: "target/screenshots/speculative-rejection.png" });
  assert.deepEqual(errors, []);
});

test("a generation of the prompt just inspected goes on from its prefill (and says so), step for step the generation that prefills", async () => {
  const page = await pageWithLab();
  const result = await page.evaluate((chat) => {
    const lab = window.lab;
    const options = { params: '{"do_sample": true, "temperature": 0.7}', seed: 5, maxNewTokens: 12 };
    const run = (generation) => {
      while (generation.step() !== null);
      const logits = Array.from({ length: generation.steps }, (_, i) => Array.from(generation.stepAt(i).logits));
      return { ids: Array.from(generation.generatedIds()), logits, promptReused: generation.promptReused };
    };
    lab.nextStep(chat).inspect("{}", null);
    const resumed = run(lab.startGeneration(chat, options));
    const prefilled = run(lab.startGeneration(chat, options)); // the inspected prefill is used up
    return { resumed, prefilled };
  }, REFERENCE_CHAT);
  assert.equal(result.resumed.ids.length, 12);
  assert.deepEqual(result.resumed.ids, result.prefilled.ids);
  assert.deepEqual(result.resumed.logits, result.prefilled.logits, "bit for bit");
  assert.deepEqual([result.resumed.promptReused, result.prefilled.promptReused], [true, false], "the page says which had no prefill to time");
});

/** A little-endian f32 `.npy` vector (the fixtures transformers wrote). */
function readNpy(path) {
  const bytes = readFileSync(path);
  const headerLength = bytes.readUInt16LE(8);
  assert.match(bytes.subarray(10, 10 + headerLength).toString("latin1"), /'descr': '<f4'/);
  const data = bytes.subarray(10 + headerLength);
  return new Float32Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.length));
}

test("the wasm build's exact logits are transformers' logits within 1e-4 on the reference context", async () => {
  const page = await pageWithLab();
  const logits = await page.evaluate((chat) => Array.from(window.lab.nextStep(chat).logits), REFERENCE_CHAT);
  const expected = readNpy("tests/fixtures/logits/reference.npy");
  assert.equal(logits.length, expected.length);
  const deviation = logits.reduce((worst, x, i) => Math.max(worst, Math.abs(x - expected[i])), 0);
  console.log(`# browser exact logits: max |Δ| = ${deviation.toExponential(2)} against transformers`);
  assert.ok(deviation <= 1e-4, `max |Δlogit| ${deviation}`);
});

test("a reload takes the model from Cache Storage", async () => {
  const { page } = await openPage(browser);
  assert.doesNotMatch(await page.locator("#model-info").textContent(), /cache/);
  await page.reload();
  await waitReady(page);
  assert.match(await page.locator("#model-info").textContent(), /from the browser's cache/);
  await page.getByRole("button", { name: "top_k 40", exact: true }).click();
  await page.getByTestId("kept-hf").filter({ hasText: /^40$/ }).waitFor();
});

test("the Hugging Face layout loads from a URL (here a bf16 checkpoint written from the GGUF)", async () => {
  const dir = "models/e2e-hub-bf16";
  const run = spawnSync("target/debug/sampling-lab", ["export-hub", "--model", MODEL, "--out", dir, "--dtype", "bf16"], { encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  try {
    const { page } = await openPage(browser);
    await page.getByText("Model & files").click();
    await page.getByLabel("A model on Hugging Face or on this site").fill(`${BASE}${dir}/`);
    await page.getByRole("button", { name: "Load it" }).click();
    await page.locator("#model-info").filter({ hasText: "BF16" }).waitFor({ timeout: 120_000 });
    await waitReady(page);
    await page.locator("#tokens-box summary").filter({ hasText: "Tokens (46)" }).waitFor();
    await page.getByRole("button", { name: "top_k 40", exact: true }).click();
    await page.getByTestId("kept-hf").filter({ hasText: /^40$/ }).waitFor();

    await page.getByLabel("A model on Hugging Face or on this site").fill(`${BASE}models/no-such-model/`);
    await page.getByRole("button", { name: "Load it" }).click();
    await page.getByTestId("error").filter({ hasText: "HTTP 404" }).waitFor();
    await waitReady(page);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
