// Exercises for a class: a set is checked against its schema and the core's names before it
// opens, and a broken one is reported where the exercises appear; a wrong answer gets a hint and
// not the figure, a second Check is a second try, "Show me" reveals; progress survives a reload;
// the teacher view shows every answer from the core's figures; the number and generate kinds are
// judged by the core's report and by a generation the core runs. Authoring is documented: the
// shipped set and the README's examples are valid under the schema (Ajv), the page's compiled
// validator agrees with Ajv, and the README lists exactly the rules the core names.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import Ajv from "ajv";
import { BASE, cliRules, openPage, useBrowser, waitReady } from "./harness.js";

const browser = useBrowser();
const SCHEMA = JSON.parse(readFileSync("www/exercises/schema.json", "utf8"));
const README = readFileSync("www/exercises/README.md", "utf8");
const DEFAULT = JSON.parse(readFileSync("www/exercises/default.json", "utf8"));
const task = (page, text) => page.getByTestId("exercise-task").filter({ hasText: text }).waitFor();
const result = (page, pattern) => page.getByTestId("exercise-result").filter({ hasText: pattern }).waitFor({ timeout: 120_000 });
const chartShown = (page) => page.locator("#compare-table").isVisible();

/** The README's example answers: each ```json block that is one answer, or one answer a line. */
function readmeAnswers() {
  return [...README.matchAll(/```json\n([\s\S]*?)```/g)].flatMap(([, block]) => {
    try {
      const one = JSON.parse(block);
      return one.kind ? [one] : [];
    } catch {
      return block.trim().split("\n").map((line) => JSON.parse(line));
    }
  });
}

test("the shipped set and the README's examples are valid under schema.json, and the page's compiled validator agrees with Ajv", async () => {
  const ajv = new Ajv({ strict: true, strictRequired: false });
  const validate = ajv.compile(SCHEMA);
  const { default: compiled } = await import("../../www/vendor/exercise-schema.js");
  const setup = { params: "{}" };
  const sets = [DEFAULT, JSON.parse(/```json\n(\{\n {2}"\$schema"[\s\S]*?)```/.exec(README)[1])];
  const answers = readmeAnswers();
  assert.ok(answers.length >= 7, `${answers.length} example answers`);
  for (const answer of answers) sets.push({ title: "t", exercises: [{ title: "t", task: "t", setup, answer, explanation: "e" }] });
  for (const set of sets) {
    assert.equal(validate(set), true, JSON.stringify(validate.errors));
    assert.equal(compiled(set), true);
  }
  // Broken sets: Ajv and the page's validator refuse the same ones.
  const broken = [
    { title: "t", exercises: [] },
    { title: "t", exercises: [{ title: "t", task: "t", setup, answer: { kind: "kept" }, explanation: "e" }] },
    { title: "t", exercises: [{ title: "t", task: "t", setup, answer: { kind: "number", figure: "probability", column: "hf", tolerance: 0.1 }, explanation: "e" }] },
    { title: "t", exercises: [{ title: "t", task: "t", setup, answer: { kind: "kept", column: "hf", extra: 1 }, explanation: "e" }] },
    { title: "t", exercises: [{ title: "t", task: "t", setup: { params: {} }, answer: { kind: "choice", options: ["a", "b"], correct: 0 }, explanation: "e" }] },
    { title: " ", exercises: [{ title: "t", task: "t", setup, answer: { kind: "choice", options: ["a", "b"], correct: 0 }, explanation: "e" }] },
  ];
  for (const set of broken) {
    assert.equal(validate(set), false, JSON.stringify(set));
    assert.equal(compiled(set), false, JSON.stringify(set));
  }
});

test("the README lists exactly the rules the core names, and every rule the shipped set uses is one", () => {
  const core = cliRules();
  const documented = [...README.matchAll(/^\| `([a-z_]+)` \| [a-z_]+ \|/gm)].map(([, name]) => name);
  assert.deepEqual(documented, core);
  const used = DEFAULT.exercises.flatMap(({ answer }) => [answer.rule, ...(answer.options ?? []).map((o) => o.rule)]).filter(Boolean);
  for (const rule of used) assert.ok(core.includes(rule), rule);
});

