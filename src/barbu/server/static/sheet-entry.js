// The form for one deal of a score sheet: the contract (only those the declarer has left),
// trump or domino rank, the doubles grid with its shorthands, and the tally inputs of the
// contract. What the form offers is what the server said (`/form`: the contracts left, the
// grid's open cells, compulsory doubles); the expansion of "maximum" and every score or
// refusal come from the server too (`/fill`, `/preview`, `/changes`).
import { el, joined } from "./dom.js";
import { t, tn, words } from "./i18n.js";
import { rankText, signed, SUIT_SIGN } from "./sheetkit.js";
import { readTally, showSums, tallyEls } from "./sheet-tally.js";

const MARK = ["", "X", "XX"];
const STATE_WORD = () => [t("no double"), t("doubled"), t("redoubled")];

const $ = (id) => document.getElementById(id);

export class DealForm {
  constructor(page) {
    this.page = page;
    this.state = null;
    this.previewTimer = null;
    this.previewSeq = 0;
    $("entry-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.save(false);
    });
    $("tally-later").addEventListener("click", () => this.save(true));
    $("cancel").addEventListener("click", () => this.showNext());
    $("no-doubles").addEventListener("click", () => {
      this.state.entry.doubles = [];
      this.renderGrid();
      this.changed();
    });
    for (const b of document.querySelectorAll("#f-doubles .shorthands button[data-word]")) {
      b.addEventListener("click", () => this.fill(null, b.dataset.word));
    }
    $("tally").addEventListener("input", () => {
      this.readTally();
      this.renderSums();
      this.changed();
    });
    $("tally").addEventListener("change", () => {
      this.readTally();
      this.changed();
    });
  }

  get sheet() {
    return this.page.view.sheet;
  }

  get names() {
    return this.sheet.players;
  }

  // Whether the deal may be saved without its tally: only the last deal may wait for one.
  mayWait() {
    const s = this.state;
    if (!s || s.next === null || s.next.fixed) return false;
    return s.mode === "next" || (s.mode === "edit" && this.sheet.pending === s.deal && !Object.keys(s.edits).length);
  }

  choice() {
    const s = this.state;
    return s && s.next ? s.next.contracts.find((c) => c.id === s.entry.contract) || null : null;
  }

  // -- the four modes -----------------------------------------------------------------

  async showNext() {
    if (this.page.view.role === "viewer") return; // a view link enters nothing: the form stays hidden
    const sheet = this.sheet;
    if (sheet.pending !== null) {
      const data = await this.formFor(sheet.pending, {});
      if (!data) return;
      this.state = { mode: "tally", deal: sheet.pending, next: data.next, entry: { ...data.entry, tally: {} }, edits: {} };
    } else if (sheet.next === null) {
      this.state = { mode: "over", deal: null, next: null, entry: blank(), edits: {} };
    } else {
      const entry = blank();
      if (sheet.next.fixed) entry.contract = sheet.next.contracts[0].id;
      this.state = { mode: "next", deal: sheet.next.number, next: sheet.next, entry, edits: {} };
    }
    this.render();
  }

  async showEdit(number, edits = {}) {
    const data = await this.formFor(number, edits);
    if (!data) return;
    const entry = data.entry ? { ...blank(), ...structuredClone(data.entry) } : blank();
    entry.tally = entry.tally || {};
    this.state = { mode: "edit", deal: number, next: data.next, entry, edits };
    this.render();
    this.focusHeading();
  }

  async showInsert(number) {
    const data = await this.formFor(number, {});
    if (!data) return;
    const entry = blank();
    if (data.next.fixed) entry.contract = data.next.contracts[0].id;
    this.state = { mode: "insert", deal: number, next: data.next, entry, edits: {} };
    this.render();
    this.focusHeading();
  }

  async formFor(number, edits) {
    const res = await this.page.request("POST", "form", { deal: number, changes: edits });
    if (!res.ok) {
      this.page.toast(res.data.error.message);
      return null;
    }
    return res.data;
  }

  focusHeading() {
    $("entry").scrollIntoView({ block: "start" });
    $("entry-h").focus({ preventScroll: true });
  }

  // -- drawing ------------------------------------------------------------------------

  render() {
    const s = this.state;
    const over = s.mode === "over";
    $("entry-form").classList.toggle("hidden", over);
    $("game-over").classList.toggle("hidden", !over);
    $("later-choice").classList.add("hidden");
    $("entry-error").textContent = "";
    $("preview").textContent = "";
    $("shortcut").classList.add("hidden");
    if (over) {
      $("entry-h").textContent = t("The game is over");
      const sheet = this.sheet;
      const winners = sheet.ranking.map((r, seat) => (r === 1 ? this.names[seat] : null)).filter((x) => x !== null);
      const who = winners.join(t(" and "));
      $("game-over").textContent = tn("{who} wins. Edit any deal below, or undo.", "{who} win. Edit any deal below, or undo.", winners.length, { who });
      return;
    }
    const decl = this.names[s.next.declarer];
    const sheet = this.sheet;
    const heading = {
      next: t("Deal {n} of {count} · {name} declares", { n: s.deal, count: sheet.deal_count, name: decl }),
      tally: t("Deal {n}: the tally", { n: s.deal }),
      edit: t("Edit deal {n} · {name} declares", { n: s.deal, name: decl }),
      insert: t("A deal before deal {n} · {name} declares", { n: s.deal, name: decl }),
    }[s.mode];
    $("entry-h").textContent = heading;
    const notes = [];
    if (s.mode !== "tally" && sheet.contracts_per_declarer > 1) notes.push(t("{name}'s contract {k} of {count}.", { name: decl, k: s.next.k, count: sheet.contracts_per_declarer }));
    if (s.next.forced.length && s.mode !== "tally") {
      const who = s.next.forced.map((x) => this.names[x]).join(t(" and "));
      notes.push([el("strong", {}, t("Compulsory:")), " ", tn("{who} must double {name} in this deal.", "{who} must double {name} in this deal.", s.next.forced.length, { who, name: decl })]);
    }
    const carried = Object.keys(s.edits);
    if (carried.length) notes.push(tn("Saved together with your change to deal {deals}.", "Saved together with your changes to deals {deals}.", carried.length, { deals: carried.join(", ") }));
    if (s.mode === "tally") {
      const row = sheet.deals[s.deal - 1];
      const what = `${row.title}${row.trump ? ` ${SUIT_SIGN[row.trump]}` : ""}${row.rank ? ` ${t("from {rank}", { rank: rankText(row.rank) })}` : ""}`;
      notes.push(t("{name} declared {contract}; enter what each player took.", { name: decl, contract: what }));
    }
    $("entry-note").replaceChildren(...joined(notes, " ").flat());
    $("entry-note").classList.toggle("hidden", !notes.length);
    this.renderContracts();
    this.renderOptions();
    $("f-doubles").classList.toggle("hidden", !sheet.doubling || s.mode === "tally" || !s.entry.contract);
    this.renderGrid();
    this.renderTally();
    $("tally-later").classList.toggle("hidden", !this.mayWait() || !s.entry.contract);
    $("cancel").classList.toggle("hidden", s.mode === "next" || s.mode === "tally");
    $("save").textContent = { next: t("Save deal {n}", { n: s.deal }), tally: t("Save the tally"), edit: t("Save deal {n}", { n: s.deal }), insert: t("Insert deal {n}", { n: s.deal }) }[s.mode];
    this.changed();
  }

  renderContracts() {
    const s = this.state;
    const box = $("contracts");
    $("f-contract").classList.toggle("hidden", s.mode === "tally");
    box.replaceChildren(
      ...s.next.contracts.map((c) =>
        el("label", { class: "chip" }, el("input", { type: "radio", name: "contract", value: c.id, checked: c.id === s.entry.contract, disabled: !!s.next.fixed }), el("span", {}, c.title)),
      ),
    );
    for (const input of box.querySelectorAll("input")) {
      input.addEventListener("change", () => this.setContract(input.value));
    }
  }

  setContract(id) {
    const s = this.state;
    s.entry.contract = id;
    const c = this.choice();
    if (!c.needs_trump) s.entry.trump = null;
    if (!c.needs_rank) s.entry.rank = null;
    // keep only the cells the server lists as open in this contract (and their pairs)
    s.entry.doubles = s.entry.doubles.filter((d) => (c.may_double[String(d.doubler)] || []).includes(d.doubled));
    const keep = {};
    for (const k of c.tally_keys) if (s.entry.tally && k in s.entry.tally) keep[k] = s.entry.tally[k];
    s.entry.tally = keep;
    this.renderOptions();
    $("f-doubles").classList.toggle("hidden", !this.sheet.doubling);
    this.renderGrid();
    this.renderTally();
    $("tally-later").classList.toggle("hidden", !this.mayWait());
    this.changed();
  }

  renderOptions() {
    const s = this.state;
    const c = this.choice();
    const trump = !!(c && c.needs_trump) && s.mode !== "tally";
    const rank = !!(c && c.needs_rank) && s.mode !== "tally";
    $("f-trump").classList.toggle("hidden", !trump);
    $("f-rank").classList.toggle("hidden", !rank);
    if (trump) {
      $("trumps").replaceChildren(
        ...["S", "H", "D", "C"].map((x) =>
          el(
            "label",
            { class: `chip suit-chip${x === "H" || x === "D" ? " red" : ""}` },
            el("input", { type: "radio", name: "trump", value: x, checked: s.entry.trump === x }),
            el("span", { "aria-label": words.suits[x] || x }, SUIT_SIGN[x]),
          ),
        ),
      );
      for (const input of $("trumps").querySelectorAll("input")) {
        input.addEventListener("change", () => {
          s.entry.trump = input.value;
          this.changed();
        });
      }
    }
    if (rank) {
      $("ranks").replaceChildren(
        ...s.next.ranks.map((x) => el("label", { class: "chip rank-chip" }, el("input", { type: "radio", name: "rank", value: x, checked: s.entry.rank === x }), el("span", {}, rankText(x)))),
      );
      for (const input of $("ranks").querySelectorAll("input")) {
        input.addEventListener("change", () => {
          s.entry.rank = input.value;
          this.changed();
        });
      }
    }
  }

  cell(a, b) {
    return this.state.entry.doubles.find((d) => d.doubler === a && d.doubled === b) || null;
  }

  renderGrid() {
    const s = this.state;
    const c = this.choice();
    const box = $("grid");
    if (!c || !this.sheet.doubling || s.mode === "tally") {
      box.replaceChildren();
      return;
    }
    const names = this.names;
    const n = names.length;
    const decl = s.next.declarer;
    const seats = [...Array(n).keys()];
    const head = el(
      "tr",
      {},
      el("th", { scope: "col", class: "corner" }),
      seats.map((b) => el("th", { scope: "col", class: b === decl ? "decl" : "" }, names[b])),
      el("th", { scope: "col", class: "says" }, el("span", { class: "visually-hidden" }, t("says"))),
    );
    const rows = s.next.speaking_order.map((a) => {
      const cells = seats.map((b) => {
        if (a === b) return el("td", { class: "self", "aria-hidden": "true" });
        const mine = this.cell(a, b);
        const mirror = this.cell(b, a);
        const open = (c.may_double[String(a)] || []).includes(b);
        const st = mine ? (mine.redoubled ? 2 : 1) : 0;
        const disabled = !mine && (mirror || !open);
        return el(
          "td",
          {},
          el(
            "button",
            { type: "button", class: `cell s${st}`, data: { a, b }, disabled: !!disabled, "aria-label": t("{a} doubled {b}: {state}", { a: names[a], b: names[b], state: disabled ? t("not open") : STATE_WORD()[st] }) },
            MARK[st],
          ),
        );
      });
      const says = el(
        "select",
        { data: { seat: a }, "aria-label": t("{name} says", { name: names[a] }) },
        el("option", { value: "" }, t("says…")),
        a === decl ? null : el("option", { value: "flanks" }, words.calls.flanks || "flanks"),
        el("option", { value: "maximum" }, words.calls.maximum || "maximum"),
        el("option", { value: "pass" }, words.calls.pass || "pass"),
      );
      return el(
        "tr",
        {},
        el("th", { scope: "row", class: a === decl ? "decl" : "" }, names[a], a === decl ? [" ", el("span", { class: "visually-hidden" }, t("(declarer)"))] : null),
        cells,
        el("td", { class: "says" }, says),
      );
    });
    box.replaceChildren(
      el(
        "table",
        { class: "dgrid" },
        el("caption", { class: "visually-hidden" }, t("Who doubled whom: a row per doubler, a column per doubled player")),
        el("thead", {}, head),
        el("tbody", {}, rows),
      ),
    );
    $("grid-help").textContent = t("A row per player who doubles, a column per player doubled, in speaking order ({order}). X: doubled, XX: doubled and redoubled; press a box again to change it.", {
      order: s.next.speaking_order.map((x) => names[x]).join(", "),
    });
    for (const b of box.querySelectorAll("button.cell")) {
      b.addEventListener("click", () => this.cycle(Number(b.dataset.a), Number(b.dataset.b)));
    }
    for (const sel of box.querySelectorAll("select[data-seat]")) {
      sel.addEventListener("change", () => {
        if (sel.value) this.fill(Number(sel.dataset.seat), sel.value);
      });
    }
  }

  cycle(a, b) {
    const s = this.state;
    const mine = this.cell(a, b);
    s.entry.doubles = s.entry.doubles.filter((d) => d !== mine);
    if (!mine) s.entry.doubles.push({ doubler: a, doubled: b, redoubled: false });
    else if (!mine.redoubled) s.entry.doubles.push({ doubler: a, doubled: b, redoubled: true });
    this.renderGrid();
    const again = document.querySelector(`#grid button.cell[data-a="${a}"][data-b="${b}"]`);
    if (again) again.focus();
    this.changed();
  }

  async fill(seat, word) {
    const s = this.state;
    if (!s.entry.contract) return;
    const res = await this.page.request("POST", "fill", { declarer: s.next.declarer, contract: s.entry.contract, doubles: s.entry.doubles, seat, word });
    if (!res.ok) {
      $("entry-error").textContent = res.data.error.message;
      this.renderGrid();
      return;
    }
    s.entry.doubles = res.data.doubles;
    this.renderGrid();
    this.changed();
  }

  // -- the tally ----------------------------------------------------------------------

  renderTally() {
    const c = this.choice();
    const box = $("tally");
    $("f-tally").classList.toggle("hidden", !c);
    box.replaceChildren(...(c ? tallyEls(c.tally_keys, this.names, this.sheet.tally_table, this.state.entry.tally || {}) : []));
    showSums(box, this.sheet.tally_totals);
  }

  renderSums() {
    showSums($("tally"), this.sheet.tally_totals);
  }

  // The tally as the record writes it, from the inputs; `complete` says whether every box is filled.
  readTally() {
    const c = this.choice();
    if (!c) return { tally: {}, complete: false };
    const read = readTally($("tally"), c.tally_keys, this.names.length, this.sheet.tally_table);
    this.state.entry.tally = read.tally;
    return read;
  }

  // -- asking the server --------------------------------------------------------------

  entryJson(withTally) {
    const s = this.state;
    const c = this.choice();
    const out = { contract: s.entry.contract, doubles: s.entry.doubles };
    if (c && c.needs_trump && s.entry.trump) out.trump = s.entry.trump;
    if (c && c.needs_rank && s.entry.rank) out.rank = s.entry.rank;
    if (withTally) out.tally = this.readTally().tally;
    return out;
  }

  ready() {
    const c = this.choice();
    const e = this.state.entry;
    return !!c && (!c.needs_trump || !!e.trump) && (!c.needs_rank || !!e.rank);
  }

  // Something changed: ask the server what the deal would give (debounced).
  changed() {
    this.cancelPreview();
    // a deal whose contract the schedule fixes (french) is entered whole: nothing to say before its tally
    if (!this.state || this.state.mode === "over" || !this.ready() || (this.state.next.fixed && !this.readTally().complete)) {
      $("preview").textContent = "";
      $("entry-error").textContent = "";
      return;
    }
    this.page.pending += 1;
    this.previewTimer = setTimeout(() => {
      this.previewTimer = null;
      this.page.pending -= 1;
      this.preview();
    }, 120);
  }

  cancelPreview() {
    if (this.previewTimer !== null) {
      clearTimeout(this.previewTimer);
      this.previewTimer = null;
      this.page.pending -= 1;
    }
  }

  // Ask the server what the deal as entered would give; show it, and answer the row (null if refused).
  async preview() {
    const s = this.state;
    const seq = ++this.previewSeq;
    const complete = this.readTally().complete;
    const res = await this.page.request("POST", "preview", { deal: s.deal, entry: this.entryJson(complete), changes: s.edits });
    if (seq !== this.previewSeq || this.state !== s) return null;
    const shortcut = $("shortcut");
    if (!res.ok) {
      $("entry-error").textContent = res.data.error.message;
      $("preview").textContent = "";
      shortcut.classList.add("hidden");
      return null;
    }
    $("entry-error").textContent = "";
    const row = res.data.row;
    const scores = row.final ? row.final.map((v, p) => `${this.names[p]} ${signed(v)}`).join(" · ") : "";
    const skipped = row.status === "skipped";
    shortcut.classList.toggle("hidden", !skipped);
    $("f-tally").classList.toggle("hidden", skipped || !this.choice());
    $("tally-later").classList.toggle("hidden", skipped || !this.mayWait());
    if (skipped) {
      shortcut.replaceChildren(el("strong", {}, t("Not played:")), " ", t("nobody doubled in a negative contract, so its points are divided: {scores}.", { scores }));
      $("preview").textContent = "";
    } else {
      $("preview").textContent = row.final ? t("This deal gives: {scores}", { scores }) : "";
    }
    return row;
  }

  async save(tallyLater) {
    const s = this.state;
    $("entry-error").textContent = "";
    $("later-choice").classList.add("hidden");
    if (!this.ready()) {
      const c = this.choice();
      $("entry-error").textContent = !c ? t("Choose the contract first.") : c.needs_trump ? t("Choose the trump suit.") : t("Choose the starting rank.");
      return;
    }
    this.cancelPreview();
    const { complete } = this.readTally();
    if (s.next.fixed && !complete) {
      $("entry-error").textContent = t("Fill in every box of the tally.");
      return;
    }
    const row = await this.preview(); // what the server says of the deal as it stands now
    if (row === null) return;
    const skipped = row.status === "skipped";
    const withTally = !tallyLater && !skipped;
    if (withTally && !complete) {
      $("entry-error").textContent = this.mayWait() ? t("Fill in every box of the tally (or press “Tally after play”).") : t("Fill in every box of the tally.");
      return;
    }
    const entry = this.entryJson(withTally);
    let change;
    if (s.mode === "tally") change = { change: "tally", tally: entry.tally };
    else if (s.mode === "next") change = { change: "add", entry };
    else if (s.mode === "edit") change = { change: "edit", deals: { ...s.edits, [s.deal]: entry } };
    else change = { change: "insert", deal: s.deal, entry };
    await this.send(change);
  }

  async send(change) {
    const res = await this.page.change(change);
    if (res.ok) {
      await this.showNext();
      return;
    }
    if (res.status === 409) return; // the page shows the sheet as it is now
    const error = res.data.error;
    if (error.later) this.offerLater(change, error);
    else $("entry-error").textContent = error.message;
  }

  // A change that would break a later deal: fix that deal too, keep the change and drop it, or go back.
  offerLater(change, error) {
    const s = this.state;
    const box = $("later-choice");
    const buttons = [];
    if (change.change === "edit") buttons.push(el("button", { type: "button", class: "secondary", data: { do: "also" } }, t("Edit deal {n} too", { n: error.deal })));
    buttons.push(el("button", { type: "button", class: "danger", data: { do: "drop" } }, t("Drop deals {n} and after", { n: error.deal })));
    buttons.push(el("button", { type: "button", class: "secondary", data: { do: "back" } }, t("Back")));
    box.replaceChildren(el("p", {}, error.message), el("p", { class: "muted small" }, t("Dropped deals come back with Undo.")), el("div", { class: "form-row" }, buttons));
    box.classList.remove("hidden");
    box.querySelector("button").focus();
    box.querySelector('[data-do="drop"]').addEventListener("click", () => this.send({ ...change, drop_later: true }));
    box.querySelector('[data-do="back"]').addEventListener("click", () => box.classList.add("hidden"));
    const also = box.querySelector('[data-do="also"]');
    if (also) also.addEventListener("click", () => this.showEdit(error.deal, { ...s.edits, [s.deal]: change.deals[String(s.deal)] }));
  }
}

function blank() {
  return { contract: null, trump: null, rank: null, doubles: [], tally: {} };
}
