// The distributions as bar charts (Chart.js, vendored by the build) over one shared list of
// tokens, so that the same row means the same token everywhere: one overlay chart with a bar per
// shown column, or a panel per column. A bar on a token transformers never draws is drawn in the
// highlight colour: those draws are the difference.
import { column, columns, highlight, label } from "../state/columns.js";
import { element } from "./dom.js";
import { termLink, TERMS } from "./glossary.js";
import { byteNote, chartLabel, isByteToken, visible } from "./token-text.js";

/** Rows: the most probable tokens, then up to DISPUTED that only one side keeps; fewer where the
 * chart is short (an embed), so that every row keeps a readable label. */
const TOP = 12;
const DISPUTED = 4;
const ROW_PX = 15;
const AXIS_PX = 48;
const charts = {};

/** How many of the most probable tokens fit the overlay chart's height with their labels. */
function topRowsThatFit(view) {
  if (view !== "overlay") return TOP;
  const height = document.getElementById("chart-overlay")?.parentElement?.clientHeight ?? 0;
  if (!height) return TOP;
  return Math.max(3, Math.min(TOP, Math.floor((height - AXIS_PX) / ROW_PX) - DISPUTED));
}

/** The tokens to chart: the most probable under any shown column, then up to DISPUTED that only
 * one side keeps, as the core lists them (`compare[column].only_port`, then `only_hf`, most
 * probable first), taken from each shown column in turn so that every column's difference has
 * a row; most probable first. */
function sharedRows(report, names, top) {
  const best = new Map();
  for (const name of names) for (const [id, p] of report[name].support.slice(0, top)) best.set(id, Math.max(best.get(id) ?? 0, p));
  const rows = [...best.entries()].sort((a, b) => b[1] - a[1]).slice(0, top).map(([id]) => id);
  const others = names.filter((n) => report.compare[n]);
  for (const side of ["only_port", "only_hf"]) {
    const lists = others.map((n) => [...report.compare[n][side].first]);
    while (rows.length < top + DISPUTED && lists.some((l) => l.length)) {
      for (const list of lists) {
        while (list.length && rows.includes(list[0])) list.shift();
        if (list.length && rows.length < top + DISPUTED) rows.push(list.shift());
      }
    }
  }
  const supports = names.map((n) => new Map(report[n].support));
  const p = new Map(rows.map((id) => [id, Math.max(...supports.map((s) => s.get(id) ?? 0))]));
  return rows.sort((a, b) => p.get(b) - p.get(a));
}

/** Where a click on a bar goes: the token it is for. */
let onPick = () => {};
export function onTokenPicked(pick) {
  onPick = pick;
}

/** The last drawing, to fit its rows again once the legend and the byte note under the chart
 * have taken their place (they shorten it), or the window changes size. */
let drawn = null;
let fitting = null;

export function drawCharts(report, options) {
  drawn = { report, options, top: topRowsThatFit(options.view), refits: 0 };
  draw(report, options, drawn.top);
  if (fitting) return;
  fitting = new ResizeObserver(() => {
    // Once per drawing at most: a refit can show or hide the byte note, which moves the chart again.
    if (!drawn || drawn.refits > 0 || topRowsThatFit(drawn.options.view) === drawn.top) return;
    drawn.refits += 1;
    drawn.top = topRowsThatFit(drawn.options.view);
    draw(drawn.report, drawn.options, drawn.top);
  });
  fitting.observe(document.getElementById("overlay-box"));
}

function draw(report, { log, shown, view }, rowCount) {
  const names = columns().map((c) => c.name).filter((n) => shown.includes(n));
  const HIGHLIGHT = highlight();
  const rows = sharedRows(report, names.length ? names : ["hf"], rowCount);
  const texts = rows.map((id) => report.tokens[id] ?? "");
  // The overlay's labels say what a byte token is; a panel is too narrow for that, and its
  // byte tokens are named under the charts and in each bar's tooltip.
  const named = view === "overlay" ? chartLabel : visible;
  const labels = rows.map((id, i) => `${named(texts[i])}  #${id}`);
  const hf = new Map(report.hf.support);
  const series = Object.fromEntries(columns().map(({ name }) => {
    const p = new Map(report[name].support);
    return [name, rows.map((id) => p.get(id) ?? 0)];
  }));
  // With no distribution of transformers' (it refuses the call), nothing is "outside" it.
  const outsideHf = (name, i) => !report.hf.error && name !== "hf" && series[name][i] > 0 && !hf.has(rows[i]);
  // One scale for every chart, so that equal bars mean equal probabilities.
  const top = Math.max(...names.map((n) => report[n].support[0]?.[1] ?? 0), 1e-9);
  const scale = log ? null : Math.min(1, top * 1.05);
  const describe = (name) => `${label(name)}: ${rows.slice(0, 5).map((id, i) => `${labels[i]} ${series[name][i].toFixed(3)}`).join(", ")}…`;
  const rowsOf = { ids: rows, texts, labels };
  let highlighted = 0;
  if (view === "overlay") {
    const canvas = document.getElementById("chart-overlay");
    const datasets = names.map((name) => {
      const { colour } = column(name);
      return { label: label(name), data: series[name], backgroundColor: rows.map((_, i) => (outsideHf(name, i) ? HIGHLIGHT : colour)), borderWidth: 0 };
    });
    highlighted = names.reduce((n, name) => n + rows.filter((_, i) => outsideHf(name, i)).length, 0);
    canvas.dataset.columns = String(names.length);
    canvas.dataset.highlighted = String(highlighted);
    canvas.setAttribute("aria-label", names.map(describe).join("; "));
    update("overlay", canvas, rowsOf, datasets, scale);
  }
  for (const name of names) {
    if (view !== "panels") break;
    const canvas = document.getElementById(`chart-${name}`);
    const { colour } = column(name);
    const literal = new Map(report.literal?.support ?? []);
    const colours = rows.map((_, i) => (outsideHf(name, i) || (name === "hf" && series.hf[i] > 0 && !literal.has(rows[i])) ? HIGHLIGHT : colour));
    canvas.dataset.bars = String(series[name].filter((p) => p > 0).length);
    canvas.dataset.highlighted = String(colours.filter((c) => c === HIGHLIGHT).length);
    highlighted += Number(canvas.dataset.highlighted);
    canvas.setAttribute("aria-label", describe(name));
    update(name, canvas, rowsOf, [{ label: label(name), data: series[name], backgroundColor: colours, borderWidth: 0 }], scale);
  }
  drawLegend(highlighted > 0);
  noteBytes(texts);
}

