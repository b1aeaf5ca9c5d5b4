// Where each column's draws land, at a glance: one bar per column (the compared ones first), split
// into the mass on tokens transformers keeps (solid) and the mass on tokens it never draws
// (hatched, as the table marks those tokens), with the share outside as a percentage. Every
// figure is the core's `compare[column].mass_outside_hf`; the bar is only drawn from it.
import { columns } from "../state/columns.js";
import { language, t } from "../l10n/l10n.js";
import { element } from "./dom.js";

/** The share outside as a reader reads it: `9.6%`, `<0.1%` for a sliver, `0%` for none. */
export function outsideText(mass) {
  const percent = (digits) => new Intl.NumberFormat(language(), { style: "percent", maximumSignificantDigits: digits });
  if (mass === 0) return percent(1).format(0);
  if (mass < 0.001) return `<${percent(1).format(0.001)}`;
  return percent(2).format(mass);
}

/** Draws every column but hf (transformers is the reference: all its mass is on its own support)
 * for `report`: the compared columns as long bars, every other one as a short bar after them. */
export function drawMassBars(report, compared) {
  const all = columns().filter((c) => c.name !== "hf");
  const hfRefuses = Boolean(report.hf.error);
  const draw = (id, list) => {
    document.getElementById(id).replaceChildren(...list.map((c) => massBar(c, report, compared.includes(c.name), hfRefuses)));
    document.getElementById(id).hidden = hfRefuses || list.length === 0;
  };
  draw("mass-bars", compared.map((name) => all.find((c) => c.name === name)).filter(Boolean));
  draw("mass-others", all.filter((c) => !compared.includes(c.name)));
}

function massBar(c, report, isCompared, hfRefuses) {
  const item = element("li", "", isCompared ? "mass-item compared" : "mass-item");
  item.dataset.column = c.name;
  const name = element("span", c.short, "mass-name");
  name.title = c.label;
  const swatch = element("span", "", "swatch");
  swatch.style.background = c.colour;
  name.prepend(swatch);
  const comparison = report.compare[c.name];
  if (report[c.name].error || hfRefuses || !comparison) {
    item.append(name, element("span", t("mass-refuses"), "mass-refused muted"));
    return item;
  }
  const mass = comparison.mass_outside_hf;
  const track = element("span", "", "mass-track");
  track.style.setProperty("--colour", c.colour);
  const inside = element("span", "", "mass-in");
  inside.style.width = `${(1 - mass) * 100}%`;
  const outside = element("span", "", "mass-out");
  outside.dataset.column = c.name;
  outside.dataset.outsideHf = String(mass);
  outside.style.width = `${mass * 100}%`;
  // A sliver is still a departure: drawn at least a hairline wide, its figure says how small.
  if (mass > 0) outside.classList.add("some");
  track.append(inside, outside);
  const figure = element("span", outsideText(mass), mass > 0 ? "mass-figure outside" : "mass-figure");
  item.title = t(mass > 0 ? "mass-title-outside" : "mass-title-inside", { column: c.label, share: outsideText(mass) });
  item.setAttribute("aria-label", item.title);
  item.append(name, track, figure);
  return item;
}
