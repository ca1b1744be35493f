// Sequence: the printed board with row and column labels, chips, the hand, and the
// clicks (or keys) that make actions.
import { h, cardLabel, cellName, COLUMNS, isRedSuit, ONE_EYED, refusedClick } from "./dom.js";
import { t } from "./i18n.js";
import { playerList } from "./players.js";

const LAYOUT = await (await fetch("/play/board-layout.json")).json();
const COLORS = { B: "blue", G: "green", R: "red" };
const SHAPES = { blue: "●", green: "▲", red: "■" }; // a shape per team: colour is never the only cue

export function renderSequence(view, ui) {
  const you = view.you;
  const legal = you ? you.legal_actions : [];
  const chosen = ui.selected?.card;
  const targets = new Map(
    legal.filter((a) => a.type === "play" && a.card === chosen).map((a) => [a.cell.join(","), a]));
  const inSequence = new Set(view.sequences.flat().map((cell) => cell.join(",")));
  const last = [...ui.log].reverse().find((e) => e.type === "play" && e.cell);
  const lastCell = last ? last.cell.join(",") : null;
  const fresh = last && last.version > ui.shownVersion;

  const cells = [h("span", { class: "axis", "aria-hidden": "true" }),
    ...[...COLUMNS].map((c) => h("span", { class: "axis", "aria-hidden": "true" }, c))];
  for (let r = 0; r < 10; r++) {
    cells.push(h("span", { class: "axis", "aria-hidden": "true" }, String(r + 1)));
    for (let c = 0; c < 10; c++) {
      const key = `${r},${c}`;
      const printed = LAYOUT[r][c];
      const color = COLORS[view.board[r][c]];
      const target = targets.get(key);
      const corner = printed === "XX";
      const what = corner ? t("corner") : cardLabel(printed);
      const chip = color ? `, ${t("chip_on", { color: t(color) })}` : "";
      const isLast = key === lastCell;
      cells.push(h("button", {
        class: ["cell", corner && "corner", target && "target", inSequence.has(key) && "in-sequence",
          isLast && "last", isLast && fresh && "fresh", isRedSuit(printed) && "red-suit"].filter(Boolean).join(" "),
        "data-cell": key, "data-chip": color, "aria-label": `${cellName([r, c])}: ${what}${chip}`,
        "aria-disabled": target ? "false" : "true", tabindex: target ? "0" : "-1",
        onclick: () => (target ? ui.act(target) : ui.page.say(refusedClick(view, chosen))),
      }, h("span", { class: "printed" }, corner ? "★" : cardLabel(printed)),
      color ? h("span", { class: `chip chip-${color}`, "aria-hidden": "true" }, SHAPES[color]) : null));
    }
  }

  const exchanges = new Map(legal.filter((a) => a.type === "exchange").map((a) => [a.card, a]));
  const hand = you ? you.hand.map((card, index) => {
    const picked = ui.selected?.from === "hand" && ui.selected.index === index;
    const dead = exchanges.has(card);
    return h("button", {
      class: ["card", isRedSuit(card) && "red-suit", picked && "selected", dead && "dead"].filter(Boolean).join(" "),
      "data-card": card, "aria-pressed": picked ? "true" : "false",
      "aria-label": `${cardLabel(card)}${dead ? ` (${t("dead")})` : ""}`,
      onclick: () => ui.select(card, "hand", index),
    }, cardLabel(card), dead ? h("small", {}, ` ${t("dead")}`) : null);
  }) : [];
  const pass = legal.find((a) => a.type === "pass");
  const exchange = chosen && exchanges.get(chosen);

  return h("div", { class: "sequence" },
    playerList(view, (p) => [h("span", { class: `chip chip-${p.color}`, "aria-hidden": "true" }, SHAPES[p.color]),
      ` ${t("team_of", { color: t(p.color) })}`]),
    h("p", { class: "facts" }, t("sequence_facts", { n: view.options.sequences_to_win, cards: view.draw_pile_count })),
    h("div", { class: "board", role: "group", "aria-label": t("board") }, ...cells),
    you && view.status === "active" ? h("section", { class: "hand", "aria-label": t("your_hand") }, h("h2", {}, t("your_hand")),
      h("div", { class: "cards" }, ...hand),
      h("div", { class: "buttons" },
        exchange ? h("button", { "data-action": "exchange", onclick: () => ui.act(exchange) }, t("trade_dead", { card: cardLabel(chosen) })) : null,
        pass ? h("button", { "data-action": "pass", onclick: () => ui.act(pass) }, t("pass")) : null),
      chosen && ONE_EYED.includes(chosen) && !targets.size ? h("p", { class: "hint", "data-why-not": "" }, t("why_no_remove")) : null,
      h("p", { class: "hint", "data-jacks": "" }, t("jacks_note"))) : null);
}
