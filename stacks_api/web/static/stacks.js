// Sequence Stacks: piles, every player's discard top and chips, the hand, the block window.
import { h, cardLabel } from "./dom.js";

const PILE_COLORS = ["blue", "blue", "red", "red"];

export function renderStacks(view, ui) {
  const you = view.you;
  const legal = you ? you.legal_actions : [];
  const sel = ui.selected; // {card, from, target?}
  const mine = legal.filter((a) => a.type === "play" && sel && a.card === sel.card && (a.from || "hand") === sel.from);
  const onPile = new Map(mine.filter((a) => a.pile !== undefined).map((a) => [a.pile, a]));
  const onSeat = new Map();
  for (const a of mine.filter((x) => x.target !== undefined)) {
    onSeat.set(a.target, [...(onSeat.get(a.target) || []), a]);
  }
  const discard = sel && sel.from === "hand" && legal.find((a) => a.type === "discard" && a.card === sel.card);

  const clickCard = (card, from) => {
    const simple = legal.find((a) => a.type === "play" && a.card === card && (a.from || "hand") === from
      && a.pile === undefined && a.target === undefined && card !== "BLOCK");
    if (simple && (card === "SKIP" || card === "REVERSE")) return ui.act(simple);
    ui.select(card, from);
  };
  const clickSeat = (seat) => {
    const options = onSeat.get(seat);
    if (!options) return;
    if (options.length === 1) return ui.act(options[0]);
    ui.selected = { ...sel, target: seat };
    ui.render();
  };

  const piles = view.piles.map((pile, p) => {
    const target = onPile.get(p);
    return h("button", {
      class: `pile pile-${PILE_COLORS[p]}${target ? " target" : ""}`, "data-pile": p,
      "aria-label": `pile ${p}, ${PILE_COLORS[p]}: ${pile.length ? `${pile.length} cards, top ${cardLabel(pile.at(-1))}` : "empty"}`,
      "aria-disabled": target ? "false" : "true", onclick: () => target && ui.act(target),
    }, h("span", { class: "pile-top" }, pile.length ? cardLabel(pile.at(-1)) : "empty"),
    h("small", {}, `${pile.length}/5 ${PILE_COLORS[p]}`));
  });

  const seats = view.players.map((p) => {
    const isMe = you && you.seat === p.seat;
    const top = p.discard_top;
    const ownTopPlayable = isMe && top && legal.some((a) => a.type === "play" && a.from === "discard");
    const discardAction = isMe && discard;
    return h("li", { class: `seat${view.to_move.includes(p.seat) ? " to-move" : ""}` },
      h("button", {
        class: `seat-button${onSeat.has(p.seat) ? " target" : ""}`, "data-seat": p.seat,
        "aria-label": `${p.name || `Seat ${p.seat}`}: ${p.chips.blue} blue and ${p.chips.red} red chips, ${p.hand_size} cards`,
        onclick: () => clickSeat(p.seat),
      }, `${p.name || `Seat ${p.seat}`}${p.bot ? " (bot)" : ""}${isMe ? " (you)" : ""}`,
      h("span", { class: "chips" }, h("span", { class: "chip-blue-count" }, `● ${p.chips.blue}`), " ",
        h("span", { class: "chip-red-count" }, `■ ${p.chips.red}`)),
      h("small", {}, ` ${p.hand_size} cards${p.skips ? ` · ${p.skips} skip` : ""}`)),
      h("button", {
        class: `discard${discardAction ? " target" : ""}${sel && sel.from === "discard" && isMe ? " selected" : ""}`,
        "data-discard": p.seat,
        "aria-label": `${isMe ? "your" : `seat ${p.seat}'s`} discard pile: ${top ? cardLabel(top) : "empty"}`,
        onclick: () => {
          if (discardAction) return ui.act(discardAction);
          if (ownTopPlayable) clickCard(top, "discard");
        },
      }, top ? cardLabel(top) : "—"));
  });

  const hand = you ? you.hand.map((card) => h("button", {
    class: `card card-${card[0] === "B" && card.length === 2 ? "blue" : card[0] === "R" && card.length === 2 ? "red" : "action"}${sel && sel.from === "hand" && sel.card === card ? " selected" : ""}`,
    "data-card": card, "aria-pressed": sel && sel.from === "hand" && sel.card === card ? "true" : "false",
    onclick: () => clickCard(card, "hand"),
  }, cardLabel(card))) : [];

  const colours = sel && sel.target !== undefined
    ? (onSeat.get(sel.target) || []).map((a) => h("button", { "data-color": a.color, onclick: () => ui.act(a) }, `Take a ${a.color} chip`))
    : [];
  const pass = legal.find((a) => a.type === "pass");
  const block = legal.find((a) => a.type === "play" && a.card === "BLOCK");
  const window = view.block_window;
  const prompt = window && you && view.to_move.includes(you.seat)
    ? h("div", { class: "block-prompt", role: "alertdialog", "aria-label": "Block window" },
      h("p", {}, `${view.players[window.completer].name || `Seat ${window.completer}`} completed pile ${window.pile}. Block the chip?`),
      window.deadline ? h("p", { class: "countdown", "data-deadline": window.deadline }, countdown(window.deadline)) : null,
      block ? h("button", { "data-action": "block", class: "primary", onclick: () => ui.act(block) }, "Block") : h("p", {}, "You hold no Block."),
      pass ? h("button", { "data-action": "pass", onclick: () => ui.act(pass) }, "Pass") : null)
    : null;
  if (prompt && window.deadline) tick(prompt);

  return h("div", { class: "stacks" },
    h("p", { class: "facts" }, `Direction: ${view.direction === 1 ? "up the seats ↻" : "down the seats ↺"} · Draw pile: ${view.draw_pile_count} · Set aside: ${view.set_aside_count} · Chips left: ${view.supply.blue} blue, ${view.supply.red} red`),
    prompt,
    h("div", { class: "piles", "aria-label": "Sequence piles" }, ...piles),
    h("ul", { class: "players", "aria-label": "Players" }, ...seats),
    you ? h("section", { class: "hand", "aria-label": "Your hand" }, h("h2", {}, "Your hand"),
      h("div", { class: "cards" }, ...hand),
      h("div", { class: "buttons" }, ...colours,
        !window && pass ? h("button", { "data-action": "pass", onclick: () => ui.act(pass) }, "Pass (end your turn)") : null),
      h("p", { class: "hint" }, hint(sel, discard))) : null);
}

function hint(sel, discard) {
  if (!sel) return "Pick a card (or the top of your discard pile), then where it goes. Click your discard pile with a card picked to end your turn.";
  if (sel.target !== undefined) return "Pick the colour to steal.";
  return discard ? "Now a highlighted pile or seat — or your own discard pile to discard it." : "Now a highlighted pile or seat.";
}

function countdown(deadline) {
  return `${Math.max(0, Math.ceil(deadline - Date.now() / 1000))} s left`;
}

function tick(prompt) {
  const timer = setInterval(() => {
    const box = prompt.querySelector(".countdown");
    if (!box || !box.isConnected) return clearInterval(timer);
    box.textContent = countdown(Number(box.dataset.deadline));
  }, 500);
}
