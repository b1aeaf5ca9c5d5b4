// Trusted Types: the Content-Security-Policy requires them for every script sink, so the only
// script URLs this page can hand to the browser are its own workers, the three scripts of its
// worker/ folder (the model's, its pool's and the draw workers'), through this policy.
// (No HTML sink is used at all: text goes in with textContent.)

const WORKERS = /\/worker\/(worker|pool-worker|draws)\.js$/;
const policy = globalThis.trustedTypes?.createPolicy("sampling-lab", {
  createScriptURL(url) {
    const parsed = new URL(url, location.href);
    if (parsed.origin !== location.origin || !WORKERS.test(parsed.pathname)) throw new TypeError(`not one of the page's workers: ${url}`);
    return parsed.href;
  },
});

/** A worker script of this page, as the browser's Worker constructor accepts it. */
export const workerScript = (url) => (policy ? policy.createScriptURL(String(url)) : String(url));
