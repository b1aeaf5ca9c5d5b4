// How the page's words are joined, in each language, without a catalog: used where a page and a
// build script both write a list (the page's title, `make site`'s dist/index.html).

/** Chinese text without the spaces a placeable leaves between two Chinese characters, as the
 * core's catalog writes it: `{ $column } 落在` reads `vLLM 落在`, and a name that ends in Chinese
 * (`照字面搬的 candle 移植`) must not then read `移植 落在`. */
const CHINESE = "[\u3000-\u303F\u4E00-\u9FFF\uFF00-\uFFEF]";
const SPACE_BETWEEN_CHINESE = new RegExp(`(?<=${CHINESE}) (?=${CHINESE})`, "gu");
export const tighten = (text) => text.replace(SPACE_BETWEEN_CHINESE, "");

/** Items as a sentence lists them in `lang` (Intl.ListFormat's words), with the catalogs' spacing
 * in Chinese: a space between 和 and a Latin name (`mlx-lm 和 Ollama`), none between Chinese. */
export function listOf(items, lang) {
  const parts = new Intl.ListFormat(lang, { type: "conjunction" }).formatToParts(items);
  const text = parts.map(({ type, value }) => (type === "literal" && lang === "zh-Hans" && value.trim() === "和" ? " 和 " : value)).join("");
  return lang === "zh-Hans" ? tighten(text) : text;
}
