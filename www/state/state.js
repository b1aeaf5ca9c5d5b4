// The page's whole state as a URL query, so that a link restores it exactly on another machine.
// A link is untrusted input: every field is checked, and a bad one is reported and replaced by
// its default rather than used. Values are only ever shown as text.

import { HUB_SET, LINKED_SET } from "./set-link.js";

export const DEFAULTS = Object.freeze({
  system: "",
  user: "How do you say thank you in Chinese?",
  prefix: 'In Chinese, you can say "',
  params: '{"do_sample":true,"temperature":0.7,"top_k":40,"top_p":0.9}',
  gc: "",
  logits: "",
  /** The arguments the generation ran with, where they differ from `params` (inspected since). */
  gen: "",
  preset: "",
  /** The model: "" for the site's default, else as model-source.js reads it (a Hub repo, a
   * GGUF in one, a Hub URL, a file of this site). */
  model: "",
  /** An exercise set: "default", or the path of a JSON file on this site. */
  exercises: "",
  task: 0,
  /** The exercises' teacher view: every answer shown. */
  teacher: false,
  semantics: "hf",
  seed: 0,
  max: 64,
  step: null,
  log: false,
  embed: false,
  /** The exact model's threads where the page is cross-origin isolated: 0 for one fewer than the
   * machine's cores (at most 8). */
  threads: 0,
  /** "overlay" (every column on one chart) or "panels" (a chart per column). */
  view: "overlay",
  /** The columns shown, comma-separated: "" for every column, "none" for none. */
  cols: "",
});

const MAX_TEXT = 20_000;
/** A column's name, as the core spells them; which names exist is the core's to say
 * (`checkColumns`, once the worker has listed them). */
const NAME = /^[a-z][a-z0-9_]{0,39}$/;
const VIEWS = ["overlay", "panels"];

/** Each field's check: the value, or throws a message saying what is wrong with it. */
const FIELDS = {
  system: text,
  user: text,
  prefix: text,
  params: jsonObject,
  gc: (raw) => (raw === "" ? "" : jsonObject(raw)),
  gen: (raw) => (raw === "" ? "" : jsonObject(raw)),
  logits: (raw) => {
    if (!/^[-+0-9.,eE \t]{0,2000}$/.test(raw)) throw new Error("must be numbers separated by commas");
    return raw;
  },
  model: (raw) => {
    if (raw.length > 2000 || /[\s\u0000-\u001f]/.test(raw)) throw new Error("is not a model's name, path or URL");
    return raw;
  },
  preset: (raw) => {
    if (!/^[a-z0-9.-]{0,40}$/.test(raw)) throw new Error("is not a preset name");
    return raw;
  },
  exercises: (raw) => {
    if (raw !== "default" && raw !== LINKED_SET && !HUB_SET.test(raw) && !/^[\w-]+(\/[\w-]+)*\.json$/.test(raw)) {
      throw new Error("must be “default”, “link” (a set carried in the link), the path of a .json file on this site, or a file's resolve/ URL on the Hub");
    }
    return raw;
  },
  task: (raw) => integer(raw, 0, 99),
  teacher: flag,
  semantics: (raw) => {
    if (!NAME.test(raw)) throw new Error("is not a column's name");
    return raw;
  },
  seed: (raw) => integer(raw, 0, 2 ** 53 - 1),
  max: (raw) => integer(raw, 1, 8192),
  step: (raw) => integer(raw, 0, 8191),
  log: flag,
  embed: flag,
  threads: (raw) => integer(raw, 0, 8),
  view: (raw) => {
    if (!VIEWS.includes(raw)) throw new Error(`must be one of ${VIEWS.join(", ")}`);
    return raw;
  },
  cols: (raw) => {
    if (raw === "none") return raw;
    if (raw.length > 400 || !raw.split(",").every((n) => NAME.test(n))) throw new Error("must be column names separated by commas");
    return raw;
  },
};

function flag(raw) {
  if (raw !== "1" && raw !== "0") throw new Error("must be 1 or 0");
  return raw === "1";
}

function text(raw) {
  if (raw.length > MAX_TEXT) throw new Error(`is ${raw.length} characters long; at most ${MAX_TEXT} fit in a link`);
  return raw;
}

function jsonObject(raw) {
  text(raw);
  let value;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new Error("is not valid JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Error("must be a JSON object");
  return raw;
}

function integer(raw, min, max) {
  if (!/^\d{1,16}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new Error(`must be a whole number from ${min} to ${max}`);
  }
  return Number(raw);
}

/** The state a query string describes, and what was wrong with it (one message per bad field). */
export function parseState(search) {
  const query = new URLSearchParams(search);
  const state = { ...DEFAULTS };
  const problems = [];
  for (const [key, raw] of query) {
    if (!Object.hasOwn(FIELDS, key)) {
      problems.push(`unknown link field “${key.slice(0, 40)}”`);
      continue;
    }
    try {
      state[key] = FIELDS[key](raw);
    } catch (e) {
      problems.push(`link field “${key}” ${e.message}; using the default`);
    }
  }
  return { state, problems };
}

/** The link's column names checked against the `names` the core lists: an unknown semantics is
 * named and replaced by the default, unknown columns are named and left out. */
export function checkColumns(state, names) {
  const problems = [];
  const checked = { ...state };
  if (!names.includes(state.semantics)) {
    problems.push(`link field “semantics” names no column (“${state.semantics}”; the columns are ${names.join(", ")}); using the default`);
    checked.semantics = DEFAULTS.semantics;
  }
  const unknown = shownColumns(state.cols, names).unknown;
  if (unknown.length) {
    problems.push(`link field “cols” names no column ${unknown.map((n) => `“${n}”`).join(", ")}; the columns are ${names.join(", ")}`);
    checked.cols = shownColumns(state.cols, names).shown.join(",");
  }
  return { state: checked, problems };
}

/** The columns a `cols` value shows, of the core's `names`, and the names it has that are not
 * columns. */
export function shownColumns(cols, names) {
  if (cols === "") return { shown: [...names], unknown: [] };
  const listed = cols === "none" ? [] : cols.split(",");
  return { shown: listed.filter((n) => names.includes(n)), unknown: listed.filter((n) => !names.includes(n)) };
}

/** The `cols` value for the columns `shown`, of the core's `names`. */
export function colsValue(shown, names) {
  if (names.every((n) => shown.includes(n))) return "";
  return shown.length ? names.filter((n) => shown.includes(n)).join(",") : "none";
}

/** The query string of `state`, leaving out what equals the default (short links). */
export function stateQuery(state) {
  const query = new URLSearchParams();
  for (const key of Object.keys(FIELDS)) {
    const value = state[key];
    if (value === DEFAULTS[key] || value === null || value === undefined) continue;
    query.set(key, typeof value === "boolean" ? (value ? "1" : "0") : String(value));
  }
  const text = query.toString();
  return text ? `?${text}` : "";
}
