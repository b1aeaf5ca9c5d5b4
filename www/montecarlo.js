// Monte Carlo as pictures: each port's observed frequencies as markers over its exact
// probabilities, and the total variation between draws and exact distribution against the number
// of draws, under the check's bound, growing while the draws run. Every value comes from the
// core (`MonteCarloRun.convergence`, the final result); this only plots them.
import { column, columns } from "./columns.js";
import { visible } from "./token-text.js";

const charts = {};
let points = {};

const colour = (name) => column(name).colour;

export function resetConvergence() {
  points = {};
  drawConvergence();
}

/** `[[port, draws, tv, bound], ...]` from the worker while it draws. */
export function addConvergence(update) {
  for (const [port, draws, tv, bound] of update) (points[port] ??= []).push({ draws, tv, bound });
  drawConvergence();
}

/** The whole run's figures as the last point of each port's curve. */
export function finishConvergence(result) {
  for (const { name } of columns().filter((c) => c.draws)) {
    const side = result[name];
    if (side && !side.error && side.draws > 0) (points[name] ??= []).push({ draws: side.draws, tv: side.tv_to_exact, bound: side.bound });
  }
  drawConvergence();
}

function drawConvergence() {
  document.getElementById("mc-convergence").hidden = Object.keys(points).length === 0;
  const datasets = Object.entries(points).flatMap(([port, series]) => [
    { label: `${port}: TV`, data: series.map((p) => ({ x: p.draws, y: p.tv })), borderColor: colour(port), backgroundColor: colour(port), showLine: true, pointRadius: 2 },
    { label: `${port}: bound`, data: series.map((p) => ({ x: p.draws, y: p.bound })), borderColor: colour(port), borderDash: [5, 4], showLine: true, pointRadius: 0 },
  ]);
  const canvas = document.getElementById("chart-convergence");
  const last = Object.entries(points).map(([port, s]) => `${port}: TV ${s.at(-1).tv.toFixed(4)} ≤ bound ${s.at(-1).bound.toFixed(4)} after ${s.at(-1).draws} draws`);
  canvas.setAttribute("aria-label", last.length ? `Convergence: ${last.join("; ")}` : "Convergence: no draws yet");
  chart("convergence", canvas, {
    type: "scatter", data: { datasets },
    options: { animation: false, responsive: true, maintainAspectRatio: false,
      plugins: { legend: { display: true, labels: { boxWidth: 10, font: { size: 10 } } } },
      scales: { x: { type: "logarithmic", title: { display: true, text: "draws" } }, y: { type: "logarithmic", title: { display: true, text: "TV to exact" } } } },
  });
}

/** One port's most drawn tokens: exact probability as a bar, observed frequency as a marker. */
export function drawObserved(name, side, exact, tokens) {
  const canvas = document.getElementById(`mc-chart-${name}`);
  if (!canvas) return;
  document.getElementById(`mc-chart-box-${name}`).hidden = !side;
  const rows = side ? side.frequencies.slice(0, 10) : [];
  const labels = rows.map(([id]) => `${visible(tokens[id] ?? "")} #${id}`);
  canvas.setAttribute("aria-label", rows.length
    ? `${name}: drawn vs exact: ${rows.slice(0, 5).map(([id, c], i) => `${labels[i]} ${(c / side.draws).toFixed(3)} vs ${(exact.get(id) ?? 0).toFixed(3)}`).join(", ")}`
    : `${name}: not drawn`);
  chart(`observed-${name}`, canvas, {
    type: "bar",
    data: {
      labels,
      datasets: [
        { type: "bar", label: "exact p", data: rows.map(([id]) => exact.get(id) ?? 0), backgroundColor: colour(name) },
        { type: "line", label: "drawn", data: rows.map(([, c]) => c / side.draws), showLine: false, pointRadius: 4, pointStyle: "rectRot", borderColor: "#000000", backgroundColor: "#ffffff" },
      ],
    },
    options: { animation: false, responsive: true, maintainAspectRatio: false, plugins: { legend: { display: true, labels: { boxWidth: 10, font: { size: 10 } } } },
      scales: { x: { ticks: { font: { family: "ui-monospace, Menlo, monospace", size: 9 } } }, y: { beginAtZero: true } } },
  });
}

function chart(key, canvas, config) {
  const existing = charts[key];
  if (existing) {
    existing.data = config.data;
    existing.update("none");
    return;
  }
  charts[key] = new window.Chart(canvas, config);
}
