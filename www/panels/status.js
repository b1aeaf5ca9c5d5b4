// The page's status line and its one error line: what the model is doing, and what went wrong
// (with what was wrong with the link the page opened, until the user changes something). Both
// keep what they say as catalog messages, so that a change of language says it again.
import { page } from "../state/store.js";
import { language, onLanguageChange, t } from "../l10n/l10n.js";
import { $ } from "./dom.js";

/** What the page says in its own words (`{id, args}`), the core's sentence in the page's language
 * (`{texts}`), or a library's words (text) as they are. */
export function say(said) {
  if (said === null || said === undefined) return "";
  if (typeof said === "string") return said;
  if (said.texts) return said.texts[language()] ?? said.texts.en;
  const args = Object.fromEntries(Object.entries(said.args ?? {}).map(([k, v]) => [k, v && typeof v === "object" && (v.id || v.texts) ? say(v) : v]));
  return t(said.id, args);
}

/** The error line: `said` (a catalog message, a library's words, or null for none), after what
 * was wrong with the link. */
export function showError(said) {
  page.error = said ?? null;
  drawError();
}

function drawError() {
  const link = page.linkProblems.length ? t("link-not-used", { problems: page.linkProblems.map(say).join("; ") }) : "";
  $("error").textContent = [link, say(page.error)].filter(Boolean).join(" ");
  // An embed hides the controls and their error line: it says the same where its figures are.
  $("embed-error").textContent = $("error").textContent;
}

/** The model's state (`starting`, `no-model`, `downloading`, `parsing`, `ready`, …) as the
 * status line says it; the progress bar shows while something loads. */
let status = { state: "starting", args: {} };
export function setStatus(state, args = {}) {
  status = { state, args };
  drawStatus();
}

function drawStatus() {
  $("status").dataset.state = status.state;
  $("status").textContent = t(`status-${status.state}`, status.args);
  $("progress").hidden = !["loading", "downloading", "downloading-elsewhere", "parsing"].includes(status.state);
}

/** Bytes as the status line counts them: `12.3 MB`. */
export const mb = (bytes) => t("megabytes", { value: bytes / 1e6 });

onLanguageChange(() => {
  drawStatus();
  drawError();
});
