// The lobby: create a table (rule set, options, seats and bot levels), join by link,
// list open, playing and finished tables.
import { el, joined } from "./dom.js";
import { setUpPage, t, tn } from "./i18n.js";
import { chosenOptions as optionsOf, playerCount as countOf, renderCounts, renderFlags as flagsInto } from "./ruleform.js";

const $ = (id) => document.getElementById(id);
let RULES = [];
let LEVELS = [];
let LEVEL_HELP = {};

function currentRuleSet() {
  return RULES.find((r) => r.name === $("variant").value);
}

function playerCount() {
  return countOf(currentRuleSet(), $("player-count"));
}

function renderSeats() {
  const n = playerCount();
  const box = $("seats");
  const old = [...box.querySelectorAll(".seat-choice")].map((row) => ({
    kind: row.querySelector("select.kind").value,
    level: row.querySelector("select.level").value,
  }));
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const prev = old[i] || { kind: i === 0 ? "you" : "bot", level: LEVELS.includes("heuristic") ? "heuristic" : LEVELS[0] };
    const row = el(
      "div",
      { class: "seat-choice" },
      el("strong", {}, t("Seat {n}", { n: i })),
      el(
        "label",
        {},
        t("Player") + " ",
        el(
          "select",
          { class: "kind", "aria-label": t("Seat {n} player", { n: i }) },
          el("option", { value: "you" }, t("You")),
          el("option", { value: "friend" }, t("A friend (invitation link)")),
          el("option", { value: "bot" }, t("Bot")),
        ),
      ),
      el(
        "label",
        { class: "level-label" },
        t("Level") + " ",
        el("select", { class: "level", "aria-label": t("Seat {n} bot level", { n: i }) }, LEVELS.map((l) => el("option", { value: l, title: LEVEL_HELP[l] || "" }, levelName(l)))),
      ),
    );
    row.querySelector("select.kind").value = prev.kind;
    row.querySelector("select.level").value = prev.level;
    const sync = () => row.querySelector(".level-label").classList.toggle("hidden", row.querySelector("select.kind").value !== "bot");
    row.querySelector("select.kind").addEventListener("change", sync);
    sync();
    box.appendChild(row);
  }
}

// A bot level's name in words ("heuristic" is the level's id; its help starts with its name).
function levelName(level) {
  const help = LEVEL_HELP[level];
  return help && help.includes(":") ? help.slice(0, help.indexOf(":")) : level;
}

function renderLevelsHelp() {
  $("levels-help").replaceChildren(el("p", {}, t("Bot levels:")), el("ul", {}, LEVELS.map((l) => el("li", {}, LEVEL_HELP[l] || l))));
}

function renderFlags() {
  const rs = currentRuleSet();
  const n = playerCount();
  const deals = rs.players.length > 1 ? " " + tn("With {n} players: {deals} deal.", "With {n} players: {deals} deals.", rs.deals[String(n)], { n, deals: rs.deals[String(n)] }) : "";
  $("blurb").replaceChildren(`${t("{title}: {blurb}", { title: rs.title, blurb: rs.blurb })}${deals} `, el("a", { href: `/rules/${encodeURIComponent(rs.name)}` }, t("Rules of {title}", { title: rs.title })));
  flagsInto(rs, $("flags"));
}

function chosenOptions() {
  return optionsOf(currentRuleSet(), playerCount());
}

function linkFor(path) {
  return new URL(path, location.href).href;
}

async function create(ev) {
  ev.preventDefault();
  $("create-error").textContent = "";
  const name = $("name").value.trim();
  if (name) localStorage.setItem("barbu.name", name);
  const rows = [...document.querySelectorAll(".seat-choice")];
  const seats = rows.map((row) => {
    const kind = row.querySelector("select.kind").value;
    if (kind === "bot") return { kind: "bot", level: row.querySelector("select.level").value };
    return kind === "you" && name ? { kind: "human", name } : { kind: "human" };
  });
  const body = { variant: $("variant").value, options: chosenOptions(), seats };
  const res = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) {
    $("create-error").textContent = data.error ? data.error.message : t("the table could not be created");
    return;
  }
  // The links are shown here, and to this browser on the table page while the table waits (the server
  // lists them to the browser that created it); they are never stored where a script could read them.
  const links = {};
  for (const s of data.seats) links[s.seat] = linkFor(s.link);
  const mine = rows.findIndex((row) => row.querySelector("select.kind").value === "you");
  const box = $("created-links");
  box.replaceChildren();
  for (const s of data.seats) {
    const who = s.seat === mine ? t("Seat {n} (you)", { n: s.seat }) : t("Seat {n} (a friend)", { n: s.seat });
    const row = el("label", {}, `${who} `, el("input", { readonly: true, value: links[s.seat], "aria-label": t("Invitation link of seat {n}", { n: s.seat }) }));
    row.querySelector("input").addEventListener("focus", (e) => e.target.select());
    box.appendChild(row);
  }
  $("go-watch").href = data.watch;
  $("delete-table").dataset.table = data.table; // the server knows this browser created it (its HttpOnly cookie)
  const goSeat = $("go-seat");
  if (mine >= 0) {
    goSeat.href = links[mine];
    goSeat.classList.remove("hidden");
  } else {
    goSeat.classList.add("hidden");
  }
  $("created").classList.remove("hidden");
  if (mine >= 0 && data.seats.length === 1) location.href = links[mine];
  else if (data.seats.length === 0) location.href = data.watch;
  refreshLists();
}

