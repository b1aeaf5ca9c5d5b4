// The exercises on the page: a set opened by link (`?exercises=`), one task at a time set up on
// the page, the student's answer checked against the core's report of that set-up.
import { DEFAULT_SET, judge, loadExercises } from "./exercises.js";
import { DEFAULTS } from "./state.js";
import { page } from "./store.js";
import { $ } from "./view.js";
import { showParams } from "./params.js";
import { refresh } from "./inspection.js";
import { saveState } from "./share.js";
import { showError } from "./status.js";

/** Opens set `path` ("default" or a file of this site) at task `index`, once the core has
 * named its rules and columns (`core`, a promise). */
export async function startExercises(path, index, core) {
  try {
    const set = await loadExercises(path === "default" ? DEFAULT_SET : path, await core);
    page.exercises = { path, set, index: 0 };
  } catch (e) {
    page.linkProblems = `The exercises could not be opened: ${e.message}.`;
    return showError(null);
  }
  $("exercises").hidden = false;
  $("ex-set-title").textContent = page.exercises.set.title;
  showExercise(index);
}

function showExercise(index) {
  const list = page.exercises.set.exercises;
  page.exercises.index = Math.max(0, Math.min(index, list.length - 1));
  const exercise = list[page.exercises.index];
  $("ex-progress").textContent = `Exercise ${page.exercises.index + 1} of ${list.length}`;
  $("ex-title").textContent = exercise.title;
  $("ex-task").textContent = exercise.task;
  $("ex-result").textContent = "";
  $("ex-explanation").textContent = "";
  $("ex-answer").replaceChildren(...answerInputs(exercise));
  $("ex-prev").disabled = page.exercises.index === 0;
  $("ex-next").disabled = page.exercises.index === list.length - 1;
  document.body.classList.add("exercise-open");
  applySetup(exercise.setup, exercise.setup.params);
}

/** The exercise's chat (the reference one unless it says otherwise), arguments and logits. */
function applySetup(setup, params) {
  $("system").value = setup.system ?? "";
  $("user").value = setup.user ?? DEFAULTS.user;
  $("answer-prefix").value = setup.prefix ?? DEFAULTS.prefix;
  $("logits").value = setup.logits ?? "";
  $("params").value = params;
  showParams(params);
  page.preset = "";
  page.step = null;
  refresh();
}

function answerInputs(exercise) {
  const { kind, options } = exercise.answer;
  if (kind === "kept") return [labelled(Object.assign(document.createElement("input"), { type: "number", min: 0, id: "ex-input" }), "Your answer (a number of tokens)")];
  if (kind === "find") return [labelled(Object.assign(document.createElement("textarea"), { rows: 2, id: "ex-input", value: exercise.setup.params }), "Your generate() arguments (JSON)")];
  return options.map((option, i) => {
    const radio = Object.assign(document.createElement("input"), { type: "radio", name: "ex-choice", value: String(i), id: `ex-choice-${i}` });
    return labelled(radio, typeof option === "string" ? option : option.label, true);
  });
}

function labelled(input, text, after = false) {
  const label = document.createElement("label");
  label.htmlFor = input.id;
  label.textContent = text;
  const row = document.createElement("div");
  row.append(...(after ? [input, label] : [label, input]));
  return row;
}

function checkExercise() {
  const exercise = page.exercises.set.exercises[page.exercises.index];
  const kind = exercise.answer.kind;
  const answer = kind === "kept" || kind === "find" ? $("ex-input").value : document.querySelector("input[name=ex-choice]:checked")?.value;
  if (answer === undefined || answer.trim() === "") return ($("ex-result").textContent = "Give an answer first.");
  page.pendingJudge = (report) => {
    const { right, text } = judge(exercise, answer, report);
    $("ex-result").textContent = text;
    $("ex-explanation").textContent = exercise.explanation;
    $("ex-result").dataset.right = String(right);
    document.body.classList.remove("exercise-open");
  };
  applySetup(exercise.setup, kind === "find" ? answer : exercise.setup.params);
}

/** The report an answer waited for failed (the arguments it tried are refused). */
export function judgingFailed(message) {
  if (!page.pendingJudge) return;
  page.pendingJudge = null;
  $("ex-result").textContent = `Not quite: ${message}`;
}

export function listenForExercises() {
  $("ex-check").addEventListener("click", checkExercise);
  $("ex-prev").addEventListener("click", () => { showExercise(page.exercises.index - 1); saveState(); });
  $("ex-next").addEventListener("click", () => { showExercise(page.exercises.index + 1); saveState(); });
}
