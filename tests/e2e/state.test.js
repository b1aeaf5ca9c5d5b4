// The page's URL state parser against generated hostile links (fast-check): it never throws, and
// what it returns is either a field's checked value or, with a named problem, its default. The
// browser tests hold the other half: whatever a link holds reaches the page as text only.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { DEFAULTS, MOST_COMPARED, checkColumns, comparedColumns, parseState, stateQuery, toggleCompared } from "../../www/state/state.js";
import { LANGUAGES } from "../../www/shared/languages.js";
import { say } from "./catalog.js";
import { cliColumns } from "./harness.js";

const KEYS = [...Object.keys(DEFAULTS), "evil", "__proto__", "constructor", "toString", ""];
const HOSTILE = ['<img src=x onerror="alert(1)">', "<script>alert(2)</script>", "javascript:alert(3)", '{"__proto__": {"x": 1}}',
  "null", "[]", "1e309", "-1", "NaN", "0x10", "\u0000", "\u202e", "😀".repeat(50), "a".repeat(25_000), "%", "%E0%A4%A", "1,2,3", "hf,evil"];

const value = fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.constantFrom(...HOSTILE), fc.json(), fc.integer().map(String),
  fc.double().map(String), fc.subarray([...cliColumns(), "evil", ""]).map((c) => c.join(",")));
const field = fc.tuple(fc.oneof(fc.constantFrom(...KEYS), fc.string()), value);
/** The core's columns, as the worker lists them. */
const COLUMNS = cliColumns();
const NAME = /^[a-z][a-z0-9_]{0,39}$/;
const isObjectJson = (t) => { try { const v = JSON.parse(t); return v !== null && typeof v === "object" && !Array.isArray(v); } catch { return false; } };
const text = (v) => typeof v === "string" && v.length <= 20_000;
const whole = (min, max) => (v) => Number.isInteger(v) && v >= min && v <= max;
/** What each kept field must be, whatever the link held: the page's documented limits. */
const INVARIANTS = {
  system: text, user: text, prefix: text,
  params: (v) => text(v) && isObjectJson(v),
  gc: (v) => v === "" || isObjectJson(v),
  gen: (v) => v === "" || isObjectJson(v),
  logits: (v) => /^[-+0-9.,eE \t]{0,2000}$/.test(v),
  preset: (v) => /^[a-z0-9.-]{0,40}$/.test(v),
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  model: (v) => typeof v === "string" && v.length <= 2000 && !/[\s\u0000-\u001f]/.test(v),
  exercises: (v) => v === "" || v === "default" || (/\.json$/.test(v) && !v.includes("..") && !v.includes("//")),
  task: whole(0, 99),
  teacher: (v) => typeof v === "boolean",
  semantics: (v) => NAME.test(v),
  seed: whole(0, 2 ** 53 - 1),
  max: whole(1, 8192),
  step: (v) => v === null || whole(0, 8191)(v),
  log: (v) => typeof v === "boolean",
  embed: (v) => typeof v === "boolean",
  threads: whole(0, 8),
  view: (v) => v === "compare" || v === "panels",
  pane: (v) => v === "step" || v === "answer",
  cols: (v) => v === "" || v === "none" || v.split(",").every((c) => NAME.test(c)),
  lang: (v) => v === "" || LANGUAGES.includes(v),
  stepfile: (v) => v === "" || (/\.json$/.test(v) && !v.includes("..")),
};

/** A query string as a browser would hand it over: encoded pairs, or raw text. */
const query = fc.oneof(
  fc.array(field, { maxLength: 12 }).map((pairs) => `?${new URLSearchParams(pairs)}`),
  fc.string({ unit: "binary", maxLength: 300 }),
);

test("10 000 hostile links: the state parser never throws, and every field is checked or defaulted by name", () => {
  fc.assert(fc.property(query, (search) => {
    const { state, problems } = parseState(search);
    assert.deepEqual(Object.keys(state).sort(), Object.keys(DEFAULTS).sort(), "only the page's own fields");
    const said = problems.map((p) => say(p));
    assert.ok(said.every((p) => p.length > 0 && p.length < 400), "problems are short named messages");
    assert.deepEqual(Object.keys(INVARIANTS).sort(), Object.keys(DEFAULTS).sort(), "every field has an invariant");
    for (const [key, v] of Object.entries(state)) assert.ok(INVARIANTS[key](v), `${key} kept as ${JSON.stringify(v).slice(0, 80)}`);
    // What was kept is what the checks accept: written back and read again, it reads the same with no problem.
    const again = parseState(stateQuery(state));
    assert.deepEqual(again.problems, []);
    assert.deepEqual(again.state, state);
    const given = new URLSearchParams(search);
    for (const key of given.keys()) {
      if (!Object.hasOwn(DEFAULTS, key)) assert.ok(said.some((p) => p.includes("unknown link field")), `unknown ${key} named`);
    }
  }), { numRuns: 10_000, seed: 20261203 });
});

test("a link's columns are checked against the core's list: unknown names are named, the rest kept", () => {
  fc.assert(fc.property(query, (search) => {
    const { state } = parseState(search);
    const { state: checked, problems } = checkColumns(state, COLUMNS);
    assert.ok(COLUMNS.includes(checked.semantics));
    const { compared, unknown } = comparedColumns(checked.cols, COLUMNS);
    assert.deepEqual(unknown, []);
    assert.ok(compared.every((c) => COLUMNS.includes(c) && c !== "hf"), "hf is never compared with itself");
    assert.ok(compared.length <= MOST_COMPARED);
    const named = problems.map((p) => say(p)).join(" ");
    for (const name of comparedColumns(state.cols, COLUMNS).unknown) assert.ok(named.includes(name), `${name} is named`);
    if (!COLUMNS.includes(state.semantics)) assert.match(named, /“semantics” names no column/);
    // Toggling a column twice comes back to the same comparison (the order aside: one added comes last).
    for (const name of COLUMNS.slice(1)) {
      const there = comparedColumns(toggleCompared(compared, name), COLUMNS).compared;
      assert.ok(there.includes(name) !== compared.includes(name), `${name} toggled`);
      const back = comparedColumns(toggleCompared(there, name), COLUMNS).compared;
      if (compared.length < MOST_COMPARED) assert.deepEqual([...back].sort(), [...compared].sort(), `${name} toggled back`);
    }
  }), { numRuns: 2_000, seed: 20261204 });
});
