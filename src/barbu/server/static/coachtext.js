// The coach's actions in words (analysis board and hint): contracts by their titles, calls with
// the seats named, cards as rank and suit sign. The actions come in the record's notation.
import { t, words } from "./i18n.js";
import { SUITS, contractName, rankText } from "./cards.js";

const CARD = /^[2-9TJQKA][SHDC]$/;

export function cardText(name) {
  return `${rankText(name[0])}${SUITS[name[1]]}`;
}

/** `action` (record notation) of kind contract, trump, rank, call or play, in words. */
export function actionText(action, kind, variant, seatName) {
  if (action === null || action === undefined) return "—";
  if (Array.isArray(action)) return action.map(cardText).join(" ");
  if (kind === "contract") return contractName(variant, action);
  if (action === "pass") return t("pass");
  if (kind === "call") {
    return action.split(", ").map((part) => {
      const [what, ...seats] = part.split(" ");
      const list = seats.map((s) => seatName(Number(s))).join(", ");
      return what === "double" ? t("double {seats}", { seats: list }) : t("redouble {seats}", { seats: list });
    }).join(", ");
  }
  if (kind === "trump" && words.suits[action]) return words.suits[action];
  if (CARD.test(action)) return cardText(action);
  return action;
}
