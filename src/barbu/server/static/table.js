// The table page: one WebSocket to the server, which is authoritative. Everything shown comes
// from the frames it sends: this seat's view (hand, public history, legal actions) and the
// table frame (who sits where). The page asks nothing of its own about the rules: the legal
// cards and calls it offers are the ones in the view.
import { SUITS, backEl, cardEl, cardLabel, contractName, isRed, loadContractTitles, rankText, sortHand } from "./cards.js";
import { el } from "./dom.js";
import { setUpPage, t, tn, words } from "./i18n.js";

setUpPage();

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").pop());
const apiBase = `/api/tables/${encodeURIComponent(tableId)}`;

// The seat's key rides in the invitation link's fragment. It is traded once for a cookie that no
// script can read (POST …/claim) and dropped from the address bar at once; it is never stored.
// From then on the page asks for its seat by number ("#seat=N") and the cookie proves it.
const params = new URLSearchParams(location.hash.slice(1));
let linkKey = params.get("key");
let wanted = /^\d+$/.test(params.get("seat") || "") ? Number(params.get("seat")) : null; // the seat asked for
if (linkKey !== null) setAddress(wanted);

function setAddress(seat) {
  history.replaceState(null, "", `${location.pathname}${seat === null ? "" : `#seat=${seat}`}`);
}

const state = {
  view: null,
  seq: null,
  table: null,
  seat: null, // our seat, from the welcome frame (null: watching)
  pending: null, // {id, seq, action} sent, not yet acknowledged
  ws: null,
  welcomed: false, // this connection's hello was answered (a refused one is tried again on a new connection)
  retry: 0,
  arranging: [[], [], []], // Chinese poker rows being built: back, middle, front
  arrangeDeal: null,
  callChoice: null, // the doubles and redoubles ticked, for the state they were ticked in
  held: null, // {trick, until}: a finished trick kept on the table long enough to read
  trickCount: null, // {deal, n}: tricks finished when last drawn, to notice a new one
  reviewSeen: null, // the number of the last finished deal whose review was opened
  review: null, // the finished deal shown in the review (summary with its tricks), or null
  showLast: false, // the last trick asked for (L)
  gameReview: null, // every deal's review, fetched once the game is over
  autoPassed: null, // the sequence number a domino pass was sent for automatically
  countdown: null, // the timer of the bot stand-in countdown
  leftSeat: null, // the seat this page left on purpose (a bot plays it), to take back
};
window.barbu = state; // for the curious (and for tests): read-only use

function newId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

// ---------------------------------------------------------------- connection

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws`);
  state.ws = ws;
  state.welcomed = false;
  setConn(t("connecting…"), null);
  ws.onopen = () => {
    const hello = { type: "hello", table: tableId };
    if (wanted !== null) hello.seat = wanted;
    const name = localStorage.getItem("barbu.name");
    if (wanted !== null && name) hello.name = name;
    if (state.seq !== null) hello.last_seq = state.seq;
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (ev) => handle(JSON.parse(ev.data));
  ws.onclose = () => {
    if (state.ws !== ws) return;
    state.welcomed = false; // nothing can be sent until the next welcome: the page offers no action meanwhile
    setConn(t("reconnecting…"), false);
    render();
    const delay = Math.min(5000, 400 * 2 ** state.retry++);
    setTimeout(connect, delay);
  };
}

function reconnect() {
  const old = state.ws;
  state.ws = null;
  if (old) {
    old.onclose = null;
    old.close();
  }
  state.seq = null;
  state.view = null;
  state.seat = null;
  connect();
}

// Trade the link's key for the seat's cookie; {ok, data} as the server answers.
async function claim(takeover) {
  try {
    const res = await fetch(`${apiBase}/claim`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ seat: wanted, key: linkKey, takeover }),
    });
    return { ok: res.ok, data: await res.json() };
  } catch (e) {
    return { ok: false, data: { error: { code: "network", message: t("the server cannot be reached: reload the page to try again") } } };
  }
}

function claimed(data) {
  linkKey = null;
  wanted = data.seat;
  setAddress(wanted);
  $("takeover").classList.add("hidden");
}

// The seat is open in another browser: watch meanwhile, and take it over only if the player says so.
function offerTakeover(message) {
  wanted = null;
  $("takeover-text").textContent = message;
  $("takeover").classList.remove("hidden");
}

$("takeover-yes").addEventListener("click", async () => {
  const r = await claim(true);
  if (r.ok) {
    claimed(r.data);
    reconnect();
  } else {
    toast(r.data.error ? r.data.error.message : t("the seat could not be taken over"));
  }
});

$("takeover-no").addEventListener("click", () => {
  linkKey = null;
  $("takeover").classList.add("hidden");
});

function setConn(text, on) {
  $("conn-text").textContent = text;
  $("conn").className = `status-dot ${on === true ? "on" : on === false ? "off" : ""}`;
}

function handle(f) {
  switch (f.type) {
    case "welcome":
      state.seat = f.seat;
      state.welcomed = true;
      state.retry = 0;
      setConn(f.seat === null ? t("watching") : t("connected"), true);
      if (state.pending && state.pending.until !== undefined) state.pending = null; // acknowledged: the catch-up shows it
      if (state.pending) state.ws.send(JSON.stringify({ type: "act", ...state.pending })); // same id: harmless
      render(); // connected again: the page offers its actions again
      break;
    case "state":
    case "event":
      // this page's action, committed: the event it made answers it (a patch this page cannot
      // merge asks for the state, and the action stays pending until that arrives)
      if (f.ack !== undefined && state.pending && state.pending.id === f.ack) state.pending.until = f.seq;
      if (f.patch) {
        // only what changed since the previous view: merge it, if we hold that view
        if (!state.view || state.seq !== f.seq - 1) {
          state.ws.send(JSON.stringify({ type: "sync", last_seq: state.seq ?? 0 }));
          return;
        }
        state.view = { ...state.view, ...f.patch };
      } else {
        if (state.seq !== null && f.seq < state.seq && f.type === "event") return;
        state.view = f.view;
      }
      state.seq = f.seq;
      if (state.pending && state.pending.until !== undefined && state.seq >= state.pending.until) state.pending = null;
      render();
      break;
    case "table":
      state.table = f;
      state.tableAt = Date.now();
      refreshInvites();
      tickCountdown();
      renderNotice();
      render();
      break;
    case "left":
      state.leftSeat = f.seat; // watching from now on; the seat stays this browser's to take back
      state.seat = null;
      wanted = null;
      setAddress(null);
      setConn(t("watching"), true);
      renderNotice();
      render();
      break;
    case "abandon_refused":
      toast(t("{name} wants to keep playing: the table is not abandoned.", { name: nameOf(f.seat) }));
      break;
    case "said":
      if (options.chat && PHRASES[f.phrase]) {
        state.said = { seat: f.seat, phrase: f.phrase, until: Date.now() + 5000 };
        setTimeout(render, 5050);
        beep(740, 50);
        render();
      }
      break;
    case "rematch":
      state.rematch = f.table; // the same seats at a new table: this browser's seat there is already its own
      render();
      break;
    case "ack":
      // a resent action committed before (a duplicate): it stays pending until the view is up
      // to it, so a quick second press never acts on the view from before it (a stale action)
      if (state.pending && state.pending.id === f.ack) {
        if (typeof f.seq === "number" && (state.seq === null || state.seq < f.seq)) state.pending.until = f.seq;
        else state.pending = null;
      }
      render();
      break;
    case "error":
      if (state.pending && (f.id === state.pending.id || !f.id)) state.pending = null;
      // a stale action is no fault of the player's: say what happened, in words
      toast(f.code === "stale" ? t("The game moved on before your action arrived: here is the table as it is now.") : f.message);
      if (f.code === "taken_over") {
        state.ws.onclose = null; // the server closes this connection; coming back is the player's choice
        state.seat = null;
        wanted = null;
        setAddress(null);
        setConn(t("seat taken over elsewhere"), false);
      } else if (f.code === "bad_credential" && wanted !== null && state.seat === null) {
        wanted = null; // this browser does not hold the seat: watch instead
        setAddress(null);
        reconnect();
      } else if (f.code === "unknown_table" || f.code === "bad_credential") {
        state.ws.onclose = null;
        setConn(f.code === "unknown_table" ? t("no such table") : t("wrong key"), false);
      } else if (f.code === "storage" && !state.welcomed) {
        state.ws.close(); // the table is between server processes: again on a new connection, a little later
      } else if (f.code === "stale" && state.seq !== null) {
        state.ws.send(JSON.stringify({ type: "sync", last_seq: state.seq }));
      }
      render();
      break;
    default:
      break;
  }
}

function act(action) {
  if (state.table && state.table.status === "abandoned") {
    toast(t("This table was abandoned: nothing more is played at it."));
    return;
  }
  if (waiting() || !state.ws || state.ws.readyState !== WebSocket.OPEN) return;
  state.pending = { id: newId(), seq: state.seq, action };
  state.ws.send(JSON.stringify({ type: "act", ...state.pending }));
  render();
}

let toastTimer = null;
function toast(text) {
  const el = $("toast");
  el.textContent = text;
  el.classList.remove("hidden");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.add("hidden"), 4500);
}

// ---------------------------------------------------------------- options

// The player's choices at the table, kept in this browser.
const HOLDS = [0.8, 1.5, 2.5, 4];
const options = {
  chat: localStorage.getItem("barbu.chat") !== "0", // quick messages shown and offered
  hold: Number(localStorage.getItem("barbu.hold")) || 2.5, // seconds a finished trick stays
  autopass: localStorage.getItem("barbu.autopass") === "1",
  sound: localStorage.getItem("barbu.sound") === "1",
};

function setUpOptions() {
  const hold = $("opt-hold");
  for (const s of HOLDS) {
    const o = el("option", { value: s }, t("{n} s", { n: s }));
    o.selected = s === options.hold;
    hold.appendChild(o);
  }
  hold.addEventListener("change", () => {
    options.hold = Number(hold.value);
    localStorage.setItem("barbu.hold", hold.value);
  });
  for (const [id, key] of [["opt-autopass", "autopass"], ["opt-sound", "sound"], ["opt-chat", "chat"]]) {
    const box = $(id);
    box.checked = options[key];
    box.addEventListener("change", () => {
      options[key] = box.checked;
      localStorage.setItem(`barbu.${key}`, box.checked ? "1" : "0");
      if (key === "autopass" || key === "chat") render();
    });
  }
}

// Optional sounds: short WebAudio beeps, off until the player turns them on.
let audio = null;
function beep(freq, ms = 90) {
  if (!options.sound) return;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = freq;
    gain.gain.value = 0.05;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + ms / 1000);
  } catch (e) {
    options.sound = false;
  }
}

// The quick messages: the server's fixed phrases (protocol.PHRASES), in the page's words.
const PHRASES = {
  hello: () => t("Hello!"),
  good_luck: () => t("Good luck!"),
  well_played: () => t("Well played!"),
  thanks: () => t("Thanks!"),
  sorry: () => t("Sorry!"),
  one_moment: () => t("One moment, please."),
  good_game: () => t("Good game!"),
};

function say(phrase) {
  if (!state.ws || state.ws.readyState !== WebSocket.OPEN) return;
  state.ws.send(JSON.stringify({ type: "say", phrase }));
}

function renderChat() {
  const bar = $("chat");
  const on = options.chat && state.seat !== null;
  bar.classList.toggle("hidden", !on);
  if (on && !bar.childElementCount) {
    bar.appendChild(el("summary", {}, t("Quick messages")));
    const row = el("div", { class: "chat-row" });
    for (const [id, text] of Object.entries(PHRASES)) row.appendChild(button(text(), () => say(id), { focus: `say-${id}`, className: "secondary", always: true }));
    bar.appendChild(row);
  }
}

// ---------------------------------------------------------------- leaving and abandoning

function sendTable(message) {
  if (!state.ws || state.ws.readyState !== WebSocket.OPEN) return;
  state.ws.send(JSON.stringify(message));
}

const unfinished = () => !!state.table && (state.table.status === "open" || state.table.status === "playing") && !(state.view && state.view.game_over);

/** The settings pane's "This table": leave the seat, or propose to abandon the table. */
function renderTableLife() {
  const box = $("table-life");
  const parts = [];
  if (state.seat !== null && unfinished()) {
    const asked = !!state.table.abandon;
    parts.push(
      el("p", { class: "muted small" }, t("Leave the table: a bot plays your seat until you come back (from My games in the lobby, or this page).")),
      el("p", { class: "muted small" }, t("Abandon the table: the other players are asked; if all agree, or nobody refuses within {n} s, nothing more is played at it and it is unrated.", { n: Math.round(state.table.abandon_after) })),
      el("p", { class: "form-row" },
        button(t("Leave the table"), () => sendTable({ type: "leave" }), { focus: "leave", className: "secondary", always: true }),
        " ",
        button(t("Propose to abandon the table"), () => sendTable({ type: "abandon" }), { focus: "abandon", className: "secondary", always: true, disabled: asked }),
      ),
    );
  } else if (state.table && state.table.status === "abandoned") {
    parts.push(el("p", { class: "muted small" }, t("This table was abandoned: nothing more is played at it.")));
  } else {
    parts.push(el("p", { class: "muted small" }, t("Only the players at an unfinished table may leave it or propose to abandon it.")));
  }
  box.replaceChildren(...parts);
}

let noticeTimer = null;
/** Above the table: the table was abandoned, a proposal to abandon it (with the answer buttons for
 * those asked and the time left), or this page's left seat (with the way back to it). */
function renderNotice() {
  const box = $("notice");
  const tb = state.table;
  const parts = [];
  clearInterval(noticeTimer);
  document.body.classList.toggle("abandoned", !!tb && tb.status === "abandoned");
  if (tb && tb.status === "abandoned") {
    parts.push(
      el("p", {}, t("This table was abandoned: nothing more is played at it, and it is unrated.")),
      el("p", { class: "form-row" }, el("a", { class: "primary", href: "/" }, t("Back to the lobby"))),
    );
  } else if (tb && tb.abandon) {
    const p = tb.abandon;
    const secondsLeft = () => Math.max(0, Math.ceil(p.ends_in - (Date.now() - state.tableAt) / 1000));
    const count = el("span", { id: "abandon-left" });
    const tick = () => (count.textContent = t("If nobody refuses, the table is abandoned in {n} s.", { n: secondsLeft() }));
    tick();
    noticeTimer = setInterval(tick, 1000);
    if (state.seat !== null && p.waiting.includes(state.seat)) {
      parts.push(
        el("p", {}, t("{name} proposes to abandon this table: nothing more would be played at it, and it would be unrated.", { name: nameOf(p.by) })),
        el("p", { class: "muted" }, count),
        el("p", { class: "form-row" },
          button(t("Agree to abandon"), () => sendTable({ type: "consent", agree: true }), { focus: "consent-yes", className: "primary", always: true }),
          button(t("Keep playing"), () => sendTable({ type: "consent", agree: false }), { focus: "consent-no", className: "secondary", always: true }),
        ),
      );
    } else {
      const names = p.waiting.map(nameOf).join(", ");
      parts.push(
        el("p", {}, p.by === state.seat ? t("You proposed to abandon this table. Waiting for the answer of: {names}.", { names }) : t("{name} proposes to abandon this table. Waiting for the answer of: {names}.", { name: nameOf(p.by), names })),
        el("p", { class: "muted" }, count),
      );
    }
  } else if (state.leftSeat !== null && state.seat === null) {
    parts.push(
      el("p", {}, t("You left seat {n}: a bot plays it until you come back.", { n: state.leftSeat })),
      el("p", { class: "form-row" },
        button(t("Take my seat back"), takeSeatBack, { focus: "take-back", className: "primary", always: true }),
        el("a", { class: "secondary", href: "/" }, t("Back to the lobby")),
      ),
    );
  }
  box.replaceChildren(...parts);
  box.classList.toggle("hidden", !parts.length);
}

function takeSeatBack() {
  wanted = state.leftSeat;
  state.leftSeat = null;
  setAddress(wanted);
  reconnect();
  renderNotice();
}

// ---------------------------------------------------------------- names and places

function nameOf(seat) {
  const s = state.table && state.table.seats[seat];
  let name = t("Seat {n}", { n: seat });
  if (s && s.kind === "bot") name = t("Bot {n}", { n: seat });
  else if (s && s.name) name = s.name;
  return seat === state.seat ? t("{name} (you)", { name }) : name;
}

function bottomSeat() {
  return state.seat === null ? 0 : state.seat;
}

/** Where a seat sits on screen, counted from the bottom seat in playing order. */
function place(seat) {
  const n = state.view.players;
  const r = (seat - bottomSeat() + n) % n;
  const maps = {
    3: ["me", "left", "right"],
    4: ["me", "left", "top", "right"],
    5: ["me", "left", "tl", "tr", "right"],
    6: ["me", "left", "tl", "top", "tr", "right"],
    7: ["me", "bl", "left", "tl", "tr", "right", "br"],
    8: ["me", "bl", "left", "tl", "top", "tr", "right", "br"],
  };
  return (maps[n] || maps[4])[r];
}

// Each place's cell in the 3 x 3 trick grid (the middle one holds the trick's caption).
const TRICK_CELL = { me: [3, 2], left: [2, 1], top: [1, 2], right: [2, 3], tl: [1, 1], tr: [1, 3], bl: [3, 1], br: [3, 3] };

// A contract's title in this table's rule set, as the core writes it (in the page's language).
const title = (id) => contractName(state.view ? state.view.variant : null, id);
const cardText = (c) => `${rankText(c[0])}${SUITS[c[1]]}`;

// ---------------------------------------------------------------- rendering

function render() {
  const v = state.view;
  if (!v) return;
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.focus || document.activeElement.dataset.card : null;
  noticeChanges(v);
  $("felt").className = `felt n${v.players}${v.game_over ? " over" : ""}`;
  renderInfo(v);
  renderSeats(v);
  renderCenter(v);
  renderActions(v);
  renderHand(v);
  renderSheet(v);
  renderOwed(v);
  renderDealLog(v);
  renderGameLog(v);
  renderResult(v);
  renderInvite();
  renderWatchers();
  renderChat();
  renderTableLife();
  if (focused) {
    const node = document.querySelector(`[data-focus="${CSS.escape(focused)}"], #hand [data-card="${CSS.escape(focused)}"]`);
    if (node && !node.disabled) node.focus();
  }
  autoPass(v);
}

