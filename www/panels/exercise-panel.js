// The exercises on the page: a set opened by link (`?exercises=`), one task at a time set up on
// the page, the student's answer checked against the core's report of that set-up. A wrong
// answer gets a hint, not the figure; the figures stay hidden until the answer is right or the
// student asks to be shown. Progress is kept per set (exercise-progress.js); the teacher view
// (`&teacher=1`) shows every answer.
import { checkedSet, expected, judge, loadExercises, unanswerable } from "./exercises.js";
import { LINKED_SET, setFragment } from "../state/set-link.js";
import { loadProgress, progressSummary, resetProgress, saveProgress } from "../state/exercise-progress.js";
import { chat } from "../state/inputs.js";
import { Request } from "../shared/protocol.js";
import { Purpose, requests } from "../state/requests.js";
import { DEFAULTS } from "../state/state.js";
import { page } from "../state/store.js";
import { $, element } from "./dom.js";
import { showParams } from "./params.js";
import { refresh } from "./inspection.js";
import { saveState } from "../state/share.js";
import { withModel } from "./model-panel.js";

const HINT = "Look again at how this column applies the arguments (its entry in the glossary says), then try again — or press “Show me”.";

/** Opens set `path` ("default" or a file of this site) at task `index`, once the core has
 * named its rules and columns (`core`, a promise). A set that cannot be used is reported where
 * the exercises would be. */
export async function startExercises(path, index, core) {
  $("exercises").hidden = false;
  try {
    const set = await loadExercises(path, await core);
    page.exercises = { ...page.exercises, path, set, index: 0, records: loadProgress(path, set) };
  } catch (e) {
    $("ex-set-title").textContent = "Exercises";
    $("ex-problem").textContent = `The exercises could not be opened: ${e.message}.`;
    $("ex-problem").hidden = false;
    $("ex-body").hidden = true;
    return;
  }
  $("ex-set-title").textContent = page.exercises.set.title;
  teacherLinks(path);
  showExercise(index);
}

const current = () => page.exercises.set.exercises[page.exercises.index];
const record = () => page.exercises.records[page.exercises.index];

function showExercise(index) {
  const { set, records, teacher } = page.exercises;
  page.exercises.index = Math.max(0, Math.min(index, set.exercises.length - 1));
  const exercise = current();
  const { right, shown, tries, answer } = record();
  $("ex-progress").textContent = `Exercise ${page.exercises.index + 1} of ${set.exercises.length}`;
  $("ex-title").textContent = exercise.title;
  $("ex-task").textContent = exercise.task;
  $("ex-answer").replaceChildren(...answerInputs(exercise, answer));
  $("ex-result").textContent = right ? `Right${tries === 1 ? " at the first try" : ` after ${tries} tries`}.` : shown ? "Shown." : tries ? `Not quite yet (${tries} ${tries === 1 ? "try" : "tries"}).` : "";
  $("ex-result").dataset.right = String(right);
  // A hint once given stays with the task (a reload included) until it is answered.
  $("ex-hint").textContent = `Hint: ${exercise.hint ?? HINT}`;
  $("ex-hint").hidden = !(tries > 0 && !right && !shown);
  $("ex-prev").disabled = page.exercises.index === 0;
  $("ex-next").disabled = page.exercises.index === set.exercises.length - 1;
  $("ex-summary").textContent = progressSummary(records);
  const settled = right || shown || teacher;
  document.body.classList.toggle("exercise-open", !settled);
  $("ex-show").hidden = settled;
  $("ex-explanation").textContent = settled ? exercise.explanation : "";
  $("ex-key").hidden = true;
  setUp(exercise, exercise.setup.params, settled ? (report, observed) => showKey(exercise, report, observed) : null);
}

/** Puts the exercise's call on the page (its chat, or the reference one, its arguments — or
 * `params`, the student's — and for a generation its column, seed and length); `then(report,
 * observed)` runs once the core has reported on it (and, for `generate`, generated). */
