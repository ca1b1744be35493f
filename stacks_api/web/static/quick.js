// "Play now": quick pairing. The server seats the player with someone who asked for
// the same game, of close rating; the wait can be cancelled. Needs an account.
import { account } from "./account.js";
import { call } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const POLL_MS = 1000;

// The turn clocks a seek may ask for (the server's TURN_CLOCKS), in seconds.
const CLOCKS = [15, 30, 60, 120, 300, 0];

export function quickPlay(say, takeSeat) {
  const me = account();
  if (!me) return h("section", { class: "quick" }, h("h2", {}, t("play_now")), h("p", { class: "hint" }, t("play_now_needs_account")));
  const variant = h("select", { id: "quick-variant" },
    h("option", { value: "sequence" }, t("sequence")), h("option", { value: "stacks" }, t("stacks")));
  const rated = h("input", { id: "quick-rated", type: "checkbox", checked: true });
  // Time a turn; a rated game always has one (the "no clock" choice is casual only).
  const clock = h("select", { id: "quick-clock" },
    ...CLOCKS.map((s) => h("option", { value: s, selected: s === 60 }, s ? t("clock_s", { n: s }) : t("no_clock"))));
  const noClock = clock.querySelector("option[value='0']");
  const rules = () => {
    noClock.disabled = rated.checked;
    if (rated.checked && clock.value === "0") clock.value = "60";
  };
  rated.addEventListener("change", rules);
  rules();
  const state = h("p", { class: "hint", role: "status", "data-seek-state": "" });
  const go = h("button", { type: "submit", class: "primary", "data-play-now": "" }, t("play_now"));
  const cancel = h("button", { type: "button", hidden: true, "data-cancel-seek": "" }, t("cancel_seek"));
  let seek = null;
  let timer = null;
  const stop = (text) => {
    clearTimeout(timer);
    seek = null;
    go.disabled = false;
    cancel.hidden = true;
    state.textContent = text;
  };
  const poll = async () => {
    if (!seek || !document.contains(state)) return stop("");
    try {
      const now = await call("GET", `/seeks/${seek.id}`, { token: me.key });
      if (now.status === "waiting") {
        timer = setTimeout(poll, POLL_MS);
        return;
      }
      if (now.status !== "paired") return stop(t("seek_expired"));
      stop(t("paired"));
      await takeSeat(now.game_id, now.seat, me.name);
      location.hash = `game=${now.game_id}`;
    } catch (error) {
      stop("");
      say(error.message);
    }
  };
  const start = async (event) => {
    event.preventDefault();
    try {
      seek = await call("POST", "/seeks", { token: me.key,
        body: { variant: variant.value, players: 2, rated: rated.checked, turn_seconds: Number(clock.value) } });
      go.disabled = true;
      cancel.hidden = false;
      state.textContent = t("seeking", { rating: seek.rating });
      timer = setTimeout(poll, 0);
    } catch (error) {
      say(error.message);
    }
  };
  cancel.addEventListener("click", async () => {
    const withdrawing = seek;
    if (!withdrawing) return; // nothing waits (the button is hidden then)
    stop(t("seek_cancelled"));
    try {
      await call("DELETE", `/seeks/${withdrawing.id}`, { token: me.key });
    } catch (error) {
      say(error.message); // paired meanwhile: the game is in "my games"
    }
  });
  return h("form", { class: "quick", onsubmit: start },
    h("h2", {}, t("play_now")),
    h("label", { for: "quick-variant" }, `${t("game")} `, variant),
    h("label", { for: "quick-rated", class: "option" }, rated, ` ${t("rated")}`),
    h("label", { for: "quick-clock" }, `${t("quick_clock")} `, clock),
    h("p", {}, go, " ", cancel), state);
}
