// `make site`'s dist/ as a static host serves it, in Debian's Chromium: from a plain file host
// (no headers: one thread) at the root and under a sub-path, and with its `_headers` applied
// (cross-origin isolation, the Content-Security-Policy, caching); two embeds on one page
// showing their figures without the model and, asked for it, downloading it once; the model named by a link or the Hub field (Hub files served
// from disk: no hub is reachable here), and every way that can go wrong said plainly.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { headersFile, serveStatic } from "../../scripts/static-server.mjs";
import { keptIn, launchChromium, MODEL } from "../e2e/harness.js";

const DIST = "dist";
const state = { violations: [] };

before(async () => {
  state.browser = await launchChromium();
});

after(async () => {
  await state.browser?.close();
  assert.deepEqual(state.violations, [], "Content-Security-Policy violations");
});

/** dist/ under `prefix`, with its `_headers` or none; `requests` lists what was asked for. The
 * models folder answers under /hub/ too, as a CDN the Hub redirects to does (CORS, CORP). */
async function host(prefix, withHeaders) {
  const requests = [];
  const site = withHeaders ? headersFile(`${DIST}/_headers`, prefix) : () => ({});
  const cdn = { "Access-Control-Allow-Origin": "*", "Cross-Origin-Resource-Policy": "cross-origin" };
  const headers = (path) => (path.startsWith("/hub/") ? cdn : site(path));
  const served = await serveStatic([["/hub/", "models"], [prefix, DIST]], headers, (method, path) => requests.push(`${method} ${path}`));
  return { ...served, url: served.base + prefix.slice(1), requests };
}

/** A page in a fresh context (empty caches), reporting its errors and CSP violations. */
async function fresh(viewport = { width: 1280, height: 800 }) {
  const context = await state.browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.exposeFunction("samplingLabViolation", (v) => state.violations.push(v));
  await page.addInitScript(() => document.addEventListener("securitypolicyviolation",
    (e) => window.samplingLabViolation(`${e.effectiveDirective} blocked ${e.blockedURI}`)));
  return { context, page, errors };
}

const ready = (page) => page.getByTestId("model-status").filter({ hasText: /^ready$/ }).waitFor({ timeout: 120_000 });

for (const [where, prefix] of [["the root", "/"], ["a sub-path", "/docs/sampling-lab/"]]) {
  test(`from a plain static host at ${where}, the page runs on one thread and its links point where it is served`, async () => {
    const site = await host(prefix, false);
    const { context, page, errors } = await fresh();
    try {
      await page.goto(site.url);
      await ready(page);
      await page.getByTestId("kept-hf").filter({ hasText: /^24$/ }).waitFor();
      assert.equal(await page.evaluate(() => crossOriginIsolated), false);
      await page.getByRole("button", { name: "top_k 40", exact: true }).click();
      await page.getByTestId("kept-hf").filter({ hasText: /^40$/ }).waitFor();
      await page.getByRole("button", { name: "Copy link" }).click();
      const link = await page.getByLabel("Link to this state").inputValue();
      assert.ok(link.startsWith(`${site.url}?`), link);
      await page.getByRole("button", { name: "Embed this" }).click();
      const snippet = await page.getByLabel("Link to this state").inputValue();
      // The site's prerendered embed, at the same place.
      assert.match(snippet, new RegExp(`<iframe src="${site.url.replace(/[.?/]/g, "\\$&")}embed\\.html\\?[^"]*embed=1`));
      assert.ok(site.requests.some((r) => /^GET .*\/assets\/[0-9a-f]{12}\/pkg\/sampling_lab_bg\.wasm$/.test(r)), "the wasm comes from the versioned folder");
      assert.ok(!site.requests.some((r) => r.includes("pkg-threads")), "without isolation the threaded build is not fetched");
      assert.match(await page.locator("#model-info").textContent(), /exact · 1 thread ·/);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
      site.server.close();
    }
  });
}

