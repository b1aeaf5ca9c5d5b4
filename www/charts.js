// The distributions as bar charts (Chart.js, vendored by the build) over one shared list of
// tokens, so that the same row means the same token everywhere: one overlay chart with a bar per
// shown column, or a panel per column. A bar on a token transformers never draws is drawn in the
// highlight colour: those draws are the difference.
import { column, columns, highlight, label } from "./columns.js";
import { visible } from "./token-text.js";

/** Rows: the most probable tokens, then up to DISPUTED that only one side keeps. */
const TOP = 12;
const DISPUTED = 4;
const charts = {};

/** The tokens to chart: the most probable under any shown column, then up to DISPUTED that only
 * one side keeps, as the core lists them (`compare[column].only_port`, then `only_hf`, most
 * probable first), taken from each shown column in turn so that every column's difference has
 * a row; most probable first. */
function sharedRows(report, names) {
  const best = new Map();
  for (const name of names) for (const [id, p] of report[name].support.slice(0, TOP)) best.set(id, Math.max(best.get(id) ?? 0, p));
  const rows = [...best.entries()].sort((a, b) => b[1] - a[1]).slice(0, TOP).map(([id]) => id);
  const others = names.filter((n) => report.compare[n]);
  for (const side of ["only_port", "only_hf"]) {
    const lists = others.map((n) => [...report.compare[n][side].first]);
    while (rows.length < TOP + DISPUTED && lists.some((l) => l.length)) {
      for (const list of lists) {
        while (list.length && rows.includes(list[0])) list.shift();
        if (list.length && rows.length < TOP + DISPUTED) rows.push(list.shift());
      }
    }
  }
  const supports = names.map((n) => new Map(report[n].support));
  const p = new Map(rows.map((id) => [id, Math.max(...supports.map((s) => s.get(id) ?? 0))]));
  return rows.sort((a, b) => p.get(b) - p.get(a));
}

export function drawCharts(report, { log, shown, view }) {
  const names = columns().map((c) => c.name).filter((n) => shown.includes(n));
  const HIGHLIGHT = highlight();
  const rows = sharedRows(report, names.length ? names : ["hf"]);
  const labels = rows.map((id) => `${visible(report.tokens[id] ?? "")}  #${id}`);
  const hf = new Map(report.hf.support);
  const series = Object.fromEntries(columns().map(({ name }) => {
    const p = new Map(report[name].support);
    return [name, rows.map((id) => p.get(id) ?? 0)];
  }));
  const outsideHf = (name, i) => name !== "hf" && series[name][i] > 0 && !hf.has(rows[i]);
  // One scale for every chart, so that equal bars mean equal probabilities.
  const top = Math.max(...names.map((n) => report[n].support[0]?.[1] ?? 0), 1e-9);
  const scale = log ? null : Math.min(1, top * 1.05);
  const describe = (name) => `${label(name)}: ${rows.slice(0, 5).map((id, i) => `${labels[i]} ${series[name][i].toFixed(3)}`).join(", ")}…`;
  if (view === "overlay") {
    const canvas = document.getElementById("chart-overlay");
    const datasets = names.map((name) => {
      const { colour } = column(name);
      return { label: label(name), data: series[name], backgroundColor: rows.map((_, i) => (outsideHf(name, i) ? HIGHLIGHT : colour)), borderWidth: 0 };
    });
    canvas.dataset.columns = String(names.length);
    canvas.dataset.highlighted = String(names.reduce((n, name) => n + rows.filter((_, i) => outsideHf(name, i)).length, 0));
    canvas.setAttribute("aria-label", names.map(describe).join("; "));
    update("overlay", canvas, labels, datasets, scale, true);
  }
  for (const name of names) {
    if (view !== "panels") break;
    const canvas = document.getElementById(`chart-${name}`);
    const { colour } = column(name);
    const colours = rows.map((_, i) => (outsideHf(name, i) || (name === "hf" && series.hf[i] > 0 && !new Map(report.literal.support).has(rows[i])) ? HIGHLIGHT : colour));
    canvas.dataset.bars = String(series[name].filter((p) => p > 0).length);
    canvas.dataset.highlighted = String(colours.filter((c) => c === HIGHLIGHT).length);
    canvas.setAttribute("aria-label", describe(name));
    update(name, canvas, labels, [{ data: series[name], backgroundColor: colours, borderWidth: 0 }], scale, false);
  }
}

/** `linearMax`: the shared top of a linear scale, or null for the log scale. */
function update(key, canvas, labels, datasets, linearMax, legend) {
  const chart = charts[key] ?? (charts[key] = new window.Chart(canvas, config()));
  chart.data.labels = labels;
  chart.data.datasets = datasets.map((d) => ({ barPercentage: 0.9, categoryPercentage: legend ? 0.85 : 1, maxBarThickness: 18, ...d }));
  chart.options.plugins.legend.display = legend;
  chart.options.scales.x = linearMax === null
    ? { type: "logarithmic", min: 1e-4, max: 1, title: { display: true, text: "p (log)" } }
    : { type: "linear", min: 0, max: linearMax, title: { display: true, text: "p" } };
  chart.update("none");
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
      plugins: {
        legend: { display: false, position: "top", labels: { boxWidth: 12, font: { size: 11 } } },
        tooltip: { callbacks: { label: (item) => `${item.dataset.label ?? ""} p = ${Number(item.raw).toPrecision(4)}` } },
      },
      scales: { x: { type: "linear", min: 0 }, y: { ticks: { autoSkip: false, font: { family: "ui-monospace, Menlo, monospace", size: 11 } } } },
    },
  };
}

/** The chart of `name` ("overlay" or a column) as a PNG data URL. */
export function chartImage(name) {
  return charts[name]?.toBase64Image("image/png", 1) ?? null;
}
