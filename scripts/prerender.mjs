// `make site`'s last step: the first screen in the HTML. Each page a visitor lands on — the page
// and the embed, in English and in Simplified Chinese — is opened on dist/ in the tests' headless
// Chromium, drawn by the page's own scripts from the sampling core and the shipped step (the model
// is never asked for), and kept as its HTML: its figures, causes, compared table, mass bars and
// shipped answer are then in the file, bit for bit what the page draws, readable before any
// script runs or with scripts off. The scripts then draw the same things in the same places.
//
//   dist/index.html, dist/index.zh-Hans.html   the page, each naming the other (hreflang)
//   dist/embed.html, dist/embed.zh-Hans.html   the embed ("Embed this" points at them)
//   dist/preview.png, dist/preview.zh-Hans.png a picture of the comparison for link previews
//   dist/prerendered/<page>.css                 the styles the scripts had set on elements (bar
//                                               lengths, colours): the Content-Security-Policy
//                                               admits no style in the HTML itself; the page drops
//                                               them once its scripts have drawn it again
//
// SITE_URL (environment), the address the site is served at, makes the previews' and the
// language links' addresses absolute, as link previews need them.
/* global document -- what runs inside the page */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FluentBundle, FluentResource } from "@fluent/bundle";
import { serveStatic } from "./static-server.mjs";
import { launchChromium, MODEL } from "../tests/e2e/harness.js";

const ROOT = new URL("..", import.meta.url).pathname;
const DIST = join(ROOT, "dist");
const SITE_URL = (process.env.SITE_URL ?? "").replace(/\/?$/, (end) => (process.env.SITE_URL ? "/" : end));
const LANGUAGES = ["en", "zh-Hans"];
/** A page's file in a language: `index.html`, `index.zh-Hans.html`; its preview or style sheet by
 * another extension (`preview.zh-Hans.png`). */
const fileOf = (page, lang, extension = "html") => (lang === "en" ? `${page}.${extension}` : `${page}.${lang}.${extension}`);
const VIEWPORTS = { index: { width: 1280, height: 800 }, embed: { width: 720, height: 600 } };

/** The page's catalog in `lang`, for the sentences a page without scripts says. */
function catalog(lang) {
  const bundle = new FluentBundle(lang, { useIsolating: false });
  bundle.addResource(new FluentResource(readFileSync(join(ROOT, "www/locales", lang, "page.ftl"), "utf8")));
  return (id) => bundle.formatPattern(bundle.getMessage(id).value);
}

