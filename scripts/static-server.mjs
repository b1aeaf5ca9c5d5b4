// A static file server for the bench and the browser tests: folders under URL prefixes, and the
// response headers a host would send (none, like a plain file host; cross-origin isolation; or
// a `_headers` file's, as Netlify and Cloudflare Pages apply them).
import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { gzipSync } from "node:zlib";

const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css",
  ".wasm": "application/wasm", ".json": "application/json", ".png": "image/png", ".svg": "image/svg+xml",
  ".txt": "text/plain; charset=utf-8", ".md": "text/markdown; charset=utf-8",
};

/** COOP and COEP: what threaded wasm (ours, wllama's, onnxruntime's) needs to share memory. */
export const ISOLATED = { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" };

/**
 * Serves `mounts` ([[URL prefix, folder], …], the first match wins; a folder's index.html answers
 * for it) on 127.0.0.1 at a free port. `headers(path)` gives the extra response headers for a
 * request path; `onRequest(method, path)` hears of every request. With `gzip`, responses a browser
 * accepts gzipped are sent so (except models: quantized weights barely shrink), as static hosts
 * do. Resolves to {server, base}.
 */
export function serveStatic(mounts, headers = () => ({}), onRequest = () => {}, { gzip = false } = {}) {
  const compressed = new Map();
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    onRequest(req.method, path);
    const mount = mounts.find(([prefix]) => path.startsWith(prefix));
    let file = mount ? normalize(join(mount[1], path.slice(mount[0].length))) : null;
    if (file && existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
    if (!file || !file.startsWith(normalize(mount[1])) || !existsSync(file) || statSync(file).isDirectory()) {
      res.writeHead(404, headers(path)).end();
      return;
    }
    const head = {
      "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
      "Content-Length": statSync(file).size,
      "Last-Modified": statSync(file).mtime.toUTCString(),
      ...headers(path),
    };
    if (gzip && /\bgzip\b/.test(req.headers["accept-encoding"] ?? "") && !file.endsWith(".gguf")) {
      const key = `${file} ${head["Last-Modified"]}`;
      if (!compressed.has(key)) compressed.set(key, gzipSync(readFileSync(file), { level: 9 }));
      const body = compressed.get(key);
      res.writeHead(200, { ...head, "Content-Encoding": "gzip", "Content-Length": body.length, Vary: "Accept-Encoding" });
      res.end(req.method === "HEAD" ? undefined : body);
      return;
    }
    res.writeHead(200, head);
    if (req.method === "HEAD") res.end();
    else createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, base: `http://127.0.0.1:${server.address().port}/` })));
}

/** The headers a `_headers` file gives each path (Netlify's and Cloudflare Pages' format: a
 * path pattern line, `*` matching any run of characters, then indented `Name: value` lines),
 * for a site served under `prefix`. */
export function headersFile(file, prefix = "/") {
  const rules = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.trim() || line.trim().startsWith("#")) continue;
    if (!/^\s/.test(line)) {
      const pattern = new RegExp(`^${line.trim().replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
      rules.push({ pattern, headers: {} });
    } else {
      const [name, ...value] = line.trim().split(":");
      rules.at(-1).headers[name.trim()] = value.join(":").trim();
    }
  }
  return (path) => {
    const local = path.startsWith(prefix) ? `/${path.slice(prefix.length)}` : path;
    return Object.assign({}, ...rules.filter((r) => r.pattern.test(local)).map((r) => r.headers));
  };
}
