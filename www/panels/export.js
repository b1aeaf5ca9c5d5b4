// The distributions on screen as files: CSV (one row per token any side keeps), the report as
// JSON, a chart as PNG; the answer on screen as CSV (one row per step) and JSON. Formatting only:
// every number comes from the core's reports.
import { chartImage } from "./charts.js";
import { names } from "../state/columns.js";

export function reportCsv(report) {
  const NAMES = names();
  const probabilities = NAMES.map((n) => new Map(report[n].support));
  const ids = [...new Set(NAMES.flatMap((n) => report[n].support.map(([id]) => id)))].sort((a, b) => a - b);
  const rows = ids.map((id) => [id, quoted(report.tokens?.[id] ?? ""), ...probabilities.map((p) => p.get(id) ?? 0)].join(","));
  return [["token_id", "token", ...NAMES.map((n) => `p_${n}`)].join(","), ...rows].join("\n") + "\n";
}

/** A CSV field: quoted, inner quotes doubled, and a leading formula character defused. */
function quoted(text) {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

export function download(name, content, type) {
  const url = content.startsWith?.("data:") ? content : URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  if (!url.startsWith("data:")) setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The answer's steps, one row each: the token, transformers' entropy, then each column's `kept`,
 * `tv`, `mass_outside_hf` and `p_token` (empty where the column refuses the call). */
export function answerCsv(tokens, steps) {
  const NAMES = names();
  const FIELDS = ["kept", "tv", "mass_outside_hf", "p_token"];
  const head = ["step", "token_id", "token", "hf_entropy", ...NAMES.flatMap((n) => FIELDS.map((f) => `${f}_${n}`))];
  const rows = steps.map((step, i) => [
    i, step.token, quoted(tokens[i] ?? ""), step.hf_entropy ?? "",
    ...NAMES.flatMap((n) => FIELDS.map((f) => step.columns[n]?.[f] ?? "")),
  ].join(","));
  return [head.join(","), ...rows].join("\n") + "\n";
}

/** The answer on screen as a file: `csv` (a row per step) or `json` (its tokens and the core's
 * report: steps, summary, sentences). */
export function exportAnswer(kind, answer) {
  if (kind === "answer-csv") return download("sampling-lab-answer.csv", answerCsv(answer.tokens, answer.steps), "text/csv");
  download("sampling-lab-answer.json", JSON.stringify(answer, null, 1), "application/json");
}

export function exportReport(kind, report) {
  if (kind === "csv") return download("sampling-lab.csv", reportCsv(report), "text/csv");
  if (kind === "json") return download("sampling-lab.json", JSON.stringify(report, null, 1), "application/json");
  const image = chartImage(kind);
  if (image) download(`sampling-lab-${kind}.png`, image, "image/png");
}
