// The tally inputs of a deal, one kind per tally key of RECORD.md: a number per player
// (tricks, hearts, queens, jacks and kings), a choice of player (who took A♥ or K♥, who won
// a trick), the domino's finishing order, cards per suit (Ravage City) and Chinese-poker
// rows. Which keys a contract needs, and what the counts add up to, is the server's answer.
import { esc, ordinal, SUIT_SIGN } from "./sheetkit.js";

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

// The inputs for `keys`, filled from `tally` (as the record writes it; blanks as null).
export function tallyHtml(keys, names, totals, tally) {
  const n = names.length;
  let html = "";
  for (const key of keys) {
    const value = tally[key];
    if (key in COUNT_KEYS) {
      html += `<div class="tally-key" data-key="${key}"><div class="key-label" id="k-${key}">${COUNT_KEYS[key]} <span class="sum" data-sum="${key}"></span></div><div class="counts" role="group" aria-labelledby="k-${key}">`;
      for (let p = 0; p < n; p++) {
        const v = value ? shown(value[p]) : "";
        html += `<label><span>${esc(names[p])}</span><input type="number" inputmode="numeric" min="0" max="${totals[key]}" data-key="${key}" data-seat="${p}" value="${v}" aria-label="${COUNT_KEYS[key]}: ${esc(names[p])}"></label>`;
      }
      html += `</div></div>`;
    } else if (SEAT_KEYS.includes(key)) {
      html += `<div class="tally-key" data-key="${key}"><div class="key-label" id="k-${key}">${seatLabel(key, totals.tricks)}</div><div class="chips" role="radiogroup" aria-labelledby="k-${key}">`;
      for (let p = 0; p < n; p++) {
        html += `<label class="chip"><input type="radio" name="t-${key}" value="${p}" data-key="${key}" ${value === p ? "checked" : ""}><span>${esc(names[p])}</span></label>`;
      }
      html += `</div></div>`;
    } else if (key === "order") {
      html += `<div class="tally-key" data-key="order"><div class="key-label" id="k-order">Finishing order (first out first)</div><div class="order" role="group" aria-labelledby="k-order">`;
      for (let i = 0; i < n; i++) {
        const v = value ? String(shown(value[i])) : "";
        html += `<label><span>${ordinal(i + 1)}</span><select data-key="order" data-pos="${i}" aria-label="${ordinal(i + 1)} out"><option value="">—</option>`;
        html += names.map((name, p) => `<option value="${p}" ${v === String(p) ? "selected" : ""}>${esc(name)}</option>`).join("");
        html += `</select></label>`;
      }
      html += `</div></div>`;
    } else if (key === "suits") {
      html += `<div class="tally-key" data-key="suits"><div class="key-label">Cards taken per suit <span class="muted small">(each suit: ${totals.suits.join(", ")})</span></div><table class="suits"><thead><tr><th></th>`;
      html += ["S", "H", "D", "C"].map((x) => `<th class="${x === "H" || x === "D" ? "red" : ""}">${SUIT_SIGN[x]}</th>`).join("") + `</tr></thead><tbody>`;
      for (let p = 0; p < n; p++) {
        html += `<tr><th scope="row">${esc(names[p])}</th>`;
        for (let j = 0; j < 4; j++) {
          const v = value && value[p] ? shown(value[p][j]) : "";
          html += `<td><input type="number" inputmode="numeric" min="0" data-key="suits" data-seat="${p}" data-suit="${j}" value="${v}" aria-label="${esc(names[p])}: ${SUIT_NAMES[j]} taken"></td>`;
        }
        html += `</tr>`;
      }
      html += `</tbody></table></div>`;
    } else if (key === "arrangements") {
      html += `<div class="tally-key" data-key="arrangements"><div class="key-label">Each player's 13 cards: back 5, middle 5, front 3 <span class="muted small">(e.g. AS KH TD 9C 2S)</span></div>`;
      for (let p = 0; p < n; p++) {
        const cards = value && value[p] ? value[p] : [];
        const rows = [cards.slice(0, 5), cards.slice(5, 10), cards.slice(10, 13)];
        html += `<fieldset class="arrangement"><legend>${esc(names[p])}</legend>`;
        ["back", "middle", "front"].forEach((row, j) => {
          html += `<label><span>${row}</span><input data-key="arrangements" data-seat="${p}" data-row="${j}" value="${esc(rows[j].join(" "))}" autocapitalize="characters" spellcheck="false" aria-label="${esc(names[p])}: ${row} row"></label>`;
        });
        html += `</fieldset>`;
      }
      html += `</div>`;
    }
  }
  return html;
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
