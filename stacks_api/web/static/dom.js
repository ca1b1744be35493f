// A small helper to build DOM: h("button", {class: "x", onclick}, "label", child).
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

export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

// "TH" -> "10♥"; Stacks codes ("B3", "SKIP") -> a readable label.
export function cardLabel(code) {
  if (code in STACKS_NAMES) return STACKS_NAMES[code];
  if (/^[BR][1-5W]$/.test(code)) return `${code[0] === "B" ? "Blue" : "Red"} ${code[1] === "W" ? "wild" : code[1]}`;
  const rank = code[0] === "T" ? "10" : code[0];
  return `${rank}${SUITS[code[1]] || ""}`;
}

const STACKS_NAMES = {
  SKIP: "Skip", REVERSE: "Reverse", STEAL_CARD: "Steal a Card", STEAL_CHIP: "Steal a Chip",
  BLOCK: "Block",
};
