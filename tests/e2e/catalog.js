// The page's catalog read in Node, for tests of modules that answer with a message id
// (`{id, args}`): what an English reader would be shown.
import { readFileSync } from "node:fs";
import { FluentBundle, FluentResource } from "@fluent/bundle";

const bundles = new Map();

function bundleOf(lang) {
  if (!bundles.has(lang)) {
    const bundle = new FluentBundle(lang, { useIsolating: false });
    const errors = bundle.addResource(new FluentResource(readFileSync(`www/locales/${lang}/page.ftl`, "utf8")));
    if (errors.length) throw new Error(`www/locales/${lang}/page.ftl: ${errors.join("; ")}`);
    bundles.set(lang, bundle);
  }
  return bundles.get(lang);
}

/** Message `{id, args}` as the page would say it in `lang`; throws for an id the catalog lacks. */
export function say({ id, args = {} }, lang = "en") {
  const bundle = bundleOf(lang);
  // A message's argument may be a message itself (a link field's problem), as the page has it.
  args = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, v && typeof v === "object" && v.id ? say(v, lang) : v]));
  const message = bundle.getMessage(id);
  if (!message?.value) throw new Error(`www/locales/${lang}/page.ftl has no message ${id}`);
  const errors = [];
  const text = bundle.formatPattern(message.value, args, errors);
  if (errors.length) throw new Error(`${id}: ${errors.join("; ")}`);
  return text;
}
