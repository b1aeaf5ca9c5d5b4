// Classroom exercises: a set of tasks as data (a JSON file a teacher writes and passes by URL,
// www/exercises/README.md), each set up on the page and checked against the core's report. The
// answer key is read from the report (or from a generation the core ran); judging compares the
// student's answer with it and computes no semantics.
import { label } from "../state/columns.js";
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
  if (!hub && url.origin !== location.origin) throw new Error("a set loads from this site, from a file on the Hub (its resolve/ URL) or from the link itself");
  let response;
  try {
    response = await fetch(url);
  } catch {
    throw new Error(`could not reach ${hub ? "huggingface.co" : "this site"} for the set ${path}: check the network connection`);
  }
  if (!response.ok) {
    const check = hub
      ? "check the repo, the revision and the file name in the link, and that the repo is public"
      : "check the file's path in the link, and that the file is in the site's exercises/ folder (make site copies www/exercises/)";
    throw new Error(`the set ${path} was not found (HTTP ${response.status}): ${check}`);
  }
  let set;
  try {
    set = await response.json();
  } catch {
    throw new Error(`the set ${path} is not valid JSON`);
  }
  return checkedSet(set, core);
}

export function checkedSet(set, { rules, columns }) {
  const fail = (what) => { throw new Error(`exercise set: ${what}`); };
  if (!validateSet(set)) fail(schemaError(validateSet.errors[0]));
  set.exercises.forEach(({ answer }, i) => {
    const at = `exercise ${i + 1}`;
    if (answer.column !== undefined && !columns.includes(answer.column)) fail(`${at}: answer.column must be one of ${columns.join(", ")}`);
    if (answer.kind === "find" && !rules.includes(answer.rule)) fail(`${at}: answer.rule must be one of ${rules.join(", ")}`);
    for (const option of answer.kind === "cause" ? answer.options : []) {
      if (!rules.includes(option.rule)) fail(`${at}: the option “${option.label}” names rule “${option.rule}”; a rule must be one of ${rules.join(", ")}`);
    }
    if (answer.kind === "choice" && answer.correct >= answer.options.length) fail(`${at}: answer.correct must be the index (from 0) of one of its ${answer.options.length} options`);
    if (answer.kind === "number" && answer.column === "hf" && answer.figure !== "entropy" && answer.figure !== "probability") fail(`${at}: ${answer.figure} compares a column with hf; hf cannot be the column`);
  });
  return set;
}

/** The schema's first complaint, located in the set's words ("exercise 3, answer: …"). */
function schemaError({ instancePath, message, params }) {
  const parts = instancePath.split("/").slice(1);
  const [exercise, path] = parts[0] === "exercises" && parts.length > 1 ? [`exercise ${Number(parts[1]) + 1}`, parts.slice(2)] : ["", parts];
  const place = [exercise, path.join(".")].filter(Boolean).join(", ") || "the set";
  const detail = params?.additionalProperty ? ` (“${params.additionalProperty}”)` : params?.allowedValues ? ` (${params.allowedValues.join(", ")})` : "";
  return `${place}: ${message}${detail}`;
}

/** The figures an answer is judged by, from the core's `report` of the exercise's set-up (or of
 * the student's arguments, for `find`) and, for `generate`, the core's generation `observed`:
 * `{value, says}`, says a sentence stating it with the columns' labels. */
export function expected(exercise, report, observed) {
  const answer = exercise.answer;
  const name = label(answer.column ?? "hf");
  switch (answer.kind) {
    case "kept": {
      const kept = report[answer.column].kept;
      return { value: kept, says: `${name} keeps ${kept} ${kept === 1 ? "token" : "tokens"}.` };
    }
    case "number": {
      const value = figure(report, answer);
      return { value, says: `${FIGURES[answer.figure](answer)} under ${name} is ${value.toFixed(4)}.` };
    }
    case "find": case "cause": {
      const named = report.causes.map((c) => c.rule);
      const says = report.causes.map((c) => c.text).join(" ") || "the columns agree for these arguments.";
      return { value: answer.kind === "find" ? named.includes(answer.rule) : answer.options.map((o) => named.includes(o.rule)), says };
    }
    case "choice":
      return { value: answer.correct, says: `“${answer.options[answer.correct]}”.` };
    case "generate": {
      const value = answer.figure === "tokens" ? observed.tokens : observed.firstOutsideHf;
      const says = answer.figure === "tokens"
        ? `under ${name} with seed ${answer.seed}, the answer is ${value} tokens long (it ends on ${observed.finish}).`
        : value === null ? `under ${name} with seed ${answer.seed}, every token is one transformers could draw.`
          : `under ${name} with seed ${answer.seed}, generated token ${value} is the first that transformers could not draw.`;
      return { value, says };
    }
    default:
      throw new Error(`unknown answer kind ${answer.kind}`);
  }
}

/** What each `number` figure is, in words. */
const FIGURES = {
  tv: () => "The total variation distance to transformers' distribution",
  max_abs_diff: () => "The largest difference in a token's probability from transformers'",
  mass_outside_hf: () => "The probability on tokens transformers never draws",
  entropy: () => "The entropy (nats)",
  probability: ({ token }) => `The probability of token #${token}`,
};

function figure(report, { figure: which, column, token }) {
  if (which === "entropy") return report[column].entropy;
  if (which === "probability") return report[column].support.find(([id]) => id === token)?.[1] ?? 0;
  return report.compare[column][which];
}

/** Whether `given` (what the student answered, as typed or the index chosen) is right, with the
 * sentence that says the answer (shown only once it is right, or asked for). */
export function judge(exercise, given, report, observed) {
  const { kind, tolerance } = exercise.answer;
  if (kind === "find" && report.hf.error) return { right: false, says: `transformers refuses these arguments: ${report.hf.error}` };
  const key = expected(exercise, report, observed);
  const right = {
    kept: () => Number(given) === key.value,
    number: () => Math.abs(Number(given) - key.value) <= tolerance,
    find: () => key.value,
    cause: () => key.value[Number(given)] === true,
    choice: () => Number(given) === key.value,
    generate: () => (key.value === null ? /^\s*none\s*$/i.test(given) : Number(given) === key.value),
  }[kind]();
  return { right, says: key.says };
}

/** Whether `given` is an answer at all for the exercise's kind; a message saying what is wanted
 * if not. */
export function unanswerable(exercise, given) {
  const { kind, figure: which } = exercise.answer;
  if (given === undefined || String(given).trim() === "") return "Give an answer first.";
  if ((kind === "kept" || kind === "number") && !Number.isFinite(Number(given))) return "The answer is a number.";
  if (kind === "generate" && which === "first_outside_hf" && !/^\s*(none|\d+)\s*$/i.test(given)) return "The answer is a token's number, or “none”.";
  if (kind === "generate" && which === "tokens" && !/^\s*\d+\s*$/.test(given)) return "The answer is a number of tokens.";
  return null;
}
