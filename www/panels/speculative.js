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
import { $, element } from "./view.js";
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
  $("spec-status").textContent = "prefilling the prompt…";
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
  $("spec-status").textContent = `round ${rows.children.length} · ${done} of at most ${total} tokens`;
}

/** The whole run (`speculated` reply): its figures, the histogram and the curve. */
export function showSpeculated({ id, result, curve }) {
  if (!requests.is(Purpose.speculate, id)) return;
  setRunning(false);
  $("spec-rounds").replaceChildren(...result.rounds.map(roundRow));
  const rate = result.ids.length / (result.ms / 1000);
  const against = page.plainRate ? ` · plain decoding ${page.plainRate.toFixed(1)} tok/s` : "";
  $("spec-status").textContent =
    `${result.ids.length} tokens in ${result.rounds.length} rounds · mean τ ${result.mean_acceptance_length.toFixed(2)} · ` +
    `${result.target_forwards} target forwards (+${result.draft_forwards} to draft) · ${rate.toFixed(1)} tok/s${against} · ${result.finish}`;
  $("spec-charts").hidden = false;
  drawHistogram(result);
  if (curve) drawCurve(curve);
}

export function speculationFailed(id) {
  if (!requests.is(Purpose.speculate, id)) return;
  setRunning(false);
  $("spec-status").textContent = "failed";
}

/** What each draft source shows: the one speculation is for, and the two that check it. */
const DRAFT_NOTES = {
  "prompt-lookup": "Prompt lookup drafts the tokens that followed the last ones where they appear earlier in the chat: free to make, and kept where the answer repeats the prompt — what speculation is for.",
  sampled: "A draft sampled at the call's temperature from the target itself: how often a draw agrees with another draw of the same distribution.",
  greedy: "The target drafting for itself, greedily: at temperature 0 every draft is kept. A demonstration that verification changes nothing, not a speed-up: the draft costs a forward per token.",
};

function showDraftNote() {
  $("spec-draft-note").textContent = DRAFT_NOTES[$("spec-draft").value] ?? "";
}

export function listenForSpeculation() {
  showDraftNote();
  $("spec-draft").addEventListener("change", showDraftNote);
  $("spec-run").addEventListener("click", () => withModel(speculate));
  $("spec-cancel").addEventListener("click", () => requests.cancel(Purpose.speculate));
}

/** One round: its τ and E[τ], the drafted tokens by what became of them, the target's token. */
function roundRow(round, i) {
  const row = element("div", "", "spec-round");
  row.dataset.round = String(i);
  row.append(element("span", `τ ${round.acceptance_length} (E ${round.expected_acceptance_length.toFixed(2)})`, "tau"));
  const accepted = round.acceptance_length - 1;
  round.draft.forEach((id, j) => {
    // Drafts the target matched after the answer's end are not in the answer.
    const kind = j < accepted ? (j < round.emitted ? "accepted" : "past-end") : j === accepted ? "rejected" : "unverified";
    const chip = element(kind === "rejected" ? "button" : "span", text(id), `spec-token ${kind}`);
    chip.title = `${KINDS[kind]} · id ${id}${kind === "rejected" ? ` · the target drew ${round.posterior[j]} (${text(round.posterior[j])})` : ""}`;
    if (kind === "rejected") {
      chip.type = "button";
      chip.setAttribute("aria-label", `rejected draft ${text(id)} in round ${i}: show the target's distribution there`);
      chip.addEventListener("click", () => showRejection(round.rejection, i, text));
    }
    row.append(chip);
  });
  if (round.emitted > accepted) {
    const bonus = element("span", text(round.posterior[accepted]), "spec-token bonus");
    bonus.title = `${KINDS.bonus} · id ${round.posterior[accepted]}`;
    row.append(bonus);
  }
  return row;
}

/** What each mark in the rounds means (the legend above them says the same). */
const KINDS = {
  accepted: "a drafted token the target kept",
  rejected: "the first drafted token the target did not draw (click: its distribution there)",
  unverified: "drafted after a rejection: not verified",
  "past-end": "drafted and matched after the answer's end: not in the answer",
  bonus: "the target's own token, at the rejection or after the last kept draft",
};

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
