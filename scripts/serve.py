"""Serves the page on 127.0.0.1: www/ at /, the wasm builds at /pkg-core/, /pkg/ and /pkg-threads/,
the shipped steps at /steps/, models at /models/.

Any static host works for the page; this one adds the headers a careful host would send (wasm MIME
type, a Content-Security-Policy, cross-origin isolation for threaded wasm).
"""

import argparse
import functools
import http.server
import os
import posixpath
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MOUNTS = {"/pkg-core/": "pkg-core", "/pkg/": "pkg", "/pkg-threads/": "pkg-threads", "/steps/": "steps", "/models/": "models"}
CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; "
    "style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self' https://huggingface.co https://*.huggingface.co https://*.hf.co; object-src 'none'; base-uri 'none'; require-trusted-types-for 'script'; trusted-types sampling-lab"
)


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".json": "application/json",
        ".gguf": "application/octet-stream",
        ".npy": "application/octet-stream",
        ".f32": "application/octet-stream",
    }

    def translate_path(self, path):
        path = posixpath.normpath(urllib.parse.unquote(urllib.parse.urlsplit(path).path))
        for prefix, folder in MOUNTS.items():
            if path.startswith(prefix):
                return os.path.join(ROOT, folder, path[len(prefix):])
        return os.path.join(ROOT, "www", path.lstrip("/"))

    def end_headers(self):
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, fmt, *args):
        if os.environ.get("SERVE_QUIET") != "1":
            super().log_message(fmt, *args)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=8080)
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), functools.partial(Handler))
    print(f"sampling-lab: http://127.0.0.1:{args.port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
