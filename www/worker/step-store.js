// The steps the page's model computed, kept in Cache Storage beside the model (the same store,
// under a path of their own), so that a second visit to the same chat draws its figures at once,
// before the model loads. Each is kept as a step file (step_file.rs) and read back through the
// core's checks, as any step file is; at most KEEP, the oldest dropped first.
import { openCache } from "./model-files.js";

const KEEP = 32;
const PREFIX = "/__sampling-lab/steps/";

/** The store's key of `chat`'s next step under the model `sha256`. */
async function key(sha256, chat) {
  const bytes = new TextEncoder().encode(`${sha256}\n${JSON.stringify(chat)}`);
  const digest = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
  return new URL(`${PREFIX}${digest}.json`, self.location.origin).href;
}

/** The kept step of `chat` (the step file's text), or null. */
export async function keptStep(sha256, chat) {
  const cache = await openCache();
  const hit = await cache?.match(await key(sha256, chat));
  return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
}

/** Keeps `text`, the step file of `chat`'s next step under the model `sha256`. */
export async function keepStep(sha256, chat, text) {
  const cache = await openCache();
  if (!cache) return;
  try {
    await cache.put(await key(sha256, chat), new Response(text, { headers: { "content-type": "application/json" } }));
    // Keys come back in the order they were stored: the oldest go first.
    const steps = (await cache.keys()).filter((request) => new URL(request.url).pathname.startsWith(PREFIX));
    await Promise.all(steps.slice(0, Math.max(0, steps.length - KEEP)).map((request) => cache.delete(request)));
  } catch { /* storage full or off: the step is not kept */ }
}
