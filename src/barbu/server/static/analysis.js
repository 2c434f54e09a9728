// The analysis board (docs/coach.md): a finished game of the server (?table=ID) or an uploaded
// record, analysed by the server (POST /api/analysis); every decision in order with all four
// hands, its evaluation and the better choice, and a summary per player. Keyboard: ← → step,
// ↑ ↓ deal, Home / End, M the next marked decision. Every text is set as text.
import { el } from "./dom.js";
import { setUpPage, t } from "./i18n.js";
import { cardEl, contractName, loadContractTitles, sortHand } from "./cards.js";
import { actionText as coachText } from "./coachtext.js";

setUpPage();
const $ = (id) => document.getElementById(id);
const state = { doc: null, flat: [], pos: 0 };
window.barbuAnalysis = state; // for tests: read-only use

function seatName(seat) {
  const names = state.doc && Array.isArray(state.doc.players) ? state.doc.players : [];
  const name = names[seat];
  return typeof name === "string" && name ? t("Seat {n} ({name})", { n: seat, name }) : t("Seat {n}", { n: seat });
}

function actionText(action, kind) {
  return coachText(action, kind, state.doc.variant, seatName);
}

const num = (v) => (v === null || v === undefined ? "—" : Number(v).toFixed(1));
const MARK_TEXT = { inaccuracy: () => t("inaccuracy"), mistake: () => t("mistake"), blunder: () => t("blunder") };

function markEl(mark) {
  return mark ? el("span", { class: `mark mark-${mark}` }, MARK_TEXT[mark]()) : null;
}

function flatten(out) {
  const decisions = new Map(out.analysis.deals.map((d) => [d.deal, d]));
  state.flat = [];
  out.board.forEach((deal, d) => {
    const analysed = decisions.get(deal.deal);
    deal.steps.forEach((step, s) => {
      const decision = analysed && analysed.decisions[s] ? analysed.decisions[s] : null;
      state.flat.push({ d, s, deal, step, decision });
    });
  });
}

function seatBox(seat, item) {
  const { step } = item;
  const acting = step.seat === seat;
  const played = acting && typeof step.action === "string" ? step.action : null;
  const hand = step.hands[seat] || [];
  const taken = step.taken ? t("{n} tricks taken", { n: step.taken[seat] }) : "";
  return el(
    "div",
    { class: `seat-box${acting ? " acting" : ""}`, style: { "grid-area": `s${seat}` }, "aria-label": seatName(seat) },
    el("h3", {}, seatName(seat), acting ? ` — ${t("to act")}` : "", taken ? ` · ${taken}` : ""),
    el("div", { class: "hand-row" }, hand.length ? sortHand(hand).map((c) => cardEl(c, { size: "small", extra: c === played ? "played" : "" })) : el("span", { class: "muted" }, t("no cards shown"))),
  );
}

function render() {
  const item = state.flat[state.pos];
  if (!item) return;
  const { deal, step, decision } = item;
  const players = step.hands.length;
  const contract = deal.contract ? contractName(state.doc.variant, deal.contract) : t("contract not chosen yet");
  $("where").textContent = t("Deal {d} · {contract} · decision {i} of {n}", { d: deal.deal, contract, i: item.s + 1, n: deal.steps.length });
  $("deal-pick").value = String(item.d);
  const trick = el("div", { class: "trick-box", "aria-label": t("Cards on the table") }, step.trick.map((p) => el("div", { class: "played-card" }, cardEl(p.card, { size: "small" }), el("div", { class: "muted" }, seatName(p.seat)))));
  const seats = [];
  for (let s = 0; s < players; s++) seats.push(seatBox(s, item));
  $("position").replaceChildren(...seats, trick);
  const head = el("p", {}, el("strong", {}, seatName(step.seat)), " — ", actionText(step.action, step.kind), " ", markEl(decision && decision.mark));
  const lines = [head];
  if (!decision) {
    lines.push(el("p", { class: "muted" }, t("Not analysed (a deal without hands).")));
  } else if (decision.forced) {
    lines.push(el("p", { class: "muted" }, t("Forced: the only legal choice.")));
  } else {
    const measure = step.kind === "contract" ? t("edge") : t("expected points");
    lines.push(el("p", {}, t("Value of this choice: {v} ({measure}).", { v: num(decision.value), measure }), " ", t("Best: {best}, {v}.", { best: actionText(decision.best, step.kind), v: num(decision.best_value) }), " ", t("Loss: {loss} points.", { loss: num(decision.loss) })));
    if (decision.loss > 0) lines.push(el("p", { class: "better" }, t("Better: {best}", { best: actionText(decision.best, step.kind) })));
    const alts = decision.alternatives.map((a) => el("tr", {}, el("td", {}, actionText(a.action, step.kind)), el("td", { class: "num" }, num(a.value))));
    lines.push(el("table", { class: "list" }, el("caption", {}, t("Best choices from this seat's view")), el("tbody", {}, alts)));
    if (decision.exact) {
      const x = decision.exact;
      lines.push(el("p", {}, t("Exact, all hands known: {v}; best {best}, {bv}; loss {loss}.", { v: num(x.value), best: actionText(x.best, step.kind), bv: num(x.best_value), loss: num(x.loss) }), " ", markEl(x.mark)));
    }
  }
  $("verdict").replaceChildren(...lines);
}

