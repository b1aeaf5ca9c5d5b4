// "Embed this" for a chat the site does not ship: its step as a file for the writer to put beside
// their post (a Hub dataset repo, or the site's own folder), and the snippet whose link names
// where they put it — so that their readers' embed draws its figures from the file, without the
// model. The file is the core's (writeStep); the page only saves it and writes the address in.
import { Request } from "../shared/protocol.js";
import { Purpose, requests } from "../state/requests.js";
import { page } from "../state/store.js";
import { chat } from "../state/inputs.js";
import { embedSnippet, embedThis } from "../state/share.js";
import { parseState } from "../state/state.js";
import { say } from "./status.js";
import { t } from "../l10n/l10n.js";
import { download } from "./export.js";
import { $ } from "./dom.js";
import { modelSize } from "./model-panel.js";

/** Whether the chat on screen has a step the site ships (or a link's step file): its embed
 * needs no file of its own. */
const shippedHere = () => page.stepSource === "shipped" || page.stepSource === "file";

/** Embed this: the snippet, and for a chat the site does not ship, its step to save. */
export async function embedWithStep() {
  await embedThis();
  const box = $("step-export");
  box.hidden = shippedHere() || page.stepSource === "synthetic" || page.step !== null;
  if (box.hidden) return;
  const ready = page.modelReady && page.stepSource !== null;
  $("step-export-text").textContent = t(ready ? "step-export-intro" : "step-export-needs-model", { size: modelSize() ?? t("the-model-files") });
  $("step-export-save").disabled = !ready;
}

/** The step file, from the worker (`stepFile`), saved under a name of the chat. */
export function saveStepFile({ id, text }) {
  if (!requests.is(Purpose.stepFile, id)) return;
  download("sampling-lab-step.json", text, "application/json");
  $("step-export-text").textContent = t("step-export-saved", { kilobytes: Math.round(text.length / 1000) });
}

export function listenForStepExport() {
  $("step-export-save").addEventListener("click", () => requests.send(Purpose.stepFile, { type: Request.stepFile, chat: chat() }));
  $("step-export-url").addEventListener("input", () => {
    const where = $("step-export-url").value.trim();
    // The address is checked as the reader's page will check its link.
    const { problems } = parseState(`?stepfile=${encodeURIComponent(where)}`);
    $("share-status").textContent = where && problems.length ? say(problems[0]) : "";
    $("share-link").value = embedSnippet(where && !problems.length ? where : "");
  });
}
