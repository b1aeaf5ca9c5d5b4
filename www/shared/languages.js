// The languages the catalogs are written in (locales/<lang>/page.ftl), the first the one every
// other falls back to: what `?lang=` takes, what the switcher offers. No imports: the build
// scripts read it in Node too.
export const LANGUAGES = ["en", "zh-Hans"];

/** Each language's name as its readers write it (the switcher's options). */
export const NATIVE_NAMES = { en: "English", "zh-Hans": "简体中文" };
