// "Port this call": for the call on screen, each column's request that makes that runtime sample
// from transformers' distribution at this step, in the runtime's own form, as the core checked
// it (`sampling-lab port`). Asked for only while the panel is open: it sets every column up a
// few times over.
import { Request } from "../shared/protocol.js";
import { Purpose, requests } from "../state/requests.js";
import { label } from "../state/columns.js";
import { page } from "../state/store.js";
import { chat, generationConfig, syntheticLogits } from "../state/inputs.js";
import { language, nodes, t } from "../l10n/l10n.js";
import { say } from "./status.js";
import { $, element } from "./dom.js";

/** Asks for the ports of the step on screen, when the panel is open. */
export function refreshPort() {
  if (!$("port-box").open || !page.coreReady) return;
  $("port-status").textContent = t("port-checking");
  requests.send(Purpose.port, {
    type: Request.port, chat: chat(), params: $("params").value, generationConfig: generationConfig(), step: page.step, logits: syntheticLogits(),
    options: JSON.stringify({ lang: language() }),
  });
}

/** The `port` reply: one block per column, its verdict first. */
export function showPort({ id, ports }) {
  if (!requests.is(Purpose.port, id)) return;
  $("port-status").textContent = "";
  $("port-list").replaceChildren(...ports.map(portItem));
}

/** A failed port request (transformers refuses the call): the reason, where the list was. */
export function showPortError(id, problem) {
  if (!requests.is(Purpose.port, id)) return false;
  $("port-list").replaceChildren();
  $("port-status").textContent = t("port-nothing", { problem: say(problem) });
  return true;
}

function portItem({ column, fixed, this_step: thisStep, verdict }) {
  const item = element("details", "", "port-item");
  item.dataset.column = column;
  item.dataset.testid = `port-${column}`;
  // The column, then its verdict: the dash and its spacing are each language's own.
  const verdictMark = element("span", t(fixed.agrees ? "port-agrees" : thisStep?.agrees ? "port-this-step" : "port-nearest"), "muted");
  const summary = element("summary");
  summary.append(...nodes("port-item-summary", { column: label(column), verdict: verdictMark }));
  item.append(summary, element("p", verdict.text));
  item.append(request(column, "fixed", t(fixed.agrees ? "port-request" : "port-request-nearest"), fixed));
  if (thisStep) item.append(request(column, "step", t("port-request-this-step"), thisStep));
  return item;
}

function request(column, kind, title, { call, code, tv, agrees, error }) {
  const box = element("div", "", "port-request");
  const caption = element("p");
  const callCode = element("code", call);
  callCode.translate = false;
  const verdict = element("span", agrees ? t("port-agrees-note") : t("port-tv", { tv }), "muted");
  caption.append(...nodes("port-caption", { title, call: callCode, verdict }));
  box.append(caption);
  if (error) box.append(element("p", t("port-refused", { error }), "port-refused"));
  if (code) {
    const id = `port-code-${column}-${kind}`;
    const copy = element("button", t("copy-code"));
    copy.type = "button";
    copy.dataset.copy = id;
    const codeEl = element("code", code);
    codeEl.id = id;
    const pre = element("pre");
    pre.append(codeEl);
    box.append(copy, pre);
  }
  return box;
}
