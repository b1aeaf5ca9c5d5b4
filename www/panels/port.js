// "Port this call": for the call on screen, each column's request that makes that runtime sample
// from transformers' distribution at this step, in the runtime's own form, as the core checked
// it (`sampling-lab port`). Asked for only while the panel is open: it sets every column up a
// few times over.
import { Request } from "../shared/protocol.js";
import { Purpose, requests } from "../state/requests.js";
import { label } from "../state/columns.js";
import { page } from "../state/store.js";
import { chat, generationConfig, syntheticLogits } from "../state/inputs.js";
import { $, element } from "./dom.js";

/** Asks for the ports of the step on screen, when the panel is open. */
export function refreshPort() {
  if (!$("port-box").open || !page.coreReady) return;
  $("port-status").textContent = "Checking each runtime's request…";
  requests.send(Purpose.port, {
    type: Request.port, chat: chat(), params: $("params").value, generationConfig: generationConfig(), step: page.step, logits: syntheticLogits(),
  });
}

/** The `port` reply: one block per column, its verdict first. */
export function showPort({ id, ports }) {
  if (!requests.is(Purpose.port, id)) return;
  $("port-status").textContent = "";
  $("port-list").replaceChildren(...ports.map(portItem));
}

/** A failed port request (transformers refuses the call): the reason, where the list was. */
export function showPortError(id, message) {
  if (!requests.is(Purpose.port, id)) return false;
  $("port-list").replaceChildren();
  $("port-status").textContent = `Nothing to port: ${message}`;
  return true;
}

function portItem({ column, fixed, this_step: thisStep, verdict }) {
  const item = element("details", "", "port-item");
  item.dataset.column = column;
  item.dataset.testid = `port-${column}`;
  const summary = element("summary", label(column));
  summary.append(element("span", ` — ${fixed.agrees ? "agrees" : thisStep?.agrees ? "at this step only" : "nearest"}`, "muted"));
  item.append(summary, element("p", verdict));
  item.append(request(column, "fixed", fixed.agrees ? "The request" : "The nearest request made of the call's values", fixed));
  if (thisStep) item.append(request(column, "step", "At this step only", thisStep));
  return item;
}

function request(column, kind, title, { call, code, tv, agrees, error }) {
  const box = element("div", "", "port-request");
  const caption = element("p", `${title}: `);
  caption.append(element("code", call), element("span", agrees ? " — agrees: every probability within 1e-6 of hf's" : ` — TV ${tv.toFixed(4)} to hf`, "muted"));
  box.append(caption);
  if (error) box.append(element("p", `Refused: ${error}`, "port-refused"));
  if (code) {
    const id = `port-code-${column}-${kind}`;
    const copy = element("button", "Copy code");
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
