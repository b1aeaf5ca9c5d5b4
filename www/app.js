// The page: sends requests to the worker (protocol.js) and shows what comes back. Text only
// (textContent), never HTML: token text and prompts can contain markup.
import { DEFAULT_MODEL_URL, Reply, Request } from "./protocol.js";

const PRESETS = [
  ["temp 0.7", { do_sample: true, temperature: 0.7 }],
  ["temp 0.7, top_k 0", { do_sample: true, temperature: 0.7, top_k: 0 }],
  ["top_k 40", { do_sample: true, temperature: 0.7, top_k: 40 }],
  ["top_k 0, top_p 0.9", { do_sample: true, temperature: 0.7, top_k: 0, top_p: 0.9 }],
  ["top_k 40, top_p 0.9", { do_sample: true, temperature: 0.7, top_k: 40, top_p: 0.9 }],
];
const TOP_ROWS = 12;
const $ = (id) => document.getElementById(id);

let worker = null;
let nextId = 0;
let latestInspect = -1;
let generationId = -1;
let source = { kind: "url", url: DEFAULT_MODEL_URL };
let modelReady = false;
let loadId = -1;
/** The source of the model that is running, to fall back on when another fails to load. */
let loadedSource = null;
/** The generated token being inspected, or null for the token after the prompt. */
let step = null;

function send(message) {
  const id = nextId++;
  worker.postMessage({ ...message, id });
  return id;
}

function startWorker() {
  worker = new Worker("worker.js", { type: "module" });
  worker.onmessage = ({ data }) => HANDLERS[data.type]?.(data);
  worker.onerror = (e) => crashed(`the worker failed: ${e.message}`);
  loadModel();
}

function loadModel() {
  setBusy(true);
  setStatus("loading");
  loadId = send({ type: Request.load, source, precision: $("precision").value });
}

