// Drawing what the worker sends: the prompt's tokens, the figures and panels of every column,
// the causes, the temperature table, Monte Carlo and the generated tokens. Text only
// (textContent), never HTML: token text and prompts can contain markup.

import { columns, label } from "../state/columns.js";
import { drawCharts } from "./charts.js";
import { nameByteRuns, visible } from "./token-text.js";

export { $, element } from "./dom.js";
import { $, element } from "./dom.js";
import { columnLink } from "./glossary.js";

export const TOP_ROWS = 12;

/** The page's structure for every column the core lists: figure rows, panels, toggles, Monte
 * Carlo sides, the semantics menus. */
export function buildColumns(onToggle) {
  $("figures").replaceChildren(...columns().map(figureRow));
  $("panels").replaceChildren(...columns().map(panel));
  $("column-toggles").replaceChildren(...columns().map((c) => toggle(c, onToggle)));
  $("mc-results").replaceChildren(...columns().filter((c) => c.draws).map(monteCarloSide));
  const drawing = columns().filter((c) => c.draws).map((c) => c.label);
  $("mc-title").textContent = `Monte Carlo: real draws of ${drawing.slice(0, -1).join(", ")} and ${drawing.at(-1)}, each with its own generator`;
  for (const id of ["semantics", "spec-semantics"]) semanticsMenu($(id));
  // A chart exports as PNG in the view that draws it.
  $("png-exports").replaceChildren(...["overlay", ...columns().map((c) => c.name)].map((name) => {
    const button = element("button", `${name} chart PNG`);
    button.type = "button";
    button.dataset.export = name;
    button.dataset.view = name === "overlay" ? "overlay" : "panels";
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
  canvas.setAttribute("aria-label", `${label(name)}: no distribution yet`);
  box.append(canvas);
  const table = details("Top tokens as a table", tableOf(["token", "id", "p"], `top-${name}`));
  article.append(title, sampling, box, table);
  if (code) {
    const copy = element("button", "Copy code");
    copy.type = "button";
    copy.dataset.copy = `code-${name}`;
    const pre = document.createElement("pre");
    const codeEl = element("code", "");
    codeEl.id = `code-${name}`;
    codeEl.dataset.testid = `code-${name}`;
    pre.append(codeEl);
    const box2 = details(`${code} code of this port`, copy, pre);
    box2.className = "code";
    article.append(box2);
  }
  return article;
}

function toggle({ name, short }, onToggle) {
  const input = document.createElement("input");
  input.type = "checkbox";
  input.checked = true;
  input.id = `show-${name}`;
  input.dataset.column = name;
  input.addEventListener("change", onToggle);
  const wrap = element("label", "", "inline");
  wrap.htmlFor = input.id;
  wrap.append(input, element("span", short));
  return wrap;
}

function monteCarloSide({ name, colour }) {
  const article = element("article", "", "mc-side");
  article.id = `mc-${name}`;
  article.style.borderTopColor = colour;
  const figures = element("dl", "", "figures");
  for (const [field, text] of [["draws", "draws"], ["distinct", "distinct tokens"], ["outside", "outside hf support"], ["tv", "TV to exact (bound)"], ["check", "check"]]) {
    const dd = element("dd", "–");
    dd.id = `mc-${field}-${name}`;
    dd.dataset.testid = dd.id;
    const div = document.createElement("div");
    div.append(element("dt", text), dd);
    figures.append(div);
  }
  const box = element("div", "", "chart small-chart");
  box.id = `mc-chart-box-${name}`;
  box.hidden = true;
  const canvas = document.createElement("canvas");
  canvas.id = `mc-chart-${name}`;
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", `${label(name)}: not drawn`);
  box.append(canvas);
  const table = details("The draws as a table", tableOf(["token", "id", "drawn", "exact p"], `mc-top-${name}`));
  article.append(element("h3", label(name)), figures, box, table);
  return article;
}

/** Shows the chosen view and columns and hides the others, everywhere they appear. */
export function showView(view, shown) {
  $("overlay-box").hidden = view !== "overlay";
  $("panels").hidden = view !== "panels";
  for (const button of $("png-exports").children) button.hidden = button.dataset.view !== view;
  showColumns(shown);
}

function showColumns(shown) {
  for (const el of document.querySelectorAll("[data-column]")) {
    if (el.tagName !== "INPUT") el.hidden = !shown.includes(el.dataset.column);
  }
  for (const { name } of columns()) $(`show-${name}`).checked = shown.includes(name);
}

export function showChips({ text, ids, tokens }) {
  $("context-count").textContent = String(ids.length);
  $("rendered").textContent = text;
  const chips = ids.map((id, i) => {
    const chip = element("span", visible(tokens[i]), "chip");
    chip.append(element("small", String(id)));
    return chip;
  });
  $("chips").replaceChildren(...chips);
  nameByteRuns(chips.map((el, i) => ({ el, text: tokens[i] })));
}

export function showReport(report, options) {
  $("finding").textContent = report.finding;
  $("call-code").textContent = report.call;
  for (const { name } of columns()) showColumn(name, report);
  const causes = report.causes.length
    ? report.causes.map((c) => {
      const li = element("li", "");
      li.dataset.rule = c.rule;
      li.append(element("strong", `${label(c.column)}: `), document.createTextNode(c.text));
      return li;
    })
    : [element("li", "Every column samples from transformers' distribution for these settings.")];
  showCauses(causes);
  const implicit = report.effective.implicit.length ? ` · implicit: ${report.effective.implicit.join(", ")}` : "";
  $("effective").textContent = `effective: ${JSON.stringify(report.effective_params)}${implicit}`;
  showThresholds(report);
  drawCharts(report, options);
}

/** How many causes the first screen shows before "N more": two keep the chart in view at
 * 1280 × 800, one in a 600 px embed (whose finding already names the largest departure); whole
 * causes, never one cut mid-sentence. */
const causesAtFirst = () => (document.body.classList.contains("embed") ? 1 : 2);
let causesOpen = false;

function showCauses(items) {
  const list = $("causes");
  const extra = items.length - causesAtFirst();
  list.classList.toggle("open", causesOpen && extra > 0);
  if (extra <= 0) return list.replaceChildren(...items);
  items.slice(causesAtFirst()).forEach((li) => { li.hidden = !causesOpen; });
  const toggle = element("button", causesOpen ? "Show fewer" : `Show ${extra} more ${extra === 1 ? "cause" : "causes"}`, "link-button");
  toggle.type = "button";
  toggle.setAttribute("aria-expanded", String(causesOpen));
  toggle.addEventListener("click", () => {
    causesOpen = !causesOpen;
    showCauses(items.filter((li) => !li.classList.contains("more-causes")));
    list.querySelector("button.link-button")?.focus();
  });
  const more = element("li", "", "more-causes");
  more.append(toggle);
  list.replaceChildren(...items, more);
}

function showColumn(name, report) {
  const entry = report[name];
  const comparison = report.compare[name];
  const set = (field, text) => { $(`${field}-${name}`).textContent = text; };
  set("kept", entry.error ? "error" : String(entry.kept));
  set("entropy", entry.entropy === null ? "–" : `${entry.entropy.toFixed(3)} nats`);
  set("tv", comparison ? comparison.tv.toFixed(4) : "–");
  set("maxdp", comparison ? comparison.max_abs_diff.toFixed(4) : "–");
  set("outside", comparison ? Math.abs(comparison.mass_outside_hf).toFixed(4) : "–");
  $(`title-${name}`).textContent = label(name);
  $(`sampling-${name}`).textContent = entry.error ?? entry.sampling;
  const code = $(`code-${name}`);
  if (code) code.textContent = report.code?.[name] ?? "// the call is refused: there is nothing to port.";
  $(`top-${name}`).replaceChildren(...entry.support.slice(0, TOP_ROWS).map(([id, p]) => row(
    element("td", visible(report.tokens[id] ?? ""), "token"), element("td", String(id)), element("td", p.toFixed(5)))));
}

function showThresholds(report) {
  $("threshold-t").textContent = JSON.stringify(report.effective_params.temperature ?? null);
  $("thresholds").replaceChildren(...report.greedy_thresholds.map((t) => {
    const tr = row(breakable("th", t.system), element("td", t.behaviour, `behaviour ${t.behaviour}`), element("td", t.detail));
    tr.firstChild.scope = "row";
    return tr;
  }));
}

/** Code-like text that may wrap after `(`, `,`, `::` and `{` but never inside a name. */
function breakable(tag, text) {
  const el = element(tag, "");
  for (const part of text.split(/(?<=[(,{]|::)/)) el.append(part, document.createElement("wbr"));
  return el;
}

function swatch(colour) {
  const s = element("span", "", "swatch");
  s.style.background = colour;
  s.setAttribute("aria-hidden", "true");
  return s;
}

export function row(...cells) {
  const tr = document.createElement("tr");
  tr.append(...cells);
  return tr;
}

function tableOf(headers, bodyId) {
  const table = document.createElement("table");
  const head = row(...headers.map((h) => element("th", h)));
  const thead = document.createElement("thead");
  thead.append(head);
  const tbody = document.createElement("tbody");
  tbody.id = bodyId;
  table.append(thead, tbody);
  return table;
}

function details(summary, ...content) {
  const box = document.createElement("details");
  box.append(element("summary", summary), ...content);
  return box;
}
