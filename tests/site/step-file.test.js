// A writer's own chat before the download, on dist/ served gzipped with its _headers (as static
// hosts send it): the chats `make site` shipped from a chats file, a step file the page saved
// and the writer put on the Hub (served here as the Hub serves it: cross-origin, with CORS), and
// the steps this browser's model computed on an earlier visit. Each draws its figures from the
// sampling core alone; a step file that cannot be used is refused by name; once the model loads,
// a step file is held to the model's own logits.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DEFAULTS, stateQuery } from "../../www/state/state.js";
import { cliInspectChat, exactly, keptIn } from "../e2e/harness.js";
import { BUDGET_BYTES, DIST, useSite, visit } from "./visit.js";

const HUB = "https://huggingface.co/datasets/writer/lab-steps/resolve/main";
const PARAMS = { do_sample: true, temperature: 0.7, top_k: 40, top_p: 0.9 };
const state = useSite();

/** The page's query for a chat ({user, prefix}), as "Embed this" writes it. */
const query = ({ user, prefix = "" }, extra = {}) => stateQuery({ ...DEFAULTS, user, prefix, params: JSON.stringify(PARAMS), ...extra });

/** Answers `url` as the Hub answers a public dataset file: the body, with CORS. */
const asTheHub = (context, url, body) => context.route(url, (route) => route.fulfill({
  status: 200, contentType: "application/json", body, headers: { "access-control-allow-origin": "*" },
}));

/** The step file of `chat` as the page saves it ("Embed this", then "Save this chat's step"),
 * with the embed snippet's link once its address is given. */
async function savedStep(chat, where) {
  const { context, page, errors } = await visit(state.browser, state.site.base, query(chat));
  try {
    await page.locator("#status[data-state=ready]").waitFor({ timeout: 120_000 });
    await page.waitForFunction(() => document.documentElement.dataset.drawn, null, { timeout: 60_000 });
    await page.getByRole("button", { name: "Embed this" }).click();
    const box = page.getByTestId("step-export");
    await box.waitFor();
    const saved = page.waitForEvent("download");
    await box.getByRole("button", { name: "Save this chat's step" }).click();
    const text = readFileSync(await (await saved).path(), "utf8");
    await box.getByText(/^Saved the step \(\d+ KB\)/).waitFor();
    await box.getByRole("textbox").fill(where);
    const snippet = await page.getByLabel("Link to this state").inputValue();
    const link = /src="([^"]+)"/.exec(snippet)[1];
    assert.deepEqual(errors, []);
    return { text, link };
  } finally {
    await context.close();
  }
}

