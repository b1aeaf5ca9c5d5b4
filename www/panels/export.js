// The distributions on screen as files: CSV (one row per token any side keeps), the report as
// JSON, a chart as PNG. Formatting only: every number comes from the core's report.
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

export function exportReport(kind, report) {
  if (kind === "csv") return download("sampling-lab.csv", reportCsv(report), "text/csv");
  if (kind === "json") return download("sampling-lab.json", JSON.stringify(report, null, 1), "application/json");
  const image = chartImage(kind);
  if (image) download(`sampling-lab-${kind}.png`, image, "image/png");
}
