// Generation: an answer streamed token by token under the chosen semantics, any token selected
// to inspect its step, alternatives on hover or focus, and branching from a selected token.
import { Request } from "../shared/protocol.js";
import { Purpose, requests } from "../state/requests.js";
import { page } from "../state/store.js";
import { cutTokens, hideAlternatives, markSelected, moveFocus, nameGeneratedBytes, placeToken, showAlternatives, showBranchChoices, showBranches, showLooking, showNote, tokenButton } from "./answer-view.js";
import { cutFigures, finishAnswer, listenForAnswer, startAnswer, stepFiguresText } from "./answer-panel.js";
import { $ } from "./dom.js";
import { colourTokens } from "./answer-heat.js";
import { chat, generationConfig, generationOptions } from "../state/inputs.js";
import { refresh } from "./inspection.js";
import { showError } from "./status.js";
import { withModel } from "./model-panel.js";
import { localize, t } from "../l10n/l10n.js";

/** The arguments of the generation on screen (or of the call on screen, before there is one). */
const generationParams = () => page.generationParams || $("params").value;

/** Generates an answer under the semantics and arguments on screen — or, with `reread`, reads the
 * answer on screen again on the model: its tokens forced, under `params` (its own call, or the
 * arguments on screen), so that its steps have logits to inspect and branch from. */
export function generate(reread = null) {
  if (!reread) selectStep(null);
  if (!reread) $("completion").replaceChildren();
  showBranches([], restoreBranch);
  stopLooking();
  $("gen-stats").textContent = "";
  const options = reread
    ? { ...generationOptions(page.answer.semantics, reread.params), seed: page.answer.seed, tokens: reread.tokens, maxNewTokens: reread.tokens.length }
    : generationOptions($("semantics").value, generationParams());
  page.generationParams = options.params;
  page.generationSemantics = options.semantics;
  startAnswer(options.params, options.semantics, options.seed, { keepTokens: Boolean(reread) });
  showError(null);
  requests.send(Purpose.generation, { type: Request.generate, chat: reread ? page.answer.chat : chat(), options });
  // The answer is where the reader looks next: in view, and the focus (not <body>, where a
  // disabled Generate button would leave it) on it.
  $("answer").scrollIntoView({ block: "nearest" });
  $("completion").focus({ preventScroll: true });
  setGenerating(true);
}

function setGenerating(running) {
  $("cancel").disabled = !running;
  $("generate").disabled = running;
  $("branch-go").disabled = running;
}

/** Goes on from another token at the step the branch form is for. */
function branchHere(event) {
  event.preventDefault();
  const at = Number($("branch-form").dataset.step);
  busyGenerating({ type: Request.branch, step: at, token: Number($("branch-token").value) });
}

function restoreBranch(number) {
  busyGenerating({ type: Request.restore, branch: number });
}

function busyGenerating(message) {
  showError(null);
  stopLooking();
  requests.send(Purpose.generation, message);
  setGenerating(true);
}

/** How long a token must stay under the pointer or in focus before its alternatives are asked
 * for: moving through an answer asks only where it stops. */
const LOOK_AFTER_MS = 120;
let looking = null;

/** Shows at once which token the tooltip is for, and asks for its alternatives (under the
 * arguments the generation ran with) once the reader stays on it; the worker drops a look that
 * a newer one replaced. */
function lookAt(token, button) {
  if (quietFocus) return;
  if (page.answer.source === "shipped") return showNote(stepFiguresText(token.index), button);
  showLooking(token, button);
  clearTimeout(looking);
  looking = setTimeout(() => {
    requests.send(Purpose.look, {
      type: Request.alternatives, step: token.index, params: generationParams(), generationConfig: generationConfig(), supersedes: Purpose.look,
    }, { token, button });
  }, LOOK_AFTER_MS);
}

function stopLooking() {
  clearTimeout(looking);
  hideAlternatives();
}

/** Shows generated token `index`'s step (null: the token after the prompt), and what a branch
 * there could choose. */
export function selectStep(index) {
  // A shipped answer's step has no logits until the model reads the answer again.
  if (index !== null && page.answer.source === "shipped") return selectShipped(index);
  page.step = index;
  markSelected(index);
  $("branch-form").hidden = true;
  if (index !== null) {
    const drawn = Number($("completion").querySelector(`[data-step="${index}"]`)?.dataset.token);
    requests.send(Purpose.branchChoices, { type: Request.alternatives, step: index, params: generationParams(), generationConfig: generationConfig() }, { drawn });
  }
  localize($("inspecting"), index === null ? "inspecting-prompt" : "inspecting-generated", index === null ? {} : { index });
  // Where the figures this changes are out of sight (a phone, a long answer), say so and offer
  // the way up, rather than change a chart no one sees.
  const figures = $("finding").getBoundingClientRect();
  $("to-figures").hidden = figures.bottom > 0 && figures.top < innerHeight;
  refresh();
}

/** A token of the answer the site ships: with the model, the answer is read again and the step
 * selected once its token is there; before it, the token's figures and what the model would add. */