/** The legend, in the page rather than in the canvas: what the figures' rows, each with its
 * column's colour and name, do not say — the reddish purple of mass outside hf's support, when a
 * bar shows it. */
function drawLegend(highlighted) {
  const items = highlighted ? [legendItem(highlight(), termLink("outside", "mass outside hf's support", TERMS.outside[1]))] : [];
  document.getElementById("chart-legend").replaceChildren(...items);
}

function legendItem(colour, name) {
  const item = element("li", "");
  const swatch = element("span", "", "swatch");
  swatch.style.background = colour;
  swatch.setAttribute("aria-hidden", "true");
  item.append(swatch, name);
  return item;
}

/** Under the chart, when its top rows are byte tokens: what they are. */
function noteBytes(texts) {
  const bytes = texts.slice(0, TOP).filter(isByteToken);
  const note = document.getElementById("byte-note");
  note.hidden = bytes.length === 0;
  if (bytes.length) {
    note.textContent = `${[...new Set(bytes.map(visible))].slice(0, 4).join(", ")}${bytes.length > 4 ? ", …" : ""} are bytes of UTF-8 characters, not whole characters: ` +
      `SmolLM2 writes a Chinese character as two or three such tokens, so the chart ranks their first bytes (${byteNote(bytes[0])}).`;
  }
}

/** The chart's token rows: `rows.ids`, their texts and labels. */
function update(key, canvas, rows, datasets, linearMax) {
  const chart = charts[key] ?? (charts[key] = new window.Chart(canvas, config()));
  chart.$rows = rows;
  chart.data.labels = rows.labels;
  chart.data.datasets = datasets.map((d) => ({ barPercentage: 0.9, categoryPercentage: datasets.length > 1 ? 0.85 : 1, maxBarThickness: 18, ...d }));
  chart.options.scales.x = linearMax === null
    ? { type: "logarithmic", min: 1e-4, max: 1, title: { display: true, text: "p (log)" } }
    : { type: "linear", min: 0, max: linearMax, title: { display: true, text: "p" } };
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
      // A bar's tooltip lists every column's probability of its token; a click selects it.
      interaction: { mode: "index", axis: "y", intersect: false },
      onClick(event, elements, chart) {
        if (elements.length) onPick(chart.$rows.ids[elements[0].index]);
      },
      plugins: {
        legend: { display: false },
        tooltip: {
          callbacks: {
            title: (items) => {
              const { labels, texts } = items[0].chart.$rows;
              const note = byteNote(texts[items[0].dataIndex]);
              return note ? [labels[items[0].dataIndex], ...wrap(note)] : labels[items[0].dataIndex];
            },
            label: (item) => `${item.dataset.label ?? ""}: p = ${Number(item.raw).toPrecision(4)}`,
            footer: () => "click to see its rank under every column",
          },
        },
      },
      scales: { x: { type: "linear", min: 0 }, y: { ticks: { autoSkip: false, font: { family: "ui-monospace, Menlo, monospace", size: 11 } } } },
    },
  };
}

/** A long tooltip line in lines of about 60 characters. */
function wrap(text) {
  const lines = [""];
  for (const word of text.split(" ")) {
    if (lines.at(-1).length + word.length > 60) lines.push("");
    lines[lines.length - 1] += (lines.at(-1) ? " " : "") + word;
  }
  return lines;
}

/** The chart of `name` ("overlay" or a column) as a PNG data URL. */
export function chartImage(name) {
  return charts[name]?.toBase64Image("image/png", 1) ?? null;
}
