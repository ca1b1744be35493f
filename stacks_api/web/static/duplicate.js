// Duplicate play in the client: the line a duplicate board shows, how the same deal
// went at the other tables once they have all ended, a duplicate event's comparison
// tables, and a duplicate challenge's match page.
import { call, Refusal } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { botName } from "./history.js";

const MATCH_EVERY_MS = 5000; // a match still being played is looked at again this often
const RESULTS = { 1: "result_won", 0: "result_lost", 0.5: "result_drawn" };

// The column that counts a side's progress: sequences on the board, chips in Stacks.
function progressHead(variant) {
  return t(variant === "stacks" ? "col_chips" : "col_sequences");
}

function resultCell(score) {
  return score === null || score === undefined ? "…" : t(RESULTS[score]);
}

// A result that opens its game's replay (shown once every game of its deal has
// ended): a column fewer than a separate link, for a phone's width.
function replayOf(gameId, score) {
  return h("a", { href: `#replay=${gameId}`, "data-replay-link": gameId, title: t("replay") }, resultCell(score));
}

// Whether this board is still closed to all but its seats: its group not known over.
export function stillClosed(view, ui) {
  if (!view.duplicate) return false;
  return view.duplicate.match ? ui.match?.status !== "over" : !ui.tournament?.deal?.over;
}

// The board's own line: what duplicate play means here, with the match or the event.
export function duplicateLine(view) {
  const group = view.duplicate;
  if (!group) return null;
  const words = group.match ? t("duplicate_match_line") : t("duplicate_round_line", { n: group.round });
  const link = group.match
    ? h("a", { href: `#match=${group.match}`, "data-match-link": group.match }, t("see_match"))
    : h("a", { href: `#tournament=${group.tournament}` }, t("see_comparison"));
  return h("p", { class: "duplicate-line", "data-duplicate-board": "" },
    h("span", { class: "badge" }, t("duplicate_board")), " ", words, " ", link);
}

// Once this board has ended: the other results on the same deal (the match's, or the
// round's comparison), or a word that the other tables are still playing it.
export function otherTables(view, ui) {
  if (!view.duplicate || !["finished", "cancelled"].includes(view.status)) return null;
  if (view.duplicate.match) {
    const match = ui.match;
    if (!match) return null;
    if (match.status !== "over") return h("p", { class: "hint", "data-others-playing": "" }, t("others_still_playing"));
    return h("section", { class: "comparison", "data-other-tables": "" }, h("h2", {}, t("same_deal_elsewhere")),
      matchTable(match), matchVerdict(match));
  }
  const deal = ui.tournament?.deal;
  if (!deal) return null;
  if (!deal.over) return h("p", { class: "hint", "data-others-playing": "" }, t("others_still_playing"));
  return h("section", { class: "comparison", "data-other-tables": "" }, h("h2", {}, t("same_deal_elsewhere")),
    ...deal.comparison.map((seat) => seatTable(view.variant, seat, view.id)));
}

// One seat of one deal: every side that held it, best first, with matchpoints.
function seatTable(variant, seat, mine = null) {
  const head = [t("player"), t("col_result"), t("col_turns"), progressHead(variant),
    h("abbr", { title: t("col_matchpoints") }, t("col_matchpoints_short"))];
  return h("div", { class: "standings-box" },
    h("table", { class: "standings", "data-seat-comparison": seat.seat },
      h("caption", {}, t("seat_n", { seat: seat.seat + 1 })),
      h("thead", {}, h("tr", {}, ...head.map((x) => h("th", {}, x)))),
      h("tbody", {}, ...seat.results.map((r) => h("tr", { class: r.game_id === mine ? "me" : null, "data-held": r.entry },
        h("td", {}, botName(r.name)), h("td", {}, r.game_id ? replayOf(r.game_id, r.score) : resultCell(r.score)),
        h("td", {}, String(r.turns)), h("td", {}, String(r.progress)), h("td", {}, `${r.matchpoints}/${r.top}`))))));
}

