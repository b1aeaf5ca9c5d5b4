// The page's requests to its worker, tracked in one place: each purpose (a load, the inspect on
// screen, the generation, a Monte Carlo run, …) has one latest request, and only its replies
// count — a reply to a request the user has since replaced is dropped.
import { Request } from "../shared/protocol.js";
import { page } from "./store.js";

export class Requests {
  #next = 0;
  /** purpose → { id, context } of its latest request */
  #latest = new Map();

  /** @param {(message: object) => void} post */
  constructor(post) {
    this.post = post;
  }

  /** Sends `message` as `purpose`'s latest request; `context` is kept for its replies. */
  send(purpose, message, context = null) {
    const id = this.#next++;
    this.#latest.set(purpose, { id, context });
    this.post({ ...message, id });
    return id;
  }

  /** Whether `id` is `purpose`'s latest request. */
  is(purpose, id) {
    return this.#latest.get(purpose)?.id === id;
  }

  /** The context `purpose`'s latest request was sent with, when `id` is that request. */
  context(purpose, id) {
    const latest = this.#latest.get(purpose);
    return latest?.id === id ? latest.context : undefined;
  }

  /** `purpose`'s latest request id, or -1 (to cancel it). */
  latest(purpose) {
    return this.#latest.get(purpose)?.id ?? -1;
  }

  /** Asks the worker to stop `purpose`'s latest request (a generation, a run of draws). */
  cancel(purpose) {
    page.worker.postMessage({ type: Request.cancel, id: this.latest(purpose) });
  }
}

/** What the page asks its worker for, one latest request each. */
export const Purpose = Object.freeze({
  load: "load",
  render: "render",
  inspect: "inspect",
  generation: "generation",
  monteCarlo: "monteCarlo",
  /** The short run that times this browser's draws for the first estimate. */
  timing: "timing",
  port: "port",
  completions: "completions",
  useStep: "useStep",
  stepFile: "stepFile",
  speculate: "speculate",
  /** The answer on screen's report (or the one the site ships for the chat). */
  answer: "answer",
  /** The shipped answer's report an exercise is judged by. */
  exerciseAnswer: "exerciseAnswer",
  look: "look",
  branchChoices: "branchChoices",
  observe: "observe",
});

/** The page's requests, to whichever worker runs now (one replaces it after a crash). */
export const requests = new Requests((message) => page.worker.postMessage(message));