test("a wrong answer gets a hint and not the figure; a second Check is a second try; a right one names the column and shows the figures", async () => {
  const { page, errors } = await openPage(browser, "?exercises=default");
  await task(page, "How many tokens can transformers draw");
  assert.equal(await chartShown(page), false, "the chart that answers the task is hidden");
  assert.equal(await page.locator("#figures").isVisible(), false, "so are the figures");
  assert.equal(await page.locator("#glossary").isVisible(), true, "the glossary stays");
  const answer = page.getByLabel("Your answer (a number of tokens)");
  await answer.fill("49152");
  await page.getByRole("button", { name: "Check" }).click();
  await result(page, /^Not quite \(try 1\)\.$/);
  assert.match(await page.getByTestId("exercise-hint").textContent(), /^Hint: generate\(\) fills in some arguments/);
  assert.equal(await page.getByTestId("exercise-explanation").textContent(), "", "no explanation yet");
  assert.equal(await chartShown(page), false);
  assert.doesNotMatch(await page.locator("#exercises").innerText(), /\b50\b/, "nothing on show gives 50 away");
  await answer.fill("48");
  await page.getByRole("button", { name: "Check" }).click();
  await result(page, /^Not quite \(try 2\)\.$/);
  await answer.fill("50");
  await page.getByRole("button", { name: "Check" }).click();
  await result(page, "Right: transformers (hf) keeps 50 tokens.");
  await page.getByTestId("exercise-explanation").filter({ hasText: "transformers fills top_k=50" }).waitFor();
  assert.equal(await chartShown(page), true);
  assert.match(await page.getByTestId("exercise-summary").textContent(), new RegExp(`^1 of ${DEFAULT.exercises.length} right, 0 at the first try$`));

  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("button", { name: "Next" }).click();
  await task(page, "ignores top_p");
  await page.waitForURL(/task=2/);
  const args = page.getByLabel("Your generate() arguments (JSON)");
  await args.fill('{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.5}');
  await page.getByRole("button", { name: "Check" }).click();
  await result(page, /^Not quite \(try 1\)\. With these arguments: /);
  await args.fill('{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}');
  await page.getByRole("button", { name: "Check" }).click();
  await result(page, /^Right: the top 40 tokens hold 0\.850 of the mass/);

  await page.getByRole("button", { name: "Next" }).click();
  await page.getByLabel("Ties at the k-th score: transformers keeps all of them").check();
  await page.getByRole("button", { name: "Check" }).click();
  await result(page, /^Right/);
  assert.match(await page.getByTestId("exercise-summary").textContent(), new RegExp(`^3 of ${DEFAULT.exercises.length} right, 1 at the first try$`));
  assert.deepEqual(errors, []);
  await page.close();
});

test("progress survives a reload: answers, tries and results per task, the summary, and Start again clears them", async () => {
  const { page } = await openPage(browser, "?exercises=default");
  await task(page, "How many tokens can transformers draw");
  await page.getByLabel("Your answer (a number of tokens)").fill("50");
  await page.getByRole("button", { name: "Check" }).click();
  await result(page, /^Right/);
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByLabel("Your answer (a number of tokens)").fill("24");
  await page.getByRole("button", { name: "Check" }).click();
  await result(page, /^Not quite/);
  await page.reload();
  await waitReady(page);
  await task(page, "TopKThenTopP keep");
  assert.equal(await page.getByLabel("Your answer (a number of tokens)").inputValue(), "24", "the last answer is back");
  await result(page, "Not quite yet (1 try).");
  assert.match(await page.getByTestId("exercise-hint").textContent(), /^Hint: /, "the hint given stays after a reload");
  assert.equal(await page.getByTestId("exercise-hint").isVisible(), true);
  assert.equal(await chartShown(page), false, "an unsolved task keeps its figures hidden");
  assert.equal(await page.getByTestId("finding").isVisible(), false, "nor does the finding give it away");
  assert.equal(await page.getByTestId("figures-hidden").isVisible(), true);
  const gap = await page.evaluate(() => document.querySelector(".figures-hidden").getBoundingClientRect().top - document.getElementById("exercises").getBoundingClientRect().bottom);
  assert.ok(gap < 40, `no blank area between the task and where its figures went: ${gap} px`);
  assert.match(await page.getByTestId("exercise-summary").textContent(), new RegExp(`^1 of ${DEFAULT.exercises.length} right, 1 at the first try$`));
  await page.getByRole("button", { name: "Previous" }).click();
  await result(page, "Right at the first try.");
  await page.getByTestId("exercise-key").filter({ hasText: "The answer: transformers (hf) keeps 50 tokens." }).waitFor();
  assert.equal(await chartShown(page), true);
  await page.locator(".ex-teacher summary").click();
  await page.getByRole("button", { name: "Start again" }).click();
  await result(page, /^$/);
  assert.match(await page.getByTestId("exercise-summary").textContent(), new RegExp(`^0 of ${DEFAULT.exercises.length} right`));
  assert.equal(await page.getByLabel("Your answer (a number of tokens)").inputValue(), "");
  await page.close();
});

