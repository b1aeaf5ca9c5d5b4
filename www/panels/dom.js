// The two DOM helpers every part of the page uses: text only (textContent), never HTML, since
// token texts, prompts and links can hold markup.

export const $ = (id) => document.getElementById(id);

export function element(tag, text = "", className = "") {
  const el = document.createElement(tag);
  if (text) el.textContent = text;
  if (className) el.className = className;
  // Code is what it is in every language: a browser's translation leaves it alone.
  if (tag === "code" || tag === "pre") el.translate = false;
  return el;
}

export function row(...cells) {
  const tr = document.createElement("tr");
  tr.append(...cells);
  return tr;
}

/** A table with `headers` and an empty body named `bodyId`. */
export function tableOf(headers, bodyId) {
  const table = document.createElement("table");
  const thead = document.createElement("thead");
  thead.append(row(...headers.map((h) => element("th", h))));
  const tbody = document.createElement("tbody");
  tbody.id = bodyId;
  table.append(thead, tbody);
  return table;
}

export function details(summary, ...content) {
  const box = document.createElement("details");
  box.append(element("summary", summary), ...content);
  return box;
}
