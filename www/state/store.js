// Everything the page remembers between events, in one object. It is sealed: assigning a field
// that is not listed here (a misspelt name) throws instead of quietly making a new one. What a
// link carries is read into it by restoreState and written out by saveState (state.js).
import { defaultSource } from "../shared/model-source.js";
import { DEFAULTS } from "./state.js";

export const page = Object.seal({
  /** The worker that owns the wasm instance; replaced when the instance crashes. */
  worker: null,
  /** The model to load (the site's default unless a link or the user names another), and the
   * one running (to fall back on when another fails to load). */
  source: defaultSource(),
  loadedSource: null,
  /** The sampling core runs in the worker: the first figures can be drawn, from the shipped steps. */
  coreReady: false,
  modelReady: false,
  /** A model was asked for (by the reader, or by a chat the shipped steps lack): a new worker,
   * after a crash, loads it again. */
  modelWanted: false,
  /** What waits for the model, run once it is ready. */
  afterModel: null,
  /** The model the shipped steps were made with ({path, sha256, bytes, name}), for the size the
   * controls that would load it name. */
  shippedModel: null,
  /** What the model said of itself when it loaded (`{info, timings}`), to say again in another
   * language. */
  modelInfo: null,
  /** Token texts by id (the reports name tokens by id): the loaded model's, or the shipped steps'. */
  vocabulary: [],
  /** The URL state's parts that live outside the inputs. */
  preset: DEFAULTS.preset,
  embed: DEFAULTS.embed,
  /** The exact model's threads a link asked for (0: the worker's default). */
  threads: DEFAULTS.threads,
  /** How the distributions are drawn, and the columns compared with transformers (`cols`). */
  view: DEFAULTS.view,
  cols: DEFAULTS.cols,
  /** An embed's pane: the step ("step") or the answer view ("answer"). */
  pane: DEFAULTS.pane,
  /** The language a link asked for ("" for the reader's own). */
  lang: DEFAULTS.lang,
  /** The step file the link names ("" for none), and what was wrong with it (a catalog message,
   * said where the figures would be), or null. */
  stepfile: DEFAULTS.stepfile,
  stepFileProblem: null,
  /** Where the report on screen came from: "model", "shipped", "file", "kept" or "synthetic". */
  stepSource: null,
  /** The link's step file held to the model's own logits once it loaded: {url, same, chat (its
   * JSON)}, or null. */
  stepChecked: null,
  /** The generated token being inspected, or null for the token after the prompt. */
  step: null,
  /** A step a link asked for: shown once the generation it belongs to has reached it. */
  pendingStep: null,
  /** The arguments the current generation ran with ("" when there is none), and its semantics. */
  generationParams: "",
  generationSemantics: "hf",
  /** The answer on screen: where it comes from (null: none; "shipped": the site's, drawn before
   * the model; "generating", then "generated": the reader's, or the site's read again on the
   * model), each step's figures under every column (the core's, by step, as they arrive), its
   * length once generated, its report (summary and sentences, in the page's language), the call
   * it was written with and its chat; a shipped answer's tokens ({id, token_text, text}) and how
   * it ended. */
  answer: { source: null, steps: [], length: null, report: null, params: "", semantics: "hf", seed: 0, chat: null, tokens: [], finish: null },
  /** The report on screen, redrawn when the view changes. */
  lastReport: null,
  /** The inputs the report on screen was asked with (chat, arguments, step, logits). */
  shownInputs: null,
  /** The last inspect the worker refused (malformed or unknown arguments): the figures on
   * screen are then those of the last inputs that worked. */
  inspectFailed: false,
  /** What the byte tokens of the step on screen write, by token id (`{text, probability}`): the
   * shipped step's, or the model's once it is loaded. */
  completions: new Map(),
  /** The token whose ranks are open under its row of the table, or null. */
  pickedToken: null,
  /** When the Monte Carlo run on screen started (performance.now()), for its rate. */
  drawingSince: 0,
  /** Plain decoding's last rate (tokens/s), to set beside a speculative run's. */
  plainRate: null,
  /** The exercise set in use, the open task, the student's records of it (exercise-progress.js),
   * whether the teacher view is on, and the check waiting for its report. */
  exercises: { path: "", set: null, index: 0, records: [], teacher: DEFAULTS.teacher },
  pendingJudge: null,
  /** What was wrong with the link the page opened (`{id, args}` each); shown until the user
   * changes something. */
  linkProblems: [],
  /** The error on the error line: a catalog message (`{id, args}`), or a library's own words. */
  error: null,
  /** What made the worker crash, until its restart is done: then the error line says it
   * restarted, until the user changes something. */
  crash: null,
});
