// The panels: a bar chart per column (Chart.js, vendored by the build) over the compared table's
// rows, so that the same row means the same token everywhere, on one probability scale so that
// equal bars mean equal probabilities. A bar on a token transformers never draws is hatched in the
// column's own colour: every column keeps its colour wherever it is drawn.
import { column, columns, label } from "../state/columns.js";
import { t } from "../l10n/l10n.js";
import { rowsOf } from "./compare-table.js";
import { tokenNote, visible } from "./token-text.js";

const PANEL_ROWS = 12;
const charts = {};

/** Where a click on a bar goes: the token it is for. */
let onPick = () => {};
export function onTokenPicked(pick) {
  onPick = pick;
}

/** A step for an axis of `top`: 1, 2 or 5 times a power of ten, about five ticks. */
function niceStep(top) {
  const raw = top / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
}

/** The axis: its maximum a whole number of steps, so the last tick is a step like the others. */
export function linearAxis(top) {
  const step = niceStep(Math.max(top, 1e-9));
  return { max: Math.min(1, Math.ceil((top * 1.02) / step) * step), step };
}

/** Draws every column's panel for `report` over the rows the compared table shows. */
export function drawPanels(report, { log, compared, completions }) {
  const rows = rowsOf(report, ["hf", ...compared]).slice(0, PANEL_ROWS);
  const texts = rows.map((id) => report.tokens[id] ?? "");
  const labels = rows.map((id, i) => `${visible(completions.get(id)?.text ?? texts[i])}  #${id}`);
  const hf = new Map(report.hf.support);
  const top = Math.max(...columns().map((c) => report[c.name].support[0]?.[1] ?? 0), 1e-9);
  for (const { name } of columns()) {
    const canvas = document.getElementById(`chart-${name}`);
    const p = new Map(report[name].support);
    const data = rows.map((id) => p.get(id) ?? 0);
    const outside = rows.map((id, i) => !report.hf.error && name !== "hf" && data[i] > 0 && !hf.has(id));
    const { colour } = column(name);
    const fill = hatch(colour);
    canvas.dataset.bars = String(data.filter((x) => x > 0).length);
    canvas.dataset.hatched = String(outside.filter(Boolean).length);
    canvas.setAttribute("aria-label", t("chart-describe", {
      column: label(name),
      tokens: rows.slice(0, 5).map((id, i) => `${labels[i]} ${data[i].toFixed(3)}`).join(", "),
    }));
    update(name, canvas, { ids: rows, texts, labels, completions }, [{
      label: label(name), data, backgroundColor: outside.map((o) => (o ? fill : colour)), borderColor: colour, borderWidth: outside.map((o) => (o ? 1 : 0)),
    }], log ? null : top);
  }
}

/** Diagonal stripes of `colour` on the card: a bar on a token transformers never draws. */
function hatch(colour) {
  const tile = document.createElement("canvas");
  tile.width = tile.height = 8;
  const g = tile.getContext("2d");
  g.strokeStyle = colour;
  g.lineWidth = 2.5;
  g.beginPath();
  g.moveTo(0, 8);
  g.lineTo(8, 0);
  g.moveTo(-2, 2);
  g.lineTo(2, -2);
  g.moveTo(6, 10);
  g.lineTo(10, 6);
  g.stroke();
  return g.createPattern(tile, "repeat");
}

function update(key, canvas, rows, datasets, top) {
  const chart = charts[key] ?? (charts[key] = new window.Chart(canvas, config()));
  chart.$rows = rows;
  chart.data.labels = rows.labels;
  chart.data.datasets = datasets.map((d) => ({ barPercentage: 0.9, categoryPercentage: 1, maxBarThickness: 18, ...d }));
  if (top === null) {
    chart.options.scales.x = { type: "logarithmic", min: 1e-4, max: 1, title: { display: true, text: t("axis-p-log") } };
  } else {
    const { max, step } = linearAxis(top);
    chart.options.scales.x = { type: "linear", min: 0, max, ticks: { stepSize: step }, title: { display: true, text: "p" } };
  }
  chart.update("none");
}

/** Every chart's text and grid in the page's scheme (light or dark): Chart.js draws in its own
 * grey (#666, 2.8:1 on the dark card) unless told. Again whenever the scheme changes. */
export function followColourScheme(redraw) {
  const apply = () => {
    const style = getComputedStyle(document.documentElement);
    window.Chart.defaults.color = style.getPropertyValue("--muted").trim();
    window.Chart.defaults.borderColor = style.getPropertyValue("--line").trim();
    for (const chart of Object.values(window.Chart.instances)) chart.update("none");
  };
  apply();
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => { apply(); redraw(); });
}

function config() {
  return {
    type: "bar",
    data: { labels: [], datasets: [] },
    options: {
      indexAxis: "y",
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      interaction: { mode: "index", axis: "y", intersect: false },
      onClick(event, elements, chart) {
        if (elements.length) onPick(chart.$rows.ids[elements[0].index]);
      },
      plugins: {
        legend: { display: false },
        tooltip: {
          callbacks: {
            title: (items) => {
              const { labels, texts, ids, completions } = items[0].chart.$rows;
              const i = items[0].dataIndex;
              const note = tokenNote(texts[i], completions.get(ids[i]));
              return note ? [labels[i], ...wrap(note)] : labels[i];
            },
            label: (item) => `${item.dataset.label ?? ""}: p = ${Number(item.raw).toPrecision(4)}`,
            footer: () => t("chart-click"),
          },
        },
      },
      scales: { x: { type: "linear", min: 0 }, y: { ticks: { autoSkip: false, font: { family: "ui-monospace, Menlo, monospace", size: 11 } } } },
    },
  };
}

/** A long tooltip line in lines of about 60 characters (a CJK sentence breaks anywhere). */
function wrap(text) {
  const lines = [""];
  for (const word of text.split(/(?<= )|(?<=[\u3000-\u9fff])/u)) {
    if (lines.at(-1).length + word.length > 60) lines.push("");
    lines[lines.length - 1] += word;
  }
  return lines.map((l) => l.trim());
}

/** The panel of `name` as a PNG data URL. */
export function chartImage(name) {
  return charts[name]?.toBase64Image("image/png", 1) ?? null;
}
