// The tally inputs of a deal, one kind per tally key of RECORD.md: a number per player
// (tricks, hearts, queens, jacks and kings), a choice of player (who took A♥ or K♥, who won
// a trick), the domino's finishing order, cards per suit (Ravage City) and Chinese-poker
// rows. Which keys a contract needs, and what the counts add up to, is the server's answer.
import { el } from "./dom.js";
import { ordinal, SUIT_SIGN } from "./sheetkit.js";

const COUNT_KEYS = {
  tricks: "Tricks won",
  hearts: "Hearts taken (A♥ included)",
  queens: "Queens taken",
  jacks_and_kings: "Jacks and kings taken",
};
const SEAT_KEYS = ["ace_of_hearts", "king_of_hearts", "first", "second_last", "last"];
const SUIT_NAMES = ["spades", "hearts", "diamonds", "clubs"];

function seatLabel(key, tricks) {
  return {
    ace_of_hearts: "Who took A♥",
    king_of_hearts: "Who took K♥",
    first: "Who won trick 1",
    second_last: `Who won trick ${tricks - 1}`,
    last: `Who won the last trick (${tricks})`,
  }[key];
}

const shown = (v) => (v === null || v === undefined ? "" : v);

// The inputs for `keys`, as nodes, filled from `tally` (as the record writes it; blanks as null).
export function tallyEls(keys, names, totals, tally) {
  const n = names.length;
  const seats = [...Array(n).keys()];
  const out = [];
  for (const key of keys) {
    const value = tally[key];
    if (key in COUNT_KEYS) {
      out.push(
        el(
          "div",
          { class: "tally-key", data: { key } },
          el("div", { class: "key-label", id: `k-${key}` }, `${COUNT_KEYS[key]} `, el("span", { class: "sum", data: { sum: key } })),
          el(
            "div",
            { class: "counts", role: "group", "aria-labelledby": `k-${key}` },
            seats.map((p) =>
              el(
                "label",
                {},
                el("span", {}, names[p]),
                el("input", {
                  type: "number",
                  inputmode: "numeric",
                  min: 0,
                  max: totals[key],
                  data: { key, seat: p },
                  value: value ? shown(value[p]) : "",
                  "aria-label": `${COUNT_KEYS[key]}: ${names[p]}`,
                }),
              ),
            ),
          ),
        ),
      );
    } else if (SEAT_KEYS.includes(key)) {
      out.push(
        el(
          "div",
          { class: "tally-key", data: { key } },
          el("div", { class: "key-label", id: `k-${key}` }, seatLabel(key, totals.tricks)),
          el(
            "div",
            { class: "chips", role: "radiogroup", "aria-labelledby": `k-${key}` },
            seats.map((p) => el("label", { class: "chip" }, el("input", { type: "radio", name: `t-${key}`, value: p, data: { key }, checked: value === p }), el("span", {}, names[p]))),
          ),
        ),
      );
    } else if (key === "order") {
      out.push(
        el(
          "div",
          { class: "tally-key", data: { key: "order" } },
          el("div", { class: "key-label", id: "k-order" }, "Finishing order (first out first)"),
          el(
            "div",
            { class: "order", role: "group", "aria-labelledby": "k-order" },
            seats.map((i) => {
              const v = value ? String(shown(value[i])) : "";
              return el(
                "label",
                {},
                el("span", {}, ordinal(i + 1)),
                el(
                  "select",
                  { data: { key: "order", pos: i }, "aria-label": `${ordinal(i + 1)} out` },
                  el("option", { value: "" }, "—"),
                  names.map((name, p) => el("option", { value: p, selected: v === String(p) }, name)),
                ),
              );
            }),
          ),
        ),
      );
    } else if (key === "suits") {
      out.push(
        el(
          "div",
          { class: "tally-key", data: { key: "suits" } },
          el("div", { class: "key-label" }, "Cards taken per suit ", el("span", { class: "muted small" }, `(each suit: ${totals.suits.join(", ")})`)),
          el(
            "table",
            { class: "suits" },
            el("thead", {}, el("tr", {}, el("th"), ["S", "H", "D", "C"].map((x) => el("th", { class: x === "H" || x === "D" ? "red" : "" }, SUIT_SIGN[x])))),
            el(
              "tbody",
              {},
              seats.map((p) =>
                el(
                  "tr",
                  {},
                  el("th", { scope: "row" }, names[p]),
                  [0, 1, 2, 3].map((j) =>
                    el(
                      "td",
                      {},
                      el("input", {
                        type: "number",
                        inputmode: "numeric",
                        min: 0,
                        data: { key: "suits", seat: p, suit: j },
                        value: value && value[p] ? shown(value[p][j]) : "",
                        "aria-label": `${names[p]}: ${SUIT_NAMES[j]} taken`,
                      }),
                    ),
                  ),
                ),
              ),
            ),
          ),
        ),
      );
    } else if (key === "arrangements") {
      out.push(
        el(
          "div",
          { class: "tally-key", data: { key: "arrangements" } },
          el("div", { class: "key-label" }, "Each player's 13 cards: back 5, middle 5, front 3 ", el("span", { class: "muted small" }, "(e.g. AS KH TD 9C 2S)")),
          seats.map((p) => {
            const cards = value && value[p] ? value[p] : [];
            const rows = [cards.slice(0, 5), cards.slice(5, 10), cards.slice(10, 13)];
            return el(
              "fieldset",
              { class: "arrangement" },
              el("legend", {}, names[p]),
              ["back", "middle", "front"].map((row, j) =>
                el(
                  "label",
                  {},
                  el("span", {}, row),
                  el("input", {
                    data: { key: "arrangements", seat: p, row: j },
                    value: rows[j].join(" "),
                    autocapitalize: "characters",
                    spellcheck: "false",
                    "aria-label": `${names[p]}: ${row} row`,
                  }),
                ),
              ),
            );
          }),
        ),
      );
    }
  }
  return out;
}

