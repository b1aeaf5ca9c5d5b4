// The message protocol between the page and its worker (worker/worker.js), which owns the wasm
// instances. Every number the page shows comes from these messages: the page computes no semantics.
//
// The worker starts on the sampling core alone and answers `render`, `inspect`, `port` and `monteCarlo`
// for the chats the page ships steps of (and for synthetic logits) without a model; for another
// chat it replies `needsModel`. Everything else needs a model: the page sends `load` first.
//
// page → worker (`id` is the caller's; replies to a request carry it back)
//   load        { id, source, precision }       source: ModelSource; precision: "exact" | "fast"
//   render      { id, chat }                    the template's text and the prompt's tokens
//   inspect     { id, chat, params, generationConfig, step, logits, options }
//                                               step: null for the token after the chat, or the
//                                               index of a token of the last generation;
//                                               logits: synthetic scores as text ("3, 2, 2, 1"),
//                                               inspected instead of the model's when given;
//                                               options: how the report is written, JSON text
//                                               ({lang, compared, write_up}: ReportOptions)
//   completions { id, chat, step, tokens }      the characters the byte tokens among `tokens`
//                                               begin, as the model completes them (needs a model)
//   useStep     { id, url, chat }               reads and checks the step file at `url` (the
//                                               link's `stepfile`) for `chat`: its figures are
//                                               then drawn without the model; replies stepUsed
//   stepFile    { id, chat }                    the next step of `chat` as a step file, from the
//                                               site's model (needs it): replies stepFile
//   monteCarlo  { id, chat, params, generationConfig, step, logits, draws, seed }
//   port        { id, chat, params, generationConfig, step, logits, options }
//                                               each column's request that samples from
//                                               transformers' distribution at the step
//   generate    { id, chat, options }           options: GenerationOptions (pkg/sampling_lab.d.ts);
//                                               with options.tokens, the answer takes those tokens
//                                               (an answer read again on the model, or under other
//                                               arguments)
//   answer      { id, chat, options, steps, params }
//                                               the report of the answer on screen, written as
//                                               options say (JSON text, {lang, compared}): of
//                                               `steps` (its figures, as `figures` replies gave
//                                               them) written under `params`, or, without steps,
//                                               of the answer the site ships for `chat`
//   alternatives{ id, step, params, generationConfig, supersedes? }
//                                               the five most probable tokens under hf and under
//                                               the literal port at generated token `step`;
//                                               `supersedes` names a kind of request of which only
//                                               the newest is answered (older ones still queued
//                                               are dropped)
//   branch      { id, step, token }             the last generation goes on from `token` chosen
//                                               at generated token `step` (the cache cut back);
//                                               replies rewound, then token… and done as generate
//   restore     { id, branch }                  the last generation goes back to left branch
//                                               `branch`; replies rewound and done
//   speculate   { id, chat, options, draft, blockSize, temperatures }
//                                               DFlash's decode loop (exact precision), and the
//                                               expected acceptance of one greedy draft over
//                                               `temperatures`
//   observe     { id, chat, options }           a generation of its own, apart from the page's (an
//                                               exercise's "generate and observe" task): replies
//                                               observed
//   cancel      { id }                          stops generation, Monte Carlo or speculative run
//                                               `id` between two tokens, chunks of draws or rounds
//   trap        { target }                      aborts the wasm as a Rust panic does (recovery tests),
//                                               or with target "memory" by exhausting its memory;
//                                               the worker's, or with target "draws" at once a
//                                               draw worker's (its part of a run is then drawn
//                                               here), or with target "pool" a pool worker's in
//                                               the middle of a product (the threaded build)
//
// worker → page
//   started     { simd, rules, columns }        the sampling core is instantiated (rules: the core's
//                                               cause names, for exercise sets; columns: the core's
//                                               columns in each language, {lang: [{name, label,
//                                               short, definition, code, draws}]}, in the
//                                               report's order); no model yet
//   shipped     { id, vocabulary, model }       the first answer from the shipped steps follows:
//                                               every token's display text by id, and the model
//                                               that made them ({path, sha256, bytes, name})
//   needsModel  { id, model }                   request `id` is about a chat the page ships no
//                                               step of: it needs a model (model: the shipped
//                                               steps' model, for its size, or null)
//   progress    { id, phase, loaded, total }    phase: "download", "download-elsewhere" (another
//                                               page of the site is downloading the same file,
//                                               which this one will read from Cache Storage),
//                                               "parse" (bytes; total may be null) or "draws"
//                                               (Monte Carlo draws, every drawing column)
//   ready       { id, info, vocabulary, threads, timings }
//                                               the model is loaded: ModelInfo, every token's
//                                               display text by id, the exact model's threads (1
//                                               in the single-threaded build), {fetchMs, parseMs,
//                                               fromCache}: parseMs until the download is kept too
//   rendered    { id, rendered }                {text, ids, tokens}
//   distribution{ id, report, source, completions }
//                                               the `sampling-lab inspect --model` report (its
//                                               tokens named by the vocabulary of `ready`, or of
//                                               `shipped`); source: "model", "shipped" (the same
//                                               logits, from the shipped steps), "file" (from the
//                                               link's step file, `url`), "kept" (the model's, of
//                                               an earlier visit) or "synthetic"; completions: a
//                                               shipped step's, [{token, text, probability,
//                                               continuation}]
//   completions { id, completions }             the model's, for a `completions` request
//   stepUsed    { id, url }                     the step file checked out: inspect draws from it
//   stepChecked { id, url, same }               the site's model loaded: the step file's logits
//                                               are (or are not) its own, bit for bit
//   stepFile    { id, text }                    the step file's text, to save
//   converging  { id, points }                  while drawing: [[port, draws, tv, bound], ...] of
//                                               this worker's draws so far
//   monteCarlo  { id, result, cancelled }       the draws made (all of them unless cancelled)
//   port        { id, ports }                   `sampling-lab port --format json` for the step
//   token       { id, step }                    {index, token, token_text, text, probability, finish}
//   figures     { id, step, figures }           generated token `step`'s figures under every
//                                               column (the core's AnswerStep: {token, hf_entropy,
//                                               columns: {<column>: {kept, tv, mass_outside_hf,
//                                               p_token}}}), for generation request `id`; they
//                                               follow its `token` (or `rewound`) reply
//   rewound     { id, fork, steps, branches }   the generation from generated token `fork` on is
//                                               now `steps`; branches: [{fork, tokens, text, eos}]
//                                               left
//   answer      { id, source, report, tokens, params, semantics, seed, finish }
//                                               report: the core's AnswerReport ({steps, summary,
//                                               lang, sentences, call}); source "generated" (of the
//                                               request's steps) or "shipped", with the shipped
//                                               answer's tokens, params, semantics, seed and
//                                               finish; source and report null when the site ships
//                                               no answer for the chat
//   done        { id, finish, steps, decoded, prefillMs, promptReused, decodeMs, ids, branches }
//                                               decoded: the steps this request ran (a branch's,
//                                               none for a restore); prefillMs: null for both;
//                                               promptReused: the prompt's forward pass was the
//                                               one its inspect already ran
//                                               finish: "eos" | "max_new_tokens" | "context_full" | "cancelled"
//   alternatives{ id, step, hf, literal, model, chosen }
//                                               [[token_id, p, text], ...] (five each; model: the
//                                               eight most probable under the raw softmax, what a
//                                               branch offers); chosen: the generated token's p
//                                               under each and under the raw softmax, {hf,
//                                               literal, model}
//   speculating { id, round, done, total }      a speculative run's round, as it is made; done:
//                                               the answer's tokens so far, total: its maximum
//   speculated  { id, result, curve }           every round, ids, text, tokens, ms, finish
//                                               ("cancelled" when stopped); [[T, τ], ...] (null
//                                               for a run stopped early)
//   observed    { id, tokens, finish, firstOutsideHf }
//                                               the generation's length in tokens, how it ended,
//                                               and its first token transformers' distribution
//                                               at that step does not keep (null: none)
//   error       { id, message, said, fatal }    message: the error's text (English for the
//                                               core's sentences, a library's words as they are);
//                                               said: what the page says instead, or null: the
//                                               worker's own words, {id, args} of the page's
//                                               catalog, or the core's, {texts: {en, zh-Hans}};
//                                               fatal: the wasm instance died
//                                               (a panic); the page must start a new worker,
//                                               which loads the model again
//
// Requests are handled one at a time, in order, except `cancel`, which a running generation
// sees between two tokens.
//
// worker → draw worker (draws.js: the worker starts it for its first Monte Carlo run, and the
// two draw half of each run's seeded blocks each)
//   init        { module }                      the sampling core's module (pkg-core/), compiled
//   draw        { id, job, draws, seed, part, parts }
//                                               job: {logits, params, generationConfig, contextIds},
//                                               the step as plain data; draws: per port
//   cancel      { id }                          stops run `id` between two chunks of draws
//   trap        {}                              aborts its wasm at once (recovery tests)
//
// draw worker → worker
//   progress    { id, done, total }             this part's draws, both ports
//   drawn       { id, counts }                  both ports' counts per token (BigUint64Array)
//   error       { id, message }                 the worker then draws this half itself
//
// The same draw worker script, started once more by the worker, reads each generated step of the
// answer under every column beside the model's decoding (answer-figures.js):
// worker → draw worker   figures { id, job }    job: {logits, params, generationConfig,
//                                               contextIds, token}, the step as plain data
// draw worker → worker   figures { id, figures } the core's answerStep, or error { id, message }

