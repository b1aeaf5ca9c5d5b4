// The speculative-decoding view: each round as it is made, a row of drafted tokens marked kept,
// rejected, not verified or past the answer's end, then the target's own token; the run's
// acceptance lengths as a histogram and the exact expected acceptance length of one greedy draft
// by temperature. Every figure comes from the core (`Lab.startSpeculation`, `Lab.acceptanceCurve`).
import { Request } from "../shared/protocol.js";
import { Purpose, requests } from "../state/requests.js";
import { page } from "../state/store.js";
import { chat, generationOptions } from "../state/inputs.js";
import { showError } from "./status.js";
import { visible } from "./token-text.js";
import { $, element } from "./dom.js";
import { onLanguageChange, t } from "../l10n/l10n.js";
import { withModel } from "./model-panel.js";

/** The temperatures of the expected-acceptance curve. */
const TEMPERATURES = Array.from({ length: 31 }, (_, i) => i * 0.05);
const charts = {};

/** A token's text in the rounds: the model's vocabulary names it. */
const text = (id) => visible(page.vocabulary[id] ?? String(id));

/** DFlash's loop on the chat, with the draft source, semantics and block on screen. */
function speculate() {
  showError(null);
  setRunning(true);
  $("spec-status").textContent = t("spec-prefilling");
  $("spec-rounds").replaceChildren();
  $("spec-rejection").hidden = true;
  $("spec-progress").value = 0;
  requests.send(Purpose.speculate, {
    type: Request.speculate, chat: chat(), draft: $("spec-draft").value, blockSize: Number($("spec-block").value) || 16, temperatures: TEMPERATURES,
    options: generationOptions($("spec-semantics").value, $("params").value),
  });
}

function setRunning(running) {
  $("spec-run").disabled = running;
  $("spec-cancel").disabled = !running;
  $("spec-progress").hidden = !running;
}

/** A round as it is made (`speculating` reply). */
export function showRound({ id, round, done, total }) {
  if (!requests.is(Purpose.speculate, id)) return;
  const rows = $("spec-rounds");
  rows.append(roundRow(round, rows.children.length));
  rows.scrollTop = rows.scrollHeight;
  $("spec-progress").value = total ? done / total : 0;
  $("spec-status").textContent = t("spec-round-status", { round: rows.children.length, done, total });
}

/** The whole run (`speculated` reply): its figures, the histogram and the curve. */
export function showSpeculated({ id, result, curve }) {
  if (!requests.is(Purpose.speculate, id)) return;
  setRunning(false);
  $("spec-rounds").replaceChildren(...result.rounds.map(roundRow));
  const rate = result.ids.length / (result.ms / 1000);
  const figures = {
    tokens: result.ids.length, rounds: result.rounds.length, tau: result.mean_acceptance_length, target: result.target_forwards,
    draft: result.draft_forwards, rate, finish: result.finish, plain: page.plainRate ?? 0,
  };
  $("spec-status").textContent = t(page.plainRate ? "spec-done-against" : "spec-done", figures);
  $("spec-charts").hidden = false;
  drawHistogram(result);
  if (curve) drawCurve(curve);
}

export function speculationFailed(id) {
  if (!requests.is(Purpose.speculate, id)) return;
  setRunning(false);
  $("spec-status").textContent = t("spec-failed");
}

/** What each draft source shows (`spec-draft-note-<source>`): the one speculation is for, and
 * the two that check it. */
function showDraftNote() {
  $("spec-draft-note").textContent = t(`spec-draft-note-${$("spec-draft").value}`);
}

export function listenForSpeculation() {
  showDraftNote();
  $("spec-draft").addEventListener("change", showDraftNote);
  onLanguageChange(showDraftNote);
  $("spec-run").addEventListener("click", () => withModel(speculate));
  $("spec-cancel").addEventListener("click", () => requests.cancel(Purpose.speculate));
}

/** One round: its τ and E[τ], the drafted tokens by what became of them, the target's token. */
function roundRow(round, i) {
  const row = element("div", "", "spec-round");
  row.dataset.round = String(i);
  row.append(element("span", t("spec-tau", { tau: round.acceptance_length, expected: round.expected_acceptance_length }), "tau"));
  const accepted = round.acceptance_length - 1;
  round.draft.forEach((id, j) => {
    // Drafts the target matched after the answer's end are not in the answer.
    const kind = j < accepted ? (j < round.emitted ? "accepted" : "past-end") : j === accepted ? "rejected" : "unverified";
    const chip = element(kind === "rejected" ? "button" : "span", text(id), `spec-token ${kind}`);
    chip.title = kind === "rejected"
      ? t("spec-chip-rejected", { id, drawn: round.posterior[j], text: text(round.posterior[j]) })
      : t("spec-chip", { kind, id });
    if (kind === "rejected") {
      chip.type = "button";
      chip.setAttribute("aria-label", t("spec-rejected-aria", { token: text(id), round: i }));
      chip.addEventListener("click", () => showRejection(round.rejection, i, text));
    }
    row.append(chip);
  });
  if (round.emitted > accepted) {
    const bonus = element("span", text(round.posterior[accepted]), "spec-token bonus");
    bonus.title = t("spec-chip", { kind: "bonus", id: round.posterior[accepted] });
    row.append(bonus);
  }
  return row;
}

/** Where the target drew another token than the draft: its distribution, draft and draw marked. */
function showRejection({ draft, drawn, top }, round, text) {
  document.getElementById("spec-rejection-head").textContent =
    t("spec-rejection-head", { round, draft: text(draft[0]), draftP: draft[1], drawn: text(drawn[0]), drawnP: drawn[1] });
  // The draft and the draw are listed even where they are not among the most probable.
  const listed = [...top, ...[draft, drawn].filter(([id]) => !top.some(([t]) => t === id))];
  const rows = listed.map(([id, p]) => {
    const mark = id === draft[0] ? "draft" : id === drawn[0] ? "drawn" : "";
    const tr = element("tr", "", mark ? `marked ${mark}` : "");
    const bar = element("span", "", "bar");
    bar.style.width = `${(100 * p).toFixed(1)}%`;
    const cell = element("td", p.toFixed(4));
    cell.prepend(bar);
    tr.append(element("td", text(id), "token"), cell, element("td", mark ? t(`spec-mark-${mark}`) : ""));
    return tr;
  });
  document.getElementById("spec-rejection-rows").replaceChildren(...rows);
  document.getElementById("spec-rejection").hidden = false;
}

function drawHistogram(result) {
  const counts = Array.from({ length: result.block_size }, (_, i) => result.rounds.filter((r) => r.acceptance_length === i + 1).length);
  const canvas = document.getElementById("chart-acceptance");
  canvas.setAttribute("aria-label", t("spec-acceptance-aria", { counts: counts.map((c, i) => `${i + 1}: ${c}`).join(", ") }));
  chart("acceptance", canvas, "bar", counts.map((_, i) => String(i + 1)), [{ data: counts, backgroundColor: "#e69f00" }], t("spec-axis-rounds"));
}

function drawCurve(curve) {
  const canvas = document.getElementById("chart-tau");
  canvas.setAttribute("aria-label", t("spec-tau-aria", { points: curve.filter((_, i) => i % 5 === 0).map(([temperature, tau]) => `T ${temperature.toFixed(2)}: ${tau.toFixed(2)}`).join(", ") }));
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