/** A trick just finished stays on the table for the chosen time; a deal just finished opens its review. */
function noticeChanges(v) {
  const n = v.tricks.length;
  const before = state.trickCount;
  if (before && before.deal === v.deal && n > before.n && options.hold > 0) {
    state.held = { trick: v.tricks[n - 1], until: Date.now() + options.hold * 1000 };
    beep(520);
    setTimeout(render, options.hold * 1000 + 30);
  }
  const last = v.last_deal;
  if (last && state.reviewSeen !== null && last.deal > state.reviewSeen) {
    // the deal's last trick never reaches `tricks`: it shows in the review of the deal
    state.review = last;
    state.held = null;
    beep(660, 160);
  }
  if (last && (state.reviewSeen === null || last.deal > state.reviewSeen)) state.reviewSeen = last.deal;
  if (state.reviewSeen === null) state.reviewSeen = 0;
  if (before && before.deal !== v.deal) state.showLast = false;
  if (state.review && state.review === last && v.phase === "play" && (v.plays.length > 0 || v.current_trick)) state.review = null;
  state.trickCount = { deal: v.deal, n };
  if (state.held && Date.now() >= state.held.until) state.held = null;
  if (v.to_act !== null && v.to_act === state.seat && state.lastTurnSeq !== state.seq) {
    state.lastTurnSeq = state.seq;
    beep(880, 60);
  }
}

