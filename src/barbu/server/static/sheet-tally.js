// The tally inputs of a deal, one kind per tally key of RECORD.md: a number per player
// ("count"), a choice of player ("seat"), the domino's finishing order ("order"), cards per
// suit ("suits") and Chinese-poker rows ("arrangements"). Which keys a contract needs, each
// key's kind and label, and what the counts add up to, are the server's answer (the sheet's
// `tally_table`, read from the core's table of tally keys).
import { esc, ordinal, SUIT_SIGN } from "./sheetkit.js";

const SUIT_NAMES = ["spades", "hearts", "diamonds", "clubs"];
const cap = (text) => text.charAt(0).toUpperCase() + text.slice(1);

const shown = (v) => (v === null || v === undefined ? "" : v);

// The inputs for `keys`, filled from `tally` (as the record writes it; blanks as null);
// `table` is the sheet's `tally_table`: each key's kind, label and total.
export function tallyHtml(keys, names, table, tally) {
  const n = names.length;
  let html = "";
  for (const key of keys) {
    const value = tally[key];
    const { kind, total } = table[key];
    const label = esc(cap(table[key].label));
    if (kind === "count") {
      html += `<div class="tally-key" data-key="${key}"><div class="key-label" id="k-${key}">${label} <span class="sum" data-sum="${key}"></span></div><div class="counts" role="group" aria-labelledby="k-${key}">`;
      for (let p = 0; p < n; p++) {
        const v = value ? shown(value[p]) : "";
        html += `<label><span>${esc(names[p])}</span><input type="number" inputmode="numeric" min="0" max="${total}" data-key="${key}" data-seat="${p}" value="${v}" aria-label="${label}: ${esc(names[p])}"></label>`;
      }
      html += `</div></div>`;
    } else if (kind === "seat") {
      html += `<div class="tally-key" data-key="${key}"><div class="key-label" id="k-${key}">${label}</div><div class="chips" role="radiogroup" aria-labelledby="k-${key}">`;
      for (let p = 0; p < n; p++) {
        html += `<label class="chip"><input type="radio" name="t-${key}" value="${p}" data-key="${key}" ${value === p ? "checked" : ""}><span>${esc(names[p])}</span></label>`;
      }
      html += `</div></div>`;
    } else if (kind === "order") {
      html += `<div class="tally-key" data-key="order"><div class="key-label" id="k-order">${label}</div><div class="order" role="group" aria-labelledby="k-order">`;
      for (let i = 0; i < n; i++) {
        const v = value ? String(shown(value[i])) : "";
        html += `<label><span>${ordinal(i + 1)}</span><select data-key="order" data-pos="${i}" aria-label="${ordinal(i + 1)} out"><option value="">—</option>`;
        html += names.map((name, p) => `<option value="${p}" ${v === String(p) ? "selected" : ""}>${esc(name)}</option>`).join("");
        html += `</select></label>`;
      }
      html += `</div></div>`;
    } else if (kind === "suits") {
      html += `<div class="tally-key" data-key="suits"><div class="key-label">${label} <span class="muted small">(each suit: ${total.join(", ")})</span></div><table class="suits"><thead><tr><th></th>`;
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
    } else if (kind === "arrangements") {
      html += `<div class="tally-key" data-key="arrangements"><div class="key-label">${label} <span class="muted small">(e.g. AS KH TD 9C 2S)</span></div>`;
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
