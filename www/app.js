// The page: keeps its state in the URL (state.js), sends requests to the worker (protocol.js) and
// draws what comes back (view.js). It computes none of the semantics.
import { Reply, Request } from "./protocol.js";
import { DEFAULTS, checkColumns, colsValue, parseState, shownColumns, stateQuery } from "./state.js";
import { names, setColumns } from "./columns.js";
import { DEFAULT_SET, judge, loadExercises } from "./exercises.js";
import { exportReport } from "./export.js";
import { workerScript } from "./trusted.js";
import { Purpose, Requests } from "./requests.js";
import { showSpeculation, TEMPERATURES } from "./speculative.js";
import { addConvergence, finishConvergence, resetConvergence } from "./montecarlo.js";
import { buildParamsForm, paramsText, showEffective, showParams } from "./params.js";
import { page } from "./store.js";
import { $, buildColumns, cutTokens, hideAlternatives, markSelected, nameGeneratedBytes, showAlternatives, showBranchChoices, showBranches, showChips, showMonteCarlo, showReport, showView, tokenButton } from "./view.js";

/** [URL name, label, generate() arguments as JSON text (`0.0` stays a Python float), synthetic
 * logits or "" for the model's, the group it is shown in]. */
const PRESETS = [
  ["temp-0.7", "temp 0.7", '{"do_sample": true, "temperature": 0.7}', "", "reference"],
  ["top-k-0", "temp 0.7, top_k 0", '{"do_sample": true, "temperature": 0.7, "top_k": 0}', "", "reference"],
  ["top-k-40", "top_k 40", '{"do_sample": true, "temperature": 0.7, "top_k": 40}', "", "reference"],
  ["top-p-0.9", "top_k 0, top_p 0.9", '{"do_sample": true, "temperature": 0.7, "top_k": 0, "top_p": 0.9}', "", "reference"],
  ["top-k-40-top-p-0.9", "top_k 40, top_p 0.9", '{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}', "", "reference"],
  ["smollm2", "SmolLM2's recommended", '{"do_sample": true, "temperature": 0.2, "top_p": 0.9}', "", "more"],
  ["dflash-0.6", "DFlash's temperature 0.6", '{"do_sample": true, "temperature": 0.6}', "", "more"],
  ["greedy", "greedy", "{}", "", "more"],
  ["temperature-0", "temperature=0, sampling on", '{"do_sample": true, "temperature": 0}', "", "more"],
  ["ties", "ties lab", '{"do_sample": true, "top_k": 2}', "3, 2, 2, 1", "more"],
  ["zero-0", "0", '{"do_sample": true, "temperature": 0.0}', "", "zero"],
  ["zero-1e-8", "1e-8", '{"do_sample": true, "temperature": 1e-8}', "", "zero"],
  ["zero-5e-6", "5e-6", '{"do_sample": true, "temperature": 5e-6}', "", "zero"],
  ["zero-1e-5", "1e-5", '{"do_sample": true, "temperature": 1e-5}', "", "zero"],
  ["zero-1e-3", "1e-3", '{"do_sample": true, "temperature": 0.001}', "", "zero"],
];
const PRESET_GROUPS = { reference: "", more: "", zero: "Where is temperature zero?" };
/** URL field → the input that holds it. */
const INPUTS = {
  system: "system", user: "user", prefix: "answer-prefix", params: "params", gc: "generation-config", logits: "logits",
  semantics: "semantics", seed: "seed", max: "max-new-tokens",
};

const requests = new Requests((message) => page.worker.postMessage(message));
/** The cause rules and the columns the core names, from the worker's first reply: the page's
 * columns are built from them, and links and exercise sets are checked against them. */
const core = Promise.withResolvers();

function startWorker() {
  page.worker = new Worker(workerScript("worker.js"), { type: "module" });
  page.worker.onmessage = ({ data }) => HANDLERS[data.type]?.(data);
  page.worker.onerror = (e) => crashed(`the worker failed: ${e.message}`);
  loadModel();
}

function loadModel() {
  setBusy(true);
  setStatus("loading");
  requests.send(Purpose.load, { type: Request.load, source: page.source, precision: $("precision").value });
}

