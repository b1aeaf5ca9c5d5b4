// Drawing what the worker sends: the prompt's tokens, the finding, the causes, the compared
// columns' table, the panels and the figures of every column, and the temperature table. Text
// only (textContent), never HTML: token text and prompts can contain markup.

import { columns, label } from "../state/columns.js";
import { listOf, t } from "../l10n/l10n.js";
import { drawPanels } from "./charts.js";
import { drawCompareTable } from "./compare-table.js";
import { drawMassBars } from "./mass-bars.js";
import { monteCarloSide } from "./montecarlo-side.js";
import { nameByteRuns, tokenLabel, visible } from "./token-text.js";

export { $, element, row } from "./dom.js";
import { $, details, element, row, tableOf } from "./dom.js";
import { columnLink, termLink } from "./glossary.js";

export const TOP_ROWS = 12;

/** The page's structure for every column the core lists: figure rows, panels, Monte Carlo sides,
 * the semantics menus, the panels' PNG exports. Built again when the language changes. */
export function buildColumns() {
  $("figures").replaceChildren(...columns().map(figureRow));
  $("panels").replaceChildren(...columns().map(panel));
  $("mc-results").replaceChildren(...columns().filter((c) => c.draws).map(monteCarloSide));
  const drawing = columns().filter((c) => c.draws).map((c) => c.label);
  $("mc-title").textContent = t("mc-title", { columns: listOf(drawing) });
  for (const id of ["semantics", "spec-semantics"]) semanticsMenu($(id));
  $("png-exports").replaceChildren(...columns().map((c) => {
    const button = element("button", t("export-png", { chart: c.short }));
    button.type = "button";
    button.dataset.export = c.name;
    return button;
  }));
}

function figureRow(column) {
  const { name, colour } = column;
  const row = document.createElement("tr");
  row.dataset.column = name;
  const head = element("th", "", "column-name");
  head.scope = "row";
  head.append(swatch(colour), columnLink(column));
  row.append(head);
  for (const field of ["kept", "tv", "maxdp", "outside", "entropy"]) {
    const cell = element("td", "–");
    cell.id = `${field}-${name}`;
    cell.dataset.testid = `${field}-${name}`;
    row.append(cell);
  }
  return row;
}

/** A menu of the columns to generate or speculate under; keeps its choice when rebuilt. */
function semanticsMenu(select) {
  const chosen = select.value || select.dataset.default;
  select.replaceChildren(...columns().map(({ name, short }) => {
    const option = element("option", short);
    option.value = name;
    return option;
  }));
  select.value = chosen;
}

function panel({ name, colour, code }) {
  const article = element("article", "", "panel");
  article.id = `panel-${name}`;
  article.dataset.column = name;
  article.style.borderTopColor = colour;
  const title = element("h3", label(name));
  title.id = `title-${name}`;
  const sampling = element("p", "", "sampling");
  sampling.id = `sampling-${name}`;
  const box = element("div", "", "chart");
  const canvas = document.createElement("canvas");
  canvas.id = `chart-${name}`;
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", t("chart-empty", { column: label(name) }));
  box.append(canvas);
  const table = details(t("panel-table"), tableOf([t("table-token"), t("table-id"), "p"], `top-${name}`));
  article.append(title, sampling, box, table);
  if (code) {
    const copy = element("button", t("copy-code"));
    copy.type = "button";
    copy.dataset.copy = `code-${name}`;
    const pre = document.createElement("pre");
    const codeEl = element("code", "");
    codeEl.id = `code-${name}`;
    codeEl.dataset.testid = `code-${name}`;
    pre.append(codeEl);
    const box2 = details(t("panel-code", { language: code }), copy, pre);
    box2.className = "code";
    article.append(box2);
  }
  return article;
}

/** Shows the chosen view: the compared columns' table, or a panel per column. */
export function showView(view) {
  $("compare-box").hidden = view !== "compare";
  $("panels").hidden = view !== "panels";
  $("png-exports").hidden = view !== "panels";
}

export function showChips({ text, ids, tokens }) {
  $("tokens-box").querySelector("summary").dataset.l10nArgs = JSON.stringify({ count: ids.length });
  $("tokens-box").querySelector("summary").textContent = t("tokens-summary", { count: ids.length });
  $("rendered").textContent = text;
  const chips = ids.map((id, i) => {
    const chip = element("span", visible(tokens[i]), "chip");
    chip.append(element("small", String(id)));
    return chip;
  });
  $("chips").replaceChildren(...chips);
  nameByteRuns(chips.map((el, i) => ({ el, text: tokens[i] })));
}

/** Everything the report says, drawn: `options` are the comparison, the scale, the completions
 * of byte tokens and what to do when the reader picks another column to compare. */
export function showReport(report, options) {
  $("finding").textContent = report.finding.text;
  $("reference-note").hidden = !report.write_up;
  $("reference-note").textContent = report.write_up?.text ?? "";
  if (report.write_up) $("reference-note").append(" ", writeUpLink());
  $("call-code").textContent = report.call;
  for (const { name } of columns()) showColumn(name, report, options.completions);
  // The compared columns' causes first: the finding speaks of them.
  const first = (c) => (options.compared.includes(c.column) ? 0 : 1);
  const causes = report.causes.length
    ? [...report.causes].sort((a, b) => first(a) - first(b)).map((c) => {
      const li = element("li", "");
      li.dataset.rule = c.rule;
      li.dataset.column = c.column;
      li.append(element("strong", t("cause-lead", { column: label(c.column) })), document.createTextNode(c.text));
      return li;
    })
    : [element("li", t("causes-none"))];
  showCauses(causes);
  const implicit = report.effective.implicit.length ? t("effective-implicit", { implicit: report.effective.implicit.join(", ") }) : "";
  $("effective").textContent = `${t("effective", { values: JSON.stringify(report.effective_params) })}${implicit}`;
  showThresholds(report);
  drawMassBars(report, options.compared);
  drawCompareTable(report, options);
  drawLegend(report, options.compared);
  if (options.view === "panels") drawPanels(report, options);
}

