// A game on screen: its view, the move history rebuilt from the public events, the
// live event stream, and the seat's actions.
import { call, follow, Refusal } from "./api.js";
import { openSocket } from "./socket.js";
import { setTitle } from "./notify.js";
import { ChatPanel } from "./chat.js";
import { h, timeLeft } from "./dom.js";
import { t } from "./i18n.js";
import { seatName, tell } from "./history.js";
import { help } from "./lobby.js";
import { dropToken, freshEntropy, hostToken, keepDeal, keepToken, remember, tokenFor } from "./seats.js";
import { hintBox, markHint } from "./hint.js";
import { ASK_EVERY_WINDOW, ENDED, absenceLine, askedTwice, controls, fairDeal, forgetAsked, gameOver, invites, tournamentLine } from "./panels.js";
import { renderSequence } from "./sequence.js";
import { renderStacks } from "./stacks.js";
import { chime } from "./sound.js";
import { stakesLine } from "./ratings.js";
import { markOpened, nextGameOf, openedHere } from "./tournaments.js";
import { account } from "./account.js";
import { duplicateLine, otherTables, watchMatch } from "./duplicate.js";

const RENDERERS = { sequence: renderSequence, stacks: renderStacks };
const MOVES = ["play", "exchange", "pass", "discard", "answer"];
const CHAT_EVERY_MS = 20000; // the chat's spectator count is looked at again this often
const TOURNAMENT_EVERY_MS = 5000; // a tournament game's next round is looked for this often

export class GameScreen {
  constructor(id, token, page) {
    Object.assign(this, {
      id, token, page, view: null, selected: null, log: [], source: null, timer: null,
      shownVersion: Infinity, changedPiles: new Set(), passing: null, wasMyTurn: false, toldOwn: new Set(),
      askEveryWindow: localStorage.getItem(ASK_EVERY_WINDOW) === "yes",
    });
    // A seat this tab left (kept for the tab: a reload or a new screen still says so).
    const left = sessionStorage.getItem(`left:${id}`);
    if (left !== null) this.leftSeat = Number(left);
    this.chat = new ChatPanel(id, token, page);
    this.start();
  }

  async start() {
    // The view and the history's events at once: the board is drawn from the first.
    const told = this.history(0).catch((error) => error);
    await this.load();
    if (!this.view) return;
    this.chat.token = this.token;
    await this.chat.load();
    const events = await told;
    if (events instanceof Error) this.page.say(events.message);
    else this.log = events.events;
    this.historyRead = true;
    this.chat.watching = !this.view.you && !this.over(); // listen() opens a spectator's stream
    this.render();
    this.listen();
    if ((this.log.at(-1)?.version ?? 0) > this.view.version) this.refreshSoon(); // the view was older
  }

  // What a rated game stakes, asked once every seat is taken (it moves only when
  // another of these players' rated games ends meanwhile).
  async loadStakes() {
    if (!this.view?.rated || this.view.status !== "active" || this.stakes) return;
    this.stakes = [];
    try {
      this.stakes = (await call("GET", `/games/${this.id}/ratings`)).stakes;
      this.render();
    } catch (error) {
      this.page.say(error.message);
    }
  }

  // A tournament's game: the tournament's name (asked once), and once this game is
  // over, this player's game of the next round, looked for until it is paired.
  watchTournament() {
    if (!this.view?.tournament || this.closed) return;
    if (!this.tournament) {
      this.tournament = { name: null, next: null };
      markOpened(this.id);
      this.lookAtTournament();
    }
    if (this.over() && !this.tournamentTimer) {
      this.tournamentTimer = setInterval(() => { if (!document.hidden) this.lookAtTournament(); }, TOURNAMENT_EVERY_MS);
      this.lookAtTournament();
    }
  }

  async lookAtTournament() {
    try {
      const tournament = await call("GET", `/tournaments/${this.view.tournament.id}`);
      const next = this.over() ? nextGameOf(tournament, account(), this.id) : null;
      // A duplicate event's deal of this round: compared at every table once all end.
      const deal = tournament.deals?.[this.view.tournament.round - 1] ?? null;
      const changed = tournament.name !== this.tournament.name || next !== this.tournament.next
        || deal?.over !== this.tournament.deal?.over;
      this.tournament = { name: tournament.name, next, deal };
      if (changed) this.render();
      const compared = !this.view.duplicate || deal?.over;
      if ((next && compared) || ["finished", "cancelled"].includes(tournament.status)) clearInterval(this.tournamentTimer);
    } catch (error) {
      if (!(error instanceof Refusal && error.problem.status === 429)) this.page.say(error.message);
    }
  }

