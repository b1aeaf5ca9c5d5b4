// An error the page or its workers raise in their own words: a catalog message (`{id, args}`)
// that the page says in the reader's language. A library's own words (transformers' refusal, a
// model file's problem as the core names it) stay plain `Error`s, quoted as they are.
export class Said extends Error {
  constructor(id, args = {}) {
    // The message, for a console: the id and its arguments.
    super(`${id} ${JSON.stringify(args)}`);
    this.said = { id, args };
  }
}
