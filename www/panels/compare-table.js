// The page's picture: one table of the step's most probable tokens (rows) under every column
// (columns), each cell that column's probability of the token. transformers (hf) and the columns
// compared with it — the literal and the corrected candle port unless the reader picks others —
// stand first and wide, each cell a bar in the column's colour and its number; every other column
// stands narrow after them, each cell shaded by its probability. A token a column cuts is an empty
// cell; a token it keeps and transformers never draws is hatched. The header says what each column
// keeps and how far it is from transformers; the footer what it keeps beyond transformers and what
// it cuts of transformers' — every figure the core's. A click on a column's name compares it; a
// click on a token opens, under its row, its probability and rank under every column.
import { column, columns, label } from "../state/columns.js";
import { language, listOf, t } from "../l10n/l10n.js";
import { element } from "./dom.js";
import { columnLink } from "./glossary.js";
import { tokenLabel, tokenNote } from "./token-text.js";

/** Rows at most: what a scroll of the table shows past the first screen. */
const ROWS = 40;

/** The tokens to show: the most probable under transformers or a compared column, most probable
 * first (ties by id), as many as `ROWS`. */
export function rowsOf(report, charted) {
  const best = new Map();
  for (const name of charted) {
    for (const [id, p] of report[name].support.slice(0, ROWS)) best.set(id, Math.max(best.get(id) ?? 0, p));
  }
  return [...best.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, ROWS).map(([id]) => id);
}

/** The columns in the table's order: hf, the compared ones, then the rest (the registry's order
 * within each group). */
function ordered(compared) {
  const all = columns();
  const wide = all.filter((c) => c.name === "hf" || compared.includes(c.name));
  return { wide, narrow: all.filter((c) => !wide.includes(c)) };
}

const fixed = (digits) => new Intl.NumberFormat(language(), { minimumFractionDigits: digits, maximumFractionDigits: digits });
const compact = () => new Intl.NumberFormat(language(), { notation: "compact", maximumSignificantDigits: 2 });

/** A probability as a cell reads it: three decimals, `<0.001` for a kept token below that; in
 * a narrow cell without the leading zero (`.115`). */
function probabilityText(p, narrow = false) {
  const text = p > 0 && p < 0.0005 ? `<${fixed(3).format(0.001)}` : fixed(3).format(p);
  return narrow && p < 1 ? text.replace(/^(<?)0(?=\D)/, "$1") : text;
}

/** Draws the table for `report`, comparing `compared` with hf: `log` draws bars on a log scale,
 * `completions` names byte tokens, `picked` is the token whose detail row is open; `onPick(id)`
 * opens or closes a token's, `onCompare(name)` toggles a column's comparison. */