  // The view; while this seat is away (the server plays it), as a spectator sees it,
  // so that the page's own refreshes do not bring it back: "I'm back" does.
  async load() {
    try {
      await this.seatedOrWatching();
      const bySocket = this.socket?.open && !this.away; // a message, not a request
      this.show(bySocket ? (await this.socket.ask({ type: "view" })).view
        : await call("GET", `/games/${this.id}`, { token: this.away ? null : this.token }));
    } catch (error) {
      if (error instanceof Refusal && error.problem.status === 401 && this.token) {
        // Forget only the token that was refused: one kept before (a crafted link
        // brought another) is tried next.
        dropToken(this.id, this.token);
        const kept = tokenFor(this.id);
        this.token = kept && kept !== this.token ? kept : null;
        return this.load();
      }
      this.page.say(error.message);
      // Nothing of another screen stays under a game that could not be shown.
      if (!this.view) this.page.show(h("p", { class: "hint", "data-game-refused": "" }, error.message, " ", h("a", { href: "/play" }, t("back_to_lobby"))));
    }
  }

  // The account's key opens a game it has no seat in as a spectator's: asked once,
  // from the public view (a key the game does not know would be refused).
  async seatedOrWatching() {
    const me = account();
    if (this.checkedKey || !me || this.token !== me.key) return;
    this.checkedKey = true;
    // The tournament's page opened it as ours: asked with the key at once (a duplicate
    // board would refuse the public view meanwhile).
    if (openedHere(this.id)) return;
    let seen;
    try {
      seen = await call("GET", `/games/${this.id}`);
    } catch (error) {
      // A duplicate board shows itself to its own seats only: the key will say.
      if (error instanceof Refusal && error.problem.code === "duplicate_closed") return;
      throw error;
    }
    if (!seen.players.some((p) => p.player_id === me.id)) this.token = null;
  }

  async comeBack() {
    this.away = false;
    await this.load();
  }

  // "My games" keeps this seat as soon as its view is known: a tab closed the moment
  // the hand shows must not lose the game.
  keepSeat() {
    const you = this.view.you;
    if (!you || !this.token) return;
    const name = this.view.players[you.seat].name;
    // An account key is kept apart (account.js), never in the list of seats.
    const token = this.token.startsWith("stk_") ? null : this.token;
    const player = this.view.players[you.seat].player_id ?? null; // null: a guest's seat
    remember({ id: this.id, variant: this.view.variant, seat: you.seat, name, token, player });
    this.seatKept = true;
  }

  // A newer view on screen; the piles that changed since the one before get a short motion.
  show(view) {
    const before = this.view;
    // The same view again (a refresh when the stream reconnects): drawing it anew
    // would only take the keyboard focus away from where the player left it.
    if (before && JSON.stringify(before) === JSON.stringify(view)) return;
    this.view = view;
    if (!this.seatKept) this.keepSeat();
    this.noteChanges(before, view);
    this.render();
    this.loadStakes();
    this.watchTournament();
    watchMatch(this);
  }

  // Which piles changed since the view before: they get a short motion.
  noteChanges(before, after) {
    this.changedPiles = new Set();
    if (!before || !after.piles) return;
    after.piles.forEach((pile, p) => {
      if (pile.length !== before.piles[p].length || pile.at(-1) !== before.piles[p].at(-1)) this.changedPiles.add(p);
    });
  }

  // Follow the game: over its WebSocket when one opens (a seat then moves and looks
  // at its view by messages), else over HTTP and the event stream.
  listen() {
    // A game that has ended sends nothing more; a screen closed while it started
    // (the player went elsewhere) listens to nothing.
    if (!this.view || this.over() || this.closed) return;
    this.chatTimer = setInterval(() => this.chat.load().then(() => this.chat.refresh()), CHAT_EVERY_MS);
    if (!this.view.you || !this.token) return this.listenByStream();
    this.socket = openSocket(this.id, this.token, {
      // Its first state is usually the view just fetched, but a move made between
      // the two is only in it (the socket follows from its own view): then, as after
      // a reconnection, the view and the history's events missed (one request).
      onState: (view, first) => { if (!first || view.version > this.view.version) this.caughtUp(view); },
      onEvents: (message) => this.heardVersions(message.events),
      onPresence: (event) => this.present(event),
      onOpen: () => this.page.lost(false),
      onLost: () => { if (!this.closed && !this.over()) this.page.lost(true); this.stillThere(); },
      onFail: () => { this.socket = null; if (!this.closed) this.listenByStream(); },
    });
  }

