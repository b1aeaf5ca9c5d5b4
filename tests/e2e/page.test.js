// The page in Debian's Chromium: the real model loads in a worker and the headline figures on
// screen are the ones `sampling-lab inspect --model` prints for the same inputs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { BASE, PRESETS, cliInspect, cliInspectLogits, exactly, figure, keptIn, openPage, shown, useBrowser, waitReady } from "./harness.js";

const browser = useBrowser();

test("each reference preset shows the kept counts and TV that the CLI prints", async () => {
  const { page, errors } = await openPage(browser);
  const kept = [];
  for (const [label, params] of Object.entries(PRESETS)) {
    const cli = cliInspect(params);
    await page.getByRole("button", { name: label, exact: true }).click();
    await page.getByTestId("kept-hf").filter({ hasText: exactly(cli.hf.kept) }).waitFor();
    await page.getByTestId("kept-literal").filter({ hasText: exactly(cli.literal.kept) }).waitFor();
    assert.equal(await page.getByTestId("kept-corrected").textContent(), shown(cli.corrected.kept), label);
    assert.equal(await page.getByTestId("tv-literal").textContent(), cli.compare.literal.tv.toFixed(4), label);
    assert.equal(await page.getByTestId("tv-corrected").textContent(), cli.compare.corrected.tv.toFixed(4), label);
    kept.push(figure(await page.getByTestId("kept-hf").textContent()));
  }
  assert.deepEqual(kept, [50, 49152, 40, 58, 24]);
  await page.screenshot({ path: "target/screenshots/demo-desktop.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "target/screenshots/demo-phone.png", fullPage: true });
  assert.deepEqual(errors, []);
});

test("an invalid parameter shows transformers' error and the page keeps working", async () => {
  const { page } = await openPage(browser);
  await page.getByLabel(/generate\(\) keyword arguments/).fill('{"do_sample": true, "temperature": 0.0}');
  await page.getByRole("button", { name: "Inspect" }).click();
  await page.getByTestId("error").filter({ hasText: "`temperature` (=0.0) has to be a strictly positive float" }).waitFor();
  assert.equal(await page.getByTestId("kept-literal").textContent(), "1");
  await page.getByLabel(/generate\(\) keyword arguments/).fill('{"do_sample": tru');
  await page.getByRole("button", { name: "Inspect" }).click();
  await page.getByTestId("error").filter({ hasText: "not valid JSON" }).waitFor();
  await page.getByRole("button", { name: "top_k 40", exact: true }).click();
  await page.getByTestId("kept-hf").filter({ hasText: /^40$/ }).waitFor();
  assert.equal(await page.getByTestId("error").textContent(), "");
});

test("markup in the prompt is shown as text, never run", async () => {
  const { page, errors } = await openPage(browser);
  let dialogs = 0;
  page.on("dialog", (d) => { dialogs += 1; d.dismiss(); });
  const hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
  await page.getByLabel("User message").fill(hostile);
  await page.getByLabel("User message").press("Enter");
  await page.getByLabel("User message").blur();
  await page.getByTestId("rendered").filter({ hasText: "onerror" }).waitFor({ state: "attached" });
  assert.match(await page.getByTestId("rendered").textContent(), /<\|im_start\|>user\n<img src=x onerror="alert\(1\)"><script>/);
  assert.ok((await page.locator("#chips .chip").count()) > 46);
  assert.equal(await page.locator("#chips img, #chips script, .panels img").count(), 0);
  assert.equal(dialogs, 0);
  assert.deepEqual(errors, []);
});

test("a copied link restores prompt, parameters and the inspected step on a fresh page", async () => {
  const { page } = await openPage(browser);
  await page.getByText("System message", { exact: true }).click();
  await page.getByLabel("System message (optional)").fill("You are terse.");
  await page.getByLabel("User message").fill("Name a colour.");
  await page.getByLabel("Assistant prefix").fill("");
  await page.getByLabel(/generate\(\) keyword arguments/).fill('{"do_sample": true, "temperature": 0.7}');
  await page.getByLabel("max new tokens").fill("6");
  await page.getByRole("button", { name: "Generate" }).click();
  await page.locator("#gen-stats").filter({ hasText: "tokens" }).waitFor({ timeout: 60_000 });
  await page.locator("#completion [data-step='2']").click();
  await page.getByLabel(/generate\(\) keyword arguments/).fill('{"do_sample": true, "temperature": 0.7, "top_k": 5}');
  await page.getByRole("button", { name: "Inspect" }).click();
  await page.getByTestId("kept-hf").filter({ hasText: /^5$/ }).waitFor();
  const tokens = await page.locator("#completion [data-token]").evaluateAll((els) => els.map((e) => e.dataset.token));
  const figures = await figuresOn(page);
  await page.getByRole("button", { name: "Copy link" }).click();
  const link = await page.getByLabel("Link to this state").inputValue();

  const other = await browser.browser.newPage();
  await other.goto(link);
  await other.getByTestId("inspecting").filter({ hasText: "generated token 2" }).waitFor({ timeout: 120_000 });
  await other.locator("#gen-stats").filter({ hasText: "tokens" }).waitFor({ timeout: 60_000 });
  await other.getByTestId("kept-hf").filter({ hasText: /^5$/ }).waitFor();
  assert.equal(await other.getByLabel("System message (optional)").inputValue(), "You are terse.");
  assert.equal(await other.getByLabel("User message").inputValue(), "Name a colour.");
  assert.deepEqual(await other.locator("#completion [data-token]").evaluateAll((els) => els.map((e) => e.dataset.token)), tokens);
  assert.deepEqual(await figuresOn(other), figures);
  assert.equal(await other.getByTestId("error").textContent(), "");
});

/** The headline figures as the page prints them, from a CLI report. */
function figuresOf(report) {
  const kept = (entry) => (entry.error ? "error" : String(entry.kept));
  return [kept(report.hf), kept(report.literal), kept(report.corrected),
    report.compare.literal.tv.toFixed(4), report.compare.corrected.tv.toFixed(4)];
}

async function figuresOn(page) {
  const ids = ["kept-hf", "kept-literal", "kept-corrected", "tv-literal", "tv-corrected"];
  return Promise.all(ids.map((id) => page.getByTestId(id).textContent()));
}

test("embed mode fits 720 × 600: the compared table with every column's figures and the causes, no controls, a link back", async () => {
  const page = await browser.browser.newPage({ viewport: { width: 720, height: 600 } });
  await page.goto(`${BASE}?embed=1&preset=temp-0.7&params=%7B%22do_sample%22%3Atrue%2C%22temperature%22%3A0.7%7D`);
  await keptIn(page, "hf").filter({ hasText: /^50$/ }).waitFor({ timeout: 120_000 });
  assert.equal(await page.getByRole("button", { name: "Generate", exact: true }).isVisible(), false);
  for (const control of ["#exercises-link", "#hub-repo", "#model-file", "#params"]) assert.equal(await page.locator(control).isVisible(), false, control);
  for (const shown of ["#compare-table", "#causes"]) assert.equal(await page.locator(shown).isVisible(), true, shown);
  // Every column's kept count, in the frame.
  for (const kept of await page.locator("#compare-table tr.kept td").all()) {
    const box = await kept.boundingBox();
    assert.ok(box && box.x + box.width <= 720 && box.y + box.height <= 600, `a kept count at ${JSON.stringify(box)}`);
  }
  const back = page.getByRole("link", { name: /Open in sampling-lab/ });
  assert.doesNotMatch(await back.getAttribute("href"), /embed=/);
  assert.match(await back.getAttribute("href"), /params=%7B%22do_sample%22%3Atrue%2C%22temperature%22%3A0.7%7D&preset=temp-0.7$/);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  assert.ok(height <= 600, `the embed is ${height} px tall`);
  await page.screenshot({ path: "target/screenshots/embed.png" });
  // The link's comparison: DFlash's sample() against transformers, in the table and the finding.
  await page.goto(`${BASE}?embed=1&cols=dflash`);
  await keptIn(page, "hf").filter({ hasText: /^24$/ }).waitFor({ timeout: 120_000 });
  assert.equal(await page.getByTestId("error").textContent(), "");
  assert.equal(await page.locator("#compare-table").getAttribute("data-compared"), "dflash");
  assert.match(await page.getByTestId("finding").textContent(), /DFlash's sample\(\) keeps 49,152 tokens/);
});

test("the example documentation page shows two embeds, each with its figures in 720 × 600", async () => {
  const page = await browser.browser.newPage({ viewport: { width: 900, height: 900 } });
  await page.goto(`${BASE}embed-example.html`);
  for (const [id, kept] of [["embed-implicit-top-k", 50], ["embed-top-p", 24]]) {
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    const frame = page.frameLocator(`#${id}`);
    await keptIn(frame, "hf").filter({ hasText: exactly(kept) }).waitFor({ timeout: 120_000 });
    assert.equal(await frame.locator("#compare-table").isVisible(), true, id);
    const height = await frame.locator("html").evaluate((html) => html.scrollHeight);
    assert.ok(height <= 600, `${id} is ${height} px tall`);
  }
  await page.screenshot({ path: "target/screenshots/embed-example.png", fullPage: true });
  await page.close();
});

test("the first screen holds the compared table with every column's kept count and distance, the causes, Inspect, Generate and the sampling arguments at 1280 × 800 and 1440 × 900", async () => {
  for (const [width, height] of [[1280, 800], [1440, 900]]) {
    const page = await browser.browser.newPage({ viewport: { width, height } });
    await page.goto(BASE);
    await page.getByTestId("kept-hf").filter({ hasText: /^24$/ }).waitFor({ timeout: 120_000 });
    const figures = await page.locator("#compare-table tr.kept td, #compare-table tr.tv td").all();
    assert.equal(figures.length, 2 * (await page.locator("#figures tr").count()), "a kept count and a distance per column");
    for (const [what, locator] of [...["causes", "run", "generate", "value-temperature", "value-top_k", "value-top_p"].map((id) => [id, page.locator(`#${id}`)]),
      ...figures.map((cell, i) => [`figure ${i}`, cell])]) {
      const box = await locator.boundingBox();
      assert.ok(box && box.y >= 0 && box.y + box.height <= height && box.x + box.width <= width, `${what} at ${width}×${height}: ${JSON.stringify(box)}`);
    }
    await page.screenshot({ path: `target/screenshots/first-screen-${width}.png` });
    await page.close();
  }
});

test("DFlash's and transformers.js' columns show the CLI's figures, with the temperature table", async () => {
  const { page, errors } = await openPage(browser);
  await page.getByRole("button", { name: "SmolLM2's recommended" }).click();
  const cli = cliInspect({ do_sample: true, temperature: 0.2, top_p: 0.9 });
  await page.getByTestId("kept-hf").filter({ hasText: exactly(cli.hf.kept) }).waitFor();
  assert.equal(await page.getByTestId("kept-transformers_js").textContent(), "50", "transformers.js ignores top_p");
  assert.equal(await page.getByTestId("kept-dflash").textContent(), shown(cli.dflash.kept));
  assert.equal(await page.getByTestId("tv-dflash").textContent(), cli.compare.dflash.tv.toFixed(4));
  assert.equal(await page.getByTestId("tv-transformers_js").textContent(), cli.compare.transformers_js.tv.toFixed(4));
  await page.getByTestId("causes").filter({ hasText: "never applies top_p=0.9" }).waitFor();

  await page.getByRole("button", { name: "temperature 5e-6 with sampling" }).click();
  await page.getByTestId("kept-dflash").filter({ hasText: /^1$/ }).waitFor();
  const rows = await page.getByTestId("thresholds").locator("tr").evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  const does = Object.fromEntries(rows.map(([system, behaviour]) => [system, behaviour]));
  assert.equal(does["DFlash sample()"], "argmax");
  assert.equal(does["candle LogitsProcessor::new(seed, Some(t), None)"], "sample");
  assert.equal(does["transformers generate(do_sample=True)"], "sample");
  await page.getByRole("button", { name: "temperature 0 with sampling" }).click();
  await page.getByTestId("thresholds").filter({ hasText: "ValueError" }).waitFor();
  assert.deepEqual(errors, []);
});

test("Trusted Types: no HTML sink takes a string, and only the page's own workers start", async () => {
  const { page } = await openPage(browser);
  const before = browser.violations.length;
  const refused = await page.evaluate(() => {
    const outcome = (f) => { try { f(); return "allowed"; } catch (e) { return e.name; } };
    return {
      html: outcome(() => { document.createElement("div").innerHTML = "<b>x</b>"; }),
      worker: outcome(() => new Worker("data:text/javascript,postMessage(1)")),
      policy: outcome(() => trustedTypes.createPolicy("another", { createHTML: (s) => s })),
    };
  });
  assert.deepEqual(refused, { html: "TypeError", worker: "TypeError", policy: "TypeError" });
  await page.waitForTimeout(200);
  // The three refusals are reported as violations (once per policy: the server's header and the
  // page's meta tag); nothing else on the page was.
  const reported = browser.violations.splice(before);
  assert.equal(reported.length, 6, reported.join("\n"));
  assert.ok(reported.every((r) => /^(require-trusted-types-for|trusted-types) blocked trusted-types-(sink|policy)/.test(r)), reported.join("\n"));
  await page.getByRole("button", { name: "top_k 40", exact: true }).click();
  await page.getByTestId("kept-hf").filter({ hasText: /^40$/ }).waitFor();
});

test("a hostile link is shown as text, its bad fields are named, and defaults stand in", async () => {
  let dialogs = 0;
  const page = await browser.browser.newPage();
  page.on("dialog", (d) => { dialogs += 1; d.dismiss(); });
  const hostile = '<img src=x onerror="alert(1)">';
  const query = new URLSearchParams({ user: hostile, params: "<script>alert(2)</script>", step: "-1", evil: "1" });
  await page.goto(`${BASE}?${query}`);
  await waitReady(page);
  const error = page.getByTestId("error");
  await error.filter({ hasText: "“params” is not valid JSON" }).waitFor();
  assert.match(await error.textContent(), /“step” must be a whole number/);
  assert.match(await error.textContent(), /unknown link field “evil”/);
  assert.equal(await page.getByLabel("User message").inputValue(), hostile);
  await page.getByTestId("rendered").filter({ hasText: "onerror" }).waitFor({ state: "attached" });
  assert.equal(await page.getByLabel(/generate\(\) keyword arguments/).inputValue(), '{"do_sample":true,"temperature":0.7,"top_k":40,"top_p":0.9}');
  await page.getByTestId("kept-hf").filter({ hasText: /^\d+$/ }).waitFor();
  assert.equal(await page.locator("body img, body script").count(), 0);
  assert.equal(dialogs, 0);
});

test("the other presets: SmolLM2's settings, greedy, transformers' temperature error, and the ties lab", async () => {
  const { page, errors } = await openPage(browser);
  const smollm2 = cliInspect({ do_sample: true, temperature: 0.2, top_p: 0.9 });
  await page.getByRole("button", { name: "SmolLM2's recommended" }).click();
  await page.getByTestId("kept-hf").filter({ hasText: exactly(smollm2.hf.kept) }).waitFor();
  assert.equal(await page.getByTestId("tv-literal").textContent(), smollm2.compare.literal.tv.toFixed(4));

  await page.getByRole("button", { name: "greedy", exact: true }).click();
  await page.getByTestId("kept-hf").filter({ hasText: /^1$/ }).waitFor();
  const greedy = cliInspect({});
  assert.deepEqual(await figuresOn(page), figuresOf(greedy));

  await page.getByRole("button", { name: "temperature=0, sampling on" }).click();
  await page.getByTestId("error").filter({ hasText: "`temperature` (=0) has to be a strictly positive float" }).waitFor();
  await page.getByTestId("causes").filter({ hasText: "silently decodes greedily" }).waitFor();

  await page.getByLabel("Panels").check();
  await page.getByRole("button", { name: "ties lab" }).click();
  await page.getByTestId("kept-hf").filter({ hasText: /^3$/ }).waitFor();
  const ties = cliInspectLogits([3, 2, 2, 1], { do_sample: true, top_k: 2 });
  assert.deepEqual(await figuresOn(page), figuresOf(ties));
  assert.equal(await page.getByTestId("kept-literal").textContent(), "2");
  assert.match(await page.getByTestId("causes").textContent(), /2 tokens share the 2nd highest score/);
  assert.equal(await page.locator("#chart-literal").getAttribute("data-bars"), "2");
  // The tied token transformers keeps and candle cuts: an empty cell in the literal port's column.
  await page.getByLabel("Compare").check();
  assert.equal(await page.locator('#compare-table tr[data-token="2"] td.cut[data-column="literal"]').count(), 1);
  assert.deepEqual(errors, []);
});

test("the explanation and the charts follow the settings", async () => {
  const { page } = await openPage(browser);
  await page.getByRole("button", { name: "temp 0.7", exact: true }).click();
  await page.getByTestId("causes").filter({ hasText: "transformers uses top_k=50" }).waitFor();
  // What the literal port keeps beyond transformers' 50: its count and mass, the core's.
  const cli = cliInspect({ do_sample: true, temperature: 0.7 });
  const beyond = page.locator('#compare-table tr.only-here td[data-column="literal"]');
  assert.equal(await beyond.textContent(), `+${cli.compare.literal.only_port.count.toLocaleString("en")} · ${cli.compare.literal.mass_outside_hf.toFixed(3)}`);
  assert.equal(await page.locator("#compare-table thead tr.names th").count(), await page.locator("#figures tr").count() + 1, "every column has its head");
  await page.getByRole("button", { name: "top_k 40, top_p 0.9" }).click();
  await page.getByTestId("causes").filter({ hasText: "skips the nucleus and keeps all 40" }).waitFor();
  await page.getByLabel("log scale").check();
  await page.waitForURL(/log=1/);
});

test("Monte Carlo draws on two workers off the main thread, agrees with the CLI, and can be stopped", async () => {
  const { page, errors } = await openPage(browser);
  const params = { do_sample: true, temperature: 0.7 };
  await page.getByRole("button", { name: "temp 0.7", exact: true }).click();
  await page.getByTestId("kept-hf").filter({ hasText: /^50$/ }).waitFor();
  await page.getByLabel("draws per port").fill("5000");
  await page.getByRole("button", { name: "Draw", exact: true }).click();
  await page.getByTestId("mc-status").filter({ hasText: "done" }).waitFor({ timeout: 300_000 });
  // The same seeded draws, split over two workers: the CLI's counts exactly.
  const cli = cliInspect(params, ["--draws", "5000", "--seed", "0"]).monte_carlo;
  for (const name of ["literal", "corrected"]) {
    assert.equal(await page.getByTestId(`mc-check-${name}`).textContent(), "consistent");
    const outside = parseFloat(await page.getByTestId(`mc-outside-${name}`).textContent()) / 100;
    assert.ok(Math.abs(outside - cli[name].outside_hf) < 0.00005, `${name}: ${outside} vs ${cli[name].outside_hf}`);
    assert.equal(await page.getByTestId(`mc-distinct-${name}`).textContent(), shown(cli[name].distinct), `${name}: distinct tokens`);
  }
  assert.ok(Number(await page.getByTestId("mc-distinct-literal").textContent()) > 50, "the literal port draws tokens hf never picks");
  assert.equal(await page.getByTestId("mc-outside-corrected").textContent(), "0.00 %");
  assert.ok(page.workers().some((w) => w.url().endsWith("/draws.js")), "the draw worker took half of the draws");

  await page.getByLabel("draws per port").fill("5000000");
  await page.getByRole("button", { name: "Draw", exact: true }).click();
  // Eight columns draw: literal, corrected and DFlash's candle ports, llama.cpp's and Ollama's chain,
  // vLLM's race, SGLang's multinomial and mlx-lm's Gumbel draw.
  await page.getByTestId("mc-status").filter({ hasText: /\d+ \/ 40,000,000 draws/ }).waitFor();
  await page.getByRole("button", { name: "Stop drawing" }).click();
  await page.getByTestId("mc-status").filter({ hasText: "stopped after" }).waitFor();
  await page.getByRole("button", { name: "top_k 40", exact: true }).click();
  await page.getByTestId("kept-hf").filter({ hasText: /^40$/ }).waitFor();
  assert.deepEqual(errors, []);
});

test("a draw worker that dies leaves its half to the page's worker, which draws the same", async () => {
  const drawn = async (sabotage) => {
    const { page, errors } = await openPage(browser);
    await page.getByRole("button", { name: "temp 0.7", exact: true }).click();
    await page.getByTestId("kept-hf").filter({ hasText: /^50$/ }).waitFor();
    await page.getByLabel("draws per port").fill("3000");
    await page.getByRole("button", { name: "Draw", exact: true }).click();
    if (sabotage) {
      await page.getByTestId("mc-status").filter({ hasText: /draws\/s/ }).waitFor();
      await page.evaluate(() => window.dispatchEvent(new Event("sampling-lab:trap-draws")));
    }
    await page.getByTestId("mc-status").filter({ hasText: "done" }).waitFor({ timeout: 300_000 });
    const fields = ["draws", "distinct", "outside", "tv", "check", "top"];
    const figures = await Promise.all(["literal", "corrected"].flatMap((name) => fields.map((f) => page.locator(`#mc-${f}-${name}`).textContent())));
    await page.close();
    return { figures, errors };
  };
  const shared = await drawn(false);
  const alone = await drawn(true);
  assert.deepEqual(alone.figures, shared.figures);
  assert.deepEqual(alone.errors, []);
});

test("arguments one by one: not passed, passed, passed as None, and the implicit top_k on show", async () => {
  const { page } = await openPage(browser);
  await page.getByRole("button", { name: "temp 0.7", exact: true }).click();
  assert.equal(await page.getByLabel("top_k", { exact: true }).isChecked(), false);
  await page.locator("#effective-top_k").filter({ hasText: "→ 50 (default · implicit)" }).waitFor();
  await page.getByLabel("top_k", { exact: true }).check();
  await page.getByLabel(/^top_k value/).fill("None");
  await page.getByLabel(/^top_k value/).dispatchEvent("input");
  assert.equal(await page.getByLabel(/generate\(\) keyword arguments/).inputValue(), '{"do_sample": true, "temperature": 0.7, "top_k": null}');
  await page.getByTestId("kept-hf").filter({ hasText: exactly(49152) }).waitFor();
  await page.getByLabel(/^temperature value/).fill("1.0");
  await page.getByLabel(/^temperature value/).dispatchEvent("input");
  assert.match(await page.getByLabel(/generate\(\) keyword arguments/).inputValue(), /"temperature": 1\.0/);
  await page.getByLabel(/^temperature value/).fill("hot");
  await page.getByLabel(/^temperature value/).dispatchEvent("input");
  await page.getByTestId("error").filter({ hasText: "temperature: “hot” is not a number" }).waitFor();
});

test("the distributions export as CSV and JSON, and a chart as PNG", async () => {
  const { page } = await openPage(browser);
  await page.getByRole("button", { name: "top_k 40, top_p 0.9" }).click();
  await page.getByTestId("kept-literal").filter({ hasText: /^40$/ }).waitFor();
  await page.getByRole("region", { name: "Distributions" }).getByText("Export", { exact: true }).click();
  const saved = async (name) => {
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name, exact: true }).click()]);
    return readFileSync(await download.path());
  };
  const csv = csvRows((await saved("CSV")).toString("utf8"));
  assert.equal(csv[0].join(","), "token_id,token,p_hf,p_literal,p_corrected,p_dflash,p_transformers_js,p_llama_cpp,p_vllm,p_sglang,p_mlx_lm,p_ollama");
  assert.equal(csv.length - 1, 49152, "one row per token any column keeps (DFlash keeps every drawable token)");
  const p = csv.slice(1).map((row) => row.slice(2).map(Number));
  assert.equal(p.filter(([hf, literal]) => hf === 0 && literal > 0).length, 16, "16 tokens only the literal port keeps");
  assert.equal(p.filter(([hf, , corrected]) => (hf > 0) !== (corrected > 0)).length, 0, "the corrected port keeps hf's tokens");
  const json = JSON.parse((await saved("JSON")).toString("utf8"));
  assert.equal(json.hf.kept, 24);
  await page.getByLabel("Panels").check();
  const png = await saved("literal chart PNG");
  assert.equal(png.subarray(1, 4).toString("latin1"), "PNG");
});

