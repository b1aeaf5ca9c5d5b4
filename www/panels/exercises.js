// Classroom exercises: a set of tasks as data (a JSON file a teacher writes and passes by URL,
// www/exercises/README.md), each set up on the page and checked against the core's report. The
// answer key is read from the report (or from a generation the core ran); judging compares the
// student's answer with it and computes no semantics.
import { label } from "../state/columns.js";
import { language, t } from "../l10n/l10n.js";
import { Said } from "../shared/said.js";
import validateSet from "../vendor/exercise-schema.js";
import { HUB_SET, LINKED_SET, setFromFragment } from "../state/set-link.js";

export const DEFAULT_SET = "exercises/default.json";

/** Fetches an exercise set — "default", a file of this site, a file on the Hub, or the set the
 * link itself carries — and checks it against its schema (exercises/schema.json) and the cause
 * `rules` and `columns` the core names (the worker's `started` reply); throws a sentence naming
 * what is wrong and what to check. */
export async function loadExercises(path, core) {
  if (path === LINKED_SET) return checkedSet(await setFromFragment(location.hash), core);
  const hub = HUB_SET.test(path);
  const url = new URL(path === "default" ? DEFAULT_SET : path, location.href);
  if (!hub && url.origin !== location.origin) throw new Said("set-other-site");
  let response;
  try {
    response = await fetch(url);
  } catch {
    throw new Said("set-unreachable", { host: hub ? "huggingface.co" : "this-site", path });
  }
  if (!response.ok) throw new Said("set-not-found", { path, status: response.status, where: hub ? "hub" : "site" });
  let set;
  try {
    set = await response.json();
  } catch {
    throw new Said("set-not-json", { path });
  }
  return checkedSet(set, core);
}

/** A set's text in the page's language: a text is a string (in the set's `lang`), or one per
 * language (`{"en": …, "zh-Hans": …}`), the page's language first, else English, else the
 * first the set has. */
export function inLanguage(text) {
  if (typeof text === "string") return text;
  return text[language()] ?? text.en ?? Object.values(text)[0];
}

export function checkedSet(set, { rules, columns }) {
  const fail = (id, args = {}) => { throw new Said("set-wrong", { problem: { id, args } }); };
  if (!validateSet(set)) {
    const { place, message, detail } = schemaError(validateSet.errors[0]);
    fail("set-schema", { place, message, detail });
  }
  set.exercises.forEach(({ answer }, i) => {
    const at = i + 1;
    if (answer.column !== undefined && !columns.includes(answer.column)) fail("set-column", { at, columns: columns.join(", ") });
    if (answer.kind === "find" && !rules.includes(answer.rule)) fail("set-rule", { at, rules: rules.join(", ") });
    for (const option of answer.kind === "cause" ? answer.options : []) {
      if (!rules.includes(option.rule)) fail("set-option-rule", { at, option: inLanguage(option.label), rule: option.rule, rules: rules.join(", ") });
    }
    if (answer.kind === "choice" && answer.correct >= answer.options.length) fail("set-correct", { at, options: answer.options.length });
    if (answer.kind === "number" && answer.column === "hf" && answer.figure !== "entropy" && answer.figure !== "probability") fail("set-hf-figure", { at, figure: answer.figure });
  });
  return set;
}

/** The schema's first complaint, located in the set's words ("exercise 3, answer"): the schema
 * validator's own message (Ajv's words) follows. */
function schemaError({ instancePath, message, params }) {
  const parts = instancePath.split("/").slice(1);
  const [exercise, path] = parts[0] === "exercises" && parts.length > 1 ? [Number(parts[1]) + 1, parts.slice(2)] : [0, parts];
  const place = [exercise ? t("set-exercise", { at: exercise }) : "", path.join(".")].filter(Boolean).join(", ") || t("set-the-set");
  const detail = params?.additionalProperty ? ` (“${params.additionalProperty}”)` : params?.allowedValues ? ` (${params.allowedValues.join(", ")})` : "";
  return { place, message, detail };
}

/** The figures an answer is judged by, from the core's `report` of the exercise's set-up (or of
 * the student's arguments, for `find`) and, for `generate`, the core's generation `observed` (for
 * `answer`, the core's report of the answer the site ships for the chat):
 * `{value, says}`, says a sentence stating it with the columns' labels. */