function selectShipped(index) {
  if (page.modelReady) {
    page.pendingStep = index;
    return generate({ params: page.answer.params, tokens: page.answer.tokens.map((token) => token.id) });
  }
  const button = $("completion").querySelector(`button[data-step="${index}"]`);
  markSelected(index);
  if (button) showNote(`${stepFiguresText(index)} — ${t("answer-step-needs-model")}`, button);
}

/** Reads the answer on screen again under the arguments on screen (its tokens forced). */
function rereadAnswer() {
  withModel(() => generate({ params: $("params").value, tokens: page.answer.steps.map((step) => step.token) }));
}

function showFigures() {
  $("to-figures").hidden = true;
  $("finding").scrollIntoView({ block: "start", behavior: "smooth" });
  $("finding").focus({ preventScroll: true });
}

const pieces = (token) => tokenButton(token, (t) => selectStep(t.index), lookAt);

/** The tokens of an answer drawn all at once (the one the site ships). */
export function drawAnswerTokens(tokens) {
  $("completion").replaceChildren(...tokens.flatMap(pieces));
  nameGeneratedBytes(0);
}

/** A generated token (`token` reply). */
export function showToken({ id, step: token }) {
  if (!requests.is(Purpose.generation, id)) return;
  placeToken(pieces(token), token.index);
  colourTokens(token.index);
  nameGeneratedBytes(token.index);
  if (token.index === page.pendingStep) {
    page.pendingStep = null;
    selectStep(token.index);
  }
}

/** The answer from generated token `fork` on, replaced (`rewound`: a branch, or a way back). */
export function showRewound({ id, fork, steps, branches }) {
  if (!requests.is(Purpose.generation, id)) return;
  cutTokens(fork);
  cutFigures(fork);
  $("completion").append(...steps.flatMap(pieces));
  nameGeneratedBytes(fork);
  showBranches(branches, restoreBranch);
  // The branch's form is gone with the tokens it was about: the reader goes on at the new answer.
  focusToken(fork);
}

/** Moves the answer's one tab stop to generated token `index`, and the focus with it — quietly:
 * a focus the page moved asks for no alternatives, whose tooltip would cover the branch's list. */
function focusToken(index) {
  const tokens = $("completion").querySelectorAll("button[data-step]");
  const target = [...tokens].find((b) => Number(b.dataset.step) === index) ?? tokens[tokens.length - 1];
  if (!target) return;
  for (const button of tokens) button.tabIndex = button === target ? 0 : -1;
  quietFocus = true;
  target.focus();
  quietFocus = false;
}
let quietFocus = false;

/** The generation ended (`done`): its length, why it stopped, its speed. */
export function showDone({ id, finish, steps, decoded, prefillMs, promptReused, decodeMs, branches }) {
  if (!requests.is(Purpose.generation, id)) return;
  setGenerating(false);
  showBranches(branches, restoreBranch);
  finishAnswer(steps);
  // A rate from plain decoding only: a branch decodes part of an answer, a restore none.
  const plain = prefillMs !== null;
  const rate = plain && steps > 1 ? (steps - 1) / (decodeMs / 1000) : null;
  if (rate) page.plainRate = rate;
  const args = { steps, finish, prefill: prefillMs / 1000, rate };
  // A prompt whose forward pass its inspect already ran has no prefill to time.
  const timed = () => (rate ? t("gen-stats-rate", args) : t("gen-stats", args));
  const reused = () => (rate ? t("gen-stats-rate-reused", args) : t("gen-stats-reused", args));
  const stats = plain ? (promptReused ? reused() : timed()) : t("gen-stats-branch", { steps, finish, decoded });
  $("gen-stats").textContent = stats;
  if (page.pendingStep !== null) {
    showError({ id: "error-link-step", args: { step: page.pendingStep, steps } });
    page.pendingStep = null;
    refresh();
  }
}

/** A token's alternatives (`alternatives`): in the tooltip, or as the branch form's choices. */
export function showTokenAlternatives(reply) {
  const looked = requests.context(Purpose.look, reply.id);
  if (looked && !$("alternatives").hidden) showAlternatives(reply, looked.token, looked.button, page.generationSemantics);
  const choices = requests.context(Purpose.branchChoices, reply.id);
  if (choices) showBranchChoices(reply, choices.drawn);
}

/** A failed generation request leaves the controls usable. */
export function generationFailed(id) {
  if (requests.is(Purpose.generation, id)) setGenerating(false);
}

export function listenForGeneration() {
  $("generate").addEventListener("click", () => withModel(() => { page.generationParams = ""; generate(); }));
  $("cancel").addEventListener("click", () => requests.cancel(Purpose.generation));
  $("answer-reread").addEventListener("click", rereadAnswer);
  listenForAnswer(selectStep);
  $("to-figures").addEventListener("click", showFigures);
  $("skip-link").addEventListener("click", (e) => {
    e.preventDefault();
    ($("generate").disabled ? $("run") : $("generate")).focus();
  });
  $("completion").addEventListener("mouseleave", stopLooking);
  $("branch-form").addEventListener("submit", branchHere);
  $("completion").addEventListener("focusout", (e) => { if (!$("completion").contains(e.relatedTarget)) stopLooking(); });
  $("completion").addEventListener("keydown", (e) => (e.key === "Escape" ? stopLooking() : moveFocus(e)));
}