/** RFC 4180 rows: quoted fields may hold commas, quotes and newlines (token texts do). */
function csvRows(text) {
  const rows = [[]];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") { rows.at(-1).push(field); field = ""; } else if (c === "\n") { rows.at(-1).push(field); field = ""; rows.push([]); } else field += c;
  }
  if (rows.at(-1).length === 0 && field === "") rows.pop(); else rows.at(-1).push(field);
  return rows;
}

test("each port's Rust code is on the page for exactly these settings", async () => {
  const { page } = await openPage(browser);
  await page.getByRole("button", { name: "top_k 40, top_p 0.9" }).click();
  await page.getByTestId("kept-literal").filter({ hasText: /^40$/ }).waitFor();
  const cli = cliInspect({ do_sample: true, temperature: 0.7, top_k: 40, top_p: 0.9 });
  assert.equal(await page.getByTestId("code-literal").textContent(), cli.code.literal);
  assert.equal(await page.getByTestId("code-corrected").textContent(), cli.code.corrected);
  assert.match(cli.code.corrected, /Sampling::TopP \{ p: 0\.9, temperature: 0\.7 \}/);
  assert.match(cli.code.literal, /Sampling::TopKThenTopP \{ k: 40, p: 0\.9, temperature: 0\.7 \}/);
});
