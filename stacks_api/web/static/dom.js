// Small helpers for building the page: h("button", {class: "x", onclick}, "label", child),
// card and board-space names in the player's language.
import { t } from "./i18n.js";

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const ACTION_CARDS = ["SKIP", "REVERSE", "STEAL_CARD", "STEAL_CHIP", "BLOCK"];
export const ONE_EYED = ["JS", "JH"]; // Sequence's jacks that take a chip away

// "TH" -> "10♥"; Stacks codes ("B3", "BW", "SKIP") -> "Blue 3", "Blue wild", "Skip".
export function cardLabel(code) {
  if (ACTION_CARDS.includes(code)) return t(`card_${code}`);
  if (/^[BR][1-5W]$/.test(code)) {
    const colour = code[0] === "B" ? "card_blue" : "card_red";
    return code[1] === "W" ? t(`${colour}_wild`) : t(colour, { n: code[1] }); // "Joker roșu", not "Roșu joker"
  }
  const rank = code[0] === "T" ? "10" : code[0];
  return `${rank}${SUITS[code[1]] || ""}`;
}

export function isRedSuit(code) {
  return /^[2-9TJQKA][HD]$/.test(code);
}

// The board's columns are lettered A-J from the left, its rows numbered 1-10 from the top.
export const COLUMNS = "ABCDEFGHIJ";
export function cellName([row, col]) {
  return `${COLUMNS[col]}${row + 1}`;
}

// Seats, piles and everything counted are shown from 1.
export function shown(index) {
  return index + 1;
}

// What a click on a place that takes nothing says: why nothing happened (nothing
// to a spectator, or once the game is over).
export function refusedClick(view, chosen) {
  if (!view.you || view.status !== "active") return "";
  if (!view.you.legal_actions.length) return t("wait_your_turn");
  return chosen ? t("not_a_target", { card: cardLabel(chosen) }) : t("pick_card_first");
}

// Time left in words a glance reads: "2 d 3 h", "5 h 20 min", "4:05".
export function timeLeft(seconds) {
  const left = Math.max(0, Math.round(seconds));
  if (left >= 86400) return t("time_days", { d: Math.floor(left / 86400), h: Math.floor(left % 86400 / 3600) });
  if (left >= 3600) return t("time_hours", { h: Math.floor(left / 3600), m: Math.floor(left % 3600 / 60) });
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}
