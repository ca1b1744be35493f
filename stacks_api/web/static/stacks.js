// Sequence Stacks: piles, every player's discard top and chips, the hand, the block window.
import { h, cardLabel, refusedClick, shown } from "./dom.js";
import { t } from "./i18n.js";
import { seatName } from "./history.js";
import { presenceDot, seatMarks, vacationNote } from "./players.js";

const PILE_COLORS = ["blue", "blue", "red", "red"];

function cardClass(card) {
  if (/^B[1-5W]$/.test(card)) return "card-blue";
  if (/^R[1-5W]$/.test(card)) return "card-red";
  return "card-action";
}

export function renderStacks(view, ui) {
  const you = view.you;
  const active = view.status === "active";
  const legal = you && active ? you.legal_actions : [];
  const sel = ui.selected; // {card, from, index, target?}
  const mine = legal.filter((a) => a.type === "play" && sel && a.card === sel.card && (a.from || "hand") === sel.from);
  const onPile = new Map(mine.filter((a) => a.pile !== undefined).map((a) => [a.pile, a]));
  const onSeat = new Map();
  for (const a of mine.filter((x) => x.target !== undefined)) {
    onSeat.set(a.target, [...(onSeat.get(a.target) || []), a]);
  }
  const discard = sel && sel.from === "hand" && legal.find((a) => a.type === "discard" && a.card === sel.card);
  const window = view.block_window;

  // A card that is played as it is (Skip, Reverse) may also be discarded (RULES.md):
  // picking it offers both, as buttons, and does nothing by itself.
  const simple = sel && sel.target === undefined && legal.find((a) => a.type === "play" && a.card === sel.card
    && (a.from || "hand") === sel.from && a.pile === undefined && a.target === undefined && sel.card !== "BLOCK");
  const refused = () => ui.page.say(refusedClick(view, sel?.card));
  const clickSeat = (seat) => {
    const options = onSeat.get(seat);
    if (!options) return sel ? refused() : undefined;
    if (options.length === 1) return ui.act(options[0]);
    ui.selected = { ...sel, target: seat };
    ui.render();
  };

  const piles = view.piles.map((pile, p) => {
    const target = onPile.get(p);
    const top = pile.length ? cardLabel(pile.at(-1)) : t("empty");
    const state = pile.length ? t("pile_state", { n: pile.length, card: top }) : t("empty");
    const fresh = ui.changedPiles.has(p);
    return h("button", {
      class: ["pile", `pile-${PILE_COLORS[p]}`, target && "target", fresh && "fresh"].filter(Boolean).join(" "),
      "data-pile": p, "aria-label": t("pile_label", { pile: shown(p), color: t(PILE_COLORS[p]), state }),
      "aria-disabled": target ? "false" : "true", tabindex: target ? "0" : "-1",
      onclick: () => (target ? ui.act(target) : refused()),
    }, h("small", {}, t("pile_n", { pile: shown(p) })), h("span", { class: "pile-top" }, top),
    h("span", { class: "pile-count", "aria-hidden": "true" }, `${pile.length}/5`));
  });

  const seats = view.players.map((p) => {
    const isMe = you && you.seat === p.seat;
    const top = p.discard_top;
    const ownTopPlayable = isMe && top && legal.some((a) => a.type === "play" && a.from === "discard");
    const discardAction = isMe && discard;
    const moving = active && view.to_move.includes(p.seat);
    const name = seatName(view, p.seat);
    const marks = seatMarks(view, p);
    const topLabel = top ? cardLabel(top) : t("empty");
    return h("li", { class: ["seat", moving && "to-move", isMe && "mine"].filter(Boolean).join(" "), "aria-current": moving ? "true" : null },
      h("button", {
        class: `seat-button${onSeat.has(p.seat) ? " target" : ""}`, "data-seat": p.seat,
        "aria-label": t("seat_label", { name, blue: p.chips.blue, red: p.chips.red, cards: p.hand_size }),
        onclick: () => clickSeat(p.seat),
      }, h("strong", {}, moving ? "▶ " : "", presenceDot(p), name), marks.length ? h("small", {}, marks.join(", ")) : null,
      h("span", { class: "chips" }, h("span", { class: "chip-blue-count" }, `● ${p.chips.blue}`), " ",
        h("span", { class: "chip-red-count" }, `■ ${p.chips.red}`)),
      h("small", {}, `${t("cards_n", { n: p.hand_size })}${p.skips ? ` · ${t("skips_n", { n: p.skips })}` : ""}`)),
      vacationNote(p),
      h("span", { class: "discard-box" }, h("small", { class: "discard-caption", "aria-hidden": "true" }, t(isMe ? "your_discards" : "discards")),
      h("button", {
        class: ["discard", discardAction && "target", sel && sel.from === "discard" && isMe && "selected"].filter(Boolean).join(" "),
        "data-discard": p.seat,
        "aria-label": isMe ? t("your_discard_label", { card: topLabel }) : t("discard_label", { name, card: topLabel }),
        onclick: () => {
          if (discardAction) return ui.act(discardAction);
          if (ownTopPlayable) ui.select(top, "discard", 0);
        },
      }, top ? cardLabel(top) : "—")));
  });

  const hand = you && active ? you.hand.map((card, index) => {
    const picked = sel && sel.from === "hand" && sel.index === index;
    return h("button", {
      class: ["card", cardClass(card), picked && "selected"].filter(Boolean).join(" "),
      "data-card": card, "aria-pressed": picked ? "true" : "false",
      onclick: () => ui.select(card, "hand", index),
    }, cardLabel(card));
  }) : [];

  const colours = sel && sel.target !== undefined
    ? (onSeat.get(sel.target) || []).map((a) => h("button", { "data-color": a.color, onclick: () => ui.act(a) }, t("take_chip", { color: t(a.color) })))
    : [];
  const pass = legal.find((a) => a.type === "pass");
  const block = legal.find((a) => a.type === "play" && a.card === "BLOCK");
  const asked = window && you && view.to_move.includes(you.seat);
  // A seat that holds no Block is not asked: the client passes for it (app.js).
  const prompt = asked && (block || ui.askEveryWindow)
    ? h("div", { class: "block-prompt", role: "alertdialog", "aria-label": t("block_window") },
      h("p", {}, t("block_question", { name: seatName(view, window.completer), pile: shown(window.pile) })),
      block ? h("button", { "data-action": "block", class: "primary", onclick: () => ui.act(block) }, t("block")) : null,
      pass ? h("button", { "data-action": "pass", onclick: () => ui.act(pass) }, t("pass")) : null)
    : null;
  if (asked && !prompt && pass) ui.passForMe(pass);

  const direction = t(view.direction === 1 ? "direction_up" : "direction_down");
  return h("div", { class: "stacks" },
    h("p", { class: "facts" }, t("stacks_facts", { direction, draw: view.draw_pile_count, aside: view.set_aside_count, blue: view.supply.blue, red: view.supply.red })),
    prompt,
    h("div", { class: "piles", role: "group", "aria-label": t("piles") }, ...piles),
    h("ul", { class: "players", "aria-label": t("players") }, ...seats),
    you && active ? h("section", { class: "hand", "aria-label": t("your_hand") }, h("h2", {}, t("your_hand")),
      h("div", { class: "cards" }, ...hand),
      h("div", { class: "buttons" }, ...colours,
        simple ? h("button", { "data-action": "play-card", class: "primary", onclick: () => ui.act(simple) }, t("play_card", { card: cardLabel(sel.card) })) : null,
        simple && discard ? h("button", { "data-action": "discard", onclick: () => ui.act(discard) }, t("discard_card", { card: cardLabel(sel.card) })) : null,
        !window && pass ? h("button", { "data-action": "pass", onclick: () => ui.act(pass) }, t("pass_end_turn")) : null),
      view.to_move.includes(you.seat) && !window ? h("p", { class: "hint", "data-why-not": mine.length || simple ? null : "" },
        hint(sel, discard, simple, mine.length > 0)) : null) : null);
}

// Unplayable cards say why (discarding them is still open).
const WHY_NOT = { STEAL_CARD: "why_no_steal_card", STEAL_CHIP: "why_no_steal_chip", BLOCK: "why_no_block" };

function hint(sel, discard, simple, playable) {
  if (!sel) return t("hint_pick");
  if (sel.target !== undefined) return t("hint_colour");
  if (simple) return discard ? t("hint_play_or_discard") : "";
  if (!playable) return t(WHY_NOT[sel.card] || "why_no_pile", { card: cardLabel(sel.card) });
  return discard ? t("hint_target_or_discard") : t("hint_target");
}
