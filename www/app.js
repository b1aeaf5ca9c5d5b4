// The page: starts the worker that owns the wasm (and a new one when it crashes), routes its
// replies to the part of the page each is for, and wires the controls. It computes none of the
// semantics: every number comes from the worker's replies (protocol.js). The first figures come
// from the sampling core and the shipped steps; the model loads when something needs it (and,
// on the full page, in the background once the first figures are up). Every sentence is the
// catalog's, in the reader's language (l10n/): the page starts once its catalog is loaded.
import { Reply, Request } from "./shared/protocol.js";
import { checkColumns } from "./state/state.js";
import { names, setColumns } from "./state/columns.js";
import { chooseLanguage, language, LANGUAGES, NATIVE_NAMES, onLanguageChange, rememberLanguage, t, useLanguage } from "./l10n/l10n.js";
import { exportReport } from "./panels/export.js";
import { workerScript } from "./shared/trusted.js";
import { Purpose, requests } from "./state/requests.js";
import { page } from "./state/store.js";
import { defaultSource, sourceText } from "./shared/model-source.js";
import { $, buildColumns, showChips } from "./panels/view.js";
import { followColourScheme } from "./panels/charts.js";
import { buildGlossary, openLinkedTerm } from "./panels/glossary.js";
import { buildParamsForm, paramsText, showParams } from "./panels/params.js";
import { presetButtons } from "./panels/presets.js";
import { followComparison, forgetPrerendered, inspectRefused, redraw, refresh, showCompletions, showDistribution, showStale, showStepChecked } from "./panels/inspection.js";
import { embedWithStep, listenForStepExport, saveStepFile } from "./panels/step-export.js";
import { chat } from "./state/inputs.js";
import { copyCode, copyLink, restoreState, saveState, showPane } from "./state/share.js";
import { setStatus, showError } from "./panels/status.js";
import { refreshPort, showPort, showPortError } from "./panels/port.js";
import { listenForModels, loadFailed, loadModel, markModelControls, runAfterModel, showLoadProgress, showModelInfo, showModelReady, showNeedsModel } from "./panels/model-panel.js";
import { drawAnswerTokens, generate, generationFailed, listenForGeneration, selectStep, showDone, showRewound, showToken, showTokenAlternatives } from "./panels/generation-panel.js";
import { askForAnswer, redrawAnswer, showAnswer, showStepFigures } from "./panels/answer-panel.js";
import { drawingDone, listenForDraws, showDrawEstimate, showConverging, showDrawn, showDrawProgress } from "./panels/montecarlo.js";
import { listenForSpeculation, showRound, showSpeculated, speculationFailed } from "./panels/speculative.js";
import { judgingFailed, listenForExercises, observeFailed, showExerciseAnswer, showObserved, startExercises } from "./panels/exercise-panel.js";
import { pageColumns } from "./state/page-columns.js";

/** The cause rules and the columns the core names, from the worker's first reply: the page's
 * columns are built from them, and links and exercise sets are checked against them. */
const core = Promise.withResolvers();

/** The core's columns in every language, from the worker's first reply. */
let columnsByLanguage = null;

/** The shipped steps' manifest, beside the page. */
const STEPS = new URL("steps/index.json", document.baseURI).href;

function startWorker() {
  // The pool's size and where the shipped steps are travel in the worker's URL: the worker needs
  // them before its first message. The steps are the site's default model's logits: a page that
  // opens on another model waits for that one.
  const script = new URL("./worker/worker.js", import.meta.url);
  if (page.threads) script.searchParams.set("threads", String(page.threads));
  if (sourceText(page.source, location.href) === sourceText(defaultSource(), location.href)) script.searchParams.set("steps", STEPS);
  const worker = new Worker(workerScript(script), { type: "module" });
  // A worker that crashed may still have said something (a second request that failed on its dead
  // instance): only the current one is heard, or one crash would restart the worker twice.
  worker.onmessage = ({ data }) => {
    if (worker === page.worker) HANDLERS[data.type]?.(data);
  };
  // A worker that fails before it starts (its scripts did not load: Firefox fires a plain Event,
  // with no message) would fail again if restarted: the page says so and stops there. Started is
  // `page.coreReady`: set by the current worker's first reply, cleared at a crash.
  worker.onerror = (e) => {
    if (worker !== page.worker) return;
    if (!page.coreReady) {
      setStatus("failed");
      showError({ id: "error-worker-start" });
    } else crashed({ id: "error-worker", args: { detail: e.message ?? e.type } });
  };
  page.worker = worker;
}

function crashed(said) {
  page.crash = said;
  page.modelReady = false;
  page.coreReady = false;
  setStatus("starting");
  showError({ id: page.modelWanted ? "error-restarting-model" : "error-restarting", args: { problem: said } });
  page.worker.terminate();
  startWorker();
}

