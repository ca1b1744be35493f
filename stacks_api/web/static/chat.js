// Table chat beside the board: the lines said so far (as text, never as HTML), a box
// to say one, a few one-tap phrases, and for each other sender a way to mute them
// on this device or report a line. Spectators talk apart until the game ends.
import { account } from "./account.js";
import { call } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seatName } from "./history.js";

const MUTED = "stacks:muted";
const PHRASES = ["phrase_good_luck", "phrase_well_played", "phrase_thanks", "phrase_good_game"];
const REASONS = ["abuse", "cards", "spam", "other"];
const MAX_LINE = 300; // the server's limit on a line
const ROOM_SHOWN = 50; // how few characters left before the box says how many

// What the box says of the room left in a line: nothing until it runs short.
function roomLeft(draft) {
  const left = MAX_LINE - draft.length;
  if (left > ROOM_SHOWN) return "";
  return left > 0 ? t("chat_room_left", { n: left }) : t("chat_full", { n: MAX_LINE });
}

function muted() {
  try {
    return new Set(JSON.parse(localStorage.getItem(MUTED) || "[]"));
  } catch {
    return new Set();
  }
}

function setMuted(ids) {
  localStorage.setItem(MUTED, JSON.stringify([...ids]));
}

// Who said a line: a seat's player (by account when there is one), or a spectator.
function senderOf(line, view) {
  if (line.seat === undefined) return { id: line.spectator, name: line.name || t("spectator") };
  const player = view.players[line.seat];
  return { id: player.player_id || `${view.id}:${line.seat}`, name: seatName(view, line.seat), seat: line.seat };
}

export class ChatPanel {
  constructor(gameId, token, page) {
    Object.assign(this, { gameId, token, page, lines: [], spectators: 0, node: null, draft: "",
      reporting: null, reported: new Set(), pinned: true, scrolled: 0, watching: false });
  }

  // The chat so far (a player's token reads the table's lines only while the game is on).
  async load() {
    try {
      const chat = await call("GET", `/games/${this.gameId}/chat`, { token: this.token });
      this.lines = chat.messages;
      this.spectators = chat.spectators;
    } catch (error) {
      this.page.say(error.message);
    }
  }

  heard(event) {
    if (this.lines.some((l) => l.version === event.version)) return;
    this.lines.push(event);
  }

  async say(text) {
    const line = text.trim();
    if (!line) return;
    // A spectator talks with their account's key; a player with their seat.
    const token = this.seated ? this.token : account()?.key;
    try {
      this.heard(await call("POST", `/games/${this.gameId}/chat`, { body: { text: line }, token }));
      this.draft = "";
      this.pinned = true; // one's own line is always brought into sight
      this.page.say("");
    } catch (error) {
      this.page.say(error.message);
    }
    this.refresh();
  }

  // Report asks why first (a form under the line), then says it was sent.
  askReport(line) {
    this.reporting = this.reporting === line.version ? null : line.version;
    this.refresh();
  }

  async report(sender, line, why, more) {
    const me = account();
    const reason = [`${t(`report_${why}`)} (${why})`, more.trim(), `chat: ${line.text}`]
      .filter(Boolean).join(" · ").slice(0, 500);
    try {
      await call("POST", `/players/${sender.id}/reports`, { token: me.key, body: { reason, game_id: this.gameId } });
      this.reported.add(line.version);
      this.reporting = null;
      this.page.say(t("reported"));
    } catch (error) {
      this.page.say(error.message);
    }
    this.refresh();
  }

  reportForm(sender, line) {
    const why = h("select", { "data-report-why": "" },
      ...REASONS.map((reason) => h("option", { value: reason }, t(`report_${reason}`))));
    const more = h("input", { maxlength: 200, "data-report-more": "", "aria-label": t("report_more"), placeholder: t("report_more") });
    return h("form", { class: "report-form", "data-report-form": line.version,
      onsubmit: (event) => { event.preventDefault(); this.report(sender, line, why.value, more.value); } },
      h("label", {}, t("report_why"), " ", why), " ", more, " ",
      h("button", { type: "submit", class: "small", "data-report-send": "" }, t("report_send")), " ",
      h("button", { type: "button", class: "small quiet", onclick: () => this.askReport(line) }, t("report_cancel")));
  }

