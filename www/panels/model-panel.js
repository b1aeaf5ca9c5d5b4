// The model: which one to load (the default, a file the user picked or dropped, a Hub repo), its
// download and parse as the worker reports them, and what is running once it is ready.
import { Request } from "../shared/protocol.js";
import { Purpose, requests } from "../state/requests.js";
import { page } from "../state/store.js";
import { mb, say, setStatus, showError } from "./status.js";
import { $ } from "./dom.js";
import { t } from "../l10n/l10n.js";
import { syntheticLogits } from "../state/inputs.js";
import { defaultSource, modelSource } from "../shared/model-source.js";
import { saveState } from "../state/share.js";

export function loadModel() {
  page.modelWanted = true;
  setStatus("loading");
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
export function modelSize() {
  const bytes = page.source.kind === "url" && page.shippedModel?.bytes;
  return bytes ? t("megabytes-whole", { value: Math.round(bytes / 1e6) }) : null;
}

/** The controls that need a model say so while there is none (and what it costs). */
export function markModelControls() {
  const size = modelSize();
  const loading = page.modelWanted && !page.modelReady;
  for (const button of document.querySelectorAll("[data-needs-model]")) {
    const label = t(button.dataset.l10nId);
    button.textContent = page.modelReady ? label
      : t(loading ? "needs-model-after-load" : size ? "needs-model-loads" : "needs-model-loads-model", { label, size: size ?? "" });
  }
  // Synthetic logits (the ties lab) use no model: an embed of them offers none.
  $("load-model").hidden = page.modelReady || page.modelWanted || (page.embed && Boolean(syntheticLogits()));
  // In an embed, what loading gives: the first screen there needs no model.
  const embedded = size ? t("load-model-embed-size", { size }) : t("load-model-embed");
  $("load-model").textContent = page.embed ? embedded : size ? t("load-model-size", { size }) : t("load-model");
}

/** Whether the page asks before downloading the model rather than loading it in the background:
 * an embed, a small screen (a phone: the first screen needs no model), a browser asking to save
 * data or on a cellular (metered) connection. */
export function asksBeforeDownload() {
  const connection = navigator.connection;
  return page.embed || matchMedia("(max-width: 52rem)").matches || Boolean(connection?.saveData) || connection?.type === "cellular";
}

/** A chat the page ships no step of (`needsModel`): where the figures go, it says that this
 * chat needs the model; the full page loads it, an embed waits for the reader to ask. */
export function showNeedsModel() {
  const notice = $("needs-model");
  notice.hidden = false;
  const auto = !asksBeforeDownload();
  const needs = t(auto ? "needs-model-loading" : "needs-model-embed", { size: modelSize() ?? t("the-model-files") });
  // A step file that could not be used says why, where its figures would be.
  $("needs-model-text").textContent = page.stepFileProblem ? `${t("step-file-refused", { problem: say(page.stepFileProblem) })} ${needs}` : needs;
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
  const state = phase === "download-elsewhere" ? "downloading-elsewhere" : "downloading";
  setStatus(state, { done: mb(loaded), total: total ? mb(total) : "none", percent: total ? Math.round((100 * loaded) / total) : 0 });
}

/** The model is loaded (`ready`): what runs, and how long it took. */
export function showModelReady({ info, vocabulary, threads, timings }) {
  page.modelReady = true;
  page.vocabulary = vocabulary;
  $("model-info").dataset.threads = String(threads);
  $("needs-model").hidden = true;
  page.loadedSource = page.source;
  setStatus("ready");
  page.modelInfo = { info, timings };
  showModelInfo();
  markModelControls();
}

/** What runs, how, and how long it took to load: again when the language changes. */
export function showModelInfo() {
  if (!page.modelInfo) return;
  const { info, timings } = page.modelInfo;
  $("model-name").textContent = modelName(page.source);
  $("model-name").title = t("model-own-name", { name: info.name });
  const threads = info.precision === "exact" ? Number($("model-info").dataset.threads) || 1 : 1;
  $("model-info").textContent = t(timings.fromCache ? "model-info-cached" : "model-info", {
    weights: info.weights, precision: info.precision, threads, simd: $("model-info").dataset.simd, seconds: (timings.fetchMs + timings.parseMs) / 1000,
  });
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