/** After a crash, once the worker runs again (with the model, where the page had one): the error
 * line says what happened and that the page is back. */
function restarted() {
  if (page.crash === null) return;
  showError({ id: "error-restarted", args: { problem: page.crash } });
  page.crash = null;
}

const HANDLERS = {
  [Reply.started]: ({ simd, rules, columns }) => {
    page.coreReady = true;
    $("model-info").dataset.simd = simd ? "on" : "off";
    // A restarted worker lists the same columns: the page keeps what it built.
    if (!names().length) {
      columnsByLanguage = columns;
      showCoreColumns();
      nameThePage();
    }
    core.resolve({ rules, columns: names() });
    // The link's step file is read (and checked) before the first figures are asked for.
    if (page.stepfile) requests.send(Purpose.useStep, { type: Request.useStep, url: new URL(page.stepfile, document.baseURI).href, chat: chat() });
    const recovering = page.crash !== null;
    if (page.modelWanted) loadModel();
    else {
      setStatus("no-model");
      restarted();
    }
    refresh({ keepError: recovering });
    // The answer the site ships for the chat, drawn before the model too.
    if (page.answer.source === null) askForAnswer();
    // A link to a generated token needs its generation, and so the model.
    if (page.pendingStep !== null && !page.modelWanted) showNeedsModel();
  },
  [Reply.shipped]: ({ vocabulary, model }) => {
    if (!page.modelReady) page.vocabulary = vocabulary;
    page.shippedModel = model;
    markModelControls();
  },
  [Reply.needsModel]: ({ id, model }) => {
    page.shippedModel = model ?? page.shippedModel;
    if (requests.is(Purpose.inspect, id) || requests.is(Purpose.monteCarlo, id)) {
      forgetPrerendered();
      showNeedsModel();
    }
    showStale();
    drawingDone(id);
  },
  [Reply.progress]: (reply) => (reply.phase === "draws" ? showDrawProgress(reply) : showLoadProgress(reply)),
  [Reply.ready]: (reply) => {
    const recovering = page.crash !== null;
    showModelReady(reply);
    restarted();
    if (page.pendingStep !== null) generate();
    else refresh({ keepError: recovering });
    runAfterModel();
  },
  [Reply.rendered]: ({ rendered }) => showChips(rendered),
  [Reply.distribution]: showDistribution,
  [Reply.converging]: showConverging,
  [Reply.monteCarlo]: showDrawn,
  [Reply.port]: showPort,
  [Reply.completions]: showCompletions,
  [Reply.stepUsed]: () => {},
  [Reply.stepChecked]: showStepChecked,
  [Reply.stepFile]: saveStepFile,
  [Reply.token]: showToken,
  [Reply.rewound]: showRewound,
  [Reply.done]: showDone,
  [Reply.figures]: showStepFigures,
  [Reply.answer]: (reply) => {
    showAnswer(reply, drawAnswerTokens);
    showExerciseAnswer(reply);
  },
  [Reply.alternatives]: showTokenAlternatives,
  [Reply.speculating]: showRound,
  [Reply.speculated]: showSpeculated,
  [Reply.observed]: showObserved,
  [Reply.error]: ({ id, message, said, fatal }) => {
    // The worker's own words are the catalog's; a library's (the core's) are quoted as they are.
    const problem = said ?? message;
    if (fatal) return crashed(problem);
    speculationFailed(id);
    generationFailed(id);
    drawingDone(id);
    if (requests.is(Purpose.inspect, id)) {
      judgingFailed(problem);
      inspectRefused();
    }
    observeFailed(id, problem);
    if (requests.is(Purpose.load, id)) loadFailed();
    if (requests.is(Purpose.useStep, id)) page.stepFileProblem = problem;
    // transformers' refusal is already the figures' error line: the panel says it has nothing.
    if (showPortError(id, problem)) return;
    showError(problem);
  },
};

/** The columns as the core lists them, in the page's language: the figures, panels and menus
 * are built, and the link's column names checked against them. */
function showCoreColumns() {
  setColumns(columnsByLanguage[language()]);
  buildGlossary();
  openLinkedTerm();
  buildColumns();
  showDrawEstimate();
  const { state, problems } = checkColumns({ semantics: $("semantics").value || $("semantics").dataset.default, cols: page.cols }, names());
  $("semantics").value = state.semantics;
  page.cols = state.cols;
  if (problems.length) {
    page.linkProblems = [...page.linkProblems, ...problems];
    showError(page.error);
  }
  redraw();
  saveState();
}

/** The header's language switcher: the choice is remembered, and kept in the page's links. */
function languageSwitcher() {
  const select = $("lang");
  select.replaceChildren(...LANGUAGES.map((lang) => {
    const option = document.createElement("option");
    option.value = lang;
    option.lang = lang;
    option.textContent = NATIVE_NAMES[lang];
    return option;
  }));
  select.value = language();
  select.addEventListener("change", async () => {
    rememberLanguage(select.value);
    page.lang = select.value;
    await useLanguage(select.value);
  });
}

