// The move history in players' words, rebuilt from the game's public events.
import { t } from "./i18n.js";
import { ONE_EYED, cardLabel, cellName, shown } from "./dom.js";

const TEAM_COLORS = ["blue", "green", "red"];

// The server names a bot's seat "<bot> bot": shown in the player's language.
export const BOT_LEVELS = ["beginner", "easy", "medium", "strong", "random"]; // as the server names them
const LEVELS = { greedy: "medium", pimc: "strong", mcts: "strong" };

export function shownName(player) {
  return botName(player?.name, player?.bot);
}

// A bot's name as the server gives it ("greedy bot", a tournament's "medium bot 3")
// in the player's language; any other name as it is.
export function botName(name, bot) {
  const [, level, n] = /^(\w+) bot(?: (\d+))?$/.exec(name || "") || [];
  if (!level || (bot && bot !== level)) return name;
  const key = `level_${LEVELS[level] || level}`;
  const words = t(key);
  if (words === key) return name; // not a level this client knows
  return n ? `${words} ${n}` : words;
}

// A seat's name; two seats of one name (two greedy bots) get their seat numbers.
export function seatName(view, seat) {
  const name = shownName(view.players[seat]);
  if (!name) return t("seat_n", { seat: shown(seat) });
  return view.players.some((p) => p.seat !== seat && shownName(p) === name) ? `${name} ${shown(seat)}` : name;
}

export function teamColor(view, team) {
  const player = view.players.find((p) => p.team === team);
  return t(player?.color || TEAM_COLORS[team]);
}

// Each event told in a line ({version, text}), or left out when it says nothing a
// player needs (a card drawn, the turn passing on, an answer in a block window).
// A seat whose person is away or has left is played by the server's stand-in: its
// moves are told as the stand-in's, not as the person's.
export function tell(events, view) {
  const completer = {}; // pile -> the seat that completed it, for "blocked X's chip"
  const standIn = new Set(); // seats the stand-in plays now
  const lines = [];
  for (const event of events) {
    if (event.type === "complete") completer[event.pile] = event.seat;
    const text = line(event, view, completer, standIn.has(event.seat) && STAND_IN_MOVES.includes(event.type));
    if (text) lines.push({ version: event.version, text });
    if (["away", "left"].includes(event.type)) standIn.add(event.seat);
    if (event.type === "back") standIn.delete(event.seat);
  }
  return lines;
}

const STAND_IN_MOVES = ["play", "exchange", "pass", "discard", "complete", "block", "chip"];

function line(event, view, completer, byStandIn = false) {
  const seat = event.seat === undefined ? "" : seatName(view, event.seat);
  const name = byStandIn ? t("stand_in_for", { name: seat }) : seat;
  const names = (seats) => seats.map((s) => seatName(view, s)).join(", ");
  const card = event.card && cardLabel(event.card);
  switch (event.type) {
    case "created": return t("h_created");
    case "joined": return t("h_joined", { name: event.name, seat: shown(event.seat) });
    case "started": return t("h_started");
    case "play": return played(event, view, name, card);
    case "exchange": return t("h_exchange", { name, card });
    case "sequence": return t("h_sequence", { color: teamColor(view, event.team) });
    case "reshuffle": return t(view.variant === "stacks" ? "h_reshuffle_stacks" : "h_reshuffle");
    case "pass": return t("h_pass", { name });
    case "discard": return t("h_discard", { name, card });
    case "complete": return t("h_complete", { name, pile: shown(event.pile) });
    case "block": return t("h_block", { name, completer: seatName(view, completer[event.pile]) });
    case "window_expired": return event.waiting.length ? t("h_expired", { names: names(event.waiting) }) : null;
    case "chip": return t("h_chip", { name, color: t(event.color) });
    case "skipped": return t("h_skipped", { name });
    case "timeout": return event.forfeit ? t("h_forfeit", { name }) : t("h_timeout", { name });
    case "vacation": return t("h_vacation", { name, n: event.days_left });
    case "away": return t("h_away", { name });
    case "back": return t("h_back", { name });
    case "resigned":
      if (event.no_show) return t("h_no_show", { name });
      return event.claimed_by === undefined ? t("h_resigned", { name })
        : t("h_claimed", { name: seatName(view, event.claimed_by), names: names(event.seats) });
    case "left": return event.claimed_by === undefined ? t("h_left", { name })
      : t("h_claimed_bot", { name: seatName(view, event.claimed_by), gone: name });
    case "aborted": return t("h_aborted", { name });
    case "cancel_agreed": return t("h_cancel_agreed", { name });
    case "cancelled": return t("h_cancelled");
    case "game_over": return outcome(view, [event]).headline;
    default: return null;
  }
}

