## The page's own sentences. The core's (the finding, the causes, the temperature table, the
## columns' names and definitions, "port this call"'s verdicts) come from the wasm, already in the
## reader's language. Code, column and product names and a library's own words are arguments.

## The head and the header.
page-title = sampling-lab — what generate() samples from, and what { $columns } sample for the same call
page-description = For the same next-token logits of SmolLM2-135M, running in the browser: what transformers' generate() samples from, what a literal candle port and the corrected port sample from, and what { $others } draw for the same arguments — and why they differ.
skip-link = Skip to Inspect and Generate
open-full-page = Open in sampling-lab ↗
nav-page =
    .aria-label = Page
exercises-link = Exercises
copy-link = Copy link
embed-this = Embed this
language-label = Language
purpose = What transformers' { $generate } samples from, next to what other libraries draw for the same call on the same logits — SmolLM2-135M, running in your browser — and why they differ.
share-link-label = Link to this state
share-link =
    .placeholder = a link that restores this page exactly
model-download-progress =
    .aria-label = Model download
load-model = Load the model

## The model's status line.
status-starting = starting
status-no-model = no model loaded
status-ready = ready
status-loading = loading the model
status-downloading = downloading { $done }{ $total ->
    [none] {""}
   *[other] { " " }/ { $total } ({ $percent }%)
}
status-downloading-elsewhere = another page of this site is downloading it: { $done }{ $total ->
    [none] {""}
   *[other] { " " }/ { $total } ({ $percent }%)
}
status-parsing = parsing
status-failed = failed

## The controls.
controls-region =
    .aria-label = Prompt and parameters
synthetic-note = The chat is not used: the logits are the synthetic ones under “generation_config.json & synthetic logits”. Empty them to see the model's again.
user-message = User message
assistant-prefix = Assistant prefix
system-message-summary = System message
system-message = System message (optional)
inspect = Inspect
generate = Generate
cancel = Cancel
semantics = Semantics
max-new-tokens = max new tokens
seed = seed
presets = Presets
arguments-legend = generate() arguments: ticked is passed (a value, or None), unticked is not passed
params-label = generate() keyword arguments (JSON; a missing key is “not passed”, { $none } is None)
tokens-summary = Tokens ({ $count }) & template
prompt-tokens =
    .aria-label = Prompt tokens
