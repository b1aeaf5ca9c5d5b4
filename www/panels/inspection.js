// The step on screen: asks the worker for its report (and the prompt's tokens) whenever the
// inputs change, in the page's language and for the columns compared, and draws the report when
// it comes back; the characters its byte tokens begin arrive with a shipped step, or from the
// model once it is there.
import { Request } from "../shared/protocol.js";
import { Purpose, requests } from "../state/requests.js";
import { names } from "../state/columns.js";
import { comparedColumns, DEFAULTS, toggleCompared } from "../state/state.js";
import { page } from "../state/store.js";
import { chat, generationConfig, syntheticLogits } from "../state/inputs.js";
import { language, t } from "../l10n/l10n.js";
import { showEffective } from "./params.js";
import { saveState } from "../state/share.js";
import { showError } from "./status.js";
import { asksBeforeDownload, loadModel } from "./model-panel.js";
import { refreshPort } from "./port.js";
import { showDrawEstimate } from "./montecarlo.js";
import { onTokenPicked } from "./charts.js";
import { tokenDetail } from "./compare-table.js";
import { $, showReport, showView } from "./view.js";

/** The columns the table compares with transformers now. */
export const compared = () => comparedColumns(page.cols, names()).compared;

/** Whether the step on screen is the one the write-up was written on: its chat's next token, under
 * its call (the same arguments, however the JSON is spaced), with no generation_config.json. */
function isWriteUpStep() {
  const { system, messages: [{ content }], answer_prefix: prefix } = chat();
  const chatIs = !system && content === DEFAULTS.user && prefix === DEFAULTS.prefix && page.step === null && !syntheticLogits();
  return chatIs && !generationConfig() && sameJson($("params").value, DEFAULTS.params);
}

/** Two JSON texts that hold the same value (key order aside). */
function sameJson(a, b) {
  const canonical = (text) => {
    try {
      const sorted = (v) => (v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])])) : v);
      return JSON.stringify(sorted(JSON.parse(text)));
    } catch {
      return null;
    }
  };
  return canonical(a) !== null && canonical(a) === canonical(b);
}

/** How the worker writes the report: the page's language, the comparison, the write-up's note. */
export const reportOptions = () => JSON.stringify({ lang: language(), compared: compared(), write_up: isWriteUpStep() });

/** Saves the state and asks for the report of the step on screen (once the worker runs: the
 * shipped steps answer for the chats the page ships, the model for the rest). The error line is
 * cleared, except where the worker asks again by itself (`keepError`: after a restart, whose
 * reason the reader must still be able to read). */
export function refresh({ keepError = false } = {}) {
  saveState();
  showSynthetic(Boolean(syntheticLogits()));
  if (!page.coreReady) return;
  if (page.modelReady) $("needs-model").hidden = true;
  if (!keepError) showError(null);
  if (page.step === null) requests.send(Purpose.render, { type: Request.render, chat: chat() });
  const inputs = { chat: chat(), params: $("params").value, generationConfig: generationConfig(), step: page.step, logits: syntheticLogits() };
  inspectInputs(inputs);
  refreshPort();
}

/** Asks for the report of `inputs` in the page's language; `relabel`: the report on screen again,
 * while the arguments in the box are refused. */
function inspectInputs(inputs, relabel = false) {
  requests.send(Purpose.inspect, { type: Request.inspect, ...inputs, options: reportOptions() }, { inputs, relabel });
}

/** The worker refused the inspect on screen: the figures stay those of the last inputs that worked,
 * and say so — in the page's language, asked for again if the language changed since. */
export function inspectRefused() {
  page.inspectFailed = true;
  showStale();
  if (page.shownInputs && page.lastReport.lang !== language()) inspectInputs(page.shownInputs, true);
}

/** Says when the figures are not those of the arguments in the box: the worker refused these, or
 * they were edited since (the figures follow them on Inspect). */