  toggleMute(sender) {
    const ids = muted();
    if (ids.has(sender.id)) ids.delete(sender.id);
    else ids.add(sender.id);
    setMuted(ids);
    this.refresh();
  }

  refresh() {
    if (this.node && this.view) this.node.replaceWith(this.render(this.view));
    this.scroll();
  }

  // The newest line in sight, unless the reader scrolled up to older ones: then
  // their place is kept. Called once the panel is on the page.
  scroll() {
    const list = this.node?.querySelector("[data-chat-lines]");
    if (!list || !list.isConnected) return;
    list.scrollTop = this.pinned ? list.scrollHeight : this.scrolled;
  }

  render(view) {
    this.view = view;
    this.seated = Boolean(view.you);
    const me = account();
    const quiet = muted();
    const ended = !["waiting", "active"].includes(view.status);
    const canTalk = !ended && (this.seated || me);
    const items = this.lines.map((line) => {
      const sender = senderOf(line, view);
      const mine = this.seated ? line.seat === view.you.seat : line.spectator === me?.id;
      const hidden = !mine && quiet.has(sender.id);
      const tools = mine ? [] : [
        h("button", { type: "button", class: "small quiet", "data-mute": sender.id, onclick: () => this.toggleMute(sender) },
          hidden ? t("unmute") : t("mute")),
        !me || sender.id.includes(":") ? null
          : this.reported.has(line.version) ? h("em", { "data-reported": line.version }, `✓ ${t("reported_line")}`)
            : h("button", { type: "button", class: "small quiet", "data-report-line": line.version,
              "aria-expanded": String(this.reporting === line.version), onclick: () => this.askReport(line) }, t("report")),
      ];
      return h("li", { class: line.seat === undefined ? "aside" : null, "data-chat": line.version },
        h("strong", {}, sender.name), line.seat === undefined ? ` (${t("spectator")})` : "", ": ",
        hidden ? h("em", {}, t("muted_line")) : line.text, " ", ...tools,
        this.reporting === line.version ? this.reportForm(sender, line) : null);
    });
    const room = h("span", { class: "note", "data-chat-room": "", "aria-live": "polite" }, roomLeft(this.draft));
    const box = h("input", { id: "chat-text", maxlength: MAX_LINE, value: this.draft, autocomplete: "off",
      "aria-label": t("chat_say"), oninput: (event) => {
        this.draft = event.target.value;
        room.textContent = roomLeft(this.draft);
      } });
    const watching = !this.seated && this.watching ? Math.max(1, this.spectators) : this.spectators; // this reader too
    const send = (event) => { event.preventDefault(); this.say(box.value); };
    this.node = h("section", { class: "chat", "aria-label": t("chat") },
      h("h2", {}, t("chat"), " ", h("span", { class: "note", "data-spectators": watching },
        t("watching_count", { n: watching }))),
      h("ol", { "aria-live": "polite", "data-chat-lines": "", onscroll: (event) => {
        const list = event.target;
        this.pinned = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
        this.scrolled = list.scrollTop;
      } },
        ...(items.length ? items : [h("li", { class: "note" }, t("chat_empty"))])),
      canTalk ? h("form", { class: "say", onsubmit: send }, box, " ",
        h("button", { type: "submit", class: "small", "data-say": "" }, t("chat_send"))) : null,
      canTalk ? room : null,
      canTalk ? h("p", { class: "phrases" }, ...PHRASES.map((key) =>
        h("button", { type: "button", class: "small quiet", "data-phrase": key, onclick: () => this.say(t(key)) }, t(key)))) : null,
      !canTalk && !ended ? h("p", { class: "note" }, t("chat_needs_account")) : null,
      !this.seated && !ended ? h("p", { class: "note" }, t("chat_spectators_apart")) : null);
    return this.node;
  }
}