json-summary = generation_config.json & synthetic logits
generation-config-label = Model's generation_config.json (optional)
logits-label = Synthetic logits (optional: inspected instead of the model's, e.g. { $example })
model-summary = Model & files
precision = Precision
precision-exact = exact (f32, equals transformers)
precision-fast = fast (quantized matmuls)
model-file = Open a .gguf file (or drop one on the page)
hub-label = A model on Hugging Face or on this site
hub-input =
    .placeholder = Org/Repo, Org/Repo/file.gguf or a URL
hub-help = A repo in the safetensors layout ({ $safetensors }), a GGUF in a repo ({ $gguf }), a huggingface.co URL, or a file of this site ({ $local }).
hub-load = Load it
default-model = The default model

## The story: the finding, the causes, the figures and the chart.
figures-hidden = This task's figures are hidden until it is answered, or until “Show me”.
why-title = Why they differ
causes-waiting = The distributions appear once the core is ready.
figures-waiting = Here: every column's probabilities for the next token, side by side.
figures-stale-refused = These figures are still those of the last arguments that worked: the ones in the box are refused (the red line says why).
figures-stale-edited = The arguments in the box have changed: Inspect to see their figures.
figures-stale-chat = These figures are the previous chat's: this one's come with Inspect (for a chat the site does not ship, once the model has loaded).
noscript-note = These figures were computed when this site was built, for the call and the chat they name. Changing either, the answer view's colours, the model and everything else on this page need JavaScript.
causes-none = Every column samples from transformers' distribution for these settings.
# A cause's column before its sentence; the quoted space keeps the gap English puts after a colon.
cause-lead = { $column }:{ " " }
causes-more = Show { $count ->
    [one] { $count } more cause
   *[other] { $count } more causes
}
causes-fewer = Show fewer
distributions-region =
    .aria-label = Distributions
view-legend = View
view-compare = Compare
view-panels = Panels
log-scale = log scale
export = Export
export-png = { $chart } chart PNG
glossary-summary = What the columns and the figures are
figures-title = Every column's figures
figures-table =
    .aria-label = Headline figures
figures-column = column
compare-toggle =
    .aria-label = Chart { $column } against transformers
figures-error = error
chart-legend =
    .aria-label = Legend
token-detail-region =
    .aria-label = The token picked on the chart
compare-region =
    .aria-label = Every column's probability of the step's most probable tokens
compare-table-label = Each token's probability under every column, { $columns } first
compare-start = Compare { $column } with transformers
compare-stop = Stop comparing { $column } with transformers
table-token = token
table-id = id
figure-kept = kept
figure-tv = TV to hf
figure-only-here = only here
figure-cut-here = cut here
only-here = +{ $count } · { $mass }
only-here-short = +{ $count }
cut-here = −{ $count }
cell-cut = { $column } cuts this token
cell-outside = { $column } keeps this token, which transformers never draws
rank-of = p { $p }, rank { $rank } of { $kept }
rank-not-kept = not kept
rank-refused = refused
close = Close
legend-bar = probability (the same scale in every column)
legend-cut = a token the column cuts
legend-outside = a token transformers never draws:
write-up-load = Load the original weights from the Hub
effective = effective: { $values }
effective-implicit = { " · " }implicit: { $implicit }
entropy-nats = { $value } nats
code-refused = // the call is refused: there is nothing to port.
copy-code = Copy code
copied = Copied
copy-code-select = Select the code to copy it
copy-select = Select and copy the text above.
link-copied = Link copied.
link-copied-file-left-out = Link copied; it opens the site's default model: a file from your computer cannot travel in a link.
embed-copied = Embed snippet copied.
embed-copied-file-left-out = Embed snippet copied; it opens the site's default model: a file from your computer cannot travel in a link.
embed-title = sampling-lab: what each sampler draws from
panel-table = Top tokens as a table
panel-code = { $language } code of this port
chart-empty = { $column }: no distribution yet
chart-describe = { $column }: { $tokens }…
chart-click = click to see its rank under every column
axis-p-log = p (log)
megabytes = { NUMBER($value, minimumFractionDigits: 1, maximumFractionDigits: 1) } MB
megabytes-whole = { NUMBER($value, maximumFractionDigits: 0) } MB
the-model-files = its files
load-model-size = Load the model ({ $size })
load-model-embed = Load the model: generate, and any chat
load-model-embed-size = Load the model ({ $size }): generate, and any chat
needs-model-after-load = { $label } (after the model loads)
needs-model-loads = { $label } (loads { $size })
needs-model-loads-model = { $label } (loads the model)
needs-model-loading = This chat's next token needs the model ({ $size }): it is loading, and the figures follow.
needs-model-embed = This chat's next token needs the model ({ $size }), which this page loads only when you ask.
model-own-name = the file's own name: { $name }
model-info = { $weights } · { $precision } · { $threads ->
    [one] 1 thread
   *[other] { $threads } threads
} · SIMD { $simd } · loaded in { NUMBER($seconds, minimumFractionDigits: 1, maximumFractionDigits: 1) } s
model-info-cached = { $weights } · { $precision } · { $threads ->
    [one] 1 thread
   *[other] { $threads } threads
} · SIMD { $simd } · loaded from the browser's cache in { NUMBER($seconds, minimumFractionDigits: 1, maximumFractionDigits: 1) } s
context-synthetic = on the synthetic logits { $logits }
context-generated = at generated token { $step }
context-after = → the token after “{ $content }”
context-after-prefix = → the token after “{ $content }” and “{ $prefix }”
behaviour-argmax = argmax
behaviour-sample = sample
behaviour-error = error

## Byte tokens: what a token that begins a character writes.
byte-place = { $at }/{ $of }
byte-place-range = { $from }–{ $to }/{ $of }
byte-middle = …
byte-note-open = { $bytes }: bytes { $place } of a UTF-8 character; the tokens after it finish the character (the model, once loaded, says which).
byte-note-completed = { $bytes }: bytes { $place } of a UTF-8 character; the model completes it as “{ $character }” (p { NUMBER($probability, maximumSignificantDigits: 2) } for the rest of it).
byte-note-middle = { $bytes }: bytes in the middle of a UTF-8 character, finishing what the tokens before began.

## The glossary.
term-kept = kept
term-kept-definition = Tokens a draw can land on: the size of the column's support.
term-tv = TV to hf
term-tv-definition = Total variation distance to transformers' distribution, ½ Σ |p − p_hf|: the share of draws that would have to change for the two to agree.
term-maxdp = max |Δp|
term-maxdp-definition = The largest difference between the column's probability of a token and transformers' (“agrees” means at most 1e-6).
term-outside = mass outside hf
term-outside-definition = The probability the column puts on tokens transformers never draws: the hatched bars.
term-entropy = entropy
term-entropy-definition = How spread the distribution is, in nats: 0 for one certain token, ln 49152 ≈ 10.8 for all tokens alike.
term-bytes = byte tokens ⟨E6⟩
term-bytes-definition = A token that is one byte of a UTF-8 character: SmolLM2 spells a Chinese character in two or three of them. The table names each by the character the model completes it to, its bytes beside it (1/3: the first of three).

## The temperature table.
thresholds-title = Where “temperature zero” begins, at temperature { $temperature }
thresholds-system = system
thresholds-does = does
thresholds-why = why

## "Port this call".
port-title = Port this call
port-summary = The request that makes each runtime sample from transformers' distribution here
port-explanation = Each request is checked by the core: the column set up with it must draw from hf's distribution at this step (no probability more than 1e-6 apart). Where none of the call's values can — a runtime that filters before the temperature, or measures top-p on the whole distribution — the nearest is given with its distance, and the request that agrees at this step only: top_k = the tokens transformers keeps here.
port-checking = Checking each runtime's request…
port-nothing = Nothing to port: { $problem }
port-item-summary = { $column } — { $verdict }
port-caption = { $title }: { $call } — { $verdict }
cell-probability = { $column }: { $p }
port-agrees = agrees
port-this-step = at this step only
port-nearest = nearest
port-request = The request
port-request-nearest = The nearest request made of the call's values
port-request-this-step = At this step only
port-agrees-note = agrees: every probability within 1e-6 of hf's
port-tv = TV { NUMBER($tv, minimumFractionDigits: 4, maximumFractionDigits: 4) } to hf
port-refused = Refused: { $error }

## Presets and arguments.
preset-temp-0-7 = temp 0.7
preset-top-k-0 = temp 0.7, top_k 0
preset-top-k-40 = top_k 40
preset-top-p-0-9 = top_k 0, top_p 0.9
preset-top-k-40-top-p-0-9 = top_k 40, top_p 0.9
preset-smollm2 = SmolLM2's recommended
preset-dflash-0-6 = DFlash's temperature 0.6
preset-dflash-benchmark = DFlash's benchmark on vLLM/SGLang
preset-server-defaults = leave it to the server
preset-greedy = greedy
preset-temperature-0 = temperature=0, sampling on
preset-ties = ties lab
preset-group-zero = Temperature near zero:
preset-zero = { $temperature }
    .aria-label = temperature { $temperature } with sampling
param-value =
    .aria-label = { $name } value (a number, true, false, or None)
param-not-literal = { $name }: “{ $raw }” is not a number, true, false or None
param-effective = → { $value } ({ $source ->
    [passed] passed
    [generation_config] from generation_config.json
   *[default] default
})
param-effective-implicit = → { $value } ({ $source ->
    [passed] passed
    [generation_config] from generation_config.json
   *[default] default
} · implicit)

## What a link could not use.
link-not-used = This link was not used in full: { $problems }.
link-unknown-field = unknown link field “{ $field }”
link-field-default = link field “{ $field }” { $problem }; using the default
link-model-default = link field “model”: { $problem }; using the default model
link-no-such-semantics = link field “semantics” names no column (“{ $name }”; the columns are { $columns }); using the default
link-no-such-columns = link field “cols” names no column { $names }; the columns are { $columns }
link-wrong-logits = must be numbers separated by commas
link-wrong-model = is not a model's name, path or URL
link-wrong-preset = is not a preset name
link-wrong-exercises = must be “default”, “link” (a set carried in the link), the path of a .json file on this site, or a file's resolve/ URL on the Hub
link-wrong-column = is not a column's name
link-wrong-columns = must be column names separated by commas
link-wrong-choice = must be one of { $choices }
link-wrong-flag = must be 1 or 0
link-wrong-length = is { $length } characters long; at most { $most } fit in a link
link-wrong-json = is not valid JSON
link-wrong-object = must be a JSON object
link-wrong-integer = must be a whole number from { $min } to { $max }

## Where a model comes from.
model-source-what-to-type = type a Hugging Face repo id (HuggingFaceTB/SmolLM2-135M-Instruct), a GGUF in a repo (Org/Repo/file.gguf), a huggingface.co URL, or the path of a file on this site (models/file.gguf)
model-source-empty = no model given: { model-source-what-to-type }
model-source-spaces = “{ $text }” has spaces: { model-source-what-to-type }
model-source-not-repo = “{ $text }” is not a Hub repo id (Org/Repo): { model-source-what-to-type }
model-source-not-gguf = { $text }: a file in a Hub repo must be a .gguf (for the safetensors layout, give the repo alone, or its folder ending in /)
model-source-not-url = “{ $text }” is not a URL: { model-source-what-to-type }
model-source-other-host = models load from huggingface.co or from this site, not from { $host } (the page's Content-Security-Policy allows no other host): { model-source-what-to-type }
model-source-no-repo = { $text } names no repo: { model-source-what-to-type }
model-source-not-hub-path = { $text } is not a repo, a file or a folder on the Hub: { model-source-what-to-type }
model-source-other-site = { $text } is not on this site: { model-source-what-to-type }
model-source-not-file = { $text } is neither a .gguf file nor a folder (end it with /): { model-source-what-to-type }

## Errors the page and its workers meet, in their own words.
error-worker = the worker failed: { $detail }
error-worker-start = the page's worker did not start — reload the page to try again
error-restarting = { $problem } — restarting
error-restarting-model = { $problem } — restarting the model
error-restarted = { $problem } — restarted: your chat, arguments and view are as they were
error-crashed = the wasm instance crashed: { $detail }
error-model-source-unknown = unknown model source { $kind }
error-hub-folder = { $detail }: a folder in the Hugging Face layout has config.json, model.safetensors and tokenizer.json; for a GGUF, give its file (Org/Repo/file.gguf)
error-unreachable = could not reach { $host } for { $url }: check the network connection ({ $detail })
error-http = { $url }: HTTP { $status } { $statusText }{ $why ->
    [gated] { " " }— the repo is gated or private, and the page cannot sign in: download the file and open it with “Open a .gguf file”
    [missing] { " " }— no such file: check the repo id and the file name
   *[other] {""}
}
error-model-sha256 = { $url } has sha256 { $actual }, not the { $expected } of the model this site expects: the file was not used, nor kept
error-shipped-sha256 = the shipped logits { $file } have sha256 { $actual }, not { $expected }
error-draw-worker = a draw worker failed: { $detail }
error-unknown-request = unknown request type { $type }
error-no-model = no model is loaded
error-no-generation = there is no generation to inspect or branch
error-hf-refuses = transformers refuses these arguments: { $error }

## The generated answer, its alternatives and its branches.
answer-region =
    .aria-label = The answer, token by token
answer-title = The answer, token by token
answer-help = Hover or focus a token for its figures and alternatives; click it to see every column at that step and to branch there.
completion =
    .aria-label = The generated answer: one tab stop, the arrow keys move between tokens
inspecting-prompt = Showing: the token after the prompt
inspecting-generated = Showing: generated token { $index }
to-figures = See its figures ↑
branch-label = Branch: continue from generated token { $step } with (each with the model's own p: the softmax of its raw logits, before any argument)
branch-go = Branch
branches-title = Branches left behind
branch-back = Go back
branch-from = from token { $fork }:{ " " }
branch-choice = { $token } — the model's own p { NUMBER($p, minimumFractionDigits: 3, maximumFractionDigits: 3) }
token-aria = { $text }: step { $step }, probability { NUMBER($probability, minimumFractionDigits: 3, maximumFractionDigits: 3) }
alternatives-looking = step { $step }: { $token } — its alternatives…
alternatives-head = step { $step }: { $token } was drawn with p = { NUMBER($probability, minimumFractionDigits: 3, maximumFractionDigits: 3) } under { $column }. Its p
alternatives-chosen = hf { NUMBER($hf, minimumFractionDigits: 3, maximumFractionDigits: 3) } · literal { NUMBER($literal, minimumFractionDigits: 3, maximumFractionDigits: 3) } · the model's own (softmax of the raw logits) { NUMBER($model, minimumFractionDigits: 3, maximumFractionDigits: 3) }
gen-stats = { $steps } tokens · { $finish } · prefill { NUMBER($prefill, minimumFractionDigits: 2, maximumFractionDigits: 2) } s
gen-stats-rate = { $steps } tokens · { $finish } · prefill { NUMBER($prefill, minimumFractionDigits: 2, maximumFractionDigits: 2) } s · { NUMBER($rate, minimumFractionDigits: 1, maximumFractionDigits: 1) } tok/s
gen-stats-reused = { $steps } tokens · { $finish } · the prompt was already run
gen-stats-rate-reused = { $steps } tokens · { $finish } · the prompt was already run · { NUMBER($rate, minimumFractionDigits: 1, maximumFractionDigits: 1) } tok/s
gen-stats-branch = { $steps } tokens · { $finish } · { $decoded } decoded after the branch
error-link-step = the link's step { $step } was not generated (the answer has { $steps } tokens)

## Speculative decoding.
spec-title = Speculative decoding: DFlash's loop on this chat
spec-help = A block is the last token plus drafted ones (click a rejected one for the target's distribution there); the target verifies the block in one forward, draws its own token at every position under the semantics chosen here (exact precision), keeps the drafted tokens that match, and adds its draw at the first mismatch.
spec-draft = draft
spec-draft-prompt-lookup = prompt lookup
spec-draft-sampled = sampled at the temperature
spec-draft-greedy = greedy (the target's own: a correctness check)
spec-semantics = semantics
spec-block = block
spec-run = Speculate
spec-cancel = Stop
spec-progress =
    .aria-label = Tokens generated
spec-terms = { $tau }, a round's acceptance length: the drafted tokens kept plus the target's own token (1 to the block size); { $expected }, its exact expectation given the draft, 1 + Σₖ Πᵢ≤ₖ p(dᵢ).
spec-legend =
    .aria-label = What the marks in the rounds mean
spec-legend-accepted = { $mark } a drafted token the target kept
spec-legend-rejected = { $mark } the first it did not draw (click it)
spec-legend-unverified = { $mark } drafted after a rejection
spec-legend-past-end = { $mark } matched after the answer's end
spec-legend-bonus = { $mark } the target's own token
spec-mark-accepted = kept
spec-mark-rejected = rejected
spec-mark-unverified = not verified
spec-mark-past-end = past the end
spec-mark-bonus = own
spec-mark-draft = draft
spec-mark-drawn = drawn
spec-rejection-caption = The target's distribution there, under the semantics chosen above
spec-acceptance-caption = Acceptance lengths of this run
spec-acceptance-empty =
    .aria-label = Acceptance lengths: none yet
spec-tau-caption = Expected acceptance length of one greedy draft, by temperature (exact)
spec-tau-empty =
    .aria-label = Expected acceptance length by temperature: none yet
spec-prefilling = prefilling the prompt…
spec-round-status = round { $round } · { $done } of at most { $total } tokens
spec-done = { $tokens } tokens in { $rounds } rounds · mean τ { NUMBER($tau, minimumFractionDigits: 2, maximumFractionDigits: 2) } · { $target } target forwards (+{ $draft } to draft) · { NUMBER($rate, minimumFractionDigits: 1, maximumFractionDigits: 1) } tok/s · { $finish }
spec-done-against = { $tokens } tokens in { $rounds } rounds · mean τ { NUMBER($tau, minimumFractionDigits: 2, maximumFractionDigits: 2) } · { $target } target forwards (+{ $draft } to draft) · { NUMBER($rate, minimumFractionDigits: 1, maximumFractionDigits: 1) } tok/s · plain decoding { NUMBER($plain, minimumFractionDigits: 1, maximumFractionDigits: 1) } tok/s · { $finish }
spec-failed = failed
spec-draft-note-prompt-lookup = Prompt lookup drafts the tokens that followed the last ones where they appear earlier in the chat: free to make, and kept where the answer repeats the prompt — what speculation is for.
spec-draft-note-sampled = A draft sampled at the call's temperature from the target itself: how often a draw agrees with another draw of the same distribution.
spec-draft-note-greedy = The target drafting for itself, greedily: at temperature 0 every draft is kept. A demonstration that verification changes nothing, not a speed-up: the draft costs a forward per token.
spec-tau = τ { $tau } (E { NUMBER($expected, minimumFractionDigits: 2, maximumFractionDigits: 2) })
spec-chip = { $kind ->
    [accepted] a drafted token the target kept
    [unverified] drafted after a rejection: not verified
    [past-end] drafted and matched after the answer's end: not in the answer
   *[bonus] the target's own token, at the rejection or after the last kept draft
} · id { $id }
spec-chip-rejected = the first drafted token the target did not draw (click: its distribution there) · id { $id } · the target drew { $drawn } ({ $text })
spec-rejected-aria = rejected draft { $token } in round { $round }: show the target's distribution there
spec-rejection-head = Round { $round }: the draft proposed { $draft } (p = { NUMBER($draftP, minimumFractionDigits: 4, maximumFractionDigits: 4) }); the target drew { $drawn } (p = { NUMBER($drawnP, minimumFractionDigits: 4, maximumFractionDigits: 4) }).
spec-acceptance-aria = Acceptance lengths: { $counts }
spec-tau-aria = Expected acceptance length: { $points }
spec-axis-rounds = rounds

## Monte Carlo.
mc-title = Monte Carlo: real draws of { $columns }, each with its own generator
mc-draws = draws per port
mc-run = Draw
mc-cancel = Stop drawing
mc-progress =
    .aria-label = Draws made
mc-convergence-caption = Total variation between the draws and the exact distribution, by number of draws, under the check's bound (dashed): while drawing, from the page worker's half; the last point is the whole run
mc-convergence-empty =
    .aria-label = Convergence: no draws yet
mc-drawing = drawing…
mc-estimate = { $total } draws in all: about { $unit ->
    [min] { $seconds } min
   *[s] { $seconds } s
} here
mc-estimate-unknown = { $total } draws in all: timing this browser…
mc-progress-status = { $done } / { $total } draws · { $rate } draws/s · about { $unit ->
    [min] { $seconds } min
   *[s] { $seconds } s
} left
mc-stopped = stopped after { $draws } draws per column
mc-done = done
mc-series-tv = { $column }: TV
mc-series-bound = { $column }: bound
mc-convergence-point = { $column }: TV { NUMBER($tv, minimumFractionDigits: 4, maximumFractionDigits: 4) } ≤ bound { NUMBER($bound, minimumFractionDigits: 4, maximumFractionDigits: 4) } after { $draws } draws
mc-convergence-aria = Convergence: { $points }
mc-convergence-none = Convergence: no draws yet
mc-axis-draws = draws
mc-axis-tv = TV to exact
mc-observed-aria = { $column }: drawn / exact: { $tokens }
mc-chart-empty = { $column }: not drawn
mc-exact-p = exact p
mc-drawn = drawn
mc-not-drawn = not drawn
mc-outside = { NUMBER($percent, minimumFractionDigits: 2, maximumFractionDigits: 2) } %
mc-tv = { NUMBER($tv, minimumFractionDigits: 4, maximumFractionDigits: 4) } ({ NUMBER($bound, minimumFractionDigits: 4, maximumFractionDigits: 4) })
mc-consistent = consistent
mc-inconsistent = inconsistent
mc-table = The draws as a table
mc-figure-draws = draws
mc-figure-distinct = distinct tokens
mc-figure-outside = outside hf support
mc-figure-tv = TV to exact (bound)
mc-figure-check = check

## Exercises.
ex-teacher-mark = { " " }· teacher view: every answer is shown
ex-check = Check
ex-show = Show me
ex-prev = Previous
ex-next = Next
ex-for-teachers = For teachers
ex-teacher-help = Give students this link: { $student-link }. Their answers and results stay in their browser, set by set; “Start again” clears them. { $teacher-link } shows every answer with its figures. To write a set of your own, see { $guide-link }.
ex-student-help = Give students this link: { $student-link }. Their answers and results stay in their browser, set by set; “Start again” clears them. To write a set of your own, see { $guide-link }.
ex-teacher-view = The teacher view
ex-guide = how a set is written
ex-no-site = No web site needed: the link can carry the set itself.
ex-copy-set = Copy the link for this set
ex-set-file = Open a set from your computer
ex-reset = Start again
ex-set-link =
    .aria-label = The link that carries this set
ex-hint = Hint: { $hint }
ex-hint-default = Look again at how this column applies the arguments (its entry in the glossary says), then try again — or press “Show me”.
ex-not-opened = The exercises could not be opened: { $problem }.
ex-progress = Exercise { $at } of { $of }
ex-right-after = { $tries ->
    [one] Right at the first try.
   *[other] Right after { $tries } tries.
}
ex-shown = Shown.
ex-not-yet = Not quite yet ({ $tries ->
    [one] { $tries } try
   *[other] { $tries } tries
}).
ex-answer-tokens = Your answer (a number of tokens)
ex-answer-number = Your answer (a number)
ex-answer-token-or-none = Your answer (a generated token's number, or “none”)
ex-answer-answer-token = Your answer (a token's number in the answer, from 1, or “none”)
ex-no-shipped-answer = The site ships no answer for this exercise's chat: this task cannot be checked here.
ex-answer-arguments = Your generate() arguments (JSON)
ex-checking = Checking…
ex-checking-generation = Checking: the core runs the task's generation…
ex-right = Right: { $says }
ex-with-these = With these arguments: { $says }
ex-not-quite = Not quite (try { $tries }).{ $detail ->
    [none] {""}
   *[other] { " " }{ $detail }
}
ex-key = The answer: { $says }
ex-key-cause = The answer: { $options } — { $says }
ex-key-no-option = none of the options
ex-key-find = The answer: any arguments for which the core names “{ $rule }”. { $says }
ex-key-find-example = The answer: any arguments for which the core names “{ $rule }”, for example { $example }. { $says }
ex-set-copied = Copied: a link of { $length } characters that carries the whole set.
ex-set-file-wrong = { $file } cannot be used: { $problem }.
set-file-not-json = it is not valid JSON
ex-summary = { $done ->
    [yes] All done:{ " " }
   *[no] {""}
}{ $right } of { $of } right, { $firstTry } at the first try{ $shown ->
    [0] {""}
   *[other] { " " }· { $shown } shown
}
answer-missing = Give an answer first.
answer-number = The answer is a number.
answer-token-or-none = The answer is a token's number, or “none”.
answer-tokens = The answer is a number of tokens.
key-kept = { $column } keeps { $kept ->
    [one] { $kept } token
   *[other] { $kept } tokens
}.
key-number = { $figure ->
    [tv] The total variation distance to transformers' distribution
    [max_abs_diff] The largest difference in a token's probability from transformers'
    [mass_outside_hf] The probability on tokens transformers never draws
    [entropy] The entropy (nats)
   *[probability] The probability of token #{ $token }
} under { $column } is { NUMBER($value, minimumFractionDigits: 4, maximumFractionDigits: 4) }.
key-agree = the columns agree for these arguments.
key-choice = “{ $option }”.
key-generate-tokens = under { $column } with seed { $seed }, the answer is { $tokens } tokens long (it ends on { $finish }).
key-generate-none-outside = under { $column } with seed { $seed }, every token is one transformers could draw.
key-generate-outside = under { $column } with seed { $seed }, generated token { $step } is the first that transformers could not draw.
key-answer-first-over = along the answer the site ships, { $column }'s mass outside transformers' support first passes 1% at token { $token }.
key-answer-never-over = along the answer the site ships, { $column }'s mass outside transformers' support never passes 1% at one token.
key-answer-expected = along the { $steps } tokens of the answer the site ships, { $column } would draw a token transformers never draws at { NUMBER($value, maximumFractionDigits: 2) } of them on average.
set-other-site = a set loads from this site, from a file on the Hub (its resolve/ URL) or from the link itself
set-unreachable = could not reach { $host ->
    [this-site] this site
   *[other] { $host }
} for the set { $path }: check the network connection
set-not-found = the set { $path } was not found (HTTP { $status }): { $where ->
    [hub] check the repo, the revision and the file name in the link, and that the repo is public
   *[site] check the file's path in the link, and that the file is in the site's exercises/ folder (make site copies www/exercises/)
}
set-not-json = the set { $path } is not valid JSON
set-wrong = exercise set: { $problem }
set-schema = { $place }: { $message }{ $detail }
set-exercise = exercise { $at }
set-the-set = the set
set-column = exercise { $at }: answer.column must be one of { $columns }
set-rule = exercise { $at }: answer.rule must be one of { $rules }
set-option-rule = exercise { $at }: the option “{ $option }” names rule “{ $rule }”; a rule must be one of { $rules }
set-correct = exercise { $at }: answer.correct must be the index (from 0) of one of its { $options } options
set-hf-figure = exercise { $at }: { $figure } compares a column with hf; hf cannot be the column
set-unknown-kind = unknown answer kind { $kind }
set-link-missing = this link should carry its exercise set after “#set=”, and it does not: copy the whole link again
set-link-not-base64 = the exercise set in this link is not base64url text: the link was cut or changed; copy the whole link again
set-link-not-gzip = the exercise set in this link does not decompress: the link was cut or changed; copy the whole link again
set-link-not-json = the exercise set in this link is not valid JSON

## A chat's step as a file, for an embed of a writer's own chat.
step-export-save = Save this chat's step
step-export-where = Where you put it (a Hub resolve/ URL, or a path of this site):
step-export-url =
    .placeholder = https://huggingface.co/datasets/you/posts/resolve/main/step.json
step-export-intro = This chat is not shipped with the site: an embed of it would load the model ({ $size }) before its figures. Save its step, put it beside your post, and give its address: the snippet's link then names it, and readers see the figures without the model.
step-export-needs-model = This chat is not shipped with the site: an embed of it would load the model ({ $size }) before its figures. Load the model (Inspect, or Load the model) to save its step for the embed.
step-export-saved = Saved the step ({ $kilobytes } KB): put it where your readers' browsers can fetch it (a Hub dataset repo, or this site's folder), then give its address here.
link-wrong-step-file = must be a .json file's resolve/ URL on the Hub, or a .json path of this site
source-file = These figures come from a step file ({ $url }), checked for this site's model and this chat: no model was loaded for them.
source-kept = These figures come from the model's step of this chat kept by this browser on an earlier visit: no model was loaded for them.
source-file-checked = The step file ({ $url }) holds the model's own logits for this chat, bit for bit.
source-file-differs = The step file ({ $url }) does not hold the model's logits for this chat: the figures are now the model's.
step-file-refused = The step file cannot be used: { $problem }.
step-file-no-site-model = this site ships no model's steps, so a step file has nothing to be checked against
step-file-not-site-model = only the site's own model (exact precision) writes a step for an embed
step-file-too-large = { $url } is larger than a step can be (at most { $limit } bytes)
step-file-not-a-step = { $url } is not a sampling-lab step ({ $detail })
step-file-version = { $url } is a step of version { $version }; this page reads version 1
step-file-logits = { $url }: its logits are not base64 text of float32 values
step-file-length = { $url } has { $got } logits; the model has a vocabulary of { $expected }
step-file-values = { $url }: its logits cannot be inspected ({ $detail })
step-file-ids = { $url }: its token ids do not fit a vocabulary of { $vocab }
step-file-other-model = { $url } was made with another model (sha256 { $file }), not this site's ({ $site })
step-file-other-chat = { $url } is for another chat than the link's

## Where each column's draws land at the step on screen (above the compared table).
mass-legend = Where each column draws: { $inside } on tokens transformers keeps, { $outside } on tokens transformers never draws
mass-refuses = refuses the call
mass-title-outside = { $column }: { $share } of its draws land on tokens transformers never draws
mass-title-inside = { $column }: every draw lands on a token transformers can draw

## The answer view: each token coloured by one figure of one column at its step.
answer-colour-by = Colour by
answer-figure-outside = mass outside hf
answer-figure-p-token = p of the written token
answer-figure-tv = total variation to hf
answer-figure-entropy = hf's entropy
answer-colour-column = of
answer-more-columns = { $count ->
    [one] { $count } more column
   *[other] { $count } more columns
}
answer-reread = Read this answer under the arguments above
answer-source-shipped = An answer the site ships, drawn by { $column } with seed { $seed } for { $call }, its figures computed when the site was built: they need no model. Each step is read after the tokens this answer wrote before it, so every figure is conditional on its path.
answer-source-generated = Drawn by { $column } with seed { $seed } for { $call }. Each step is read after the tokens this answer wrote before it, so every figure is conditional on its path.
answer-end-mark = end
unit-nats = { NUMBER($value, maximumFractionDigits: 2) } nats
answer-token-outside = token { $step }: { $column } draws outside transformers' support with probability { $value }
answer-token-p-token = token { $step }: { $column } gives it p = { $value }
answer-token-tv = token { $step }: { $column } is { $value } from transformers (total variation)
answer-token-entropy = token { $step }: transformers' entropy is { $value }
answer-token-refused = { $column } refuses the call here
answer-legend-outside = { $column }'s mass outside hf at each token:
answer-legend-p-token = the probability { $column } gives each written token (darker: less likely):
answer-legend-tv = { $column }'s total variation to hf at each token:
answer-legend-entropy = transformers' entropy at each token:
answer-legend-at-least = ≥ { $value }
answer-strip-axis = token
answer-strip-outside = Mass outside transformers' support at each token: { $columns }
answer-strip-p-token = The probability of each written token: { $columns }
answer-strip-tv = Total variation to transformers at each token: { $columns }
answer-strip-entropy = transformers' entropy at each token
answer-step-figures = { $column }: p { NUMBER($p, minimumFractionDigits: 3, maximumFractionDigits: 3) }, outside hf { $outside }
answer-step-refused = { $column } refuses the call
answer-step-needs-model = the whole comparison at this step needs the model, which reads this answer again once it is loaded.
panes =
    .aria-label = What the embed shows
pane-step = This token
pane-answer = The whole answer