// A duplicate event's rounds, newest first: the commitment while a round is played,
// then its comparison tables and the seed that dealt it.
export function dealBoxes(tournament) {
  return (tournament.deals || []).slice().reverse().map((deal) => h("section", { class: "round", "data-deal": deal.round },
    h("h3", {}, t("round_deal_n", { n: deal.round })),
    deal.over
      ? h("div", {}, ...deal.comparison.map((seat) => seatTable(tournament.variant, seat)),
        h("p", { class: "hint" }, `${t("server_seed")}: `, h("code", {}, deal.server_seed)))
      : h("p", { class: "hint" }, t("deal_hidden"), " ", `${t("commitment")}: `, h("code", {}, deal.commitment.slice(0, 16)), "…")));
}

function matchTable(match) {
  // Once over, each result links to its game's replay; before, the game's status.
  const head = [t("player"), t("col_result"), t("col_turns"), progressHead(match.variant)];
  const over = match.status === "over";
  return h("div", { class: "standings-box" }, h("table", { class: "standings", "data-match-table": match.id },
    h("thead", {}, h("tr", {}, ...head.map((x) => h("th", {}, x)))),
    h("tbody", {}, ...match.games.map((g) => h("tr", { "data-match-game": g.game_id, class: g.player_id === match.winner ? "me" : null },
      h("td", {}, g.player_id ? h("a", { href: `#player=${g.player_id}` }, g.name) : g.name || "…"),
      h("td", {}, over ? replayOf(g.game_id, g.score) : t(`status_${g.status}`)),
      h("td", {}, g.turns ?? "…"), h("td", {}, g.progress ?? "…"))))));
}

function matchVerdict(match) {
  if (match.status !== "over") return h("p", { class: "hint" }, t("match_playing"));
  const winner = match.games.find((g) => g.player_id === match.winner);
  return h("p", { class: "verdict", "data-match-winner": match.winner || "draw" },
    winner ? t("match_winner", { name: winner.name }) : t("match_draw"));
}

// A duplicate challenge's match: both games, and once both have ended the winner.
// Looked at again while it is played; returns what stops that.
export function showMatch(main, say, id) {
  let timer = null;
  let stopped = false;
  const look = async () => {
    let match;
    try {
      match = await call("GET", `/matches/${id}`);
    } catch (error) {
      if (!stopped && !(error instanceof Refusal && error.problem.status === 429)) say(error.message);
      return;
    }
    if (stopped) return; // the person went elsewhere meanwhile: that screen stays
    if (match.status === "over") clearInterval(timer);
    main.replaceChildren(h("section", { class: "match", "data-match": id, "data-match-status": match.status },
      h("h1", {}, t("match_title")),
      h("p", {}, t("match_summary", { variant: t(match.variant), bot: botName(`${match.bot} bot`) })),
      h("p", { class: "hint" }, t("match_rules")),
      matchTable(match), matchVerdict(match),
      // Both games were dealt from this commitment: checkable once both have ended.
      match.commitment ? h("details", { class: "fairness", "data-fairness": "" }, h("summary", {}, t("fair_deal")),
        h("p", {}, `${t("commitment")}: `, h("code", {}, match.commitment)),
        h("p", { class: "hint" }, match.status === "over" ? t("verify_now") : t("verify_later")),
        match.status === "over" ? h("pre", {}, `stacks-api verify ${location.origin} --match ${id}`) : null) : null,
      h("p", {}, h("a", { href: "/play" }, t("back_to_lobby")))));
  };
  timer = setInterval(() => { if (!document.hidden) look(); }, MATCH_EVERY_MS);
  look();
  return () => { stopped = true; clearInterval(timer); };
}

// The match a finished duplicate board belongs to, looked at until both have ended.
export function watchMatch(ui) {
  const id = ui.view?.duplicate?.match;
  if (!id || ui.matchTimer || ui.closed || !["finished", "cancelled"].includes(ui.view.status)) return;
  const look = async () => {
    try {
      ui.match = await call("GET", `/matches/${id}`);
    } catch {
      return; // looked at again shortly
    }
    if (ui.match.status === "over") clearInterval(ui.matchTimer);
    ui.render();
  };
  ui.matchTimer = setInterval(() => { if (!document.hidden) look(); }, MATCH_EVERY_MS);
  look();
}
