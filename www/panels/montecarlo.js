// Monte Carlo as pictures: each port's observed frequencies as markers over its exact
// probabilities, and the total variation between draws and exact distribution against the number
// of draws, under the check's bound, growing while the draws run. Every value comes from the
// core (`MonteCarloRun.convergence`, the final result); this only plots them.
import { column, columns, label } from "../state/columns.js";
import { Request } from "../shared/protocol.js";
import { Purpose, requests } from "../state/requests.js";
import { page } from "../state/store.js";
import { chat, generationConfig, seed, syntheticLogits } from "../state/inputs.js";
import { showError } from "./status.js";
import { visible } from "./token-text.js";
import { $, TOP_ROWS, element, row } from "./view.js";
import { language, t } from "../l10n/l10n.js";

const charts = {};
let points = {};

/** Draws N per drawing column for the step on screen, on the worker and its draw worker. */
export function drawMonteCarlo() {
  if (!page.coreReady) return;
  showError(null);
  $("mc-status").textContent = t("mc-drawing");
  $("mc-run").disabled = true;
  $("mc-cancel").disabled = false;
  page.drawingSince = performance.now();
  resetConvergence();
  requests.send(Purpose.monteCarlo, {
    type: Request.monteCarlo, chat: chat(), params: $("params").value, generationConfig: generationConfig(), step: page.step,
    logits: syntheticLogits(), draws: Number($("mc-draws").value) || 10_000, seed: seed(),
  });
}

/** Where this browser's last draw rate is kept, for the next run's estimate. */
const RATE_KEY = "sampling-lab:draws-per-second";

/** The time a run of N draws per column will take, said before it starts: from the rate of this
 * browser's last run, or of a short timing run the first time (the draws run on this machine's
 * cores, at a rate no other figure predicts). */
export function showDrawEstimate() {
  const drawing = columns().filter((c) => c.draws).length;
  const rate = Number(stored(() => localStorage.getItem(RATE_KEY))) || 0;
  const total = (Number($("mc-draws").value) || 10_000) * drawing;
  $("mc-estimate").textContent = rate > 0 ? t("mc-estimate", { total, ...duration(total / rate) }) : t("mc-estimate-unknown", { total });
  if (!rate && inSight) timeDraws();
}

/** Whether the Monte Carlo section has come into view: only then is a timing run worth its cost. */
let inSight = false;

/** Draws in the timing run, per column: a second or so of this machine's cores. */
const TIMING_DRAWS = 200;
let timing = false;

/** A short run of the step on screen, once, to time this browser's draws before the reader's
 * first run; its result is not shown. */
function timeDraws() {
  if (timing || !page.coreReady || !page.lastReport) return;
  timing = true;
  requests.send(Purpose.timing, {
    type: Request.monteCarlo, chat: chat(), params: $("params").value, generationConfig: generationConfig(), step: page.step,
    logits: syntheticLogits(), draws: TIMING_DRAWS, seed: 0,
  }, { started: performance.now(), draws: TIMING_DRAWS * columns().filter((c) => c.draws).length });
}

/** The timing run is over: its rate is the estimate's, until a real run measures its own. */
function timed(id, result) {
  const run = requests.context(Purpose.timing, id);
  if (!run) return false;
  timing = false;
  if (result) stored(() => localStorage.setItem(RATE_KEY, String(run.draws / ((performance.now() - run.started) / 1000))));
  showDrawEstimate();
  return true;
}

/** Storage a page may be denied (a sandboxed frame, blocked cookies) is only a lost estimate. */
function stored(use) {
  try {
    return use();
  } catch {
    return null;
  }
}

/** A duration as the page says it: seconds under a minute and a half, else minutes (`unit` picks
 * the catalog's word for it). */
const duration = (seconds) => (seconds < 90 ? { seconds: Math.max(1, Math.ceil(seconds)), unit: "s" } : { seconds: Math.ceil(seconds / 60), unit: "min" });

