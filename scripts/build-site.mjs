// `make site`: the page as a folder any static host serves, dist/.
//
//   dist/index.html, embed-example.html   not cached (a new build shows at once)
//   dist/assets/<hash>/                   every script, style, worker, the wasm and Chart.js, under
//                                         the hash of their content: cached for good
//   dist/exercises/                       the exercise sets (a teacher's go next to them)
//   dist/steps/                           the shipped steps (scripts/build-steps.mjs): index.json (not
//                                         cached) and data/, files named by their content's hash
//   dist/models/                          the default model, when the site serves it itself
//   dist/_headers                         the headers for Netlify and Cloudflare Pages: cross-origin
//                                         isolation, the Content-Security-Policy, caching
//
// MODEL (environment) is the site's default model as the page reads it (model-source.js): the
// same-origin copy by default, or a Hub file (`Org/Repo/file.gguf`, a huggingface.co URL) so that
// the site is a few MB and the model comes from the Hub's CDN. MODEL_SHA256 is its sha256 (known
// for the default). Prints what a visitor downloads, file by file group.
import { createHash } from "node:crypto";
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { FluentBundle, FluentResource } from "@fluent/bundle";
import { gzipSync } from "node:zlib";
import { pageColumns } from "../www/state/page-columns.js";

const ROOT = new URL("..", import.meta.url).pathname;
const OUT = join(ROOT, "dist");
const DEFAULT_MODEL = "models/SmolLM2-135M-Instruct.Q4_1.gguf";
const DEFAULT_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53";
/** The pages: everything else of www/ is an asset. */
const PAGES = ["index.html", "embed-example.html"];

const model = process.env.MODEL || DEFAULT_MODEL;
const sha256 = process.env.MODEL_SHA256 || (model === DEFAULT_MODEL ? DEFAULT_SHA256 : "");

/** Every file under `dir`, as paths relative to it. */
function files(dir) {
  return readdirSync(dir, { recursive: true }).map(String).filter((f) => statSync(join(dir, f)).isFile());
}

/** The wasm packages: the sampling core's (the first download), the model's, and the threaded one
 * (loaded where the host isolates the page). */
const PACKAGES = ["pkg-core", "pkg", "pkg-threads"];

/** The page's assets: www's scripts and styles (Chart.js vendored into www/vendor/ by the wasm
 * build), and the wasm packages. */
function assets() {
  const www = files(join(ROOT, "www")).filter((f) => !PAGES.includes(f) && !f.startsWith("exercises/"))
    .map((f) => [f, join(ROOT, "www", f)]);
  const packages = PACKAGES.flatMap((name) => files(join(ROOT, name)).filter((f) => /\.(js|wasm)$/.test(f))
    .map((f) => [`${name}/${f}`, join(ROOT, name, f)]));
  return [...www, ...packages].sort(([a], [b]) => a.localeCompare(b));
}

async function build() {
  for (const name of PACKAGES) {
    if (!existsSync(join(ROOT, name, "sampling_lab_bg.wasm"))) throw new Error(`no ${name}/: run \`make pkg\` first`);
  }
  if (!existsSync(join(ROOT, "steps/index.json"))) throw new Error("no steps/: run `node scripts/build-steps.mjs` first");
  rmSync(OUT, { recursive: true, force: true });
  const list = assets();
  const hash = createHash("sha256");
  for (const [name, path] of list) hash.update(name).update(readFileSync(path));
  const version = hash.digest("hex").slice(0, 12);
  const dir = `assets/${version}`;
  for (const [name, path] of list) {
    mkdirSync(join(OUT, dir, name, ".."), { recursive: true });
    copyFileSync(path, join(OUT, dir, name));
  }
  const head = await pageHead();
  for (const page of PAGES) writeFileSync(join(OUT, page), pageHtml(readFileSync(join(ROOT, "www", page), "utf8"), dir, head));
  cpSync(join(ROOT, "www/exercises"), join(OUT, "exercises"), { recursive: true });
  cpSync(join(ROOT, "steps"), join(OUT, "steps"), { recursive: true });
  if (!/^[a-z]+:/i.test(model) && model.endsWith(".gguf") && existsSync(join(ROOT, model))) {
    mkdirSync(join(OUT, model, ".."), { recursive: true });
    copyFileSync(join(ROOT, model), join(OUT, model));
  }
  writeFileSync(join(OUT, "_headers"), headers(csp(readFileSync(join(ROOT, "www/index.html"), "utf8"))));
  // GitHub Pages serves the folder as it is (no Jekyll: `_headers` and the assets stay untouched).
  writeFileSync(join(OUT, ".nojekyll"), "");
  return version;
}

/** The page's title and description as a reader without scripts (a link preview, a search
 * engine) meets them: in English, naming every column the core lists (pkg-core's `columns`),
 * from the catalog's `page-title` and `page-description` — what the page itself writes. */
async function pageHead() {
  const core = await import(join(ROOT, "pkg-core/sampling_lab.js"));
  core.initSync({ module: readFileSync(join(ROOT, "pkg-core/sampling_lab_bg.wasm")) });
  const names = pageColumns(core.columns("en"), "en");
  const bundle = new FluentBundle("en", { useIsolating: false });
  bundle.addResource(new FluentResource(readFileSync(join(ROOT, "www/locales/en/page.ftl"), "utf8")));
  const say = (id) => bundle.formatPattern(bundle.getMessage(id).value, names);
  return { title: say("page-title"), description: say("page-description") };
}

