// A page the site prerendered (scripts/prerender.mjs) holds the figures of the state it was drawn
// in: the default chat and call, in its language, as the page or the embed. A link that asks for
// another state — another chat, other arguments, another language, an exercise set — must not
// show them while the scripts load: this classic script, in the head, marks the page so that the
// style sheet hides them until the scripts draw the link's own (answer.css, `html.other-state`).
(function () {
  var root = document.documentElement;
  if (!root.dataset.page) return;
  // Fields that leave the first screen as it was drawn (a generation's settings, threads).
  var unchanged = ["threads", "semantics", "seed", "max", "teacher"];
  var other = false;
  new URLSearchParams(location.search).forEach(function (value, key) {
    if (key === "lang") other = other || value !== root.dataset.pageLang;
    else if (key === "embed") other = other || (value === "1") !== (root.dataset.page === "embed");
    else if (key === "pane") other = other || value !== "step";
    else if (unchanged.indexOf(key) < 0) other = true;
  });
  if (other) root.classList.add("other-state");
})();