  async caughtUp(view) {
    const after = this.log.at(-1)?.version ?? 0;
    try {
      this.heardVersions((await this.history(after)).events);
    } catch (error) {
      this.page.say(error.message);
    }
    this.show(view);
  }

  // The events after version ``after``, asked with the seat's token: a duplicate
  // board's are closed to anyone else while its group plays (an open game's history
  // is everyone's, whatever the token).
  history(after) {
    const query = after ? `?after=${after}` : "";
    return call("GET", `/games/${this.id}/events${query}`, { token: this.token });
  }

  // ``after``: the version the stream resumes from (by default, what is on screen).
  listenByStream(after = Math.max(this.view.version, this.log.at(-1)?.version ?? 0)) {
    this.source = follow(this.id, after, {
      watch: !this.view.you, // a spectator hears the spectators' chat, and is counted
      token: this.view.you ? this.token : null, // a seat's stream keeps its person online
      onEvent: (event) => this.heard(event),
      // The first open follows the view just fetched; a reopen looks again (the
      // stream resumes from the last event it gave, the view may be older).
      onOpen: () => { this.page.lost(false); if (this.streamed) this.refreshSoon(); this.streamed = true; },
      onLost: () => { if (!this.closed && !this.over()) this.page.lost(true); },
      onGone: () => this.gone(),
    });
  }

  // A lost socket cannot tell a server that is away from one without the game (its
  // upgrade is refused before it opens): the view over HTTP can.
  stillThere() {
    call("GET", `/games/${this.id}`, { token: this.token }).catch((error) => {
      if (error instanceof Refusal && error.problem.status === 404 && !this.closed) this.gone();
    });
  }

  // The server no longer has the game: say so once, and stop listening for it.
  gone() {
    this.close();
    this.page.lost(false);
    setTitle(t("game_gone"));
    this.page.show(h("section", { class: "panel", role: "alert", "data-gone": "" },
      h("h2", {}, t("game_gone")), h("p", {}, t("game_gone_why")),
      h("a", { href: "#" }, t("back_to_lobby"))));
  }

  close() {
    this.closed = true;
    if (this.source) this.source.close();
    if (this.socket) this.socket.close();
    clearTimeout(this.timer);
    clearTimeout(this.passing?.timer);
    clearInterval(this.ticking);
    clearTimeout(this.absenceTimer);
    clearInterval(this.chatTimer);
    clearInterval(this.tournamentTimer);
    clearInterval(this.matchTimer);
    forgetAsked();
    setTitle(t("title"));
    this.page.lost(false);
  }

  over() {
    return ENDED.includes(this.view.status);
  }

  // Who is here, as the stream tells it (never stored: no version, no history line).
  present(event) {
    const player = this.view?.players[event.seat];
    if (!player || player.presence === event.presence) return;
    Object.assign(player, { presence: event.presence, seen_at: event.seen_at, claimable_at: event.claimable_at ?? null });
    this.render();
  }

  heard(event) {
    if (event.type === "presence") return this.present(event);
    if (this.log.length && event.version < this.log.at(-1).version) return;
    if (this.toldOwn.has(event.version)) return; // our move's answer told it already
    this.take(event);
    // A newer version is fetched, unless our own move's answer is on its way (its
    // events can come first): that answer brings the view, and ``act`` looks after.
    if (event.version > this.view.version && !this.acting && !this.loading) this.refreshSoon();
    else this.render(); // our own move's events: the history and the last-move mark
  }

  // Whole versions' events (a history page, a socket message). A version already on
  // screen came another way meanwhile and is not told twice; one older than the
  // newest shown (the socket told a later move while the history was being asked)
  // takes its place in order.
  heardVersions(events) {
    const shown = new Set(this.log.map((event) => event.version));
    const last = this.log.at(-1)?.version ?? 0;
    const fresh = events.filter((event) => !shown.has(event.version));
    const late = fresh.filter((event) => event.version < last);
    if (late.length) {
      this.log = [...this.log, ...late].sort((a, b) => a.version - b.version); // stable: a version's events keep their order
      this.render();
    }
    fresh.filter((event) => event.version > last).forEach((event) => this.heard(event));
  }

