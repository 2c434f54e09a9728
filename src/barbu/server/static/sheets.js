// The score sheets page: the stored sheets, starting a sheet (rule set, options, player
// names, first declarer), importing a record, and statistics across every sheet. The
// server checks everything; this page shows what it answers.
import { el } from "./dom.js";
import { chosenOptions, playerCount, renderCounts, renderFlags } from "./ruleform.js";
import { setUpPage, t, tn } from "./i18n.js";
import { call, statsEl } from "./sheetkit.js";

const $ = (id) => document.getElementById(id);
let RULES = [];

function ruleSet() {
  return RULES.find((r) => r.name === $("variant").value);
}

function count() {
  return playerCount(ruleSet(), $("player-count"));
}

function renderNames() {
  const n = count();
  const box = $("names");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.replaceChildren();
  for (let s = 0; s < n; s++) {
    const label = el("label", {}, el("span", {}, t("Seat {n}", { n: s })), el("input", { class: "name", maxlength: 40, required: true, "aria-label": t("Name of seat {n}", { n: s }), placeholder: t("name") }));
    label.querySelector("input").value = old[s] || "";
    label.querySelector("input").addEventListener("input", renderFirst);
    box.appendChild(label);
  }
  renderFirst();
}

function renderFirst() {
  const select = $("first");
  const was = select.value;
  const names = [...document.querySelectorAll("#names input")].map((i, s) => i.value.trim() || t("seat {n}", { n: s }));
  select.replaceChildren(...names.map((name, s) => el("option", { value: s }, name)));
  if (was && Number(was) < names.length) select.value = was;
}

function onRuleSet() {
  const rs = ruleSet();
  renderCounts(rs, $("player-count"), $("count-label"));
  onCount();
}

function onCount() {
  const rs = ruleSet();
  const n = count();
  const deals = rs.players.length > 1 ? " " + tn("With {n} players: {deals} deal.", "With {n} players: {deals} deals.", rs.deals[String(n)], { n, deals: rs.deals[String(n)] }) : "";
  $("blurb").textContent = `${t("{title}: {blurb}", { title: rs.title, blurb: rs.blurb })}${deals}`;
  renderFlags(rs, $("flags"));
  renderNames();
}

async function start(ev) {
  ev.preventDefault();
  $("new-error").textContent = "";
  const body = {
    variant: $("variant").value,
    options: chosenOptions(ruleSet(), count()),
    players: [...document.querySelectorAll("#names input")].map((i) => i.value),
    first_declarer: Number($("first").value),
    title: $("title").value,
  };
  const res = await call("POST", "/api/sheets", body);
  if (!res.ok) {
    $("new-error").textContent = res.data.error.message;
    return;
  }
  location.href = res.data.owner.link; // the sheet page shows the owner's link once, then drops it from the address
}

async function importRecord(ev) {
  ev.preventDefault();
  $("import-error").textContent = "";
  const file = $("import-file").files[0];
  if (!file) {
    $("import-error").textContent = t("Choose a record file first.");
    return;
  }
  const text = await file.text();
  const title = $("import-title").value || file.name.replace(/(\.barbu)?\.json$/i, "");
  const res = await call("POST", "/api/sheets/import", { record: text, title });
  if (!res.ok) {
    $("import-error").textContent = res.data.error.message;
    return;
  }
  location.href = res.data.owner.link;
}

async function refreshList() {
  const res = await call("GET", "/api/sheets");
  const box = $("sheet-list");
  if (!res.ok) {
    box.replaceChildren(el("p", { class: "error-box" }, res.data.error.message));
    return;
  }
  if (!res.data.length) {
    box.replaceChildren(
      el("p", { class: "muted" }, t("No sheet opened in this browser yet: start one below, or open a link a sheet’s owner gave you.")),
    );
    return;
  }
  const rows = res.data.map((s) => {
    const rs = RULES.find((r) => r.name === s.variant);
    const when = new Date(s.updated * 1000).toLocaleString(document.documentElement.lang);
    const deals = rs ? `${s.deals}/${rs.deals[String(s.players.length)] ?? "?"}` : String(s.deals);
    return el(
      "tr",
      {},
      el("td", {}, el("a", { href: `/sheets/${encodeURIComponent(s.id)}` }, s.title), el("div", { class: "muted small" }, s.players.join(", "))),
      el("td", {}, rs ? rs.title : s.variant),
      el("td", { class: "num" }, `${deals}${s.complete ? " ✓" : ""}`),
      el("td", { class: "muted small when" }, when),
    );
  });
  box.replaceChildren(
    el(
      "table",
      { class: "sheet-list" },
      el("thead", {}, el("tr", {}, el("th", {}, t("Sheet")), el("th", {}, t("Rule set")), el("th", { class: "num" }, t("Deals")), el("th", { class: "when" }, t("Changed")))),
      el("tbody", {}, rows),
    ),
  );
}

async function loadStats() {
  const res = await call("GET", "/api/sheets/stats");
  const box = $("all-stats-body");
  if (!res.ok) {
    box.replaceChildren(el("p", { class: "error-box" }, res.data.error.message));
    return;
  }
  const titles = Object.fromEntries(res.data.contracts.map((c) => [c.id, c.title]));
  box.replaceChildren(...statsEl(res.data, titles));
}

async function main() {
  setUpPage();
  RULES = await fetch("/api/rules").then((r) => r.json());
  $("variant").replaceChildren(...RULES.map((r) => el("option", { value: r.name }, r.title)));
  $("variant").addEventListener("change", onRuleSet);
  $("player-count").addEventListener("change", onCount);
  onRuleSet();
  $("new-sheet").addEventListener("submit", start);
  $("import").addEventListener("submit", importRecord);
  $("all-stats").addEventListener("toggle", () => {
    if ($("all-stats").open) loadStats();
  });
  await refreshList();
  document.body.dataset.ready = "1";
}

main();
