// The parts of a game's page around the board: the seat's controls (each asking once
// before it acts), the game-over panel, the fair deal's box and the invitations.
import { h, shown } from "./dom.js";
import { t } from "./i18n.js";
import { outcome, seatName } from "./history.js";
import { challengeButton } from "./challenges.js";
import { dealFor, hostToken } from "./seats.js";
import { ratingChanges } from "./ratings.js";
import { stillClosed } from "./duplicate.js";

export const ASK_EVERY_WINDOW = "stacks:ask-every-window";
export const ENDED = ["finished", "cancelled", "aborted"];

export function controls(view, ui) {
  const stacks = view.variant === "stacks";
  const ask = h("input", { type: "checkbox", id: "ask-every-window", checked: ui.askEveryWindow || null,
    onchange: (event) => {
      ui.askEveryWindow = event.target.checked;
      localStorage.setItem(ASK_EVERY_WINDOW, ui.askEveryWindow ? "yes" : "no");
      ui.render();
    } });
  const agreed = view.cancel_agreed.includes(view.you.seat);
  const me = view.players[view.you.seat];
  if (me.resigned || me.left) return null; // the greedy bot plays the seat now
  const awaySide = view.players.some((p) => sideOf(p) !== sideOf(me)
    && view.players.filter((q) => sideOf(q) === sideOf(p)).every((q) => q.away));
  return h("div", { class: "controls" },
    stacks ? h("label", { for: "ask-every-window", class: "option" }, ask, ` ${t("ask_every_window")}`) : null,
    // Each question says what the button does, in full: a phone shows no tooltips.
    ui.openingOver() || view.tournament || view.duplicate // a compared game is never aborted, nor cancelled
      ? askedTwice(t("resign"), t("resign_confirm"), () => ui.concede("resign"), { class: "quiet", "data-resign": "" })
      : askedTwice(t("abort"), t("abort_confirm"), () => ui.concede("abort"), { class: "quiet", "data-abort": "" }),
    awaySide ? askedTwice(t("claim"), t("claim_confirm"), () => ui.concede("claim"), { class: "quiet", "data-claim": "" }) : null,
    askedTwice(t("leave"), t("leave_confirm"), () => ui.leave(), { class: "leave quiet", "data-leave": "" }),
    agreed || view.tournament || view.duplicate ? null : askedTwice(t("cancel_game"), t("cancel_confirm"), () => ui.cancel(), { class: "quiet", "data-cancel": "" }));
}

const sideOf = (p) => p.team ?? p.seat;

// The person to move, of another side, who is not here: how long they have been
// gone and what can be done about it. In a game with neither clock nor days, a
// claim opens at their ``claimable_at`` (the server's own moment, to the second):
// the line counts down to it and then offers the claim. ``{line, redrawIn}`` (ms:
// when the line would read differently), or null.
export function absenceLine(view, ui) {
  if (view.status !== "active" || !view.you) return null;
  const me = view.players[view.you.seat];
  const mover = view.players[view.to_move[0]];
  if (me.left || me.resigned || !mover || sideOf(mover) === sideOf(me)) return null;
  if (!mover.presence || mover.presence === "online" || mover.left || mover.resigned || mover.away) return null;
  const now = Date.now() / 1000;
  const name = seatName(view, mover.seat);
  // seen_at is rounded to the minute: under a minute reads as "away", not "1 min".
  const minutes = mover.seen_at ? Math.floor((now - mover.seen_at) / 60) : null;
  const words = [minutes === null ? t("absent_unseen", { name })
    : minutes < 1 ? t("absent_now", { name }) : t("absent_for", { name, n: minutes })];
  let buttons = [], redrawIn = 30_000;
  if (mover.claimable_at === null) {
    words.push(t(view.pace ? "absent_days" : "absent_clock"));
  } else if (now < mover.claimable_at) {
    const wait = Math.ceil(mover.claimable_at - now);
    words.push(wait >= 60 ? t("claim_in_min", { n: Math.ceil(wait / 60) }) : t("claim_in_s", { n: wait }));
    redrawIn = Math.min(redrawIn, wait >= 60 ? (wait % 60 || 60) * 1000 : 1000);
  } else {
    words.push(t("claim_now"));
    buttons = [
      askedTwice(t("claim_win"), t("claim_win_confirm", { name }), () => ui.claim("win"), { class: "primary", "data-claim-win": "" }),
      askedTwice(t("claim_bot"), t("claim_bot_confirm", { name }), () => ui.claim("bot"), { class: "quiet", "data-claim-bot": "" })];
  }
  return { redrawIn, line: h("p", { class: "absence", role: "status", "data-absent": mover.seat }, words.join(" "), " ", ...buttons) };
}

// The question a button is asking now (its label): a redraw of the screen (a move
// heard, a view fetched) asks it still, instead of taking it away.
let asking = null;

// A button that asks once before it acts: the first press shows the question and
// a button that confirms it.
export function askedTwice(label, question, act, attrs) {
  const box = h("span", { class: "ask-twice" });
  const ask = () => {
    asking = label;
    box.replaceChildren(h("span", { role: "alert" }, `${question} `),
      h("button", { type: "button", class: "small primary", "data-confirm": "", onclick: () => { asking = null; act(); } }, t("yes")), " ",
      h("button", { type: "button", class: "small quiet", onclick: reset }, t("no")));
  };
  const reset = () => {
    if (asking === label) asking = null;
    box.replaceChildren(h("button", { type: "button", ...attrs, onclick: ask }, label));
  };
  if (asking === label) ask();
  else reset();
  return box;
}

// A new screen asks nothing that the last one was asking.
export function forgetAsked() {
  asking = null;
}

