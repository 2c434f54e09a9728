// The lobby: create a table (rule set, options, seats and bot levels), join by link,
// list open, playing and finished tables.
import { chosenOptions as optionsOf, esc, playerCount as countOf, renderCounts, renderFlags as flagsInto } from "./ruleform.js";

const $ = (id) => document.getElementById(id);
let RULES = [];
let LEVELS = [];

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
  box.innerHTML = "";
  for (let i = 0; i < n; i++) {
    const prev = old[i] || { kind: i === 0 ? "you" : "bot", level: LEVELS.includes("heuristic") ? "heuristic" : LEVELS[0] };
    const row = document.createElement("div");
    row.className = "seat-choice";
    row.innerHTML =
      `<strong>Seat ${i}</strong>` +
      `<label>Player <select class="kind" aria-label="Seat ${i} player">` +
      `<option value="you">You</option><option value="friend">A friend (invitation link)</option><option value="bot">Bot</option>` +
      `</select></label>` +
      `<label class="level-label">Level <select class="level" aria-label="Seat ${i} bot level">` +
      LEVELS.map((l) => `<option>${esc(l)}</option>`).join("") +
      `</select></label>`;
    row.querySelector("select.kind").value = prev.kind;
    row.querySelector("select.level").value = prev.level;
    const sync = () => row.querySelector(".level-label").classList.toggle("hidden", row.querySelector("select.kind").value !== "bot");
    row.querySelector("select.kind").addEventListener("change", sync);
    sync();
    box.appendChild(row);
  }
}

function renderFlags() {
  const rs = currentRuleSet();
  const deals = rs.players.length > 1 ? ` With ${playerCount()} players: ${rs.deals[String(playerCount())]} deals.` : "";
  $("blurb").textContent = `${rs.title}: ${rs.blurb}${deals}`;
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
    $("create-error").textContent = data.error ? data.error.message : "the table could not be created";
    return;
  }
  // The links are shown here, and to this browser on the table page while the table waits (the server
  // lists them to the browser that created it); they are never stored where a script could read them.
  const links = {};
  for (const s of data.seats) links[s.seat] = linkFor(s.link);
  const mine = rows.findIndex((row) => row.querySelector("select.kind").value === "you");
  const box = $("created-links");
  box.innerHTML = "";
  for (const s of data.seats) {
    const who = s.seat === mine ? "you" : "a friend";
    const row = document.createElement("label");
    row.innerHTML = `Seat ${s.seat} (${who}) <input readonly value="${esc(links[s.seat])}" aria-label="Invitation link of seat ${s.seat}">`;
    row.querySelector("input").addEventListener("focus", (e) => e.target.select());
    box.appendChild(row);
  }
  $("go-watch").href = data.watch;
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

function seatsText(t) {
  return t.seats
    .map((s) => {
      if (s.kind === "bot") return `bot (${esc(s.level)})`;
      const who = s.name ? esc(s.name) : `seat ${s.seat}`;
      return s.joined ? who : `${who} <span class="muted">(free)</span>`;
    })
    .join(", ");
}

async function refreshList(status) {
  const box = $(`list-${status}`);
  try {
    const res = await fetch(`/api/tables?status=${status}&limit=30`);
    const tables = await res.json();
    if (!tables.length) {
      box.innerHTML = `<p class="muted">None.</p>`;
      return;
    }
    const rows = tables.map((t) => {
      const when = new Date((t.finished || t.created) * 1000).toLocaleString();
      const rs = RULES.find((r) => r.name === t.variant);
      const links = [`<a href="/t/${esc(t.id)}">${status === "finished" ? "see" : "watch"}</a>`];
      if (status === "finished") links.push(`<a href="/api/tables/${esc(t.id)}/record" download="barbu-${esc(t.id)}.json">record</a>`);
      return `<tr><td>${esc(rs ? rs.title : t.variant)}</td><td>${seatsText(t)}</td><td class="muted">${esc(when)}</td><td>${links.join(" · ")}</td></tr>`;
    });
    box.innerHTML = `<table class="list"><tbody>${rows.join("")}</tbody></table>`;
  } catch (e) {
    box.innerHTML = `<p class="error-box">Could not load the list.</p>`;
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
    if (!url.pathname.startsWith("/t/")) throw new Error("not a table link");
    location.href = url.pathname + url.hash;
  } catch (e) {
    $("join-link").setCustomValidity("That is not a table link: it looks like …/t/TABLE#seat=…&key=…");
    $("join-link").reportValidity();
  }
}

async function start() {
  [RULES, LEVELS] = await Promise.all([fetch("/api/rules").then((r) => r.json()), fetch("/api/bots").then((r) => r.json())]);
  $("variant").innerHTML = RULES.map((r) => `<option value="${esc(r.name)}">${esc(r.title)}</option>`).join("");
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
  $("join").addEventListener("submit", join);
  $("join-link").addEventListener("input", (e) => e.target.setCustomValidity(""));
  refreshLists();
  setInterval(refreshLists, 10000);
}

start();
