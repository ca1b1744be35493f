// The browser client: a lobby and a game page for either variant, over the public API.
// The address says which game (#game=<id>); a token in it is read once, kept in this
// tab (and in "my games") and taken out of the address bar.
import { account } from "./account.js";
import { showConsent } from "./apps.js";
import { watchChallenges } from "./challenges.js";
import { showMatch } from "./duplicate.js";
import { bell, setTitle, showNotifications, watchAccount } from "./notify.js";
import { h } from "./dom.js";
import { LANGUAGES, chooseLanguage, language, t } from "./i18n.js";
import { GameScreen } from "./game.js";
import { showInvite, showLobby } from "./lobby.js";
import { showPlayer } from "./player.js";
import { showLeaderboard } from "./ratings.js";
import { ReplayScreen } from "./replay.js";
import { keepToken, tokenFor } from "./seats.js";
import { setSound, soundOn } from "./sound.js";
import { showTournament, showTournaments } from "./tournaments.js";

const main = document.getElementById("main");
const banner = document.getElementById("banner");
const message = document.getElementById("message");
const statusBox = document.querySelector("[data-status]");
const statusLabel = document.getElementById("status-label");
let current = null; // the game on screen
let stopLobby = null;

const page = {
  say(text) { message.textContent = text; },
  show(...nodes) { main.replaceChildren(...nodes); },
  lost(yes) { banner.hidden = !yes; },
  status(status, version) {
    statusBox.textContent = status;
    statusBox.dataset.version = String(version);
    statusLabel.textContent = t(`status_${status}`);
  },
};

function route() {
  if (location.pathname === "/oauth/authorize") { // served here by the server: an app asks
    page.status("consent", 0);
    return showConsent(main, page.say);
  }
  const hash = new URLSearchParams(location.hash.slice(1));
  const gameId = hash.get("game");
  if (current) current.close();
  if (stopLobby) stopLobby();
  current = stopLobby = null;
  page.say("");
  page.lost(false);
  if (hash.get("replay")) {
    current = new ReplayScreen(hash.get("replay"), page);
    return;
  }
  if (hash.get("leaderboard")) {
    page.status("leaderboard", 0);
    showLeaderboard(main, page.say, hash.get("leaderboard") === "stacks" ? "stacks" : "sequence");
    return;
  }
  if (hash.get("tournament")) {
    page.status("tournament", 0);
    stopLobby = showTournament(main, page.say, hash.get("tournament"));
    return;
  }
  if (hash.get("tournaments")) {
    page.status("tournaments", 0);
    stopLobby = showTournaments(main, page.say);
    return;
  }
  if (hash.get("match")) {
    page.status("match", 0);
    stopLobby = showMatch(main, page.say, hash.get("match"));
    return;
  }
  if (hash.get("notifications")) {
    page.status("settings", 0);
    showNotifications(main, page.say);
    return;
  }
  if (hash.get("player")) {
    page.status("player", 0);
    showPlayer(main, page.say, hash.get("player"));
    return;
  }
  if (!gameId) {
    page.status("lobby", 0);
    stopLobby = showLobby(main, page.say);
    return;
  }
  const token = hash.get("token");
  if (token) {
    keepToken(gameId, token);
    // The token leaves the address bar: a copied address never gives the seat away.
    history.replaceState(null, "", `${location.pathname}#game=${gameId}`);
  }
  // An invitation to a seat: taken by a guest, or by the person signed in as their
  // account (the invite page opens the game instead if the account sits there).
  const seat = hash.get("seat");
  if (seat !== null && !token && !tokenFor(gameId)) {
    page.status("joining", 0);
    showInvite(main, page.say, gameId, Number(seat));
    return;
  }
  // A seat's own token, else the account's key (it acts for every seat linked to it).
  current = new GameScreen(gameId, token || tokenFor(gameId) || account()?.key || null, page);
}

function header() {
  const languages = h("select", { id: "language", "aria-label": t("language"),
    onchange: async (event) => {
      await chooseLanguage(event.target.value);
      header();
      main.replaceChildren(); // the screen in the old language goes at once, not when the new one has loaded
      route();
    } },
    ...Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, selected: code === language() }, name)));
  const sound = h("input", { type: "checkbox", id: "sound", checked: soundOn() || null,
    onchange: (event) => setSound(event.target.checked) });
  setTitle(t("title"));
  document.getElementById("brand").textContent = t("brand");
  banner.textContent = t("reconnecting");
  document.getElementById("settings").replaceChildren(
    h("label", { for: "sound" }, sound, ` ${t("sound")}`), " ", languages, " ",
    account() ? h("a", { href: "#notifications=1", "data-notifications-link": "", title: t("notifications") }, "⚙") : "", " ",
    bell(page.say));
}

header();
window.addEventListener("stacks:account", header); // the bell and settings need an account
window.addEventListener("hashchange", () => {
  route();
  window.scrollTo(0, 0); // a new screen opens at its top, not where the last one was left
});
route();
const challenged = watchChallenges(document.getElementById("notices"), page.say);
watchAccount(document.getElementById("turns"), challenged);