async function loadFile(file) {
  if (!file) return;
  page.source = { kind: "bytes", name: file.name, bytes: await file.arrayBuffer() };
  loadModel();
}

/** A repo id (`owner/name`) as its files' URL on the Hub; a URL or a path is used as it is. */
function hubBase(text) {
  if (/^[\w.-]+\/[\w.-]+$/.test(text)) return `https://huggingface.co/${text}/resolve/main/`;
  try {
    const url = new URL(text, location.href);
    return url.protocol === "https:" || url.origin === location.origin ? url.href : null;
  } catch {
    return null;
  }
}

function crashed(message) {
  page.modelReady = false;
  showError(`${message} — restarting the model`);
  page.worker.terminate();
  startWorker();
}

function chat() {
  const system = $("system").value.trim();
  return {
    system: system || null,
    messages: [{ role: "user", content: $("user").value }],
    answer_prefix: $("answer-prefix").value,
  };
}

const generationConfig = () => $("generation-config").value.trim() || null;

function refresh() {
  saveState();
  if (!page.modelReady) return;
  showError(null);
  const logits = $("logits").value.trim() || null;
  if (page.step === null) requests.send(Purpose.render, { type: Request.render, chat: chat() });
  requests.send(Purpose.inspect, { type: Request.inspect, chat: chat(), params: $("params").value, generationConfig: generationConfig(), step: page.step, logits });
}

function generate() {
  selectStep(null);
  $("completion").replaceChildren();
  showBranches([], restoreBranch);
  hideAlternatives();
  $("gen-stats").textContent = "";
  const options = {
    semantics: $("semantics").value,
    params: page.generationParams || $("params").value,
    generationConfig: generationConfig(),
    seed: Number($("seed").value) || 0,
    maxNewTokens: Number($("max-new-tokens").value) || DEFAULTS.max,
  };
  page.generationParams = options.params;
  showError(null);
  requests.send(Purpose.generation, { type: Request.generate, chat: chat(), options });
  $("cancel").disabled = false;
  $("generate").disabled = true;
}

/** Goes on from another token at the step the branch form is for. */
function branchHere(event) {
  event.preventDefault();
  const at = Number($("branch-form").dataset.step);
  busyGenerating({ type: Request.branch, step: at, token: Number($("branch-token").value) });
}

function restoreBranch(number) {
  busyGenerating({ type: Request.restore, branch: number });
}

function busyGenerating(message) {
  showError(null);
  hideAlternatives();
  requests.send(Purpose.generation, message);
  $("cancel").disabled = false;
  $("generate").disabled = true;
  $("branch-go").disabled = true;
}

/** Asks for a generated token's alternatives, under the arguments the generation ran with. */
function lookAt(token, button) {
  requests.send(Purpose.look, { type: Request.alternatives, step: token.index, params: page.generationParams || $("params").value, generationConfig: generationConfig() }, { token, button });
}

function speculate() {
  if (!page.modelReady) return;
  showError(null);
  $("spec-run").disabled = true;
  $("spec-status").textContent = "drafting and verifying…";
  requests.send(Purpose.speculate, {
    type: Request.speculate, chat: chat(), draft: $("spec-draft").value, blockSize: Number($("spec-block").value) || 16, temperatures: TEMPERATURES,
    options: { semantics: $("spec-semantics").value, params: $("params").value, generationConfig: generationConfig(),
      seed: Number($("seed").value) || 0, maxNewTokens: Number($("max-new-tokens").value) || DEFAULTS.max },
  });
}

function drawMonteCarlo() {
  if (!page.modelReady) return;
  showError(null);
  $("mc-status").textContent = "drawing…";
  $("mc-run").disabled = true;
  $("mc-cancel").disabled = false;
  page.drawingSince = performance.now();
  resetConvergence();
  requests.send(Purpose.monteCarlo, {
    type: Request.monteCarlo, chat: chat(), params: $("params").value, generationConfig: generationConfig(), step: page.step,
    logits: $("logits").value.trim() || null, draws: Number($("mc-draws").value) || 10_000, seed: Number($("seed").value) || 0,
  });
}

