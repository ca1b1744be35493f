// Being told: the account's event stream (whose turn it is, challenges: never by
// polling), the "your turn" list across every game with its count in the tab's
// title, the bell that subscribes this browser to pushes (asked first), and the
// page of notification settings (#notifications=1).
import { account } from "./account.js";
import { appsSection } from "./apps.js";
import { call, stream } from "./api.js";
import { h, timeLeft } from "./dom.js";
import { t } from "./i18n.js";
import { botName } from "./history.js";

let waiting = []; // the games that wait for this account
let heading = "";
const TURNS = ["your_turn", "turn_reminder", "game_started", "game_ended", "vacation"];

// The tab's title: what the page says, after how many games wait for you.
export function setTitle(text) {
  heading = text;
  document.title = waiting.length ? `(${waiting.length}) ${text}` : text;
}

// A click on a push's notification sends this tab to its game (the service worker).
navigator.serviceWorker?.addEventListener("message", (event) => {
  const open = typeof event.data?.open === "string" ? new URL(event.data.open, location.href) : null;
  if (open?.origin === location.origin && open.pathname === "/play") location.href = open.href;
});
navigator.serviceWorker?.startMessages();

// A game that waits for you, in a few words: which game, against whom, and the time
// left ("Sequence vs Bo · 1 day a move · 20 h left").
function turnPill(game) {
  const against = game.opponents.map((name) => botName(name)).filter(Boolean).join(", ");
  const parts = [t(game.variant), against ? t("versus", { names: against }) : null,
    game.days ? t("pace_days", { n: game.days }) : null,
    game.deadline ? t("time_left", { time: timeLeft(game.deadline - Date.now() / 1000) }) : null];
  return parts.filter(Boolean).join(" · ");
}

// Follow the account's stream (when signed in): ``challenged()`` on its challenges,
// and the list of games waiting for you in ``box``.
export function watchAccount(box, challenged) {
  let source = null;
  const look = async () => {
    const me = account();
    try {
      waiting = me ? (await call("GET", "/players/me/games?turn=mine", { token: me.key })).games : [];
    } catch {
      return; // the stream's next event (or reconnection) looks again
    }
    box.replaceChildren(waiting.length ? h("p", { class: "turns", "data-turns": waiting.length },
      t("turns_waiting", { n: waiting.length }), " ",
      ...waiting.map((g) => h("a", { href: `#game=${g.id}`, class: "pill", "data-turn-game": g.id }, turnPill(g)))) : "");
    setTitle(heading || document.title);
  };
  const start = () => {
    if (source) source.close();
    const me = account();
    if (me) {
      source = stream("/players/me/events", { token: me.key,
        onEvent: (event) => {
          if (event.type.startsWith("challenge")) challenged();
          if (TURNS.includes(event.type)) look();
        },
        onOpen: () => { look(); challenged(); }, onLost: () => {} });
    } else look();
  };
  window.addEventListener("stacks:moved", () => look()); // our own move: no longer waiting
  window.addEventListener("storage", start); // signed in or out in another tab
  window.addEventListener("stacks:account", start); // or in this one
  start();
  return start;
}

// The service worker is registered once the page loads, signed in or not: it is
// what shows a push, and what a later subscription needs.
const worker = "serviceWorker" in navigator
  ? navigator.serviceWorker.register("/play/sw.js", { scope: "/play" }).catch(() => null)
  : Promise.resolve(null);

const PUSH_WAIT_MS = 20_000; // how long the browser's push service may take to subscribe
const canPush = () => "serviceWorker" in navigator && "PushManager" in window;

// This browser's push subscription, if it has one.
async function browserSubscription() {
  const registration = await worker;
  return registration ? registration.pushManager.getSubscription().catch(() => null) : null;
}

// A browser's own error, in the player's words: blocked, or it could not subscribe.
function pushError(error) {
  if (error?.problem) return error.message; // the server's refusal, already in words
  return t(error?.name === "NotAllowedError" ? "push_denied" : "push_failed");
}

async function subscribe(say) {
  try {
    if (await Notification.requestPermission() !== "granted") return say(t("push_denied"));
    const registration = await worker;
    if (!registration) return say(t("push_failed"));
    const { public_key: key } = await call("GET", "/push/key");
    say(t("push_asking"));
    // A browser whose push service never answers would leave the promise pending.
    const silent = new Promise((resolve) => setTimeout(() => resolve(null), PUSH_WAIT_MS));
    const subscription = await Promise.race([silent,
      registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key })]);
    if (!subscription) return say(t("push_silent"));
    await call("POST", "/players/me/push", { token: account().key, body: subscription.toJSON() });
    say(t("push_on"));
    window.dispatchEvent(new Event("stacks:push")); // the bell says so too
    return true;
  } catch (error) {
    say(pushError(error));
    return false;
  }
}

