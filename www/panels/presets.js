// The presets: the reference settings and the cases worth a look, each a whole call (arguments,
// and synthetic logits where the case needs them) a click away.
import { localize } from "../l10n/l10n.js";
import { $, element } from "./dom.js";

/** [URL name, generate() arguments as JSON text (`0.0` stays a Python float), synthetic logits
 * or "" for the model's, the group it is shown in]. A preset's label is the catalog's
 * `preset-<URL name>` (dots as dashes), but for the temperatures of the zero group, which read as
 * themselves. */
const PRESETS = [
  ["temp-0.7", '{"do_sample": true, "temperature": 0.7}', "", "reference"],
  ["top-k-0", '{"do_sample": true, "temperature": 0.7, "top_k": 0}', "", "reference"],
  ["top-k-40", '{"do_sample": true, "temperature": 0.7, "top_k": 40}', "", "reference"],
  ["top-p-0.9", '{"do_sample": true, "temperature": 0.7, "top_k": 0, "top_p": 0.9}', "", "reference"],
  ["top-k-40-top-p-0.9", '{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}', "", "reference"],
  ["smollm2", '{"do_sample": true, "temperature": 0.2, "top_p": 0.9}', "", "more"],
  ["dflash-0.6", '{"do_sample": true, "temperature": 0.6}', "", "more"],
  ["dflash-benchmark", '{"do_sample": true, "temperature": 0.6, "top_p": 1.0, "top_k": 1}', "", "more"],
  // A port sends no field for do_sample=True: each server samples with its own defaults.
  ["server-defaults", '{"do_sample": true}', "", "more"],
  ["greedy", "{}", "", "more"],
  ["temperature-0", '{"do_sample": true, "temperature": 0}', "", "more"],
  ["ties", '{"do_sample": true, "top_k": 2}', "3, 2, 2, 1", "more"],
  ["zero-0", '{"do_sample": true, "temperature": 0.0}', "", "zero"],
  ["zero-1e-8", '{"do_sample": true, "temperature": 1e-8}', "", "zero"],
  ["zero-5e-6", '{"do_sample": true, "temperature": 5e-6}', "", "zero"],
  ["zero-1e-5", '{"do_sample": true, "temperature": 1e-5}', "", "zero"],
  ["zero-1e-3", '{"do_sample": true, "temperature": 0.001}', "", "zero"],
];
const GROUPS = ["reference", "more", "zero"];

/** The preset buttons; `onPick(slug, params, logits)` puts a preset's call on the page. */
export function presetButtons(onPick) {
  const groups = Object.fromEntries(GROUPS.map((name) => {
    const group = element("div", "", `preset-group preset-${name}`);
    if (name === "zero") {
      const title = element("span", "", "muted");
      localize(title, "preset-group-zero");
      group.append(title);
    }
    return [name, group];
  }));
  for (const [slug, params, logits, group] of PRESETS) {
    const button = element("button");
    button.type = "button";
    button.dataset.preset = slug;
    if (group === "zero") {
      const temperature = slug.slice("zero-".length);
      button.textContent = temperature;
      localize(button, "preset-zero", { temperature });
      button.textContent = temperature;
    } else localize(button, `preset-${slug.replace(/\./g, "-")}`);
    button.setAttribute("aria-pressed", "false");
    button.addEventListener("click", () => onPick(slug, params, logits));
    groups[group].append(button);
  }
  $("presets").replaceChildren(...Object.values(groups));
}

/** Shows which preset the call on the page is (none once the user changes it). */
export function markPreset(slug) {
  for (const button of $("presets").querySelectorAll("button[data-preset]")) {
    button.setAttribute("aria-pressed", String(button.dataset.preset === slug));
  }
}