function crashed(message) {
  modelReady = false;
  showError(`${message} — restarting the model`);
  worker.terminate();
  // Tests (and anyone debugging recovery) can crash the wasm on purpose: the page must come back.
window.addEventListener("sampling-lab:trap", () => worker.postMessage({ type: Request.trap }));
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

function refresh() {
  if (!modelReady) return;
  showError(null);
  if (step === null) send({ type: Request.render, chat: chat() });
  inspect();
}

function inspect() {
  const generationConfig = $("generation-config").value.trim() || null;
  latestInspect = send({ type: Request.inspect, chat: chat(), params: $("params").value, generationConfig, step });
}

function generate() {
  step = null;
  $("completion").replaceChildren();
  $("gen-stats").textContent = "";
  $("inspecting").textContent = "Showing: the token after the prompt";
  const options = {
    semantics: $("semantics").value,
    params: $("params").value,
    generationConfig: $("generation-config").value.trim() || null,
    maxNewTokens: Number($("max-new-tokens").value) || 64,
  };
  showError(null);
  generationId = send({ type: Request.generate, chat: chat(), options });
  $("cancel").disabled = false;
  $("generate").disabled = true;
}

const HANDLERS = {
  [Reply.started]: ({ simd }) => { $("model-info").dataset.simd = simd ? "on" : "off"; },
  [Reply.progress]: ({ phase, loaded, total }) => {
    if (phase === "parse") return setStatus("parsing");
    $("progress").value = total ? loaded / total : 0;
    setStatus(`downloading ${mb(loaded)}${total ? ` / ${mb(total)} (${Math.round((100 * loaded) / total)}%)` : ""}`);
  },
  [Reply.ready]: ({ info, timings }) => {
    modelReady = true;
    loadedSource = source;
    setBusy(false);
    setStatus("ready");
    const seconds = ((timings.fetchMs + timings.parseMs) / 1000).toFixed(1);
    const from = timings.fromCache ? " from the browser's cache" : "";
    $("model-info").textContent =
      `${info.name} · ${info.weights} · ${info.precision} · SIMD ${$("model-info").dataset.simd} · loaded${from} in ${seconds} s`;
    refresh();
  },
  [Reply.rendered]: ({ rendered }) => showChips(rendered),
  [Reply.distribution]: ({ id, report }) => { if (id === latestInspect) showReport(report); },
  [Reply.token]: ({ id, step: token }) => { if (id === generationId) appendToken(token); },
  [Reply.done]: ({ id, finish, steps, prefillMs, decodeMs }) => {
    if (id !== generationId) return;
    $("cancel").disabled = true;
    $("generate").disabled = false;
    const rate = steps > 1 ? ` · ${((steps - 1) / (decodeMs / 1000)).toFixed(1)} tok/s` : "";
    $("gen-stats").textContent = `${steps} tokens · ${finish} · prefill ${(prefillMs / 1000).toFixed(2)} s${rate}`;
  },
  [Reply.error]: ({ id, message, fatal }) => {
    if (fatal) return crashed(message);
    if (id === generationId) { $("cancel").disabled = true; $("generate").disabled = false; }
    if (id === loadId) loadFailed();
    showError(message);
  },
};

/** The worker keeps the previous model when a new one fails to load. */
function loadFailed() {
  setBusy(!modelReady);
  setStatus(modelReady ? "ready" : "failed");
  if (loadedSource) source = loadedSource;
}

function appendToken(token) {
  const button = document.createElement("button");
  button.type = "button";
  // A character split over several tokens appears with its last token; the others stay empty.
  button.textContent = token.text;
  button.title = `step ${token.index} · id ${token.token} · ${JSON.stringify(token.token_text)}`;
  button.dataset.step = String(token.index);
  button.dataset.token = String(token.token);
  button.addEventListener("click", () => {
    for (const b of $("completion").querySelectorAll("button")) b.setAttribute("aria-pressed", String(b === button));
    step = token.index;
    $("inspecting").textContent = `Showing: generated token ${token.index} (${JSON.stringify(token.token_text)})`;
    inspect();
  });
  $("completion").append(button);
}

function showChips({ ids, tokens }) {
  $("context-count").textContent = String(ids.length);
  $("chips").replaceChildren(...ids.map((id, i) => {
    const chip = document.createElement("span");
    chip.className = "chip";
    chip.textContent = visible(tokens[i]);
    const small = document.createElement("small");
    small.textContent = String(id);
    chip.append(small);
    return chip;
  }));
}

function fillTable(body, support, tokens) {
  body.replaceChildren(...support.slice(0, TOP_ROWS).map(([id, p]) => {
    const tr = document.createElement("tr");
    const cells = [[visible(tokens[id] ?? ""), "token"], [String(id), ""], [p.toFixed(5), ""]];
    for (const [text, className] of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      if (className) td.className = className;
      tr.append(td);
    }
    return tr;
  }));
}

function showPanel(name, entry, comparison, tokens) {
  $(`kept-${name}`).textContent = entry.error ? "error" : String(entry.kept);
  if (name !== "hf") $(`tv-${name}`).textContent = comparison ? comparison.tv.toFixed(4) : "–";
  $(`sampling-${name}`).textContent = entry.error ? entry.error : entry.sampling;
  fillTable($(`top-${name}`), entry.support, tokens);
}

function showReport(report) {
  showPanel("hf", report.hf, null, report.tokens);
  showPanel("literal", report.literal, report.compare.literal, report.tokens);
  showPanel("corrected", report.corrected, report.compare.corrected, report.tokens);
  if (report.hf.error) showError(report.hf.error);
  const implicit = report.effective.implicit.length ? ` · implicit: ${report.effective.implicit.join(", ")}` : "";
  $("effective").textContent = `effective: ${JSON.stringify(report.effective_params)}${implicit}`;
}

function showError(message) {
  $("error").textContent = message ?? "";
}

function setStatus(text) {
  $("status").textContent = text;
  $("progress").hidden = text === "ready" || text === "failed";
}

function setBusy(busy) {
  for (const id of ["run", "generate"]) $(id).disabled = busy;
}

/** Newlines and tabs drawn as symbols, so that a whitespace token is visible in a chip or a row. */
const visible = (text) => text.replace(/\n/g, "↵").replace(/\t/g, "⇥");
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

for (const [label, params] of PRESETS) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = label;
  button.addEventListener("click", () => {
    $("params").value = JSON.stringify(params);
    refresh();
  });
  $("presets").append(button);
}
$("params").value = JSON.stringify(PRESETS[4][1]);
$("run").addEventListener("click", refresh);
$("generate").addEventListener("click", generate);
$("cancel").addEventListener("click", () => worker.postMessage({ type: Request.cancel, id: generationId }));
$("precision").addEventListener("change", loadModel);
$("model-file").addEventListener("change", async () => {
  const file = $("model-file").files[0];
  if (!file) return;
  source = { kind: "bytes", name: file.name, bytes: await file.arrayBuffer() };
  loadModel();
});
for (const id of ["system", "user", "answer-prefix"]) {
  $(id).addEventListener("change", () => { step = null; refresh(); });
}
// Tests (and anyone debugging recovery) can crash the wasm on purpose: the page must come back.
window.addEventListener("sampling-lab:trap", () => worker.postMessage({ type: Request.trap }));
startWorker();
