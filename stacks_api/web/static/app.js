// The browser client: a lobby, and a game page for either variant, over the public API.
import { call, follow, Refusal } from "./api.js";
import { h, cardLabel } from "./dom.js";
import { renderSequence } from "./sequence.js";
import { renderStacks } from "./stacks.js";

const main = document.getElementById("main");
const banner = document.getElementById("banner");
const message = document.getElementById("message");
const statusBox = document.querySelector("[data-status]");
const BOTS = ["random", "greedy", "pimc"];
const RENDERERS = { sequence: renderSequence, stacks: renderStacks };
let current = null; // the game on screen

function route() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const gameId = hash.get("game");
  if (current) current.close();
  current = null;
  say("");
  if (!gameId) return showLobby();
  const token = hash.get("token");
  if (token) sessionStorage.setItem(`token:${gameId}`, token);
  const seat = hash.get("seat");
  const known = token || sessionStorage.getItem(`token:${gameId}`);
  if (!known && seat !== null) return showInvite(gameId, Number(seat));
  current = new GameScreen(gameId, known);
}

function say(text) {
  message.textContent = text;
}

function showStatus(status, version) {
  statusBox.textContent = status;
  statusBox.dataset.version = String(version);
}

// -- lobby ------------------------------------------------------------------

async function showLobby() {
  showStatus("lobby", 0);
  const list = h("ul", { class: "games", "aria-label": "Open games" }, h("li", {}, "Loading…"));
  main.replaceChildren(
    h("section", { class: "lobby" }, h("h1", {}, "Open games"), list),
    createForm(),
  );
  try {
    const open = await call("GET", "/games?status=waiting&page_size=50");
    list.replaceChildren(...(open.games.length ? open.games.map(gameRow) : [h("li", {}, "No open games yet: create one.")]));
  } catch (error) {
    say(error.message);
  }
}

function gameRow(game) {
  const seats = game.seats.map((seat) =>
    seat.free
      ? h("button", { class: "small", onclick: () => location.hash = `game=${game.id}&seat=${seat.seat}` },
          `Join seat ${seat.seat}`)
      : h("span", { class: "seatname" }, seat.name || `seat ${seat.seat}`));
  return h("li", {},
    h("strong", {}, game.variant === "sequence" ? "Sequence" : "Stacks"), ` · ${game.players} players `,
    ...seats, h("a", { href: `#game=${game.id}` }, "Watch"));
}

function createForm() {
  const variant = h("select", { id: "variant", name: "variant" },
    h("option", { value: "sequence" }, "Sequence"), h("option", { value: "stacks" }, "Sequence Stacks"));
  const players = h("input", { id: "players", type: "number", min: 2, max: 12, value: 2 });
  const seatsBox = h("div", { class: "seats" });
  const teams = h("select", { id: "teams" }, h("option", { value: "" }, "default"),
    h("option", { value: "2" }, "2 teams"), h("option", { value: "3" }, "3 teams"));
  const name = h("input", { id: "name", value: "Player", maxlength: 40 });
  const blockWindow = h("select", { id: "block-window" },
    h("option", { value: "all" }, "ask every opponent"), h("option", { value: "holders" }, "ask only Block holders"));
  const timeout = h("input", { id: "timeout", type: "number", min: 0, placeholder: "none" });
  const drawSeats = () => {
    const count = Math.max(2, Math.min(12, Number(players.value) || 2));
    seatsBox.replaceChildren(...Array.from({ length: count }, (_, seat) => {
      const choice = h("select", { id: `seat-${seat}`, "data-seat-choice": seat },
        h("option", { value: "" }, seat === 0 ? "You" : "Person"),
        ...BOTS.map((bot) => h("option", { value: bot, selected: seat > 0 && bot === "greedy" }, `${bot} bot`)));
      return h("label", { for: `seat-${seat}` }, `Seat ${seat} `, choice);
    }));
  };
  players.addEventListener("input", drawSeats);
  drawSeats();
  const create = async (event) => {
    event.preventDefault();
    const seats = [...seatsBox.querySelectorAll("select")].map((s) => (s.value ? { bot: s.value } : {}));
    const body = { variant: variant.value, players: seats.length, seats };
    if (teams.value && variant.value === "sequence") body.options = { teams: Number(teams.value) };
    if (variant.value === "stacks") {
      body.options = { block_window: blockWindow.value };
      if (Number(timeout.value) > 0) body.options.response_timeout_s = Number(timeout.value);
    }
    try {
      const created = await call("POST", "/games", { body });
      const id = created.game.id;
      if (!seats[0].bot) {
        const seat = await call("POST", `/games/${id}/players`, { body: { name: name.value || "Player", seat: 0 } });
        location.hash = `game=${id}&token=${seat.token}`;
      } else location.hash = `game=${id}`;
    } catch (error) {
      say(error.message);
    }
  };
  return h("form", { class: "create", onsubmit: create },
    h("h2", {}, "New game"),
    h("label", { for: "variant" }, "Game ", variant),
    h("label", { for: "players" }, "Players ", players),
    h("label", { for: "teams" }, "Teams (Sequence, 6 or 12 players) ", teams),
    h("label", { for: "block-window" }, "Block window (Stacks) ", blockWindow),
    h("label", { for: "timeout" }, "Seconds to answer it (Stacks) ", timeout),
    h("label", { for: "name" }, "Your name ", name),
    h("fieldset", {}, h("legend", {}, "Who plays each seat"), seatsBox),
    h("button", { type: "submit", class: "primary" }, "Create and play"));
}

