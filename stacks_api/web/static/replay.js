// A replay of an ended game: every version of it, forwards and back, on the board as
// it was (each position comes from the server, which deals the game again from its
// revealed secrets), with the history up to that moment and the record to download.
import { analysisPanel, fetchAnalysis, markBetter } from "./analysis.js";
import { call } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { tell } from "./history.js";
import { renderSequence } from "./sequence.js";
import { renderStacks } from "./stacks.js";

const RENDERERS = { sequence: renderSequence, stacks: renderStacks };

export class ReplayScreen {
  constructor(id, page) {
    Object.assign(this, { id, page, record: null, versions: [], at: 0, views: new Map(),
      analysis: undefined, chosen: null });
    this.keys = (event) => {
      if (event.target.closest("input, select, textarea")) return;
      const step = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity }[event.key];
      if (step !== undefined) { event.preventDefault(); this.go(this.at + step); }
    };
    document.addEventListener("keydown", this.keys);
    this.start();
  }

  async start() {
    try {
      this.record = await call("GET", `/games/${this.id}/record`);
    } catch (error) {
      this.page.say(error.message);
      return;
    }
    this.versions = [...new Set(this.record.events.map((e) => e.version))];
    await this.go(this.versions.length - 1);
    if (this.record.status !== "finished") return;
    this.analysis = await fetchAnalysis(this.id, () => !this.closed);
    if (!this.closed) this.go(this.at);
  }

  // A mistake chosen on the chart: the moment before it, with the better move lit.
  pick(move) {
    this.chosen = move;
    this.go(this.versions.indexOf(move.version) - 1);
  }

  close() {
    document.removeEventListener("keydown", this.keys);
    this.closed = true;
  }

  async position(index) {
    const version = this.versions[index];
    if (!this.views.has(version)) this.views.set(version, call("GET", `/games/${this.id}/replay/${version}`));
    return this.views.get(version);
  }

  async go(index) {
    const at = Math.max(0, Math.min(this.versions.length - 1, index));
    try {
      const view = await this.position(at);
      if (this.closed) return;
      this.at = at;
      this.render(view);
      if (at + 1 < this.versions.length) this.position(at + 1).catch(() => {}); // the next step, ahead
    } catch (error) {
      this.page.say(error.message);
    }
  }

  render(view) {
    const version = this.versions[this.at];
    const events = this.record.events.filter((e) => e.version <= version);
    // The board is drawn as a spectator saw it; the last move is marked as in play.
    const ui = { selected: null, log: events, shownVersion: version, changedPiles: new Set(), askEveryWindow: false };
    this.page.status(`replay`, version);
    const lines = tell(events, view);
    const last = this.versions.length - 1;
    const step = (label, to, data) => h("button", { type: "button", class: "small", "data-step": data,
      "aria-label": t(`replay_${data}`), title: t(`replay_${data}`),
      disabled: to === this.at || null, onclick: () => this.go(to) }, label);
    const slider = h("input", { type: "range", min: 0, max: last, value: this.at, "aria-label": t("replay_position"),
      "data-replay-slider": "", oninput: (e) => this.go(Number(e.target.value)) });
    this.page.show(h("section", { class: "game replay", "aria-label": t("replay") },
      h("div", { class: "replay-bar", role: "group", "aria-label": t("replay") },
        h("strong", {}, t("replay_of", { game: t(view.variant) })), " ",
        step("|◀", 0, "first"), step("◀", this.at - 1, "back"), step("▶", this.at + 1, "forward"),
        step("▶|", last, "last"), " ", slider, " ",
        h("span", { "data-replay-at": this.at }, t("step_of", { n: this.at + 1, total: last + 1 })), " ",
        h("a", { href: `/api/v1/games/${this.id}/record`, download: `${this.id}.json`, "data-download": "" }, t("download_record")), " ",
        h("a", { href: `#game=${this.id}` }, t("back_to_game"))),
      h("div", { class: "table" },
        h("div", { class: "play-area" }, RENDERERS[view.variant](view, ui)),
        h("section", { class: "log", "aria-label": t("history") }, h("h2", {}, t("history")),
          h("ol", { reversed: true }, ...lines.slice().reverse().map((l) => h("li", { "data-move": l.version }, l.text))))),
      analysisPanel(this.analysis, this.versions[last], view, this.chosen, (move) => this.pick(move))));
    if (this.chosen && this.versions[this.at + 1] === this.chosen.version) markBetter(this.chosen.best);
  }
}
