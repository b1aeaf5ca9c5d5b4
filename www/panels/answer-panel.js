// The answer view: the answer on screen — one the site ships for the chat (written at build time,
// with every step's figures, drawn before the model loads) or the reader's last generation — with
// every token coloured by a figure of a column at its step, a legend, a strip chart and the core's
// sentences on the whole answer (answer-heat.js). The figures of a generated token arrive with it
// (`token`); the summary and the sentences are the core's (`answer`), asked for again when the
// language or the comparison changes. A shipped answer is read again on the model (its tokens
// forced) the first time something needs its steps' logits: a token's full comparison, its
// alternatives, a branch, or other arguments.
import { Request } from "../shared/protocol.js";
import { Purpose, requests } from "../state/requests.js";
import { page } from "../state/store.js";
import { chat } from "../state/inputs.js";
import { language, nodes, t } from "../l10n/l10n.js";
import { label } from "../state/columns.js";
import { $, element } from "./dom.js";
import { compared, firstScreenShown } from "./inspection.js";
import { buildColumnMenu, colourTokens, drawLegend, drawSentences, drawStrip, FIGURES } from "./answer-heat.js";
import { exportAnswer } from "./export.js";

/** How the worker writes the answer's report: the page's language, the compared columns first. */
const answerOptions = () => JSON.stringify({ lang: language(), compared: compared() });

/** Asks the core for the report of the answer on screen (a generation's, once every step's figures
 * are there), or for the answer the site ships for the chat when no generation is on screen. */
export function askForAnswer() {
  if (!page.coreReady || page.answer.source === "generating") return;
  const generated = page.answer.source === "generated";
  if (generated && !complete()) return;
  const steps = generated ? page.answer.steps : undefined;
  requests.send(Purpose.answer, { type: Request.answer, chat: page.answer.chat ?? chat(), options: answerOptions(), steps, params: page.answer.params });
}

/** Whether every step of the generated answer has its figures. */
const complete = () => page.answer.steps.length === page.answer.length && page.answer.steps.every(Boolean);

/** A new generation starts: its figures arrive with its tokens. */
export function startAnswer(params, semantics, seed, { keepTokens = false } = {}) {
  page.answer = { ...page.answer, source: "generating", params, semantics, seed, chat: chat(), report: null, steps: keepTokens ? page.answer.steps : [], length: null };
  if (!keepTokens) drawSentences(null, compared());
  showSource();
}

/** A generated step's figures (the `figures` reply), for the generation on screen. */
export function showStepFigures({ id, step, figures }) {
  if (!requests.is(Purpose.generation, id)) return;
  page.answer.steps[step] = figures;
  colourTokens(step);
  if (page.answer.source === "generated") {
    drawStrip(compared(), (index) => onStripSelect(index));
    askForAnswer();
  }
}

/** The answer was cut back at `fork` (a branch or a way back replaces what follows). */
export function cutFigures(fork) {
  page.answer.steps.length = Math.min(page.answer.steps.length, fork);
}

/** The generation ended with `steps` tokens: its summary and sentences are the core's, once every
 * step's figures are there. */
export function finishAnswer(steps) {
  page.answer.source = "generated";
  page.answer.length = steps;
  page.answer.steps.length = Math.min(page.answer.steps.length, steps);
  showSource();
  redrawAnswer();
  askForAnswer();
}

/** The `answer` reply: a generation's report, or the site's answer for the chat with its tokens. */
export function showAnswer(reply, drawTokens) {
  if (!requests.is(Purpose.answer, reply.id)) return;
  const { source, report } = reply;
  if (source === "shipped") {
    // A generation started since: its answer is the one on screen.
    if (page.answer.source === "generated" || page.answer.source === "generating") return;
    page.answer = {
      source, report, steps: report.steps, params: reply.params, semantics: reply.semantics, seed: reply.seed, chat: chat(),
      tokens: reply.tokens, finish: reply.finish,
    };
    drawTokens(reply.tokens.map((token, index) => ({
      index, token: token.id, token_text: token.token_text, text: token.text,
      probability: report.steps[index].columns[reply.semantics]?.p_token ?? 0,
      finish: index === reply.tokens.length - 1 ? reply.finish : null,
    })));
  } else if (source === "generated") {
    if (page.answer.source !== "generated") return;
    page.answer.report = report;
  } else if (page.answer.source === null) {
    // No answer for this chat: none is drawn (a prerendered page's was the default chat's).
    page.answer.report = null;
    page.answer.steps = [];
    drawTokens([]);
  }
  redrawAnswer();
  if (source !== "generated") firstScreenShown("answer");
}

/** Draws the answer's colours, legend, chart and sentences again (a figure or column chosen, the
 * language or the comparison changed). */
export function redrawAnswer() {
  const has = page.answer.steps.some(Boolean);
  $("answer-controls").hidden = !has;
  buildColumnMenu(compared());
  drawLegend();
  colourTokens();
  drawStrip(compared(), (index) => onStripSelect(index));
  drawSentences(page.answer.report, compared());
  showSource();
}

let onStripSelect = () => {};

/** What a click on the strip chart does (select that step). */
export function listenForAnswer(select) {
  onStripSelect = select;
  for (const id of ["answer-figure", "answer-column"]) $(id).addEventListener("change", redrawAnswer);
  for (const button of document.querySelectorAll("[data-export-answer]")) {
    button.addEventListener("click", () => exportAnswer(button.dataset.exportAnswer, answerFile()));
  }
}

/** The answer on screen as a file holds it: each token's display text, the call, and the core's
 * report (its steps' figures, every column's summary, the sentences). */
function answerFile() {
  const tokens = [...$("completion").querySelectorAll("button[data-step]")].map((b) => b.dataset.tokenText ?? "");
  const { params, semantics, seed, report, steps } = page.answer;
  return { params, semantics, seed, tokens, ...(report ?? {}), steps };
}

/** Where the answer on screen comes from, and the call its figures are for. */
function showSource() {
  const line = $("answer-source");
  const { source, params, semantics, seed } = page.answer;
  line.hidden = source === null;
  if (source === null) return line.replaceChildren();
  // The call as Python, once the core has said it (its JSON until then).
  const call = element("code", page.answer.report?.call ?? params);
  call.translate = false;
  const id = source === "shipped" ? "answer-source-shipped" : "answer-source-generated";
  line.replaceChildren(...nodes(id, { column: label(semantics), seed, call }));
  // The figures are the answer's call's: other arguments on screen can read the same tokens again.
  $("answer-reread").hidden = source === null || source === "generating" || $("params").value === params;
}

/** The step figures of a shipped answer's token, before the model can give its full comparison:
 * each compared column's probability of the token and mass outside transformers' support. */
export function stepFiguresText(index) {
  const step = page.answer.steps[index];
  if (!step) return "";
  return compared().filter((name) => step.columns[name]).map((name) => {
    const figures = step.columns[name];
    if (figures.p_token === null) return t("answer-step-refused", { column: label(name) });
    return t("answer-step-figures", { column: label(name), p: figures.p_token, outside: FIGURES.outside.text(figures.mass_outside_hf) });
  }).join(" · ");
}
