// The two DOM helpers every part of the page uses: text only (textContent), never HTML, since
// token texts, prompts and links can hold markup.

export const $ = (id) => document.getElementById(id);

export function element(tag, text, className) {
  const el = document.createElement(tag);
  el.textContent = text;
  if (className) el.className = className;
  return el;
}
