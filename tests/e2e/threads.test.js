// The threaded build in Chromium, cross-origin isolated: at 1, 2 and 4 threads (4 on this
// 2-core machine on purpose: correct when oversubscribed) every logit hashes equal to the other
// thread counts' and to the single-threaded build's (and the steps the site ships, computed at
// build time in Node, equal both), and every pool worker computed rows, so a
// silent fallback to one thread cannot pass. The page picks the threaded build where it is
// isolated (`exact · 2 threads`), and a pool worker that crashes mid-product takes the model's
// worker down with it, which the page restarts with the user's state.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ISOLATED, serveStatic } from "../../scripts/static-server.mjs";
import { launchChromium, openPage, useBrowser } from "./harness.js";

const browser = useBrowser();
const probe = {};

before(async () => {
  probe.server = await serveStatic([
    ["/www/pkg-threads/", "pkg-threads"], ["/www/", "www"], ["/pkg/", "pkg"], ["/models/", "models"], ["/steps/", "steps"], ["/", "tests/threads"],
  ], () => ISOLATED);
  probe.browser = await launchChromium();
  probe.page = await probe.browser.newPage();
  await probe.page.goto(probe.server.base);
});

after(async () => {
  await probe.browser?.close();
  probe.server?.server.close();
});

const run = (build, threads) => probe.page.evaluate(([build, threads]) => new Promise((resolve) => {
  const worker = new Worker("/probe.js");
  worker.onmessage = ({ data }) => {
    worker.terminate();
    resolve(data);
  };
  worker.postMessage({ build, threads });
}), [build, threads]);

test("the threaded build's logits are bit-identical at 1, 2 and 4 threads and to the single-threaded build's, and to the steps the site ships", async () => {
  const single = await run("pkg", 1);
  assert.equal(single.error, undefined, single.error);
  assert.ok(single.shipped.length > 0, "the site ships at least the reference chat's step");
  for (const { shipped, computed } of single.shipped) assert.equal(computed, shipped, "a shipped step is the page's own logits, bit for bit");
  assert.equal(single.threaded, false);
  assert.equal(single.hashes.length, 1 + 16 + 1);
  for (const threads of [1, 2, 4]) {
    const threaded = await run("threads", threads);
    assert.equal(threaded.error, undefined, threaded.error);
    assert.equal(threaded.isolated, true, "the probe runs cross-origin isolated");
    assert.equal(threaded.threaded, true);
    assert.equal(threaded.threads, threads);
    assert.equal(threaded.rows.length, threads);
    assert.ok(threaded.rows.every((rows) => rows > 0), `every thread computed rows: ${threaded.rows}`);
    assert.deepEqual(threaded.ids, single.ids, `${threads} threads: the greedy answer`);
    assert.deepEqual(threaded.hashes, single.hashes, `${threads} threads: every logit, bit for bit`);
    assert.deepEqual(threaded.shipped, single.shipped, `${threads} threads: the shipped steps`);
  }
});

test("the page runs the threaded build where it is isolated, says how many threads, and recovers when a pool worker crashes", async () => {
  const { page } = await openPage(browser, "?threads=2");
  await page.locator("#model-info").filter({ hasText: "exact · 2 threads" }).waitFor();
  assert.ok(page.workers().some((w) => w.url().endsWith("/pool-worker.js")), "a pool worker runs");
  await page.getByLabel("User message").fill("Name a colour.");
  await page.locator("[data-preset='top-k-40']").click();
  await page.getByTestId("kept-hf").filter({ hasText: /^40$/ }).waitFor();
  await page.evaluate(() => window.dispatchEvent(new Event("sampling-lab:trap-pool")));
  await page.getByTestId("error").filter({ hasText: "crashed" }).waitFor({ timeout: 120_000 });
  await page.locator("#model-info").filter({ hasText: "exact · 2 threads" }).waitFor({ timeout: 120_000 });
  await page.getByTestId("model-status").filter({ hasText: /^ready$/ }).waitFor({ timeout: 120_000 });
  assert.equal(await page.getByLabel("User message").inputValue(), "Name a colour.");
  await page.locator("[data-preset='temp-0.7']").click();
  await page.getByTestId("kept-hf").filter({ hasText: /^50$/ }).waitFor();
  await page.close();
});
