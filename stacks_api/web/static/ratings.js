// Ratings in the client: a game's rating changes on its game-over panel, a player's
// ratings with a chart of each over time, and the leaderboard of a variant.
import { call } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { challengeButton } from "./challenges.js";

const VARIANTS = ["sequence", "stacks"];
const SVG = "http://www.w3.org/2000/svg";

function shownRating(rating) {
  return `${rating.rating}${rating.provisional ? "?" : ""}`;
}

function signed(change) {
  return `${change >= 0 ? "+" : "−"}${Math.abs(change)}`;
}

// A rated game under way: what a win or a loss would do to this seat's rating
// (for a spectator, that the game is rated), asked once when the game starts.
export function stakesLine(view, stakes) {
  if (view.unrated && !["finished", "cancelled", "aborted"].includes(view.status)) {
    return h("p", { class: "stakes", "data-unrated": view.unrated }, t(`unrated_${view.unrated}`));
  }
  if (!view.rated || view.status !== "active") return null;
  const mine = view.you && stakes?.find((s) => s.seat === view.you.seat);
  return h("p", { class: "stakes", "data-stakes": mine ? `${mine.win},${mine.loss}` : "" },
    h("strong", { class: "badge rated" }, t("rated_badge")), " ",
    mine ? t("stakes_mine", { rating: shownRating(mine), win: signed(mine.win), loss: signed(mine.loss) }) : "");
}

// The archive rates a game a moment after it ends: ask again while it says 202.
export function ratingChanges(gameId) {
  const box = h("div", { class: "rating-changes", "data-rating-changes": gameId }, t("rating_pending"));
  let tries = 0;
  const ask = async () => {
    const answer = await fetch(`/api/v1/games/${gameId}/ratings`);
    const body = await answer.json().catch(() => ({}));
    if (answer.status === 202 && tries++ < 60) return setTimeout(ask, 1000);
    if (!answer.ok || body.state !== "rated") return box.replaceChildren(t("rating_unchanged"));
    box.replaceChildren(h("h3", {}, t("rating_changes")), h("ul", {}, ...body.changes.map((c) =>
      h("li", { "data-rating-change": c.seat },
        `${c.name || t(`level_${c.bot}`)}: ${c.before}${c.was_provisional ? "?" : ""} → ${c.after} `,
        h("strong", { class: c.change >= 0 ? "up" : "down" }, signed(c.change))))),
      h("p", { class: "hint", "data-rating-why": "" }, t("rating_why")));
  };
  ask();
  return box;
}

// A player's rating after each rated game, as a line: oldest on the left. The axes
// say what they count: the rating (its lowest and highest) and the games, 1 to n.
function chart(points) {
  const width = 340, height = 120, left = 42, right = 8, top = 8, bottom = 26;
  const values = points.map((p) => p.rating);
  const lowest = Math.min(...values), highest = Math.max(...values);
  const low = lowest - 10, high = highest + 10;
  const x = (i) => (points.length === 1 ? (left + width - right) / 2 : left + (i * (width - left - right)) / (points.length - 1));
  const y = (v) => height - bottom - ((v - low) * (height - top - bottom)) / (high - low);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "rating-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("rating_chart", { low: lowest, high: highest }));
  const axes = document.createElementNS(SVG, "polyline");
  axes.setAttribute("class", "axis-line");
  axes.setAttribute("points", `${left},${top} ${left},${height - bottom} ${width - right},${height - bottom}`);
  svg.append(axes);
  const label = (text, at, where, anchor, name) => {
    const node = document.createElementNS(SVG, "text");
    node.setAttribute("x", at);
    node.setAttribute("y", where);
    node.setAttribute("text-anchor", anchor);
    node.setAttribute("data-axis", name);
    node.textContent = text;
    svg.append(node);
  };
  label(String(highest), left - 4, y(highest) + 4, "end", "high");
  if (lowest !== highest) label(String(lowest), left - 4, y(lowest) + 4, "end", "low");
  label("1", x(0), height - bottom + 13, "middle", "first");
  if (points.length > 1) label(String(points.length), x(points.length - 1), height - bottom + 13, "middle", "last");
  label(t("chart_games"), (left + width) / 2, height - 2, "middle", "games");
  label(t("chart_rating"), 2, top + 8, "start", "rating");
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("class", "rating-line");
  line.setAttribute("points", values.map((v, i) => `${x(i)},${y(v)}`).join(" "));
  svg.append(line);
  values.forEach((v, i) => { // a dot for each game: one game is a line of one point
    const dot = document.createElementNS(SVG, "circle");
    dot.setAttribute("cx", x(i));
    dot.setAttribute("cy", y(v));
    dot.setAttribute("r", 3);
    svg.append(dot);
  });
  return svg;
}

