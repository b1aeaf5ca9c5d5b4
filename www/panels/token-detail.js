// The token picked on a chart: what it is (a byte of which character, where it is one), and its
// probability and rank under every column, as the report lists them (most probable first).
import { columns } from "../state/columns.js";
import { $, element } from "./dom.js";
import { columnLink } from "./glossary.js";
import { page } from "../state/store.js";
import { byteNote, visible } from "./token-text.js";

/** Shows token `id` of the report on screen (null hides the box). */
export function showTokenDetail(id) {
  page.pickedToken = id;
  const box = $("token-detail");
  const report = page.lastReport;
  box.hidden = id === null || !report;
  if (box.hidden) return;
  const text = report.tokens[id] ?? "";
  const close = element("button", "Close");
  close.type = "button";
  close.addEventListener("click", () => showTokenDetail(null));
  const head = element("p", "", "token-detail-head");
  head.append(element("strong", `${visible(text) || "token"} #${id}`), " ", close);
  const rows = columns().map((column) => {
    const support = report[column.name].support;
    const rank = support.findIndex(([token]) => token === id);
    const tr = element("tr", "");
    const name = element("th", "");
    name.scope = "row";
    name.append(columnLink(column));
    tr.append(name,
      element("td", rank < 0 ? "0" : support[rank][1].toPrecision(4)),
      element("td", rank < 0 ? (report[column.name].error ? "refused" : "not kept") : `${rank + 1} of ${support.length}`));
    return tr;
  });
  const table = element("table", "");
  const caption = element("caption", "Its probability and rank under each column");
  const header = element("tr", "");
  header.append(element("th", "column"), element("th", "p"), element("th", "rank"));
  const thead = element("thead", "");
  thead.append(header);
  const body = element("tbody", "");
  body.append(...rows);
  table.append(caption, thead, body);
  const note = byteNote(text);
  box.replaceChildren(head, ...(note ? [element("p", note, "muted")] : []), table);
}