function summary(out) {
  const contracts = new Set();
  for (const p of out.analysis.players) for (const c of Object.keys(p.loss_by_contract)) contracts.add(c);
  const cs = [...contracts];
  const head = el("tr", {}, el("th", {}, t("Player")), el("th", { class: "num" }, t("Decisions")), el("th", { class: "num" }, t("Points lost")), el("th", { class: "num" }, t("Accuracy")), el("th", {}, t("Marks")), cs.map((c) => el("th", { class: "num" }, contractName(out.variant, c))));
  const rows = out.analysis.players.map((p) => el(
    "tr", {},
    el("th", { scope: "row" }, seatName(p.seat)),
    el("td", { class: "num" }, String(p.decisions)),
    el("td", { class: "num" }, num(p.loss)),
    el("td", { class: "num" }, p.accuracy === null ? "—" : `${p.accuracy.toFixed(1)}\u00a0%`),
    el("td", { class: "marks" }, ["inaccuracy", "mistake", "blunder"].map((m) => el("span", { class: `mark mark-${m}` }, `${MARK_TEXT[m]()}\u00a0${p.marks[m]}`))),
    cs.map((c) => el("td", { class: "num" }, num(p.loss_by_contract[c] || 0))),
  ));
  $("summary").replaceChildren(el("div", { class: "scroll" }, el("table", { class: "list", id: "summary-table" }, el("thead", {}, head), el("tbody", {}, rows))));
}

function go(pos) {
  state.pos = Math.max(0, Math.min(state.flat.length - 1, pos));
  render();
}

function goDeal(delta) {
  const d = state.flat[state.pos].d + delta;
  const i = state.flat.findIndex((x) => x.d === d);
  if (i >= 0) go(i);
}

function nextMark() {
  for (let i = state.pos + 1; i < state.flat.length; i++) if (state.flat[i].decision && state.flat[i].decision.mark) return go(i);
  return null;
}

function show(out) {
  state.doc = out;
  flatten(out);
  if (!state.flat.length) {
    $("status").textContent = t("This record has no decisions to analyse.");
    return;
  }
  $("deal-pick").replaceChildren(...out.board.map((d, i) => el("option", { value: String(i) }, t("Deal {d}", { d: d.deal }))));
  summary(out);
  $("board").hidden = false;
  $("status").textContent = t("Analysed in {s} s.", { s: out.seconds });
  go(0);
  $("position").focus();
}

async function analyse(body) {
  $("status").textContent = t("Analysing… (this takes up to a minute for a whole game)");
  $("board").hidden = true;
  try {
    const res = await fetch("/api/analysis", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await res.json().catch(() => null);
    if (!res.ok) {
      $("status").textContent = data && data.error ? data.error.message : t("The analysis failed (HTTP {code}).", { code: res.status });
      return;
    }
    show(data);
  } catch (e) {
    $("status").textContent = t("The server could not be reached.");
  }
}

$("setting").textContent = t("The board analyses with {n} worlds a decision and solves the last {k} tricks exactly; `barbu analyse` goes deeper.", { n: 8, k: 3 });
$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(state.pos - 1));
$("next").addEventListener("click", () => go(state.pos + 1));
$("last").addEventListener("click", () => go(state.flat.length - 1));
$("next-mark").addEventListener("click", nextMark);
$("deal-pick").addEventListener("change", (e) => {
  const i = state.flat.findIndex((x) => x.d === Number(e.target.value));
  if (i >= 0) go(i);
});
document.addEventListener("keydown", (e) => {
  if (!state.flat.length || e.target.tagName === "SELECT" || e.target.tagName === "INPUT" || e.altKey || e.ctrlKey || e.metaKey) return;
  const moves = { ArrowRight: () => go(state.pos + 1), ArrowLeft: () => go(state.pos - 1), ArrowDown: () => goDeal(1), ArrowUp: () => goDeal(-1), Home: () => go(0), End: () => go(state.flat.length - 1), m: nextMark, M: nextMark };
  if (moves[e.key]) {
    e.preventDefault();
    moves[e.key]();
  }
});
$("record-file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  let doc;
  try {
    doc = JSON.parse(await file.text());
  } catch (err) {
    $("status").textContent = t("This file is not JSON: choose a barbu-record/1 file.");
    return;
  }
  analyse({ record: doc });
});

await loadContractTitles();
const table = new URLSearchParams(location.search).get("table");
if (table) analyse({ table });
