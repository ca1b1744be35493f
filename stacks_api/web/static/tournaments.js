// Tournaments in the client: the list (upcoming, running, finished) with a form to
// make one, and a tournament's page: join or withdraw, the standings as they move,
// each round's tables, and the player's own next game, opened by itself.
import { account } from "./account.js";
import { call, Refusal } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { BOT_LEVELS, botName } from "./history.js";
import { dealBoxes } from "./duplicate.js";
import { freshEntropy } from "./seats.js";

const REFRESH_MS = 2000;
const FEWEST = { duplicate: 4 }; // entries a tournament needs to start (2 unless said)
const OPENED = "stacks:tournament-games"; // the games this tab has opened by itself

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString();
}

function length(tournament) {
  return tournament.system !== "arena"
    ? t("rounds_n", { n: tournament.rounds }) : t("minutes_n", { n: tournament.minutes });
}

function summary(tournament) {
  return `${t(tournament.variant)} · ${t(`system_${tournament.system}`)} · ${length(tournament)}`;
}

export function showTournaments(main, say) {
  const list = h("ul", { class: "games tournaments", "data-tournaments": "" }, h("li", {}, t("loading")));
  main.replaceChildren(h("section", { class: "tournament-list" },
    h("h1", {}, t("tournaments")), list, makeForm(say),
    h("p", {}, h("a", { href: "/play" }, t("back_to_lobby")))));
  const refresh = async () => {
    try {
      const { tournaments } = await call("GET", "/tournaments");
      list.replaceChildren(...(tournaments.length ? tournaments.map((x) => h("li", { "data-tournament": x.id },
        h("a", { href: `#tournament=${x.id}` }, x.name), ` · ${summary(x)} · `,
        h("span", { class: `pill ${x.status}` }, t(`status_${x.status}`)),
        x.status === "upcoming" ? ` · ${t("starts_at", { time: when(x.starts_at) })}` : ""))
        : [h("li", { class: "hint" }, t("no_tournaments"))]));
    } catch (error) {
      say(error.message);
    }
  };
  refresh();
  const timer = setInterval(refresh, REFRESH_MS * 2);
  return () => clearInterval(timer);
}

// "clock:60" or "days:2", as the tournament's body takes it.
function paceOf(value) {
  const [kind, n] = value.split(":");
  return kind === "days" ? { days: Number(n) } : { clock: Number(n) };
}

// A new tournament: the variant, swiss, arena or duplicate, how long, the pace, when.
function makeForm(say) {
  if (!account()) return h("p", { class: "hint" }, t("tournament_account"));
  const system = h("select", { id: "t-system", onchange: () => { rounds.hidden = system.value === "arena"; minutes.hidden = !rounds.hidden; } },
    h("option", { value: "swiss" }, t("system_swiss")), h("option", { value: "arena" }, t("system_arena")),
    h("option", { value: "duplicate" }, t("system_duplicate")));
  const rounds = h("label", {}, t("rounds"), " ", h("input", { id: "t-rounds", type: "number", min: 1, max: 20, value: 5 }));
  const minutes = h("label", { hidden: true }, t("minutes"), " ", h("input", { id: "t-minutes", type: "number", min: 5, max: 1440, value: 30 }));
  const form = h("form", { class: "create tournament-form", "data-make-tournament": "",
    onsubmit: async (event) => {
      event.preventDefault();
      const body = {
        name: form.querySelector("#t-name").value.trim() || undefined,
        variant: form.querySelector("#t-variant").value, system: system.value,
        ...paceOf(form.querySelector("#t-clock").value),
        starts_at: Date.now() / 1000 + 60 * Number(form.querySelector("#t-starts").value),
      };
      if (system.value !== "arena") body.rounds = Number(form.querySelector("#t-rounds").value);
      else body.minutes = Number(form.querySelector("#t-minutes").value);
      try {
        const made = await call("POST", "/tournaments", { body, token: account().key });
        location.hash = `tournament=${made.id}`;
      } catch (error) {
        say(error.message);
      }
    } },
    h("h2", {}, t("make_tournament")),
    h("label", {}, t("tournament_name"), " ", h("input", { id: "t-name", maxlength: 60 })),
    h("label", {}, t("game"), " ", h("select", { id: "t-variant" },
      h("option", { value: "sequence" }, t("sequence")), h("option", { value: "stacks" }, t("stacks")))),
    h("label", {}, t("tournament_system"), " ", system), rounds, minutes,
    h("label", {}, t("starts_in"), " ", h("select", { id: "t-starts" },
      ...[0, 5, 15, 60].map((m) => h("option", { value: m, selected: m === 5 || null }, m ? t("minutes_n", { n: m }) : t("now"))))),
    h("label", {}, t("pace"), " ", h("select", { id: "t-clock" },
      ...[15, 30, 60, 120, 300].map((s) => h("option", { value: `clock:${s}`, selected: s === 60 || null }, t("pace_seconds", { n: s }))),
      ...[1, 2, 3, 5, 7].map((n) => h("option", { value: `days:${n}` }, t("pace_days", { n }))))),
    h("button", { type: "submit", class: "primary", "data-create-tournament": "" }, t("create_tournament")));
  return form;
}