function showInvite(gameId, seat) {
  showStatus("joining", 0);
  const name = h("input", { id: "join-name", value: "Player", maxlength: 40 });
  const join = async (event) => {
    event.preventDefault();
    try {
      const taken = await call("POST", `/games/${gameId}/players`, { body: { name: name.value, seat } });
      location.hash = `game=${gameId}&token=${taken.token}`;
    } catch (error) {
      say(error.message);
    }
  };
  main.replaceChildren(h("form", { class: "create", onsubmit: join },
    h("h1", {}, `Join seat ${seat}`), h("label", { for: "join-name" }, "Your name ", name),
    h("button", { type: "submit", class: "primary" }, "Take the seat"),
    h("a", { href: `#game=${gameId}` }, "or watch")));
}

// -- a game -----------------------------------------------------------------

class GameScreen {
  constructor(id, token) {
    Object.assign(this, { id, token, view: null, selected: null, log: [], source: null, timer: null });
    this.load().then(() => this.listen());
  }

  async load() {
    try {
      this.view = await call("GET", `/games/${this.id}`, { token: this.token });
      this.render();
    } catch (error) {
      if (error instanceof Refusal && error.problem.status === 401) {
        sessionStorage.removeItem(`token:${this.id}`);
        this.token = null;
        return this.load();
      }
      say(error.message);
    }
  }

  listen() {
    if (!this.view || this.over()) return; // a game that has ended sends nothing more
    this.source = follow(this.id, this.view.version, {
      onEvent: (event) => this.heard(event),
      onOpen: () => { banner.hidden = true; this.refreshSoon(); },
      onLost: () => { if (!this.closed && !this.over()) banner.hidden = false; },
    });
  }

  close() {
    this.closed = true;
    if (this.source) this.source.close();
    clearTimeout(this.timer);
    clearInterval(this.ticking);
    banner.hidden = true;
  }

  async leave() {
    try {
      this.view = await call("POST", `/games/${this.id}/leave`, { token: this.token });
      sessionStorage.removeItem(`token:${this.id}`);
      this.token = null;
      say("You left: the greedy bot plays your seat.");
      this.render();
    } catch (error) {
      say(error.message);
    }
  }

  async rematch() {
    try {
      const next = await call("POST", `/games/${this.id}/rematch`, { token: this.token });
      sessionStorage.setItem(`token:${next.game.id}`, next.token);
      location.hash = `game=${next.game.id}`;
    } catch (error) {
      say(error.message);
    }
  }

  over() {
    return ["finished", "cancelled"].includes(this.view.status);
  }

  heard(event) {
    if (this.log.length && event.version < this.log.at(-1).version) return;
    this.log.push(event);
    if (event.type === "game_over" || event.type === "cancelled") {
      this.source.close(); // the server ends the stream: nothing to reconnect to
      banner.hidden = true;
    }
    if (event.version > this.view.version) this.refreshSoon();
    else this.render(); // our own move's events: the log and the last-move mark
  }

