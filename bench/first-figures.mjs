// Time to the first figures as a visitor meets them: dist/ (as `make site` builds it) served with
// gzip and its _headers, Chromium's network throttled (CDP Network.emulateNetworkConditions, 40 ms
// latency), the page and an embed, a cold cache (a new browser context) and a warm one (a reload).
// Two flows side by side: the page as it is (the sampling core and the shipped step first), and
// the model first (the same site without its shipped steps: the page must load the model, as it
// did before it shipped them). A third: an embed of a writer's own chat, which the site does not
// ship, drawn from the step file the writer put beside it. Bytes are every response's transferred
// size (compressed), page and workers, until the figures appear. Figures, not tests: nothing here
// is asserted.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { headersFile, serveStatic } from "../scripts/static-server.mjs";
import { DEFAULTS, stateQuery } from "../www/state/state.js";

const ROOT = new URL("..", import.meta.url).pathname;
const DIST = join(ROOT, "dist");
/** Mbit/s the network is throttled to. */
export const SPEEDS = [10, 50];
const LATENCY_MS = 40;

/** A writer's chat the site does not ship, and where its step file is served (a folder of the
 * site, as a writer without a Hub repo would put it). */
const WRITERS_CHAT = { system: null, messages: [{ role: "user", content: "用一句话介绍你自己。" }], answer_prefix: "" };
const STEP_FILE = "writer/introduce.json";

/** dist/ twice: as built (with a writer's step file beside it), and without its shipped steps
 * (the model-first flow). */
export async function serveSite() {
  if (!existsSync(join(DIST, "steps/index.json"))) throw new Error("no dist/: `make site` builds it (make bench does)");
  const headers = headersFile(join(DIST, "_headers"), "/shipped/");
  const withoutSteps = headersFile(join(DIST, "_headers"), "/model-first/");
  const writer = await writeStepFile();
  return serveStatic([["/model-first/steps/", join(DIST, "no-such-folder")], ["/model-first/", DIST], ["/shipped/writer/", writer], ["/shipped/", DIST]],
    (path) => (path.startsWith("/model-first/") ? withoutSteps(path) : headers(path)), () => {}, { gzip: true });
}

/** The writer's step file, as the page's "Embed this" saves it: computed by pkg/ (the page's own
 * build) in Node, written by the core. Returns the folder it is in. */
async function writeStepFile() {
  const manifest = JSON.parse(readFileSync(join(DIST, "steps/index.json"), "utf8"));
  const wasm = await import(join(ROOT, "pkg/sampling_lab.js"));
  wasm.initSync({ module: readFileSync(join(ROOT, "pkg/sampling_lab_bg.wasm")) });
  const lab = wasm.Lab.fromGguf(readFileSync(join(ROOT, manifest.model.path)), "exact");
  const step = lab.nextStep(WRITERS_CHAT);
  try {
    const completions = step.completions(Uint32Array.from(step.candidates(64).map(([token]) => token)));
    const text = wasm.writeStep(JSON.stringify(WRITERS_CHAT), step.contextIds, step.logits, JSON.stringify(completions), manifest.model.sha256, manifest.model.name);
    const folder = mkdtempSync(join(tmpdir(), "sampling-lab-writer-"));
    mkdirSync(join(folder, "writer"), { recursive: true });
    writeFileSync(join(folder, STEP_FILE), text);
    return join(folder, "writer");
  } finally {
    step.free();
    lab.free();
  }
}

/** The path and query of a visit: the site's default chat — its prerendered page or embed, as
 * "Embed this" writes a link to it (the model-first site has no steps, and says so) — or the
 * writer's with its step file. */
function query(flow, embed) {
  if (flow === "shipped") return embed ? "embed.html" : "";
  if (flow !== "step-file") return embed ? "?embed=1" : "";
  return stateQuery({ ...DEFAULTS, embed: true, user: WRITERS_CHAT.messages[0].content, prefix: "", stepfile: STEP_FILE });
}

/**
 * One visit: `flow` "shipped" or "model-first", `embed`, `mbit`, `warm` (a reload after a first
 * visit in the same context). Resolves to {first_figures_s, bytes, model_requested}.
 */
export async function visit(browser, base, { flow, embed, mbit, warm }) {
  const context = await browser.newContext({ viewport: embed ? { width: 720, height: 600 } : { width: 1280, height: 800 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false, latency: LATENCY_MS, downloadThroughput: (mbit * 1e6) / 8, uploadThroughput: (mbit * 1e6) / 8,
  });
  const url = `${base}${flow === "step-file" ? "shipped" : flow}/${query(flow, embed)}`;
  if (warm) {
    await page.goto(url);
    await firstFigures(page, flow === "model-first");
    await page.waitForTimeout(500);
  }
  let bytes = 0;
  let modelRequested = false;
  let counting = true;
  const count = async (request) => {
    if (request.url().includes("/models/")) modelRequested = true;
    const sizes = await request.sizes().catch(() => null);
    if (counting && sizes) bytes += sizes.responseBodySize + sizes.responseHeadersSize;
  };
  context.on("requestfinished", count);
  const started = Date.now();
  // From the first byte of the response on: a goto that waited for the load event would time the
  // scripts and pictures a prerendered first screen does not wait for.
  await (warm ? page.reload({ waitUntil: "commit" }) : page.goto(url, { waitUntil: "commit" }));
  await firstFigures(page, flow === "model-first");
  const seconds = (Date.now() - started) / 1000;
  counting = false;
  await context.close();
  return { first_figures_s: seconds, bytes, model_requested: modelRequested ? 1 : 0 };
}

/** Waits for the first sentence of figures on screen (a prerendered page's are in its HTML; one
 * opened on another state shows them once its scripts drew them); in the model-first flow an
 * embed's reader asks for the model at once (it would otherwise wait for them). */
async function firstFigures(page, modelFirst) {
  const figures = page.getByTestId("finding").filter({ hasText: /./ }).waitFor({ timeout: 600_000 });
  if (modelFirst) {
    const ask = page.locator("#needs-model-load:visible");
    await Promise.race([figures, ask.waitFor({ timeout: 600_000 }).then(() => ask.click()).catch(() => {})]);
  }
  await figures;
}

/** Every visit the bench measures: [key, label, options]. */
export function visits() {
  const list = [];
  const names = { shipped: "core + shipped step", "model-first": "model first", "step-file": "core + a writer's step file" };
  for (const flow of ["shipped", "model-first", "step-file"]) {
    for (const embed of flow === "step-file" ? [true] : [false, true]) {
      for (const mbit of SPEEDS) {
        for (const warm of [false, true]) {
          const key = `first-figures/${flow}/${embed ? "embed" : "page"}@${mbit}mbit/${warm ? "warm" : "cold"}`;
          const label = `${names[flow]}, ${embed ? "embed" : "page"}, ${mbit} Mbit/s, ${warm ? "warm" : "cold"}`;
          list.push([key, label, { flow, embed, mbit, warm }]);
        }
      }
    }
  }
  return list;
}
