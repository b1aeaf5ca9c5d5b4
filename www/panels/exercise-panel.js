// The exercises on the page: a set opened by link (`?exercises=`), one task at a time set up on
// the page, the student's answer checked against the core's report of that set-up. A wrong
// answer gets a hint, not the figure; the figures stay hidden until the answer is right or the
// student asks to be shown. Progress is kept per set (exercise-progress.js); the teacher view
// (`&teacher=1`) shows every answer.
import { checkedSet, expected, inLanguage, judge, loadExercises, unanswerable } from "./exercises.js";
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
import { language, listOf, localize, onLanguageChange, t } from "../l10n/l10n.js";
import { say } from "./status.js";

/** The hint of a task that has none of its own. */
const hint = (exercise) => t("ex-hint", { hint: exercise.hint ? inLanguage(exercise.hint) : t("ex-hint-default") });

/** Opens set `path` ("default" or a file of this site) at task `index`, once the core has
 * named its rules and columns (`core`, a promise). A set that cannot be used is reported where
 * the exercises would be. */
export async function startExercises(path, index, core) {
  $("exercises").hidden = false;
  try {
    const set = await loadExercises(path, await core);
    page.exercises = { ...page.exercises, path, set, index: 0, records: loadProgress(path, set) };
  } catch (e) {
    $("ex-set-title").textContent = t("exercises-link");
    $("ex-problem").textContent = t("ex-not-opened", { problem: say(e.said ?? e.message) });
    $("ex-problem").hidden = false;
    $("ex-body").hidden = true;
    return;
  }
  teacherLinks(path);
  showExercise(index);
}

// A set written in both languages follows the page's, and so does the guide it links to.
onLanguageChange(() => {
  guideLink();
  if (page.exercises.set) showExercise(page.exercises.index);
});

/** The guide to writing a set, in the page's language (scripts/compile-guide.mjs). */
function guideLink() {
  const file = language() === "en" ? "exercise-guide.html" : `exercise-guide.${language()}.html`;
  // Beside the scripts, wherever a site's build puts them (assets/<version>/ in dist/).
  $("ex-guide-link").href = new URL(`../vendor/${file}`, import.meta.url).href;
}

const current = () => page.exercises.set.exercises[page.exercises.index];
const record = () => page.exercises.records[page.exercises.index];