export function expected(exercise, report, observed) {
  const answer = exercise.answer;
  const name = label(answer.column ?? "hf");
  switch (answer.kind) {
    case "kept": {
      const kept = report[answer.column].kept;
      return { value: kept, says: t("key-kept", { column: name, kept }) };
    }
    case "number": {
      const value = figure(report, answer);
      return { value, says: t("key-number", { figure: answer.figure, token: answer.token ?? 0, column: name, value }) };
    }
    case "find": case "cause": {
      const named = report.causes.map((c) => c.rule);
      // A line per cause (the result keeps line breaks; elsewhere a break reads as a space).
      const says = report.causes.map((c) => c.text).join("\n") || t("key-agree");
      return { value: answer.kind === "find" ? named.includes(answer.rule) : answer.options.map((o) => named.includes(o.rule)), says };
    }
    case "choice":
      return { value: answer.correct, says: t("key-choice", { option: inLanguage(answer.options[answer.correct]) }) };
    case "generate": {
      const value = answer.figure === "tokens" ? observed.tokens : observed.firstOutsideHf;
      const says = answer.figure === "tokens"
        ? t("key-generate-tokens", { column: name, seed: answer.seed, tokens: value, finish: observed.finish })
        : value === null ? t("key-generate-none-outside", { column: name, seed: answer.seed })
          : t("key-generate-outside", { column: name, seed: answer.seed, step: value });
      return { value, says };
    }
    case "answer": {
      const summary = observed.summary[answer.column];
      if (answer.figure === "expected_outside") {
        return { value: summary.expected_outside, says: t("key-answer-expected", { column: name, value: summary.expected_outside, steps: observed.steps.length }) };
      }
      // Tokens are counted from 1 where the answer view names them.
      const value = summary.first_over_1pct === null ? null : summary.first_over_1pct + 1;
      return { value, says: value === null ? t("key-answer-never-over", { column: name }) : t("key-answer-first-over", { column: name, token: value }) };
    }
    default:
      throw new Said("set-unknown-kind", { kind: answer.kind });
  }
}

function figure(report, { figure: which, column, token }) {
  if (which === "entropy") return report[column].entropy;
  if (which === "probability") return report[column].support.find(([id]) => id === token)?.[1] ?? 0;
  return report.compare[column][which];
}

/** Whether `given` (what the student answered, as typed or the index chosen) is right, with the
 * sentence that says the answer (shown only once it is right, or asked for). */
export function judge(exercise, given, report, observed) {
  const { kind, tolerance } = exercise.answer;
  if (kind === "find" && report.hf.error) return { right: false, says: t("error-hf-refuses", { error: report.hf.error }) };
  const key = expected(exercise, report, observed);
  const right = {
    kept: () => Number(given) === key.value,
    number: () => Math.abs(Number(given) - key.value) <= tolerance,
    find: () => key.value,
    cause: () => key.value[Number(given)] === true,
    choice: () => Number(given) === key.value,
    generate: () => (key.value === null ? /^\s*(none|无)\s*$/i.test(given) : Number(given) === key.value),
    answer: () => {
      if (exercise.answer.figure === "expected_outside") return Math.abs(Number(given) - key.value) <= tolerance;
      return key.value === null ? /^\s*(none|无)\s*$/i.test(given) : Number(given) === key.value;
    },
  }[kind]();
  return { right, says: key.says };
}

/** Whether `given` is an answer at all for the exercise's kind; a message saying what is wanted
 * if not. */
export function unanswerable(exercise, given) {
  const { kind, figure: which } = exercise.answer;
  if (given === undefined || String(given).trim() === "") return t("answer-missing");
  const numeric = kind === "kept" || kind === "number" || (kind === "answer" && which === "expected_outside");
  if (numeric && !Number.isFinite(Number(given))) return t("answer-number");
  if (kind === "answer" && which === "first_over_1pct" && !/^\s*(none|无|\d+)\s*$/i.test(given)) return t("answer-token-or-none");
  if (kind === "generate" && which === "first_outside_hf" && !/^\s*(none|无|\d+)\s*$/i.test(given)) return t("answer-token-or-none");
  if (kind === "generate" && which === "tokens" && !/^\s*\d+\s*$/.test(given)) return t("answer-tokens");
  return null;
}