export function showStale() {
  const note = $("figures-stale");
  const edited = page.shownInputs !== null && $("params").value !== page.shownInputs.params;
  // Another chat typed (and maybe inspected, waiting for the model): these figures are the old one's.
  const otherChat = page.shownInputs !== null && !syntheticLogits() && JSON.stringify(page.shownInputs.chat) !== JSON.stringify(chat());
  const key = page.inspectFailed ? "figures-stale-refused" : otherChat ? "figures-stale-chat" : edited ? "figures-stale-edited" : null;
  note.hidden = key === null || !page.lastReport;
  note.textContent = key === null ? "" : t(key);
}

/** Synthetic logits (the ties lab) replace the model's: the chat is then not used, and says so. */
function showSynthetic(synthetic) {
  document.querySelector(".prompt").classList.toggle("unused", synthetic);
  $("synthetic-note").hidden = !synthetic;
  if (synthetic) $("json-box").open = true;
}

/** Draws the report on screen again, in the view and with the comparison chosen. */
export function redraw() {
  showView(page.view);
  if (!page.lastReport) return;
  showReport(page.lastReport, {
    view: page.view, log: $("log-scale").checked, compared: compared(), completions: page.completions, picked: page.pickedToken,
    onPick: pick, onCompare: compare,
  });
  showPanelDetail();
}

/** Opens (or, with null, closes) a token's ranks under every column. */
function pick(id) {
  page.pickedToken = id;
  redraw();
}
onTokenPicked(pick);

function showPanelDetail() {
  const box = $("panel-detail");
  box.hidden = page.view !== "panels" || page.pickedToken === null || !page.lastReport;
  if (box.hidden) return;
  const close = document.createElement("button");
  close.type = "button";
  close.textContent = t("close");
  close.addEventListener("click", () => pick(null));
  box.replaceChildren(close, tokenDetail(page.lastReport, page.pickedToken, page.completions.get(page.pickedToken), "div"));
}

/** Compares `name` with transformers, or stops comparing it; the finding follows. */
function compare(name) {
  page.cols = toggleCompared(compared(), name);
  refresh();
  onCompared();
}

/** What else follows the comparison (the answer view's order of columns). */
let onCompared = () => {};
export function followComparison(listener) {
  onCompared = listener;
}

/** A report for the step on screen (the `distribution` reply), with the completions a shipped
 * step carries. */
export function showDistribution({ id, report, source, completions, url }) {
  if (!requests.is(Purpose.inspect, id)) return;
  const { inputs, relabel } = requests.context(Purpose.inspect, id);
  page.shownInputs = inputs;
  $("needs-model").hidden = true;
  // Synthetic logits have no tokenizer: their tokens are shown by id only.
  report.tokens = source === "synthetic" ? [] : page.vocabulary;
  const sameStep = page.lastReport && page.lastReport.stepKey === stepKey();
  report.stepKey = stepKey();
  if (!sameStep) page.completions = new Map();
  for (const c of completions ?? []) page.completions.set(c.token, c);
  $("call-context").textContent = contextText(source);
  page.stepSource = source;
  showSource(source, url);
  page.lastReport = report;
  // Drawn by the scripts (a prerendered page's first screen is in its HTML before them): what it
  // held of another state can show again, now that it is this one's.
  document.documentElement.dataset.drawn = "1";
  document.documentElement.classList.remove("other-state");
  // A report drawn again in another language leaves the refusal of the arguments on screen said.
  if (!relabel) page.inspectFailed = false;
  redraw();
  showStale();
  showEffective(report.effective);
  if (page.pendingJudge) {
    const judgeWith = page.pendingJudge;
    page.pendingJudge = null;
    judgeWith(report);
  }
  if (report.hf.error && !relabel) showError(report.hf.error);
  if (source === "shipped" || source === "file" || source === "kept") firstScreenShown("figures");
  askForCompletions(report);
  showDrawEstimate();
}

