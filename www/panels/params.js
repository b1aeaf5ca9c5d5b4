// generate() keyword arguments as a form: each argument is either passed (with a value, or None)
// or not passed, which is a different thing to transformers (an unpassed top_k becomes 50). The
// form writes the JSON text the worker reads, keeping numbers as typed (`1` and `1.0` differ in
// Python); the effective value and its source come back from the core with each report.
import { localize, t } from "../l10n/l10n.js";
import { element } from "./dom.js";

const FIELDS = [
  // The examples are what ticking a box puts in: never transformers' own default, which a task of
  // an exercise set may ask for (an unticked top_k greyed out at 50 would give it away).
  ["do_sample", "true"], ["temperature", "0.7"], ["top_k", "40"], ["top_p", "0.9"], ["min_p", "0.05"],
  ["typical_p", "0.9"], ["epsilon_cutoff", "0.0003"], ["eta_cutoff", "0.0003"], ["repetition_penalty", "1.2"],
  ["no_repeat_ngram_size", "3"],
];
/** A Python-ish literal as JSON accepts it: a number as typed, a boolean, or null for None. */
const LITERAL = /^(-?\d+(\.\d+)?([eE][-+]?\d+)?|true|false|null)$/;

export function buildParamsForm(container, onChange) {
  container.replaceChildren(...FIELDS.map(([name, example]) => {
    const row = element("div", "", "param");
    const pass = document.createElement("input");
    pass.type = "checkbox";
    pass.id = `pass-${name}`;
    pass.dataset.field = name;
    const label = element("label", name);
    label.htmlFor = pass.id;
    const value = document.createElement("input");
    value.type = "text";
    value.id = `value-${name}`;
    value.placeholder = example;
    localize(value, "param-value", { name });
    const effective = element("span", "", "effective-value");
    effective.id = `effective-${name}`;
    const changed = () => { if (document.activeElement === value) pass.checked = value.value.trim() !== ""; onChange(); };
    pass.addEventListener("change", () => { if (pass.checked && !value.value.trim()) value.value = example; onChange(); });
    value.addEventListener("input", changed);
    row.append(pass, label, value, effective);
    return row;
  }));
}

/** The JSON text of the passed arguments, or an error naming the value that is not a literal. */
export function paramsText() {
  const parts = [];
  for (const [name] of FIELDS) {
    if (!document.getElementById(`pass-${name}`).checked) continue;
    let raw = document.getElementById(`value-${name}`).value.trim();
    if (raw === "None" || raw === "") raw = "null";
    if (raw === "True" || raw === "False") raw = raw.toLowerCase();
    if (!LITERAL.test(raw)) return { error: { id: "param-not-literal", args: { name, raw } } };
    parts.push(`"${name}": ${raw}`);
  }
  return { text: `{${parts.join(", ")}}` };
}

/** Shows the arguments of a JSON text in the form (fields it does not have are "not passed"). */
export function showParams(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return; // the text box shows the JSON error through the core's report
  }
  for (const [name] of FIELDS) {
    const passed = value !== null && typeof value === "object" && Object.hasOwn(value, name);
    document.getElementById(`pass-${name}`).checked = passed;
    document.getElementById(`value-${name}`).value = passed ? rawValue(text, name, value[name]) : "";
  }
}

/** The value as written in the text (so `1.0` stays `1.0`), or its JSON form. */
function rawValue(text, name, parsed) {
  const match = new RegExp(`"${name}"\\s*:\\s*(-?[\\d.eE+-]+|true|false|null)`).exec(text);
  const raw = match ? match[1] : JSON.stringify(parsed);
  return raw === "null" ? "None" : raw;
}

/** Each argument's effective value and where it came from, as the core reports them. */
export function showEffective(effective) {
  for (const [name] of FIELDS) {
    const value = effective.values[name];
    const implicit = effective.implicit.some((entry) => entry.startsWith(`${name}=`));
    document.getElementById(`effective-${name}`).textContent = t(implicit ? "param-effective-implicit" : "param-effective", {
      value: value === null ? "None" : JSON.stringify(value), source: effective.sources[name] ?? "default",
    });
  }
}