export function drawCompareTable(report, { compared, log, completions, picked, onPick, onCompare }) {
  const table = document.getElementById("compare-table");
  const { wide, narrow } = ordered(compared);
  const shown = [...wide, ...narrow];
  const rows = rowsOf(report, wide.map((c) => c.name));
  const supports = Object.fromEntries(shown.map((c) => [c.name, new Map(report[c.name].support)]));
  const hf = supports.hf;
  const hfRefuses = Boolean(report.hf.error);
  const top = Math.max(1e-9, ...shown.flatMap((c) => rows.map((id) => supports[c.name].get(id) ?? 0)));
  const length = (p) => (log ? Math.max(0, (Math.log10(Math.max(p, 1e-4)) + 4) / 4) * (Math.log10(top) + 4 > 0 ? 4 / (Math.log10(top) + 4) : 1) : p / top);

  const head = element("thead");
  const names = element("tr", "", "names");
  names.append(corner(t("table-token")));
  for (const c of shown) names.append(columnHead(c, wide.includes(c), onCompare));
  // A narrow column says its figures short: 49K kept, a distance without its leading zero.
  const keptText = (c, narrow) => (report[c.name].error ? t("figures-error") : (narrow ? compact() : fixed(0)).format(report[c.name].kept));
  const tvText = (c, narrow) => {
    if (!report.compare[c.name]) return "–";
    const text = fixed(3).format(report.compare[c.name].tv);
    return narrow ? text.replace(/^0(?=\D)/, "") : text;
  };
  const kept = figureRow(t("figure-kept"), shown, wide, keptText, "kept");
  const tv = figureRow(t("figure-tv"), shown, wide, tvText, "tv");
  head.append(names, kept, tv);

  const body = element("tbody");
  let opened = null;
  for (const [index, id] of rows.entries()) {
    const tr = element("tr", "", "token-row");
    tr.dataset.token = String(id);
    const text = report.tokens[id] ?? "";
    const th = element("th", "", "token");
    th.scope = "row";
    const button = element("button", "", "token-button");
    button.type = "button";
    button.setAttribute("aria-expanded", String(picked === id));
    // One tab stop for the tokens: the arrow keys move between them (moveFocus).
    button.tabIndex = index === Math.min(focusedRow, rows.length - 1) ? 0 : -1;
    button.dataset.row = String(index);
    button.append(tokenLabel(id, text, completions.get(id)));
    button.addEventListener("click", () => {
      focusedRow = index;
      onPick(picked === id ? null : id);
    });
    th.append(button);
    tr.append(th);
    // The whole row opens the detail, as its token's name does (the name stays the focusable control).
    tr.addEventListener("click", (event) => {
      if (!event.target.closest("button, a")) button.click();
    });
    for (const c of shown) {
      const p = supports[c.name].get(id) ?? 0;
      const outside = !hfRefuses && c.name !== "hf" && p > 0 && !hf.has(id);
      tr.append(wide.includes(c) ? barCell(c, p, length(p), outside) : shadeCell(c, p, p / top, outside));
    }
    body.append(tr);
    if (picked === id) {
      const detail = element("tr", "", "detail-row");
      const td = tokenDetail(report, id, completions.get(id));
      td.colSpan = shown.length + 1;
      detail.append(td);
      body.append(detail);
      opened = detail;
    }
  }

  const foot = element("tfoot");
  foot.append(
    figureRow(t("figure-only-here"), shown, wide, (c, narrow) => onlyHere(report.compare[c.name], narrow), "only-here"),
    figureRow(t("figure-cut-here"), shown, wide, (c, narrow) => cutHere(report.compare[c.name], narrow), "cut-here"),
  );
  // A redrawing (a row opened, another column compared) keeps the keyboard where it was.
  const hadFocus = table.contains(document.activeElement) && document.activeElement.classList.contains("token-button");
  table.replaceChildren(head, body, foot);
  table.onkeydown = moveFocus;
  if (hadFocus) table.querySelector('button.token-button[tabindex="0"]')?.focus();
  // The sticky figure rows sit under the names' row and each other, however tall the upright
  // names and the language's font make them (an offset past a row's own place would cover the
  // first token).
  // (A table drawn while hidden keeps the offsets it had.)
  const [namesHeight, keptHeight] = [names, kept].map((row) => row.getBoundingClientRect().height);
  if (namesHeight > 0) table.style.setProperty("--names-height", `${namesHeight}px`);
  if (keptHeight > 0) table.style.setProperty("--kept-height", `${keptHeight}px`);
  table.dataset.rows = String(rows.length);
  // An opened detail shows whole in the box, below the sticky head, not under it.
  opened?.scrollIntoView({ block: "nearest" });
  table.dataset.compared = compared.join(",");
  table.setAttribute("aria-label", t("compare-table-label", { columns: listOf(wide.map((c) => label(c.name))) }));
}

/** The row whose token button holds the table's one tab stop. */
let focusedRow = 0;

/** Up, down, Home and End move between the tokens' buttons (Tab leaves the table). */
function moveFocus(event) {
  const buttons = [...event.currentTarget.querySelectorAll("button.token-button")];
  const at = buttons.indexOf(document.activeElement);
  const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: buttons.length - 1 }[event.key];
  if (at < 0 || to === undefined || !buttons[to]) return;
  event.preventDefault();
  buttons[at].tabIndex = -1;
  buttons[to].tabIndex = 0;
  focusedRow = to;
  buttons[to].focus();
}

function corner(text) {
  const th = element("th", text, "token-head");
  th.scope = "col";
  return th;
}

