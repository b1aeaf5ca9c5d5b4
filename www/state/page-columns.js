// The columns the page's title and description name, as lists in `lang` ("DFlash, …, mlx-lm and
// Ollama"): every column but transformers' own (`columns`), and those besides the pair the page
// opens on (`others`), which the description names in words. The page writes them at run time
// in the reader's language, `make site` into dist/ in English.
import { DEFAULTS } from "./state.js";
import { listOf } from "../shared/lists.js";

/** `{columns, others}` of the core's column list (`columns(lang)` of the wasm). */
export function pageColumns(list, lang) {
  const pair = DEFAULTS.cols.split(",");
  const join = (items) => listOf(items.map((c) => c.short), lang);
  const compared = list.filter((c) => c.name !== "hf");
  return { columns: join(compared), others: join(compared.filter((c) => !pair.includes(c.name))) };
}