test("Show me reveals the answer and its figures, counted as shown, not right", async () => {
  const { page } = await openPage(browser, "?exercises=default&task=1");
  await task(page, "TopKThenTopP keep");
  await page.getByRole("button", { name: "Show me" }).click();
  await page.getByTestId("exercise-key").filter({ hasText: "The answer: literal candle port keeps 40 tokens." }).waitFor({ timeout: 60_000 });
  await result(page, "Shown.");
  assert.equal(await chartShown(page), true);
  assert.match(await page.getByTestId("exercise-summary").textContent(), new RegExp(`0 of ${DEFAULT.exercises.length} right, 0 at the first try · 1 shown`));
  await page.close();
});

test("the teacher view shows each task's answer from the core's figures, a number within its tolerance is right, and the page's link for students", async () => {
  const { page } = await openPage(browser, "?exercises=default&teacher=1");
  await task(page, "How many tokens can transformers draw");
  await page.getByTestId("exercise-key").filter({ hasText: "The answer: transformers (hf) keeps 50 tokens." }).waitFor();
  assert.equal(await chartShown(page), true, "the teacher sees the figures");
  assert.equal(await page.getByRole("button", { name: "Show me" }).isVisible(), false);
  assert.match(await page.locator("#ex-student-link").getAttribute("href"), /\?exercises=default&lang=en$/);
  const tv = DEFAULT.exercises.findIndex((e) => e.answer.kind === "number");
  for (let i = 0; i < tv; i++) await page.getByRole("button", { name: "Next" }).click();
  const key = page.getByTestId("exercise-key").filter({ hasText: /total variation distance .* under literal candle port is 0\.0961\./ });
  await key.waitFor();
  await page.getByLabel("Your answer (a number)").fill("0.09");
  await page.getByRole("button", { name: "Check" }).click();
  await result(page, /^Not quite/);
  await page.getByLabel("Your answer (a number)").fill("0.096");
  await page.getByRole("button", { name: "Check" }).click();
  await result(page, /^Right: The total variation distance/);
  await page.close();
});

test("generate and observe: the core runs the task's generation, and the token it names is one hf gives no probability on the page", async () => {
  const index = DEFAULT.exercises.findIndex((e) => e.answer.kind === "generate");
  const { answer } = DEFAULT.exercises[index];
  const { page } = await openPage(browser, `?exercises=default&teacher=1&task=${index}`);
  await page.locator("#ex-title").filter({ hasText: "Mass outside, in the text" }).waitFor();
  const key = page.getByTestId("exercise-key").filter({ hasText: /^The answer: under literal candle port with seed 0, / });
  await key.waitFor({ timeout: 120_000 });
  const step = /generated token (\d+) is the first/.exec(await key.textContent())?.[1];
  assert.ok(step, `a token outside hf's support is drawn within ${answer.maxNewTokens} tokens: ${await key.textContent()}`);
  // The page is set up for the same run: its tooltips agree with the core's answer.
  assert.equal(await page.locator("#semantics").inputValue(), answer.column);
  assert.equal(await page.locator("#max-new-tokens").inputValue(), String(answer.maxNewTokens));
  await page.getByRole("button", { name: "Generate" }).click();
  await page.locator("#gen-stats").filter({ hasText: "tokens" }).waitFor({ timeout: 120_000 });
  const hfOf = async (at) => {
    await page.locator(`#completion button[data-step='${at}']`).focus();
    const tooltip = page.getByTestId("alternatives").filter({ hasText: new RegExp(`^step ${at}: .*Its p hf`) });
    await tooltip.waitFor();
    return Number(/hf ([\d.]+)/.exec(await tooltip.locator(".alt-chosen").textContent())[1]);
  };
  assert.equal(await hfOf(Number(step)), 0);
  if (Number(step) > 0) assert.ok(await hfOf(Number(step) - 1) > 0);
  await page.getByLabel(/Your answer/).fill(String(Number(step) + 1));
  await page.getByRole("button", { name: "Check" }).click();
  await result(page, /^Not quite/);
  await page.getByLabel(/Your answer/).fill(step);
  await page.getByRole("button", { name: "Check" }).click();
  await result(page, /^Right: under literal candle port/);
  await page.close();
});