function setUp(exercise, params, then) {
  const { setup, answer } = exercise;
  $("system").value = setup.system ?? "";
  $("user").value = setup.user ?? DEFAULTS.user;
  $("answer-prefix").value = setup.prefix ?? DEFAULTS.prefix;
  $("logits").value = setup.logits ?? "";
  $("generation-config").value = setup.generationConfig ?? "";
  $("params").value = params;
  if (answer.kind === "generate") {
    $("semantics").value = answer.column;
    $("seed").value = String(answer.seed);
    $("max-new-tokens").value = String(answer.maxNewTokens);
  }
  showParams(params);
  page.preset = "";
  page.step = null;
  page.pendingJudge = then && ((report) => (answer.kind === "generate" ? observe(answer, params, (observed) => then(report, observed)) : then(report, null)));
  refresh();
}

/** Asks the core for the exercise's generation, apart from the page's own (it needs the model:
 * loaded first, if it is not). */
function observe(answer, params, then) {
  withModel(() => requests.send(Purpose.observe, {
    type: Request.observe, chat: chat(),
    options: { semantics: answer.column, params, generationConfig: $("generation-config").value.trim() || null, seed: answer.seed, maxNewTokens: answer.maxNewTokens },
  }, then));
}

/** The `observed` reply: the generation an answer waited for. */
export function showObserved(reply) {
  requests.context(Purpose.observe, reply.id)?.(reply);
}

/** The generation an answer waited for failed: the check says why. */
export function observeFailed(id, message) {
  if (requests.is(Purpose.observe, id)) notQuite(current(), record(), message);
}

function answerInputs(exercise, saved) {
  const { kind, options, figure } = exercise.answer;
  const input = (attributes, text) => labelled(Object.assign(document.createElement("input"), { id: "ex-input", value: saved, ...attributes }), text);
  if (kind === "kept") return [input({ type: "number", min: 0 }, "Your answer (a number of tokens)")];
  if (kind === "number") return [input({ type: "text", inputMode: "decimal", autocomplete: "off" }, "Your answer (a number)")];
  if (kind === "generate") return [input({ type: "text", autocomplete: "off" }, figure === "tokens" ? "Your answer (a number of tokens)" : "Your answer (a generated token's number, or “none”)")];
  if (kind === "find") return [labelled(Object.assign(document.createElement("textarea"), { rows: 2, id: "ex-input", value: saved || exercise.setup.params }), "Your generate() arguments (JSON)")];
  return options.map((option, i) => {
    const radio = Object.assign(document.createElement("input"), { type: "radio", name: "ex-choice", value: String(i), id: `ex-choice-${i}`, checked: saved === String(i) });
    return labelled(radio, typeof option === "string" ? option : option.label, true);
  });
}

function labelled(input, text, after = false) {
  const label = element("label", text);
  label.htmlFor = input.id;
  const row = element("div", "");
  row.append(...(after ? [input, label] : [label, input]));
  return row;
}

function given(exercise) {
  const { kind } = exercise.answer;
  return kind === "cause" || kind === "choice" ? document.querySelector("input[name=ex-choice]:checked")?.value : $("ex-input").value;
}

/** Check: each press is a try; a wrong answer gets the hint and keeps the figures hidden. */
function checkExercise() {
  const exercise = current();
  const answer = given(exercise);
  const problem = unanswerable(exercise, answer);
  if (problem) return ($("ex-result").textContent = problem);
  const entry = record();
  entry.answer = String(answer);
  entry.tries += 1;
  keep();
  $("ex-result").textContent = exercise.answer.kind === "generate" ? "Checking: the core runs the task's generation…" : "Checking…";
  setUp(exercise, exercise.answer.kind === "find" ? answer : exercise.setup.params, (report, observed) => {
    const { right, says } = judge(exercise, answer, report, observed);
    if (right) {
      entry.right = true;
      keep();
      return settle(exercise, `Right: ${says}`, true);
    }
    notQuite(exercise, entry, exercise.answer.kind === "find" ? `With these arguments: ${says}` : "");
  });
}

function notQuite(exercise, entry, detail) {
  $("ex-result").textContent = `Not quite (try ${entry.tries}).${detail ? ` ${detail}` : ""}`;
  $("ex-result").dataset.right = "false";
  $("ex-hint").textContent = `Hint: ${exercise.hint ?? HINT}`;
  $("ex-hint").hidden = false;
}

/** Show me: the answer, its figures and the explanation, counted as shown rather than right. */
function showAnswer() {
  const exercise = current();
  record().shown = true;
  keep();
  setUp(exercise, exercise.answer.example ?? exercise.setup.params, (report, observed) => {
    settle(exercise, "Shown.", false);
    showKey(exercise, report, observed);
  });
}

