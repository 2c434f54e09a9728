// The coach at the table (docs/coach.md): a "Hint" button when every other seat is a bot, or when
// every person at the table agreed (a proposal any of them makes, the `hints` message, shown to
// all), which asks the server for the values of this seat's legal actions (from its own view
// only), and a link to the analysis board once the game is over. It reads the table's state
// (window.barbu), sends only its `hints` message on the table's connection, and touches nothing
// else of the table's own script.
import { el } from "./dom.js";
import { t, tn } from "./i18n.js";
import { loadContractTitles } from "./cards.js";
import { actionText } from "./coachtext.js";

const tableId = decodeURIComponent(location.pathname.split("/").pop());
const apiBase = `/api/tables/${encodeURIComponent(tableId)}/hint`;
const box = el("aside", { id: "coach", class: "coach-box", "aria-live": "polite", "aria-label": t("Coach") });
const button = el("button", { type: "button", id: "hint", hidden: true, title: t("The values of your choices, from what you can see") }, t("Hint"));
const answer = el("div", { id: "hint-answer" });
const analysisLink = el("a", { id: "analyse-link", href: `/analysis?table=${encodeURIComponent(tableId)}`, hidden: true }, t("Analyse this game"));
const vote = el("div", { id: "hints-vote", class: "hints-vote", hidden: true });
box.append(vote, button, analysisLink, answer);
let allowed = null; // null: not asked yet
let askedFor = null; // the table's hints state the server was last asked about
let voteKey = null;
let titles = false;

function myTurn() {
  const s = window.barbu;
  return !!(s && s.view && !s.view.game_over && s.seat !== null && s.view.to_act === s.seat);
}

function label(action, phase, variant) {
  const seatName = (n) => t("Seat {n}", { n });
  return actionText(action, phase === "play" || phase === "arrange" ? "play" : phase, variant, seatName);
}

async function ask() {
  button.disabled = true;
  answer.replaceChildren(el("p", { class: "muted" }, t("Thinking…")));
  try {
    const res = await fetch(apiBase, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    const data = await res.json();
    if (!res.ok) {
      answer.replaceChildren(el("p", { class: "error-box" }, data.error.message));
      return;
    }
    if (!titles) {
      await loadContractTitles();
      titles = true;
    }
    const variant = window.barbu.view ? window.barbu.view.variant : "";
    const caption = data.measure === "edge" ? t("Edge of each contract (points)") : t("Expected points of each choice");
    const rows = data.choices.slice(0, 6).map((c, i) => el("tr", { class: i === 0 ? "best" : "" }, el("td", {}, label(c.action, data.phase, variant)), el("td", { class: "num" }, c.value.toFixed(1))));
    answer.replaceChildren(el("table", { class: "list hint-table" }, el("caption", {}, caption), el("tbody", {}, rows)));
  } catch (e) {
    answer.replaceChildren(el("p", { class: "error-box" }, t("Could not get a hint.")));
  } finally {
    button.disabled = false;
  }
}

button.addEventListener("click", ask);

function seatName(seat) {
  const s = window.barbu;
  const info = s.table && s.table.seats[seat];
  const name = info && info.name ? info.name : t("Seat {n}", { n: seat });
  return seat === s.seat ? t("{name} (you)", { name }) : name;
}

function sendVote(agree) {
  const s = window.barbu;
  if (s && s.ws && s.ws.readyState === WebSocket.OPEN) s.ws.send(JSON.stringify({ type: "hints", agree }));
}

// The proposal at a table with other people: who agreed, and this seat's yes or no.
function drawVote(s) {
  const people = s.table ? s.table.seats.filter((x) => x.kind === "human").map((x) => x.seat) : [];
  const hints = (s.table && s.table.hints) || { agreed: [], on: false };
  const shown = people.length > 1 && !s.view.game_over;
  const key = JSON.stringify([shown, hints, s.seat]);
  if (key === voteKey) return;
  voteKey = key;
  vote.hidden = !shown;
  if (!shown) return vote.replaceChildren();
  const mine = s.seat !== null && people.includes(s.seat);
  const agreed = hints.agreed.filter((x) => people.includes(x));
  const names = agreed.map(seatName).join(", ");
  const parts = [];
  const buttonTo = (id, text, agree, cls) => {
    const b = el("button", { type: "button", id, class: cls }, text);
    b.addEventListener("click", () => sendVote(agree));
    return b;
  };
  if (hints.on) {
    parts.push(el("p", { id: "hints-state" }, t("Hints are on for everyone: every person agreed.")));
    if (mine) parts.push(buttonTo("hints-no", t("Stop hints"), false, "secondary"));
  } else if (agreed.length === 0) {
    parts.push(el("p", { id: "hints-state", class: "muted" }, t("Hints are off: other people play at this table.")));
    if (mine) parts.push(buttonTo("hints-yes", t("Propose hints for everyone"), true, "secondary"));
  } else {
    const left = people.length - agreed.length;
    parts.push(el("p", { id: "hints-state" }, t("Hints for everyone, agreed by {names}.", { names }), " ", tn("{n} more person to agree.", "{n} more people to agree.", left, { n: left })));
    if (mine && !agreed.includes(s.seat)) parts.push(buttonTo("hints-yes", t("Accept"), true, "primary"), " ", buttonTo("hints-no", t("Decline"), false, "secondary"));
    else if (mine) parts.push(buttonTo("hints-no", t("Withdraw"), false, "secondary"));
  }
  vote.replaceChildren(...parts);
}

async function refresh() {
  const s = window.barbu;
  if (!s || !s.view) return;
  if (!box.isConnected) (document.querySelector("main") || document.body).append(box);
  analysisLink.hidden = !s.view.game_over;
  const result = document.getElementById("result"); // the end screen, redrawn by table.js
  if (s.view.game_over && result && !result.querySelector(".analyse-game")) {
    result.append(el("a", { class: "primary analyse-game", href: analysisLink.getAttribute("href") }, t("Analyse this game")));
  }
  drawVote(s);
  if (s.seat === null || s.view.game_over) {
    button.hidden = true;
    return;
  }
  const hintsNow = JSON.stringify(s.table && s.table.hints ? s.table.hints.on : null);
  if (hintsNow !== askedFor) {
    askedFor = hintsNow; // the people's agreement changed: ask the server again
    allowed = null;
  }
  if (allowed === null) {
    allowed = false;
    try {
      allowed = (await fetch(apiBase).then((r) => r.json())).available === true;
    } catch (e) {
      allowed = false;
    }
  }
  button.hidden = !allowed;
  button.disabled = !myTurn();
  if (!myTurn() && answer.firstChild) answer.replaceChildren();
}

setInterval(refresh, 500);
