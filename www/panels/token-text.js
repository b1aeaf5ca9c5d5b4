// A token's text as the page shows it: whitespace drawn as symbols, a lone byte of a UTF-8
// character as ⟨E6⟩ — and a token that begins a character named by that character, as the model
// completes it (the core's completions: `谢` for ⟨E8⟩). Presentation only: the texts and the
// completions come from the core.
import { t } from "../l10n/l10n.js";
import { element } from "./dom.js";

/** Newlines and tabs drawn as symbols, and a lone byte of a UTF-8 character as ⟨E6⟩. */
export const visible = (text) =>
  text.replace(/\n/g, "↵").replace(/\t/g, "⇥").replace(/\\x([0-9A-Fa-f]{2})/g, (_, hex) => `⟨${hex.toUpperCase()}⟩`);

/** The bytes of a token that is part of a UTF-8 character (`\xE6`, `\xE8\xB0`); null otherwise. */
const byteParts = (text) => (/^(\\x[0-9A-Fa-f]{2})+$/.test(text) ? text.match(/[0-9A-Fa-f]{2}/g).map((h) => parseInt(h, 16)) : null);

/** Whether a token's text is (part of) a UTF-8 character's bytes. */
export const isByteToken = (text) => byteParts(text) !== null || /\\x[0-9A-Fa-f]{2}$/.test(text);

/** Bytes a UTF-8 sequence starting with `lead` has (1 for a stray continuation byte). */
const sequenceLength = (lead) => (lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1);

/** Which bytes of its character a byte token holds: `{from, to, of}` (1-based), or null. */
function bytePlace(text) {
  const bytes = byteParts(text.match(/(\\x[0-9A-Fa-f]{2})+$/)?.[0] ?? "");
  if (!bytes) return null;
  // The trailing bytes: from the last lead byte on.
  const lead = bytes.findLastIndex((b) => b >= 0xc0);
  if (lead < 0) return { from: 0, to: 0, of: 0 };
  const held = bytes.length - lead;
  return { from: 1, to: held, of: sequenceLength(bytes[lead]) };
}

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

/** Where a byte token sits in its character, short: `1/3`, `1–2/3`; a middle byte `…`. */
function placeText(place) {
  if (!place.of) return t("byte-middle");
  return place.to > 1 ? t("byte-place-range", { from: place.from, to: place.to, of: place.of }) : t("byte-place", { at: place.to, of: place.of });
}

/** A token's label: what it writes — for a token that begins a character, the character as the
 * model completes it (`completion`: `{text, probability}`, when the core has it), its bytes
 * beside it — then its id. */
export function tokenLabel(id, text, completion) {
  const label = element("span", "", "token-label");
  const place = bytePlace(text);
  if (place) {
    const known = text.replace(/(\\x[0-9A-Fa-f]{2})+$/, "");
    if (completion) label.append(element("span", visible(completion.text), "glyph"));
    else if (known) label.append(element("span", visible(known), "glyph"));
    label.append(element("span", `${visible(text.slice(known.length))} ${placeText(place)}`, "bytes"));
  } else if (text) {
    label.append(element("span", visible(text), "text"));
  }
  // A token with no text (synthetic logits) is its id, shown wherever the ids are hidden.
  label.append(element("span", `#${id}`, text ? "token-id" : "text"));
  label.title = tokenNote(text, completion) ?? visible(text);
  return label;
}

/** What a byte token is, in a sentence: which bytes of which character, and the character the
 * model completes it to. Null for any other token. */
export function tokenNote(text, completion) {
  const place = bytePlace(text);
  if (!place) return null;
  const bytes = visible(text.match(/(\\x[0-9A-Fa-f]{2})+$/)[0]);
  if (!place.of) return t("byte-note-middle", { bytes });
  const where = placeText(place);
  return completion
    ? t("byte-note-completed", { bytes, place: where, character: completion.text, probability: completion.probability })
    : t("byte-note-open", { bytes, place: where });
}