function renderInfo(v) {
  const parts = [el("span", {}, t("Deal {n} / {total}", { n: Math.min(v.deal, v.deals_total), total: v.deals_total }))];
  if (v.declarer !== null && !v.game_over) parts.push(el("span", {}, t("Declarer: {name}", { name: nameOf(v.declarer) })));
  if (v.contract && !v.game_over) parts.push(el("span", {}, el("strong", {}, title(v.contract))));
  if (v.trump && !v.game_over) parts.push(el("span", {}, t("Trumps:"), " ", el("span", { class: `trump-suit${isRed("x" + v.trump) ? " red" : ""}`, "aria-label": words.suits[v.trump] || v.trump }, SUITS[v.trump])));
  if (v.rank && !v.game_over) parts.push(el("span", {}, t("Domino from {rank}", { rank: rankText(v.rank) })));
  if (v.game_over) parts.push(el("span", {}, el("strong", {}, t("Game over"))));
  $("info").replaceChildren(...parts);
  document.title = v.game_over ? t("Barbu — game over") : t("Barbu — deal {n}", { n: v.deal });
}

function seatFacts(v, seat) {
  const facts = [];
  const tricks = v.tricks.filter((x) => x.winner === seat).length;
  if (v.phase === "play" && v.tricks.length + (v.current_trick ? 1 : 0) > 0) facts.push(tn("{n} trick", "{n} tricks", tricks, { n: tricks }));
  if (!v.game_over) facts.push(tn("{n} card", "{n} cards", v.cards_left[seat], { n: v.cards_left[seat] }));
  facts.push(t("total {n}", { n: v.totals[seat] }));
  const doubled = v.pairs.filter((p) => p.doubler === seat).map((p) => (p.multiplier > 1 ? t("{name} ×{m}", { name: nameOf(p.doubled), m: p.multiplier }) : nameOf(p.doubled)));
  if (doubled.length) facts.push(t("doubles {names}", { names: doubled.join(", ") }));
  const out = v.domino_order.indexOf(seat);
  if (out >= 0) facts.push(t("out #{n}", { n: out + 1 }));
  return facts.join(" · ");
}

