// Classroom exercises: a set of tasks as data (a JSON file a teacher writes and passes by URL),
// each set up on the page and checked against the core's report. Judging compares the student's
// answer with the report's figures; it computes no semantics.

export const DEFAULT_SET = "exercises/default.json";
const KINDS = ["kept", "find", "cause", "choice"];
/** Fetches and checks an exercise set against the cause `rules` and the `columns` the core names
 * (the worker's `started` reply); throws a message naming what is wrong with it. */
export async function loadExercises(path, { rules, columns }) {
  const url = new URL(path, location.href);
  if (url.origin !== location.origin) throw new Error("exercise sets load from this site only");
  const response = await fetch(url);
  if (!response.ok) throw new Error(`exercises ${path}: HTTP ${response.status}`);
  let set;
  try {
    set = await response.json();
  } catch {
    throw new Error(`exercises ${path}: not valid JSON`);
  }
  return checkedSet(set, rules, columns);
}

function checkedSet(set, rules, columns) {
  const fail = (what) => { throw new Error(`exercise set: ${what}`); };
  if (typeof set?.title !== "string" || !Array.isArray(set.exercises)) fail("needs a title and a list of exercises");
  if (set.exercises.length === 0 || set.exercises.length > 100) fail("needs 1 to 100 exercises");
  set.exercises.forEach((e, i) => {
    const at = `exercise ${i + 1}`;
    if (typeof e.title !== "string" || typeof e.task !== "string" || typeof e.explanation !== "string") fail(`${at} needs a title, a task and an explanation`);
    if (typeof e.setup?.params !== "string") fail(`${at} needs setup.params (JSON text)`);
    if (!KINDS.includes(e.answer?.kind)) fail(`${at}: answer.kind must be one of ${KINDS.join(", ")}`);
    if (e.answer.kind === "kept" && !columns.includes(e.answer.panel)) fail(`${at}: answer.panel must be one of ${columns.join(", ")}`);
    if (e.answer.kind === "find" && !rules.includes(e.answer.rule)) fail(`${at}: answer.rule must be one of ${rules.join(", ")}`);
    if (e.answer.kind === "cause" && !(Array.isArray(e.answer.options) && e.answer.options.every((o) => typeof o.label === "string" && rules.includes(o.rule)))) fail(`${at}: each option needs a label and a rule`);
    if (e.answer.kind === "choice" && !(Array.isArray(e.answer.options) && Number.isInteger(e.answer.correct) && e.answer.options[e.answer.correct] !== undefined)) fail(`${at}: needs options and the index of the correct one`);
  });
  return set;
}

/** Whether `answer` (what the student gave) is right, given the report of the exercise's set-up. */
export function judge(exercise, answer, report) {
  const { kind } = exercise.answer;
  if (kind === "kept") {
    const kept = report[exercise.answer.panel].kept;
    return verdict(Number(answer) === kept, `the ${exercise.answer.panel} distribution keeps ${kept} tokens.`);
  }
  if (kind === "find") {
    if (report.hf.error) return verdict(false, `transformers refuses these arguments: ${report.hf.error}`);
    return verdict(report.causes.some((c) => c.rule === exercise.answer.rule), report.causes.map((c) => c.text).join(" ") || "the ports agree for these arguments.");
  }
  if (kind === "cause") {
    const option = exercise.answer.options[Number(answer)];
    return verdict(Boolean(option) && report.causes.some((c) => c.rule === option.rule), report.causes.map((c) => c.text).join(" "));
  }
  return verdict(Number(answer) === exercise.answer.correct, "");
}

function verdict(right, detail) {
  return { right, text: `${right ? "Right" : "Not quite"}${detail ? `: ${detail}` : "."}` };
}
