// Sequence: the printed board with chips, the hand, and clicks that make actions.
import { h, cardLabel } from "./dom.js";

const LAYOUT = await (await fetch("/play/board-layout.json")).json();
const COLORS = { B: "blue", G: "green", R: "red" };
const SHAPES = { blue: "●", green: "▲", red: "■" }; // a shape per team, not colour alone

export function renderSequence(view, ui) {
  const you = view.you;
  const legal = you ? you.legal_actions : [];
  const chosen = ui.selected?.card;
  const targets = new Map(
    legal.filter((a) => a.type === "play" && a.card === chosen).map((a) => [a.cell.join(","), a]));
  const inSequence = new Set(view.sequences.flat().map((cell) => cell.join(",")));
  const last = [...ui.log].reverse().find((e) => e.type === "play" && e.cell);
  const lastCell = last ? last.cell.join(",") : null;

  const cells = [];
  for (let r = 0; r < 10; r++) {
    for (let c = 0; c < 10; c++) {
      const key = `${r},${c}`;
      const printed = LAYOUT[r][c];
      const mark = view.board[r][c];
      const color = COLORS[mark];
      const target = targets.get(key);
      const corner = printed === "XX";
      const label = corner ? "free corner" : `${cardLabel(printed)}${color ? `, ${color} chip` : ""}`;
      cells.push(h("button", {
        class: ["cell", corner && "corner", target && "target", inSequence.has(key) && "in-sequence",
          key === lastCell && "last", /[HD]$/.test(printed) && "red-suit"].filter(Boolean).join(" "),
        "data-cell": key, "data-chip": color, "aria-label": `row ${r + 1}, column ${c + 1}: ${label}`,
        "aria-disabled": target ? "false" : "true",
        onclick: () => target && ui.act(target),
      }, h("span", { class: "printed" }, corner ? "★" : cardLabel(printed)),
      color ? h("span", { class: `chip chip-${color}`, "aria-hidden": "true" }, SHAPES[color]) : null));
    }
  }

  const exchanges = new Map(legal.filter((a) => a.type === "exchange").map((a) => [a.card, a]));
  const hand = you ? you.hand.map((card) => h("button", {
    class: ["card", /[HD]$/.test(card) && "red-suit", chosen === card && "selected",
      exchanges.has(card) && "dead"].filter(Boolean).join(" "),
    "data-card": card, "aria-pressed": chosen === card ? "true" : "false",
    "aria-label": `${cardLabel(card)}${exchanges.has(card) ? " (dead card)" : ""}`,
    onclick: () => ui.select(card),
  }, cardLabel(card), exchanges.has(card) ? h("small", {}, " dead") : null)) : [];
  const pass = legal.find((a) => a.type === "pass");
  const exchange = chosen && exchanges.get(chosen);

  return h("div", { class: "sequence" },
    players(view),
    h("p", { class: "facts" }, `Sequences to win: ${view.options.sequences_to_win} · Cards left: ${view.draw_pile_count}`),
    h("div", { class: "board", role: "grid", "aria-label": "Sequence board" }, ...cells),
    you ? h("section", { class: "hand", "aria-label": "Your hand" }, h("h2", {}, "Your hand"),
      h("div", { class: "cards" }, ...hand),
      h("div", { class: "buttons" },
        exchange ? h("button", { "data-action": "exchange", onclick: () => ui.act(exchange) }, `Trade the dead ${cardLabel(chosen)}`) : null,
        pass ? h("button", { "data-action": "pass", onclick: () => ui.act(pass) }, "Pass") : null)) : null);
}

function players(view) {
  return h("ul", { class: "players", "aria-label": "Players" }, ...view.players.map((p) => h("li", {
    "data-seat": p.seat, class: view.to_move.includes(p.seat) ? "to-move" : "",
  }, h("span", { class: `chip chip-${p.color}`, "aria-hidden": "true" }, SHAPES[p.color]),
  ` ${p.name || `Seat ${p.seat}`}${p.bot ? " (bot)" : ""} · team ${p.color} · ${p.hand_size} cards`)));
}