  refreshSoon() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.load(), 60);
  }

  select(card, from = "hand") {
    const same = this.selected && this.selected.card === card && this.selected.from === from;
    this.selected = same ? null : { card, from };
    this.render();
  }

  async act(action) {
    this.selected = null;
    try {
      const done = await call("POST", `/games/${this.id}/actions`, {
        body: action, token: this.token, headers: { "If-Match": `"${this.view.version}"` },
      });
      say("");
      this.view = done.game;
      this.render();
    } catch (error) {
      say(error instanceof Refusal ? `Refused: ${error.message}` : error.message);
      this.refreshSoon();
    }
  }

  render() {
    const view = this.view;
    showStatus(view.status, view.version);
    const you = view.you;
    const board = RENDERERS[view.variant](view, this);
    const over = view.status === "finished" || view.status === "cancelled";
    const clock = h("span", { class: "clock", "data-clock": "" });
    clearInterval(this.ticking);
    if (view.deadline) {
      const tick = () => { clock.textContent = ` ${clockText(view.deadline)}`; };
      tick();
      this.ticking = setInterval(tick, 1000);
    }
    const next = view.rematch
      ? h("a", { href: `#game=${view.rematch}`, "data-next-game": "" }, "Next game")
      : you && view.status === "finished"
        ? h("button", { type: "button", "data-rematch": "", onclick: () => this.rematch() }, "Rematch")
        : null;
    main.replaceChildren(
      h("section", { class: "game", "aria-label": "Game" },
        h("p", { class: "turnline" }, turnLine(view), clock),
        over ? h("div", { class: "gameover", role: "status" }, h("h2", {}, resultText(view)),
          next, " ", h("a", { href: "/play" }, "Back to the lobby")) : null,
        you && view.status === "active"
          ? h("button", { type: "button", class: "leave", "data-leave": "", onclick: () => this.leave() }, "Leave game")
          : null,
        board,
        h("section", { class: "log", "aria-label": "What happened" },
          h("h2", {}, "Moves, newest first"), h("ul", { "aria-live": "polite" }, ...this.log.slice(-40).reverse().map((e) => logLine(e, view)))),
        you ? null : h("p", { class: "hint" }, "You are watching this game."),
        invites(view)),
    );
  }
}

function invites(view) {
  if (view.status !== "waiting") return null;
  const free = view.players.filter((p) => !p.bot && !p.name);
  if (!free.length) return null;
  return h("section", { class: "invites" }, h("h2", {}, "Invite players"),
    ...free.map((p) => {
      const link = `${location.origin}/play#game=${view.id}&seat=${p.seat}`;
      return h("p", {}, `Seat ${p.seat}: `, h("a", { href: link }, link));
    }));
}

function seatName(view, seat) {
  const player = view.players[seat];
  const name = player?.bot ? `${player.name} (seat ${seat})` : player?.name || `Seat ${seat}`;
  if (player?.left) return `${name}, left`;
  return player?.away ? `${name}, away` : name;
}

function clockText(deadline) {
  const left = Math.max(0, Math.round(deadline - Date.now() / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left`;
}

function turnLine(view) {
  if (view.status === "waiting") return "Waiting for players to take their seats.";
  if (view.status !== "active") return "";
  const mine = view.you && view.to_move.includes(view.you.seat);
  if (view.block_window) return mine ? "A pile was completed: Block or pass?" : `Block window: waiting for ${view.to_move.map((s) => seatName(view, s)).join(", ")}`;
  return mine ? "Your turn." : `${seatName(view, view.to_move[0])} to play.`;
}

function resultText(view) {
  const result = view.result;
  if (!result) return "The game was cancelled.";
  if (result.draw) return "A draw.";
  if ("winner_team" in result) {
    const mine = view.you && view.players[view.you.seat].team === result.winner_team;
    return mine ? "Your team won!" : `Team ${["blue", "green", "red"][result.winner_team]} won.`;
  }
  return view.you && view.you.seat === result.winner_seat ? "You won!" : `${seatName(view, result.winner_seat)} won.`;
}

function logLine(event, view) {
  const who = event.seat === undefined ? "" : `${seatName(view, event.seat)}: `;
  const what = {
    play: () => `played ${cardLabel(event.card)}${event.cell ? ` at ${event.cell}` : ""}${event.pile !== undefined ? ` on pile ${event.pile}` : ""}`,
    discard: () => `discarded ${cardLabel(event.card)}`,
    exchange: () => `traded the dead ${cardLabel(event.card)}`,
    sequence: () => `sequence for team ${event.team}`,
    chip: () => `won a ${event.color} chip`,
    block: () => `blocked pile ${event.pile}`,
    game_over: () => "game over",
    timeout: () => "ran out of time: the turn was played for them",
    away: () => "is away: the server plays their turns",
    back: () => "is back",
    left: () => "left the game",
  }[event.type];
  return h("li", { "data-event-version": event.version }, `${who}${what ? what() : event.type.replaceAll("_", " ")}`);
}

window.addEventListener("hashchange", route);
route();