function renderSeats(v) {
  const felt = $("felt");
  felt.querySelectorAll(".seat").forEach((node) => node.remove());
  const now = Date.now();
  for (let seat = 0; seat < v.players; seat++) {
    const pos = place(seat);
    const info = state.table ? state.table.seats[seat] : null;
    const badges = [];
    if (v.declarer === seat && !v.game_over) badges.push(el("span", { class: "badge decl" }, t("declarer")));
    if (info && info.kind === "bot") badges.push(el("span", { class: "badge", title: info.level }, t("bot")));
    if (info && info.left) badges.push(el("span", { class: "badge away" }, t("left the table")));
    else if (info && info.kind === "human" && !info.online) badges.push(el("span", { class: "badge away" }, info.joined ? t("away") : t("not joined")));
    if (info && info.takeover_in !== null && info.takeover_in !== undefined) {
      const left = Math.max(0, Math.ceil(info.takeover_in - (now - state.tableAt) / 1000));
      badges.push(el("span", { class: "badge away countdown" }, left > 0 ? t("a bot plays in {n} s", { n: left }) : t("bot playing")));
    }
    if (info && info.bot_playing) badges.push(el("span", { class: "badge" }, t("bot playing")));
    if (v.to_act === seat) badges.push(el("span", { class: "badge act" }, t("to act")));
    const box = el(
      "div",
      { class: `seat ${pos === "me" ? "mine" : `pos-${pos}`}${v.to_act === seat ? " to-act" : ""}`, data: { seat } },
      el("div", { class: "who" }, nameOf(seat), " ", badges),
      el("div", { class: "facts" }, seatFacts(v, seat)),
    );
    const captured = v.captured[seat] || [];
    if (captured.length) {
      const taken = el("div", { class: "captured", role: "img", "aria-label": t("cards taken by {name}: {cards}", { name: nameOf(seat), cards: captured.map(cardLabel).join(", ") }) });
      for (const c of sortHand(captured)) taken.appendChild(cardEl(c, { size: "mini" }));
      box.appendChild(taken);
    }
    if (pos !== "me" && v.cards_left[seat] > 0 && !v.game_over) {
      const backs = el("div", { class: "backs" });
      for (let i = 0; i < Math.min(v.cards_left[seat], 13); i++) backs.appendChild(backEl());
      box.appendChild(backs);
    }
    if (state.said && state.said.seat === seat && Date.now() < state.said.until) {
      box.appendChild(el("div", { class: "bubble", role: "status" }, PHRASES[state.said.phrase]()));
    }
    if (pos === "me") $("me").prepend(box);
    else felt.appendChild(box);
  }
}

/** A bot stands in when the countdown ends: count it down between table frames. */
function tickCountdown() {
  clearInterval(state.countdown);
  const waiting = state.table && state.table.seats.some((s) => s.takeover_in !== null && s.takeover_in !== undefined);
  if (waiting) state.countdown = setInterval(() => state.view && renderSeats(state.view), 1000);
}

function renderTrick(trick, done, { fresh = false, label = null } = {}) {
  const box = el("div", { class: `trick${done ? " done" : ""}` });
  trick.cards.forEach((c, i) => {
    const seat = trick.seats[i];
    const pos = place(seat);
    const [row, col] = TRICK_CELL[pos];
    const slot = el("div", { class: `slot from-${pos}${done && trick.winner === seat ? " winner" : ""}${fresh && i === trick.cards.length - 1 ? " fresh" : ""}`, style: { "grid-row": row, "grid-column": col } });
    slot.appendChild(cardEl(c, { size: "small" }));
    slot.appendChild(el("span", {}, nameOf(seat)));
    box.appendChild(slot);
  });
  if (done && trick.winner !== null) box.classList.add(`to-${place(trick.winner)}`);
  const text = label || (done ? t("won by {name}", { name: nameOf(trick.winner) }) : t("trick {n}", { n: state.view.tricks.length + 1 }));
  box.appendChild(el("div", { class: "trick-label", style: { "grid-row": 2, "grid-column": 2 } }, text));
  return box;
}

function renderDomino(v) {
  const box = el("div", { class: "domino", role: "img", "aria-label": t("domino layout") });
  const order = "23456789TJQKA";
  // One row per suit, S H D C; with two decks the second deck's four rows come after.
  v.domino_rows.forEach((laid, i) => {
    const s = "SHDC"[i % 4];
    const row = el("div", { class: "row" }, el("span", { class: `suit${isRed("x" + s) ? " red" : ""}` }, SUITS[s]));
    if (!laid) {
      row.appendChild(el("span", { class: "muted on-felt" }, t("not opened")));
    } else {
      for (let r = order.indexOf(laid[0]); r <= order.indexOf(laid[1]); r++) row.appendChild(cardEl(order[r] + s, { size: "mini" }));
    }
    box.appendChild(row);
  });
  return box;
}

/** A call in words: who passed, doubled or redoubled whom. */
function callText(k) {
  const d = k.double.map(nameOf).join(", ");
  const r = k.redouble.map(nameOf).join(", ");
  const name = nameOf(k.seat);
  if (d && r) return t("{name} doubles {doubled} and redoubles {redoubled}", { name, doubled: d, redoubled: r });
  if (d) return t("{name} doubles {doubled}", { name, doubled: d });
  if (r) return t("{name} redoubles {redoubled}", { name, redoubled: r });
  return t("{name} passes", { name });
}

/** The settlement of a finished deal, pair by pair, with the numbers the core computed. */
function pairLines(h) {
  return (h.settlement || []).map(([a, b, m, amount]) => {
    const p = { doubler: nameOf(a), doubled: nameOf(b), m, a: h.raw[a], b: h.raw[b], amount: Math.abs(amount) };
    let line;
    if (amount === 0) line = m > 1 ? t("{doubler} doubled {doubled}, redoubled (×{m}): both scored the same, nothing changes hands.", p) : t("{doubler} doubled {doubled}: both scored the same, nothing changes hands.", p);
    else if (amount > 0) line = m > 1 ? t("{doubler} doubled {doubled}, redoubled (×{m}): {a} against {b}, so {doubled} pays {doubler} {amount}.", p) : t("{doubler} doubled {doubled}: {a} against {b}, so {doubled} pays {doubler} {amount}.", p);
    else line = m > 1 ? t("{doubler} doubled {doubled}, redoubled (×{m}): {a} against {b}, so {doubler} pays {doubled} {amount}.", p) : t("{doubler} doubled {doubled}: {a} against {b}, so {doubler} pays {doubled} {amount}.", p);
    return el("li", {}, line);
  });
}

function scoreTable(h) {
  const n = h.final.length;
  const head = Array.from({ length: n }, (_, s) => el("th", { scope: "col" }, nameOf(s)));
  const line = (label, values) => el("tr", {}, el("th", { class: "left", scope: "row" }, label), values.map((x) => el("td", {}, x)));
  return el("table", { class: "scores" }, el("thead", {}, el("tr", {}, el("td"), head)), el("tbody", {}, line(t("scored"), h.raw), line(t("doubles"), h.adjustments), line(t("deal"), h.final)));
}

/** What each seat showed in a finished deal: the cards it played (or its rows), face up. */
function shownHands(h) {
  const n = h.final.length;
  const hands = Array.from({ length: n }, () => []);
  if (h.arrangements) h.arrangements.forEach((a, s) => hands[s].push(...a));
  else if (h.tricks && h.tricks.length) for (const tr of h.tricks) tr.cards.forEach((c, i) => hands[tr.seats[i]].push(c));
  else for (const [s, c] of h.plays || []) if (c !== "pass") hands[s].push(c);
  return hands;
}

function dealReview(h, { closable = true } = {}) {
  const box = el("section", { class: "settle review-card", "aria-labelledby": `review-${h.deal}` });
  box.appendChild(el("h2", { id: `review-${h.deal}` }, t("Deal {n}: {contract} by {name}", { n: h.deal, contract: title(h.contract), name: nameOf(h.declarer) })));
  if (!h.played) box.appendChild(el("p", {}, t("Nobody doubled: the deal was not played and its points were divided.")));
  const lastTrick = h.tricks && h.tricks.length ? h.tricks[h.tricks.length - 1] : null;
  if (lastTrick) box.appendChild(el("div", { class: "review-trick" }, el("h3", {}, t("Last trick")), renderTrick(lastTrick, true)));
  if (h.domino_order && h.domino_order.length) box.appendChild(el("p", {}, t("Out, first to last: {names}", { names: h.domino_order.map(nameOf).join(", ") })));
  const hands = shownHands(h);
  if (hands.some((x) => x.length)) {
    const list = el("div", { class: "hands-up" });
    hands.forEach((cards, s) => {
      const row = el("div", { class: "hand-up" }, el("span", { class: "label" }, nameOf(s)));
      const shown = h.arrangements ? cards : sortHand(cards);
      const group = el("span", { class: "cards", role: "img", "aria-label": t("cards of {name}: {cards}", { name: nameOf(s), cards: shown.map(cardLabel).join(", ") }) });
      shown.forEach((c, i) => {
        if (h.arrangements && (i === 5 || i === 10)) group.appendChild(el("span", { class: "row-gap", "aria-hidden": "true" }));
        group.appendChild(cardEl(c, { size: "mini" }));
      });
      row.appendChild(group);
      list.appendChild(row);
    });
    box.appendChild(el("h3", {}, h.arrangements ? t("Every seat's rows") : t("The hands, face up")));
    box.appendChild(list);
  }
  box.appendChild(scoreTable(h));
  if (h.calls && h.calls.length) box.appendChild(el("details", {}, el("summary", {}, t("Calls")), el("ul", { class: "calls" }, h.calls.map((k) => el("li", {}, callText(k))))));
  const pairs = pairLines(h);
  if (pairs.length) box.appendChild(el("div", {}, el("h3", {}, t("Doubles, pair by pair")), el("ul", { class: "pairs" }, pairs)));
  if (closable) box.appendChild(button(t("Continue"), () => closeReview(), { focus: "review-close", always: true }));
  return box;
}

