// ESLint for the page's scripts, the build scripts, the bench and the browser tests: the
// recommended rules, each file's globals (browser, worker or Node), and one rule of the project's
// own for the page — a sentence a reader sees lives in the catalogs (www/locales/), never in a
// script (`sampling-lab/no-prose`).
import js from "@eslint/js";
import globals from "globals";
import noProse from "./tools/eslint-no-prose.js";

export default [
  { ignores: [".venv*/**", "www/vendor/**", "pkg/**", "pkg-core/**", "pkg-threads/**", "dist/**", "target/**", "node_modules/**", "fuzz/**", "steps/**"] },
  js.configs.recommended,
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module" },
    rules: {
      // `_` marks what a signature must take and the body does not use.
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  { files: ["www/**/*.js"], languageOptions: { globals: { ...globals.browser } } },
  { files: ["www/worker/**/*.js", "bench/*-worker.js", "bench/draw-worker.js"], languageOptions: { globals: { ...globals.worker } } },
  { files: ["scripts/**/*.mjs", "tools/**/*.js", "eslint.config.js"], languageOptions: { globals: { ...globals.node } } },
  // The bench and the browser tests run in Node and hand functions to the page (page.evaluate).
  { files: ["bench/**", "tests/**/*.js"], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
  {
    files: ["www/**/*.js"],
    plugins: { "sampling-lab": { rules: { "no-prose": noProse } } },
    rules: { "sampling-lab/no-prose": "error" },
  },
];
