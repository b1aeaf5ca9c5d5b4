// Docs that cannot drift from the code: every export of the three wasm builds is named in
// docs/wasm-api.md, and every file or folder ARCHITECTURE.md and the docs name exists.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";

const BUILDS = ["pkg-core", "pkg", "pkg-threads"];
/** wasm-bindgen's own glue, not the crate's API. */
const GLUE = new Set(["default", "initSync", "free", "InitInput", "InitOutput", "SyncInitInput"]);

/** What a build's TypeScript definitions export: functions, classes, and each class's methods,
 * static constructors and properties, as `Class.member`. */
function exports(build) {
  const names = [];
  let inClass = null;
  for (const line of readFileSync(`${build}/sampling_lab.d.ts`, "utf8").split("\n")) {
    const top = /^export (?:function|class) (\w+)/.exec(line);
    if (top) {
      names.push(top[1]);
      inClass = line.startsWith("export class") ? top[1] : null;
      continue;
    }
    if (line.startsWith("}")) inClass = null;
    const member = inClass && /^\s+(?:static |readonly )*(\w+)[(:]/.exec(line);
    if (member) names.push(`${inClass}.${member[1]}`);
  }
  return names.filter((name) => !GLUE.has(name.split(".").pop()) && !name.startsWith("__"));
}

test("every export of the three wasm builds is named in docs/wasm-api.md", () => {
  const doc = readFileSync("docs/wasm-api.md", "utf8");
  const named = new Set([...doc.matchAll(/\b[A-Za-z_]\w*\b/g)].map(([word]) => word));
  for (const build of BUILDS) {
    const all = exports(build);
    assert.ok(all.length > 15, `${build}'s exports were read: ${all}`);
    const missing = all.filter((name) => !named.has(name.split(".").pop()));
    assert.deepEqual(missing, [], `${build} exports what docs/wasm-api.md does not name`);
  }
});

/** The top-level folders of the repository: a path that starts with one is the repository's. */
const TOP = new Set(readdirSync(".", { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name));

/** The repository paths a Markdown file names in backticks: one under a top-level folder, or a
 * source file of ours (`columns/hf.rs`, `worker.js`); not a URL, a command, a pattern, a Hub
 * repo, a file format (`config.json`) or an example's placeholder (`foo.rs`). */
function namedPaths(markdown) {
  const paths = new Set();
  for (const [, code] of markdown.matchAll(/`([^`\n]+)`/g)) {
    const path = code.replace(/:\d+(-\d+)?$/, "").replace(/\/$/, "");
    if (/[\s<>*…{}$=|@]/.test(path) || /^[a-z]+:/.test(path) || /^[-./]/.test(path)) continue;
    if (/(^|\/)(foo|bar)(\.\w+)?$/.test(path)) continue;
    if (TOP.has(path.split("/")[0]) || /\.(rs|js|mjs|ftl)$/.test(path)) paths.add(path);
  }
  return [...paths];
}

/** Where a named path is looked for: from the repository's root, from the Markdown file's own
 * folder, or (a module path of the core's sources) under crates/sampling-lab-core/src. */
const WHERE = (file) => ["", `${file.split("/").slice(0, -1).join("/")}/`, "crates/sampling-lab-core/src/", "crates/sampling-lab-core/", "src/", "www/"];

/** Built or fetched, not in the repository: named in the docs, made by `make`. */
const MADE = /^(pkg|pkg-core|pkg-threads|dist|steps|models|target|node_modules|\.venv-\w+)(\/|$)/;

test("every file and folder ARCHITECTURE.md and docs/ name exists", () => {
  const files = ["ARCHITECTURE.md", "README.md", ...readdirSync("docs").filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
  let checked = 0;
  const missing = [];
  for (const file of files) {
    for (const path of namedPaths(readFileSync(file, "utf8"))) {
      if (MADE.test(path)) continue;
      checked += 1;
      if (!WHERE(file).some((base) => existsSync(`${base}${path}`))) missing.push(`${file}: ${path}`);
    }
  }
  assert.ok(checked > 50, `the docs' paths were read: ${checked}`);
  assert.deepEqual(missing, []);
});

/** Each Chinese document beside the English one it translates. */
const TRANSLATED = [["README.md", "README.zh-Hans.md"], ["docs/publishing.md", "docs/publishing.zh-Hans.md"],
  ["www/exercises/README.md", "www/exercises/README.zh-Hans.md"]];

/** A Markdown file's headings, by level, outside its code blocks. */
const headings = (file) => readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "").split("\n")
  .map((line) => /^(#{1,6}) /.exec(line)?.[1].length).filter(Boolean);

test("each Chinese document has its English one's sections, in the same order, and the code they show", () => {
  for (const [english, chinese] of TRANSLATED) {
    assert.deepEqual(headings(chinese), headings(english), `${chinese}'s headings against ${english}'s`);
    // Commands, paths and code are not translated: every fenced block opens on the same word.
    const firstLines = (file) => [...readFileSync(file, "utf8").matchAll(/```\w*\n(.*)\n/g)].map((m) => m[1].trim().split(/\s+/)[0]);
    assert.deepEqual(firstLines(chinese), firstLines(english), `${chinese}'s code blocks against ${english}'s`);
  }
});