/** Draws made so far (`progress` replies of a run), the rate and the time left. */
export function showDrawProgress({ id, loaded: done, total }) {
  if (!requests.is(Purpose.monteCarlo, id)) return;
  $("mc-progress").value = total ? done / total : 0;
  // Each draw runs an engine's sampler over the whole vocabulary: a rate and the time left
  // tell the user what a larger N will cost.
  const rate = done / Math.max((performance.now() - page.drawingSince) / 1000, 1e-3);
  if (done >= 1000) stored(() => localStorage.setItem(RATE_KEY, String(rate)));
  const left = rate > 0 ? (total - done) / rate : Infinity;
  $("mc-status").textContent = t("mc-progress-status", { done, total, rate: Math.round(rate), ...duration(left) });
}

/** The run's result (`monteCarlo` reply), all draws or those made before a stop. */
export function showDrawn({ id, result, cancelled }) {
  if (timed(id, result)) return;
  if (!requests.is(Purpose.monteCarlo, id)) return;
  drawingDone(id);
  showDrawEstimate();
  const first = columns().find((c) => c.draws && result[c.name] && !result[c.name].error);
  $("mc-status").textContent = cancelled ? t("mc-stopped", { draws: result[first?.name]?.draws ?? 0 }) : t("mc-done");
  showMonteCarlo(result, page.lastReport);
  finishConvergence(result);
}

/** Points of the convergence picture while drawing (`converging` replies). */
export function showConverging({ id, points: update }) {
  if (requests.is(Purpose.monteCarlo, id)) addConvergence(update);
}

/** The run is over (done, stopped or failed): the controls are back. */
export function drawingDone(id) {
  if (requests.context(Purpose.timing, id)) timing = false;
  if (!requests.is(Purpose.monteCarlo, id)) return;
  $("mc-run").disabled = false;
  $("mc-cancel").disabled = true;
}

export function listenForDraws() {
  new IntersectionObserver((entries) => {
    inSight = entries.some((e) => e.isIntersecting);
    if (inSight) showDrawEstimate();
  }).observe($("mc-run"));
  $("mc-draws").addEventListener("input", showDrawEstimate);
  $("mc-run").addEventListener("click", drawMonteCarlo);
  $("mc-cancel").addEventListener("click", () => requests.cancel(Purpose.monteCarlo));
}

const colour = (name) => column(name).colour;

function resetConvergence() {
  points = {};
  drawConvergence();
}

/** `[[port, draws, tv, bound], ...]` from the worker while it draws. */
function addConvergence(update) {
  for (const [port, draws, tv, bound] of update) (points[port] ??= []).push({ draws, tv, bound });
  drawConvergence();
}

/** The whole run's figures as the last point of each port's curve. */
function finishConvergence(result) {
  for (const { name } of columns().filter((c) => c.draws)) {
    const side = result[name];
    if (side && !side.error && side.draws > 0) (points[name] ??= []).push({ draws: side.draws, tv: side.tv_to_exact, bound: side.bound });
  }
  drawConvergence();
}

function drawConvergence() {
  document.getElementById("mc-convergence").hidden = Object.keys(points).length === 0;
  const datasets = Object.entries(points).flatMap(([port, series]) => [
    { label: t("mc-series-tv", { column: label(port) }), data: series.map((p) => ({ x: p.draws, y: p.tv })), borderColor: colour(port), backgroundColor: colour(port), showLine: true, pointRadius: 2 },
    { label: t("mc-series-bound", { column: label(port) }), data: series.map((p) => ({ x: p.draws, y: p.bound })), borderColor: colour(port), borderDash: [5, 4], showLine: true, pointRadius: 0 },
  ]);
  const canvas = document.getElementById("chart-convergence");
  const last = Object.entries(points).map(([port, s]) => t("mc-convergence-point", { column: label(port), tv: s.at(-1).tv, bound: s.at(-1).bound, draws: s.at(-1).draws }));
  canvas.setAttribute("aria-label", last.length ? t("mc-convergence-aria", { points: last.join("; ") }) : t("mc-convergence-none"));
  chart("convergence", canvas, {
    type: "scatter", data: { datasets },
    options: { animation: false, responsive: true, maintainAspectRatio: false,
      plugins: { legend: { display: true, labels: { boxWidth: 10, font: { size: 10 } } } },
      // Powers of ten only on the draws axis: 2 000 to 9 000 written out ran into each other.
      scales: { x: { type: "logarithmic", title: { display: true, text: t("mc-axis-draws") }, ticks: { maxRotation: 0, callback: powerOfTen } },
        y: { type: "logarithmic", title: { display: true, text: t("mc-axis-tv") } } } },
  });
}

