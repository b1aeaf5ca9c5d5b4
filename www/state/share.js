// Sharing: the whole state in the URL (state.js checks every field of a link), a link to copy,
// and the `<iframe>` snippet of the current state for documentation.
import { DEFAULTS, parseState, stateQuery } from "./state.js";
import { page } from "./store.js";
import { INPUTS } from "./inputs.js";
import { markPreset } from "../panels/presets.js";
import { defaultSource, modelSource, sourceText } from "../shared/model-source.js";
import { $ } from "../panels/view.js";
import { carriesSet } from "./set-link.js";

function currentState() {
  const state = {
    preset: page.preset, embed: page.embed, threads: page.threads, step: page.step, log: $("log-scale").checked, exercises: page.exercises.path,
    task: page.exercises.index, teacher: page.exercises.teacher, view: page.view, cols: page.cols, model: linkedModel(),
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
  page.embed = state.embed;
  page.threads = state.threads;
  page.exercises.teacher = state.teacher;
  page.view = state.view;
  page.cols = state.cols;
  $("semantics").dataset.default = state.semantics;
  $(`view-${page.view}`).checked = true;
  page.pendingStep = state.step;
  page.generationParams = state.step === null ? "" : state.gen;
  document.body.classList.toggle("embed", page.embed);
  if (state.model) {
    const named = modelSource(state.model, location.href);
    if (named.source) page.source = named.source;
    else problems.push(`link field “model”: ${named.error}; using the default model`);
  }
  if (problems.length) page.linkProblems = `This link was not used in full: ${problems.join("; ")}.`;
  return state;
}

async function copyToClipboard(text, done) {
  try {
    await navigator.clipboard.writeText(text);
    $("share-status").textContent = done;
  } catch {
    $("share-link").select();
    $("share-status").textContent = "Select and copy the text above.";
  }
}

export async function copyLink() {
  saveState();
  $("share-link").value = location.href;
  await copyToClipboard(location.href, page.source.kind === "bytes" ? FILE_LEFT_OUT("Link copied") : "Link copied.");
}

/** A file from the user's computer cannot travel in a link. */
const FILE_LEFT_OUT = (done) => `${done}; it opens the site's default model: a file from your computer cannot travel in a link.`;

/** The `<iframe>` snippet of the current state, for documentation. */
export async function embedThis() {
  saveState();
  const url = new URL(location.href);
  url.searchParams.set("embed", "1");
  const snippet = `<iframe src="${url.href}" width="720" height="600" style="border:0" loading="lazy" title="sampling-lab: what each sampler draws from"></iframe>`;
  $("share-link").value = snippet;
  await copyToClipboard(snippet, page.source.kind === "bytes" ? FILE_LEFT_OUT("Embed snippet copied") : "Embed snippet copied.");
}

/** Copies a code panel's text, saying so on its button. */
export async function copyCode(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = "Copied";
  } catch {
    button.textContent = "Select the code to copy it";
  }
  setTimeout(() => { button.textContent = "Copy code"; }, 2000);
}