function closeReview() {
  state.review = null;
  render();
}

function renderCenter(v) {
  const c = $("center");
  c.replaceChildren();
  const p = (text) => c.appendChild(el("div", { class: "prompt" }, text));
  const actor = v.to_act === null ? "" : nameOf(v.to_act);
  const mine = state.seat !== null && v.to_act === state.seat;
  if (state.showLast) {
    const last = v.tricks.length ? v.tricks[v.tricks.length - 1] : v.last_deal && v.last_deal.tricks && v.last_deal.tricks.length ? v.last_deal.tricks[v.last_deal.tricks.length - 1] : null;
    c.appendChild(el("div", { class: "last-shown" }, last ? renderTrick(last, true, { label: t("Last trick: won by {name}", { name: nameOf(last.winner) }) }) : el("div", { class: "prompt" }, t("No trick has been played yet."))));
  }
  if (state.review) c.appendChild(dealReview(state.review));
  if (v.game_over) {
    p(t("The game is over."));
  } else if (v.phase === "contract") {
    p(mine ? t("Choose your contract.") : t("{name} chooses a contract.", { name: actor }));
  } else if (v.phase === "trump") {
    p(mine ? t("Name the trump suit.") : t("{name} names the trump suit.", { name: actor }));
  } else if (v.phase === "rank") {
    p(mine ? t("Name the domino starting rank.") : t("{name} names the domino starting rank.", { name: actor }));
  } else if (v.phase === "call") {
    p(mine ? t("Your call: double, redouble or pass.") : t("Doubling: {name} to call.", { name: actor }));
    if (v.calls.length) c.appendChild(el("ul", { class: "calls-now" }, v.calls.map((k) => el("li", {}, callText(k)))));
  } else if (v.phase === "arrange") {
    p(mine ? t("Arrange your hand: back 5, middle 5, front 3.") : t("{name} arranges their hand.", { name: actor }));
  } else if (v.phase === "play" && !state.showLast) {
    if (v.domino_rows) {
      c.appendChild(renderDomino(v));
      p(mine ? t("Your turn: lay a card.") : t("{name} to play.", { name: actor }));
    } else if (state.held && !(mine && v.current_trick)) {
      // a finished trick stays to be read, unless the player must now play to the next one
      c.appendChild(renderTrick(state.held.trick, true));
    } else if (v.current_trick) {
      c.appendChild(renderTrick(v.current_trick, false, { fresh: true }));
    } else if (v.tricks.length) {
      c.appendChild(renderTrick(v.tricks[v.tricks.length - 1], true));
      p(mine ? t("Your lead.") : t("{name} leads.", { name: actor }));
    } else {
      p(mine ? t("Your lead.") : t("{name} leads.", { name: actor }));
    }
  }
  if (mine && !state.welcomed && !v.game_over) p(t("Connection lost: your turn waits until it is back."));
  const last = v.last_deal;
  if (last && !state.review && (v.phase === "contract" || v.phase === "trump" || v.phase === "rank" || v.phase === "call") && !v.game_over) {
    c.appendChild(el("p", { class: "prompt small" }, button(t("Review deal {n}", { n: last.deal }), () => openReview(last), { focus: "review-open", always: true })));
  }
}

function openReview(h) {
  state.review = h;
  render();
  const first = document.querySelector("#center .review-card h2");
  if (first) first.scrollIntoView({ block: "nearest" });
}

/** An action sent and not yet answered, or no connection to send one on: the page offers none. */
function waiting() {
  return !!state.pending || !state.welcomed;
}

function button(label, onClick, { focus, disabled = false, className = "", title: hint = null, always = false } = {}) {
  const b = el("button", { type: "button", class: className || null, title: hint, data: focus ? { focus } : {} }, label);
  b.disabled = disabled || (!always && waiting()); // an action waits for its answer or a connection; looking back never does
  b.addEventListener("click", onClick);
  return b;
}

// A call's seats as one key: "doubled|redoubled", each list sorted.
function callKey(double, redouble) {
  const sorted = (seats) => [...seats].sort((x, y) => x - y).join(",");
  return `${sorted(double)}|${sorted(redouble)}`;
}

// The spoken calls of RULES.md §2.6 as words on buttons, in the core's words (the server says which are legal now).
const callWord = (w) => {
  const text = words.calls[w] || w;
  return text.charAt(0).toUpperCase() + text.slice(1);
};

// The calls the view offers, each as the server wrote it: a pass {type: "call"}, a spoken word
// {type: "call", call: "maximum"}, or lists {type: "call", double: [...], redouble: [...]}. The
// boxes pick one of the offered lists; every button sends an offered call back unchanged.
function renderCalls(box, v) {
  const offered_ = v.legal_actions;
  const spoken = offered_.filter((a) => a.call !== undefined);
  const lists = offered_.filter((a) => a.call === undefined && (a.double || a.redouble));
  const passing = offered_.find((a) => a.call === undefined && !a.double && !a.redouble);
  const doubles = [...new Set(lists.flatMap((a) => a.double || []))].sort((x, y) => x - y);
  const redoubles = [...new Set(lists.flatMap((a) => a.redouble || []))].sort((x, y) => x - y);
  const offered = new Map(lists.map((a) => [callKey(a.double || [], a.redouble || []), a]));
  const grid = el("div", { class: "calls-grid" });
  if (!state.callChoice || state.callChoice.seq !== state.seq) {
    state.callChoice = { seq: state.seq, double: new Set(v.must_double), redouble: new Set() };
  }
  const chosen = state.callChoice;
  const choice = () => offered.get(callKey(chosen.double, chosen.redouble));
  const send = button(t("Call"), () => act(choice()), { focus: "call-send" });
  const sync = () => {
    send.disabled = waiting() || !choice();
  };
  const addBoxes = (seats, verb) => {
    if (!seats.length) return;
    const row = el("div", { class: "call-row" });
    for (const s of seats) {
      const input = el("input", { type: "checkbox", data: { focus: `${verb}-${s}` } });
      input.checked = chosen[verb].has(s);
      input.addEventListener("change", () => {
        if (input.checked) chosen[verb].add(s);
        else chosen[verb].delete(s);
        sync();
      });
      const must = v.must_double.includes(s);
      const label = verb === "double" ? (must ? t("Double {name} (compulsory)", { name: nameOf(s) }) : t("Double {name}", { name: nameOf(s) })) : t("Redouble {name}", { name: nameOf(s) });
      row.appendChild(el("label", {}, input, label));
    }
    grid.appendChild(row);
  };
  addBoxes(doubles, "double");
  addBoxes(redoubles, "redouble");
  const row = el("div", { class: "actions" });
  if (lists.length) row.appendChild(send);
  if (passing) row.appendChild(button(t("Pass"), () => act(passing), { focus: "call-pass" }));
  for (const a of spoken) row.appendChild(button(callWord(a.call), () => act(a), { focus: `word-${a.call}` }));
  grid.appendChild(row);
  box.appendChild(grid);
  sync();
}

