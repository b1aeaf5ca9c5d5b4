// One drawing column's side of the Monte Carlo section: its figures (draws, distinct tokens,
// mass outside hf, the distance to its exact distribution under the check's bound, the check),
// the chart of its frequencies and the draws as a table. Built again when the language changes.
import { label } from "../state/columns.js";
import { t } from "../l10n/l10n.js";
import { details, element, tableOf } from "./dom.js";

const FIGURES = ["draws", "distinct", "outside", "tv", "check"];

export function monteCarloSide({ name, colour }) {
  const article = element("article", "", "mc-side");
  article.id = `mc-${name}`;
  article.dataset.column = name;
  article.style.borderTopColor = colour;
  const figures = element("dl", "", "figures");
  for (const field of FIGURES) {
    const dd = element("dd", "–");
    dd.id = `mc-${field}-${name}`;
    dd.dataset.testid = dd.id;
    const div = document.createElement("div");
    div.append(element("dt", t(`mc-figure-${field}`)), dd);
    figures.append(div);
  }
  const box = element("div", "", "chart small-chart");
  box.id = `mc-chart-box-${name}`;
  box.hidden = true;
  const canvas = document.createElement("canvas");
  canvas.id = `mc-chart-${name}`;
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", t("mc-chart-empty", { column: label(name) }));
  box.append(canvas);
  const table = details(t("mc-table"), tableOf([t("table-token"), t("table-id"), t("mc-drawn"), t("mc-exact-p")], `mc-top-${name}`));
  article.append(element("h3", label(name)), figures, box, table);
  return article;
}
