// The step on screen: asks the worker for its report (and the prompt's tokens) whenever the
// inputs change, and draws the report when it comes back.
import { Request } from "../shared/protocol.js";
import { Purpose, requests } from "../state/requests.js";
import { names } from "../state/columns.js";
import { shownColumns } from "../state/state.js";
import { page } from "../state/store.js";
import { chat, generationConfig, syntheticLogits } from "../state/inputs.js";
import { showEffective } from "./params.js";
import { saveState } from "../state/share.js";
import { showError } from "./status.js";
import { showTokenDetail } from "./token-detail.js";
import { loadModel } from "./model-panel.js";
import { refreshPort } from "./port.js";
import { $, showReport, showView } from "./view.js";

/** Saves the state and asks for the report of the step on screen (once the worker runs: the
 * shipped steps answer for the chats the page ships, the model for the rest). */
export function refresh() {
  saveState();
  showSynthetic(Boolean(syntheticLogits()));
  if (!page.coreReady) return;
  if (page.modelReady) $("needs-model").hidden = true;
  showError(null);
  if (page.step === null) requests.send(Purpose.render, { type: Request.render, chat: chat() });
  requests.send(Purpose.inspect, {
    type: Request.inspect, chat: chat(), params: $("params").value, generationConfig: generationConfig(), step: page.step, logits: syntheticLogits(),
  });
  refreshPort();
}

/** Synthetic logits (the ties lab) replace the model's: the chat is then not used, and says so. */
function showSynthetic(synthetic) {
  document.querySelector(".prompt").classList.toggle("unused", synthetic);
  $("synthetic-note").hidden = !synthetic;
  if (synthetic) $("json-box").open = true;
}

/** Draws the report on screen again, in the view and with the columns chosen. */
export function redraw() {
  const shown = shownColumns(page.cols, names()).shown;
  showView(page.view, shown);
  if (page.lastReport) showReport(page.lastReport, { log: $("log-scale").checked, shown, view: page.view });
}

/** A report for the step on screen (the `distribution` reply). */
export function showDistribution({ id, report, source }) {
  if (!requests.is(Purpose.inspect, id)) return;
  $("needs-model").hidden = true;
  // Synthetic logits have no tokenizer: their tokens are shown by id only.
  report.tokens = source === "synthetic" ? [] : page.vocabulary;
  $("call-context").textContent = contextText(source);
  page.lastReport = report;
  redraw();
  if (page.pickedToken !== null) showTokenDetail(page.pickedToken);
  showEffective(report.effective);
  if (page.pendingJudge) {
    const judgeWith = page.pendingJudge;
    page.pendingJudge = null;
    judgeWith(report);
  }
  if (report.hf.error) showError(report.hf.error);
  if (source === "shipped" && loadsInTheBackground()) loadModel();
}

/** What the step on screen is the next token of, for the embed's line above its figures. */
function contextText(source) {
  if (source === "synthetic") return `on the synthetic logits ${syntheticLogits()}`;
  if (page.step !== null) return `at generated token ${page.step + 1}`;
  const { messages: [{ content }], answer_prefix: prefix } = chat();
  return prefix ? `→ the token after “${content}” and “${prefix}”` : `→ the token after “${content}”`;
}

/** The full page loads the model in the background once its first figures are up; an embed, an
 * exercise set (a class on one network) and a reader who asked to save data wait until something
 * needs it. */
function loadsInTheBackground() {
  return !page.modelWanted && !page.embed && !page.exercises.path && !navigator.connection?.saveData;
}