export function ratingsBox(playerId, ratings) {
  const rated = VARIANTS.filter((v) => ratings[v]);
  if (!rated.length) return h("p", { class: "hint", "data-ratings": "" }, t("no_ratings"));
  return h("div", { class: "ratings", "data-ratings": "" }, ...rated.map((variant) => {
    const place = h("div", { class: "chart-box" });
    call("GET", `/players/${playerId}/ratings/${variant}`).then((history) => {
      if (history.points.length) place.replaceChildren(chart(history.points));
    }, () => {});
    const r = ratings[variant];
    return h("section", { "data-rating": variant },
      h("h3", {}, t(variant), " ", h("span", { class: "rating" }, shownRating(r))),
      h("p", { class: "hint" }, t("rating_games", { n: r.games }), r.provisional ? ` · ${t("provisional")}` : ""),
      place);
  }));
}

export function showLeaderboard(main, say, variant) {
  const rows = h("tbody", {}, h("tr", {}, h("td", { colspan: 4 }, t("loading"))));
  const bots = h("ul", { class: "bot-levels", "data-bot-levels": "" });
  const tabs = h("p", {}, ...VARIANTS.map((v) =>
    h("a", { href: `#leaderboard=${v}`, class: `button small${v === variant ? " primary" : ""}` }, t(v))));
  main.replaceChildren(h("section", { class: "leaderboard", "data-leaderboard": variant },
    h("h1", {}, t("leaderboard")), playerSearch(say), tabs,
    h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("player")),
      h("th", {}, t("rating")), h("th", {}, t("games_played")))), rows),
    h("p", { class: "hint" }, t("leaderboard_rule")),
    h("h2", {}, t("bot_levels")), bots,
    h("p", {}, h("a", { href: "/play" }, t("back_to_lobby")))));
  call("GET", `/leaderboard?variant=${variant}`).then((board) => {
    rows.replaceChildren(...(board.players.length ? board.players.map((p, i) => h("tr", { "data-leader": p.id },
      h("td", {}, String(i + 1)), h("td", {}, h("a", { href: `#player=${p.id}` }, p.name), " ", challengeButton(p, variant, say)),
      h("td", {}, String(p.rating)), h("td", {}, String(p.games))))
      : [h("tr", {}, h("td", { colspan: 4 }, t("leaderboard_empty")))]));
  }, (error) => say(error.message));
  call("GET", `/leaderboard/bots?variant=${variant}`).then((ladder) => {
    bots.replaceChildren(...(ladder.levels.length ? ladder.levels.map((b) => h("li", { "data-bot-level": b.level },
      `${t(`level_${b.level}`)}: ${shownRating(b)} · ${t("rating_games", { n: b.games })}`))
      : [h("li", { class: "hint" }, t("no_ratings"))]));
  }, (error) => say(error.message));
}

// Find anyone by part of their name, provisional players too: each found opens
// their page (where they can be challenged).
export function playerSearch(say) {
  const found = h("ul", { class: "found-players", "data-found-players": "", "aria-live": "polite" });
  const name = h("input", { id: "player-search", type: "search", minlength: 2, maxlength: 40, required: true,
    autocomplete: "off", placeholder: t("search_name") });
  const search = async (event) => {
    event.preventDefault();
    try {
      const answer = await call("GET", `/players?name=${encodeURIComponent(name.value.trim())}`);
      found.replaceChildren(...(answer.players.length ? answer.players.map((p) => h("li", { "data-found": p.id },
        h("a", { href: `#player=${p.id}` }, p.name), p.bot ? h("span", { class: "badge" }, t("bot_badge")) : null,
        ...VARIANTS.filter((v) => p.ratings[v]).map((v) => ` · ${t(v)} ${shownRating(p.ratings[v])}`)))
        : [h("li", { class: "hint" }, t("nobody_found"))]));
    } catch (error) {
      say(error.message);
    }
  };
  return h("form", { class: "player-search", role: "search", onsubmit: search },
    h("label", { for: "player-search" }, `${t("find_player")} `), name, " ",
    h("button", { type: "submit", class: "small", "data-search": "" }, t("search")), found);
}