export function gameOver(view, ui) {
  const told = ui.leftSeat === undefined ? outcome(view, ui.log) : { headline: t("you_left_lost"), why: "" };
  const nextRound = ui.tournament?.next; // this player's game of the next round, once paired
  const next = view.tournament // the tournament's page opens the next game by itself
    ? nextRound
      ? h("a", { href: `#game=${nextRound}`, "data-next-round": nextRound, class: "button primary" }, t("next_round_game"))
      : h("a", { href: `#tournament=${view.tournament.id}`, "data-back-to-tournament": "", class: "button primary" }, t("back_to_tournament"))
    : view.rematch
    ? h("a", { href: `#game=${view.rematch}`, "data-next-game": "", class: "button" }, t("next_game"))
    : view.you && view.status === "finished" && !view.players[view.you.seat].left && !view.duplicate
      ? h("button", { type: "button", class: "primary", "data-rematch": "", onclick: () => ui.rematch() }, t("rematch"))
      : null;
  const finished = view.status === "finished";
  // Green for a win, red for a loss (a leave too), grey for a draw or no result.
  const mine = view.you ? view.players[view.you.seat].score : null;
  const mood = mine === 1 ? "won" : mine === 0 || ui.leftSeat !== undefined ? "lost" : mine === 0.5 ? "drawn" : "neutral";
  return h("div", { class: `gameover ${mood}`, role: "status", "data-mood": mood }, h("h2", {}, told.headline),
    told.why ? h("p", { class: "why" }, told.why) : null,
    h("p", {}, next, " ",
      // A duplicate board's replay and record wait until its group has ended.
      finished && !stillClosed(view, ui) ? h("a", { href: `#replay=${view.id}`, class: "button", "data-replay-link": view.id }, t("replay")) : null, " ",
      finished && !stillClosed(view, ui) ? h("a", { href: `/api/v1/games/${view.id}/record`, download: `${view.id}.json`, "data-download": "" }, t("download_record")) : null, " ",
      h("a", { href: "/play" }, t("back_to_lobby"))),
    view.rated ? ratingChanges(view.id) : null,
    againstThem(view, ui));
}

// A finished game's other players with accounts: challenge them to another.
function againstThem(view, ui) {
  const others = view.players.filter((p) => p.player_id && p.seat !== view.you?.seat);
  const buttons = others.map((p) => challengeButton({ id: p.player_id, name: p.name }, view.variant, ui.page.say)).filter(Boolean);
  return buttons.length ? h("p", { class: "challenges" }, ...buttons) : null;
}

// The deal's commitment, shown from the start, and what this browser kept at its
// join; once the game is over, the command that checks it.
export function fairDeal(view) {
  const fair = view.fairness;
  if (!fair || !fair.commitment) return null;
  const kept = dealFor(view.id);
  // A duplicate board's seed is revealed once its whole group has ended, not with it.
  const ended = ENDED.includes(view.status) && Boolean(fair.server_seed);
  const check = ["stacks-api verify", location.origin, view.id, `--commitment ${kept?.commitment || fair.commitment}`,
    kept?.entropy ? `--entropy ${kept.entropy}` : ""].filter(Boolean).join(" ");
  return h("details", { class: "fairness", "data-fairness": "" }, h("summary", {}, t("fair_deal")),
    h("p", {}, `${t("commitment")}: `, h("code", { "data-commitment": fair.commitment }, fair.commitment)),
    kept?.entropy ? h("p", {}, `${t("your_entropy")}: `, h("code", {}, kept.entropy)) : null,
    kept && kept.commitment && kept.commitment !== fair.commitment ? h("p", { class: "warning" }, t("commitment_changed")) : null,
    h("p", { class: "hint" }, ended ? t("verify_now") : t("verify_later")),
    ended ? h("pre", {}, check) : null);
}

// A waiting table's free seats: its host and its players copy invitations; anyone
// else (an invitee who opened the game itself) is offered the seats to take.
export function invites(view, page) {
  if (view.status !== "waiting") return null;
  const free = view.players.filter((p) => !p.bot && !p.name);
  if (!free.length) return h("p", {}, t("waiting_for_players"));
  if (!view.you && !hostToken(view.id)) {
    return h("section", { class: "invites" }, h("h2", {}, t("free_seats")),
      ...free.map((p) => h("a", { class: "button primary", href: `#game=${view.id}&seat=${p.seat}`, "data-join-free": p.seat },
        t("join_seat", { seat: shown(p.seat) }))));
  }
  return h("section", { class: "invites" }, h("h2", {}, t("invite")),
    ...free.map((p) => {
      const link = `${location.origin}/play#game=${view.id}&seat=${p.seat}`;
      const copy = async () => {
        try {
          await navigator.clipboard.writeText(link);
          page.say(t("copied"));
        } catch {
          page.say(t("copy_failed", { link }));
        }
      };
      return h("p", { class: "invite" },
        h("button", { type: "button", class: "primary", "data-invite": p.seat, onclick: copy }, t("copy_invite", { seat: shown(p.seat) })),
        " ", h("input", { readonly: true, value: link, "aria-label": t("copy_invite", { seat: shown(p.seat) }), onfocus: (e) => e.target.select() }));
    }));
}

// A tournament's game says which tournament and round it is, and links to its page.
export function tournamentLine(view, ui) {
  if (!view.tournament) return null;
  const name = ui.tournament?.name || t("tournament");
  return h("p", { class: "tournament-line", "data-tournament-line": view.tournament.id },
    h("a", { href: `#tournament=${view.tournament.id}` }, name), ` · ${t("round_n", { n: view.tournament.round })}`);
}