test("a site built with a writer's chats file ships them: their embeds draw from the shipped step, no model asked for", async () => {
  const { chats } = JSON.parse(readFileSync("docs/examples/chats.json", "utf8"));
  const manifest = JSON.parse(readFileSync(`${DIST}/steps/index.json`, "utf8"));
  for (const { user, prefix = "" } of chats) {
    assert.ok(manifest.steps.some((s) => s.chat.messages[0].content === user && s.chat.answer_prefix === prefix), `“${user}” is shipped`);
  }
  const chat = { user: chats[0].user };
  const { context, page, errors, seen, figures } = await visit(state.browser, state.site.base, query(chat, { embed: true }), { viewport: { width: 720, height: 600 } });
  try {
    await figures();
    assert.ok(seen.bytes <= BUDGET_BYTES, `${seen.bytes} bytes before the first figures`);
    await keptIn(page, "hf").filter({ hasText: exactly(cliInspectChat(chat, PARAMS).hf.kept) }).waitFor();
    await page.waitForTimeout(2000);
    assert.deepEqual(seen.model, [], "the embed asked for the model");
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test("a chat's step saved from Embed this and put on the Hub draws an embed's figures with no model request, and the model finds it its own", async (t) => {
  const chat = { user: "Name a colour.", prefix: "My favourite colour is" };
  const url = `${HUB}/colour.json`;
  const { text, link } = await savedStep(chat, url);
  assert.ok(text.length < 400_000, `the step file is ${text.length} bytes`);
  assert.equal(new URL(link).searchParams.get("stepfile"), url);
  assert.equal(new URL(link).searchParams.get("embed"), "1");

  const { context, page, errors, seen, figures } = await visit(state.browser, "", link, {
    viewport: { width: 720, height: 600 }, prepare: (c) => asTheHub(c, url, text),
  });
  try {
    await figures();
    t.diagnostic(`${seen.bytes} bytes before the first figures`);
    assert.ok(seen.bytes <= BUDGET_BYTES, `${seen.bytes} bytes before the first figures`);
    assert.deepEqual(seen.model, [], "the model was asked for");
    const cli = cliInspectChat(chat, PARAMS);
    await keptIn(page, "hf").filter({ hasText: exactly(cli.hf.kept) }).waitFor();
    await page.getByTestId("source-note").filter({ hasText: `These figures come from a step file (${url})` }).waitFor();
    // Asked for, the model loads and holds the file to its own logits.
    await page.locator("#needs-model-load, #load-model").filter({ visible: true }).first().click();
    await page.getByTestId("source-note").filter({ hasText: `The step file (${url}) holds the model's own logits for this chat, bit for bit.` })
      .waitFor({ timeout: 120_000 });
    assert.equal(seen.model.length, 1);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }

  // Changed logits pass every check that needs no model, and are caught once it is there.
  const changed = JSON.parse(text);
  const logits = new Float32Array(Uint8Array.from(Buffer.from(changed.logits, "base64")).buffer);
  logits[logits.length - 1] += 1;
  changed.logits = Buffer.from(logits.buffer).toString("base64");
  // The same link on the full page (the embed's prerendered file is an embed by itself).
  const full = link.replace("/embed.html?", "/?").replace("embed=1&", "").replace(/&embed=1$/, "");
  const second = await visit(state.browser, "", full, { prepare: (c) => asTheHub(c, url, JSON.stringify(changed)) });
  try {
    await second.figures();
    await second.page.getByTestId("source-note")
      .filter({ hasText: `The step file (${url}) does not hold the model's logits for this chat: the figures are now the model's.` })
      .waitFor({ timeout: 120_000 });
  } finally {
    await second.context.close();
  }
});

test("a malformed, truncated, oversized, other-model or other-chat step file is refused by name where the figures would be, and the page keeps working", async () => {
  const chat = { user: "Name a colour.", prefix: "My favourite colour is" };
  const { text } = await savedStep(chat, "my-steps/colour.json");
  const file = JSON.parse(text);
  const cases = [
    ["not JSON", "{\"format\": \"sampling-lab step\", ", /is not a sampling-lab step/],
    ["truncated", text.slice(0, Math.floor(text.length / 2)), /is not a sampling-lab step/],
    ["oversized", text.replace(/}\s*$/, `${" ".repeat(1 << 20)}}`), /is larger than a step can be \(at most 1,048,576 bytes\)/],
    ["another model", JSON.stringify({ ...file, model: { ...file.model, sha256: "0".repeat(64) } }), /was made with another model \(sha256 0{64}\), not this site's/],
    ["another chat", JSON.stringify({ ...file, chat: { ...file.chat, answer_prefix: "Blue" } }), /is for another chat than the link's/],
  ];
  for (const [i, [what, body, refusal]] of cases.entries()) {
    // The site's own folder this time: a path of the page's origin.
    const path = `my-steps/${what.replaceAll(" ", "-")}.json`;
    const { context, page, errors, seen } = await visit(state.browser, state.site.base, query(chat, { embed: true, stepfile: path }), {
      viewport: { width: 720, height: 600 },
      prepare: (c) => c.route(`${state.site.base}${path}`, (route) => route.fulfill({ status: 200, contentType: "application/json", body })),
    });
    try {
      const notice = page.getByTestId("needs-model");
      await notice.filter({ hasText: "The step file cannot be used: " }).waitFor({ timeout: 60_000 });
      assert.match(await notice.textContent(), refusal, what);
      assert.deepEqual(seen.model, [], `${what}: the embed asked for the model on its own`);
      // The page keeps working: asked for, the model draws the figures.
      if (i === 0) {
        await page.locator("#needs-model-load").click();
        await keptIn(page, "hf").filter({ hasText: exactly(cliInspectChat(chat, PARAMS).hf.kept) }).waitFor({ timeout: 120_000 });
      }
      assert.deepEqual(errors, [], what);
    } finally {
      await context.close();
    }
  }
});

test("a chat this browser's model computed is kept: a second visit draws its figures before any model request", async () => {
  const chat = { user: "Name a fruit.", prefix: "" };
  const { context, page } = await visit(state.browser, state.site.base, query(chat));
  try {
    await page.locator("#status[data-state=ready]").waitFor({ timeout: 120_000 });
    await page.waitForFunction(() => document.documentElement.dataset.drawn, null, { timeout: 60_000 });
    const kept = await page.getByTestId("kept-hf").textContent();
    // Same browser (same storage), a new tab: the embed of the chat needs no model.
    const again = await context.newPage();
    const models = [];
    await again.route("**/*.gguf", (route) => { models.push(route.request().url()); return route.continue(); });
    await again.goto(state.site.base + query(chat, { embed: true }));
    await keptIn(again, "hf").filter({ hasText: new RegExp(`^${kept}$`) }).waitFor({ timeout: 30_000 });
    await again.getByTestId("source-note").filter({ hasText: "kept by this browser on an earlier visit" }).waitFor();
    assert.deepEqual(models, []);
  } finally {
    await context.close();
  }
});
