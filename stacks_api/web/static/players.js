// The players around the table: names, whose turn it is, away and left, and each
// variant's own facts about a seat.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seatName } from "./history.js";

// What a seat is beside its name: a bot, yours, away, gone, resigned.
export function seatMarks(view, p) {
  return [p.bot && !p.left && !p.resigned ? t("bot") : null, p.bot_account ? t("bot_badge") : null, view.you && view.you.seat === p.seat ? t("you_mark") : null,
    p.away ? t("away") : null, p.left ? t("gone") : null, p.resigned ? t("resigned_mark") : null].filter(Boolean);
}

export function playerList(view, facts) {
  return h("ul", { class: "players", "aria-label": t("players") }, ...view.players.map((p) => {
    const moving = view.status === "active" && view.to_move.includes(p.seat);
    const mine = view.you && view.you.seat === p.seat;
    const marks = seatMarks(view, p);
    return h("li", {
      "data-seat": p.seat, class: [moving && "to-move", mine && "mine", (p.away || p.left || p.resigned) && "absent"].filter(Boolean).join(" "),
      "aria-current": moving ? "true" : null,
    }, moving ? h("span", { class: "turn-arrow", "aria-hidden": "true" }, "▶ ") : null,
    presenceDot(p), h("strong", {}, seatName(view, p.seat)), marks.length ? ` (${marks.join(", ")})` : "",
    vacationNote(p), " · ", ...facts(p), ` · ${t(p.hand_size === 1 ? "cards_one" : "cards_n", { n: p.hand_size })}`);
  }));
}

// Whether a person is here: a coloured dot with its word beside it for screen readers
// (and in a tooltip); the words are on the table's absence line too.
export function presenceDot(p) {
  if (!p.presence) return null;
  return h("span", { class: `presence ${p.presence}`, "data-presence": p.presence, title: t(`presence_${p.presence}`) },
    "● ", h("span", { class: "visually-hidden" }, `${t(`presence_${p.presence}`)} `));
}

// A days game's vacation bank, with how it works (a click opens it: a phone shows no tooltips).
export function vacationNote(p) {
  if (p.vacation_days_left === null || p.vacation_days_left === undefined) return "";
  return h("details", { class: "vacation", "data-vacation": p.vacation_days_left },
    h("summary", {}, t("vacation_left", { n: p.vacation_days_left })), h("small", {}, t("vacation_explained")));
}