function renderArrange(box, v) {
  if (state.arrangeDeal !== v.deal) {
    state.arrangeDeal = v.deal;
    state.arranging = [[], [], []];
  }
  const sizes = [5, 5, 3];
  const labels = [0, 1, 2].map((i) => t("{row} ({n})", { row: words.rows[i] || String(i + 1), n: [5, 5, 3][i] }));
  const rows = el("div", { class: "arrange-rows" });
  state.arranging.forEach((cards, i) => {
    const row = el("div", { class: "row" }, el("span", { class: "label" }, labels[i]));
    for (const c of cards) {
      const node = cardEl(c, { button: true, size: "small" });
      node.addEventListener("click", () => {
        state.arranging[i] = state.arranging[i].filter((x) => x !== c);
        render();
      });
      row.appendChild(node);
    }
    rows.appendChild(row);
  });
  box.appendChild(rows);
  const full = state.arranging.every((r, i) => r.length === sizes[i]);
  box.appendChild(button(t("Arrange"), () => act({ type: "arrange", cards: state.arranging.flat() }), { focus: "arrange-send", disabled: !full }));
  box.appendChild(
    button(t("Clear"), () => {
      state.arranging = [[], [], []];
      render();
    }, { focus: "arrange-clear" }),
  );
}

/**
 * Whether ``box`` already shows what ``inputs`` describe. A box is rebuilt only when they change:
 * a redraw for an unrelated reason (a held trick ending, a table frame, a countdown) must not
 * replace a button between the press and the release of a click, which would lose the click.
 */
function showsAlready(box, inputs) {
  const key = JSON.stringify(inputs);
  if (box.dataset.shown === key) return true;
  box.dataset.shown = key;
  return false;
}

function renderActions(v) {
  const box = $("actions");
  if (showsAlready(box, [state.seq, waiting(), state.seat, v.to_act, v.game_over, state.arranging])) return;
  box.replaceChildren();
  const mine = state.seat !== null && v.to_act === state.seat && !v.game_over;
  if (!mine) return;
  // Each button sends back one of the view's legal actions exactly as the server gave it.
  const offered = (type) => v.legal_actions.filter((a) => a.type === type);
  if (v.phase === "contract") {
    for (const a of offered("declare")) box.appendChild(button(title(a.contract), () => act(a), { focus: `contract-${a.contract}` }));
  } else if (v.phase === "trump") {
    for (const a of offered("trump")) box.appendChild(button(`${SUITS[a.suit]} ${words.suits[a.suit] || a.suit}`, () => act(a), { focus: `trump-${a.suit}`, className: isRed("x" + a.suit) ? "suit-red" : "" }));
  } else if (v.phase === "rank") {
    for (const a of offered("rank")) box.appendChild(button(rankText(a.rank), () => act(a), { focus: `rank-${a.rank}` }));
  } else if (v.phase === "call") {
    renderCalls(box, v);
  } else if (v.phase === "arrange") {
    renderArrange(box, v);
  } else if (v.phase === "play") {
    for (const a of offered("pass")) box.appendChild(button(t("Pass (no card to lay)"), () => act(a), { focus: "domino-pass" }));
  }
}

/** The domino pass, sent by itself when the player chose so and it is the only action offered. */
function autoPass(v) {
  if (!options.autopass || state.seat === null || v.to_act !== state.seat || v.phase !== "play" || waiting()) return;
  const only = v.legal_actions.length === 1 && v.legal_actions[0].type === "pass" ? v.legal_actions[0] : null;
  if (!only || state.autoPassed === state.seq) return;
  state.autoPassed = state.seq;
  const seq = state.seq;
  setTimeout(() => {
    if (state.seq === seq && !waiting()) {
      toast(t("Passed: no card could be laid."));
      act(only);
    }
  }, 500);
}

function renderHand(v) {
  const box = $("hand");
  if (showsAlready(box, [state.seq, waiting(), state.seat, v.to_act, v.game_over, state.arranging, v.hand])) return;
  box.replaceChildren();
  const mine = state.seat !== null && v.to_act === state.seat && !v.game_over && state.welcomed; // offline: a plain hand
  const playing = mine && v.phase === "play";
  const arranging = mine && v.phase === "arrange";
  const used = new Set(state.arranging.flat());
  const plays = new Map(playing ? v.legal_actions.filter((a) => a.type === "play").map((a) => [a.card, a]) : []);
  for (const c of sortHand(v.hand)) {
    if (arranging && used.has(c)) continue;
    const legal = plays.has(c);
    const node = cardEl(c, { button: true, extra: playing ? (legal ? "legal" : "dim") : "" });
    if (legal && !waiting()) {
      node.addEventListener("click", () => act(plays.get(c)));
    } else if (arranging) {
      node.addEventListener("click", () => {
        const sizes = [5, 5, 3];
        const i = state.arranging.findIndex((r, k) => r.length < sizes[k]);
        if (i >= 0) state.arranging[i].push(c);
        render();
      });
    } else if (playing && plays.size) {
      // Not playable: pressing it asks the server, which answers with the rule broken, in the core's words.
      node.setAttribute("aria-label", t("{card}, not playable now", { card: node.getAttribute("aria-label") }));
      node.addEventListener("click", () => {
        if (waiting()) return;
        askWhy({ type: "play", card: c });
      });
    } else {
      node.setAttribute("aria-disabled", "true");
    }
    box.appendChild(node);
  }
  if (state.seat === null) box.replaceChildren(el("span", { class: "muted on-felt" }, t("Watching: no hand is shown to spectators.")));
}

/** Send a card the view does not offer: the refusal carries the rule, which the toast shows. */
function askWhy(action) {
  if (!state.ws || state.ws.readyState !== WebSocket.OPEN) return;
  state.pending = { id: newId(), seq: state.seq, action };
  state.ws.send(JSON.stringify({ type: "act", ...state.pending }));
  beep(220, 120);
}

// Panels rebuilt only when what they show changed: a bot's move changes the trick, not the
// score sheet, and rebuilding a hidden or unchanged panel on every event costs layout for nothing.
let titlesLoaded = 0; // bumped when the contract titles arrive (the ids showed until then)
function seatsKey() {
  return state.table ? state.table.seats.map((x) => `${x.kind}:${x.name}`).join("|") : "";
}
function unchanged(box, parts) {
  const key = JSON.stringify([parts, state.seat, titlesLoaded, seatsKey()]);
  if (box.dataset.key === key) return true;
  box.dataset.key = key;
  return false;
}

function renderSheet(v) {
  if (unchanged($("sheet"), [v.history.length, v.totals])) return;
  const n = v.players;
  const short = (s) => (s === state.seat ? t("you") : nameOf(s).slice(0, 10));
  const head = el("tr", {}, el("th", { scope: "col" }, "#"), el("th", { scope: "col" }, t("contract")), Array.from({ length: n }, (_, s) => el("th", { scope: "col" }, short(s))));
  const rows = v.history.map((h) =>
    el(
      "tr",
      {},
      el("td", {}, h.deal),
      el("td", {}, `${title(h.contract)} `, el("span", { class: "muted" }, `(${short(h.declarer)})`), h.pairs.length ? el("span", { class: "dbl-mark", title: t("doubled") }, " ×") : null),
      h.final.map((x) => el("td", { class: x < 0 ? "neg" : null }, x)),
    ),
  );
  const foot = el("tr", {}, el("td"), el("td", {}, t("total")), v.totals.map((x) => el("td", {}, x)));
  $("sheet").replaceChildren(
    v.history.length
      ? el("table", { class: "sheet" }, el("caption", { class: "visually-hidden" }, t("Score sheet")), el("thead", {}, head), el("tbody", {}, rows), el("tfoot", {}, foot))
      : el("p", { class: "muted flush" }, t("No deal finished yet.")),
  );
  const body = $("sheet").querySelector("tbody");
  if (body && body.lastElementChild) body.lastElementChild.classList.add("latest");
}