/** Which step the report is of: completions belong to one. */
const stepKey = () => JSON.stringify([chat(), page.step, syntheticLogits()]);

/** The byte tokens the table shows that no completion names yet: asked of the model, when it is
 * there, without holding anything up. */
function askForCompletions(report) {
  if (!page.modelReady || syntheticLogits()) return;
  const rows = [...document.querySelectorAll("#compare-table tr[data-token]")].map((tr) => Number(tr.dataset.token));
  const open = rows.filter((id) => !page.completions.has(id) && /\\x[0-9A-Fa-f]{2}$/.test(report.tokens[id] ?? ""));
  if (!open.length) return;
  requests.send(Purpose.completions, { type: Request.completions, chat: chat(), step: page.step, tokens: open }, stepKey());
}

/** The model's completions of the byte tokens on screen (the `completions` reply). */
export function showCompletions({ id, completions }) {
  if (requests.context(Purpose.completions, id) !== stepKey()) return;
  for (const c of completions) page.completions.set(c.token, c);
  redraw();
}

/** Where figures that are not the model's come from: a writer's step file, or this browser's copy
 * of the model's step from an earlier visit. */
function showSource(source, url) {
  const note = $("source-note");
  // The check is the file's chat's: another chat's figures say nothing of it.
  const checked = source === "model" && page.stepChecked?.chat === JSON.stringify(chat()) ? page.stepChecked : null;
  note.hidden = source !== "file" && source !== "kept" && !checked;
  if (checked) note.textContent = t(checked.same ? "source-file-checked" : "source-file-differs", { url: checked.url });
  else if (!note.hidden) note.textContent = t(source === "file" ? "source-file" : "source-kept", { url: url ?? "" });
}

/** The site's model is loaded and held the link's step file to its own logits (`stepChecked`). */
export function showStepChecked({ url, same }) {
  // Kept: the model's figures that follow say it again under them.
  page.stepChecked = { url, same, chat: JSON.stringify(chat()) };
  const note = $("source-note");
  note.hidden = false;
  note.textContent = t(same ? "source-file-checked" : "source-file-differs", { url });
  if (!same) showError({ id: "source-file-differs", args: { url } });
}

/** What the step on screen is the next token of, for the embed's line above its figures. */
function contextText(source) {
  if (source === "synthetic") return t("context-synthetic", { logits: syntheticLogits() });
  if (page.step !== null) return t("context-generated", { step: page.step + 1 });
  const { messages: [{ content }], answer_prefix: prefix } = chat();
  return prefix ? t("context-after-prefix", { content, prefix }) : t("context-after", { content });
}

/** A prerendered page opened on another state (www/first-screen.js) that must wait for the model:
 * its HTML's figures are the default chat's, so they go rather than stand beside the notice. */
export function forgetPrerendered() {
  const root = document.documentElement;
  if (!root.classList.contains("other-state")) return;
  $("finding").textContent = "";
  for (const id of ["compare-table", "mass-bars", "mass-others", "causes", "completion", "answer-summary"]) $(id).replaceChildren();
  $("reference-note").hidden = true;
  root.classList.remove("other-state");
}

/** What of the first screen is drawn without the model: its figures, and the answer view (the
 * answer the site ships, or none). The model loads in the background once both are there. */
const firstScreen = new Set();
export function firstScreenShown(part) {
  firstScreen.add(part);
  if (!firstScreen.has("figures") || !firstScreen.has("answer")) return;
  // The figures a prerendered page carried in its HTML are drawn again by now: its styles go.
  for (const el of document.querySelectorAll("[data-ps]")) el.removeAttribute("data-ps");
  if (loadsInTheBackground()) loadModel();
}

/** The full page loads the model in the background once its first figures are up; an embed, a
 * phone, a reader who asked to save data or is on a cellular connection, and an exercise set (a
 * class on one network) wait until something needs it. */
function loadsInTheBackground() {
  return !page.modelWanted && !page.exercises.path && !asksBeforeDownload();
}