function showDrawProgress(done, total) {
  $("mc-progress").value = total ? done / total : 0;
  // Each draw runs candle's LogitsProcessor over the whole vocabulary (softmax, sort, weighted
  // index): a rate and the time left tell the user what a larger N will cost.
  const rate = done / Math.max((performance.now() - page.drawingSince) / 1000, 1e-3);
  const left = rate > 0 ? (total - done) / rate : Infinity;
  const eta = left < 90 ? `${Math.ceil(left)} s` : `${Math.ceil(left / 60)} min`;
  $("mc-status").textContent =
    `${done.toLocaleString("en")} / ${total.toLocaleString("en")} draws · ${Math.round(rate).toLocaleString("en")} draws/s · about ${eta} left`;
}

function drawingDone() {
  $("mc-run").disabled = false;
  $("mc-cancel").disabled = true;
}

async function startExercises(path, index) {
  try {
    const set = await loadExercises(path === "default" ? DEFAULT_SET : path, await core.promise);
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

function selectStep(index) {
  page.step = index;
  markSelected(index);
  $("branch-form").hidden = true;
  if (index !== null) {
    const drawn = Number($("completion").querySelector(`[data-step="${index}"]`)?.dataset.token);
    requests.send(Purpose.branchChoices, { type: Request.alternatives, step: index, params: page.generationParams || $("params").value, generationConfig: generationConfig() }, { drawn });
  }
  $("inspecting").textContent = index === null ? "Showing: the token after the prompt" : `Showing: generated token ${index}`;
  refresh();
}

const HANDLERS = {
  [Reply.started]: ({ simd, rules, columns }) => {
    $("model-info").dataset.simd = simd ? "on" : "off";
    // A restarted worker lists the same columns: the page keeps what it built.
    if (!names().length) showCoreColumns(columns);
    core.resolve({ rules, columns: names() });
  },
  [Reply.progress]: ({ id, phase, loaded, total }) => {
    if (phase === "draws") return requests.is(Purpose.monteCarlo, id) && showDrawProgress(loaded, total);
    if (phase === "parse") return setStatus("parsing");
    $("progress").value = total ? loaded / total : 0;
    setStatus(`downloading ${mb(loaded)}${total ? ` / ${mb(total)} (${Math.round((100 * loaded) / total)}%)` : ""}`);
  },
  [Reply.ready]: ({ info, timings }) => {
    page.modelReady = true;
    page.loadedSource = page.source;
    setBusy(false);
    setStatus("ready");
    const seconds = ((timings.fetchMs + timings.parseMs) / 1000).toFixed(1);
    const from = timings.fromCache ? " from the browser's cache" : "";
    $("model-name").textContent = modelName(page.source);
    $("model-name").title = `the file's own name: ${info.name}`;
    $("model-info").textContent =
      `${info.weights} · ${info.precision} · SIMD ${$("model-info").dataset.simd} · loaded${from} in ${seconds} s`;
    if (page.pendingStep !== null) return generate();
    refresh();
  },
  [Reply.rendered]: ({ rendered }) => showChips(rendered),
  [Reply.converging]: ({ id, points }) => requests.is(Purpose.monteCarlo, id) && addConvergence(points),
  [Reply.monteCarlo]: ({ id, result, cancelled }) => {
    if (!requests.is(Purpose.monteCarlo, id)) return;
    drawingDone();
    $("mc-status").textContent = cancelled ? `stopped after ${result.literal.draws ?? 0} draws per port` : "done";
    showMonteCarlo(result, page.lastReport);
    finishConvergence(result);
  },
  [Reply.distribution]: ({ id, report }) => {
    if (!requests.is(Purpose.inspect, id)) return;
    page.lastReport = report;
    redraw();
    showEffective(report.effective);
    if (page.pendingJudge) {
      const judgeWith = page.pendingJudge;
      page.pendingJudge = null;
      judgeWith(report);
    }
    if (report.hf.error) showError(report.hf.error);
  },
  [Reply.token]: ({ id, step: token }) => {
    if (!requests.is(Purpose.generation, id)) return;
    $("completion").append(tokenButton(token, (t) => selectStep(t.index), lookAt));
    nameGeneratedBytes(token.index);
    if (token.index === page.pendingStep) {
      page.pendingStep = null;
      selectStep(token.index);
    }
  },
  [Reply.rewound]: ({ id, fork, steps, branches }) => {
    if (!requests.is(Purpose.generation, id)) return;
    cutTokens(fork);
    $("completion").append(...steps.map((token) => tokenButton(token, (t) => selectStep(t.index), lookAt)));
    nameGeneratedBytes(fork);
    showBranches(branches, restoreBranch);
  },
  [Reply.done]: ({ id, finish, steps, decoded, prefillMs, decodeMs, branches }) => {
    if (!requests.is(Purpose.generation, id)) return;
    $("cancel").disabled = true;
    $("generate").disabled = false;
    $("branch-go").disabled = false;
    showBranches(branches, restoreBranch);
    // A rate from plain decoding only: a branch decodes part of an answer, a restore none.
    const plain = prefillMs !== null;
    const rate = plain && steps > 1 ? (steps - 1) / (decodeMs / 1000) : null;
    if (rate) page.plainRate = rate;
    const timing = plain ? ` · prefill ${(prefillMs / 1000).toFixed(2)} s${rate ? ` · ${rate.toFixed(1)} tok/s` : ""}` : ` · ${decoded} decoded after the branch`;
    $("gen-stats").textContent = `${steps} tokens · ${finish}${timing}`;
    if (page.pendingStep !== null) {
      showError(`the link's step ${page.pendingStep} was not generated (the answer has ${steps} tokens)`);
      page.pendingStep = null;
      refresh();
    }
  },
  [Reply.alternatives]: (reply) => {
    const looked = requests.context(Purpose.look, reply.id);
    if (looked) showAlternatives(reply, looked.token, looked.button);
    const choices = requests.context(Purpose.branchChoices, reply.id);
    if (choices) showBranchChoices(reply, choices.drawn);
  },
  [Reply.speculated]: ({ id, result, curve }) => {
    if (!requests.is(Purpose.speculate, id)) return;
    $("spec-run").disabled = false;
    showSpeculation(result, curve, page.plainRate);
  },
  [Reply.error]: ({ id, message, fatal }) => {
    if (fatal) return crashed(message);
    if (requests.is(Purpose.speculate, id)) { $("spec-run").disabled = false; $("spec-status").textContent = "failed"; }
    if (requests.is(Purpose.generation, id)) { $("cancel").disabled = true; $("generate").disabled = false; $("branch-go").disabled = false; }
    if (requests.is(Purpose.monteCarlo, id)) drawingDone();
    if (requests.is(Purpose.inspect, id) && page.pendingJudge) {
      page.pendingJudge = null;
      $("ex-result").textContent = `Not quite: ${message}`;
    }
    if (requests.is(Purpose.load, id)) loadFailed();
    showError(message);
  },
};

/** The model as its users name it: the file name without `.gguf`, its quantization after a dot
 * (`SmolLM2-135M-Instruct · Q4_1`), or the Hub folder's last part. */
function modelName(from) {
  const path = from.kind === "bytes" ? from.name : (from.url ?? from.base ?? "");
  const last = decodeURIComponent(path.replace(/\/+$/, "").split("/").pop() ?? "");
  return last.replace(/\.gguf$/i, "").replace(/\.(Q\d\w*|F16|F32|BF16)$/i, " · $1") || "model";
}

/** The worker keeps the previous model when a new one fails to load. */
function loadFailed() {
  setBusy(!page.modelReady);
  setStatus(page.modelReady ? "ready" : "failed");
  if (page.loadedSource) page.source = page.loadedSource;
}

function showError(message) {
  $("error").textContent = [page.linkProblems, message].filter(Boolean).join(" ");
}

function setStatus(text) {
  $("status").textContent = text;
  $("progress").hidden = text === "ready" || text === "failed";
}

function setBusy(busy) {
  for (const id of ["run", "generate"]) $(id).disabled = busy;
}

const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

function redraw() {
  const shown = shownColumns(page.cols, names()).shown;
  showView(page.view, shown);
  if (page.lastReport) showReport(page.lastReport, { log: $("log-scale").checked, shown, view: page.view });
}

function currentState() {
  const state = {
    preset: page.preset, embed: page.embed, step: page.step, log: $("log-scale").checked, exercises: page.exercises.path,
    task: page.exercises.index, view: page.view, cols: page.cols,
  };
  state.gen = page.step !== null && page.generationParams !== $("params").value ? page.generationParams : "";
  for (const [key, id] of Object.entries(INPUTS)) state[key] = $(id).value;
  // Until the core lists the columns, the menu is empty and holds the link's choice aside.
  state.semantics ||= $("semantics").dataset.default;
  state.seed = Number(state.seed) || 0;
  state.max = Number(state.max) || DEFAULTS.max;
  return state;
}

function saveState() {
  const query = stateQuery(currentState());
  history.replaceState(null, "", query || location.pathname);
  const full = new URL(location.href);
  full.searchParams.delete("embed");
  $("full-page").href = full.href;
}

function restoreState() {
  const { state, problems } = parseState(location.search);
  for (const [key, id] of Object.entries(INPUTS)) $(id).value = String(state[key]);
  // A link's system message or generation_config would be easy to miss in a closed section.
  if (state.system) $("system").closest("details").open = true;
  if (state.gc || state.logits) $("json-box").open = true;
  page.preset = state.preset;
  $("log-scale").checked = state.log;
  page.embed = state.embed;
  page.view = state.view;
  page.cols = state.cols;
  $("semantics").dataset.default = state.semantics;
  $(`view-${page.view}`).checked = true;
  page.pendingStep = state.step;
  page.generationParams = state.step === null ? "" : state.gen;
  document.body.classList.toggle("embed", page.embed);
  if (problems.length) page.linkProblems = `This link was not used in full: ${problems.join("; ")}.`;
  if (state.exercises) startExercises(state.exercises, state.task);
  showError(null);
}

async function copyText(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = "Copied";
  } catch {
    button.textContent = "Select the code to copy it";
  }
  setTimeout(() => { button.textContent = "Copy code"; }, 2000);
}

/** The `<iframe>` snippet of the current state, for documentation. */
async function embedThis() {
  saveState();
  const url = new URL(location.href);
  url.searchParams.set("embed", "1");
  const snippet = `<iframe src="${url.href}" width="720" height="600" style="border:0" loading="lazy" title="sampling-lab: what each sampler draws from"></iframe>`;
  $("share-link").value = snippet;
  try {
    await navigator.clipboard.writeText(snippet);
    $("share-status").textContent = "Embed snippet copied.";
  } catch {
    $("share-link").select();
    $("share-status").textContent = "Select and copy the snippet above.";
  }
}

async function copyLink() {
  saveState();
  $("share-link").value = location.href;
  try {
    await navigator.clipboard.writeText(location.href);
    $("share-status").textContent = "Link copied.";
  } catch {
    $("share-link").select();
    $("share-status").textContent = "Select and copy the link above.";
  }
}

/** The columns as the core lists them: the figures, panels, toggles and menus are built, and the
 * link's column names checked against them. */
function showCoreColumns(columns) {
  setColumns(columns);
  buildColumns(() => {
    const shown = [...document.querySelectorAll("#column-toggles input:checked")].map((i) => i.dataset.column);
    page.cols = colsValue(shown, names());
    saveState();
    redraw();
  });
  const { state, problems } = checkColumns({ semantics: $("semantics").value, cols: page.cols }, names());
  $("semantics").value = state.semantics;
  page.cols = state.cols;
  if (problems.length) {
    page.linkProblems = [page.linkProblems, `This link was not used in full: ${problems.join("; ")}.`].filter(Boolean).join(" ");
    showError(null);
  }
  redraw();
  saveState();
}

function presetButtons() {
  const groups = Object.fromEntries(Object.entries(PRESET_GROUPS).map(([name, title]) => {
    const group = document.createElement("div");
    group.className = `preset-group preset-${name}`;
    if (title) group.append(Object.assign(document.createElement("span"), { className: "muted", textContent: title }));
    return [name, group];
  }));
  for (const [slug, label, params, logits, group] of PRESETS) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.dataset.preset = slug;
    if (group === "zero") button.setAttribute("aria-label", `temperature ${label} with sampling`);
    button.addEventListener("click", () => {
      page.preset = slug;
      $("params").value = params;
      showParams(params);
      $("logits").value = logits;
      refresh();
    });
    groups[group].append(button);
  }
  $("presets").replaceChildren(...Object.values(groups));
}

