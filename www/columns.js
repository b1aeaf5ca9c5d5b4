// The columns the page shows, in the report's order: presentation only (names, labels,
// colours); every figure in them comes from the core's report.

/** Okabe–Ito colours, distinguishable with every common colour-vision deficiency. */
export const COLUMNS = [
  { name: "hf", label: "transformers (hf)", colour: "#0072b2" },
  { name: "literal", label: "literal candle port", colour: "#d55e00", code: true, draws: true },
  { name: "corrected", label: "corrected candle port", colour: "#009e73", code: true, draws: true },
  { name: "dflash", label: "DFlash sample()", colour: "#e69f00", code: true, draws: true },
  { name: "transformers_js", label: "transformers.js", colour: "#56b4e9" },
];

/** Okabe–Ito reddish purple: mass on tokens that transformers never draws. */
export const HIGHLIGHT = "#cc79a7";

export const column = (name) => COLUMNS.find((c) => c.name === name);

/** A column's label as the report names it (transformers.js with the version it reproduces). */
export function label(name, report) {
  const version = name === "transformers_js" ? report?.transformers_js?.version : null;
  return version ? `${column(name).label} ${version}` : column(name).label;
}
