// Cards drawn in CSS, the words the pages use for suits and ranks, and the contracts' titles
// as the server gives them.
// Nothing here knows a rule: which card is legal always comes from the server's view.
import { el } from "./dom.js";
import { t, words } from "./i18n.js";

export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_TEXT = { T: "10" };
const RANK_NAMES = {
  2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
  T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
};
const RANK_ORDER = "23456789TJQKA";
const SUIT_ORDER = "SHCD"; // alternating colours in a hand

// Contract titles are the core's, per rule set, as /api/rules serves them.
const TITLES = {};

/** Fetch the contract titles of every rule set (once, before they are shown). */
export async function loadContractTitles() {
  const sets = await fetch("/api/rules").then((r) => r.json());
  for (const rs of sets) TITLES[rs.name] = Object.fromEntries(rs.contracts.map((c) => [c.id, c.title]));
}

/** The title of contract `id` in rule set `variant` (the id until the titles are loaded). */
export function contractName(variant, id) {
  if (!id) return "";
  return (TITLES[variant] && TITLES[variant][id]) || id;
}

export function rankText(rank) {
  return RANK_TEXT[rank] || rank;
}

export function cardLabel(name) {
  return t("{rank} of {suit}", { rank: words.ranks[name[0]] || RANK_NAMES[name[0]], suit: words.suits[name[1]] || SUIT_NAMES[name[1]] });
}

export function isRed(name) {
  const s = name[name.length - 1];
  return s === "H" || s === "D";
}

/** Cards sorted for a hand: by suit (alternating colours), high rank first. */
export function sortHand(names) {
  return [...names].sort((a, b) => {
    const ds = SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]);
    return ds !== 0 ? ds : RANK_ORDER.indexOf(b[0]) - RANK_ORDER.indexOf(a[0]);
  });
}

/**
 * A card face. With `button: true` it is a <button> (focusable, keyboard-playable).
 * `size` is "hand" (default), "small" or "mini".
 */
export function cardEl(name, { button = false, size = "", extra = "" } = {}) {
  const rank = rankText(name[0]);
  const suit = SUITS[name[1]];
  return el(
    button ? "button" : "div",
    { class: `card ${isRed(name) ? "red" : "black"} ${size} ${extra}`.trim(), data: { card: name }, "aria-label": cardLabel(name), role: button ? null : "img" },
    el("span", { class: "idx", "aria-hidden": "true" }, rank, el("br"), suit),
    el("span", { class: "pip", "aria-hidden": "true" }, suit),
  );
}

/** A face-down card. */
export function backEl(size = "mini") {
  return el("div", { class: `card back ${size}`, "aria-hidden": "true" });
}
