// The page: sends parameters to the worker, shows what comes back. Text only (textContent), never HTML.
import { Reply, Request } from "./protocol.js";

const PRESETS = [
  ["temp 0.7", { do_sample: true, temperature: 0.7 }],
  ["temp 0.7, top_k 0", { do_sample: true, temperature: 0.7, top_k: 0 }],
  ["top_k 40", { do_sample: true, temperature: 0.7, top_k: 40 }],
  ["top_k 0, top_p 0.9", { do_sample: true, temperature: 0.7, top_k: 0, top_p: 0.9 }],
  ["top_k 40, top_p 0.9", { do_sample: true, temperature: 0.7, top_k: 40, top_p: 0.9 }],
];
const TOP_ROWS = 12;
const $ = (id) => document.getElementById(id);

const worker = new Worker("worker.js", { type: "module" });
let nextId = 0;
let latest = -1;

function showError(message) {
  $("error").textContent = message ?? "";
}

function request() {
  latest = nextId++;
  showError(null);
  const generationConfig = $("generation-config").value.trim() || null;
  worker.postMessage({ type: Request.inspect, id: latest, params: $("params").value, generationConfig });
}

function fillTable(body, support) {
  const rows = support.slice(0, TOP_ROWS).map(([id, p]) => {
    const tr = document.createElement("tr");
    for (const text of [String(id), p.toFixed(5)]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  });
  body.replaceChildren(...rows);
}

function showPanel(name, entry, comparison) {
  $(`kept-${name}`).textContent = entry.error ? "error" : String(entry.kept);
  if (name !== "hf") $(`tv-${name}`).textContent = comparison ? comparison.tv.toFixed(4) : "–";
  $(`sampling-${name}`).textContent = entry.error ? entry.error : entry.sampling;
  fillTable($(`top-${name}`), entry.support);
}

function showReport(report) {
  showPanel("hf", report.hf, null);
  showPanel("literal", report.literal, report.compare.literal);
  showPanel("corrected", report.corrected, report.compare.corrected);
  if (report.hf.error) showError(report.hf.error);
  const implicit = report.effective.implicit.length ? ` · implicit: ${report.effective.implicit.join(", ")}` : "";
  $("effective").textContent = `effective: ${JSON.stringify(report.effective_params)}${implicit}`;
}

worker.onmessage = ({ data }) => {
  if (data.type === Reply.ready) {
    $("status").textContent = "ready";
    $("run").disabled = false;
    request();
  } else if (data.type === Reply.distribution && data.id === latest) {
    showReport(data.report);
  } else if (data.type === Reply.error && (data.id === null || data.id === latest)) {
    showError(data.message);
    if (data.id === null) $("status").textContent = "failed";
  }
};
worker.onerror = (e) => {
  showError(`worker failed: ${e.message}`);
  $("status").textContent = "failed";
};

for (const [label, params] of PRESETS) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = label;
  button.addEventListener("click", () => {
    $("params").value = JSON.stringify(params);
    request();
  });
  $("presets").append(button);
}
$("params").value = JSON.stringify(PRESETS[4][1]);
$("run").disabled = true;
$("run").addEventListener("click", request);
