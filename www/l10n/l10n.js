// Every sentence the page shows, in the reader's language: Project Fluent's catalogs
// (locales/<lang>/page.ftl) through @fluent/bundle, vendored from npm. The core's own sentences
// (findings, causes, the temperature table, the columns' names) come already written from the
// wasm, in the language the page asks for; these are the page's.
//
// Text only, never HTML: a message's placeables are text, or elements the page built (code, a
// link) that are put where the placeable stands — the translation itself carries no markup.
import { FluentBundle, FluentResource } from "../vendor/fluent-bundle/index.js";
import { negotiateLanguages } from "../vendor/fluent-langneg/index.js";

import { LANGUAGES } from "../shared/languages.js";
import { listOf as listIn, tighten } from "../shared/lists.js";

export { LANGUAGES, NATIVE_NAMES } from "../shared/languages.js";

/** Items as a sentence lists them, in the page's language. */
export const listOf = (items) => listIn(items, current);

const REMEMBERED = "sampling-lab:lang";

/** Each language's bundle as it loads (a promise), and once loaded. */
const loading = new Map();
const loaded = new Map();
let current = LANGUAGES[0];
const changed = [];

/** The page's language: the link's `lang`, else the language of the page the site prerendered in
 * one (`index.zh-Hans.html`), else the reader's last choice here, else the browser's preferred
 * languages, else English. */
export function chooseLanguage(linked) {
  if (linked && LANGUAGES.includes(linked)) return linked;
  const prerendered = document.documentElement.dataset.pageLang;
  if (LANGUAGES.includes(prerendered)) return prerendered;
  let remembered = null;
  try {
    remembered = localStorage.getItem(REMEMBERED);
  } catch { /* storage off: no memory */ }
  if (LANGUAGES.includes(remembered)) return remembered;
  return negotiateLanguages(navigator.languages ?? [navigator.language], LANGUAGES, { defaultLocale: LANGUAGES[0], strategy: "lookup" })[0];
}

/** Remembers the reader's choice (the switcher's), for visits without a `lang` in the link. */
export function rememberLanguage(lang) {
  try {
    localStorage.setItem(REMEMBERED, lang);
  } catch { /* storage off */ }
}

function bundleOf(lang) {
  if (!loading.has(lang)) {
    loading.set(lang, (async () => {
      // Beside the scripts, wherever a site's build puts them (assets/<version>/ in dist/).
      const url = new URL(`../locales/${lang}/page.ftl`, import.meta.url);
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`);
      const bundle = new FluentBundle(lang, { useIsolating: false });
      const errors = bundle.addResource(new FluentResource(await response.text()));
      if (errors.length) console.error(`locales/${lang}/page.ftl:`, errors);
      loaded.set(lang, bundle);
      return bundle;
    })());
  }
  return loading.get(lang);
}

/** Loads `lang` (and English, which a missing message falls back to), makes it the page's, and
 * translates the document and everything that listens. */
export async function useLanguage(lang) {
  await Promise.all([bundleOf(LANGUAGES[0]), bundleOf(lang)]);
  current = lang;
  document.documentElement.lang = lang;
  translate(document);
  for (const listener of changed) listener(lang);
}

/** The page's language now. */
export const language = () => current;

/** Calls `listener(lang)` whenever the language changes (what the page built from text again). */
export function onLanguageChange(listener) {
  changed.push(listener);
}

/** The first loaded bundle that has `id`: the page's language, else English. */
function find(id) {
  for (const lang of [current, LANGUAGES[0]]) {
    const bundle = loaded.get(lang);
    const message = bundle?.getMessage(id);
    if (message) return { bundle, message };
  }
  return null;
}

/** Message `id` as text, with `args` (strings and numbers: Fluent formats numbers with Intl). */
export function t(id, args = {}) {
  const found = find(id);
  if (!found?.message.value) {
    console.error(`no message ${id}`);
    return id;
  }
  return format(found.bundle, id, found.message.value, args);
}

/** The attribute `attribute` of message `id`, as text. */
export function tAttribute(id, attribute, args = {}) {
  const found = find(id);
  const pattern = found?.message.attributes?.[attribute];
  return pattern ? format(found.bundle, `${id}.${attribute}`, pattern, args) : id;
}

function format(bundle, id, pattern, args) {
  const errors = [];
  const text = bundle.formatPattern(pattern, args, errors);
  if (errors.length) console.error(`message ${id}: ${errors.map((e) => e.message ?? e).join("; ")}`);
  return bundle.locales[0] === "zh-Hans" ? tighten(text) : text;
}


/** Message `id` as DOM nodes: text, and each argument that is a Node where its placeable stands
 * (a code element, a link). */
export function nodes(id, args = {}) {
  const elements = [];
  const textArgs = {};
  for (const [name, value] of Object.entries(args)) {
    if (value instanceof Node) {
      textArgs[name] = `\u{F0000}${elements.length}\u{F0001}`;
      elements.push(value);
    } else textArgs[name] = value;
  }
  return t(id, textArgs).split(/\u{F0000}(\d+)\u{F0001}/u).map((part, i) => (i % 2 ? elements[Number(part)] : document.createTextNode(part)));
}

/** Sets `element`'s text to message `id` (its children named `data-l10n-name` kept where their
 * placeables stand) and its attributes to the message's (`.placeholder`, `.title`, `.aria-label`). */
export function localize(element, id, args = {}) {
  element.dataset.l10nId = id;
  if (Object.keys(args).length) element.dataset.l10nArgs = JSON.stringify(args);
  else delete element.dataset.l10nArgs;
  apply(element);
}

const ATTRIBUTES = ["placeholder", "title", "aria-label", "alt", "label"];

function apply(element) {
  const found = find(element.dataset.l10nId);
  if (!found) return console.error(`no message ${element.dataset.l10nId}`);
  const args = element.dataset.l10nArgs ? JSON.parse(element.dataset.l10nArgs) : {};
  if (found.message.value) {
    const named = Object.fromEntries([...element.querySelectorAll(":scope > [data-l10n-name]")].map((child) => [child.dataset.l10nName, child]));
    element.replaceChildren(...nodes(element.dataset.l10nId, { ...args, ...named }));
  }
  for (const [attribute, pattern] of Object.entries(found.message.attributes ?? {})) {
    if (ATTRIBUTES.includes(attribute)) element.setAttribute(attribute, format(found.bundle, `${element.dataset.l10nId}.${attribute}`, pattern, args));
  }
}

/** Every element under `root` that names a message (`data-l10n-id`), in the page's language. */
export function translate(root) {
  for (const element of root.querySelectorAll("[data-l10n-id]")) apply(element);
}
