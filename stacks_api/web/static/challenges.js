// Challenges in the browser: a "Challenge" button wherever another player is named
// (their page, the leaderboard, a past game), and the notices of challenges received
// (Accept, Decline) and answered, looked at every few seconds while signed in.
import { account } from "./account.js";
import { call } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { freshEntropy, keepDeal, keepToken } from "./seats.js";

const SENT = "stacks:challenges"; // challenge id -> the deal's commitment and our entropy
const SEEN = "stacks:challenges-seen"; // answers already told in this tab

function sentDeals() {
  try {
    return JSON.parse(localStorage.getItem(SENT) || "{}");
  } catch {
    return {};
  }
}

function seen() {
  return new Set(JSON.parse(sessionStorage.getItem(SEEN) || "[]"));
}

function markSeen(id) {
  sessionStorage.setItem(SEEN, JSON.stringify([...seen(), id]));
}

// A button that challenges ``player`` ({id, name}) to ``variant``: it asks whether the
// game is rated, then sends. Nothing for someone signed out, or for oneself.
export function challengeButton(player, variant, say) {
  const me = account();
  if (!me || !player.id || player.id === me.id) return null;
  const box = h("span", { class: "challenge", "data-challenge-box": player.id });
  const send = async (rated) => {
    const entropy = freshEntropy();
    try {
      const made = await call("POST", `/players/${player.id}/challenges`, { token: me.key,
        body: { variant, rated, entropy } });
      localStorage.setItem(SENT, JSON.stringify({ ...sentDeals(),
        [made.challenge.id]: { commitment: made.challenge.commitment, entropy, token: made.token } }));
      box.replaceChildren(h("span", { class: "hint", role: "status", "data-challenge-sent": made.challenge.id },
        t("challenge_sent", { name: player.name })));
    } catch (error) {
      say(error.message);
      reset();
    }
  };
  const ask = () => box.replaceChildren(
    h("button", { type: "button", class: "small primary", "data-challenge-rated": "", onclick: () => send(true) }, t("challenge_rated")), " ",
    h("button", { type: "button", class: "small", "data-challenge-casual": "", onclick: () => send(false) }, t("challenge_casual")), " ",
    h("button", { type: "button", class: "small quiet", onclick: () => reset() }, t("no")));
  const reset = () => box.replaceChildren(h("button", { type: "button", class: "small", "data-challenge": player.id,
    onclick: ask }, t("challenge_player", { name: player.name })));
  reset();
  return box;
}

async function accept(challenge, say) {
  const me = account();
  const entropy = freshEntropy();
  try {
    const made = await call("POST", `/challenges/${challenge.id}/accept`, { token: me.key, body: { entropy } });
    keepDeal(made.game.id, { commitment: challenge.commitment, entropy });
    keepToken(made.game.id, made.token);
    location.hash = `game=${made.game.id}`;
  } catch (error) {
    say(error.message);
  }
}

async function decline(challenge, say) {
  try {
    await call("POST", `/challenges/${challenge.id}/decline`, { token: account().key });
  } catch (error) {
    say(error.message);
  }
}

// The notice of one challenge: received and waiting, or one of ours answered.
function notice(challenge, me, say, look) {
  const variant = t(challenge.variant);
  const kind = challenge.rated ? t("rated") : t("casual");
  if (challenge.to === me.id) {
    const answer = (work) => async () => { await work(challenge, say); look(); };
    return h("p", { class: "notice", "data-challenge-notice": challenge.id },
      t("challenged_by", { name: challenge.from_name, variant, kind }), " ",
      h("button", { type: "button", class: "small primary", "data-accept": challenge.id, onclick: answer(accept) }, t("accept")), " ",
      h("button", { type: "button", class: "small quiet", "data-decline": challenge.id, onclick: answer(decline) }, t("decline")));
  }
  const done = () => { markSeen(challenge.id); look(); };
  if (challenge.status === "accepted") {
    const open = () => {
      const deal = sentDeals()[challenge.id];
      if (deal) {
        keepDeal(challenge.game_id, { commitment: deal.commitment, entropy: deal.entropy });
        keepToken(challenge.game_id, deal.token);
      }
      done();
      location.hash = `game=${challenge.game_id}`;
    };
    return h("p", { class: "notice", "data-challenge-answer": "accepted" },
      t("challenge_accepted", { name: challenge.to_name }), " ",
      h("button", { type: "button", class: "small primary", "data-open-challenge-game": challenge.game_id, onclick: open }, t("open_game")));
  }
  return h("p", { class: "notice", "data-challenge-answer": challenge.status },
    t(`challenge_${challenge.status}`, { name: challenge.to_name }), " ",
    h("button", { type: "button", class: "small quiet", onclick: done }, t("dismiss")));
}

// Show the account's challenges' notices: the returned ``look`` reads them again
// (the account's stream calls it on each challenge event: never by polling).
export function watchChallenges(box, say) {
  const look = async () => {
    const me = account();
    if (!me) return box.replaceChildren();
    try {
      const { challenges } = await call("GET", "/challenges", { token: me.key });
      const told = seen();
      const news = challenges.filter((c) => (c.to === me.id ? c.status === "pending"
        : c.status !== "pending" && !told.has(c.id) && c.id in sentDeals()));
      box.replaceChildren(...news.map((c) => notice(c, me, say, look)));
    } catch {
      // Offline for a moment: the next look tries again.
    }
  };
  look();
  return look;
}
