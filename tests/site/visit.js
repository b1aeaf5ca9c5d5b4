// A first visit as a reader makes it, measured: a fresh context (empty caches) on dist/, the bytes
// transferred before the first figures and every request for the model.
import { after, before } from "node:test";
import { headersFile, serveStatic } from "../../scripts/static-server.mjs";
import { launchChromium, MODEL } from "../e2e/harness.js";

/** The built site, as a static host serves it. */
export const DIST = "dist";
/** What a first visit may transfer before its first figures. */
export const BUDGET_BYTES = 1.5e6;

/** Serves dist/ gzipped with its `_headers` and starts Chromium around the calling test file:
 * `state.browser`, `state.site`. */
export function useSite() {
  const state = {};
  before(async () => {
    state.browser = await launchChromium();
    state.site = await serveStatic([["/", DIST]], headersFile(`${DIST}/_headers`), () => {}, { gzip: true });
  });
  after(async () => {
    await state.browser?.close();
    state.site?.server.close();
  });
  return state;
}

/** A fresh context on `base + query`; `seen.bytes` sums the transferred size (headers and
 * compressed body, page and workers) of every response that ended before the first figures, and
 * `seen.model` lists when the model was asked for. `hold` keeps the model's download unanswered
 * until `release()` lets it through; `prepare(context)` adds routes before the page opens. */
export async function visit(browser, base, query, { viewport = { width: 1280, height: 800 }, hold = false, prepare = async () => {} } = {}) {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const seen = { bytes: 0, model: [], figuresAt: null };
  let release = () => {};
  const held = new Promise((resolve) => { release = resolve; });
  await context.route(`**/${MODEL}`, async (route) => {
    seen.model.push(Date.now());
    if (hold) await held;
    await route.continue().catch(() => {});
  });
  await prepare(context);
  const finished = [];
  context.on("requestfinished", async (request) => {
    const sizes = await request.sizes().catch(() => null);
    const { startTime, responseEnd } = request.timing();
    if (sizes) finished.push({ endedAt: startTime + responseEnd, bytes: sizes.responseBodySize + sizes.responseHeadersSize });
  });
  // The moment the first sentence of figures is drawn, as the page's own clock has it.
  await context.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.getElementById("finding")?.textContent) {
        window.figuresAt = Date.now();
        observer.disconnect();
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(base + query);
  return { context, page, errors, seen, release, figures: () => figuresSeen(page, seen, finished) };
}

/** Waits for the first figures and counts what was transferred before them. */
async function figuresSeen(page, seen, finished) {
  await page.getByTestId("finding").filter({ hasText: /./ }).waitFor({ timeout: 60_000 });
  // A prerendered page shows them before its scripts: what the test does next needs those too.
  await page.waitForFunction(() => document.documentElement.dataset.drawn, null, { timeout: 60_000 });
  seen.figuresAt = await page.evaluate(() => window.figuresAt);
  seen.bytes = finished.filter((r) => r.endedAt <= seen.figuresAt).reduce((sum, r) => sum + r.bytes, 0);
}
