// An ESLint rule: no sentence in a page script. Every sentence a reader sees comes from the
// catalogs (www/locales/<lang>/page.ftl), in each language they have; a script names messages by
// id. A string or template literal reads as prose when it has words of letters and either three
// of them in a row or a capital, a full stop, a colon, a comma, a question mark or a dash between
// words — what ids, class lists, selectors and code never have. Code is allowed where it is code:
// selectors, class names, console messages, URLs, and text written to a `<code>` or `<pre>`.

/** Calls whose string arguments are code, never prose. */
const CODE_CALLS = new Set(["matchMedia", "querySelector", "querySelectorAll", "closest", "matches", "getElementById", "getPropertyValue", "setProperty", "add", "remove", "toggle", "contains", "createElement", "addEventListener", "removeEventListener", "getAttribute", "setAttribute", "removeAttribute"]);

const WORD = /[A-Za-z]{2,}/g;

/** Whether `text` reads as a sentence for a reader. */
export function isProse(text) {
  const words = text.match(WORD) ?? [];
  if (words.length < 2) return false;
  if (/[A-Za-z]{2,}\s+[A-Za-z]{2,}\s+[A-Za-z]{2,}/.test(text)) return true;
  return /[A-Z][a-z]+\s+[a-z]/.test(text) || /[a-z]{2,}[.,:;?!—–]\s+[A-Za-z]/.test(text);
}

/** Object keys whose values are code: a font stack, a CSS value. */
const CODE_KEYS = new Set(["family", "font", "content"]);

/** Whether the literal at `node` is code by where it stands (through the conditionals that pick
 * it: `outside ? "cell narrow outside" : "cell narrow"`). */
function standsAsCode(literal) {
  let node = literal;
  while (["ConditionalExpression", "LogicalExpression"].includes(node.parent?.type) && node.parent.test !== node) node = node.parent;
  const parent = node.parent;
  if (!parent) return false;
  if (parent.type === "Property" && parent.value === node && CODE_KEYS.has(parent.key.name)) return true;
  if (parent.type === "ImportDeclaration" || parent.type === "ExportNamedDeclaration" || parent.type === "ExportAllDeclaration" || parent.type === "ImportExpression") return true;
  if (parent.type === "Property" && parent.key === node) return true;
  if (parent.type === "CallExpression" || parent.type === "NewExpression") {
    const callee = parent.callee;
    const name = callee.type === "MemberExpression" ? callee.property.name : callee.name;
    if (CODE_CALLS.has(name) && parent.arguments[0] === node) return true;
    if (callee.type === "MemberExpression" && callee.object.name === "console") return true;
    if (name === "URL" || name === "Error" || name === "TypeError") return true;
    // element(tag, text, className): the class list.
    if (name === "element" && parent.arguments[2] === node) return true;
  }
  if (parent.type === "AssignmentExpression" && parent.right === node) {
    const target = parent.left.type === "MemberExpression" ? parent.left.property.name : "";
    if (["className", "href", "src", "id"].includes(target)) return true;
  }
  return false;
}

export default {
  meta: {
    type: "problem",
    docs: { description: "a sentence a reader sees comes from the message catalog, not from a script" },
    messages: { prose: "“{{text}}” reads as a sentence: put it in www/locales/*/page.ftl and name it by its id" },
    schema: [],
  },
  create(context) {
    const report = (node, text) => {
      if (!standsAsCode(node) && isProse(text)) context.report({ node, messageId: "prose", data: { text: text.slice(0, 60) } });
    };
    return {
      Literal(node) {
        if (typeof node.value === "string") report(node, node.value);
      },
      TemplateLiteral(node) {
        report(node, node.quasis.map((q) => q.value.cooked ?? "").join(" "));
      },
    };
  },
};
