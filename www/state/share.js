// Sharing: the whole state in the URL (state.js checks every field of a link), a link to copy,
// and the `<iframe>` snippet of the current state for documentation, in the page's language.
import { DEFAULTS, parseState, stateQuery } from "./state.js";
import { page } from "./store.js";
import { INPUTS } from "./inputs.js";
import { markPreset } from "../panels/presets.js";
import { defaultSource, modelSource, sourceText } from "../shared/model-source.js";
import { $ } from "../panels/view.js";
import { carriesSet } from "./set-link.js";
import { language, t } from "../l10n/l10n.js";

function currentState() {
  const state = {
    preset: page.preset, embed: page.embed, threads: page.threads, step: page.step, log: $("log-scale").checked, exercises: page.exercises.path,
    task: page.exercises.index, teacher: page.exercises.teacher, view: page.view, cols: page.cols, model: linkedModel(), lang: page.lang,
    stepfile: page.stepfile, pane: page.pane,
  };
  state.gen = page.step !== null && page.generationParams !== $("params").value ? page.generationParams : "";
  for (const [key, id] of Object.entries(INPUTS)) state[key] = $(id).value;
  // Until the core lists the columns, the menu is empty and holds the link's choice aside.
  state.semantics ||= $("semantics").dataset.default;
  state.seed = Number(state.seed) || 0;
  state.max = Number(state.max) || DEFAULTS.max;
  return state;
}

/** The model as a link names it: none for the site's default, or for a file the user picked
 * (which no link can carry). */
function linkedModel() {
  const own = sourceText(page.source, location.href);
  return page.source.kind === "bytes" || own === sourceText(defaultSource(), location.href) ? "" : own;
}

/** Writes the state into the address bar (and the embed's link back to the full page). */
export function saveState() {
  markPreset(page.preset);
  const query = stateQuery(currentState());
  // The fragment may carry the exercise set the page opened (set-link.js): it stays.
  const fragment = carriesSet(location.hash) ? location.hash : "";
  history.replaceState(null, "", (query || location.pathname) + fragment);
  const full = new URL(location.href);
  full.searchParams.delete("embed");
  $("full-page").href = full.href;
}

/** Puts a link's state on the page; returns it (the caller opens its exercises). */
export function restoreState() {
  const { state, problems } = parseState(location.search);
  for (const [key, id] of Object.entries(INPUTS)) $(id).value = String(state[key]);
  // A link's system message or generation_config would be easy to miss in a closed section.
  if (state.system) $("system").closest("details").open = true;
  if (state.gc || state.logits) $("json-box").open = true;
  page.preset = state.preset;
  $("log-scale").checked = state.log;
  // A page the site prerendered as the embed (`embed.html`) is one without saying so in its link.
  page.embed = state.embed || document.documentElement.dataset.page === "embed";
  page.threads = state.threads;
  page.exercises.teacher = state.teacher;
  page.view = state.view;
  page.pane = state.pane;
  page.cols = state.cols;
  page.lang = state.lang;
  page.stepfile = state.stepfile;
  $("semantics").dataset.default = state.semantics;
  $(`view-${page.view}`).checked = true;
  page.pendingStep = state.step;
  page.generationParams = state.step === null ? "" : state.gen;
  document.body.classList.toggle("embed", page.embed);
  showPane();
  if (state.model) {
    const named = modelSource(state.model, location.href);
    if (named.source) page.source = named.source;
    else problems.push({ id: "link-model-default", args: { problem: named.error } });
  }
  page.linkProblems = problems;
  return state;
}

/** An embed's pane: the step's figures, or the answer view in their place. */
export function showPane() {
  document.body.classList.toggle("pane-answer", page.embed && page.pane === "answer");
  for (const tab of document.querySelectorAll("[data-pane]")) tab.setAttribute("aria-pressed", String(tab.dataset.pane === page.pane));
}

async function copyToClipboard(text, done) {
  try {
    await navigator.clipboard.writeText(text);
    $("share-status").textContent = done;
  } catch {
    $("share-link").select();
    $("share-status").textContent = t("copy-select");
  }
}

export async function copyLink() {
  saveState();
  $("share-link").value = location.href;
  await copyToClipboard(location.href, t(page.source.kind === "bytes" ? "link-copied-file-left-out" : "link-copied"));
}

/** The `<iframe>` snippet of the current state (with `stepfile`, where the writer put the chat's
 * step), for documentation. */
export async function embedThis(stepfile = page.stepfile) {
  saveState();
  const snippet = embedSnippet(stepfile);
  $("share-link").value = snippet;
  await copyToClipboard(snippet, t(page.source.kind === "bytes" ? "embed-copied-file-left-out" : "embed-copied"));
}

/** The snippet itself. */
export function embedSnippet(stepfile) {
  // Where the site prerendered the embed, in this language: its first screen is in the file.
  const prerendered = document.documentElement.dataset.page !== undefined;
  const url = new URL(prerendered ? (language() === "en" ? "embed.html" : `embed.${language()}.html`) : location.pathname, location.href);
  url.search = location.search;
  url.searchParams.set("embed", "1");
  if (stepfile) url.searchParams.set("stepfile", stepfile);
  else url.searchParams.delete("stepfile");
  const title = t("embed-title").replace(/[&"<>]/g, (c) => ({ "&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;" })[c]);
  return `<iframe src="${url.href}" width="720" height="600" style="border:0" loading="lazy" title="${title}"></iframe>`;
}

/** Copies a code panel's text, saying so on its button. */
export async function copyCode(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = t("copied");
  } catch {
    button.textContent = t("copy-code-select");
  }
  setTimeout(() => { button.textContent = t("copy-code"); }, 2000);
}
