// The lobby: games this browser plays ("my games"), open games (followed without a
// reload), a new-game form and the rules in short.
import { account, accountBox, keepGuestName, nameToOffer } from "./account.js";
import { call, Refusal } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { BOT_LEVELS, shownName } from "./history.js";
import { gameLine } from "./player.js";
import { quickPlay } from "./quick.js";
import { playerSearch } from "./ratings.js";
import { forget, freshEntropy, keepDeal, keepHostToken, keepToken, myGames } from "./seats.js";

const REFRESH_MS = 4000;

export function help() {
  return h("details", { class: "help" }, h("summary", {}, t("how_to_play")),
    h("h3", {}, t("sequence")), h("p", {}, t("help_sequence")),
    h("h3", {}, t("stacks")), h("p", {}, t("help_stacks")));
}

export function showLobby(main, say) {
  const openList = h("ul", { class: "games", "aria-label": t("open_games") }, h("li", {}, t("loading")));
  const mine = h("ul", { class: "games my-games", "aria-label": t("my_games") });
  const watchList = h("ul", { class: "games watch-list", "aria-label": t("watch_games") });
  const draw = () => {
    main.replaceChildren(h("div", { class: "lobby-page" },
      h("section", { class: "lobby" },
        accountBox(say, draw),
        h("h1", {}, t("my_games")), mine,
        h("h1", {}, t("open_games")), openList,
        h("h1", {}, t("watch_games")), watchList,
        h("p", {}, h("a", { href: "#leaderboard=sequence", "data-leaderboard-link": "" }, t("leaderboard")), " · ",
          h("a", { href: "#tournaments=1", "data-tournaments-link": "" }, t("tournaments"))),
        playerSearch(say), help()),
      h("div", { class: "forms" }, quickPlay(say, takeSeat), createForm(say))));
    fillMyGames(mine, say);
  };
  draw();
  const refresh = async () => {
    if (document.hidden) return;
    try {
      const [open, live] = await Promise.all([call("GET", "/games?status=waiting&page_size=50"),
        call("GET", "/games?status=active&page_size=10")]);
      openList.replaceChildren(...(open.games.length ? open.games.map(gameRow) : [h("li", {}, t("no_open_games"))]));
      watchList.replaceChildren(...(live.games.length ? live.games.map(watchRow) : [h("li", { class: "hint" }, t("no_live_games"))]));
    } catch (error) {
      if (!(error instanceof Refusal && error.problem.status === 429)) say(error.message);
    }
  };
  refresh();
  const timer = setInterval(refresh, REFRESH_MS);
  return () => clearInterval(timer);
}

function variantName(variant) {
  return t(variant === "stacks" ? "stacks" : "sequence");
}

// With an account, "my games" is the server's list (every device sees the same),
// followed by the games this browser played as a guest, which no account holds.
async function fillMyGames(list, say) {
  const mine = account();
  const guest = myGames();
  if (mine) {
    try {
      const page = await call("GET", `/players/${mine.id}/games?limit=10`);
      const listed = new Set(page.games.map((g) => g.id));
      const asGuest = guest.filter((g) => !g.player && !listed.has(g.id));
      list.replaceChildren(...page.games.map((g) => gameLine(g, mine.id)),
        ...(asGuest.length ? [h("li", { class: "note", "data-guest-games": "" }, t("played_as_guest"))] : []),
        ...asGuest.map((g) => guestRow(g, list, say)));
      if (!list.children.length) list.append(h("li", { class: "hint" }, t("no_history")));
    } catch (error) {
      say(error.message);
    }
    return;
  }
  if (!guest.length) return list.replaceChildren(h("li", { class: "hint" }, t("no_my_games")));
  list.replaceChildren(...guest.map((game) => guestRow(game, list, say)));
}

// A seat this browser keeps the token of: its game's state, reopen, or forget it.
function guestRow(game, list, say) {
  const status = h("span", { class: "my-status" }, "…");
  call("GET", `/games/${game.id}`).then(
    (view) => { status.textContent = t(`status_${view.status}`); },
    () => { status.textContent = t("status_gone"); });
  return h("li", { "data-my-game": game.id },
    h("strong", {}, variantName(game.variant)), ` · ${t("as_seat", { name: game.name, seat: game.seat + 1 })} · `, status,
    h("button", { class: "small", onclick: () => {
      if (game.token) keepToken(game.id, game.token);
      location.hash = `game=${game.id}`;
    } }, t("reopen")),
    h("button", { class: "small quiet", onclick: () => { forget(game.id); fillMyGames(list, say); } }, t("forget")));
}

function gameRow(game) {
  const seats = game.seats.map((seat) =>
    seat.free
      ? h("button", { class: "small", onclick: () => { location.hash = `game=${game.id}&seat=${seat.seat}`; } },
          t("join_seat", { seat: seat.seat + 1 }))
      : h("span", { class: "seatname" }, seat.name || t("seat_n", { seat: seat.seat + 1 })));
  return h("li", {},
    h("strong", {}, variantName(game.variant)), ` · ${t("players_n", { n: game.players })} `,
    game.days ? `· ${t("days_n", { n: game.days })} ` : "",
    ...seats, h("a", { href: `#game=${game.id}` }, t("watch")));
}