const escapeText = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const escapeAttribute = (text) => escapeText(text).replace(/"/g, "&quot;");

/** The page drawn by its scripts, as HTML: waits for the figures, the mass bars and the shipped
 * answer's sentences, then takes the document as it stands, without what only a running page
 * has (the marks the tests wait on, the strip chart's canvas, drawn by Chart.js). */
async function rendered(browser, base, page, lang) {
  const tab = await browser.newPage({ viewport: VIEWPORTS[page] });
  await tab.route(`**/${MODEL}`, (route) => route.abort());
  // Drawn as a reader first sees it, before any model: a browser that asks to save data is one
  // the page does not load the model for in the background.
  await tab.addInitScript(() => Object.defineProperty(navigator, "connection", { value: { saveData: true } }));
  const errors = [];
  tab.on("pageerror", (e) => errors.push(e.message));
  await tab.goto(`${base}index.html?lang=${lang}${page === "embed" ? "&embed=1" : ""}`);
  await tab.waitForFunction(() => document.documentElement.dataset.drawn && document.querySelector("#mass-bars li") && document.querySelector("#answer-summary li"), null, { timeout: 120_000 });
  if (errors.length) throw new Error(`${page} in ${lang}: ${errors.join("; ")}`);
  const { html, css } = await tab.evaluate(() => {
    // The controls as they stand (a property is not its attribute): read without scripts too.
    for (const input of document.querySelectorAll("input, textarea, select")) {
      if (input.type === "checkbox" || input.type === "radio") input.toggleAttribute("checked", input.checked);
      else if (input.tagName === "TEXTAREA") input.textContent = input.value;
      else if (input.tagName === "SELECT") for (const option of input.options) option.toggleAttribute("selected", option.selected);
      else if (input.type !== "file") input.setAttribute("value", input.value);
    }
    const root = document.documentElement.cloneNode(true);
    delete root.dataset.drawn;
    root.querySelector("#answer-strip")?.setAttribute("hidden", "");
    // Each element's own style as a rule of the page's stylesheet: the same text, the same rule.
    const rules = new Map();
    for (const el of root.querySelectorAll("[style]")) {
      const style = el.getAttribute("style");
      if (!rules.has(style)) rules.set(style, rules.size);
      el.dataset.ps = String(rules.get(style));
      el.removeAttribute("style");
    }
    // `!important`, as an element's own style outranks every rule of the stylesheets.
    const important = (style) => style.split(";").map((d) => d.trim()).filter(Boolean).map((d) => `${d} !important`).join("; ");
    return { html: root.outerHTML, css: [...rules].map(([style, n]) => `[data-ps="${n}"] { ${important(style)} }`).join("\n") };
  });
  return { tab, html, css };
}

/** The head a link preview and a search engine read: the language, the other language's page, a
 * picture of the comparison. */
function head(page, lang, title, description) {
  const address = (file) => `${SITE_URL}${file}`;
  const lines = LANGUAGES.map((other) => `<link rel="alternate" hreflang="${other}" href="${escapeAttribute(address(fileOf(page, other)))}">`);
  lines.push(
    `<meta property="og:type" content="website">`,
    `<meta property="og:title" content="${escapeAttribute(title)}">`,
    `<meta property="og:description" content="${escapeAttribute(description)}">`,
    `<meta property="og:locale" content="${lang === "en" ? "en_US" : "zh_CN"}">`,
    `<meta name="twitter:card" content="summary_large_image">`,
  );
  // A preview's picture must be an absolute address: given only with the site's.
  if (SITE_URL) {
    lines.push(`<meta property="og:url" content="${escapeAttribute(address(fileOf(page, lang)))}">`,
      `<meta property="og:image" content="${escapeAttribute(address(fileOf("preview", lang, "png")))}">`,
      `<meta name="twitter:image" content="${escapeAttribute(address(fileOf("preview", lang, "png")))}">`);
  }
  return lines.join("\n  ");
}

/** The HTML as the file keeps it: the language this page is in (its scripts keep it unless a link
 * names another), its head, and what a reader without scripts is told. */
function finish(html, page, lang, css) {
  const say = catalog(lang);
  const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";
  const description = /<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? "";
  const unescape = (text) => text.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  return `<!doctype html>\n${html}`
    .replace(/^(<!doctype html>\n<html)([^>]*)>/, (_, start, attributes) => `${start}${attributes.replace(/ class="[^"]*"/, "")} data-page="${page}" data-page-lang="${lang}">`)
    .replace("</title>", `</title>\n  ${head(page, lang, unescape(title), unescape(description))}`)
    .replace(/(<link rel="stylesheet" href="([^"]*)answer\.css">)/, (_, link, assets) => `${link}\n  <link rel="stylesheet" href="prerendered/${css}">\n  <script src="${assets}first-screen.js"></script>`)
    .replace('<div class="first-screen">', `<noscript><p class="noscript-note">${escapeText(say("noscript-note"))}</p></noscript>\n      <div class="first-screen">`);
}

const site = await serveStatic([["/", DIST]]);
const browser = await launchChromium();
try {
  // Every page in every language from the same index.html, as the build left it.
  mkdirSync(join(DIST, "prerendered"), { recursive: true });
  const pages = [];
  for (const page of ["index", "embed"]) {
    for (const lang of LANGUAGES) {
      const { tab, html, css } = await rendered(browser, site.base, page, lang);
      const cssFile = fileOf(page, lang, "css");
      writeFileSync(join(DIST, "prerendered", cssFile), `/* ${fileOf(page, lang)}: its elements' own styles, as the page's scripts set them (scripts/prerender.mjs). */\n${css}\n`);
      if (page === "embed") {
        // The picture a shared link previews: the embed's comparison, at a preview's size.
        await tab.setViewportSize({ width: 1200, height: 630 });
        await tab.waitForTimeout(300);
        await tab.screenshot({ path: join(DIST, fileOf("preview", lang, "png")) });
      }
      await tab.close();
      pages.push([fileOf(page, lang), finish(html, page, lang, cssFile)]);
    }
  }
  for (const [file, html] of pages) writeFileSync(join(DIST, file), html);
  console.log(`prerender: ${pages.map(([file, html]) => `${file} (${(html.length / 1e3).toFixed(0)} KB)`).join(", ")}, preview.png, preview.zh-Hans.png${SITE_URL ? ` for ${SITE_URL}` : " (SITE_URL not given: previews without a picture)"}`);
} finally {
  await browser.close();
  site.server.close();
}