/** @typedef {import("./model-source.js").ModelSource} ModelSource */
/** @typedef {{system?: string | null, messages: {role: string, content: string}[], answer_prefix?: string}} ChatInput */

export const Request = Object.freeze({
  load: "load",
  render: "render",
  inspect: "inspect",
  monteCarlo: "monteCarlo",
  port: "port",
  completions: "completions",
  useStep: "useStep",
  stepFile: "stepFile",
  generate: "generate",
  answer: "answer",
  speculate: "speculate",
  alternatives: "alternatives",
  branch: "branch",
  restore: "restore",
  observe: "observe",
  cancel: "cancel",
  trap: "trap",
});

export const Reply = Object.freeze({
  started: "started",
  shipped: "shipped",
  needsModel: "needsModel",
  progress: "progress",
  ready: "ready",
  rendered: "rendered",
  distribution: "distribution",
  monteCarlo: "monteCarlo",
  converging: "converging",
  port: "port",
  completions: "completions",
  stepUsed: "stepUsed",
  stepChecked: "stepChecked",
  stepFile: "stepFile",
  token: "token",
  rewound: "rewound",
  done: "done",
  figures: "figures",
  answer: "answer",
  speculating: "speculating",
  speculated: "speculated",
  alternatives: "alternatives",
  observed: "observed",
  error: "error",
});

export const DrawRequest = Object.freeze({
  init: "init",
  draw: "draw",
  figures: "figures",
  cancel: "cancel",
  trap: "trap",
});

export const DrawReply = Object.freeze({
  progress: "progress",
  drawn: "drawn",
  figures: "figures",
  error: "error",
});