export function showTournament(main, say, id) {
  let stopped = false;
  const me = account();
  const refresh = async () => {
    if (stopped) return;
    let tournament;
    try {
      tournament = await call("GET", `/tournaments/${id}`);
    } catch (error) {
      if (!(error instanceof Refusal && error.problem.status === 429)) say(error.message);
      return;
    }
    if (stopped) return;
    const next = nextGameOf(tournament, me, ...opened());
    if (next) { // your game of the round just paired, not opened in this tab yet: open it
      markOpened(next);
      location.hash = `game=${next}`;
      return;
    }
    main.replaceChildren(page(tournament, me, say, refresh));
  };
  refresh();
  const timer = setInterval(() => { if (!document.hidden) refresh(); }, REFRESH_MS);
  return () => { stopped = true; clearInterval(timer); };
}

function opened() {
  try { return JSON.parse(sessionStorage.getItem(OPENED) || "[]"); } catch { return []; }
}

// Whether this tab opened the game from its tournament's page, as the account's own.
export function openedHere(gameId) {
  return opened().includes(gameId);
}

// A tournament game this tab has shown: the tournament's page does not open it again.
export function markOpened(gameId) {
  if (opened().includes(gameId)) return;
  sessionStorage.setItem(OPENED, JSON.stringify([...opened(), gameId].slice(-50)));
}

const over = (tournament) => tournament.status === "finished" || tournament.status === "cancelled";

// The player's game still being played, other than ``seen`` ones.
export function nextGameOf(tournament, me, ...seen) {
  if (!me || over(tournament)) return null;
  for (const round of tournament.pairings) {
    for (const table of round.tables) {
      if (table.game_id && table.points === null && table.seats.includes(me.id) && !seen.includes(table.game_id)) {
        return table.game_id;
      }
    }
  }
  return null;
}

function page(tournament, me, say, refresh) {
  const entry = me && tournament.entries.find((e) => e.entry === me.id);
  const entered = entry && entry.withdrawn_at === null;
  const act = async (method, path, body) => {
    try {
      await call(method, path, { body, token: me.key });
      refresh();
    } catch (error) {
      say(error.message);
    }
  };
  const players = `/tournaments/${tournament.id}/players`;
  const actions = [];
  if (!over(tournament)) {
    if (!me) actions.push(h("p", { class: "hint" }, t("tournament_account")));
    else if (entered) {
      const playing = tournament.pairings.some((r) => r.tables.some((x) => x.points === null && x.seats.includes(me.id)));
      if (tournament.status === "running" && !playing) actions.push(h("p", { class: "hint", "data-waiting-pairing": "" }, t("waiting_pairing")));
      actions.push(h("button", { "data-withdraw-tournament": "", onclick: () => act("DELETE", players) }, t("withdraw")));
    }
    else {
      // A duplicate event's deals mix every entrant's entropy.
      const body = tournament.system === "duplicate" ? { entropy: freshEntropy() } : {};
      actions.push(h("button", { class: "primary", "data-join-tournament": "", onclick: () => act("POST", players, body) }, t("join_tournament")));
    }
    if (me && me.id === tournament.creator) {
      actions.push(botForm(act, players));
      const ready = tournament.entries.filter((e) => e.withdrawn_at === null).length >= (FEWEST[tournament.system] || 2);
      if (tournament.status === "upcoming" && ready) {
        actions.push(h("button", { class: "primary", "data-start-tournament": "",
          onclick: () => act("POST", `/tournaments/${tournament.id}/start`) }, t("start_now")));
      }
    }
  }
  const status = tournament.status === "upcoming"
    ? t("starts_at", { time: when(tournament.starts_at) })
    : tournament.status === "running" && tournament.system === "arena"
      ? t("ends_at", { time: when(tournament.starts_at + 60 * tournament.minutes) }) : "";
  return h("section", { class: "tournament", "data-tournament-page": tournament.id, "data-tournament-status": tournament.status },
    h("h1", {}, tournament.name),
    h("p", {}, summary(tournament), " · ", h("span", { class: `pill ${tournament.status}` }, t(`status_${tournament.status}`)),
      status ? ` · ${status}` : "", tournament.rated ? ` · ${t("rated")}` : ""),
    ...actions,
    h("details", { class: "rules", "data-tournament-rules": "" }, h("summary", {}, t("tournament_rules")),
      tournament.system === "duplicate" ? h("p", { "data-duplicate-rules": "" }, t("duplicate_rules")) : null,
      h("p", {}, t("tournament_no_show")), h("p", {}, t("tournament_clock"))),
    h("h2", {}, tournament.status === "finished" ? t("final_standings") : t("standings")),
    standings(tournament, me),
    h("h2", {}, t("pairings")),
    ...tournament.pairings.slice().reverse().map((round) => roundBox(tournament, round, me)),
    ...(tournament.system === "duplicate" ? [h("h2", {}, t("deal_comparisons")), ...dealBoxes(tournament)] : []),
    h("p", {}, h("a", { href: "#tournaments=1" }, t("tournaments")), " · ", h("a", { href: "/play" }, t("back_to_lobby"))));
}

