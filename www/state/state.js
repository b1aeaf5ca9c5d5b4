// The page's whole state as a URL query, so that a link restores it exactly on another machine.
// A link is untrusted input: every field is checked, and a bad one is reported and replaced by
// its default rather than used. Values are only ever shown as text. What is wrong with a field is
// a catalog message (`{id, args}`), said in the reader's language where it is shown.

import { LANGUAGES } from "../shared/languages.js";
import { HUB_SET, LINKED_SET } from "./set-link.js";

export const DEFAULTS = Object.freeze({
  system: "",
  // The reference chat: the write-up's own, in its own words, whatever the page's language.
  // eslint-disable-next-line sampling-lab/no-prose
  user: "How do you say thank you in Chinese?",
  // eslint-disable-next-line sampling-lab/no-prose
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
  /** "compare" (the table of the compared columns beside every other) or "panels" (a chart per
   * column). */
  view: "compare",
  /** What an embed shows: "step" (the next token's figures and table) or "answer" (the answer
   * view: the whole answer coloured by a port's mass outside transformers' support). */
  pane: "step",
  /** The columns compared with transformers, comma-separated ("none" for none). */
  cols: "literal,corrected",
  /** The page's language ("" for the reader's own: their last choice, else their browser's). */
  lang: "",
  /** A step file of the chat (a writer's, beside their post): on the Hub (a `resolve/` URL) or
   * a path of this site; its figures are drawn without the model. */
  stepfile: "",
});

/** Where a step file may come from: a file in a Hub repo by its `resolve/` URL (the page's
 * Content-Security-Policy allows huggingface.co), or a `.json` path of this site. */
const STEP_FILE = /^(https:\/\/huggingface\.co\/(datasets\/)?[\w.-]+\/[\w.-]+\/resolve\/[\w.%-]+\/[\w.%/-]+\.json|[\w-]+(\/[\w.-]+)*\.json)$/;

/** What is wrong with a link's field: the catalog's message for it. */
class Wrong extends Error {
  constructor(id, args = {}) {
    super(id);
    this.said = { id, args };
  }
}

const MAX_TEXT = 20_000;
/** A column's name, as the core spells them; which names exist is the core's to say
 * (`checkColumns`, once the worker has listed them). */
const NAME = /^[a-z][a-z0-9_]{0,39}$/;
const VIEWS = ["compare", "panels"];
const PANES = ["step", "answer"];

/** Each field's check: the value, or throws a message saying what is wrong with it. */
const FIELDS = {
  system: text,
  user: text,
  prefix: text,
  params: jsonObject,
  gc: (raw) => (raw === "" ? "" : jsonObject(raw)),
  gen: (raw) => (raw === "" ? "" : jsonObject(raw)),
  logits: (raw) => {
    if (!/^[-+0-9.,eE \t]{0,2000}$/.test(raw)) throw new Wrong("link-wrong-logits");
    return raw;
  },
  model: (raw) => {
    // eslint-disable-next-line no-control-regex -- control characters are what it refuses
    if (raw.length > 2000 || /[\s\u0000-\u001f]/.test(raw)) throw new Wrong("link-wrong-model");
    return raw;
  },
  preset: (raw) => {
    if (!/^[a-z0-9.-]{0,40}$/.test(raw)) throw new Wrong("link-wrong-preset");
    return raw;
  },
  exercises: (raw) => {
    if (raw !== "default" && raw !== LINKED_SET && !HUB_SET.test(raw) && !/^[\w-]+(\/[\w-]+)*\.json$/.test(raw)) {
      throw new Wrong("link-wrong-exercises");
    }
    return raw;
  },
  task: (raw) => integer(raw, 0, 99),
  teacher: flag,
  semantics: (raw) => {
    if (!NAME.test(raw)) throw new Wrong("link-wrong-column");
    return raw;
  },
  seed: (raw) => integer(raw, 0, 2 ** 53 - 1),
  max: (raw) => integer(raw, 1, 8192),
  step: (raw) => integer(raw, 0, 8191),
  log: flag,
  embed: flag,
  threads: (raw) => integer(raw, 0, 8),
  view: (raw) => {
    // A link from before the compared table names its one chart of every column.
    if (raw === "overlay") return "compare";
    if (!VIEWS.includes(raw)) throw new Wrong("link-wrong-choice", { choices: VIEWS.join(", ") });
    return raw;
  },
  pane: (raw) => {
    if (!PANES.includes(raw)) throw new Wrong("link-wrong-choice", { choices: PANES.join(", ") });
    return raw;
  },
  cols: (raw) => {
    if (raw === "none" || raw === "") return raw;
    if (raw.length > 400 || !raw.split(",").every((n) => NAME.test(n))) throw new Wrong("link-wrong-columns");
    return raw;
  },
  stepfile: (raw) => {
    if (!STEP_FILE.test(raw) || raw.includes("..")) throw new Wrong("link-wrong-step-file");
    return raw;
  },
  lang: (raw) => {
    if (!LANGUAGES.includes(raw)) throw new Wrong("link-wrong-choice", { choices: LANGUAGES.join(", ") });
    return raw;
  },
};

