// Drawing what the worker sends: the prompt's tokens, the three panels, the generated tokens.
// Text only (textContent), never HTML: token text and prompts can contain markup.

import { drawCharts } from "./charts.js";

const TOP_ROWS = 12;
export const $ = (id) => document.getElementById(id);

/** Newlines and tabs drawn as symbols, so that a whitespace token is visible in a chip or a row. */
export const visible = (text) => text.replace(/\n/g, "↵").replace(/\t/g, "⇥");

export function showChips({ text, ids, tokens }) {
  $("context-count").textContent = String(ids.length);
  $("rendered").textContent = text;
  $("chips").replaceChildren(...ids.map((id, i) => {
    const chip = element("span", visible(tokens[i]), "chip");
    chip.append(element("small", String(id)));
    return chip;
  }));
}

export function showReport(report, options) {
  // Synthetic logits have no tokenizer: their tokens are shown by id only.
  report.tokens ??= {};
  for (const name of ["hf", "literal", "corrected"]) showPanel(name, report[name], report.compare[name], report.tokens, report.code);
  const implicit = report.effective.implicit.length ? ` · implicit: ${report.effective.implicit.join(", ")}` : "";
  $("effective").textContent = `effective: ${JSON.stringify(report.effective_params)}${implicit}`;
  const causes = report.causes.length ? report.causes.map((c) => element("li", c.text)) : [element("li", "The literal port samples from transformers' distribution for these settings.")];
  $("causes").replaceChildren(...causes);
  drawCharts(report, options);
}

function showPanel(name, entry, comparison, tokens, code) {
  $(`kept-${name}`).textContent = entry.error ? "error" : String(entry.kept);
  $(`entropy-${name}`).textContent = entry.entropy === null ? "–" : `${entry.entropy.toFixed(3)} nats`;
  if (name !== "hf") {
    $(`tv-${name}`).textContent = comparison ? comparison.tv.toFixed(4) : "–";
    $(`maxdp-${name}`).textContent = comparison ? comparison.max_abs_diff.toFixed(4) : "–";
    $(`outside-${name}`).textContent = comparison ? Math.abs(comparison.mass_outside_hf).toFixed(4) : "–";
  }
  $(`sampling-${name}`).textContent = entry.error ? entry.error : entry.sampling;
  if (name !== "hf") $(`code-${name}`).textContent = code?.[name] ?? "// transformers refuses these arguments: there is nothing to port.";
  $(`top-${name}`).replaceChildren(...entry.support.slice(0, TOP_ROWS).map(([id, p]) => {
    const tr = document.createElement("tr");
    tr.append(element("td", visible(tokens[id] ?? ""), "token"), element("td", String(id)), element("td", p.toFixed(5)));
    return tr;
  }));
}

/** Observed frequencies of both ports next to the exact probabilities of the report they were drawn for. */
export function showMonteCarlo(result, report) {
  for (const name of ["literal", "corrected"]) {
    const side = result[name];
    const exact = new Map(report?.[name]?.support ?? []);
    const tokens = report?.tokens ?? {};
    const set = (field, text) => { $(`mc-${field}-${name}`).textContent = text; };
    if (!side || side.error || side.draws === 0) {
      for (const field of ["draws", "distinct", "outside", "tv", "check"]) set(field, "–");
      set("check", side?.error ?? "not drawn");
      $(`mc-top-${name}`).replaceChildren();
      continue;
    }
    set("draws", side.draws.toLocaleString("en"));
    set("distinct", String(side.distinct));
    set("outside", `${(100 * side.outside_hf).toFixed(2)} %`);
    set("tv", `${side.tv_to_exact.toFixed(4)} (${side.bound.toFixed(4)})`);
    set("check", side.consistent ? "consistent" : "inconsistent");
    $(`mc-top-${name}`).replaceChildren(...side.frequencies.slice(0, TOP_ROWS).map(([id, count]) => {
      const tr = document.createElement("tr");
      tr.append(element("td", visible(tokens[id] ?? ""), "token"), element("td", String(id)),
        element("td", (count / side.draws).toFixed(5)), element("td", (exact.get(id) ?? 0).toFixed(5)));
      return tr;
    }));
  }
}

/** A generated token as a button that selects its step. */
export function tokenButton(token, onSelect) {
  // A character split over several tokens appears with its last token; the others stay empty.
  const button = element("button", token.text);
  button.type = "button";
  button.title = `step ${token.index} · id ${token.token} · ${JSON.stringify(token.token_text)}`;
  button.dataset.step = String(token.index);
  button.dataset.token = String(token.token);
  button.addEventListener("click", () => onSelect(token));
  return button;
}

export function markSelected(index) {
  for (const b of $("completion").querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.step === String(index)));
}

export function element(tag, text, className) {
  const el = document.createElement(tag);
  el.textContent = text;
  if (className) el.className = className;
  return el;
}