  // Our own move's events, from its answer: the history shows them even while the
  // stream is stalled (the stream's copies, when they come, are not told twice).
  heardOwn(events) {
    const last = this.log.at(-1)?.version ?? 0;
    for (const event of events.filter((e) => e.version > last)) {
      this.toldOwn.add(event.version);
      this.take(event);
    }
  }

  // An event of the game, new to this screen, into the history and what it changes.
  take(event) {
    this.log.push(event);
    if (event.type === "away" && event.seat === this.view?.you?.seat) {
      this.away = true;
      this.awaySeat = event.seat;
    }
    if (event.type === "play") chime("play");
    if (event.type === "chat") this.chat.heard(event);
    if (event.type === "block" && this.blocked && event.pile === this.blocked.pile) {
      if (event.seat !== this.blocked.seat) {
        this.page.say(t("block_lost_race", { name: seatName(this.view, event.seat) }));
      }
      this.blocked = null;
    }
    if (endsGame(event)) {
      this.source?.close(); // the server ends the stream: nothing to reconnect to
      this.endHeard = true;
      // Nothing more to play: the chat is read over HTTP now. A move whose answer is
      // still awaited on the socket (the one that ended the game, or the look after
      // it) keeps the socket until it has its answer.
      if (!this.acting) this.dropSocket();
      clearInterval(this.chatTimer);
      this.page.lost(false);
      this.chat.load().then(() => this.chat.refresh()); // the spectators' lines too, now
    }
  }

