// A player's page: the name and every game, newest first (live ones on top), a page
// at a time, each with its result and a way to watch or replay it.
import { call } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { challengeButton } from "./challenges.js";
import { ratingsBox } from "./ratings.js";

const RESULTS = { 1: "result_won", 0: "result_lost", 0.5: "result_drawn" };

export function gameLine(game, playerId) {
  const me = game.seats.find((s) => s.player_id === playerId);
  const others = game.seats.filter((s) => s !== me).map((s) => s.name || t("seat_n", { seat: s.seat + 1 }));
  const ended = game.status === "finished" || game.status === "cancelled";
  const result = game.status === "finished" && me && me.score !== null ? t(RESULTS[me.score]) : t(`status_${game.status}`);
  const when = new Date((game.ended_at || game.created_at) * 1000).toLocaleString();
  return h("li", { "data-history-game": game.id },
    h("strong", {}, t(game.variant)), ` · ${t("against", { names: others.join(", ") })} · `,
    h("span", { class: "result" }, result), ` · ${when} `,
    h("a", { class: "button small", href: `#game=${game.id}` }, ended ? t("see_game") : t("reopen")), " ",
    ended && game.status === "finished" ? h("a", { class: "button small", href: `#replay=${game.id}`, "data-replay-link": game.id }, t("replay")) : null);
}

export function showPlayer(main, say, playerId) {
  const list = h("ul", { class: "games history", "aria-label": t("history") }, h("li", {}, t("loading")));
  const more = h("button", { type: "button", class: "small", hidden: true }, t("more"));
  const title = h("h1", {}, "…");
  const ratings = h("div", {});
  main.replaceChildren(h("section", { class: "player-page", "data-player": playerId }, title, ratings,
    h("h2", {}, t("games_list")), list, more,
    h("p", {}, h("a", { href: "/play" }, t("back_to_lobby")))));
  let cursor = null;
  let first = true;
  const load = async () => {
    if (!first && !cursor) return; // every page is shown already
    try {
      const query = cursor ? `?limit=20&cursor=${encodeURIComponent(cursor)}` : "?limit=20";
      const page = await call("GET", `/players/${playerId}/games${query}`);
      if (first) list.replaceChildren();
      first = false;
      list.append(...page.games.map((g) => gameLine(g, playerId)));
      if (!list.children.length) list.append(h("li", { class: "hint" }, t("no_history")));
      cursor = page.next;
      more.hidden = !cursor;
    } catch (error) {
      say(error.message);
    }
  };
  more.addEventListener("click", load);
  call("GET", `/players/${playerId}`).then((p) => {
    title.textContent = t("player_page", { name: p.name });
    if (p.bot) title.append(" ", h("span", { class: "badge", "data-bot-account": "" }, t("bot_badge")));
    // Only someone signed in, and not on their own page, can challenge: no empty line else.
    const challenges = p.accepts_challenges ? ["sequence", "stacks"]
      .map((v) => [v, challengeButton(p, v, say)]).filter(([, button]) => button) : [];
    if (challenges.length) {
      title.after(h("p", { class: "challenges", "data-challenge-line": "" },
        ...challenges.map(([v, button]) => h("span", {}, `${t(v)}: `, button, " "))));
    }
    ratings.replaceChildren(ratingsBox(playerId, p.ratings));
  }, (error) => say(error.message));
  load();
}
