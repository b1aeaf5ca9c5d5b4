// The three distributions as bar charts (Chart.js, vendored by the build) over one shared list of
// tokens, so that the same row means the same token in every panel. A bar whose token the other
// side drops is drawn in the highlight colour: those draws are the difference.
import { visible } from "./view.js";

/** Rows: the most probable tokens, then up to DISPUTED that only one side keeps. */
const TOP = 12;
const DISPUTED = 4;
const NAMES = ["hf", "literal", "corrected"];
const COLOURS = { hf: "#0072b2", literal: "#d55e00", corrected: "#009e73" };
/** Okabe–Ito reddish purple: tokens one side keeps and the other drops. */
const HIGHLIGHT = "#cc79a7";
const charts = {};

/** The tokens to chart: the most probable under any of the three, plus the most probable of
 * those only one side keeps (the difference often lives in the tail), most probable first. */
function sharedRows(report) {
  const supports = Object.fromEntries(NAMES.map((n) => [n, new Map(report[n].support)]));
  const best = new Map();
  const consider = (id, p) => best.set(id, Math.max(best.get(id) ?? 0, p));
  for (const name of NAMES) for (const [id, p] of report[name].support.slice(0, TOP)) consider(id, p);
  const disputed = [];
  for (const name of ["literal", "corrected"]) {
    for (const [id, p] of report[name].support) if (!supports.hf.has(id)) disputed.push([id, p]);
    for (const [id, p] of report.hf.support) if (!supports[name].has(id)) disputed.push([id, p]);
  }
  const top = [...best.entries()].sort((a, b) => b[1] - a[1]).slice(0, TOP);
  const extra = disputed.filter(([id]) => !top.some(([t]) => t === id)).sort((a, b) => b[1] - a[1]);
  const rows = [...top];
  for (const [id, p] of extra) if (rows.length < TOP + DISPUTED && !rows.some(([r]) => r === id)) rows.push([id, p]);
  return rows.sort((a, b) => b[1] - a[1]).map(([id]) => id);
}

export function drawCharts(report, { log }) {
  const rows = sharedRows(report);
  const probabilities = Object.fromEntries(NAMES.map((n) => [n, new Map(report[n].support)]));
  const labels = rows.map((id) => `${visible(report.tokens[id] ?? "")}  #${id}`);
  // One scale for all three, so that equal bars mean equal probabilities across panels.
  const top = Math.max(...NAMES.map((n) => report[n].support[0]?.[1] ?? 0), 1e-9);
  for (const name of NAMES) {
    const other = name === "hf" ? probabilities.literal : probabilities.hf;
    const data = rows.map((id) => probabilities[name].get(id) ?? 0);
    const colours = rows.map((id, i) => (data[i] > 0 && !other.has(id) ? HIGHLIGHT : COLOURS[name]));
    const canvas = document.getElementById(`chart-${name}`);
    canvas.dataset.bars = String(data.filter((p) => p > 0).length);
    canvas.dataset.highlighted = String(colours.filter((c) => c === HIGHLIGHT).length);
    canvas.setAttribute("aria-label", `${name}: ${rows.slice(0, 5).map((id, i) => `${labels[i]} ${data[i].toFixed(3)}`).join(", ")}…`);
    update(name, canvas, labels, data, colours, log ? null : Math.min(1, top * 1.05));
  }
}

/** `linearMax`: the shared top of a linear scale, or null for the log scale. */
function update(name, canvas, labels, data, colours, linearMax) {
  const chart = charts[name] ?? (charts[name] = new window.Chart(canvas, config()));
  chart.data.labels = labels;
  chart.data.datasets[0].data = data;
  chart.data.datasets[0].backgroundColor = colours;
  chart.options.scales.x = linearMax === null
    ? { type: "logarithmic", min: 1e-4, max: 1, title: { display: true, text: "p (log)" } }
    : { type: "linear", min: 0, max: linearMax, title: { display: true, text: "p" } };
  chart.update("none");
}

function config() {
  return {
    type: "bar",
    data: { labels: [], datasets: [{ data: [], borderWidth: 0, barPercentage: 0.85, categoryPercentage: 1, maxBarThickness: 18 }] },
    options: {
      indexAxis: "y",
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: {
        legend: { display: false },
        tooltip: { callbacks: { label: (item) => `p = ${Number(item.raw).toPrecision(4)}` } },
      },
      scales: { x: { type: "linear", min: 0 }, y: { ticks: { autoSkip: false, font: { family: "ui-monospace, Menlo, monospace", size: 11 } } } },
    },
  };
}

/** The chart of `name` as a PNG data URL. */
export function chartImage(name) {
  return charts[name]?.toBase64Image("image/png", 1) ?? null;
}