// "(11 of 13)" next to each counted key, as the boxes are filled.
export function showSums(box, totals) {
  for (const span of box.querySelectorAll("[data-sum]")) {
    const key = span.dataset.sum;
    const values = [...box.querySelectorAll(`input[data-key="${key}"]`)].map((i) => i.value);
    const sum = values.reduce((acc, v) => acc + (v === "" ? 0 : Number(v)), 0);
    span.textContent = `(${sum} of ${totals[key]})`;
    span.classList.toggle("ok", sum === totals[key] && values.every((v) => v !== ""));
  }
}

// The tally as the record writes it (blanks as null), and whether every box is filled.
export function readTally(box, keys, n) {
  const tally = {};
  let complete = true;
  const num = (input) => (input.value === "" ? null : Number(input.value));
  const seats = [...Array(n).keys()];
  for (const key of keys) {
    if (key in COUNT_KEYS) {
      tally[key] = seats.map((p) => num(box.querySelector(`input[data-key="${key}"][data-seat="${p}"]`)));
      complete &&= tally[key].every((v) => v !== null);
    } else if (SEAT_KEYS.includes(key)) {
      const checked = box.querySelector(`input[data-key="${key}"]:checked`);
      tally[key] = checked ? Number(checked.value) : null;
      complete &&= checked !== null;
    } else if (key === "order") {
      tally[key] = [...box.querySelectorAll(`select[data-key="order"]`)].map((sel) => (sel.value === "" ? null : Number(sel.value)));
      complete &&= tally[key].every((v) => v !== null);
    } else if (key === "suits") {
      tally[key] = seats.map((p) => [0, 1, 2, 3].map((j) => num(box.querySelector(`input[data-key="suits"][data-seat="${p}"][data-suit="${j}"]`))));
      complete &&= tally[key].every((row) => row.every((v) => v !== null));
    } else if (key === "arrangements") {
      tally[key] = seats.map((p) =>
        [0, 1, 2].flatMap((j) => box.querySelector(`input[data-key="arrangements"][data-seat="${p}"][data-row="${j}"]`).value.split(/[\s,;|]+/).filter(Boolean)),
      );
      complete &&= tally[key].every((cards) => cards.length > 0);
    }
  }
  return { tally, complete };
}