function showExercise(index) {
  const { set, records, teacher } = page.exercises;
  page.exercises.index = Math.max(0, Math.min(index, set.exercises.length - 1));
  const exercise = current();
  const { right, shown, tries, answer } = record();
  $("ex-set-title").textContent = inLanguage(set.title);
  $("ex-progress").textContent = t("ex-progress", { at: page.exercises.index + 1, of: set.exercises.length });
  $("ex-title").textContent = inLanguage(exercise.title);
  $("ex-task").textContent = inLanguage(exercise.task);
  $("ex-answer").replaceChildren(...answerInputs(exercise, answer));
  $("ex-result").textContent = right ? t("ex-right-after", { tries }) : shown ? t("ex-shown") : tries ? t("ex-not-yet", { tries }) : "";
  $("ex-result").dataset.right = String(right);
  // A hint once given stays with the task (a reload included) until it is answered.
  $("ex-hint").textContent = hint(exercise);
  $("ex-hint").hidden = !(tries > 0 && !right && !shown);
  $("ex-prev").disabled = page.exercises.index === 0;
  $("ex-next").disabled = page.exercises.index === set.exercises.length - 1;
  $("ex-summary").textContent = progressSummary(records);
  const settled = right || shown || teacher;
  document.body.classList.toggle("exercise-open", !settled);
  $("ex-show").hidden = settled;
  $("ex-explanation").textContent = settled ? inLanguage(exercise.explanation) : "";
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
  page.pendingJudge = then && ((report) => {
    if (answer.kind === "generate") return observe(answer, params, (observed) => then(report, observed));
    if (answer.kind === "answer") return shippedAnswer(params, (observed) => then(report, observed));
    return then(report, null);
  });
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

/** The core's report of the answer the site ships for the exercise's chat, read under `params`
 * (the figures are the shipped call's: a set writes its task for that call). */
function shippedAnswer(params, then) {
  requests.send(Purpose.exerciseAnswer, {
    type: Request.answer, chat: chat(), source: "shipped", options: JSON.stringify({ lang: language(), compared: [] }),
  }, (reply) => (reply.report ? then(reply.report) : notQuite(current(), record(), say({ id: "ex-no-shipped-answer" }))));
}

/** The `answer` reply an exercise waited for. */
export function showExerciseAnswer(reply) {
  requests.context(Purpose.exerciseAnswer, reply.id)?.(reply);
}

/** The `observed` reply: the generation an answer waited for. */
export function showObserved(reply) {
  requests.context(Purpose.observe, reply.id)?.(reply);
}

/** The generation an answer waited for failed: the check says why. */
export function observeFailed(id, problem) {
  if (requests.is(Purpose.observe, id)) notQuite(current(), record(), say(problem));
}

function answerInputs(exercise, saved) {
  const { kind, options, figure } = exercise.answer;
  const input = (attributes, text) => labelled(Object.assign(document.createElement("input"), { id: "ex-input", value: saved, ...attributes }), text);
  if (kind === "kept") return [input({ type: "number", min: 0 }, t("ex-answer-tokens"))];
  if (kind === "number") return [input({ type: "text", inputMode: "decimal", autocomplete: "off" }, t("ex-answer-number"))];
  if (kind === "generate") return [input({ type: "text", autocomplete: "off" }, t(figure === "tokens" ? "ex-answer-tokens" : "ex-answer-token-or-none"))];
  if (kind === "answer") return [input({ type: "text", autocomplete: "off" }, t(figure === "expected_outside" ? "ex-answer-number" : "ex-answer-answer-token"))];
  if (kind === "find") return [labelled(Object.assign(document.createElement("textarea"), { rows: 2, id: "ex-input", value: saved || exercise.setup.params }), t("ex-answer-arguments"))];
  return options.map((option, i) => {
    const radio = Object.assign(document.createElement("input"), { type: "radio", name: "ex-choice", value: String(i), id: `ex-choice-${i}`, checked: saved === String(i) });
    return labelled(radio, inLanguage(option.label ?? option), true);
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
  $("ex-result").textContent = t(exercise.answer.kind === "generate" ? "ex-checking-generation" : "ex-checking");
  setUp(exercise, exercise.answer.kind === "find" ? answer : exercise.setup.params, (report, observed) => {
    const { right, says } = judge(exercise, answer, report, observed);
    if (right) {
      entry.right = true;
      keep();
      return settle(exercise, t("ex-right", { says }), true);
    }
    notQuite(exercise, entry, exercise.answer.kind === "find" ? t("ex-with-these", { says }) : "");
  });
}

function notQuite(exercise, entry, detail) {
  $("ex-result").textContent = t("ex-not-quite", { tries: entry.tries, detail: detail || "none" });
  $("ex-result").dataset.right = "false";
  $("ex-hint").textContent = hint(exercise);
  $("ex-hint").hidden = false;
}

/** Show me: the answer, its figures and the explanation, counted as shown rather than right. */
function showAnswer() {
  const exercise = current();
  record().shown = true;
  keep();
  setUp(exercise, exercise.answer.example ?? exercise.setup.params, (report, observed) => {
    settle(exercise, t("ex-shown"), false);
    showKey(exercise, report, observed);
  });
}

function settle(exercise, text, right) {
  document.body.classList.remove("exercise-open");
  $("ex-result").textContent = text;
  $("ex-result").dataset.right = String(right);
  $("ex-hint").hidden = true;
  $("ex-show").hidden = true;
  $("ex-explanation").textContent = inLanguage(exercise.explanation);
  $("ex-summary").textContent = progressSummary(page.exercises.records);
}

/** The answer, in words, from the core's report of the set-up. */
function showKey(exercise, report, observed) {
  const { kind, options, example, rule } = exercise.answer;
  const { value, says } = expected(exercise, report, observed);
  const labels = options?.filter((_, i) => value[i]).map((o) => `“${inLanguage(o.label)}”`) ?? [];
  $("ex-key").textContent = kind === "cause"
    ? t("ex-key-cause", { options: labels.length ? listOf(labels) : t("ex-key-no-option"), says })
    : kind === "find"
      ? t(example ? "ex-key-find-example" : "ex-key-find", { rule, example: example ?? "", says: value ? says : "" })
      : t("ex-key", { says });
  $("ex-key").hidden = false;
}

function keep() {
  const { path, set, records } = page.exercises;
  saveProgress(path, set, records);
  $("ex-summary").textContent = progressSummary(records);
}

/** The report an answer waited for failed (the arguments it tried are refused). */
export function judgingFailed(problem) {
  if (!page.pendingJudge) return;
  page.pendingJudge = null;
  notQuite(current(), record(), say(problem));
}

/** The links a teacher hands out: the set for students, and the view with the answers. */
function teacherLinks(path) {
  const [studentLink, teacherLink] = helpLinks();
  const link = new URL(location.pathname, location.origin);
  link.searchParams.set("exercises", path);
  // A set in Chinese opens in Chinese for the class too.
  link.searchParams.set("lang", language());
  // A set carried by the link travels on in the links handed out.
  if (path === LINKED_SET) link.hash = location.hash;
  studentLink.href = link.href;
  studentLink.textContent = link.href;
  link.searchParams.set("teacher", "1");
  teacherLink.href = link.href;
  // A student's panel names no way to the answers: the teacher's link is the teacher's. The
  // message places the links it names; the others wait, out of the page, for the other view.
  const help = $("ex-teacher-help");
  help.append(...helpLinks());
  localize(help, page.exercises.teacher ? "ex-teacher-help" : "ex-student-help");
  guideLink();
  $("ex-teacher-mark").hidden = !page.exercises.teacher;
}

/** The links "For teachers" can name: the students', the teacher view's and the guide. */
let links = null;
const helpLinks = () => (links ??= ["ex-student-link", "ex-teacher-link", "ex-guide-link"].map((id) => $(id)));

/** "Copy the link for this set": the set on screen, carried in the link itself, for a teacher
 * without a web site of their own. */
async function copySetLink() {
  const link = new URL(location.pathname, location.origin);
  link.searchParams.set("exercises", LINKED_SET);
  link.searchParams.set("lang", language());
  link.hash = await setFragment(page.exercises.set);
  $("ex-set-link").value = link.href;
  $("ex-set-link").hidden = false;
  try {
    await navigator.clipboard.writeText(link.href);
    $("ex-set-status").textContent = t("ex-set-copied", { length: link.href.length });
  } catch {
    $("ex-set-link").select();
    $("ex-set-status").textContent = t("copy-select");
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
    $("ex-set-status").textContent = t("ex-set-file-wrong", { file: file.name, problem: e instanceof SyntaxError ? t("set-file-not-json") : say(e.said ?? e.message) });
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
