// What both score sheet pages share: calling the sheets API, and showing what it answers
// (suits, contract labels, signed numbers, statistics). Nothing here knows a rule.
import { esc } from "./ruleform.js";

export { esc };

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
    return { ok: false, status: 0, data: { error: { kind: "network", message: "the server cannot be reached: check the connection and try again" } } };
  }
  let data;
  try {
    data = await res.json();
  } catch (e) {
    data = { error: { kind: "request", message: `the server answered ${res.status} without JSON` } };
  }
  return { ok: res.ok, status: res.status, data };
}

export function suitHtml(s) {
  return `<span class="suit${RED.has(s) ? " red" : ""}" aria-label="${{ S: "spades", H: "hearts", D: "diamonds", C: "clubs" }[s]}">${SUIT_SIGN[s]}</span>`;
}

// "Trumps ♥", "Domino from 8", "No queens".
export function choiceHtml(row) {
  let out = esc(row.title);
  if (row.trump) out += ` ${suitHtml(row.trump)}`;
  if (row.rank) out += ` <span class="muted">from ${esc(row.rank)}</span>`;
  return out;
}

export function signed(v) {
  if (v === null || v === undefined) return "";
  return v > 0 ? `+${v}` : String(v);
}

export function ordinal(n) {
  return n === 1 ? "1st" : n === 2 ? "2nd" : n === 3 ? "3rd" : `${n}th`;
}

// The doubles of a deal in words: "Bob doubled Ann; Dan doubled Ann, redoubled".
export function doublesWords(cells, names) {
  if (!cells.length) return "no doubles";
  return cells.map((d) => `${esc(names[d.doubler])} doubled ${esc(names[d.doubled])}${d.redoubled ? ", redoubled" : ""}`).join("; ");
}

function table(caption, head, rows) {
  return (
    `<div class="scroll-x"><table class="stats"><caption>${esc(caption)}</caption>` +
    `<thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join("")}</tr></thead>` +
    `<tbody>${rows.map((r) => `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${c}</th>` : `<td>${c}</td>`)).join("")}</tr>`).join("")}</tbody></table></div>`
  );
}

// Statistics as the server computed them (barbu.sheet.stats): players, then contracts.
export function statsHtml(stats, titles = {}) {
  if (!stats.players.length) return `<p class="muted">No sheet yet.</p>`;
  const name = (id) => esc(titles[id] || id || "");
  const players = table(
    `Players (${stats.games} game${stats.games === 1 ? "" : "s"})`,
    ["player", "games", "wins", "total", "declaring", "best", "worst", "doubles made", "redoubles", "won", "lost", "even", "doubling ±"],
    stats.players.map((p) => [
      esc(p.name),
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
    "Contracts",
    ["contract", "deals", "not played", "pairs", "redoubled", "declarer mean", "best", "worst"],
    stats.contracts.map((c) => [
      esc(c.title),
      c.deals,
      c.skipped,
      c.pairs,
      c.redoubled,
      c.declarer_mean === null ? "" : c.declarer_mean.toFixed(1),
      c.best ? `${esc(c.best[0])} ${signed(c.best[2])} <span class="muted">(deal ${c.best[1]})</span>` : "",
      c.worst ? `${esc(c.worst[0])} ${signed(c.worst[2])} <span class="muted">(deal ${c.worst[1]})</span>` : "",
    ]),
  );
  return players + contracts;
}
