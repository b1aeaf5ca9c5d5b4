// `make screenshots`: the docs' pictures of the page, redrawn from the page as it is — with the
// browser tests' Chromium and their wait for the first figures — so that they cannot fall behind
// it: docs/page.png (1280 × 800, the README's), docs/page-phone.png (390 × 844),
// docs/page-embed.png (720 × 600) and docs/page-zh-Hans.png (README.zh-Hans.md's); the answer view
// alone (docs/answer.png, its section at 1280 wide) and as an embed's pane (docs/answer-embed.png).
import { spawn } from "node:child_process";
import { launchChromium, waitFigures } from "../tests/e2e/harness.js";

const PORT = 8766;
const BASE = `http://127.0.0.1:${PORT}/`;
const SHOTS = [
  ["docs/page.png", { width: 1280, height: 800 }, "?lang=en", true],
  // A phone asks before it downloads the model: its picture is what its reader sees first.
  ["docs/page-phone.png", { width: 390, height: 844 }, "?lang=en", false],
  ["docs/page-embed.png", { width: 720, height: 600 }, "?lang=en&embed=1", false],
  ["docs/page-zh-Hans.png", { width: 1280, height: 800 }, "?lang=zh-Hans", true],
  ["docs/answer.png", { width: 1280, height: 800 }, "?lang=en", true, "#answer"],
  ["docs/answer-embed.png", { width: 720, height: 600 }, "?lang=en&embed=1&pane=answer", false],
];

const server = spawn("python3", ["scripts/serve.py", "--port", String(PORT)], { env: { ...process.env, SERVE_QUIET: "1" }, stdio: "ignore" });
const browser = await launchChromium();
try {
  for (let i = 0; i < 50; i++) {
    try { if ((await fetch(BASE)).ok) break; } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  for (const [file, viewport, query, model, part] of SHOTS) {
    const page = await browser.newPage({ viewport });
    await page.goto(BASE + query);
    await waitFigures(page);
    // The full page loads the model in the background: the picture shows it loaded, not a bar.
    if (model) await page.locator("#status[data-state=ready]").waitFor({ timeout: 180_000 });
    await page.waitForTimeout(500);
    if (part) await page.locator(part).screenshot({ path: file });
    else await page.screenshot({ path: file });
    console.log(`screenshots: ${file} (${viewport.width} × ${viewport.height})`);
    await page.close();
  }
} finally {
  await browser.close();
  server.kill();
}