test("a broken set is reported where the exercises appear, naming the task and the field; one from elsewhere or missing is refused by name", async () => {
  const page = await browser.browser.newPage();
  const serve = (name, set) => page.route(`**/${name}`, (route) => route.fulfill({ contentType: "application/json", body: JSON.stringify(set) }));
  const exercise = { title: "t", task: "t", explanation: "e", setup: { params: "{}" } };
  await serve("missing-column.json", { title: "broken", exercises: [exercise, { ...exercise, answer: { kind: "kept" } }] });
  await page.goto(`${BASE}?exercises=missing-column.json`);
  const problem = page.getByTestId("exercise-problem");
  await problem.filter({ hasText: "The exercises could not be opened: exercise set: exercise 1: must have required property 'answer'." }).waitFor();
  assert.equal(await page.locator("#exercises").isVisible(), true);
  assert.equal(await page.getByTestId("error").textContent(), "", "not in the left column");

  await serve("typo.json", { title: "typo", exercises: [{ ...exercise, answer: { kind: "find", rule: "implicit_topk" } }] });
  await page.goto(`${BASE}?exercises=typo.json`);
  await problem.filter({ hasText: "exercise 1: answer.rule must be one of" }).waitFor();
  // The list is the core's: rules no hand-kept list on the page named are in it.
  const text = await problem.textContent();
  for (const rule of ["implicit_top_k", "transformers_js_arithmetic", "llama_cpp_order"]) assert.ok(text.includes(rule), text);
  await waitReady(page);

  await page.goto(`${BASE}?exercises=evil/..%2F..%2Fx.json`);
  await waitReady(page);
  await page.getByTestId("error").filter({ hasText: "“exercises” must be “default”, “link” (a set carried in the link), the path of a .json file on this site, or a file's resolve/ URL on the Hub" }).waitFor();
  await page.goto(`${BASE}?exercises=missing.json`);
  await problem.filter({ hasText: "The exercises could not be opened: the set missing.json was not found (HTTP 404): check the file's path in the link, and that the file is in the site's exercises/ folder" }).waitFor();
  await page.close();
});

test("a set travels without a site: in its own link (copied from the teacher view, kept by a reload, a cut one named) and from a file on the Hub", async () => {
  const context = await browser.browser.newContext({ permissions: ["clipboard-read", "clipboard-write"] });
  const page = await context.newPage();
  try {
    await page.goto(`${BASE}?exercises=default&teacher=1`);
    await task(page, "How many tokens can transformers draw");
    await page.locator(".ex-teacher summary").click();
    await page.getByRole("button", { name: "Copy the link for this set" }).click();
    await page.getByTestId("ex-set-status").filter({ hasText: /^Copied: a link of [\d,]+ characters/ }).waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(link, /\?exercises=link&lang=en#set=[\w-]+$/);
    assert.ok(!link.includes("default.json") && !link.includes("teacher"), link);

    // Another browser (no progress, no site file needed): the link alone opens the whole set.
    const student = await (await browser.browser.newContext()).newPage();
    await student.route("**/exercises/default.json", (route) => route.abort());
    await student.goto(link);
    await task(student, "How many tokens can transformers draw");
    assert.match(await student.locator("#ex-progress").textContent(), new RegExp(`of ${DEFAULT.exercises.length}$`));
    await student.getByLabel("Your answer (a number of tokens)").fill("50");
    await student.getByRole("button", { name: "Check" }).click();
    await result(student, /^Right/);
    await student.reload();
    await result(student, "Right at the first try.");
    assert.ok(student.url().includes("#set="), "the page keeps the set in its address");
    await student.goto(link.slice(0, link.length - 40));
    await student.getByTestId("exercise-problem").filter({ hasText: /the link was cut or changed; copy the whole link again|not valid JSON/ }).waitFor();
    await student.context().close();

    // A dataset repo's resolve/ URL (no hub is reachable here: the test answers for it).
    const hub = "https://huggingface.co/datasets/teacher/lab-sets/resolve/main/week-3.json";
    const week3 = { ...DEFAULT, title: "Week 3 from the Hub" };
    await context.route("https://huggingface.co/**", (route) => (route.request().url() === hub
      ? route.fulfill({ contentType: "application/json", body: JSON.stringify(week3), headers: { "access-control-allow-origin": "*" } })
      : route.fulfill({ status: 404, body: "Entry not found", headers: { "access-control-allow-origin": "*" } })));
    await page.goto(`${BASE}?exercises=${encodeURIComponent(hub)}`);
    await page.locator("#ex-set-title").filter({ hasText: "Week 3 from the Hub" }).waitFor();
    await page.goto(`${BASE}?exercises=${encodeURIComponent(hub.replace("week-3", "week-4"))}`);
    await page.getByTestId("exercise-problem").filter({ hasText: "was not found (HTTP 404): check the repo, the revision and the file name in the link, and that the repo is public" }).waitFor();
  } finally {
    await context.close();
  }
});

test("“how a set is written” opens the guide as a page, not raw Markdown", async () => {
  const { page } = await openPage(browser, "?exercises=default", async () => {}, { model: false });
  await page.locator(".ex-teacher summary").click();
  const [guide] = await Promise.all([page.waitForEvent("popup"), page.getByRole("link", { name: "how a set is written" }).click()]);
  await guide.getByRole("heading", { name: "Writing an exercise set", level: 1 }).waitFor();
  assert.ok(await guide.locator("table").count() > 0, "its tables are tables");
  assert.doesNotMatch(await guide.locator("body").textContent(), /^#|```/m);
  await page.close();
});
