// What both score sheet pages share: calling the sheets API, and showing what it answers
// (suits, contract labels, signed numbers, statistics). Nothing here knows a rule.
import { el } from "./dom.js";
import { t, tn, words } from "./i18n.js";

export const SUIT_SIGN = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const RED = new Set(["H", "D"]);

// A JSON request to the API: {ok, status, data}; a failure to reach the server is an error like any other.
// The browser adds the sheets' HttpOnly cookies itself; `key` (a link's key) rides in the Authorization header.
export async function call(method, path, body, key) {
  const init = { method, headers: {}, credentials: "same-origin" };
  if (key) init.headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    return { ok: false, status: 0, data: { error: { kind: "network", message: t("the server cannot be reached: check the connection and try again") } } };
  }
  let data;
  try {
    data = await res.json();
  } catch (e) {
    data = { error: { kind: "request", message: t("the server answered {status} without JSON", { status: res.status }) } };
  }
  return { ok: res.ok, status: res.status, data };
}

export function suitEl(s) {
  return el("span", { class: `suit${RED.has(s) ? " red" : ""}`, "aria-label": words.suits[s] || s }, SUIT_SIGN[s]);
}

// "Trumps ♥", "Domino from 8", "No queens", as nodes.
export function choiceEl(row) {
  return [row.title, row.trump ? [" ", suitEl(row.trump)] : null, row.rank ? [" ", el("span", { class: "muted" }, t("from {rank}", { rank: rankText(row.rank) }))] : null];
}

export function signed(v) {
  if (v === null || v === undefined) return "";
  return v > 0 ? `+${v}` : String(v);
}

// A rank as written on a card: "10" for the ten, the letter otherwise.
export function rankText(rank) {
  return rank === "T" ? "10" : rank;
}

export function ordinal(n) {
  if (n === 1) return t("1st");
  if (n === 2) return t("2nd");
  if (n === 3) return t("3rd");
  return t("{n}th", { n });
}

// The doubles of a deal in words: "Bob doubled Ann; Dan doubled Ann, redoubled".
export function doublesWords(cells, names) {
  if (!cells.length) return t("no doubles");
  return cells.map((d) => (d.redoubled ? t("{a} doubled {b}, redoubled", { a: names[d.doubler], b: names[d.doubled] }) : t("{a} doubled {b}", { a: names[d.doubler], b: names[d.doubled] }))).join("; ");
}

// A table of statistics; each cell is a text or nodes, the first of a row its heading.
function table(caption, head, rows) {
  return el(
    "div",
    { class: "scroll-x" },
    el(
      "table",
      { class: "stats" },
      el("caption", {}, caption),
      el("thead", {}, el("tr", {}, head.map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, rows.map((r) => el("tr", {}, r.map((c, i) => (i === 0 ? el("th", { scope: "row" }, c) : el("td", {}, c)))))),
    ),
  );
}

// Statistics as the server computed them (barbu.sheet.stats), as nodes: players, then contracts.
export function statsEl(stats, titles = {}) {
  if (!stats.players.length) return [el("p", { class: "muted" }, t("No sheet yet."))];
  const name = (id) => titles[id] || id || "";
  const players = table(
    tn("Players ({n} game)", "Players ({n} games)", stats.games, { n: stats.games }),
    [t("player"), t("games"), t("wins"), t("total"), t("declaring"), t("best"), t("worst"), t("doubles made"), t("redoubles"), t("won"), t("lost"), t("even"), t("doubling ±")],
    stats.players.map((p) => [
      p.name,
      p.games,
      p.wins,
      p.total,
      signed(p.declarer_points),
      name(p.best_contract),
      name(p.worst_contract),
      p.doubles_made,
      p.redoubles,
      p.doubles_won,
      p.doubles_lost,
      p.doubles_even,
      signed(p.doubling_points),
    ]),
  );
  const contracts = table(
    t("Contracts"),
    [t("contract"), t("deals"), t("not played"), t("pairs"), t("redoubled"), t("declarer mean"), t("best"), t("worst")],
    stats.contracts.map((c) => [
      c.title,
      c.deals,
      c.skipped,
      c.pairs,
      c.redoubled,
      c.declarer_mean === null ? "" : c.declarer_mean.toFixed(1),
      c.best ? [`${c.best[0]} ${signed(c.best[2])} `, el("span", { class: "muted" }, t("(deal {n})", { n: c.best[1] }))] : "",
      c.worst ? [`${c.worst[0]} ${signed(c.worst[2])} `, el("span", { class: "muted" }, t("(deal {n})", { n: c.worst[1] }))] : "",
    ]),
  );
  return [players, contracts];
}