// A game being played, best rated first: its players, their rating, who watches.
function watchRow(game) {
  const names = game.seats.map((seat) => seat.name || t("seat_n", { seat: seat.seat + 1 })).join(", ");
  return h("li", { "data-watch-game": game.id },
    h("strong", {}, variantName(game.variant)), ` · ${names}`,
    game.rating === null ? "" : ` · ${t("rating")} ${Math.round(game.rating)}`,
    ` · ${t("watching_count", { n: game.spectators })} `,
    h("a", { class: "button small", href: `#game=${game.id}`, "data-watch": game.id }, t("watch")));
}

// The game screen adds the seat to "my games" once it has the seat's view. The deal's
// commitment as it stood before the join, and the entropy sent, are kept to verify
// the game once it is over; with an account, the key links the seat to it.
async function takeSeat(gameId, seat, name) {
  if (!account()) keepGuestName(name);
  const before = await call("GET", `/games/${gameId}`);
  const entropy = freshEntropy();
  const taken = await call("POST", `/games/${gameId}/players`,
    { body: { name, seat, entropy }, token: account()?.key });
  keepDeal(gameId, { commitment: before.fairness?.commitment ?? null, entropy });
  keepToken(gameId, taken.token);
}

function createForm(say) {
  const variant = h("select", { id: "variant", name: "variant" },
    h("option", { value: "sequence" }, t("sequence")), h("option", { value: "stacks" }, t("stacks")));
  const players = h("input", { id: "players", type: "number", min: 2, max: 12, value: 2 });
  const seatsBox = h("div", { class: "seats" });
  const teams = h("select", { id: "teams" }, h("option", { value: "" }, t("default")),
    h("option", { value: "2" }, t("teams_n", { n: 2 })), h("option", { value: "3" }, t("teams_n", { n: 3 })));
  const name = h("input", { id: "name", value: nameToOffer(), maxlength: 40 });
  const blockWindow = h("select", { id: "block-window" },
    h("option", { value: "all" }, t("ask_all")), h("option", { value: "holders" }, t("ask_holders")));
  const timeout = h("input", { id: "timeout", type: "number", min: 0, placeholder: t("none") });
  const turnSeconds = h("input", { id: "turn-seconds", type: "number", min: 5, max: 86400, placeholder: t("none") });
  // Days a turn: a game over days (then no turn clock).
  const days = h("select", { id: "days" }, h("option", { value: "" }, t("none")),
    ...[1, 2, 3, 5, 7, 10, 14].map((n) => h("option", { value: n }, t("days_n", { n }))));
  // Private by default: a table for friends is joined by its invite link only.
  const listed = h("input", { id: "listed", type: "checkbox" });
  // Rated: every person joins with an account (the server deals; ratings change).
  const rated = h("input", { id: "rated", type: "checkbox", disabled: account() ? null : true });
  const drawSeats = () => {
    const count = Math.max(2, Math.min(12, Number(players.value) || 2));
    seatsBox.replaceChildren(...Array.from({ length: count }, (_, seat) => {
      const choice = h("select", { id: `seat-${seat}`, "data-seat-choice": seat },
        h("option", { value: "" }, seat === 0 ? t("you") : t("person")),
        ...BOT_LEVELS.map((bot) => h("option", { value: bot, selected: seat > 0 && bot === "easy" }, t(`level_${bot}`))));
      return h("label", { for: `seat-${seat}` }, `${t("seat_n", { seat: seat + 1 })} `, choice);
    }));
  };
  players.addEventListener("input", drawSeats);
  drawSeats();
  // Each game's own options only: teams are Sequence's, block windows Stacks'.
  const showOptions = () => {
    for (const [field, game] of [[teams, "sequence"], [blockWindow, "stacks"], [timeout, "stacks"]]) {
      field.closest("label").hidden = variant.value !== game;
    }
  };
  variant.addEventListener("change", showOptions);
  queueMicrotask(showOptions);
  const create = async (event) => {
    event.preventDefault();
    const seats = [...seatsBox.querySelectorAll("select")].map((s) => (s.value ? { bot: s.value } : {}));
    const options = {};
    if (teams.value && variant.value === "sequence") options.teams = Number(teams.value);
    if (variant.value === "stacks") {
      options.block_window = blockWindow.value;
      if (Number(timeout.value) > 0) options.response_timeout_s = Number(timeout.value);
    }
    if (days.value) options.days = Number(days.value);
    else if (Number(turnSeconds.value) > 0) options.turn_seconds = Number(turnSeconds.value);
    try {
      const body = { variant: variant.value, players: seats.length, seats, options, unlisted: !listed.checked,
        rated: rated.checked };
      const created = await call("POST", "/games", { body });
      const id = created.game.id;
      keepHostToken(id, created.host_token);
      if (!seats[0].bot) await takeSeat(id, 0, name.value || t("default_name"));
      location.hash = `game=${id}`;
    } catch (error) {
      say(error.message);
    }
  };
  return h("form", { class: "create", onsubmit: create },
    h("h2", {}, t("new_game")),
    h("label", { for: "variant" }, `${t("game")} `, variant),
    h("label", { for: "players" }, `${t("players")} `, players),
    h("label", { for: "teams" }, `${t("teams")} `, teams),
    h("label", { for: "block-window" }, `${t("block_window")} `, blockWindow),
    h("label", { for: "timeout" }, `${t("answer_seconds")} `, timeout),
    h("label", { for: "turn-seconds" }, `${t("turn_seconds")} `, turnSeconds),
    h("label", { for: "days" }, `${t("days_a_turn")} `, days),
    h("label", { for: "name" }, `${t("your_name")} `, name),
    h("label", { for: "listed", class: "option" }, listed, ` ${t("list_publicly")}`),
    h("label", { for: "rated", class: "option" }, rated, ` ${account() ? t("rated") : t("rated_needs_account")}`),
    h("fieldset", {}, h("legend", {}, t("who_plays")), seatsBox),
    h("button", { type: "submit", class: "primary" }, t("create_and_play")));
}