test("with its _headers the host isolates the page, sends its policy, and caches assets for good and the page never", async () => {
  const site = await host("/", true);
  const { context, page, errors } = await fresh();
  try {
    const response = await page.goto(site.url);
    assert.equal(response.headers()["cache-control"], "no-cache");
    const policy = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(readFileSync(`${DIST}/index.html`, "utf8"))[1];
    assert.equal(response.headers()["content-security-policy"], policy);
    await ready(page);
    await page.getByTestId("kept-hf").filter({ hasText: /^24$/ }).waitFor();
    assert.equal(await page.evaluate(() => crossOriginIsolated), true);
    const wasms = site.requests.filter((r) => r.endsWith("sampling_lab_bg.wasm")).map((r) => r.split(" ")[1]);
    assert.match(wasms[0], /\/pkg-core\//, "the sampling core comes first");
    const wasm = wasms.find((path) => /\/pkg-threads\//.test(path));
    assert.ok(wasm, `isolated, the page runs the model's threaded build: ${wasms.join(", ")}`);
    assert.ok(!wasms.some((path) => /\/pkg\//.test(path)), "and not the single-threaded one");
    const asset = await page.evaluate(async (path) => (await fetch(path, { method: "HEAD" })).headers.get("cache-control"), wasm);
    assert.equal(asset, "public, max-age=31536000, immutable");
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    site.server.close();
  }
});

test("two embeds on one documentation page show their figures without the model, and asked for it, download it once", async () => {
  const site = await host("/", true);
  const { context, page, errors } = await fresh({ width: 900, height: 1400 });
  try {
    await page.goto(`${site.url}embed-example.html`);
    const frames = ["embed-implicit-top-k", "embed-top-p"].map((id) => page.frameLocator(`#${id}`));
    for (const frame of frames) await keptIn(frame, "hf").filter({ hasText: /^\d+$/ }).waitFor({ timeout: 120_000 });
    const downloads = () => site.requests.filter((r) => r === `GET /${MODEL}`);
    assert.deepEqual(downloads(), [], "an embed asked for the model on its own");
    // Both asked at once: one downloads, the other waits for it and reads it from Cache Storage.
    for (const frame of frames) await frame.locator("#load-model").click();
    for (const frame of frames) {
      await frame.getByTestId("model-status").filter({ hasText: /^ready$/ }).waitFor({ timeout: 120_000 });
    }
    assert.equal(downloads().length, 1, site.requests.filter((r) => r.includes("gguf")).join("\n"));
    const loaded = await Promise.all(frames.map((f) => f.locator("#model-info").textContent()));
    assert.equal(loaded.filter((text) => /from the browser's cache/.test(text)).length, 1, loaded.join(" | "));
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    site.server.close();
  }
});

test("?model= and the Hub field take a GGUF in a Hub repo; a missing file, no network, an empty or malformed name and a wrong download say what to do", async () => {
  const site = await host("/", true);
  const { context, page } = await fresh();
  let network = true;
  const cors = { "access-control-allow-origin": "*", "cross-origin-resource-policy": "cross-origin" };
  // No hub is reachable from here: huggingface.co redirects to the test's CDN (as the real one
  // redirects to its own), answers 404, or cannot be reached at all.
  await context.route("https://huggingface.co/**", (route) => {
    if (!network) return route.abort("internetdisconnected");
    const url = new URL(route.request().url());
    if (url.pathname === "/HuggingFaceTB/SmolLM2-135M-Instruct-GGUF/resolve/main/smollm2-135m-instruct.Q4_1.gguf") {
      return route.fulfill({ status: 302, headers: { ...cors, location: `${site.base}hub/SmolLM2-135M-Instruct.Q4_1.gguf` } });
    }
    return route.fulfill({ status: 404, body: "Entry not found", headers: cors });
  });
  try {
    await page.goto(`${site.url}?model=HuggingFaceTB/SmolLM2-135M-Instruct-GGUF/smollm2-135m-instruct.Q4_1.gguf`);
    await ready(page);
    await page.getByTestId("kept-hf").filter({ hasText: /^24$/ }).waitFor();
    assert.match(await page.locator("#model-name").textContent(), /smollm2-135m-instruct · Q4_1/);
    await page.getByRole("button", { name: "Copy link" }).click();
    assert.match(await page.getByLabel("Link to this state").inputValue(), /model=HuggingFaceTB%2FSmolLM2-135M-Instruct-GGUF%2Fsmollm2-135m-instruct\.Q4_1\.gguf/);

    await page.getByText("Model & files").click();
    const field = page.getByLabel("A model on Hugging Face or on this site");
    const load = async (text) => {
      await field.fill(text);
      await page.getByRole("button", { name: "Load it" }).click();
    };
    await load("");
    await page.getByTestId("error").filter({ hasText: "no model given: type a Hugging Face repo id" }).waitFor();
    await load("SmolLM2 135M");
    await page.getByTestId("error").filter({ hasText: "has spaces" }).waitFor();
    await load("HuggingFaceTB/SmolLM2-135M-Instruct-GGUF/no-such-file.gguf");
    await page.getByTestId("error").filter({ hasText: "HTTP 404" }).waitFor();
    assert.match(await page.getByTestId("error").textContent(), /no such file: check the repo id and the file name/);
    network = false;
    await load("HuggingFaceTB/SmolLM2-135M-Instruct");
    await page.getByTestId("error").filter({ hasText: "could not reach huggingface.co" }).waitFor();
    assert.match(await page.getByTestId("error").textContent(), /check the network connection/);
    // The model that was running still answers.
    await ready(page);
    await page.getByRole("button", { name: "top_k 40", exact: true }).click();
    await page.getByTestId("kept-hf").filter({ hasText: /^40$/ }).waitFor();
  } finally {
    await context.close();
    site.server.close();
  }
});

test("a download that is not the default model's file is refused by its sha256 and not kept", async () => {
  const site = await host("/", false);
  const { context, page } = await fresh();
  // Another file where the default model should be: the first 4 MB of it.
  await context.route(`**/${MODEL}`, (route) => route.fulfill({ status: 200, body: readFileSync(MODEL).subarray(0, 4 << 20) }));
  try {
    for (let visit = 0; visit < 2; visit++) {
      await (visit ? page.reload() : page.goto(site.url));
      await page.getByTestId("error").filter({ hasText: /has sha256 [0-9a-f]{64}, not the b179c952/ }).waitFor({ timeout: 60_000 });
      assert.equal(await page.getByTestId("model-status").textContent(), "failed");
    }
  } finally {
    await context.close();
    site.server.close();
  }
});

test("dist's title and description name every column the core lists, for readers without scripts", async () => {
  const core = await import("../../pkg-core/sampling_lab.js");
  core.initSync({ module: readFileSync("pkg-core/sampling_lab_bg.wasm") });
  const html = readFileSync(`${DIST}/index.html`, "utf8");
  const title = /<title>([^<]*)<\/title>/.exec(html)[1];
  const description = /<meta name="description" content="([^"]*)"/.exec(html)[1];
  const columns = core.columns("en").filter((c) => c.name !== "hf");
  assert.ok(columns.length >= 3, "the core's columns were read");
  for (const { short } of columns) assert.ok(title.includes(short), `the title names ${short}: ${title}`);
  assert.match(description, /transformers' generate\(\)/);
  // The pair the page opens on is named in words there; every other column by its name.
  for (const { short } of columns.slice(2)) assert.ok(description.includes(short), `the description names ${short}`);
});