function flag(raw) {
  if (raw !== "1" && raw !== "0") throw new Wrong("link-wrong-flag");
  return raw === "1";
}

function text(raw) {
  if (raw.length > MAX_TEXT) throw new Wrong("link-wrong-length", { length: raw.length, most: MAX_TEXT });
  return raw;
}

function jsonObject(raw) {
  text(raw);
  let value;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new Wrong("link-wrong-json");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Wrong("link-wrong-object");
  return raw;
}

function integer(raw, min, max) {
  if (!/^\d{1,16}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new Wrong("link-wrong-integer", { min, max });
  }
  return Number(raw);
}

/** The state a query string describes, and what was wrong with it: one `{id, args}` per bad
 * field, each naming its field. */
export function parseState(search) {
  const query = new URLSearchParams(search);
  const state = { ...DEFAULTS };
  const problems = [];
  for (const [key, raw] of query) {
    if (!Object.hasOwn(FIELDS, key)) {
      problems.push({ id: "link-unknown-field", args: { field: key.slice(0, 40) } });
      continue;
    }
    try {
      state[key] = FIELDS[key](raw);
    } catch (e) {
      if (!(e instanceof Wrong)) throw e;
      problems.push({ id: "link-field-default", args: { field: key, problem: e.said } });
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
    problems.push({ id: "link-no-such-semantics", args: { name: state.semantics, columns: names.join(", ") } });
    checked.semantics = DEFAULTS.semantics;
  }
  const unknown = comparedColumns(state.cols, names).unknown;
  if (unknown.length) {
    problems.push({ id: "link-no-such-columns", args: { names: unknown.join(", "), columns: names.join(", ") } });
    checked.cols = comparedColumns(state.cols, names).compared.join(",") || "none";
  }
  return { state: checked, problems };
}

/** How many columns the table compares with transformers at once, beside it. */
export const MOST_COMPARED = 3;

/** The columns a `cols` value compares with transformers, of the core's `names` (hf itself
 * always stands first, never among them), and the names it has that are not columns. */
export function comparedColumns(cols, names) {
  const listed = cols === "none" || cols === "" ? [] : cols.split(",");
  return {
    compared: listed.filter((n) => names.includes(n) && n !== "hf").slice(0, MOST_COMPARED),
    unknown: listed.filter((n) => !names.includes(n)),
  };
}

/** `compared` with `name` toggled: added last (the oldest leaving past `MOST_COMPARED`), or
 * taken out; as a `cols` value. */
export function toggleCompared(compared, name) {
  const next = compared.includes(name) ? compared.filter((n) => n !== name) : [...compared, name].slice(-MOST_COMPARED);
  return next.length ? next.join(",") : "none";
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
