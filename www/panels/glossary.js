// What the page's names mean, on the first screen: each column as the core defines it (which
// library, which call, which version) and each figure; every column name in the figures table
// and the legend links to its entry and carries it as a tooltip.
import { columns } from "../state/columns.js";
import { $, element } from "./dom.js";

/** The figures and the other words a reader meets first. */
export const TERMS = {
  kept: ["kept", "Tokens a draw can land on: the size of the column's support."],
  tv: ["TV to hf", "Total variation distance to transformers' distribution, ½ Σ |p − p_hf|: the share of draws that would have to change for the two to agree."],
  maxdp: ["max |Δp|", "The largest difference between the column's probability of a token and transformers' (“agrees” means at most 1e-6)."],
  outside: ["mass outside hf", "The probability the column puts on tokens transformers never draws: the bars drawn in reddish purple."],
  entropy: ["entropy", "How spread the distribution is, in nats: 0 for one certain token, ln 49152 ≈ 10.8 for all tokens alike."],
  bytes: ["byte tokens ⟨E6⟩", "A token that is one byte of a UTF-8 character: SmolLM2 spells a Chinese character in two or three of them, so a chart ranks the first bytes of many characters."],
};

/** The glossary's entries: every column the core lists, then the terms. */
export function buildGlossary() {
  const entries = [
    ...columns().map((c) => [`term-${c.name}`, c.label, c.definition]),
    ...Object.entries(TERMS).map(([key, [name, text]]) => [`term-${key}`, name, text]),
  ];
  $("glossary-list").replaceChildren(...entries.flatMap(([id, name, text]) => {
    const dt = element("dt", name);
    dt.id = id;
    return [dt, element("dd", text)];
  }));
  // The figures table's headers name terms too.
  for (const th of document.querySelectorAll("th[data-term]")) {
    const [name, text] = TERMS[th.dataset.term];
    th.replaceChildren(termLink(th.dataset.term, name, text));
  }
}

/** A name that links to its glossary entry (opening the glossary) and shows it as a tooltip; in
 * an embed, which has no room for the glossary, to the entry on the full page, in a new tab. */
export function termLink(key, text, definition) {
  const link = element("a", text, "term");
  link.href = `#term-${key}`;
  link.title = definition;
  link.addEventListener("click", () => {
    if (!document.body.classList.contains("embed")) {
      $("glossary").open = true;
      return;
    }
    link.target = "_blank";
    link.rel = "noopener";
    link.href = new URL(`#term-${key}`, $("full-page").href).href;
  });
  return link;
}

/** The entry the page's address named as it opened (`#term-…`, as an embed's names send
 * readers), read before the page rewrites its address with its state. */
const linkedTerm = location.hash.startsWith("#term-") ? decodeURIComponent(location.hash.slice(1)) : null;

/** The linked glossary entry, opened and in view. */
export function openLinkedTerm() {
  if (!linkedTerm) return;
  const entry = document.getElementById(linkedTerm);
  if (!entry) return;
  $("glossary").open = true;
  entry.scrollIntoView({ block: "center" });
}

/** A column's name, linked to its definition. */
export const columnLink = (column, text = column.label) => termLink(column.name, text, column.definition);