/** The write-up's weights, a click away: the Hub's original checkpoint in the model field. */
function writeUpLink() {
  const button = element("button", t("write-up-load"), "link-button");
  button.type = "button";
  button.dataset.testid = "write-up-load";
  button.addEventListener("click", () => {
    $("model-box").open = true;
    $("hub-repo").value = "HuggingFaceTB/SmolLM2-135M-Instruct";
    $("hub-repo").focus();
  });
  return button;
}

/** The legend: what the table's marks mean, those on screen only. */
function drawLegend(report, compared) {
  const outside = compared.some((n) => report.compare[n]?.only_port.count);
  const items = [legendItem("legend-bar", "bar"), legendItem("legend-cut", "cut-mark")];
  if (outside) items.push(legendItem("legend-outside", "bar outside", termLink("outside", t("term-outside"), t("term-outside-definition"))));
  $("chart-legend").replaceChildren(...items);
}

function legendItem(id, markClass, extra) {
  const item = element("li", "");
  const mark = element("span", markClass === "cut-mark" ? "–" : "", `legend-mark ${markClass}`);
  mark.setAttribute("aria-hidden", "true");
  item.append(mark, t(id));
  if (extra) item.append(" ", extra);
  return item;
}

/** How many causes the first screen shows before "N more": two keep the table in view at
 * 1280 × 800, one in a 600 px embed or on a phone (whose finding already names the comparison);
 * whole causes, never one cut mid-sentence. The causes of the compared columns come first. */
const causesAtFirst = () => (document.body.classList.contains("embed") || matchMedia("(max-width: 52rem)").matches ? 1 : 2);
let causesOpen = false;

function showCauses(items) {
  const list = $("causes");
  const extra = items.length - causesAtFirst();
  list.classList.toggle("open", causesOpen && extra > 0);
  if (extra <= 0) return list.replaceChildren(...items);
  items.slice(causesAtFirst()).forEach((li) => { li.hidden = !causesOpen; });
  const toggle = element("button", causesOpen ? t("causes-fewer") : t("causes-more", { count: extra }), "link-button");
  toggle.type = "button";
  toggle.setAttribute("aria-expanded", String(causesOpen));
  toggle.addEventListener("click", () => {
    causesOpen = !causesOpen;
    showCauses(items.filter((li) => !li.classList.contains("more-causes")));
    // The focus stays on the toggle; the reader's eye goes to the first cause it opened, at the
    // top of the list's own scroll (an embed's causes scroll in a few lines' room).
    list.querySelector("button.link-button")?.focus({ preventScroll: true });
    const first = items[causesAtFirst()];
    if (causesOpen && first) list.scrollTop += first.getBoundingClientRect().top - list.getBoundingClientRect().top;
  });
  const more = element("li", "", "more-causes");
  more.append(toggle);
  list.replaceChildren(...items, more);
}

function showColumn(name, report, completions) {
  const entry = report[name];
  const comparison = report.compare[name];
  const set = (field, text) => { $(`${field}-${name}`).textContent = text; };
  const number = (x, digits) => x.toLocaleString(document.documentElement.lang, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  set("kept", entry.error ? t("figures-error") : entry.kept.toLocaleString(document.documentElement.lang));
  set("entropy", entry.entropy === null ? "–" : t("entropy-nats", { value: number(entry.entropy, 3) }));
  set("tv", comparison ? number(comparison.tv, 4) : "–");
  set("maxdp", comparison ? number(comparison.max_abs_diff, 4) : "–");
  set("outside", comparison ? number(Math.abs(comparison.mass_outside_hf), 4) : "–");
  $(`title-${name}`).textContent = label(name);
  $(`sampling-${name}`).textContent = entry.error ?? entry.sampling;
  const code = $(`code-${name}`);
  if (code) code.textContent = report.code?.[name] ?? t("code-refused");
  $(`top-${name}`).replaceChildren(...entry.support.slice(0, TOP_ROWS).map(([id, p]) => {
    const token = element("td", "", "token");
    token.append(tokenLabel(id, report.tokens[id] ?? "", completions.get(id)));
    return row(token, element("td", String(id)), element("td", p.toFixed(5)));
  }));
}

function showThresholds(report) {
  const temperature = JSON.stringify(report.effective_params.temperature ?? null);
  $("thresholds-title").dataset.l10nArgs = JSON.stringify({ temperature });
  $("thresholds-title").textContent = t("thresholds-title", { temperature });
  $("thresholds").replaceChildren(...report.greedy_thresholds.map((row_) => {
    const tr = row(breakable("th", row_.system), element("td", t(`behaviour-${row_.behaviour}`), `behaviour ${row_.behaviour}`), breakable("td", row_.detail.text));
    tr.firstChild.scope = "row";
    // The runtime's call, as its code spells it.
    tr.firstChild.translate = false;
    return tr;
  }));
}

/** Text with code in it that may wrap after `(`, `,`, `::` and `{` but never inside a name. */
function breakable(tag, text) {
  const el = element(tag, "");
  for (const part of text.split(/(?<=[(,{]|::)/)) el.append(part, document.createElement("wbr"));
  return el;
}

export function swatch(colour) {
  const s = element("span", "", "swatch");
  s.style.background = colour;
  s.setAttribute("aria-hidden", "true");
  return s;
}
