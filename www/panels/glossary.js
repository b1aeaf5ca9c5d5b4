// What the page's names mean, on the first screen: each column as the core defines it (which
// library, which call, which version) and each figure; every column name in the figures table
// and the legend links to its entry and carries it as a tooltip.
import { columns } from "../state/columns.js";
import { t } from "../l10n/l10n.js";
import { $, element } from "./dom.js";

/** The figures and the other words a reader meets first: each a catalog term (`term-<key>`) and
 * its definition (`term-<key>-definition`). */
export const TERMS = ["kept", "tv", "maxdp", "outside", "entropy", "bytes"];

/** The glossary's entries: every column the core lists, then the terms. */
export function buildGlossary() {
  const entries = [
    ...columns().map((c) => [`term-${c.name}`, c.label, c.definition]),
    ...TERMS.map((key) => [`term-${key}`, t(`term-${key}`), t(`term-${key}-definition`)]),
  ];
  $("glossary-list").replaceChildren(...entries.flatMap(([id, name, text]) => {
    const dt = element("dt", name);
    dt.id = id;
    return [dt, element("dd", text)];
  }));
  // The figures table's headers name terms too.
  for (const th of document.querySelectorAll("th[data-term]")) {
    th.replaceChildren(termLink(th.dataset.term, t(`term-${th.dataset.term}`), t(`term-${th.dataset.term}-definition`)));
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