function botForm(act, players) {
  const level = h("select", { "data-bot-level-choice": "" }, ...BOT_LEVELS.map((b) => h("option", { value: b }, t(`level_${b}`))));
  const count = h("input", { type: "number", min: 1, max: 8, value: 1, "aria-label": t("count") });
  return h("p", { class: "add-bots" }, level, " × ", count, " ",
    h("button", { "data-add-bots": "", onclick: () => act("POST", players, { bot: level.value, count: Number(count.value) }) }, t("add_bots")));
}

function standings(tournament, me) {
  const swiss = tournament.system === "swiss";
  const duplicate = tournament.system === "duplicate";
  // Short heads (each spelled out on hover and for screen readers): a phone's width.
  const short = (word, key) => h("abbr", { title: t(key) }, word);
  const head = [t("place"), t("player"), duplicate ? short(t("col_matchpoints_short"), "col_matchpoints") : t("points"),
    ...(swiss ? [short("BH", "buchholz"), short("SB", "sonneborn_berger")] : []), ...(duplicate ? ["%"] : []), t("games_played")];
  const rows = tournament.standings.map((s) => h("tr", { "data-standing": s.entry, class: me && s.entry === me.id ? "me" : null },
    h("td", {}, String(s.rank)),
    h("td", {}, s.player_id ? h("a", { href: `#player=${s.player_id}` }, s.name) : botName(s.name),
      s.withdrawn ? ` (${t("withdrawn")})` : "", s.streak ? h("span", { class: "streak", title: t("streak") }, " 🔥") : ""),
    h("td", {}, String(s.points)),
    ...(swiss ? [h("td", {}, String(s.buchholz)), h("td", {}, String(s.sonneborn_berger))] : []),
    ...(duplicate ? [h("td", { "data-percentage": s.percentage }, `${s.percentage}`)] : []),
    h("td", {}, String(s.games))));
  return h("div", { class: "standings-box" }, h("table", { class: "standings", "data-standings": "" },
    h("thead", {}, h("tr", {}, ...head.map((x) => h("th", {}, x)))),
    h("tbody", {}, ...(rows.length ? rows : [h("tr", {}, h("td", { colspan: head.length }, t("no_entries")))]))),
    swiss ? h("p", { class: "hint" }, t("standings_key")) : null);
}

function roundBox(tournament, round, me) {
  const names = Object.fromEntries(tournament.entries.map((e) => [e.entry, e.player_id ? e.name : botName(e.name)]));
  return h("section", { class: "round", "data-round": round.round },
    h("h3", {}, tournament.system !== "arena" ? t("round_n", { n: round.round }) : t("wave_n", { n: round.round })),
    h("ul", { class: "tables" }, ...round.tables.map((table) => {
      const who = table.seats.map((e) => names[e] || e).join(" – ");
      const result = table.points ? ` · ${table.points.join(" – ")}` : "";
      if (!table.game_id) return h("li", {}, `${who}: ${t("bye")}`);
      const mine = me && table.seats.includes(me.id);
      // A duplicate board is closed to all but its own players until the round ends.
      const closed = tournament.system === "duplicate" && table.points === null && !mine;
      return h("li", { "data-table": table.game_id, class: mine ? "me" : null },
        closed ? who : h("a", { href: `#game=${table.game_id}` }, who), result,
        table.points === null ? ` · ${t(mine ? "your_game" : closed ? "playing" : "watch")}` : "");
    })));
}
