// A model's files, fetched with progress and kept in Cache Storage: a GGUF by URL or as bytes the
// user picked, or the Hub layout under a base URL. The worker asks for them while the wasm
// compiles; parsing them is the worker's.
//
// One download per file for the whole site: pages (several embeds on one documentation page)
// take a Web Lock named after the URL, so that a second one waits for the first to store the
// file and then reads it from Cache Storage; the one downloading broadcasts its progress.
import { Said } from "../shared/said.js";

/** The model's files; `fromCache` when every one came from Cache Storage, `stored` settled
 * once every downloaded one is kept there. */
export async function fetchSource(source, onProgress) {
  if (source.kind === "bytes") return { gguf: new Uint8Array(source.bytes), fromCache: false, stored: Promise.resolve() };
  if (source.kind === "url") {
    const { bytes, fromCache, stored } = await download(source.url, { onProgress, sha256: source.sha256 });
    return { gguf: bytes, fromCache, stored };
  }
  if (source.kind === "hub") return fetchHub(source.base, onProgress);
  throw new Said("error-model-source-unknown", { kind: JSON.stringify(source?.kind) });
}

async function fetchHub(base, onProgress) {
  const file = (name) => new URL(name, base.endsWith("/") ? base : `${base}/`).href;
  const optional = (name) => download(file(name)).catch(() => undefined);
  const config = await download(file("config.json")).catch((e) => {
    throw new Said("error-hub-folder", { detail: e.said ?? e.message });
  });
  const parts = await Promise.all([
    download(file("tokenizer.json")), optional("tokenizer_config.json"), optional("generation_config.json"),
    download(file("model.safetensors"), { onProgress }),
  ]);
  const [tokenizer, tokenizerConfig, generationConfig, weights] = parts.map((p) => p?.bytes);
  return {
    config: config.bytes, tokenizer, tokenizerConfig, generationConfig, weights,
    fromCache: [config, ...parts].every((p) => !p || p.fromCache),
    stored: Promise.all([config, ...parts].map((p) => p?.stored)),
  };
}

/** The store of the model files, and of the steps the model computed (step-store.js). */
const MODEL_CACHE = "sampling-lab-models-v1";
const progressChannel = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel("sampling-lab-downloads");

/** The body of `url` (checked against `sha256` when given), from Cache Storage when it holds
 * it, else downloaded. A download is handed over as soon as it is checked, so that the model
 * parses while Cache Storage writes it (about a second for the 98 MB model); the lock is held
 * until the file is stored, so another page of the site that waits for it reads it from there. */
async function download(url, { onProgress = () => {}, sha256 } = {}) {
  const once = (checked) => downloadOnce(url, onProgress, sha256, checked);
  if (!navigator.locks) return handedOver(once);
  // While another page holds the lock, its progress is this page's too.
  const others = ({ data }) => data.url === url && onProgress(data.loaded, data.total, true);
  progressChannel?.addEventListener("message", others);
  try {
    return await handedOver((checked) => navigator.locks.request(`sampling-lab-download ${url}`, () => once(checked)));
  } finally {
    progressChannel?.removeEventListener("message", others);
  }
}

/** What `run` hands over early through its argument, else what it returns. */
const handedOver = (run) => new Promise((resolve, reject) => run(resolve).then(resolve, reject));

/** The file, from Cache Storage or downloaded and stored there; `checked` receives a download
 * while it is being stored (its `stored` settles when it is). */
async function downloadOnce(url, onProgress, sha256, checked) {
  const cache = await openCache();
  const hit = await cache?.match(url);
  if (hit) {
    // The copy is read while the server is asked whether it still has the same file.
    const [bytes, current] = await Promise.all([readCached(hit, onProgress), stillCurrent(url, hit)]);
    if (current) return { bytes, fromCache: true, stored: Promise.resolve() };
    await cache.delete(url);
  }
  const response = await fetchOrExplain(url);
  const bytes = await readBody(response, (loaded, total) => {
    onProgress(loaded, total);
    progressChannel?.postMessage({ url, loaded, total });
  });
  if (sha256) await checkSha256(url, bytes, sha256);
  // The write starts before the hand-over: the parse that follows holds this thread.
  const file = { bytes, fromCache: false, stored: remember(cache, url, bytes, response.headers) };
  checked(file);
  await file.stored;
  return file;
}

/** `fetch`, with what the user can do about a failure in its message. */
async function fetchOrExplain(url) {
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    const host = new URL(url).host;
    throw new Said("error-unreachable", { host, url, detail: e.message });
  }
  if (response.ok) return response;
  const why = { 401: "gated", 403: "gated", 404: "missing" }[response.status] ?? "other";
  throw new Said("error-http", { url, status: response.status, statusText: response.statusText, why });
}

async function checkSha256(url, bytes, expected) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const actual = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  if (actual !== expected.toLowerCase()) {
    throw new Said("error-model-sha256", { url, actual, expected });
  }
}

/** Whether the server still has the file `hit` holds (or cannot be reached: then the cached copy
 * is the best there is). */
async function stillCurrent(url, hit) {
  try {
    const head = await fetch(url, { method: "HEAD", cache: "no-store" });
    const same = (name) => head.headers.get(name) === hit.headers.get(name);
    return !head.ok || (same("content-length") && same("last-modified") && same("etag"));
  } catch {
    return true;
  }
}

/** Stores a downloaded file with the headers that say which version it is. Storage can be full
 * or unavailable (private windows): the model still loads, just uncached. */
async function remember(cache, url, bytes, headers) {
  const kept = new Headers();
  for (const name of ["content-length", "last-modified", "etag", "content-type"]) {
    if (headers.get(name) !== null) kept.set(name, headers.get(name));
  }
  try { await cache?.put(url, new Response(bytes, { headers: kept })); } catch { /* not cached */ }
}

export async function openCache() {
  try { return await caches.open(MODEL_CACHE); } catch { return null; }
}

/** A cached body in one piece: Chromium hands a blob over in half the time of reading its
 * stream chunk by chunk (75 vs 150 ms for the 98 MB model), and there is no wait to report. */
async function readCached(response, onProgress) {
  const bytes = new Uint8Array(await (await response.blob()).arrayBuffer());
  onProgress(bytes.length, bytes.length);
  return bytes;
}

async function readBody(response, onProgress) {
  const total = Number(response.headers.get("content-length")) || null;
  const reader = response.body.getReader();
  let bytes = new Uint8Array(total ?? 1 << 20);
  let loaded = 0;
  let reported = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (loaded + value.length > bytes.length) bytes = grow(bytes, loaded + value.length);
    bytes.set(value, loaded);
    loaded += value.length;
    if (loaded - reported >= 1 << 20) {
      onProgress(loaded, total);
      reported = loaded;
    }
  }
  onProgress(loaded, total);
  return loaded === bytes.length ? bytes : bytes.subarray(0, loaded);
}

function grow(bytes, needed) {
  const bigger = new Uint8Array(Math.max(needed, bytes.length * 2));
  bigger.set(bytes);
  return bigger;
}
