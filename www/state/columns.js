// The columns the page shows, as the core lists them (the worker's `started` reply: name, label,
// short label, definition, code language, whether Monte Carlo draws it), in the report's order.
// The colours are the page's own: its palette (style.css) dealt out in that order.

/** @typedef {{name: string, label: string, short: string, definition: string, code: string | null, draws: boolean, colour: string}} ColumnInfo */

/** @type {ColumnInfo[]} */
let list = [];

/** Takes the core's list; each column gets the palette's next colour. */
export function setColumns(infos) {
  const style = getComputedStyle(document.documentElement);
  list = infos.map((info, i) => ({ ...info, colour: style.getPropertyValue(`--column-${i % PALETTE_SIZE}`).trim() }));
}

/** The palette's length in style.css (`--column-0` …). */
const PALETTE_SIZE = 12;

/** Every column, in the report's order; empty until the core has listed them. */
export const columns = () => list;

export const names = () => list.map((c) => c.name);

export const column = (name) => list.find((c) => c.name === name);

/** A column's name for readers, as the core gives it. */
export const label = (name) => column(name)?.label ?? name;
