// The table page: one WebSocket to the server, which is authoritative. Everything shown comes
// from the frames it sends: this seat's view (hand, public history, legal actions) and the
// table frame (who sits where). The page asks nothing of its own about the rules: the legal
// cards and calls it offers are the ones in the view.
import { SUITS, backEl, cardEl, contractName, isRed, loadContractTitles, rankText, sortHand } from "./cards.js";
import { el } from "./dom.js";

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
  retry: 0,
  arranging: [[], [], []], // Chinese poker rows being built: back, middle, front
  arrangeDeal: null,
  callChoice: null, // the doubles and redoubles ticked, for the state they were ticked in
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
  setConn("connecting…", null);
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
    setConn("reconnecting…", false);
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
    return { ok: false, data: { error: { code: "network", message: "the server cannot be reached: reload the page to try again" } } };
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
    toast(r.data.error ? r.data.error.message : "the seat could not be taken over");
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
      state.retry = 0;
      setConn(f.seat === null ? "watching" : "connected", true);
      if (state.pending) state.ws.send(JSON.stringify({ type: "act", ...state.pending })); // same id: harmless
      break;
    case "state":
    case "event":
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
      render();
      break;
    case "table":
      state.table = f;
      refreshInvites();
      render();
      break;
    case "ack":
      if (state.pending && state.pending.id === f.id) state.pending = null;
      render();
      break;
    case "error":
      if (state.pending && (f.id === state.pending.id || !f.id)) state.pending = null;
      toast(f.message);
      if (f.code === "taken_over") {
        state.ws.onclose = null; // the server closes this connection; coming back is the player's choice
        state.seat = null;
        wanted = null;
        setAddress(null);
        setConn("seat taken over in another browser", false);
      } else if (f.code === "bad_credential" && wanted !== null && state.seat === null) {
        wanted = null; // this browser does not hold the seat: watch instead
        setAddress(null);
        reconnect();
      } else if (f.code === "unknown_table" || f.code === "bad_credential") {
        state.ws.onclose = null;
        setConn(f.code === "unknown_table" ? "no such table" : "wrong key", false);
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
  if (state.pending || !state.ws || state.ws.readyState !== WebSocket.OPEN) return;
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

// ---------------------------------------------------------------- names and places

function nameOf(seat) {
  const s = state.table && state.table.seats[seat];
  let name = `Seat ${seat}`;
  if (s && s.kind === "bot") name = `Bot ${seat}`;
  else if (s && s.name) name = s.name;
  return seat === state.seat ? `${name} (you)` : name;
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

// ---------------------------------------------------------------- rendering

// A contract's title in this table's rule set, as the core writes it.
const title = (id) => contractName(state.view ? state.view.variant : null, id);

function render() {
  const v = state.view;
  if (!v) return;
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.focus || document.activeElement.dataset.card : null;
  $("felt").className = `felt n${v.players}`;
  renderInfo(v);
  renderSeats(v);
  renderCenter(v);
  renderActions(v);
  renderHand(v);
  renderSheet(v);
  renderResult(v);
  renderInvite();
  if (focused) {
    const el = document.querySelector(`[data-focus="${CSS.escape(focused)}"], #hand [data-card="${CSS.escape(focused)}"]`);
    if (el && !el.disabled) el.focus();
  }
}

function renderInfo(v) {
  const parts = [el("span", {}, `Deal ${Math.min(v.deal, v.deals_total)} / ${v.deals_total}`)];
  if (v.declarer !== null && !v.game_over) parts.push(el("span", {}, `Declarer: ${nameOf(v.declarer)}`));
  if (v.contract) parts.push(el("span", {}, el("strong", {}, title(v.contract))));
  if (v.trump) parts.push(el("span", {}, "Trumps: ", el("span", { class: `trump-suit${isRed("x" + v.trump) ? " red" : ""}` }, SUITS[v.trump])));
  if (v.rank) parts.push(el("span", {}, `Domino from ${rankText(v.rank)}`));
  if (v.game_over) parts.push(el("span", {}, el("strong", {}, "Game over")));
  $("info").replaceChildren(...parts);
  document.title = `Barbu — ${v.game_over ? "game over" : `deal ${v.deal}`}`;
}

function seatFacts(v, seat) {
  const facts = [];
  const tricks = v.tricks.filter((t) => t.winner === seat).length;
  if (v.phase === "play" && v.tricks.length + (v.current_trick ? 1 : 0) > 0) facts.push(`${tricks} trick${tricks === 1 ? "" : "s"}`);
  if (!v.game_over) facts.push(`${v.cards_left[seat]} card${v.cards_left[seat] === 1 ? "" : "s"}`);
  facts.push(`total ${v.totals[seat]}`);
  const doubled = v.pairs.filter((p) => p.doubler === seat).map((p) => `${nameOf(p.doubled)}${p.multiplier > 1 ? " ×" + p.multiplier : ""}`);
  if (doubled.length) facts.push(`doubles ${doubled.join(", ")}`);
  const place_ = v.domino_order.indexOf(seat);
  if (place_ >= 0) facts.push(`out #${place_ + 1}`);
  return facts.join(" · ");
}

function renderSeats(v) {
  const felt = $("felt");
  felt.querySelectorAll(".seat").forEach((el) => el.remove());
  for (let seat = 0; seat < v.players; seat++) {
    const pos = place(seat);
    const info = state.table ? state.table.seats[seat] : null;
    const badges = [];
    if (v.declarer === seat && !v.game_over) badges.push(el("span", { class: "badge decl", title: "declarer" }, "declarer"));
    if (info && info.kind === "bot") badges.push(el("span", { class: "badge" }, info.level));
    if (info && info.kind === "human" && !info.online) badges.push(el("span", { class: "badge away" }, info.joined ? "away" : "not joined"));
    if (info && info.bot_playing) badges.push(el("span", { class: "badge" }, "bot playing"));
    if (v.to_act === seat) badges.push(el("span", { class: "badge" }, "to act"));
    const box = el(
      "div",
      { class: `seat ${pos === "me" ? "mine" : `pos-${pos}`}${v.to_act === seat ? " to-act" : ""}`, data: { seat } },
      el("div", { class: "who" }, nameOf(seat), " ", badges),
      el("div", { class: "facts" }, seatFacts(v, seat)),
    );
    const captured = v.captured[seat] || [];
    if (captured.length) {
      const taken = el("div", { class: "captured", "aria-label": `cards taken by ${nameOf(seat)}: ${captured.join(" ")}` });
      for (const c of sortHand(captured)) taken.appendChild(cardEl(c, { size: "mini" }));
      box.appendChild(taken);
    }
    if (pos !== "me" && v.cards_left[seat] > 0 && !v.game_over) {
      const backs = el("div", { class: "backs" });
      for (let i = 0; i < Math.min(v.cards_left[seat], 13); i++) backs.appendChild(backEl());
      box.appendChild(backs);
    }
    if (pos === "me") $("me").prepend(box);
    else felt.appendChild(box);
  }
}

function renderTrick(trick, done) {
  const box = document.createElement("div");
  box.className = `trick${done ? " done" : ""}`;
  trick.cards.forEach((c, i) => {
    const seat = trick.seats[i];
    const [row, col] = TRICK_CELL[place(seat)];
    const slot = document.createElement("div");
    slot.className = `slot${done && trick.winner === seat ? " winner" : ""}`;
    slot.style.gridRow = row;
    slot.style.gridColumn = col;
    slot.appendChild(cardEl(c, { size: "small" }));
    const label = document.createElement("span");
    label.textContent = nameOf(seat);
    slot.appendChild(label);
    box.appendChild(slot);
  });
  const mid = document.createElement("div");
  mid.style.gridRow = 2;
  mid.style.gridColumn = 2;
  mid.style.fontSize = "0.8rem";
  mid.textContent = done ? `won by ${nameOf(trick.winner)}` : `trick ${state.view.tricks.length + 1}`;
  box.appendChild(mid);
  return box;
}

function renderDomino(v) {
  const box = document.createElement("div");
  box.className = "domino";
  box.setAttribute("aria-label", "domino layout");
  const order = "23456789TJQKA";
  // One row per suit, S H D C; with two decks the second deck's four rows follow.
  v.domino_rows.forEach((laid, i) => {
    const s = "SHDC"[i % 4];
    const row = el("div", { class: "row" }, el("span", { class: `suit${isRed("x" + s) ? " red" : ""}` }, SUITS[s]));
    if (!laid) {
      row.appendChild(el("span", { class: "muted on-felt" }, "not opened"));
    } else {
      for (let r = order.indexOf(laid[0]); r <= order.indexOf(laid[1]); r++) row.appendChild(cardEl(order[r] + s, { size: "mini" }));
    }
    box.appendChild(row);
  });
  return box;
}

function settlement(h) {
  const n = h.final.length;
  const head = Array.from({ length: n }, (_, s) => el("th", {}, nameOf(s)));
  const line = (label, values) => el("tr", {}, el("th", { class: "left" }, label), values.map((x) => el("td", {}, x)));
  const pairs = h.pairs.length
    ? el("p", { class: "pairs" }, `Doubles: ${h.pairs.map(([a, b, m]) => `${nameOf(a)} → ${nameOf(b)}${m > 1 ? " ×" + m : ""}`).join("; ")}`)
    : null;
  const text = (cards) => cards.map((c) => `${rankText(c[0])}${SUITS[c[1]]}`).join(" ");
  const rows = h.arrangements
    ? el(
        "table",
        { class: "rows" },
        el(
          "tbody",
          {},
          h.arrangements.map((a, s) => el("tr", {}, el("th", { class: "left" }, nameOf(s)), el("td", {}, text(a.slice(0, 5))), el("td", {}, text(a.slice(5, 10))), el("td", {}, text(a.slice(10))))),
        ),
      )
    : null;
  return el(
    "div",
    { class: "settle" },
    el("strong", {}, `Deal ${h.deal}: ${title(h.contract)}`),
    ` by ${nameOf(h.declarer)}${h.played ? "" : " (not played)"}`,
    el("table", {}, el("tbody", {}, el("tr", {}, el("th"), head), line("scored", h.raw), line("doubles", h.adjustments), line("deal", h.final))),
    rows,
    pairs,
  );
}

function renderCenter(v) {
  const c = $("center");
  c.replaceChildren();
  const p = (text) => c.appendChild(el("div", { class: "prompt" }, text));
  const actor = v.to_act === null ? "" : nameOf(v.to_act);
  const mine = state.seat !== null && v.to_act === state.seat;
  if (v.game_over) {
    p("The game is over.");
  } else if (v.phase === "contract") {
    p(mine ? "Choose your contract." : `${actor} chooses a contract.`);
  } else if (v.phase === "trump") {
    p(mine ? "Name the trump suit." : `${actor} names the trump suit.`);
  } else if (v.phase === "rank") {
    p(mine ? "Name the domino starting rank." : `${actor} names the domino starting rank.`);
  } else if (v.phase === "call") {
    p(mine ? "Your call: double, redouble or pass." : `Doubling: ${actor} to call.`);
    if (v.calls.length) {
      const list = document.createElement("div");
      list.style.fontSize = "0.85rem";
      list.textContent = v.calls
        .map((k) => {
          const parts = [];
          if (k.double.length) parts.push(`doubles ${k.double.map(nameOf).join(", ")}`);
          if (k.redouble.length) parts.push(`redoubles ${k.redouble.map(nameOf).join(", ")}`);
          return `${nameOf(k.seat)}: ${parts.join(", ") || "passes"}`;
        })
        .join(" · ");
      c.appendChild(list);
    }
  } else if (v.phase === "arrange") {
    p(mine ? "Arrange your hand: back 5, middle 5, front 3." : `${actor} arranges their hand.`);
  } else if (v.phase === "play") {
    if (v.domino_rows) {
      c.appendChild(renderDomino(v));
      p(mine ? "Your turn: lay a card." : `${actor} to play.`);
    } else if (v.current_trick) {
      c.appendChild(renderTrick(v.current_trick, false));
    } else if (v.tricks.length) {
      c.appendChild(renderTrick(v.tricks[v.tricks.length - 1], true));
      p(mine ? "Your lead." : `${actor} leads.`);
    } else {
      p(mine ? "Your lead." : `${actor} leads.`);
    }
  }
  const last = v.history[v.history.length - 1];
  if (last && (v.phase === "contract" || v.phase === "trump" || v.phase === "rank" || v.phase === "call" || v.game_over)) {
    c.appendChild(settlement(last));
  }
}

function button(label, onClick, { focus, disabled = false, className = "" } = {}) {
  const b = el("button", { type: "button", class: className || null, data: focus ? { focus } : {} }, label);
  b.disabled = disabled || !!state.pending;
  b.addEventListener("click", onClick);
  return b;
}

// A call's seats as one key: "doubled|redoubled", each list sorted.
function callKey(double, redouble) {
  const sorted = (seats) => [...seats].sort((x, y) => x - y).join(",");
  return `${sorted(double)}|${sorted(redouble)}`;
}

// The calls the view offers, each as the server wrote it: a pass {type: "call"}, a spoken word
// {type: "call", call: "maximum"}, or lists {type: "call", double: [...], redouble: [...]}. The
// boxes pick one of the offered lists; every button sends an offered call back unchanged.
function renderCalls(box, v) {
  const options = v.legal_actions;
  const spoken = options.filter((a) => a.call !== undefined);
  const lists = options.filter((a) => a.call === undefined && (a.double || a.redouble));
  const passing = options.find((a) => a.call === undefined && !a.double && !a.redouble);
  const doubles = [...new Set(lists.flatMap((a) => a.double || []))].sort((x, y) => x - y);
  const redoubles = [...new Set(lists.flatMap((a) => a.redouble || []))].sort((x, y) => x - y);
  const offered = new Map(lists.map((a) => [callKey(a.double || [], a.redouble || []), a]));
  const grid = el("div", { class: "calls-grid" });
  if (!state.callChoice || state.callChoice.seq !== state.seq) {
    state.callChoice = { seq: state.seq, double: new Set(v.must_double), redouble: new Set() };
  }
  const chosen = state.callChoice;
  const choice = () => offered.get(callKey(chosen.double, chosen.redouble));
  const send = button("Call", () => act(choice()), { focus: "call-send" });
  const sync = () => {
    send.disabled = !!state.pending || !choice();
  };
  const addBoxes = (seats, verb) => {
    if (!seats.length) return;
    const row = el("div");
    for (const s of seats) {
      const input = el("input", { type: "checkbox", data: { focus: `${verb}-${s}` } });
      input.checked = chosen[verb].has(s);
      input.addEventListener("change", () => {
        if (input.checked) chosen[verb].add(s);
        else chosen[verb].delete(s);
        sync();
      });
      row.appendChild(el("label", {}, input, `${verb === "double" ? "Double" : "Redouble"} ${nameOf(s)}${v.must_double.includes(s) ? " (must)" : ""}`));
    }
    grid.appendChild(row);
  };
  addBoxes(doubles, "double");
  addBoxes(redoubles, "redouble");
  const row = el("div", { class: "actions" });
  if (lists.length) row.appendChild(send);
  if (passing) row.appendChild(button("Pass", () => act(passing), { focus: "call-pass" }));
  for (const a of spoken) row.appendChild(button(a.call, () => act(a), { focus: `word-${a.call}` }));
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
  const labels = ["Back (5)", "Middle (5)", "Front (3)"];
  const rows = document.createElement("div");
  rows.className = "arrange-rows";
  state.arranging.forEach((cards, i) => {
    const row = el("div", { class: "row" }, el("span", { class: "label" }, labels[i]));
    for (const c of cards) {
      const el = cardEl(c, { button: true, size: "small" });
      el.addEventListener("click", () => {
        state.arranging[i] = state.arranging[i].filter((x) => x !== c);
        render();
      });
      row.appendChild(el);
    }
    rows.appendChild(row);
  });
  box.appendChild(rows);
  const full = state.arranging.every((r, i) => r.length === sizes[i]);
  box.appendChild(button("Arrange", () => act({ type: "arrange", cards: state.arranging.flat() }), { focus: "arrange-send", disabled: !full }));
  box.appendChild(
    button("Clear", () => {
      state.arranging = [[], [], []];
      render();
    }, { focus: "arrange-clear" }),
  );
}

function renderActions(v) {
  const box = $("actions");
  box.replaceChildren();
  const mine = state.seat !== null && v.to_act === state.seat && !v.game_over;
  if (!mine) return;
  // Each button sends back one of the view's legal actions exactly as the server gave it.
  const offered = (type) => v.legal_actions.filter((a) => a.type === type);
  if (v.phase === "contract") {
    for (const a of offered("declare")) box.appendChild(button(title(a.contract), () => act(a), { focus: `contract-${a.contract}` }));
  } else if (v.phase === "trump") {
    for (const a of offered("trump")) box.appendChild(button(`${SUITS[a.suit]} ${a.suit}`, () => act(a), { focus: `trump-${a.suit}`, className: isRed("x" + a.suit) ? "suit-red" : "" }));
  } else if (v.phase === "rank") {
    for (const a of offered("rank")) box.appendChild(button(rankText(a.rank), () => act(a), { focus: `rank-${a.rank}` }));
  } else if (v.phase === "call") {
    renderCalls(box, v);
  } else if (v.phase === "arrange") {
    renderArrange(box, v);
  } else if (v.phase === "play") {
    for (const a of offered("pass")) box.appendChild(button("Pass (no card to lay)", () => act(a), { focus: "domino-pass" }));
  }
}

function renderHand(v) {
  const box = $("hand");
  box.replaceChildren();
  const mine = state.seat !== null && v.to_act === state.seat && !v.game_over;
  const playing = mine && v.phase === "play";
  const arranging = mine && v.phase === "arrange";
  const used = new Set(state.arranging.flat());
  const plays = new Map(playing ? v.legal_actions.filter((a) => a.type === "play").map((a) => [a.card, a]) : []);
  for (const c of sortHand(v.hand)) {
    if (arranging && used.has(c)) continue;
    const legal = plays.has(c);
    const el = cardEl(c, { button: true, extra: playing ? (legal ? "legal" : "dim") : "" });
    if (legal && !state.pending) {
      el.addEventListener("click", () => act(plays.get(c)));
    } else if (arranging) {
      el.addEventListener("click", () => {
        const sizes = [5, 5, 3];
        const i = state.arranging.findIndex((r, k) => r.length < sizes[k]);
        if (i >= 0) state.arranging[i].push(c);
        render();
      });
    } else {
      el.setAttribute("aria-disabled", "true");
      if (playing) el.title = "not playable now";
    }
    box.appendChild(el);
  }
  if (state.seat === null) box.replaceChildren(el("span", { class: "muted on-felt" }, "Watching: no hand is shown to spectators."));
}

function renderSheet(v) {
  const n = v.players;
  const short = (s) => nameOf(s).replace(" (you)", "*").slice(0, 10);
  const head = el("tr", {}, el("th", {}, "#"), el("th", {}, "contract"), Array.from({ length: n }, (_, s) => el("th", {}, short(s))));
  const rows = v.history.map((h) =>
    el("tr", {}, el("td", {}, h.deal), el("td", {}, `${title(h.contract)} `, el("span", { class: "muted" }, `(${short(h.declarer)})`)), h.final.map((x) => el("td", {}, x))),
  );
  const foot = el("tr", {}, el("td"), el("td", {}, "total"), v.totals.map((x) => el("td", {}, x)));
  $("sheet").replaceChildren(
    v.history.length
      ? el("table", { class: "sheet" }, el("thead", {}, head), el("tbody", {}, rows), el("tfoot", {}, foot))
      : el("p", { class: "muted flush" }, "No deal finished yet."),
  );
}

function renderResult(v) {
  const box = $("result");
  if (!v.game_over) {
    box.classList.add("hidden");
    return;
  }
  const ranking = state.table && state.table.ranking ? state.table.ranking : null;
  const order = Array.from({ length: v.players }, (_, s) => s).sort((a, b) => (ranking ? ranking[a] - ranking[b] : 0));
  box.replaceChildren(
    el("h2", {}, "Final ranking"),
    el(
      "ol",
      { class: "ranking" },
      order.map((s) => el("li", {}, `${nameOf(s)}: ${v.totals[s]}`, ranking ? [" ", el("span", { class: "muted" }, `(rank ${ranking[s]})`)] : null)),
    ),
    el("a", { class: "primary", id: "download", href: `/api/tables/${encodeURIComponent(tableId)}/record`, download: `barbu-${tableId}.json` }, "Download the game (barbu-record/1)"),
  );
  box.classList.remove("hidden");
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

function renderInvite() {
  const box = $("invite");
  const open = state.table && state.table.status === "open";
  const shown = open ? invites.filter((s) => s.seat !== state.seat) : [];
  if (!shown.length) {
    box.classList.add("hidden");
    return;
  }
  const list = $("invite-links");
  list.textContent = "";
  for (const s of shown) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.readOnly = true;
    input.value = new URL(s.link, location.href).href;
    input.setAttribute("aria-label", `Invitation link of seat ${s.seat}`);
    input.addEventListener("focus", () => input.select());
    label.append(`Seat ${s.seat} `, input);
    list.appendChild(label);
  }
  box.classList.remove("hidden");
}

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
      toast(r.data.error ? r.data.error.message : "this link does not open a seat");
    }
  }
  connect();
}

loadContractTitles()
  .then(() => state.view && render())
  .catch(() => toast("the contract titles could not be loaded: contract ids are shown"));
start();
