// A rule set's settings in a form: the player count where it varies and the house rules
// (every flag of RULES.md §6 that applies to it), as /api/rules lists them. Shared by the
// lobby (a new table) and the score sheets page (a new sheet). Each flag is shown with its meaning
// in words (`help`, in the page's language, from /api/rules) and its name in small type.
import { el } from "./dom.js";
import { t } from "./i18n.js";

// The player count chosen in `countSelect` (or the rule set's only count).
export function playerCount(rs, countSelect) {
  return rs.players.length > 1 ? Number(countSelect.value) : rs.players[0];
}

// Fill `countSelect` with the rule set's player counts and show it only where there is a choice.
export function renderCounts(rs, countSelect, countLabel) {
  countLabel.classList.toggle("hidden", rs.players.length < 2);
  countSelect.replaceChildren(...rs.players.map((n) => el("option", {}, n)));
}

// One input per flag of the rule set into `box`; ids are `${prefix}${flag}`.
export function renderFlags(rs, box, prefix = "flag-") {
  box.replaceChildren();
  for (const f of rs.flags) {
    const id = `${prefix}${f.name}`;
    const label = f.help || f.name.replace(/_/g, " ");
    const words = f.choice_help || {};
    let input;
    if (f.kind === "bool") {
      input = el("input", { type: "checkbox", id, checked: !!f.default });
    } else if (f.kind === "choice") {
      input = el("select", { id }, f.choices.map((c) => el("option", { value: c, selected: c === f.default }, words[c] || c)));
    } else if (f.kind === "int") {
      input = el("input", { type: "number", id, value: f.default, class: "int-flag" });
    } else {
      input = el("input", { id, value: f.default.join(", "), size: 14 });
    }
    const hint = f.kind === "list" ? ` ${t("(numbers separated by commas)")}` : "";
    box.appendChild(el("label", { class: "flag" }, input, el("span", {}, label + hint, " ", el("code", { class: "flag-name muted small" }, f.name))));
  }
}

// The options that differ from the rule set's defaults (and the player count where it varies).
export function chosenOptions(rs, count, prefix = "flag-") {
  const options = {};
  if (rs.players.length > 1) options.player_count = count;
  for (const f of rs.flags) {
    const el = document.getElementById(`${prefix}${f.name}`);
    let v;
    if (f.kind === "bool") v = el.checked;
    else if (f.kind === "choice") v = el.value;
    else if (f.kind === "int") v = Number(el.value);
    else v = el.value.split(/[,\s]+/).filter(Boolean).map(Number);
    if (JSON.stringify(v) !== JSON.stringify(f.default)) options[f.name] = v;
  }
  return options;
}
