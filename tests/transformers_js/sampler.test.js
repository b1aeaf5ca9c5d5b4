// The transformers.js column against the real package: for the committed fixtures' logits, the
// pinned @huggingface/transformers runs its own logits processors (`_get_logits_processor`) and
// its own sampler (`LogitsSampler.getSampler`), and what it keeps and draws must be what
// `sampling-lab inspect` reports as `transformers_js`.
//
// Kept sets: the sampler's own probabilities, each position mapped to its token by the sampler
// itself, equal the column's support (probabilities within 1e-6). Draws: N seeded draws land
// only on the column's support, and their total variation to its probabilities stays under
// ½ Σ √(p(1−p)/N) + √(ln(1/δ)/2N) with δ = 1e-9, the bound the Rust Monte Carlo check uses.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const PACKAGE = new URL("../../node_modules/@huggingface/transformers/", import.meta.url);
const source = (path) => import(new URL(`src/${path}`, PACKAGE));
const { LogitsSampler } = await source("generation/logits_sampler.js");
const { GenerationConfig } = await source("generation/configuration_utils.js");
const { PreTrainedModel } = await source("models/modeling_utils.js");
const { Tensor } = await source("utils/tensor.js");
const { random } = await source("utils/random.js");
const VERSION = JSON.parse(readFileSync(new URL("package.json", PACKAGE))).version;

const CLI = "target/debug/sampling-lab";
const DELTA = 1e-9;
const TOLERANCE = 1e-6;
/** Beyond this many kept tokens the position → token map is sampled, not walked in full. */
const MAPPED = 300;

const fixtureLogits = (name) => npyFloat32(readFileSync(`tests/fixtures/logits/${name}.npy`));
const referenceIds = JSON.parse(readFileSync("tests/fixtures/cases.json")).contexts.reference.ids;

const CASES = [
  { name: "temperature alone: the implicit top_k=50", logits: "reference", params: { do_sample: true, temperature: 0.7 } },
  { name: "SmolLM2's recommended settings: top_p does nothing", logits: "reference", params: { do_sample: true, temperature: 0.2, top_p: 0.9 } },
  { name: "top_k=0, top_p=0.9: the whole vocabulary", logits: "reference", params: { do_sample: true, temperature: 0.7, top_k: 0, top_p: 0.9 }, draws: 3000 },
  { name: "top_k=None: the whole vocabulary at T=1", logits: "france", params: { do_sample: true, top_k: null }, draws: 3000 },
  { name: "ties at the k-th score: exactly k, the lower ids", logits: [3, 2, 2, 1], params: { do_sample: true, top_k: 2 } },
  { name: "temperature 0 with sampling: greedy", logits: "reference", params: { do_sample: true, temperature: 0 } },
  { name: "repetition penalty over the whole context", logits: "reference", params: { do_sample: true, temperature: 0.7, top_k: 40, repetition_penalty: 1.3 }, context: referenceIds },
  { name: "greedy with n-gram bans", logits: "reference", params: { no_repeat_ngram_size: 2 }, context: referenceIds },
];

test("the installed package is the version the column reproduces", () => {
  const report = inspect([1, 0], {});
  assert.equal(VERSION, report.transformers_js.version);
});

for (const c of CASES) {
  test(`transformers.js ${VERSION}: ${c.name}`, async () => {
    const logits = typeof c.logits === "string" ? fixtureLogits(c.logits) : Float32Array.from(c.logits);
    const context = c.context ?? [];
    const column = inspect(logits, c.params, context).transformers_js;
    assert.equal(column.error, null);
    const real = await realSampler(logits, c.params, context);
    if (!real.config.do_sample) {
      const [[token]] = await real.sampler(real.scores);
      assert.deepEqual(column.support, [[Number(token), 1]]);
      return;
    }
    await assertSameSupport(real, column.support);
    assertDraws(await draw(real, c.draws ?? 20_000, 7), column.support);
  });
}

/** The package's processors and sampler for one call, on one step's logits. */
async function realSampler(logits, params, context) {
  const config = Object.assign(new GenerationConfig({}), params);
  const processors = PreTrainedModel.prototype._get_logits_processor.call({}, config, context.length);
  const input = new Tensor("float32", Float32Array.from(logits), [1, logits.length]);
  const scores = processors([context.map(BigInt)], input)[0];
  return { config, scores, sampler: LogitsSampler.getSampler(config) };
}

/** The sampler's own probabilities, each kept position mapped to its token by the sampler. */
async function keptByTheSampler({ sampler, scores }) {
  const original = sampler.randomSelect.bind(sampler);
  let probabilities = null;
  sampler.randomSelect = (p) => { probabilities = p; return 0; };
  await sampler(scores);
  const positions = [...probabilities.keys()].filter((i) => probabilities[i] > 0);
  const mapped = positions.length <= MAPPED ? positions : positions.filter((_, n) => n % Math.ceil(positions.length / MAPPED) === 0);
  const kept = new Map();
  for (const position of mapped) {
    sampler.randomSelect = () => position;
    const [[token]] = await sampler(scores);
    kept.set(Number(token), probabilities[position]);
  }
  sampler.randomSelect = original;
  return { count: positions.length, kept };
}

async function assertSameSupport(real, support) {
  const exact = new Map(support);
  const { count, kept } = await keptByTheSampler(real);
  assert.equal(count, support.length, "kept count");
  for (const [token, p] of kept) {
    assert.ok(exact.has(token), `token ${token} is kept by transformers.js, not by the column`);
    assert.ok(Math.abs(exact.get(token) - p) <= TOLERANCE, `token ${token}: ${p} vs the column's ${exact.get(token)}`);
  }
}

async function draw({ sampler, scores }, n, seed) {
  random.seed(seed);
  const counts = new Map();
  for (let i = 0; i < n; i++) {
    const [[token]] = await sampler(scores);
    counts.set(Number(token), (counts.get(Number(token)) ?? 0) + 1);
  }
  return { n, counts };
}

function assertDraws({ n, counts }, support) {
  const exact = new Map(support);
  for (const token of counts.keys()) assert.ok(exact.has(token), `a draw landed on ${token}, outside the column's support`);
  let tv = 0;
  for (const [token, p] of exact) tv += Math.abs((counts.get(token) ?? 0) / n - p);
  tv /= 2;
  let bound = Math.sqrt(Math.log(1 / DELTA) / (2 * n));
  for (const p of exact.values()) bound += 0.5 * Math.sqrt((p * (1 - p)) / n);
  assert.ok(tv <= bound, `TV ${tv} above the bound ${bound}`);
}

function inspect(logits, params, context = []) {
  const dir = mkdtempSync(join(tmpdir(), "sampling-lab-tjs-"));
  writeFileSync(join(dir, "logits.json"), JSON.stringify(Array.from(logits)));
  const run = spawnSync(CLI, ["inspect", "--logits", join(dir, "logits.json"), "--params", JSON.stringify(params),
    "--context-ids", JSON.stringify(context)], { encoding: "utf8", maxBuffer: 256 << 20 });
  if (run.status !== 0) throw new Error(`sampling-lab inspect failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** A little-endian float32 .npy (version 1 or 2). */
function npyFloat32(bytes) {
  const headerLength = bytes[6] === 1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const start = (bytes[6] === 1 ? 10 : 12) + headerLength;
  const header = bytes.subarray(0, start).toString("latin1");
  assert.match(header, /'descr': '<f4'/);
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset + start, bytes.byteOffset + bytes.length));
}
