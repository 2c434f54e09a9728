// The rules pages: "how to play" and the rule sets (/rules), one rule set's contracts (/rules/NAME).
// Every sentence comes from the server (barbu.server.rulebook), in the page's language, made from
// the core's rule data: the page writes no word of Barbu of its own.
import { el } from "./dom.js";
import { setUpPage, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function list(items) {
  return el("ul", {}, items.map((x) => el("li", {}, x)));
}

function firstGame(book) {
  return [
    el(
      "section",
      { class: "panel", id: "how-to-play", "aria-labelledby": "how-h" },
      el("h2", { id: "how-h" }, book.title),
      el("ol", {}, book.steps.map((s) => el("li", {}, s))),
    ),
    el(
      "section",
      { class: "panel", "aria-labelledby": "sets-h" },
      el("h2", { id: "sets-h" }, t("Rule sets")),
      el("dl", { class: "rule-sets" }, book.variants.map((v) => [el("dt", {}, el("a", { href: `/rules/${encodeURIComponent(v.name)}` }, v.title)), el("dd", {}, v.blurb)])),
    ),
  ];
}

function example(ex) {
  if (!ex) return null;
  return el("div", { class: "example" }, el("h4", {}, t("Worked example")), list(ex.tally), el("p", {}, t("Scores: {scores}", { scores: ex.scores })), el("p", { class: "muted" }, ex.sum));
}

function contractEl(c) {
  return el(
    "section",
    { class: "panel contract-rules", id: c.id, "aria-labelledby": `${c.id}-h` },
    el("h3", { id: `${c.id}-h` }, c.title),
    el("p", { class: "muted" }, c.kind),
    el("h4", {}, t("Values")),
    list(c.values),
    el("p", {}, c.total),
    el("h4", {}, t("Play")),
    list(c.play),
    example(c.example),
  );
}

function doublingEl(d) {
  if (!d) return null;
  const worked = d.example
    ? el("div", { class: "example" }, el("h4", {}, t("Worked example")), el("p", {}, d.example.text), el("p", {}, t("Before the doubles: {scores}", { scores: d.example.raw })), el("p", {}, t("After settling the pairs: {scores}", { scores: d.example.final })))
    : null;
  return el("section", { class: "panel", id: "doubling", "aria-labelledby": "doubling-h" }, el("h2", { id: "doubling-h" }, t("Doubling")), d.paragraphs.map((p) => el("p", {}, p)), worked);
}

function ruleSet(book) {
  const counts =
    book.players.length > 1
      ? el(
          "p",
          { class: "form-row" },
          el("label", {}, t("Players") + " ", el("select", { id: "rules-count" }, book.players.map((n) => el("option", { value: n, selected: n === book.player_count }, n)))),
        )
      : null;
  const nav = el("nav", { class: "panel contract-nav", "aria-label": t("Contracts") }, el("h2", {}, t("Contracts")), list(book.contracts.map((c) => el("a", { href: `#${c.id}` }, c.title))), book.doubling ? el("p", {}, el("a", { href: "#doubling" }, t("Doubling"))) : null);
  const flags = el(
    "section",
    { class: "panel", id: "house-rules", "aria-labelledby": "house-h" },
    el("h2", { id: "house-h" }, t("House rules of this rule set")),
    el("table", { class: "list" }, el("tbody", {}, book.flags.map((f) => el("tr", {}, el("td", {}, f.help, " ", el("code", { class: "muted small" }, f.name)), el("td", {}, f.value))))),
  );
  return [
    el("section", { class: "panel" }, el("h2", {}, book.title), el("p", {}, book.blurb), counts, list(book.facts)),
    nav,
    book.contracts.map(contractEl),
    doublingEl(book.doubling),
    flags,
  ];
}

async function start() {
  setUpPage();
  const parts = location.pathname.split("/").filter(Boolean);
  const variant = parts.length > 1 ? decodeURIComponent(parts[1]) : null;
  const players = new URLSearchParams(location.search).get("players");
  const url = variant ? `/api/rulebook/${encodeURIComponent(variant)}${players ? `?players=${encodeURIComponent(players)}` : ""}` : "/api/rulebook";
  const res = await fetch(url);
  const book = await res.json();
  if (!res.ok) {
    $("rules").replaceChildren(el("p", { class: "error-box" }, book.error ? book.error.message : t("The rules could not be loaded.")), el("p", {}, el("a", { href: "/rules" }, t("Rules"))));
    return;
  }
  $("rules").replaceChildren(...(variant ? ruleSet(book) : firstGame(book)).flat(Infinity).filter(Boolean));
  if (variant) {
    document.title = `Barbu — ${book.title}`;
    const count = $("rules-count");
    if (count) count.addEventListener("change", () => (location.search = `?players=${count.value}`));
  }
  if (location.hash) {
    const target = document.getElementById(location.hash.slice(1));
    if (target) target.scrollIntoView();
  }
  document.body.dataset.ready = "1";
}

start();
