// Cards drawn in CSS, and the words the pages use for Barbu's contracts, suits and ranks.
// Nothing here knows a rule: which card is legal always comes from the server's view.
import { el } from "./dom.js";

export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_TEXT = { T: "10" };
const RANK_NAMES = {
  2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
  T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
};
const RANK_ORDER = "23456789TJQKA";
const SUIT_ORDER = "SHCD"; // alternating colours in a hand

export const CONTRACT_NAMES = {
  "no-tricks": "No Tricks",
  "no-hearts": "No Hearts",
  "no-queens": "No Queens",
  "no-king": "No King of Hearts",
  "no-last-two": "No Last Two",
  trumps: "Trumps",
  domino: "Domino",
  "ravage-city": "Ravage City",
  "chinese-poker": "Chinese Poker",
  salad: "Salad",
};

export function contractName(id) {
  if (!id) return "";
  return CONTRACT_NAMES[id] || id.replace(/-/g, " ").replace(/^./, (c) => c.toUpperCase());
}

export function rankText(rank) {
  return RANK_TEXT[rank] || rank;
}

export function cardLabel(name) {
  return `${RANK_NAMES[name[0]]} of ${SUIT_NAMES[name[1]]}`;
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
