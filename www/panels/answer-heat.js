// The answer view's picture: every token of the answer coloured by one figure of one column at its
// step — by default the compared port's mass outside transformers' support, so that where a port
// would leave what generate() samples shows as a heat strip over the text — with a legend of the
// scale, a strip chart of the figure per step for the compared columns, and the core's sentences
// on the whole answer. Every figure is the core's (the worker's `token` and `answer` replies); this
// file only maps them to colours and lines.
import { column, columns, label } from "../state/columns.js";
import { language, listOf, t } from "../l10n/l10n.js";
import { page } from "../state/store.js";
import { $, element } from "./dom.js";
import { outsideText } from "./mass-bars.js";

const fixed = (digits) => new Intl.NumberFormat(language(), { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** Each figure a reader can colour the answer by: where a step's figures hold it for a column, the
 * top of its colour scale (values past it take the strongest colour), and how it reads. `inverted`:
 * the strongest colour is for the smallest value (an unlikely token). `perColumn`: false for a
 * figure of transformers alone. */
export const FIGURES = {
  outside: {
    of: (step, name) => step.columns[name]?.mass_outside_hf ?? null, top: 0.1, text: outsideText, perColumn: true,
    said: { token: "answer-token-outside", legend: "answer-legend-outside", strip: "answer-strip-outside" },
  },
  p_token: {
    of: (step, name) => step.columns[name]?.p_token ?? null, top: 1, inverted: true, text: (x) => fixed(3).format(x), perColumn: true,
    said: { token: "answer-token-p-token", legend: "answer-legend-p-token", strip: "answer-strip-p-token" },
  },
  tv: {
    of: (step, name) => step.columns[name]?.tv ?? null, top: 0.5, text: (x) => fixed(3).format(x), perColumn: true,
    said: { token: "answer-token-tv", legend: "answer-legend-tv", strip: "answer-strip-tv" },
  },
  hf_entropy: {
    of: (step) => step.hf_entropy ?? null, top: 4, text: (x) => t("unit-nats", { value: x }), perColumn: false,
    said: { token: "answer-token-entropy", legend: "answer-legend-entropy", strip: "answer-strip-entropy" },
  },
};

/** The figure and the column the answer is coloured by (the column: hf for a figure of hf's). */
export function colouring() {
  const figure = FIGURES[$("answer-figure").value] ? $("answer-figure").value : "outside";
  const name = FIGURES[figure].perColumn ? ($("answer-column").value || "literal") : "hf";
  return { figure, name };
}

/** How strongly a value is coloured, 0 to 1. */
function heat(figure, value) {
  const { top, inverted } = FIGURES[figure];
  const share = Math.min(1, Math.max(0, value / top));
  return inverted ? 1 - share : share;
}

/** The menu of columns to colour by: the compared ones first, then every other but hf. */
export function buildColumnMenu(compared) {
  const select = $("answer-column");
  const chosen = select.value;
  const others = columns().filter((c) => c.name !== "hf" && !compared.includes(c.name));
  const order = [...compared.map(column).filter(Boolean), ...others];
  select.replaceChildren(...order.map((c) => {
    const option = element("option", c.short);
    option.value = c.name;
    return option;
  }));
  select.value = order.some((c) => c.name === chosen) ? chosen : (order[0]?.name ?? "");
}

/** Colours the token at every step the answer has figures for (or only `index`'s), and marks the
 * first step where the column's mass outside transformers' passes 1 %. */
export function colourTokens(index = null) {
  const { figure, name } = colouring();
  const first = page.answer.report?.summary?.[name]?.first_over_1pct ?? null;
  const selector = index === null ? "button[data-step]" : `button[data-step="${index}"]`;
  for (const button of $("completion").querySelectorAll(selector)) {
    const at = Number(button.dataset.step);
    const step = page.answer.steps[at];
    if (!step) continue;
    const value = FIGURES[figure].of(step, name);
    const outside = step.columns[name]?.mass_outside_hf ?? null;
    button.dataset.outsideHf = outside === null ? "" : String(outside);
    button.dataset.heat = value === null ? "" : String(value);
    button.style.setProperty("--heat", value === null ? "0" : String(heat(figure, value)));
    button.style.setProperty("--heat-colour", column(name)?.colour ?? "currentColor");
    button.classList.toggle("refused", value === null);
    button.classList.toggle("first-over", at === first && FIGURES[figure].perColumn);
    // Said to a screen reader after the token (its title is a byte run's character, when it has one).
    button.setAttribute("aria-description", value === null ? t("answer-token-refused", { column: label(name) }) : t(FIGURES[figure].said.token, { column: label(name), value: FIGURES[figure].text(value), step: at + 1 }));
  }
}

/** The legend: what the colour says, and its scale from none to the strongest. */
export function drawLegend() {
  const { figure, name } = colouring();
  const { top, inverted, text } = FIGURES[figure];
  const scale = element("span", "", "heat-scale");
  scale.style.setProperty("--heat-colour", column(name)?.colour ?? "currentColor");
  const gradient = element("span", "", inverted ? "heat-gradient inverted" : "heat-gradient");
  const ticks = element("span", "", "heat-ticks");
  const values = [0, top / 2, top];
  ticks.append(...values.map((v, i) => element("span", i === 2 && !inverted ? t("answer-legend-at-least", { value: text(v) }) : text(v))));
  scale.append(gradient, ticks);
  $("answer-legend").replaceChildren(element("span", t(FIGURES[figure].said.legend, { column: label(name) }), "heat-what"), scale);
  $("answer-column-label").hidden = !FIGURES[figure].perColumn;
}

/** The core's sentences on the whole answer: its lead and the compared columns' (the core puts
 * them first), then the one for every column that never leaves; the other columns' behind "N more
 * columns". */
export function drawSentences(report, compared) {
  const box = $("answer-summary");
  if (!report) return box.replaceChildren();
  const [lead, ...rest] = report.sentences;
  const item = (sentence) => {
    const li = element("li", sentence.text);
    if (sentence.args.column) li.dataset.column = sentence.args.column;
    li.dataset.id = sentence.id;
    return li;
  };
  const isOther = (s) => s.args.column && !compared.includes(s.args.column);
  const sentences = lead?.id === "answer-lead" ? rest : report.sentences;
  const main = element("ul");
  main.append(...sentences.filter((s) => !isOther(s)).map(item));
  const others = sentences.filter(isOther);
  const more = element("details", "", "answer-more");
  more.append(element("summary", t("answer-more-columns", { count: others.length })), element("ul"));
  more.lastChild.append(...others.map(item));
  box.replaceChildren(...(lead?.id === "answer-lead" ? [element("p", lead.text, "answer-lead")] : []), main, ...(others.length ? [more] : []));
}

let chart = null;

/** The strip chart: the figure per step for the compared columns (hf's entropy alone for that
 * figure); a click on a step selects it. */
export function drawStrip(compared, onSelect) {
  const steps = page.answer.steps;
  $("answer-strip").hidden = !steps.some(Boolean) || !window.Chart;
  if ($("answer-strip").hidden) return;
  const { figure } = colouring();
  const names = FIGURES[figure].perColumn ? compared.filter((n) => n !== "hf") : ["hf"];
  const datasets = names.map((name) => ({
    label: label(name),
    data: Array.from(steps, (step) => (step ? FIGURES[figure].of(step, name) : null)),
    borderColor: column(name)?.colour,
    backgroundColor: column(name)?.colour,
    pointRadius: 1.5,
    borderWidth: 1.5,
    stepped: "middle",
  }));
  const canvas = $("chart-answer");
  chart ??= new window.Chart(canvas, stripConfig((i) => onSelect(i)));
  chart.data.labels = Array.from(steps, (_, i) => String(i + 1));
  chart.data.datasets = datasets;
  const top = Math.max(...datasets.flatMap((d) => d.data.filter((v) => v !== null)), 0);
  chart.options.scales.y.max = figure === "p_token" ? 1 : undefined;
  chart.options.scales.y.suggestedMax = top > 0 ? undefined : FIGURES[figure].top;
  chart.options.scales.y.ticks.callback = (v) => FIGURES[figure].text(v);
  chart.options.scales.x.title.text = t("answer-strip-axis");
  chart.update("none");
  const caption = t(FIGURES[figure].said.strip, { columns: listOf(names.map(label)) });
  $("answer-strip-caption").textContent = caption;
  canvas.setAttribute("aria-label", caption);
  canvas.dataset.steps = String(steps.length);
  canvas.dataset.columns = names.join(",");
}

function stripConfig(onSelect) {
  return {
    type: "line",
    data: { labels: [], datasets: [] },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      interaction: { mode: "index", intersect: false },
      onClick(event, elements) {
        if (elements.length) onSelect(elements[0].index);
      },
      plugins: { legend: { display: true, labels: { boxWidth: 10, boxHeight: 10 } } },
      scales: { x: { title: { display: true, text: "" }, ticks: { autoSkip: true, maxRotation: 0 } }, y: { min: 0, ticks: { maxTicksLimit: 3 } } },
    },
  };
}
