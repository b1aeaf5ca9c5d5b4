// A student's progress through an exercise set, kept in this browser (localStorage) per set, so
// that answers and results survive a reload: for each task the last answer, the number of checks,
// whether it was right, and whether the answer was shown instead.
import { t } from "../l10n/l10n.js";

/** A set's records under a key of its path, title and length: an edited set starts afresh. */
const key = (path, set) => `sampling-lab:exercises:${path}:${typeof set.title === "string" ? set.title : JSON.stringify(set.title)}:${set.exercises.length}`;

const fresh = (count) => Array.from({ length: count }, () => ({ answer: "", tries: 0, right: false, shown: false }));

/** The records of `set`, opened as `path`; fresh ones when none are kept or they are unreadable. */
export function loadProgress(path, set) {
  const count = set.exercises.length;
  try {
    const saved = JSON.parse(localStorage.getItem(key(path, set)) ?? "null");
    if (!Array.isArray(saved) || saved.length !== count) return fresh(count);
    return saved.map((r) => ({
      answer: typeof r?.answer === "string" ? r.answer : "",
      tries: Number.isInteger(r?.tries) && r.tries >= 0 ? r.tries : 0,
      right: r?.right === true,
      shown: r?.shown === true,
    }));
  } catch {
    // Storage refused (a private window) or a record not ours: progress then lives in the page.
    return fresh(count);
  }
}

export function saveProgress(path, set, records) {
  try {
    localStorage.setItem(key(path, set), JSON.stringify(records));
  } catch {
    // Storage full or refused: the page keeps the progress until it closes.
  }
}

export function resetProgress(path, set) {
  try {
    localStorage.removeItem(key(path, set));
  } catch { /* nothing was kept */ }
  return fresh(set.exercises.length);
}

/** "3 of 9 right, 2 at the first try · 1 shown", or where the set stands when nothing is done. */
export function progressSummary(records) {
  const right = records.filter((r) => r.right);
  const firstTry = right.filter((r) => r.tries === 1).length;
  const shown = records.filter((r) => r.shown && !r.right).length;
  return t("ex-summary", { done: right.length + shown === records.length ? "yes" : "no", right: right.length, of: records.length, firstTry, shown });
}