function settle(exercise, text, right) {
  document.body.classList.remove("exercise-open");
  $("ex-result").textContent = text;
  $("ex-result").dataset.right = String(right);
  $("ex-hint").hidden = true;
  $("ex-show").hidden = true;
  $("ex-explanation").textContent = exercise.explanation;
  $("ex-summary").textContent = progressSummary(page.exercises.records);
}

/** The answer, in words, from the core's report of the set-up. */
function showKey(exercise, report, observed) {
  const { kind, options, example, rule } = exercise.answer;
  const { value, says } = expected(exercise, report, observed);
  $("ex-key").textContent = kind === "cause"
    ? `The answer: ${options.filter((_, i) => value[i]).map((o) => `“${o.label}”`).join(" and ") || "none of the options"} — ${says}`
    : kind === "find"
      ? `The answer: any arguments for which the core names “${rule}”${example ? `, for example ${example}` : ""}. ${value ? says : ""}`
      : `The answer: ${says}`;
  $("ex-key").hidden = false;
}

function keep() {
  const { path, set, records } = page.exercises;
  saveProgress(path, set, records);
  $("ex-summary").textContent = progressSummary(records);
}

/** The report an answer waited for failed (the arguments it tried are refused). */
export function judgingFailed(message) {
  if (!page.pendingJudge) return;
  page.pendingJudge = null;
  notQuite(current(), record(), message);
}

/** The links a teacher hands out: the set for students, and the view with the answers. */
function teacherLinks(path) {
  const link = new URL(location.pathname, location.origin);
  link.searchParams.set("exercises", path);
  // A set carried by the link travels on in the links handed out.
  if (path === LINKED_SET) link.hash = location.hash;
  $("ex-student-link").href = link.href;
  $("ex-student-link").textContent = link.href;
  link.searchParams.set("teacher", "1");
  $("ex-teacher-link").href = link.href;
  $("ex-teacher-mark").hidden = !page.exercises.teacher;
}

/** "Copy the link for this set": the set on screen, carried in the link itself, for a teacher
 * without a web site of their own. */
async function copySetLink() {
  const link = new URL(location.pathname, location.origin);
  link.searchParams.set("exercises", LINKED_SET);
  link.hash = await setFragment(page.exercises.set);
  $("ex-set-link").value = link.href;
  $("ex-set-link").hidden = false;
  try {
    await navigator.clipboard.writeText(link.href);
    $("ex-set-status").textContent = `Copied: a link of ${link.href.length.toLocaleString("en")} characters that carries the whole set.`;
  } catch {
    $("ex-set-link").select();
    $("ex-set-status").textContent = "Select and copy the link above.";
  }
}

/** A set from the teacher's computer, checked as any set is, then opened as a linked set (the
 * address carries it, so a reload or "Copy the link for this set" keeps it). */
async function openSetFile(file, core) {
  if (!file) return;
  try {
    const set = checkedSet(JSON.parse(await file.text()), await core);
    history.replaceState(null, "", `${location.pathname}?exercises=${LINKED_SET}&teacher=1${await setFragment(set)}`);
    $("ex-problem").hidden = true;
    $("ex-body").hidden = false;
    await startExercises(LINKED_SET, 0, core);
  } catch (e) {
    $("ex-set-status").textContent = `${file.name} cannot be used: ${e instanceof SyntaxError ? "it is not valid JSON" : e.message}.`;
  }
}

export function listenForExercises(core) {
  $("ex-copy-set").addEventListener("click", copySetLink);
  $("ex-set-file").addEventListener("change", () => openSetFile($("ex-set-file").files[0], core));
  $("ex-check").addEventListener("click", checkExercise);
  $("ex-show").addEventListener("click", showAnswer);
  $("ex-prev").addEventListener("click", () => { showExercise(page.exercises.index - 1); saveState(); });
  $("ex-next").addEventListener("click", () => { showExercise(page.exercises.index + 1); saveState(); });
  $("ex-reset").addEventListener("click", () => {
    page.exercises.records = resetProgress(page.exercises.path, page.exercises.set);
    showExercise(0);
    saveState();
  });
}
