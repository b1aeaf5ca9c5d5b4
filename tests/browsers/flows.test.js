// The page's core flows where readers are: Chromium, Firefox ESR and WebKitGTK (Debian's
// packages), each on `make site`'s dist/ with its _headers, as a host that sends them serves it.
// In each: the first figures are the CLI's before the model is there, greedy generation gives
// the native build's ids, a branch goes on from another token, an exercise is checked wrong and
// then right without the model, the embed fits 720 × 600 and asks for no model, and the page
// comes back from a crash of its wasm — with no page error. WebKitGTK has no SharedArrayBuffer
// even when isolated: the page must not need one.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { headersFile, serveStatic } from "../../scripts/static-server.mjs";
import { cliGenerateIds, cliInspect } from "../e2e/harness.js";
import { ENGINES } from "./engines.js";

/** In every page function: a few helpers, and a record of the page's own uncaught errors (the
 * one way to hear of them in WebKitGTK, whose WebDriver has no console). */
const HELPERS = `
  const $ = (s) => document.querySelector(s);
  const text = (s) => $(s)?.textContent ?? "";
  const until = async (check, what, ms = 180000) => {
    const end = performance.now() + ms;
    for (;;) {
      const value = check();
      if (value) return value;
      if (performance.now() > end) throw new Error("timed out waiting for " + what + " (error line: " + text("#error") + ")");
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const ready = () => until(() => text("[data-testid=model-status]") === "ready", "the model");
  // Drawn by the page's scripts: dist/'s pages carry their first figures before them.
  const figure = (id) => until(() => document.documentElement.dataset.drawn && /^\\d+$/.test(text("[data-testid=" + id + "]")) && text("[data-testid=" + id + "]"), id);
  const fill = (s, v) => {
    const el = $(s);
    el.value = v;
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
  };
  const press = (label) => [...document.querySelectorAll("button")].find((b) => b.textContent.trim() === label).click();
  if (!window.pageErrors) {
    window.pageErrors = [];
    addEventListener("error", (e) => window.pageErrors.push(e.message));
    addEventListener("unhandledrejection", (e) => window.pageErrors.push(String(e.reason)));
  }
`;

const state = {};

before(async () => {
  state.site = await serveStatic([["/", "dist"]], headersFile("dist/_headers", "/"));
  mkdirSync("target/screenshots", { recursive: true });
});

after(() => state.site?.server.close());

for (const [key, start] of Object.entries(ENGINES)) {
  test(`${key}: first figures, generation, a branch, the embed, an exercise and crash recovery, with no page error`, async () => {
    const engine = await start();
    const run = (body, arg) => engine.run(HELPERS + body, arg);
    const base = state.site.base;
    try {
      await engine.goto(base);
      const opened = await run(`
        await figure("kept-hf");
        press("top_k 40");
        await until(() => text("[data-testid=kept-hf]") === "40", "top_k 40's figures");
        const kept = {};
        for (const row of document.querySelectorAll("#figures tr")) kept[row.dataset.column] = text("#kept-" + row.dataset.column);
        return { kept, tv: text("#tv-literal"), isolated: crossOriginIsolated, sharedMemory: typeof SharedArrayBuffer !== "undefined" };`);
      const cli = cliInspect({ do_sample: true, temperature: 0.7, top_k: 40 });
      // The page writes counts as its language does (49,152 in English).
      for (const [name, kept] of Object.entries(opened.kept)) assert.equal(kept, cli[name].kept.toLocaleString("en-US"), `${engine.name}: ${name} kept`);
      assert.equal(opened.tv, cli.compare.literal.tv.toFixed(4));
      assert.equal(opened.isolated, true, `${engine.name} is cross-origin isolated by the _headers`);
      console.log(`# ${engine.name}: isolated, SharedArrayBuffer ${opened.sharedMemory ? "available" : "absent"}`);

      const ids = await run(`
        await ready();
        fill("#params", "{}");
        fill("#max-new-tokens", "8");
        press("Generate");
        await until(() => /max_new_tokens/.test(text("#gen-stats")), "the generation");
        return [...document.querySelectorAll("#completion [data-token]")].map((b) => Number(b.dataset.token));`);
      assert.deepEqual(ids, cliGenerateIds({}, 8), `${engine.name}: greedy ids`);

      const branched = await run(`
        $("#completion [data-step='3']").click();
        await until(() => !$("#branch-form").hidden && $("#branch-token").options.length, "the branch form");
        const chosen = Number($("#branch-token").value);
        $("#branch-go").click();
        await until(() => /decoded after the branch/.test(text("#gen-stats")), "the branch");
        return { chosen, ids: [...document.querySelectorAll("#completion [data-token]")].map((b) => Number(b.dataset.token)) };`);
      assert.deepEqual(branched.ids.slice(0, 3), ids.slice(0, 3), `${engine.name}: the branch keeps what came before`);
      assert.equal(branched.ids[3], branched.chosen);
      assert.notEqual(branched.chosen, ids[3]);

      const recovered = await run(`
        fill("#user", "Name a colour.");
        dispatchEvent(new Event("sampling-lab:trap"));
        await until(() => /crashed/.test(text("#error")), "the crash to be reported");
        await ready();
        await figure("kept-hf");
        return { user: $("#user").value, errors: window.pageErrors };`);
      assert.equal(recovered.user, "Name a colour.", `${engine.name}: the user's prompt survives a crash`);
      assert.deepEqual(recovered.errors, []);
      await engine.screenshot(`target/screenshots/${key}-page.png`);

      await engine.goto(`${base}?exercises=default`);
      const exercise = await run(`
        await until(() => /How many tokens can transformers draw/.test(text("[data-testid=exercise-task]")), "the first exercise");
        fill("#ex-input", "49152");
        press("Check");
        await until(() => /^Not quite/.test(text("[data-testid=exercise-result]")), "a wrong answer's verdict");
        const wrong = text("[data-testid=exercise-result]");
        fill("#ex-input", "50");
        press("Check");
        await until(() => /^Right/.test(text("[data-testid=exercise-result]")), "a right answer's verdict");
        return { wrong, errors: window.pageErrors };`);
      assert.match(exercise.wrong, /^Not quite/);
      assert.deepEqual(exercise.errors, []);

      await engine.resize(720, 600);
      await engine.goto(`${base}?embed=1&preset=temp-0.7&params=%7B%22do_sample%22%3Atrue%2C%22temperature%22%3A0.7%7D`);
      const embed = await run(`
        await until(() => text("[data-testid=kept-hf]") === "50", "the embed's figures");
        const shown = (s) => { const el = $(s); return Boolean(el && el.getClientRects().length); };
        return { height: document.documentElement.scrollHeight, inner: innerHeight, chart: shown("#compare-table"), controls: shown(".controls"), model: text("[data-testid=model-status]"), errors: window.pageErrors };`);
      assert.ok(embed.height <= 600 && embed.inner <= 600, `${engine.name}: the embed is ${embed.height} px tall in ${embed.inner}`);
      assert.equal(embed.chart, true);
      assert.equal(embed.controls, false);
      assert.notEqual(embed.model, "ready", `${engine.name}: the embed's figures need no model`);
      assert.deepEqual(embed.errors, []);
      await engine.screenshot(`target/screenshots/${key}-embed.png`);
      // The one error a console may show is the panic the test asked for (the worker reports it).
      const unexpected = engine.errors().filter((e) => !/panicked at .*\n\s*trap requested/.test(e));
      assert.deepEqual(unexpected, [], `${engine.name}: page errors`);
    } finally {
      await engine.quit();
    }
  });
}