// Stop pushes to this browser: the server forgets its subscription, and the browser too.
async function unsubscribe(say) {
  try {
    const subscription = await browserSubscription();
    if (subscription) {
      const { subscriptions } = await call("GET", "/players/me/push", { token: account().key });
      const ours = subscriptions.find((s) => s.endpoint === subscription.endpoint);
      if (ours) await call("DELETE", `/players/me/push/${ours.id}`, { token: account().key });
      await subscription.unsubscribe();
    }
    say(t("push_off"));
    window.dispatchEvent(new Event("stacks:push"));
  } catch (error) {
    say(pushError(error));
  }
}

// The bell: asks before it subscribes this browser to pushes; once it has, it says so.
export function bell(say) {
  if (!canPush() || !account()) return "";
  const button = h("button", { type: "button", class: "small quiet", "data-bell": "", title: t("push_ask"),
    onclick: () => subscribe(say) }, t("bell"));
  const mark = (on) => {
    button.textContent = on ? t("bell_on") : t("bell");
    button.dataset.subscribed = on ? "yes" : "no";
  };
  const look = () => browserSubscription().then((found) => mark(Boolean(found)));
  look();
  window.addEventListener("stacks:push", () => { if (button.isConnected) look(); });
  return button;
}

// The settings page's line about this browser: notified or not, and the way to change it.
function browserLine(say) {
  const line = h("p", { "data-browser-push": "" }, t("loading"));
  if (!canPush()) return h("p", { "data-browser-push": "unsupported" }, t("push_unsupported"));
  const draw = async () => {
    const on = Boolean(await browserSubscription());
    line.dataset.browserPush = on ? "on" : "off";
    line.replaceChildren(t(on ? "push_browser_on" : "push_browser_off"), " ",
      h("button", { type: "button", class: on ? "small quiet" : "small primary", "data-push-toggle": on ? "off" : "on",
        onclick: async () => { await (on ? unsubscribe(say) : subscribe(say)); draw(); } },
      t(on ? "push_stop" : "push_start")));
  };
  draw();
  return line;
}

// The settings page: which kinds of event are pushed, and quiet hours.
export async function showNotifications(main, say) {
  const me = account();
  if (!me) return main.replaceChildren(h("p", {}, t("notifications_account")));
  const chosen = await call("GET", "/players/me/notifications", { token: me.key });
  const boxes = Object.entries(chosen.events).map(([kind, channels]) => h("label", { class: "pref" },
    h("input", { type: "checkbox", "data-pref": kind, checked: channels.includes("push") || null }), ` ${t(`pref_${kind}`)}`));
  const quiet = chosen.quiet_hours || { from: "22:00", to: "07:00" };
  const on = h("input", { type: "checkbox", "data-quiet": "", checked: chosen.quiet_hours ? true : null });
  const from = h("input", { type: "time", value: quiet.from, "data-quiet-from": "" });
  const to = h("input", { type: "time", value: quiet.to, "data-quiet-to": "" });
  const save = async (event) => {
    event.preventDefault();
    const events = {};
    for (const box of boxes) {
      const input = box.querySelector("input");
      const kept = chosen.events[input.dataset.pref].filter((c) => c !== "push");
      events[input.dataset.pref] = input.checked ? [...kept, "push"] : kept;
    }
    const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const quietHours = on.checked ? { from: from.value, to: to.value, tz } : null;
    try {
      await call("PATCH", "/players/me/notifications", { token: me.key, body: { events, quiet_hours: quietHours } });
      say(t("settings_saved"));
    } catch (error) {
      say(error.message);
    }
  };
  main.replaceChildren(h("section", { class: "settings", "data-notifications": "" },
    h("h1", {}, t("notifications")), browserLine(say),
    h("form", { onsubmit: save }, h("fieldset", {}, h("legend", {}, t("push_for")), ...boxes),
      h("fieldset", {}, h("legend", {}, h("label", {}, on, ` ${t("quiet_hours")}`)), from, " – ", to),
      h("button", { class: "primary", "data-save-notifications": "" }, t("save")))),
    appsSection(say));
}