/** Compulsory doubles still owed, per declarer: the core counts them (RULES.md §2.7). */
function renderOwed(v) {
  const box = $("owed");
  if (unchanged(box, [v.owed, v.declarer, v.game_over])) return;
  if (!v.owed || !v.owed.length || v.game_over) {
    box.replaceChildren();
    return;
  }
  const n = v.players;
  const head = el("tr", {}, el("th", { scope: "col" }, t("declarer")), Array.from({ length: n }, (_, s) => el("th", { scope: "col" }, nameOf(s))));
  const rows = v.owed.map((row, d) => el("tr", { class: d === v.declarer ? "current" : null }, el("th", { scope: "row" }, nameOf(d)), row.map((x, s) => el("td", {}, s === d ? "—" : x))));
  box.replaceChildren(el("details", { class: "owed", open: true }, el("summary", {}, t("Compulsory doubles still owed")), el("table", { class: "sheet owed-table" }, el("thead", {}, head), el("tbody", {}, rows))));
}

function owedLine(v) {
  if (!v.owed || !v.owed.length || v.declarer === null || v.game_over) return null;
  const row = v.owed[v.declarer];
  const parts = row.map((x, s) => (s === v.declarer ? null : t("{name}: {n}", { name: nameOf(s), n: x }))).filter(Boolean);
  return el("p", { class: "owed-line" }, t("Doubles of {declarer} still owed — {list}", { declarer: nameOf(v.declarer), list: parts.join(" · ") }));
}

function renderDealLog(v) {
  const box = $("deal-log");
  const plays = v.domino_rows ? v.plays.length : 0;
  const last = v.last_deal ? v.last_deal.deal : null;
  if (unchanged(box, [v.deal, v.deals_total, v.calls.length, v.tricks.length, plays, last, v.owed, v.declarer, v.game_over])) return;
  const parts = [el("h2", {}, t("Deal {n}", { n: Math.min(v.deal, v.deals_total) }))];
  const owed = owedLine(v);
  if (owed) parts.push(owed);
  if (v.calls.length) parts.push(el("h3", {}, t("Calls")), el("ul", { class: "calls" }, v.calls.map((k) => el("li", {}, callText(k)))));
  if (v.tricks.length) {
    parts.push(el("h3", {}, t("Tricks")));
    parts.push(
      el(
        "ol",
        { class: "trick-list" },
        v.tricks.map((tr) => el("li", {}, tr.cards.map((c, i) => `${nameOf(tr.seats[i])} ${cardText(c)}`).join(", "), " → ", el("strong", {}, nameOf(tr.winner)))),
      ),
    );
  }
  if (v.domino_rows && v.plays.length) parts.push(el("h3", {}, t("Plays")), el("p", {}, v.plays.map(([s, c]) => `${nameOf(s)} ${c === "pass" ? t("passes") : cardText(c)}`).join(" · ")));
  if (parts.length === 1) parts.push(el("p", { class: "muted" }, t("Nothing played yet in this deal.")));
  if (v.last_deal) parts.push(button(t("Review deal {n}", { n: v.last_deal.deal }), () => openReview(v.last_deal), { focus: "review-last", always: true }));
  box.replaceChildren(...parts);
}

function renderGameLog(v) {
  const box = $("game-log");
  if (v.game_over && state.gameReview === null) fetchGameReview();
  if (unchanged(box, [v.history.length, v.game_over, v.last_deal ? v.last_deal.deal : null, state.gameReview ? state.gameReview.length : null])) return;
  const parts = [el("h2", {}, t("Every deal"))];
  if (!v.game_over) parts.push(el("p", { class: "muted" }, t("The last deal can be reviewed now; every deal once the game is over.")));
  const deals = state.gameReview || [];
  const list = el("ul", { class: "game-list" });
  for (const h of v.history) {
    const full = deals.find((d) => d.deal === h.deal) || (v.last_deal && v.last_deal.deal === h.deal ? v.last_deal : null);
    const label = t("Deal {n}: {contract} by {name}", { n: h.deal, contract: title(h.contract), name: nameOf(h.declarer) });
    list.appendChild(el("li", {}, full ? button(label, () => openReview(full), { focus: `deal-${h.deal}`, always: true }) : label));
  }
  parts.push(list);
  box.replaceChildren(...parts);
}

function fetchGameReview() {
  state.gameReview = [];
  fetch(`${apiBase}/review`)
    .then((r) => (r.ok ? r.json() : { deals: [] }))
    .then((doc) => {
      state.gameReview = doc.deals;
      render();
    })
    .catch(() => {
      state.gameReview = [];
    });
}

function renderResult(v) {
  const box = $("result");
  const felt = $("final");
  if (!v.game_over) {
    box.classList.add("hidden");
    if (felt) felt.remove();
    return;
  }
  const ranking = state.table && state.table.ranking ? state.table.ranking : null;
  const order = Array.from({ length: v.players }, (_, s) => s).sort((a, b) => (ranking ? ranking[a] - ranking[b] : v.totals[b] - v.totals[a]));
  const final = el(
    "section",
    { class: state.finalShown ? "final seen" : "final", id: "final", "aria-labelledby": "final-title" },
    el("h2", { id: "final-title" }, t("Final ranking")),
    el("ol", { class: "ranking" }, order.map((s) => el("li", { class: `line-${s}` }, el("span", { class: "swatch", "aria-hidden": "true" }), t("{name}: {points}", { name: nameOf(s), points: v.totals[s] })))),
    curves(v),
    swings(v),
    el("p", { class: "form-row" },
      el("a", { class: "primary", id: "download", href: `/api/tables/${encodeURIComponent(tableId)}/record`, download: `barbu-${tableId}.json` }, t("Download the game (barbu-record/1)")),
      button(t("Browse every deal"), () => openPanel("game"), { focus: "browse", className: "secondary", always: true }),
      state.seat === null ? null : state.rematch ? el("a", { class: "primary", id: "rematch-go", href: `/t/${encodeURIComponent(state.rematch)}#seat=${state.seat}` }, t("Join the rematch")) : button(t("Rematch with the same seats"), askRematch, { focus: "rematch", className: "primary", always: true }),
      el("a", { class: "secondary", href: "/" }, t("Back to the lobby")),
    ),
  );
  $("center").prepend(final);
  state.finalShown = true; // it fades in once, not at every frame that draws it again
  box.classList.add("hidden");
}

async function askRematch() {
  try {
    const res = await fetch(`${apiBase}/rematch`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    const body = await res.json();
    if (res.ok) location.assign(body.link);
    else toast(body.error ? body.error.message : t("the rematch could not be started"));
  } catch (e) {
    toast(t("the rematch could not be started"));
  }
}

/** Each player's running total over the deals, drawn as SVG built node by node. */
function curves(v) {
  const NS = "http://www.w3.org/2000/svg";
  const n = v.players;
  const running = Array.from({ length: n }, () => [0]);
  for (const h of v.history) h.final.forEach((x, s) => running[s].push(running[s][running[s].length - 1] + x));
  const all = running.flat();
  const lo = Math.min(0, ...all);
  const hi = Math.max(0, ...all);
  const W = 560;
  const H = 200;
  const pad = 28;
  const X = (i) => pad + (i * (W - 2 * pad)) / Math.max(1, v.history.length);
  const Y = (y) => H - pad - ((y - lo) * (H - 2 * pad)) / Math.max(1, hi - lo);
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "curves");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("Running totals over the deals: {list}", { list: Array.from({ length: n }, (_, s) => `${nameOf(s)} ${v.totals[s]}`).join(", ") }));
  const line = (x1, y1, x2, y2, cls) => {
    const l = document.createElementNS(NS, "line");
    for (const [k, val] of Object.entries({ x1, y1, x2, y2 })) l.setAttribute(k, String(val));
    l.setAttribute("class", cls);
    svg.appendChild(l);
  };
  line(pad, Y(0), W - pad, Y(0), "axis");
  const label = (x, y, text) => {
    const node = document.createElementNS(NS, "text");
    node.setAttribute("x", String(x));
    node.setAttribute("y", String(y));
    node.setAttribute("class", "tick");
    node.textContent = text;
    svg.appendChild(node);
  };
  label(2, Y(hi) + 4, String(hi));
  label(2, Y(lo) + 4, String(lo));
  label(X(v.history.length) - 10, H - 8, String(v.history.length));
  running.forEach((pts, s) => {
    const path = document.createElementNS(NS, "polyline");
    path.setAttribute("points", pts.map((y, i) => `${X(i).toFixed(1)},${Y(y).toFixed(1)}`).join(" "));
    path.setAttribute("class", `curve line-${s}`);
    svg.appendChild(path);
  });
  return svg;
}

