// An exercise set that travels in its link: the set's JSON, gzip-compressed (the browser's own
// CompressionStream) and base64url-encoded, in the URL's fragment (`#set=…`), which browsers never
// send to a server. A teacher without a web site gives students one link; the page checks the set
// it carries as it checks any other.
import { Said } from "../shared/said.js";

/** A set in a Hub repo, by its `resolve/` URL (a dataset's or a model's): the page's
 * Content-Security-Policy lets it fetch from huggingface.co. */
export const HUB_SET = /^https:\/\/huggingface\.co\/(datasets\/)?[\w.-]+\/[\w.-]+\/resolve\/[\w.%-]+\/[\w.%/-]+\.json$/;

/** `?exercises=` for a set carried in the link's fragment. */
export const LINKED_SET = "link";
const PREFIX = "#set=";

/** The fragment that carries `set`. */
export async function setFragment(set) {
  const stream = new Blob([JSON.stringify(set)]).stream().pipeThrough(new CompressionStream("gzip"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return PREFIX + btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The set a link's fragment carries; throws a message saying what is wrong with the link. */
export async function setFromFragment(hash) {
  if (!hash.startsWith(PREFIX) || hash.length === PREFIX.length) {
    throw new Said("set-link-missing");
  }
  let bytes;
  try {
    const binary = atob(hash.slice(PREFIX.length).replace(/-/g, "+").replace(/_/g, "/"));
    bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    throw new Said("set-link-not-base64");
  }
  let text;
  try {
    text = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
  } catch {
    throw new Said("set-link-not-gzip");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new Said("set-link-not-json");
  }
}

/** Whether the page's fragment carries a set (kept when the page rewrites its address). */
export const carriesSet = (hash) => hash.startsWith(PREFIX);
