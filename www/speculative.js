// The speculative-decoding view: each round as a row of drafted tokens marked accepted, rejected
// or not verified, then the target's bonus token; the run's acceptance lengths as a histogram and
// the exact expected acceptance length of one greedy draft by temperature. Every figure comes
// from the core (`Lab.speculate`, `Lab.acceptanceCurve`).
import { Request } from "./protocol.js";
import { Purpose, requests } from "./requests.js";
import { page } from "./store.js";
import { chat, generationOptions } from "./inputs.js";
import { showError } from "./status.js";
import { visible } from "./token-text.js";
import { $, element } from "./view.js";

/** The temperatures of the expected-acceptance curve. */
const TEMPERATURES = Array.from({ length: 31 }, (_, i) => i * 0.05);
const charts = {};

/** DFlash's loop on the chat, with the draft source, semantics and block on screen. */
function speculate() {
  if (!page.modelReady) return;
  showError(null);
  $("spec-run").disabled = true;
  $("spec-status").textContent = "drafting and verifying…";
  requests.send(Purpose.speculate, {
    type: Request.speculate, chat: chat(), draft: $("spec-draft").value, blockSize: Number($("spec-block").value) || 16, temperatures: TEMPERATURES,
    options: generationOptions($("spec-semantics").value, $("params").value),
  });
}

/** A speculative run's result (`speculated` reply). */
export function showSpeculated({ id, result, curve }) {
  if (!requests.is(Purpose.speculate, id)) return;
  $("spec-run").disabled = false;
  showSpeculation(result, curve, page.plainRate);
}

export function speculationFailed(id) {
  if (!requests.is(Purpose.speculate, id)) return;
  $("spec-run").disabled = false;
  $("spec-status").textContent = "failed";
}

export function listenForSpeculation() {
  $("spec-run").addEventListener("click", speculate);
}

function showSpeculation(result, curve, plainRate) {
  const tokens = result.tokens ?? {};
  const text = (id) => visible(tokens[id] ?? String(id));
  const rows = result.rounds.map((round, i) => {
    const row = element("div", "", "spec-round");
    row.dataset.round = String(i);
    row.append(element("span", `τ ${round.acceptance_length} (E ${round.expected_acceptance_length.toFixed(2)})`, "tau"));
    const accepted = round.acceptance_length - 1;
    round.draft.forEach((id, j) => {
      const kind = j < accepted ? "accepted" : j === accepted ? "rejected" : "unverified";
      const chip = element(kind === "rejected" ? "button" : "span", text(id), `spec-token ${kind}`);
      chip.title = `${kind} draft · id ${id}${kind === "rejected" ? ` · the target drew ${round.posterior[j]} (${text(round.posterior[j])})` : ""}`;
      if (kind === "rejected") {
        chip.type = "button";
        chip.setAttribute("aria-label", `rejected draft ${text(id)} in round ${i}: show the target's distribution there`);
        chip.addEventListener("click", () => showRejection(round.rejection, i, text));
      }
      row.append(chip);
    });
    const bonus = element("span", text(round.posterior[accepted]), "spec-token bonus");
    bonus.title = `the target's own draw · id ${round.posterior[accepted]}`;
    row.append(bonus);
    return row;
  });
  document.getElementById("spec-rounds").replaceChildren(...rows);
  document.getElementById("spec-rejection").hidden = true;
  const rate = result.ids.length / (result.ms / 1000);
  const against = plainRate ? ` · plain decoding ${plainRate.toFixed(1)} tok/s` : "";
  document.getElementById("spec-status").textContent =
    `${result.ids.length} tokens in ${result.rounds.length} rounds · mean τ ${result.mean_acceptance_length.toFixed(2)} · ` +
    `${result.target_forwards} target forwards (+${result.draft_forwards} to draft) · ${rate.toFixed(1)} tok/s${against} · ${result.finish}`;
  document.getElementById("spec-charts").hidden = false;
  drawHistogram(result);
  drawCurve(curve);
}

/** Where the target drew another token than the draft: its distribution, draft and draw marked. */
function showRejection({ draft, drawn, top }, round, text) {
  document.getElementById("spec-rejection-head").textContent =
    `Round ${round}: the draft proposed ${text(draft[0])} (p = ${draft[1].toFixed(4)}); the target drew ${text(drawn[0])} (p = ${drawn[1].toFixed(4)}).`;
  // The draft and the draw are listed even where they are not among the most probable.
  const listed = [...top, ...[draft, drawn].filter(([id]) => !top.some(([t]) => t === id))];
  const rows = listed.map(([id, p]) => {
    const mark = id === draft[0] ? "draft" : id === drawn[0] ? "drawn" : "";
    const tr = element("tr", "", mark ? `marked ${mark}` : "");
    const bar = element("span", "", "bar");
    bar.style.width = `${(100 * p).toFixed(1)}%`;
    const cell = element("td", p.toFixed(4));
    cell.prepend(bar);
    tr.append(element("td", text(id), "token"), cell, element("td", mark));
    return tr;
  });
  document.getElementById("spec-rejection-rows").replaceChildren(...rows);
  document.getElementById("spec-rejection").hidden = false;
}

function drawHistogram(result) {
  const counts = Array.from({ length: result.block_size }, (_, i) => result.rounds.filter((r) => r.acceptance_length === i + 1).length);
  const canvas = document.getElementById("chart-acceptance");
  canvas.setAttribute("aria-label", `Acceptance lengths: ${counts.map((c, i) => `${i + 1}: ${c}`).join(", ")}`);
  chart("acceptance", canvas, "bar", counts.map((_, i) => String(i + 1)), [{ data: counts, backgroundColor: "#e69f00" }], "rounds");
}

function drawCurve(curve) {
  const canvas = document.getElementById("chart-tau");
  canvas.setAttribute("aria-label", `Expected acceptance length: ${curve.filter((_, i) => i % 5 === 0).map(([t, tau]) => `T ${t.toFixed(2)}: ${tau.toFixed(2)}`).join(", ")}`);
  chart("tau", canvas, "line", curve.map(([t]) => t.toFixed(2)), [{ data: curve.map(([, tau]) => tau), borderColor: "#0072b2", pointRadius: 0 }], "E[τ]");
}

function chart(key, canvas, type, labels, datasets, yTitle) {
  const c = charts[key] ?? (charts[key] = new window.Chart(canvas, {
    type, data: { labels: [], datasets: [] },
    options: { animation: false, responsive: true, maintainAspectRatio: false, plugins: { legend: { display: false } },
      scales: { y: { beginAtZero: true, title: { display: true, text: yTitle } } } },
  }));
  c.data.labels = labels;
  c.data.datasets = datasets;
  c.update("none");
}
