// The page's status line and its one error line: what the model is doing, and what went wrong
// (with what was wrong with the link the page opened, until the user changes something).
import { page } from "../state/store.js";
import { $ } from "./view.js";

export function showError(message) {
  $("error").textContent = [page.linkProblems, message].filter(Boolean).join(" ");
}

export function setStatus(text) {
  $("status").textContent = text;
  $("progress").hidden = !/^(loading|downloading|parsing|another page)/.test(text);
}

export const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