function setUp() {
  presetButtons();
  for (const radio of document.querySelectorAll("input[name=view]")) {
    radio.addEventListener("change", () => { page.view = radio.value; saveState(); redraw(); });
  }
  $("embed-this").addEventListener("click", embedThis);
  $("run").addEventListener("click", () => { page.preset = ""; refresh(); });
  $("generate").addEventListener("click", () => { page.generationParams = ""; generate(); });
  $("cancel").addEventListener("click", () => page.worker.postMessage({ type: Request.cancel, id: requests.latest(Purpose.generation) }));
  $("copy-link").addEventListener("click", copyLink);
  $("mc-run").addEventListener("click", drawMonteCarlo);
  $("spec-run").addEventListener("click", speculate);
  $("completion").addEventListener("mouseleave", hideAlternatives);
  $("branch-form").addEventListener("submit", branchHere);
  $("completion").addEventListener("focusout", (e) => { if (!$("completion").contains(e.relatedTarget)) hideAlternatives(); });
  $("completion").addEventListener("keydown", (e) => { if (e.key === "Escape") hideAlternatives(); });
  $("ex-check").addEventListener("click", checkExercise);
  $("ex-prev").addEventListener("click", () => { showExercise(page.exercises.index - 1); saveState(); });
  $("ex-next").addEventListener("click", () => { showExercise(page.exercises.index + 1); saveState(); });
  // The copy and export buttons are built with the core's columns: one listener serves them all.
  document.addEventListener("click", (e) => {
    const copy = e.target.closest?.("[data-copy]");
    if (copy) copyText($(copy.dataset.copy).textContent, copy);
    const exported = e.target.closest?.("[data-export]");
    if (exported && page.lastReport) exportReport(exported.dataset.export, page.lastReport);
  });
  $("mc-cancel").addEventListener("click", () => page.worker.postMessage({ type: Request.cancel, id: requests.latest(Purpose.monteCarlo) }));
  $("log-scale").addEventListener("change", () => { saveState(); redraw(); });
  $("precision").addEventListener("change", loadModel);
  $("model-file").addEventListener("change", () => loadFile($("model-file").files[0]));
  document.addEventListener("dragover", (e) => e.preventDefault());
  document.addEventListener("drop", (e) => {
    e.preventDefault();
    loadFile(e.dataTransfer?.files?.[0]);
  });
  $("hub-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const base = hubBase($("hub-repo").value.trim());
    if (!base) return showError("give a Hugging Face repo id such as HuggingFaceTB/SmolLM2-135M-Instruct, or the URL of a folder with config.json, model.safetensors and tokenizer.json");
    page.source = { kind: "hub", base };
    loadModel();
  });
  for (const id of ["system", "user", "answer-prefix", "logits"]) $(id).addEventListener("change", () => selectStep(null));
  document.querySelector(".controls").addEventListener("input", () => { page.linkProblems = ""; });
  $("presets").addEventListener("click", () => { page.linkProblems = ""; });
  for (const id of ["semantics", "seed", "max-new-tokens"]) $(id).addEventListener("change", saveState);
  // Tests (and anyone debugging recovery) can crash the wasm on purpose: the page must come back.
  window.addEventListener("sampling-lab:trap", () => page.worker.postMessage({ type: Request.trap }));
  window.addEventListener("sampling-lab:trap-draws", () => page.worker.postMessage({ type: Request.trap, target: "draws" }));
  window.addEventListener("sampling-lab:trap-memory", () => page.worker.postMessage({ type: Request.trap, target: "memory" }));
  buildParamsForm($("params-form"), () => {
    const { text, error } = paramsText();
    if (error) return showError(error);
    $("params").value = text;
    page.preset = "";
    refresh();
  });
  $("params").addEventListener("input", () => showParams($("params").value));
  restoreState();
  redraw();
  showParams($("params").value);
  saveState();
  startWorker();
}

setUp();