/** A column's name: a button that compares it with hf (or stops comparing it); hf's is its name. */
function columnHead(c, isWide, onCompare) {
  const th = element("th", "", isWide ? "column-head wide" : "column-head narrow");
  th.scope = "col";
  th.dataset.column = c.name;
  const swatch = element("span", "", "swatch");
  swatch.style.background = c.colour;
  if (c.name === "hf") {
    th.append(swatch, columnLink(c, c.short));
    return th;
  }
  const button = element("button", "", "compare-toggle");
  button.type = "button";
  button.setAttribute("aria-pressed", String(isWide));
  button.title = t(isWide ? "compare-stop" : "compare-start", { column: c.label });
  button.append(swatch, element("span", c.short, "column-short"));
  button.addEventListener("click", () => onCompare(c.name));
  th.append(button);
  return th;
}

function figureRow(title, shown, wide, value, kind) {
  const tr = element("tr", "", `figure-row ${kind}`);
  const th = element("th", title, "figure-name");
  th.scope = "row";
  tr.append(th);
  for (const c of shown) {
    const narrow = !wide.includes(c);
    const td = element("td", value(c, narrow), narrow ? "figure narrow" : "figure wide");
    td.dataset.column = c.name;
    tr.append(td);
  }
  return tr;
}

/** Tokens the column keeps that transformers never draws, and their mass: `+16 · 0.079` (a
 * narrow column's count alone, short: `+49K`). */
function onlyHere(comparison, narrow) {
  if (!comparison || !comparison.only_port.count) return comparison ? "0" : "–";
  const count = (narrow ? compact() : fixed(0)).format(comparison.only_port.count);
  return narrow ? t("only-here-short", { count }) : t("only-here", { count, mass: fixed(3).format(comparison.mass_outside_hf) });
}

/** Tokens transformers keeps that the column cuts: `−12`. */
function cutHere(comparison, narrow) {
  if (!comparison) return "–";
  return comparison.only_hf.count ? t("cut-here", { count: (narrow ? compact() : fixed(0)).format(comparison.only_hf.count) }) : "0";
}

/** A compared column's cell: a bar as long as the probability (the column's colour, hatched where
 * transformers never draws the token) and its number; empty where the column cuts the token. */
function barCell(c, p, fraction, outside) {
  const td = element("td", "", p > 0 ? "cell wide" : "cell wide cut");
  td.dataset.column = c.name;
  if (p <= 0) {
    td.append(element("span", "–", "cut-mark"));
    td.title = t("cell-cut", { column: c.label });
    return td;
  }
  const track = element("span", "", "track");
  const bar = element("span", "", outside ? "bar outside" : "bar");
  bar.style.setProperty("--colour", c.colour);
  bar.style.width = `${Math.max(2, Math.round(fraction * 1000) / 10)}%`;
  track.append(bar);
  td.append(track, element("span", probabilityText(p), "p"));
  if (outside) td.title = t("cell-outside", { column: c.label });
  return td;
}

/** Another column's cell: its number on a shade of its colour as strong as the probability. */
function shadeCell(c, p, fraction, outside) {
  const td = element("td", p > 0 ? probabilityText(p, true) : "", p > 0 ? (outside ? "cell narrow outside" : "cell narrow") : "cell narrow cut");
  if (p > 0) td.title = t("cell-probability", { column: c.label, p: probabilityText(p) });
  td.dataset.column = c.name;
  if (p > 0) td.style.setProperty("--shade", `color-mix(in srgb, ${c.colour} ${Math.round(6 + 34 * fraction)}%, transparent)`);
  td.style.setProperty("--colour", c.colour);
  return td;
}

/** What a token is, and its probability and rank under every column: under its row of the
 * table, or under the panels. */
export function tokenDetail(report, id, completion, tag = "td") {
  const td = element(tag, "", "token-detail");
  td.dataset.testid = "token-detail";
  const text = report.tokens[id] ?? "";
  const note = tokenNote(text, completion);
  if (note) td.append(element("p", note, "muted"));
  const list = element("ul", "", "ranks");
  for (const c of columns()) {
    const support = report[c.name].support;
    const rank = support.findIndex(([token]) => token === id);
    const item = element("li");
    const swatch = element("span", "", "swatch");
    swatch.style.background = column(c.name).colour;
    const where = rank < 0
      ? t(report[c.name].error ? "rank-refused" : "rank-not-kept")
      : t("rank-of", { p: support[rank][1].toPrecision(4), rank: rank + 1, kept: support.length });
    item.append(swatch, columnLink(c, c.short), ` ${where}`);
    list.append(item);
  }
  td.append(list);
  return td;
}
