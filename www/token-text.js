// A token's text as the page shows it: whitespace drawn as symbols, a lone byte of a UTF-8
// character as ⟨E6⟩, and the character a run of byte tokens spells named in a tooltip.
// Presentation only: the texts come from the core's tokenizer.

/** Newlines and tabs drawn as symbols, and a lone byte of a UTF-8 character as ⟨E6⟩. */
export const visible = (text) =>
  text.replace(/\n/g, "↵").replace(/\t/g, "⇥").replace(/\\x([0-9A-Fa-f]{2})/g, (_, hex) => `⟨${hex.toUpperCase()}⟩`);

/** The bytes of a token that is part of a UTF-8 character (`\xE6`, `\xE8\xB0`); null otherwise. */
const byteParts = (text) => (/^(\\x[0-9A-Fa-f]{2})+$/.test(text) ? text.match(/[0-9A-Fa-f]{2}/g).map((h) => parseInt(h, 16)) : null);

/** Whether a token's text is (part of) a UTF-8 character's bytes. */
export const isByteToken = (text) => byteParts(text) !== null;

/** Bytes a UTF-8 sequence starting with `lead` has (1 for a stray continuation byte). */
const sequenceLength = (lead) => (lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1);

/** Marks the byte tokens (`items`: [{el, text}] in order) and names, in a tooltip, the character
 * each group of them spells once its last byte arrives: `⟨E6⟩ ⟨84⟩ ⟨9F⟩ → “感”`. A group ends at
 * the first token after which no character is left half-written. */
export function nameByteRuns(items) {
  let group = [];
  let pending = 0; // bytes the character being spelled still needs
  const close = () => {
    const bytes = Uint8Array.from(group.flatMap((item) => byteParts(item.text)));
    const label = `${group.map((item) => visible(item.text)).join(" ")} → “${new TextDecoder().decode(bytes)}”`;
    for (const item of group) {
      item.el.classList.add("byte-token");
      item.el.title = label;
    }
    group = [];
  };
  for (const item of items) {
    const bytes = byteParts(item.text);
    if (!bytes) {
      if (group.length) close();
      pending = 0;
      continue;
    }
    group.push(item);
    for (const b of bytes) pending = pending > 0 && b >= 0x80 && b < 0xc0 ? pending - 1 : sequenceLength(b) - 1;
    if (pending === 0) close();
  }
  if (group.length) close();
}