/** A page with its assets under the versioned folder, the site's default model, and (the page
 * that has them) its title and description. */
function pageHtml(html, dir, head) {
  let out = html.replace(/(<(?:link[^>]*href|script[^>]*src)=")(?!data:|https?:|\.\/|#)([^"]+\.(?:css|js))"/g, `$1${dir}/$2"`);
  // Pages among the assets (the exercise guide) move with them.
  out = out.replace(/(<a [^>]*href=")(vendor\/[^"]+\.html")/g, `$1${dir}/$2`);
  if (html.includes('<meta name="description"')) {
    out = out.replace(/<title>[^<]*<\/title>/, `<title>${escapeAttribute(head.title)}</title>`)
      .replace(/(<meta name="description" content=")[^"]*"/, `$1${escapeAttribute(head.description)}"`);
  }
  if (html.includes('name="sampling-lab:model"')) {
    out = out.replace(/(<meta name="sampling-lab:model" content=")[^"]*"/, `$1${escapeAttribute(model)}"`)
      .replace(/(<meta name="sampling-lab:model-sha256" content=")[^"]*"/, `$1${sha256}"`);
  }
  return out;
}

const escapeAttribute = (text) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** The Content-Security-Policy of the page's meta tag: the header says the same. */
function csp(html) {
  const policy = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html);
  if (!policy) throw new Error("www/index.html has no Content-Security-Policy meta tag");
  return policy[1];
}

/** Netlify's and Cloudflare Pages' `_headers`. */
function headers(policy) {
  return `# Headers for hosts that read a _headers file (Netlify, Cloudflare Pages). Without them the
# page works too, on one thread: GitHub Pages and plain file hosts send none.
/*
  Cross-Origin-Opener-Policy: same-origin
  Cross-Origin-Embedder-Policy: require-corp
  Content-Security-Policy: ${policy}
  X-Content-Type-Options: nosniff
  Referrer-Policy: strict-origin-when-cross-origin
/assets/*
  Cache-Control: public, max-age=31536000, immutable
/models/*
  Cache-Control: public, max-age=86400
/exercises/*
  Cache-Control: no-cache
/steps/data/*
  Cache-Control: public, max-age=31536000, immutable
/steps/index.json
  Cache-Control: no-cache
/
  Cache-Control: no-cache
/index.html
  Cache-Control: no-cache
/index.zh-Hans.html
  Cache-Control: no-cache
/embed.html
  Cache-Control: no-cache
/embed.zh-Hans.html
  Cache-Control: no-cache
/prerendered/*
  Cache-Control: no-cache
/embed-example.html
  Cache-Control: no-cache
`;
}

/** What a visitor downloads, by group: files, bytes, gzipped bytes. */
function sizes(version) {
  const groups = new Map();
  for (const file of files(OUT)) {
    const group = file.startsWith(`assets/${version}/pkg-core/`) ? (file.endsWith(".wasm") ? "the sampling core's wasm (first)" : "the core's wasm glue (JS)")
      : file.startsWith(`assets/${version}/pkg/`) ? (file.endsWith(".wasm") ? "the model's wasm" : "the model's wasm glue (JS)")
      : file.startsWith(`assets/${version}/pkg-threads/`) ? (file.endsWith(".wasm") ? "threaded wasm (isolated hosts only)" : "threaded wasm glue (JS)")
      : file.startsWith("assets/") ? (file.includes("/vendor/") ? "vendored: Chart.js, Fluent, the exercise schema and guides" : "page scripts and styles")
        : file.startsWith("models/") ? "default model" : file.startsWith("exercises/") ? "exercises"
          : file.startsWith("steps/") ? "shipped steps: logits, vocabulary, answers, index" : "pages and _headers";
    const bytes = readFileSync(join(OUT, file));
    const sum = groups.get(group) ?? { files: 0, bytes: 0, gzip: 0 };
    sum.files += 1;
    sum.bytes += bytes.length;
    // The model is not gzipped by hosts (quantized weights barely shrink): its bytes are what travel.
    sum.gzip += group === "default model" ? bytes.length : gzipSync(bytes, { level: 9 }).length;
    groups.set(group, sum);
  }
  const rows = [...groups].map(([group, s]) => `| ${group} | ${s.files} | ${(s.bytes / 1e6).toFixed(2)} MB | ${(s.gzip / 1e6).toFixed(2)} MB |`);
  const total = [...groups.values()].reduce((t, s) => ({ files: t.files + s.files, bytes: t.bytes + s.bytes, gzip: t.gzip + s.gzip }), { files: 0, bytes: 0, gzip: 0 });
  return ["| what | files | bytes | gzipped |", "|---|---|---|---|", ...rows,
    `| all of dist/ | ${total.files} | ${(total.bytes / 1e6).toFixed(2)} MB | ${(total.gzip / 1e6).toFixed(2)} MB |`].join("\n");
}

const version = await build();
console.log(`site: dist/ ready (assets/${version}/; default model ${model}${sha256 ? `, sha256 ${sha256.slice(0, 12)}…` : ""})`);
console.log(sizes(version));
console.log(`serve it from any static host (${relative(process.cwd(), OUT) || "dist"}/), e.g. python3 -m http.server -d dist`);