/** The deals that moved the scores most (the largest single result of a deal). */
function swings(v) {
  const ranked = [...v.history].sort((a, b) => Math.max(...b.final.map(Math.abs)) - Math.max(...a.final.map(Math.abs))).slice(0, 3);
  if (!ranked.length) return null;
  return el(
    "div",
    { class: "swings" },
    el("h3", {}, t("Biggest swings")),
    el(
      "ul",
      {},
      ranked.map((h) => {
        const top = h.final.reduce((best, x, s) => (Math.abs(x) > Math.abs(h.final[best]) ? s : best), 0);
        const points = h.final[top] > 0 ? "+".concat(h.final[top]) : String(h.final[top]);
        return el("li", {}, t("Deal {n}, {contract}: {name} {points}", { n: h.deal, contract: title(h.contract), name: nameOf(top), points }));
      }),
    ),
  );
}

function renderWatchers() {
  const n = state.table ? state.table.spectators || 0 : 0;
  $("watchers").textContent = n ? tn("{n} spectator watching", "{n} spectators watching", n, { n }) : "";
}

// The invitations of the seats nobody claimed yet: the server shows them to the browser that
// created the table (its cookie says so), while the table waits for its players.
let invites = [];
let invitesAsked = null;

async function refreshInvites() {
  const open = state.table && state.table.status === "open";
  const asked = open ? state.table.seats.map((s) => `${s.seat}:${s.joined}`).join(",") : null;
  if (asked === invitesAsked) return;
  invitesAsked = asked;
  invites = [];
  if (open) {
    try {
      const res = await fetch(`${apiBase}/invitations`);
      if (res.ok) invites = (await res.json()).seats;
    } catch (e) {
      invites = [];
    }
  }
  render();
}

async function copyText(input) {
  input.select();
  try {
    await navigator.clipboard.writeText(input.value);
  } catch (e) {
    document.execCommand("copy");
  }
  toast(t("Link copied."));
}

function renderInvite() {
  const box = $("invite");
  const open = state.table && state.table.status === "open";
  const shown = open ? invites.filter((s) => s.seat !== state.seat) : [];
  if (!shown.length) {
    box.classList.add("hidden");
    return;
  }
  const list = $("invite-links");
  list.replaceChildren();
  for (const s of shown) {
    const input = el("input", { readonly: true, "aria-label": t("Invitation link of seat {n}", { n: s.seat }) });
    input.value = new URL(s.link, location.href).href;
    input.addEventListener("focus", () => input.select());
    const copy = button(t("Copy"), () => copyText(input), { focus: `copy-${s.seat}`, className: "secondary", always: true });
    list.appendChild(el("div", { class: "invite-row" }, el("label", {}, t("Seat {n}", { n: s.seat }), " ", input), copy));
  }
  box.classList.remove("hidden");
}

// ---------------------------------------------------------------- the side panel (a drawer on small screens)

const TABS = ["sheet", "deal", "game", "options"];

function selectTab(name) {
  for (const tab of TABS) {
    const on = tab === name;
    $(`tab-${tab}`).setAttribute("aria-selected", on ? "true" : "false");
    $(`tab-${tab}`).tabIndex = on ? 0 : -1;
    $(`pane-${tab}`).classList.toggle("hidden", !on);
  }
}

function openPanel(tab) {
  if (tab) selectTab(tab);
  document.body.classList.add("side-open");
  document.body.classList.remove("side-closed");
  $("btn-panel").setAttribute("aria-expanded", "true");
  const sel = document.querySelector('#tabs [aria-selected="true"]');
  if (sel) sel.focus();
}

function closePanel() {
  document.body.classList.remove("side-open");
  if (wide()) document.body.classList.add("side-closed");
  $("btn-panel").setAttribute("aria-expanded", "false");
}

const wide = () => window.matchMedia("(min-width: 1000px)").matches;
const panelShown = () => (wide() ? !document.body.classList.contains("side-closed") : document.body.classList.contains("side-open"));

$("btn-panel").addEventListener("click", () => (panelShown() ? closePanel() : openPanel()));
$("btn-close").addEventListener("click", () => {
  closePanel();
  $("btn-panel").focus();
});
for (const tab of TABS) $(`tab-${tab}`).addEventListener("click", () => selectTab(tab));
$("tabs").addEventListener("keydown", (ev) => {
  if (ev.key !== "ArrowLeft" && ev.key !== "ArrowRight") return;
  const i = TABS.findIndex((x) => $(`tab-${x}`).getAttribute("aria-selected") === "true");
  const next = TABS[(i + (ev.key === "ArrowRight" ? 1 : TABS.length - 1)) % TABS.length];
  selectTab(next);
  $(`tab-${next}`).focus();
  ev.preventDefault();
});

function toggleLast() {
  state.showLast = !state.showLast;
  $("btn-last").setAttribute("aria-pressed", state.showLast ? "true" : "false");
  render();
}
$("btn-last").setAttribute("aria-pressed", "false");
$("btn-last").addEventListener("click", toggleLast);

// Keys: L the last trick, S the score sheet, R the review of the last deal, Escape closes.
document.addEventListener("keydown", (ev) => {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const tag = document.activeElement ? document.activeElement.tagName : "";
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const k = ev.key.toLowerCase();
  if (k === "l") toggleLast();
  else if (k === "s") (panelShown() ? closePanel : openPanel)();
  else if (k === "r" && state.view && state.view.last_deal) openReview(state.view.last_deal);
  else if (ev.key === "Escape") {
    if (state.showLast) toggleLast();
    else if (state.review) closeReview();
    else if (!wide()) closePanel();
    else return;
  } else return;
  ev.preventDefault();
});

// Arrow keys move between the cards of the hand.
$("hand").addEventListener("keydown", (ev) => {
  if (ev.key !== "ArrowLeft" && ev.key !== "ArrowRight") return;
  const cards = [...$("hand").querySelectorAll("button.card")];
  const i = cards.indexOf(document.activeElement);
  if (i < 0) return;
  const next = cards[(i + (ev.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length];
  next.focus();
  ev.preventDefault();
});

async function start() {
  if (linkKey !== null) {
    const r = await claim(false);
    if (r.ok) claimed(r.data);
    else if (r.data.error && r.data.error.code === "seat_held") offerTakeover(r.data.error.message);
    else {
      wanted = null;
      linkKey = null;
      setAddress(null);
      toast(r.data.error ? r.data.error.message : t("this link does not open a seat"));
    }
  }
  connect();
}

setUpOptions();
loadContractTitles()
  .then(() => {
    titlesLoaded += 1;
    if (state.view) render();
  })
  .catch(() => toast(t("the contract titles could not be loaded: contract ids are shown")));
start();
