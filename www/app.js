// The page: starts the worker that owns the wasm (and a new one when it crashes), routes its
// replies to the part of the page each is for, and wires the controls. It computes none of the
// semantics: every number comes from the worker's replies (protocol.js). The first figures come
// from the sampling core and the shipped steps; the model loads when something needs it (and,
// on the full page, in the background once the first figures are up).
import { Reply, Request } from "./shared/protocol.js";
import { checkColumns, colsValue } from "./state/state.js";
import { names, setColumns } from "./state/columns.js";
import { exportReport } from "./panels/export.js";
import { workerScript } from "./shared/trusted.js";
import { Purpose, requests } from "./state/requests.js";
import { page } from "./state/store.js";
import { defaultSource, sourceText } from "./shared/model-source.js";
import { $, buildColumns, showChips } from "./panels/view.js";
import { followColourScheme, onTokenPicked } from "./panels/charts.js";
import { buildGlossary, openLinkedTerm } from "./panels/glossary.js";
import { showTokenDetail } from "./panels/token-detail.js";
import { buildParamsForm, paramsText, showParams } from "./panels/params.js";
import { presetButtons } from "./panels/presets.js";
import { redraw, refresh, showDistribution } from "./panels/inspection.js";
import { copyCode, copyLink, embedThis, restoreState, saveState } from "./state/share.js";
import { setStatus, showError } from "./panels/status.js";
import { refreshPort, showPort, showPortError } from "./panels/port.js";
import { listenForModels, loadFailed, loadModel, markModelControls, runAfterModel, showLoadProgress, showModelReady, showNeedsModel } from "./panels/model-panel.js";
import { generate, generationFailed, listenForGeneration, selectStep, showDone, showRewound, showToken, showTokenAlternatives } from "./panels/generation-panel.js";
import { drawingDone, listenForDraws, showDrawEstimate, showConverging, showDrawn, showDrawProgress } from "./panels/montecarlo.js";
import { listenForSpeculation, showRound, showSpeculated, speculationFailed } from "./panels/speculative.js";
import { judgingFailed, listenForExercises, observeFailed, showObserved, startExercises } from "./panels/exercise-panel.js";

/** The cause rules and the columns the core names, from the worker's first reply: the page's
 * columns are built from them, and links and exercise sets are checked against them. */
const core = Promise.withResolvers();

/** The shipped steps' manifest, beside the page. */
const STEPS = new URL("steps/index.json", document.baseURI).href;

function startWorker() {
  // The pool's size and where the shipped steps are travel in the worker's URL: the worker needs
  // them before its first message. The steps are the site's default model's logits: a page that
  // opens on another model waits for that one.
  const script = new URL("./worker/worker.js", import.meta.url);
  if (page.threads) script.searchParams.set("threads", String(page.threads));
  if (sourceText(page.source, location.href) === sourceText(defaultSource(), location.href)) script.searchParams.set("steps", STEPS);
  page.worker = new Worker(workerScript(script), { type: "module" });
  page.worker.onmessage = ({ data }) => HANDLERS[data.type]?.(data);
  page.worker.onerror = (e) => crashed(`the worker failed: ${e.message}`);
}

function crashed(message) {
  page.modelReady = false;
  page.coreReady = false;
  showError(`${message} — restarting${page.modelWanted ? " the model" : ""}`);
  page.worker.terminate();
  startWorker();
}

const HANDLERS = {
  [Reply.started]: ({ simd, rules, columns }) => {
    page.coreReady = true;
    $("model-info").dataset.simd = simd ? "on" : "off";
    // A restarted worker lists the same columns: the page keeps what it built.
    if (!names().length) showCoreColumns(columns);
    core.resolve({ rules, columns: names() });
    if (page.modelWanted) loadModel();
    else setStatus("no model loaded");
    refresh();
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
    if (requests.is(Purpose.inspect, id) || requests.is(Purpose.monteCarlo, id)) showNeedsModel();
    drawingDone(id);
  },
  [Reply.progress]: (reply) => (reply.phase === "draws" ? showDrawProgress(reply) : showLoadProgress(reply)),
  [Reply.ready]: (reply) => {
    showModelReady(reply);
    if (page.pendingStep !== null) generate();
    else refresh();
    runAfterModel();
  },
  [Reply.rendered]: ({ rendered }) => showChips(rendered),
  [Reply.distribution]: showDistribution,
  [Reply.converging]: showConverging,
  [Reply.monteCarlo]: showDrawn,
  [Reply.port]: showPort,
  [Reply.token]: showToken,
  [Reply.rewound]: showRewound,
  [Reply.done]: showDone,
  [Reply.alternatives]: showTokenAlternatives,
  [Reply.speculating]: showRound,
  [Reply.speculated]: showSpeculated,
  [Reply.observed]: showObserved,
  [Reply.error]: ({ id, message, fatal }) => {
    if (fatal) return crashed(message);
    speculationFailed(id);
    generationFailed(id);
    drawingDone(id);
    if (requests.is(Purpose.inspect, id)) judgingFailed(message);
    observeFailed(id, message);
    if (requests.is(Purpose.load, id)) loadFailed();
    // transformers' refusal is already the figures' error line: the panel says it has nothing.
    if (showPortError(id, message)) return;
    showError(message);
  },
};

/** The columns as the core lists them: the figures, panels, toggles and menus are built, and the
 * link's column names checked against them. */
function showCoreColumns(columns) {
  setColumns(columns);
  buildGlossary();
  openLinkedTerm();
  buildColumns(() => {
    const shown = [...document.querySelectorAll("#column-toggles input:checked")].map((i) => i.dataset.column);
    page.cols = colsValue(shown, names());
    saveState();
    redraw();
  });
  showDrawEstimate();
  const { state, problems } = checkColumns({ semantics: $("semantics").value || $("semantics").dataset.default, cols: page.cols }, names());
  $("semantics").value = state.semantics;
  page.cols = state.cols;
  if (problems.length) {
    page.linkProblems = [page.linkProblems, `This link was not used in full: ${problems.join("; ")}.`].filter(Boolean).join(" ");
    showError(null);
  }
  redraw();
  saveState();
}

function pickPreset(slug, params, logits) {
  page.preset = slug;
  $("params").value = params;
  showParams(params);
  $("logits").value = logits;
  refresh();
}

function setUp() {
  followColourScheme(redraw);
  onTokenPicked(showTokenDetail);
  presetButtons(pickPreset);
  for (const radio of document.querySelectorAll("input[name=view]")) {
    radio.addEventListener("change", () => { page.view = radio.value; saveState(); redraw(); });
  }
  $("embed-this").addEventListener("click", embedThis);
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
  $("port-box").addEventListener("toggle", refreshPort);
  listenForModels();
  listenForGeneration();
  listenForDraws();
  listenForSpeculation();
  listenForExercises(core.promise);
  for (const id of ["system", "user", "answer-prefix", "logits"]) $(id).addEventListener("change", () => selectStep(null));
  document.querySelector(".controls").addEventListener("input", () => { page.linkProblems = ""; });
  $("presets").addEventListener("click", () => { page.linkProblems = ""; });
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
  $("params").addEventListener("input", () => showParams($("params").value));
  const state = restoreState();
  if (state.exercises) startExercises(state.exercises, state.task, core.promise);
  showError(null);
  redraw();
  showParams($("params").value);
  saveState();
  markModelControls();
  startWorker();
}

setUp();
