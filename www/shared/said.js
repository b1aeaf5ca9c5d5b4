// An error the page or its workers raise in their own words: a catalog message (`{id, args}`)
// that the page says in the reader's language. The Rust core's sentences come in every language
// its catalogs have (a wasm error's `texts`, `{en, "zh-Hans"}`); a library's own words
// (transformers' refusal, candle's error) stay plain `Error`s, quoted as they are.
export class Said extends Error {
  constructor(id, args = {}) {
    // The message, for a console: the id and its arguments.
    super(`${id} ${JSON.stringify(args)}`);
    this.said = { id, args };
  }
}

/** What a caught error says, as the page's `say` takes it: the page's words (`{id, args}`), the
 * core's in every language (`{texts}`), or null for a library's words (its `message`). */
export function saidBy(e) {
  if (e?.said) return e.said;
  return e?.texts ? { texts: { ...e.texts } } : null;
}
