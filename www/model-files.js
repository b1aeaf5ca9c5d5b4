// A model's files, fetched with progress and kept in Cache Storage: a GGUF by URL or as bytes the
// user picked, or the Hub layout under a base URL. The worker asks for them while the wasm
// compiles; parsing them is the worker's.

/** The model's files; `fromCache` when every one came from Cache Storage. */
export async function fetchSource(source, onProgress) {
  if (source.kind === "bytes") return { gguf: new Uint8Array(source.bytes), fromCache: false };
  if (source.kind === "url") {
    const { bytes, fromCache, stored } = await download(source.url, onProgress);
    return { gguf: bytes, fromCache, stored };
  }
  if (source.kind === "hub") return fetchHub(source.base, onProgress);
  throw new Error(`unknown model source ${JSON.stringify(source?.kind)}`);
}

async function fetchHub(base, onProgress) {
  const file = (name) => new URL(name, base.endsWith("/") ? base : `${base}/`).href;
  const optional = (name) => download(file(name)).catch(() => undefined);
  const parts = await Promise.all([
    download(file("config.json")), download(file("tokenizer.json")),
    optional("tokenizer_config.json"), optional("generation_config.json"),
    download(file("model.safetensors"), onProgress),
  ]);
  const [config, tokenizer, tokenizerConfig, generationConfig, weights] = parts.map((p) => p?.bytes);
  return {
    config, tokenizer, tokenizerConfig, generationConfig, weights,
    fromCache: parts.every((p) => !p || p.fromCache), stored: Promise.all(parts.map((p) => p?.stored)),
  };
}

const MODEL_CACHE = "sampling-lab-models-v1";

/** The body of `url`, reporting bytes as they arrive; `fromCache` when Cache Storage had it,
 * `stored` settles once a fresh download is in Cache Storage (written while it is read). */
async function download(url, onProgress = () => {}) {
  const cache = await openCache();
  const hit = await cache?.match(url);
  if (hit) {
    // The copy is read while the server is asked whether it still has the same file.
    const [bytes, current] = await Promise.all([readCached(hit, onProgress), stillCurrent(url, hit)]);
    if (current) return { bytes, fromCache: true, stored: Promise.resolve() };
    await cache.delete(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${response.statusText}`);
  const stored = remember(url, response.clone());
  return { bytes: await readBody(response, onProgress), fromCache: false, stored };
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

async function remember(url, response) {
  // Storage can be full or unavailable (private windows); the model still loads, just uncached.
  try { await (await openCache())?.put(url, response); } catch { /* not cached */ }
}

async function openCache() {
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