/** Everything built from the core's words or the catalog's, said again in the new language. */
function relabel() {
  $("lang").value = language();
  nameThePage();
  if (columnsByLanguage) {
    setColumns(columnsByLanguage[language()]);
    buildGlossary();
    buildColumns();
    showDrawEstimate();
  }
  markModelControls();
  showModelInfo();
  saveState();
  refresh();
  redrawAnswer();
  askForAnswer();
}

/** The page's title and description name every column the core lists, in the page's language. */
function nameThePage() {
  if (!columnsByLanguage) return;
  document.title = t("page-title", pageColumns(columnsByLanguage[language()], language()));
  document.querySelector('meta[name="description"]').content = t("page-description", pageColumns(columnsByLanguage[language()], language()));
}

function pickPreset(slug, params, logits) {
  page.preset = slug;
  $("params").value = params;
  showParams(params);
  $("logits").value = logits;
  refresh();
}

async function setUp() {
  const state = restoreState();
  try {
    await useLanguage(chooseLanguage(state.lang));
  } catch (e) {
    // Without its catalog the page has no words: say so where the figures go, in both languages.
    document.documentElement.classList.remove("l10n-pending");
    // eslint-disable-next-line sampling-lab/no-prose -- the one sentence said without a catalog
    $("finding").textContent = `The page's words could not be loaded · 页面文字无法载入 (${e.message})`;
    return;
  }
  document.documentElement.classList.remove("l10n-pending");
  setStatus("starting");
  languageSwitcher();
  onLanguageChange(relabel);
  followColourScheme(redraw);
  presetButtons(pickPreset);
  for (const radio of document.querySelectorAll("input[name=view]")) {
    radio.addEventListener("change", () => { page.view = radio.value; saveState(); redraw(); });
  }
  $("embed-this").addEventListener("click", embedWithStep);
  for (const tab of document.querySelectorAll("[data-pane]")) {
    tab.addEventListener("click", () => { page.pane = tab.dataset.pane; showPane(); saveState(); redrawAnswer(); });
  }
  listenForStepExport();
  $("copy-link").addEventListener("click", copyLink);
  $("run").addEventListener("click", () => { page.preset = ""; refresh(); });
  // The copy and export buttons are built with the core's columns: one listener serves them all.
  document.addEventListener("click", (e) => {
    const copy = e.target.closest?.("[data-copy]");
    if (copy) copyCode($(copy.dataset.copy).textContent, copy);
    const exported = e.target.closest?.("[data-export]");
    if (exported && page.lastReport) exportReport(exported.dataset.export, page.lastReport);
  });
  $("log-scale").addEventListener("change", () => { saveState(); redraw(); });
  // An embed shows the write-up's note in two lines: a click opens the rest.
  $("reference-note").addEventListener("click", () => $("reference-note").classList.toggle("open"));
  $("port-box").addEventListener("toggle", refreshPort);
  listenForModels();
  listenForGeneration();
  followComparison(() => { redrawAnswer(); askForAnswer(); });
  listenForDraws();
  listenForSpeculation();
  listenForExercises(core.promise);
  for (const id of ["system", "user", "answer-prefix", "logits"]) $(id).addEventListener("change", () => selectStep(null));
  for (const id of ["system", "user", "answer-prefix"]) $(id).addEventListener("input", showStale);
  document.querySelector(".controls").addEventListener("input", () => { page.linkProblems = []; });
  $("presets").addEventListener("click", () => { page.linkProblems = []; });
  for (const id of ["semantics", "seed", "max-new-tokens"]) $(id).addEventListener("change", saveState);
  // Tests (and anyone debugging recovery) can crash the wasm on purpose: the page must come back.
  window.addEventListener("sampling-lab:trap", () => page.worker.postMessage({ type: Request.trap }));
  window.addEventListener("sampling-lab:trap-draws", () => page.worker.postMessage({ type: Request.trap, target: "draws" }));
  window.addEventListener("sampling-lab:trap-memory", () => page.worker.postMessage({ type: Request.trap, target: "memory" }));
  window.addEventListener("sampling-lab:trap-pool", () => page.worker.postMessage({ type: Request.trap, target: "pool" }));
  buildParamsForm($("params-form"), () => {
    const { text, error } = paramsText();
    if (error) return showError(error);
    $("params").value = text;
    page.preset = "";
    refresh();
  });
  $("params").addEventListener("input", () => {
    showParams($("params").value);
    showStale();
  });
  if (state.exercises) startExercises(state.exercises, state.task, core.promise);
  showError(null);
  redraw();
  showParams($("params").value);
  saveState();
  markModelControls();
  startWorker();
}

setUp();