// An invitation (a link, or "Join seat" in the open games): the game, who invites
// and who sits there, then the seat taken as the account signed in here, or as a
// guest by name. A seat taken meanwhile offers the others still free.
export function showInvite(main, say, gameId, seat) {
  const me = account();
  const name = h("input", { id: "join-name", value: nameToOffer(), maxlength: 40 });
  const take = async (chosen) => {
    try {
      await takeSeat(gameId, chosen, me ? me.name : name.value);
      location.hash = `game=${gameId}`;
    } catch (error) {
      say(error.message);
    }
  };
  const about = h("div", { class: "invited", "data-invited": gameId }, t("loading"));
  const who = me
    ? h("p", { "data-join-as": me.id }, t("join_as_account", { name: me.name }))
    : h("p", {}, h("label", { for: "join-name" }, `${t("your_name")} `, name), h("br"),
      h("small", { class: "hint" }, t("join_as_guest")));
  const button = h("button", { type: "submit", class: "primary", "data-take-seat": seat }, t("take_seat"));
  const form = h("form", { class: "create", onsubmit: (event) => { event.preventDefault(); take(seat); } },
    h("h1", {}, t("join_seat", { seat: seat + 1 })), about, who, button, " ",
    h("a", { href: `#game=${gameId}` }, t("or_watch")));
  main.replaceChildren(form, help());
  call("GET", `/games/${gameId}`).then((view) => {
    if (me && view.players.some((p) => p.player_id === me.id)) { // its seat, not a second one
      location.hash = `game=${gameId}`;
      return;
    }
    const people = view.players.filter((p) => p.name && !p.bot);
    const host = people[0] || view.players.find((p) => p.name);
    const free = view.players.filter((p) => !p.bot && !p.name).map((p) => p.seat);
    const lines = [
      h("p", {}, t("invited_by", { name: host ? shownName(host) : "?", game: t(view.variant), n: view.players.length })),
      paceLine(view),
      view.rated ? h("p", {}, h("strong", { class: "badge rated" }, t("rated_badge")), " ", t("rated_join")) : null,
      h("p", {}, `${t("at_the_table")} `, view.players.map((p) => p.name ? shownName(p) : t("seat_n", { seat: p.seat + 1 })).join(", "))];
    if (view.status !== "waiting") {
      lines.push(h("p", { class: "warning", "data-invite-closed": view.status }, t("invite_started")));
      button.hidden = true;
    } else if (!free.includes(seat)) {
      lines.push(h("p", { class: "warning", "data-seat-gone": "" }, t("invite_seat_taken", { seat: seat + 1 })),
        ...free.map((other) => h("button", { type: "button", class: "small", "data-take-seat": other,
          onclick: () => take(other) }, t("join_seat", { seat: other + 1 }))));
      button.hidden = true;
    } else if (view.rated && !me) {
      lines.push(h("p", { class: "warning" }, t("rated_needs_account_join")));
      button.disabled = true;
    }
    about.replaceChildren(...lines.filter(Boolean));
  }, (error) => about.replaceChildren(h("p", { class: "warning" }, error.message)));
}

// How fast a game goes, in words: days a move, seconds a move, or no clock.
export function paceLine(view) {
  const seconds = view.options?.turn_seconds;
  const text = view.pace ? t("pace_days", { n: view.pace.days })
    : seconds ? t("pace_seconds", { n: seconds }) : t("pace_none");
  return h("p", { class: "pace", "data-pace": view.pace ? `days:${view.pace.days}` : seconds ? `s:${seconds}` : "none" }, text);
}