  refreshSoon() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh(), 60);
  }

  // One view fetch at a time: what is heard meanwhile is looked at once it is in
  // (a version's events may come in more than one piece).
  async refresh() {
    this.loading = true;
    try {
      await this.load();
    } finally {
      this.loading = false;
    }
    if (this.view && (this.log.at(-1)?.version ?? 0) > this.view.version) this.refreshSoon();
  }

  select(card, from = "hand", index = 0) {
    const same = this.selected && this.selected.from === from && this.selected.index === index;
    this.selected = same ? null : { card, from, index };
    this.focusTarget = !same;
    this.page.say(""); // a refused click's word is old news
    this.render();
  }

  // Asked in a block window without a Block: pass after a short random wait, so the
  // table cannot tell from the answer's speed who holds one.
  passForMe(pass) {
    const key = this.view.version;
    if (this.passing?.key === key) return;
    clearTimeout(this.passing?.timer);
    this.passing = { key, timer: setTimeout(() => this.act(pass), 700 + Math.random() * 1800) };
  }

  async act(action) {
    // One action at a time: a second click (or key) before the answer would be sent
    // with the same If-Match and refused.
    if (this.acting) return;
    this.acting = true;
    this.selected = null;
    try {
      const blockWindow = this.view.block_window; // not ``window``: the page's is used below
      const done = this.socket?.open ? await this.actBySocket(action)
        : await call("POST", `/games/${this.id}/actions`, {
          body: action, token: this.token, headers: { "If-Match": `"${this.view.version}"` },
        });
      // Our Block in this window: if an earlier seat's Block wins the race, say so.
      if (action.card === "BLOCK" && blockWindow) this.blocked = { pile: blockWindow.pile, seat: this.view.you.seat };
      this.page.say("");
      this.heardOwn(done.events || []);
      this.show(done.game);
      window.dispatchEvent(new Event("stacks:moved")); // the "your turn" list looks again
    } catch (error) {
      if (!(error instanceof Refusal && error.problem.status === 412)) this.page.say(error.message);
      this.refreshSoon();
    } finally {
      this.acting = false;
      if (this.endHeard) this.dropSocket();
    }
    if ((this.log.at(-1)?.version ?? 0) > this.view.version) this.refreshSoon(); // heard meanwhile
  }

  dropSocket() {
    this.socket?.close();
    this.socket = null;
  }

  // An action as a message, then the view after it: what HTTP's answer holds.
  async actBySocket(action) {
    const done = await this.socket.ask({ type: "action", version: this.view.version, action });
    const { view } = await this.socket.ask({ type: "view" });
    return { game: view, events: done.events };
  }

  // Resign, abort or claim: one request, and the game as this seat sees it after.
  async concede(how) {
    try {
      this.show(await call("POST", `/games/${this.id}/${how}`, { token: this.token }));
    } catch (error) {
      this.page.say(error.message);
    }
  }

  // Claim a game whose person to move is gone: ``win`` (they resign) or ``bot``.
  async claim(outcome) {
    try {
      this.show(await call("POST", `/games/${this.id}/claim`, { token: this.token, body: { outcome } }));
    } catch (error) {
      this.page.say(error.message);
    }
  }

  // Whether every side has made two moves (an abort is no longer possible).
  openingOver() {
    const sideOf = (seat) => this.view.players[seat].team ?? seat;
    const moves = new Map(this.view.players.map((p) => [sideOf(p.seat), 0]));
    for (const e of this.log) if (MOVES.includes(e.type) && e.seat !== undefined) moves.set(sideOf(e.seat), moves.get(sideOf(e.seat)) + 1);
    return Math.min(...moves.values()) >= 2;
  }

  // The seat is the server's bot's from now on: this page goes on as a spectator's,
  // but says that its person left (and lost), also when the game ends later.
  async leave() {
    const seat = this.view.you.seat, token = this.token;
    // The token dies with the seat: a refresh the leave's own event brings meanwhile
    // asks as a spectator, not with a token the server no longer takes.
    this.token = this.chat.token = null;
    try {
      this.view = await call("POST", `/games/${this.id}/leave`, { token });
      dropToken(this.id, token);
      if (this.socket) { // the seat's socket dies with its token: watch as a spectator,
        this.socket.close(); // from the last event heard (the leave's own comes too)
        this.socket = null;
        this.listenByStream(this.log.at(-1)?.version ?? 0);
      }
      this.leftSeat = seat;
      sessionStorage.setItem(`left:${this.id}`, String(seat));
      this.page.say("");
      this.render();
    } catch (error) {
      this.token = this.chat.token = token; // still seated
      this.page.say(error.message);
    }
  }

  // Before the deal, the host cancels; after it, this seat agrees to cancel.
  async cancel() {
    try {
      const token = this.view.status === "waiting" ? hostToken(this.id) : this.token;
      this.show(await call("DELETE", `/games/${this.id}`, { token }));
    } catch (error) {
      this.page.say(error.message);
    }
  }

  async rematch() {
    try {
      const entropy = freshEntropy();
      const next = await call("POST", `/games/${this.id}/rematch`, { token: this.token, body: { entropy } });
      keepDeal(next.game.id, { commitment: next.game.fairness?.commitment ?? null, entropy });
      keepToken(next.game.id, next.token);
      location.hash = `game=${next.game.id}`;
    } catch (error) {
      this.page.say(error.message);
    }
  }

  // The seat must decide now: its turn, or a block window in which it holds a Block
  // (or asked to be asked every time); a window it cannot block in is passed for it.
  myTurn() {
    const view = this.view;
    if (!view.you || view.status !== "active" || !view.to_move.includes(view.you.seat)) return false;
    const canBlock = view.you.legal_actions.some((a) => a.card === "BLOCK");
    return !view.block_window || canBlock || this.askEveryWindow;
  }

  // The tab's title says when it is your turn, and a tone sounds once as it becomes so.
  announceTurn() {
    const mine = this.myTurn();
    setTitle(mine ? `● ${t("title_your_turn")} · ${t("title")}` : t("title"));
    if (mine && !this.wasMyTurn) chime("turn");
    this.wasMyTurn = mine;
  }

  render() {
    const view = this.view;
    if (!view || this.closed) return; // a closed screen's late answers draw nothing
    this.page.status(view.status, view.version);
    const focused = [...document.querySelectorAll(".hand [data-card]")].indexOf(document.activeElement);
    const typing = document.activeElement?.id === "chat-text"; // a redraw must not take the chat box away
    const wasOn = focusKey(document.activeElement);
    const board = RENDERERS[view.variant](view, this);
    clearInterval(this.ticking);
    clearTimeout(this.absenceTimer);
    const clock = h("span", { class: "clock", "data-clock": "" });
    if (view.deadline && view.status === "active") {
      const turn = view.pace ? view.pace.days * 86400 : view.options?.turn_seconds;
      const tick = () => {
        const left = view.deadline - Date.now() / 1000;
        clock.textContent = t("time_left", { time: timeLeft(left) });
        // Red only when little is left: a fifth of the turn, or its last 10 s.
        clock.classList.toggle("urgent", left <= Math.max(10, (turn || 0) / 5));
      };
      tick();
      this.ticking = setInterval(tick, 1000);
    }
    // An absent opponent's line changes with time alone: drawn again when a claim
    // opens, and every half minute for "gone for n min".
    const absent = absenceLine(view, this);
    if (absent) this.absenceTimer = setTimeout(() => this.render(), absent.redrawIn);
    const lines = tell(this.log, view);
    this.page.show(
      h("section", { class: "game", "aria-label": t("game") },
        this.over() ? null : h("div", { class: `turnline${this.myTurn() ? " mine" : ""}`, role: "status" }, turnText(view, this.myTurn()),
          view.pace && view.status === "active" ? ` · ${t("pace_days", { n: view.pace.days })}` : "", " ", clock),
        absent?.line,
        tournamentLine(view, this),
        duplicateLine(view),
        stakesLine(view, this.stakes),
        view.you ? hintBox(view, this) : null,
        this.away && !this.over() ? h("p", { class: "away-note", role: "alert" }, t("you_are_away"), " ",
          h("button", { type: "button", class: "primary", "data-back": "", onclick: () => this.comeBack() }, t("im_back"))) : null,
        // How it ended is told from its history: not before that is read.
        this.over() && this.historyRead ? gameOver(view, this) : null,
        otherTables(view, this),
        invites(view, this.page),
        view.status === "waiting" && hostToken(this.id)
          ? h("p", {}, askedTwice(t("cancel_game"), t("cancel_waiting_confirm"), () => this.cancel(), { class: "quiet", "data-cancel": "" }))
          : null,
        fairDeal(view),
        h("div", { class: "table" },
          h("div", { class: "play-area" }, board,
            view.you && view.status === "active" ? controls(view, this) : null,
            view.you ? null : h("p", { class: "hint", "data-left-note": this.leftSeat ?? null },
              t(this.leftSeat === undefined ? "watching" : "you_left_note"))),
          h("div", { class: "side" },
            h("section", { class: "log", "aria-label": t("history") },
              h("h2", {}, t("history")),
              h("ol", { reversed: true, "aria-live": "polite" },
                ...(lines.length ? lines.slice().reverse().map((l) => h("li", { "data-move": l.version }, l.text)) : [h("li", {}, t("no_moves"))]))),
            this.chat.render(view))),
        help()),
    );
    this.chat.scroll();
    this.shownVersion = view.version;
    this.changedPiles = new Set();
    markHint(this);
    this.announceTurn();
    // Keyboard play: after picking a card, focus goes to its first target (or stays
    // on the card when it has none); a redraw for an event that came in leaves it on
    // the card, space or button it was on.
    const card = focused >= 0 ? document.querySelectorAll(".hand [data-card]")[focused] : null;
    const kept = wasOn && document.activeElement === document.body ? document.querySelector(wasOn) : null;
    const next = (this.focusTarget && document.querySelector(".target")) || card || kept;
    this.focusTarget = false;
    if (typing) {
      const box = document.getElementById("chat-text");
      box.focus();
      box.setSelectionRange(box.value.length, box.value.length);
    } else if (next) next.focus();
  }
}

// A selector that finds the focused element again once the table is drawn anew: its
// tag and first data-* attribute (a space, a pile, a button), or null.
function focusKey(element) {
  const data = element && element !== document.body ? [...element.attributes].find((a) => a.name.startsWith("data-")) : null;
  return data ? `${element.tagName.toLowerCase()}[${data.name}="${CSS.escape(data.value)}"]` : null;
}

// Whether an event ends its game (a resignation does once one side is left).
function endsGame(event) {
  return ["game_over", "cancelled", "aborted"].includes(event.type) || (["resigned", "timeout"].includes(event.type) && "result" in event);
}

function turnText(view, mine) {
  if (view.status === "waiting") return t("waiting_for_players");
  if (mine) return t("your_turn"); // in a block window, the dialog below asks
  if (view.block_window) return t("block_waiting", { names: view.to_move.map((s) => seatName(view, s)).join(", ") });
  return t("to_play", { name: seatName(view, view.to_move[0]) });
}