/** A log axis' tick: labelled at powers of ten, blank between them. */
function powerOfTen(value) {
  const exponent = Math.log10(value);
  return Math.abs(exponent - Math.round(exponent)) < 1e-9 ? Number(value).toLocaleString(language()) : "";
}

/** One port's most drawn tokens: exact probability as a bar, observed frequency as a marker. */
export function drawObserved(name, side, exact, tokens) {
  const canvas = document.getElementById(`mc-chart-${name}`);
  if (!canvas) return;
  document.getElementById(`mc-chart-box-${name}`).hidden = !side;
  const rows = side ? side.frequencies.slice(0, 10) : [];
  const labels = rows.map(([id]) => `${visible(tokens[id] ?? "")} #${id}`);
  canvas.setAttribute("aria-label", rows.length
    ? t("mc-observed-aria", { column: label(name), tokens: rows.slice(0, 5).map(([id, c], i) => `${labels[i]} ${(c / side.draws).toFixed(3)} / ${(exact.get(id) ?? 0).toFixed(3)}`).join(", ") })
    : t("mc-chart-empty", { column: label(name) }));
  chart(`observed-${name}`, canvas, {
    type: "bar",
    data: {
      labels,
      datasets: [
        { type: "bar", label: t("mc-exact-p"), data: rows.map(([id]) => exact.get(id) ?? 0), backgroundColor: colour(name) },
        { type: "line", label: t("mc-drawn"), data: rows.map(([, c]) => c / side.draws), showLine: false, pointRadius: 4, pointStyle: "rectRot", borderColor: "#000000", backgroundColor: "#ffffff" },
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

/** Observed frequencies of each drawing column next to the exact probabilities of the report they were drawn for. */
function showMonteCarlo(result, report) {
  for (const { name } of columns().filter((c) => c.draws)) {
    const side = result[name];
    const exact = new Map(report?.[name]?.support ?? []);
    const tokens = report?.tokens ?? {};
    const set = (field, text) => { $(`mc-${field}-${name}`).textContent = text; };
    if (!side || side.error || side.draws === 0) {
      for (const field of ["draws", "distinct", "outside", "tv", "check"]) set(field, "–");
      set("check", side?.error ?? t("mc-not-drawn"));
      $(`mc-top-${name}`).replaceChildren();
      drawObserved(name, null, exact, tokens);
      continue;
    }
    drawObserved(name, side, exact, tokens);
    set("draws", side.draws.toLocaleString(language()));
    set("distinct", String(side.distinct));
    set("outside", t("mc-outside", { percent: 100 * side.outside_hf }));
    set("tv", t("mc-tv", { tv: side.tv_to_exact, bound: side.bound }));
    set("check", t(side.consistent ? "mc-consistent" : "mc-inconsistent"));
    $(`mc-top-${name}`).replaceChildren(...side.frequencies.slice(0, TOP_ROWS).map(([id, count]) => row(
      element("td", visible(tokens[id] ?? ""), "token"), element("td", String(id)),
      element("td", (count / side.draws).toFixed(5)), element("td", (exact.get(id) ?? 0).toFixed(5)))));
  }
}
