// The coach at the table (docs/coach.md): a "Hint" button when every other seat is a bot, which
// asks the server for the values of this seat's legal actions (from its own view only), and a
// link to the analysis board once the game is over. It reads the table's state (window.barbu)
// and touches nothing of the table's own script.
import { el } from "./dom.js";
import { t } from "./i18n.js";
import { loadContractTitles } from "./cards.js";
import { actionText } from "./coachtext.js";

const tableId = decodeURIComponent(location.pathname.split("/").pop());
const apiBase = `/api/tables/${encodeURIComponent(tableId)}/hint`;
const box = el("aside", { id: "coach", class: "coach-box", "aria-live": "polite", "aria-label": t("Coach") });
const button = el("button", { type: "button", id: "hint", hidden: true, title: t("The values of your choices, from what you can see") }, t("Hint"));
const answer = el("div", { id: "hint-answer" });
const analysisLink = el("a", { id: "analyse-link", href: `/analysis?table=${encodeURIComponent(tableId)}`, hidden: true }, t("Analyse this game"));
box.append(button, analysisLink, answer);
let allowed = null; // null: not asked yet
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

async function refresh() {
  const s = window.barbu;
  if (!s || !s.view) return;
  if (!box.isConnected) (document.querySelector("main") || document.body).append(box);
  analysisLink.hidden = !s.view.game_over;
  const result = document.getElementById("result"); // the end screen, redrawn by table.js
  if (s.view.game_over && result && !result.querySelector(".analyse-game")) {
    result.append(el("a", { class: "primary analyse-game", href: analysisLink.getAttribute("href") }, t("Analyse this game")));
  }
  if (s.seat === null || s.view.game_over) {
    button.hidden = true;
    return;
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
