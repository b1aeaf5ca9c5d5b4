// The three browser engines readers use, each from a Debian package and driven without
// downloading any browser: Chromium through playwright-core, Firefox ESR over WebDriver BiDi
// (puppeteer-core), WebKitGTK's MiniBrowser over W3C WebDriver (selenium-webdriver and
// WebKitWebDriver, on an Xvfb display of its own). Each is wrapped in the same few calls, so
// that one flow runs in all three.
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { launchChromium } from "../e2e/harness.js";

/**
 * @typedef {object} Engine
 * @property {string} name
 * @property {(url: string) => Promise<void>} goto
 * @property {(width: number, height: number) => Promise<void>} resize the page's viewport
 * @property {(body: string, arg?: unknown) => Promise<any>} run an async function body in the
 *   page, with `arg` as `arg`; resolves to what it returns (JSON)
 * @property {(path: string) => Promise<void>} screenshot
 * @property {() => string[]} errors uncaught page errors and console errors the driver heard of
 * @property {() => Promise<void>} quit
 */

const asyncFunction = (body) => `async (arg) => { ${body} }`;

/** @returns {Promise<Engine>} */
export async function chromium() {
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  return {
    name: "Chromium",
    goto: async (url) => { await page.goto(url); },
    resize: (width, height) => page.setViewportSize({ width, height }),
    run: (body, arg) => page.evaluate(([source, a]) => (0, eval)(source)(a), [asyncFunction(body), arg ?? null]),
    screenshot: async (path) => { await page.screenshot({ path }); },
    errors: () => errors,
    quit: () => browser.close(),
  };
}

/** @returns {Promise<Engine>} */
export async function firefox() {
  const { default: puppeteer } = await import("puppeteer-core");
  const browser = await puppeteer.launch({ browser: "firefox", executablePath: "/usr/bin/firefox-esr", headless: true });
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  return {
    name: "Firefox ESR",
    goto: async (url) => { await page.goto(url); },
    resize: (width, height) => page.setViewport({ width, height }),
    run: (body, arg) => page.evaluate(`(${asyncFunction(body)})(${JSON.stringify(arg ?? null)})`),
    screenshot: async (path) => { await page.screenshot({ path }); },
    errors: () => errors,
    quit: () => browser.close(),
  };
}

const MINI_BROWSER = ["/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser", "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.0/MiniBrowser"];

/** WebKitGTK needs a display: an Xvfb of its own, on the first free display number. */
async function xvfb() {
  for (let display = 90; display < 130; display++) {
    if (existsSync(`/tmp/.X11-unix/X${display}`) || existsSync(`/tmp/.X${display}-lock`)) continue;
    const server = spawn("Xvfb", [`:${display}`, "-screen", "0", "1400x1100x24", "-nolisten", "tcp"], { stdio: "ignore" });
    for (let i = 0; i < 50 && !existsSync(`/tmp/.X11-unix/X${display}`); i++) await new Promise((r) => setTimeout(r, 100));
    return { display: `:${display}`, server };
  }
  throw new Error("no free X display for WebKitGTK");
}

/** @returns {Promise<Engine>} */
export async function webkit() {
  const { Builder } = await import("selenium-webdriver");
  const { display, server } = await xvfb();
  const port = 4400 + Math.floor(Math.random() * 2000);
  const driverProcess = spawn("WebKitWebDriver", [`--port=${port}`], { env: { ...process.env, DISPLAY: display }, stdio: "ignore" });
  await new Promise((r) => setTimeout(r, 500));
  const binary = MINI_BROWSER.find(existsSync);
  const driver = await new Builder().usingServer(`http://127.0.0.1:${port}`)
    .withCapabilities({ browserName: "MiniBrowser", "webkitgtk:browserOptions": { binary, args: ["--automation"] } }).build();
  await driver.manage().setTimeouts({ script: 300_000, pageLoad: 120_000 });
  const resize = async (width, height) => {
    // WebDriver sizes the window: the viewport is what is left inside its frame.
    await driver.manage().window().setRect({ width, height });
    const inner = await driver.executeScript("return [innerWidth, innerHeight]");
    await driver.manage().window().setRect({ width: 2 * width - inner[0], height: 2 * height - inner[1] });
  };
  await resize(1280, 800);
  return {
    name: "WebKitGTK",
    goto: (url) => driver.get(url),
    resize,
    // No console over WebDriver: errors are what the page itself recorded (see `collectErrors`).
    run: (body, arg) => driver.executeAsyncScript(`const done = arguments[arguments.length - 1];
      (${asyncFunction(body)})(arguments[0]).then((v) => done({ ok: v }), (e) => done({ error: String(e && e.stack || e) }));`, arg ?? null)
      .then((r) => { if (r.error) throw new Error(r.error); return r.ok; }),
    screenshot: async (path) => writeFileSync(path, Buffer.from(await driver.takeScreenshot(), "base64")),
    errors: () => [],
    quit: async () => {
      await driver.quit();
      driverProcess.kill();
      server.kill();
    },
  };
}

export const ENGINES = { chromium, firefox, webkit };
