// The model: which one to load (the default, a file the user picked or dropped, a Hub repo), its
// download and parse as the worker reports them, and what is running once it is ready.
import { Request } from "../shared/protocol.js";
import { Purpose, requests } from "../state/requests.js";
import { page } from "../state/store.js";
import { mb, setStatus, showError } from "./status.js";
import { $ } from "./view.js";
import { defaultSource, modelSource } from "../shared/model-source.js";
import { saveState } from "../state/share.js";

export function loadModel() {
  page.modelWanted = true;
  setStatus("loading the model");
  requests.send(Purpose.load, { type: Request.load, source: page.source, precision: $("precision").value });
  markModelControls();
}

/** Runs `action` with a model: now where one is ready, else once the one it loads is (the
 * control that asked says, before, that it loads the model and how big it is). */
export function withModel(action) {
  if (page.modelReady) return action();
  page.afterModel = action;
  if (!requestsLoading()) loadModel();
}

const requestsLoading = () => page.modelWanted && !page.modelReady;

/** What waited for the model, now that it is ready. */
export function runAfterModel() {
  const action = page.afterModel;
  page.afterModel = null;
  action?.();
}

/** The size of the model's download where the page knows it ("98 MB"), else null. */
function modelSize() {
  const bytes = page.source.kind === "url" && page.shippedModel?.bytes;
  return bytes ? `${Math.round(bytes / 1e6)} MB` : null;
}

/** The controls that need a model say so while there is none (and what it costs). */
export function markModelControls() {
  const size = modelSize();
  const loading = page.modelWanted && !page.modelReady;
  for (const button of document.querySelectorAll("[data-needs-model]")) {
    button.dataset.label ??= button.textContent;
    button.textContent = page.modelReady ? button.dataset.label
      : `${button.dataset.label} (${loading ? "after the model loads" : `loads ${size ?? "the model"}`})`;
  }
  $("load-model").hidden = page.modelReady || page.modelWanted;
  $("load-model").textContent = `Load the model (${size ?? "its files"})`;
}

/** A chat the page ships no step of (`needsModel`): where the figures go, it says that this
 * chat needs the model; the full page loads it, an embed waits for the reader to ask. */
export function showNeedsModel() {
  const notice = $("needs-model");
  notice.hidden = false;
  const auto = !page.embed;
  const size = modelSize() ?? "its files";
  $("needs-model-text").textContent = auto
    ? `This chat's next token needs the model (${size}): it is loading, and the figures follow.`
    : `This chat's next token needs the model (${size}), which this embed loads only when you ask.`;
  $("needs-model-load").hidden = auto || page.modelWanted;
  if (auto) withModel(() => {});
}

export async function loadFile(file) {
  if (!file) return;
  page.source = { kind: "bytes", name: file.name, bytes: await file.arrayBuffer() };
  loadModel();
}


/** Download and parse progress (`progress` replies of a load). */
export function showLoadProgress({ phase, loaded, total }) {
  if (phase === "parse") return setStatus("parsing");
  $("progress").value = total ? loaded / total : 0;
  const where = phase === "download-elsewhere" ? "another page of this site is downloading it: " : "downloading ";
  setStatus(`${where}${mb(loaded)}${total ? ` / ${mb(total)} (${Math.round((100 * loaded) / total)}%)` : ""}`);
}

/** The model is loaded (`ready`): what runs, and how long it took. */
export function showModelReady({ info, vocabulary, threads, timings }) {
  page.modelReady = true;
  page.vocabulary = vocabulary;
  $("model-info").dataset.threads = String(threads);
  $("needs-model").hidden = true;
  page.loadedSource = page.source;
  setStatus("ready");
  const seconds = ((timings.fetchMs + timings.parseMs) / 1000).toFixed(1);
  const from = timings.fromCache ? " from the browser's cache" : "";
  $("model-name").textContent = modelName(page.source);
  $("model-name").title = `the file's own name: ${info.name}`;
  $("model-info").textContent =
    `${info.weights} · ${info.precision}${threadsNote(info.precision)} · SIMD ${$("model-info").dataset.simd} · loaded${from} in ${seconds} s`;
  markModelControls();
}

/** The model as its users name it: the file name without `.gguf`, its quantization after a dot
 * (`SmolLM2-135M-Instruct · Q4_1`), or the Hub folder's last part. */
function modelName(from) {
  const path = from.kind === "bytes" ? from.name : (from.url ?? from.base ?? "");
  const last = decodeURIComponent(path.replace(/\/+$/, "").split("/").pop() ?? "");
  return last.replace(/\.gguf$/i, "").replace(/\.(Q\d\w*|F16|F32|BF16)$/i, " · $1") || "model";
}

/** The worker keeps the previous model when a new one fails to load. */
export function loadFailed() {
  setStatus(page.modelReady ? "ready" : "failed");
  if (page.loadedSource) page.source = page.loadedSource;
  if (!page.modelReady) {
    page.modelWanted = false;
    page.afterModel = null;
  }
  markModelControls();
}

/** How many threads the precision runs on: the exact model's products use the pool (the threaded
 * build, where the page is cross-origin isolated); fast precision is candle's, one thread. */
function threadsNote(precision) {
  const threads = Number($("model-info").dataset.threads) || 1;
  return precision === "exact" ? ` · ${threads} ${threads === 1 ? "thread" : "threads"}` : " · 1 thread";
}

export function listenForModels() {
  $("load-model").addEventListener("click", () => withModel(() => {}));
  $("needs-model-load").addEventListener("click", () => withModel(() => {}));
  $("precision").addEventListener("change", loadModel);
  $("model-file").addEventListener("change", () => loadFile($("model-file").files[0]));
  document.addEventListener("dragover", (e) => e.preventDefault());
  document.addEventListener("drop", (e) => {
    e.preventDefault();
    loadFile(e.dataTransfer?.files?.[0]);
  });
  $("hub-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const named = modelSource($("hub-repo").value, location.href);
    if (named.error) return showError(named.error);
    page.source = named.source;
    loadModel();
    saveState();
  });
  $("default-model").addEventListener("click", () => {
    page.source = defaultSource();
    loadModel();
    saveState();
  });
}
