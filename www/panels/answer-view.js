// The answer's tokens: each a button (coloured by answer-heat.js), one tab stop with the arrow keys
// inside, its alternatives in a tooltip, the choices a branch at a selected token offers, and the
// branches left behind. Text only (textContent), never HTML.
import { label } from "../state/columns.js";
import { $, element } from "./dom.js";
import { localize, t } from "../l10n/l10n.js";
import { isByteToken, nameByteRuns, visible } from "./token-text.js";

/** An answer's token as a button that selects its step, then a line break for each newline it
 * holds; hover or focus asks for its alternatives (`onLook`). */
export function tokenButton(token, onSelect, onLook) {
  // A character split over several tokens appears with its last token; the others stay empty.
  // A newline is drawn as ↵ in the button and breaks the line after it (a button cannot).
  const button = element("button", token.text.replace(/\n/g, "↵"));
  button.type = "button";
  // One tab stop for the whole answer: the arrow keys move inside it (`moveFocus`).
  button.tabIndex = token.index === 0 ? 0 : -1;
  button.dataset.step = String(token.index);
  button.dataset.token = String(token.token);
  button.dataset.tokenText = token.token_text;
  button.dataset.probability = token.probability.toFixed(4);
  // The end of the answer is a mark, not the special token's text (`<|im_end|>`).
  if (token.finish === "eos") {
    button.classList.add("end-mark");
    button.textContent = t("answer-end-mark");
  }
  button.setAttribute("aria-describedby", "alternatives");
  button.setAttribute("aria-label", t("token-aria", { text: token.text || visible(token.token_text), step: token.index, probability: token.probability }));
  button.addEventListener("click", () => onSelect(token));
  for (const event of ["mouseenter", "focus"]) button.addEventListener(event, () => onLook(token, button));
  const breaks = Array.from(token.text.matchAll(/\n/g), () => {
    const br = document.createElement("br");
    br.dataset.step = String(token.index);
    return br;
  });
  return [button, ...breaks];
}

/** The tooltip of a generated token while its alternatives are asked for: at once, so that the
 * one on show is always the token in focus. */
export function showLooking(token, button) {
  const box = $("alternatives");
  box.replaceChildren(element("p", t("alternatives-looking", { step: token.index, token: visible(token.token_text) })));
  place(box, button);
}

/** The alternatives of a generated token, next to it: what hf and the literal port offered
 * there, and the token's probability under each, under the column it was drawn with, and under
 * the model's own softmax (what a branch lists). */
export function showAlternatives({ step, hf, literal, chosen }, token, button, semantics) {
  const box = $("alternatives");
  const rows = (title, list) => {
    const section = element("div", "", "alt-column");
    section.append(element("strong", title));
    for (const [id, p, text] of list) {
      const row = element("div", "", id === token.token ? "alt-row chosen" : "alt-row");
      row.append(element("code", visible(text)), element("span", p.toFixed(3)));
      section.append(row);
    }
    return section;
  };
  const head = element("p", t("alternatives-head", { step, token: visible(token.token_text), probability: token.probability, column: label(semantics) }));
  head.append(" ", element("span", t("alternatives-chosen", { hf: chosen.hf, literal: chosen.literal, model: chosen.model }), "alt-chosen"));
  box.replaceChildren(head, rows(label("hf"), hf), rows(label("literal"), literal));
  place(box, button);
}

/** Puts the tooltip under `button`, in the answer's box. */
function place(box, button) {
  const where = button.getBoundingClientRect();
  const host = $("completion").getBoundingClientRect();
  box.style.left = `${Math.max(0, where.left - host.left)}px`;
  box.style.top = `${where.bottom - host.top + 4}px`;
  box.hidden = false;
}

/** The tokens the answer can go on with at a selected step: the model's most probable (its raw
 * softmax, whatever the arguments kept), the drawn one left out. */
export function showBranchChoices({ step, model }, drawn) {
  const options = [];
  for (const [id, p, text] of model.filter(([id]) => id !== drawn)) {
    const option = element("option", t("branch-choice", { token: visible(text), p }));
    option.value = String(id);
    options.push(option);
  }
  $("branch-token").replaceChildren(...options);
  localize($("branch-form").querySelector("label"), "branch-label", { step });
  $("branch-form").dataset.step = String(step);
  $("branch-form").hidden = options.length === 0;
}

/** The branches left behind, each with a way back to it. */
export function showBranches(branches, onRestore) {
  const items = branches.map(({ fork, text, eos }, number) => {
    const button = element("button", t("branch-back"));
    button.type = "button";
    button.addEventListener("click", () => onRestore(number));
    const item = element("li", t("branch-from", { fork }));
    const quote = element("q", text.length > 80 ? `${text.slice(0, 80)}…` : text);
    if (eos && text.length <= 80) quote.append(element("span", t("answer-end-mark"), "end-mark"));
    item.append(quote, " ", button);
    return item;
  });
  $("branch-list").replaceChildren(...items);
  $("branches").hidden = items.length === 0;
}

/** Names the characters the generated byte tokens spell, for the tokens from step `from` on
 * (those just appended): the scan starts at the byte run they may continue, not at the answer's
 * start, so that each new token costs the length of its run. */
export function nameGeneratedBytes(from) {
  const tokens = [...$("completion").querySelectorAll("button")];
  let start = tokens.findIndex((el) => Number(el.dataset.step) >= from);
  if (start < 0) return;
  while (start > 0 && isByteToken(tokens[start - 1].dataset.tokenText ?? "")) start -= 1;
  nameByteRuns(tokens.slice(start).map((el) => ({ el, text: el.dataset.tokenText ?? "" })));
}

/** Puts a token's pieces where its step's are (an answer read again), or after the last. */
export function placeToken(pieces, index) {
  const old = [...$("completion").querySelectorAll(`[data-step="${index}"]`)];
  if (!old.length) return $("completion").append(...pieces);
  old[0].replaceWith(...pieces);
  for (const el of old.slice(1)) el.remove();
}

/** Shows a text in the tooltip under `button` (a shipped token's figures, before the model). */
export function showNote(text, button) {
  const box = $("alternatives");
  box.replaceChildren(element("p", text));
  place(box, button);
}

/** Drops the generated tokens from `fork` on (a branch replaces them). */
export function cutTokens(fork) {
  for (const button of [...$("completion").children]) {
    if (Number(button.dataset.step) >= fork) button.remove();
  }
}

export function hideAlternatives() {
  $("alternatives").hidden = true;
}

export function markSelected(index) {
  for (const b of $("completion").querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.step === String(index)));
  if (index !== null) takeTabStop($("completion").querySelector(`[data-step="${index}"]`));
}

/** The answer's one tab stop moves to `button`. */
function takeTabStop(button) {
  if (!button) return;
  for (const b of $("completion").querySelectorAll("button[tabindex='0']")) b.tabIndex = -1;
  button.tabIndex = 0;
}

/** The arrow keys, Home and End move through the answer's tokens (the Tab key leaves it). */
export function moveFocus(event) {
  const tokens = [...$("completion").querySelectorAll("button")];
  const at = tokens.indexOf(document.activeElement);
  const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: tokens.length - 1 }[event.key];
  if (to === undefined || at < 0 || !tokens[to]) return;
  event.preventDefault();
  takeTabStop(tokens[to]);
  tokens[to].focus();
}