// Who sits at table `t`, as nodes: "Ann, bot (heuristic), seat 2 (free)".
// Delete the table just created (the browser sends its cookie; the server says if it may).
async function deleteTable() {
  const table = $("delete-table").dataset.table;
  if (!table || !confirm(t("Delete this table? Everyone at it is disconnected."))) return;
  const res = await fetch(`/api/tables/${encodeURIComponent(table)}`, { method: "DELETE", credentials: "same-origin" });
  const data = await res.json();
  if (!res.ok) {
    $("delete-error").textContent = data.error.message;
    return;
  }
  $("created").classList.add("hidden");
  refreshLists();
}

function seatsText(table) {
  const seats = table.seats.map((s) => {
    if (s.kind === "bot") return t("bot ({level})", { level: levelName(s.level) });
    const who = s.name ? s.name : t("seat {n}", { n: s.seat });
    return s.joined ? who : [`${who} `, el("span", { class: "muted" }, t("(free)"))];
  });
  return joined(seats, ", ");
}

async function refreshList(status) {
  const box = $(`list-${status}`);
  try {
    const res = await fetch(`/api/tables?status=${status}&limit=30`);
    const tables = await res.json();
    if (!tables.length) {
      box.replaceChildren(el("p", { class: "muted" }, t("None.")));
      return;
    }
    const rows = tables.map((table) => {
      const when = new Date((table.finished || table.created) * 1000).toLocaleString(document.documentElement.lang);
      const rs = RULES.find((r) => r.name === table.variant);
      const id = encodeURIComponent(table.id);
      const links = [el("a", { href: `/t/${id}` }, status === "finished" ? t("see") : t("watch"))];
      if (status === "finished") links.push(el("a", { href: `/api/tables/${id}/record`, download: `barbu-${table.id}.json` }, t("record")));
      if (status === "finished") links.push(el("a", { href: `/analysis?table=${id}` }, t("analyse")));
      return el("tr", {}, el("td", {}, rs ? rs.title : table.variant), el("td", {}, seatsText(table)), el("td", { class: "muted" }, when), el("td", {}, joined(links, " · ")));
    });
    box.replaceChildren(el("table", { class: "list" }, el("tbody", {}, rows)));
  } catch (e) {
    box.replaceChildren(el("p", { class: "error-box" }, t("Could not load the list.")));
  }
}

function refreshLists() {
  for (const s of ["open", "playing", "finished"]) refreshList(s);
}

function join(ev) {
  ev.preventDefault();
  const text = $("join-link").value.trim();
  if (!text) return;
  try {
    const url = new URL(text, location.href);
    if (!url.pathname.startsWith("/t/")) throw new Error(t("That is not a table link: it looks like …/t/TABLE#seat=…&key=…"));
    location.href = url.pathname + url.hash;
  } catch (e) {
    $("join-link").setCustomValidity(t("That is not a table link: it looks like …/t/TABLE#seat=…&key=…"));
    $("join-link").reportValidity();
  }
}

async function start() {
  setUpPage();
  let levels;
  [RULES, levels] = await Promise.all([fetch("/api/rules").then((r) => r.json()), fetch("/api/bots/levels").then((r) => r.json())]);
  LEVELS = levels.map((l) => l.name);
  LEVEL_HELP = Object.fromEntries(levels.map((l) => [l.name, l.help]));
  renderLevelsHelp();
  $("variant").replaceChildren(...RULES.map((r) => el("option", { value: r.name }, r.title)));
  $("name").value = localStorage.getItem("barbu.name") || "";
  const onVariant = () => {
    renderCounts(currentRuleSet(), $("player-count"), $("count-label"));
    renderSeats();
    renderFlags();
  };
  $("variant").addEventListener("change", onVariant);
  $("player-count").addEventListener("change", () => {
    renderSeats();
    renderFlags();
  });
  onVariant();
  $("create").addEventListener("submit", create);
  $("delete-table").addEventListener("click", deleteTable);
  $("join").addEventListener("submit", join);
  $("join-link").addEventListener("input", (e) => e.target.setCustomValidity(""));
  refreshLists();
  setInterval(refreshLists, 10000);
}

start();
