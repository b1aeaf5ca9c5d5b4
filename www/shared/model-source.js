// Where a model comes from, as a user writes it (the Hub field, `?model=`): a Hub repo in the
// safetensors layout (`Org/Repo`), a GGUF in a Hub repo (`Org/Repo/file.gguf`), a Hub URL
// (`…/resolve/…`, `…/blob/…`, `…/tree/…` or the repo's page), or a file of this site
// (`models/x.gguf`, `./dir/x.gguf`, `./folder/`). Anything else is refused with what to type: a
// catalog message (`{id, args}`) the page says in the reader's language.

/** @typedef {{kind: "url", url: string, sha256?: string} | {kind: "hub", base: string} | {kind: "bytes", name: string, bytes: ArrayBuffer}} ModelSource */

const HUB = "https://huggingface.co";
const HUB_HOSTS = new Set(["huggingface.co", "www.huggingface.co", "hf.co"]);
/** A Hub user or repo name: letters, digits, `-`, `_`, `.`, at most 96 characters. */
const NAME = /^[A-Za-z0-9][\w.-]{0,95}$/;
/** A refusal: what is wrong (`id` with `args`), which the catalog follows with what to type. */
const wrong = (id, args = {}) => ({ error: { id, args } });

/** The page's own default: the site's build says which (a meta tag), else the model `make demo`
 * fetches. Its sha256, where known, is checked after a download. */
export function defaultSource() {
  const meta = (name) => document.querySelector(`meta[name="sampling-lab:${name}"]`)?.content || undefined;
  const { source } = modelSource(meta("model") ?? "models/SmolLM2-135M-Instruct.Q4_1.gguf", location.href);
  return { ...source, sha256: meta("model-sha256") };
}

/**
 * The source `text` names, resolved against the page at `page`; or `{error}` saying what is wrong
 * and what to type.
 * @returns {{source: ModelSource} | {error: {id: string, args: object}}}
 */
export function modelSource(text, page) {
  const typed = text.trim();
  if (!typed) return wrong("model-source-empty");
  if (/\s/.test(typed)) return wrong("model-source-spaces", { text: typed.slice(0, 80) });
  if (/^[a-z][a-z0-9+.-]*:/i.test(typed)) return fromUrl(typed, page);
  const parts = typed.split("/");
  const hubLike = !typed.startsWith(".") && !typed.startsWith("/") && parts.every((p) => p !== "" && p !== "." && p !== "..");
  if (hubLike && parts.length === 2 && !isGguf(typed)) return repo(parts[0], parts[1], "main", "");
  if (hubLike && parts.length >= 3) return repo(parts[0], parts[1], "main", parts.slice(2).join("/"));
  if (hubLike && parts.length === 1 && !isGguf(typed)) return wrong("model-source-not-repo", { text: typed.slice(0, 80) });
  return sameOrigin(new URL(typed, page), page);
}

const isGguf = (path) => /\.gguf$/i.test(path);

/** A file (GGUF) or the folder (safetensors layout) at `path` of repo `org/name`, revision `rev`. */
function repo(org, name, rev, path) {
  if (!NAME.test(org) || !NAME.test(name)) return wrong("model-source-not-repo", { text: `${org}/${name}` });
  const base = `${HUB}/${org}/${name}/resolve/${encodeURIComponent(rev)}/`;
  const file = path.split("/").map(encodeURIComponent).join("/");
  if (isGguf(path)) return { source: { kind: "url", url: base + file } };
  if (path && !path.endsWith("/")) {
    return wrong("model-source-not-gguf", { text: `${org}/${name}/${path}` });
  }
  return { source: { kind: "hub", base: base + file } };
}

function fromUrl(text, page) {
  let url;
  try {
    url = new URL(text);
  } catch {
    return wrong("model-source-not-url", { text: text.slice(0, 80) });
  }
  if (url.origin === new URL(page).origin) return sameOrigin(url, page);
  if (url.protocol !== "https:" || !HUB_HOSTS.has(url.hostname)) {
    return wrong("model-source-other-host", { host: url.host });
  }
  const [org, name, kind, rev, ...rest] = url.pathname.split("/").slice(1).map(decodeURIComponent);
  if (!org || !name) return wrong("model-source-no-repo", { text: url.href });
  if (!kind) return repo(org, name, "main", "");
  if (!["resolve", "blob", "tree"].includes(kind) || !rev) return wrong("model-source-not-hub-path", { text: url.href });
  const path = rest.join("/");
  return repo(org, name, rev, kind === "tree" && path && !path.endsWith("/") ? `${path}/` : path);
}

function sameOrigin(url, page) {
  if (url.origin !== new URL(page).origin) return wrong("model-source-other-site", { text: url.href });
  if (isGguf(url.pathname)) return { source: { kind: "url", url: url.href } };
  if (url.pathname.endsWith("/")) return { source: { kind: "hub", base: url.href } };
  return wrong("model-source-not-file", { text: url.pathname });
}

/** How a link writes `source` back (`?model=`): short forms for the Hub, paths for this site. */
export function sourceText(source, page) {
  const url = source.url ?? source.base;
  if (!url) return "";
  const hub = /^https:\/\/huggingface\.co\/([^/]+)\/([^/]+)\/resolve\/main\/(.*)$/.exec(url);
  if (hub) return hub[3] ? `${hub[1]}/${hub[2]}/${decodeURIComponent(hub[3])}` : `${hub[1]}/${hub[2]}`;
  const own = new URL(url);
  if (own.origin !== new URL(page).origin) return url;
  const dir = new URL(".", page).pathname;
  const relative = own.pathname.startsWith(dir) ? own.pathname.slice(dir.length) : own.pathname;
  // A path that would read as a Hub id (`dir/sub/x.gguf`) keeps its "./".
  const read = modelSource(relative || "./", page).source;
  return read && (read.url ?? read.base) === url ? relative || "./" : `./${relative}`;
}
