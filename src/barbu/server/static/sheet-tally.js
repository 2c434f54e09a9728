// The tally inputs of a deal, one kind per tally key of RECORD.md: a number per player
// ("count"), a choice of player ("seat"), the domino's finishing order ("order"), cards per
// suit ("suits") and Chinese-poker rows ("arrangements"). Which keys a contract needs, each
// key's kind and label, and what the counts add up to, are the server's answer (the sheet's
// `tally_table`, read from the core's table of tally keys).
import { el } from "./dom.js";
import { t, words } from "./i18n.js";
import { ordinal, SUIT_SIGN } from "./sheetkit.js";

const SUIT_LETTERS = ["S", "H", "D", "C"];
const cap = (text) => text.charAt(0).toUpperCase() + text.slice(1);

const shown = (v) => (v === null || v === undefined ? "" : v);

// The inputs for `keys`, as nodes, filled from `tally` (as the record writes it; blanks as null);
// `table` is the sheet's `tally_table`: each key's kind, label and total.
export function tallyEls(keys, names, table, tally) {
  const n = names.length;
  const seats = [...Array(n).keys()];
  const out = [];
  for (const key of keys) {
    const value = tally[key];
    const { kind, total } = table[key];
    const label = cap(table[key].label);
    if (kind === "count") {
      out.push(
        el(
          "div",
          { class: "tally-key", data: { key } },
          el("div", { class: "key-label", id: `k-${key}` }, `${label} `, el("span", { class: "sum", data: { sum: key } })),
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
                  max: total,
                  data: { key, seat: p },
                  value: value ? shown(value[p]) : "",
                  "aria-label": t("{label}: {name}", { label, name: names[p] }),
                }),
              ),
            ),
          ),
        ),
      );
    } else if (kind === "seat") {
      out.push(
        el(
          "div",
          { class: "tally-key", data: { key } },
          el("div", { class: "key-label", id: `k-${key}` }, label),
          el(
            "div",
            { class: "chips", role: "radiogroup", "aria-labelledby": `k-${key}` },
            seats.map((p) => el("label", { class: "chip" }, el("input", { type: "radio", name: `t-${key}`, value: p, data: { key }, checked: value === p }), el("span", {}, names[p]))),
          ),
        ),
      );
    } else if (kind === "order") {
      out.push(
        el(
          "div",
          { class: "tally-key", data: { key: "order" } },
          el("div", { class: "key-label", id: "k-order" }, label),
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
                  { data: { key: "order", pos: i }, "aria-label": t("{place} out", { place: ordinal(i + 1) }) },
                  el("option", { value: "" }, "—"),
                  names.map((name, p) => el("option", { value: p, selected: v === String(p) }, name)),
                ),
              );
            }),
          ),
        ),
      );
    } else if (kind === "suits") {
      out.push(
        el(
          "div",
          { class: "tally-key", data: { key: "suits" } },
          el("div", { class: "key-label" }, `${label} `, el("span", { class: "muted small" }, t("(each suit: {counts})", { counts: total.join(", ") }))),
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
                        "aria-label": t("{name}: {suit} taken", { name: names[p], suit: words.suits[SUIT_LETTERS[j]] }),
                      }),
                    ),
                  ),
                ),
              ),
            ),
          ),
        ),
      );
    } else if (kind === "arrangements") {
      out.push(
        el(
          "div",
          { class: "tally-key", data: { key: "arrangements" } },
          el("div", { class: "key-label" }, `${label} `, el("span", { class: "muted small" }, t("(e.g. AS KH TD 9C 2S)"))),
          seats.map((p) => {
            const cards = value && value[p] ? value[p] : [];
            const rows = [cards.slice(0, 5), cards.slice(5, 10), cards.slice(10, 13)];
            return el(
              "fieldset",
              { class: "arrangement" },
              el("legend", {}, names[p]),
              words.rows.map((row, j) =>
                el(
                  "label",
                  {},
                  el("span", {}, row),
                  el("input", {
                    data: { key: "arrangements", seat: p, row: j },
                    value: rows[j].join(" "),
                    autocapitalize: "characters",
                    spellcheck: "false",
                    "aria-label": t("{name}: {row} row", { name: names[p], row }),
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
    span.textContent = t("({sum} of {total})", { sum, total: totals[key] });
    span.classList.toggle("ok", sum === totals[key] && values.every((v) => v !== ""));
  }
}

// The tally as the record writes it (blanks as null), and whether every box is filled;
// `table` is the sheet's `tally_table`.
export function readTally(box, keys, n, table) {
  const tally = {};
  let complete = true;
  const num = (input) => (input.value === "" ? null : Number(input.value));
  const seats = [...Array(n).keys()];
  for (const key of keys) {
    const { kind } = table[key];
    if (kind === "count") {
      tally[key] = seats.map((p) => num(box.querySelector(`input[data-key="${key}"][data-seat="${p}"]`)));
      complete &&= tally[key].every((v) => v !== null);
    } else if (kind === "seat") {
      const checked = box.querySelector(`input[data-key="${key}"]:checked`);
      tally[key] = checked ? Number(checked.value) : null;
      complete &&= checked !== null;
    } else if (kind === "order") {
      tally[key] = [...box.querySelectorAll(`select[data-key="order"]`)].map((sel) => (sel.value === "" ? null : Number(sel.value)));
      complete &&= tally[key].every((v) => v !== null);
    } else if (kind === "suits") {
      tally[key] = seats.map((p) => [0, 1, 2, 3].map((j) => num(box.querySelector(`input[data-key="suits"][data-seat="${p}"][data-suit="${j}"]`))));
      complete &&= tally[key].every((row) => row.every((v) => v !== null));
    } else if (kind === "arrangements") {
      tally[key] = seats.map((p) =>
        [0, 1, 2].flatMap((j) => box.querySelector(`input[data-key="arrangements"][data-seat="${p}"][data-row="${j}"]`).value.split(/[\s,;|]+/).filter(Boolean)),
      );
      complete &&= tally[key].every((cards) => cards.length > 0);
    }
  }
  return { tally, complete };
}