function played(event, view, name, card) {
  if (event.cell) {
    const key = ONE_EYED.includes(event.card) ? "h_remove" : "h_play_cell";
    return t(key, { name, card, cell: cellName(event.cell) });
  }
  let text;
  if (event.pile !== undefined) text = t("h_play_pile", { name, card, pile: shown(event.pile) });
  else if (event.skipped !== undefined) text = t("h_skip", { name, target: seatName(view, event.skipped) });
  else if (event.direction !== undefined) text = t("h_reverse", { name });
  else if (event.stolen) text = t("h_steal_card", { name, card: cardLabel(event.stolen), target: seatName(view, event.target) });
  else if (event.color) text = t("h_steal_chip", { name, color: t(event.color), target: seatName(view, event.target) });
  else text = t("h_play_pile", { name, card, pile: "?" });
  return event.from === "discard" ? t("h_from_discard", { line: text }) : text;
}

// How the game ended, for the banner and the game-over panel: a headline, and why.
// The seats' scores are the server's result: a person who left has lost, even when
// the stand-in won the board for them (then the win went to those still playing).
export function outcome(view, events) {
  const result = view.result;
  if (view.status === "aborted") return { headline: t("aborted_headline"), why: t("why_aborted") };
  if (!result) return { headline: t("cancelled"), why: "" };
  const me = view.you ? view.players[view.you.seat] : null;
  // How the last side gave up: by itself, claimed away by another, or never came.
  const gaveUp = events.filter((e) => e.type === "resigned").at(-1);
  const claimer = gaveUp?.claimed_by === undefined ? null : seatName(view, gaveUp.claimed_by);
  if (me && me.left) return { headline: t("you_left_lost"), why: "" };
  if (me && me.resigned) {
    const mine = events.find((e) => e.type === "resigned" && e.seats?.includes(me.seat));
    if (mine?.no_show) return { headline: t("you_no_show"), why: t("why_no_show") };
    if (mine?.claimed_by !== undefined) return { headline: t("you_were_claimed", { name: seatName(view, mine.claimed_by) }), why: "" };
    return { headline: t("you_resigned_lost"), why: "" };
  }
  const leavers = view.players.filter((p) => p.left).map((p) => seatName(view, p.seat));
  const boardWinnerLeft = "board" in result || view.players.some((p) => p.left && boardWon(result, p));
  const resigners = view.players.filter((p) => p.resigned).map((p) => seatName(view, p.seat));
  const gone = resigners.join(", ");
  const why = result.resigned
    ? (gaveUp?.no_show ? t("why_no_show_of", { names: gone }) : claimer ? t("why_claimed", { name: claimer, names: gone })
      : t("why_resigned", { names: gone }))
    : boardWinnerLeft ? t("why_left", { names: leavers.join(", ") }) : null;
  const winners = view.players.filter((p) => p.score === 1);
  if (!winners.length) {
    return { headline: t("draw"), why: why || t(view.variant === "stacks" ? "why_draw_stacks" : "why_draw_sequence") };
  }
  const teamOfMany = (team) => view.players.filter((p) => p.team === team).length > 1;
  if ("winner_team" in result) {
    const team = winners[0].team;
    const color = teamColor(view, team);
    const made = events.filter((e) => e.type === "sequence" && e.team === team).length;
    const sequences = made > 1 ? t("why_sequence", { color, n: made }) : t("why_sequence_one", { color });
    let headline = t("won_team", { color });
    if (me) {
      const many = teamOfMany(me.team);
      headline = me.score === 1 ? t(many ? "won_your_team" : "won_you") : t(many ? "lost_your_team" : "lost_you", { color });
    }
    return { headline, why: why || sequences };
  }
  const winner = winners[0];
  const name = seatName(view, winner.seat);
  const headline = me ? (me.score === 1 ? t("won_you") : t("lost_seat", { name })) : t("won_seat", { name });
  const chips = winner.chips;
  return { headline, why: why || t("why_stacks", { name, blue: chips.blue, red: chips.red, n: chips.blue + chips.red }) };
}

function boardWon(result, player) {
  return "winner_team" in result ? player.team === result.winner_team : player.seat === result.winner_seat;
}
