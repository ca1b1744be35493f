// Challenges in the browser: a "Challenge" button wherever another player is named
// (their page, the leaderboard, a past game), and the notices of challenges received
// (Accept, Decline) and answered, looked at every few seconds while signed in.
import { account } from "./account.js";
import { call } from "./api.js";
import { h } from "./dom.js";
import { BOT_LEVELS, botName } from "./history.js";
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

const CLOCKS = [15, 30, 60, 120, 300]; // seconds a move, as the server takes them
const DAYS = [1, 2, 3, 5, 7, 10, 14]; // days a move
const RATED_CLOCK = 60; // a rated game is never unclocked

// A challenge's pace in words: "1 day a move", "60 s a move", "no clock".
export function paceText(challenge) {
  if (challenge.days) return t("pace_days", { n: challenge.days });
  return challenge.turn_seconds ? t("pace_seconds", { n: challenge.turn_seconds }) : t("pace_none");
}

// A button that challenges ``player`` ({id, name}) to ``variant``: it asks the pace
// (seconds or days a move) and whether the game is rated, then sends. Nothing for
// someone signed out, or for oneself.
export function challengeButton(player, variant, say) {
  const me = account();
  if (!me || !player.id || player.id === me.id) return null;
  const box = h("span", { class: "challenge", "data-challenge-box": player.id });
  const send = async (rated, pace, bot) => {
    const [kind, n] = pace.split(":");
    const entropy = freshEntropy();
    try {
      const body = { variant, rated, entropy, ...(kind === "days" ? { days: Number(n) } : { clock: Number(n) }),
        ...(bot ? { deals: "duplicate", bot } : {}) };
      const made = await call("POST", `/players/${player.id}/challenges`, { token: me.key, body });
      localStorage.setItem(SENT, JSON.stringify({ ...sentDeals(),
        [made.challenge.id]: { commitment: made.challenge.commitment, entropy, token: made.token } }));
      box.replaceChildren(h("span", { class: "hint", role: "status", "data-challenge-sent": made.challenge.id },
        t(made.challenge.days ? "challenge_sent_days" : "challenge_sent",
          { name: player.name, pace: paceText(made.challenge) }),
        made.challenge.unrated ? ` ${t(`unrated_${made.challenge.unrated}`)}` : ""));
    } catch (error) {
      say(error.message);
      reset();
    }
  };
  const ask = () => {
    const rated = h("input", { type: "checkbox", id: `rated-${player.id}-${variant}`, "data-challenge-rated": "" });
    const none = h("option", { value: "clock:0" }, t("pace_none"));
    const pace = h("select", { "data-challenge-pace": "", "aria-label": t("pace") }, none,
      ...CLOCKS.map((n) => h("option", { value: `clock:${n}`, selected: n === RATED_CLOCK || null }, t("pace_seconds", { n }))),
      ...DAYS.map((n) => h("option", { value: `days:${n}` }, t("pace_days", { n }))));
    // Against each other, or both against one bot on the same deal (never rated).
    const bot = h("select", { "data-challenge-bot": "", "aria-label": t("duplicate_bot"), hidden: true },
      ...BOT_LEVELS.map((b) => h("option", { value: b, selected: b === "medium" || null }, t(`level_${b}`))));
    const deals = h("select", { "data-challenge-deals": "", "aria-label": t("challenge_kind"),
      onchange: () => {
        const duplicate = deals.value === "duplicate";
        bot.hidden = !duplicate;
        rated.disabled = duplicate;
        if (duplicate) rated.checked = false;
        // Like a rated game, a duplicate match is clocked (or days): it ends by itself.
        none.disabled = rated.checked || duplicate;
        if (none.disabled && pace.value === "clock:0") pace.value = `clock:${RATED_CLOCK}`;
      } },
    h("option", { value: "standard" }, t("challenge_each_other")), h("option", { value: "duplicate" }, t("challenge_duplicate")));
    // A rated game has a clock or days: "no clock" is not offered for it.
    rated.addEventListener("change", () => {
      none.disabled = rated.checked || deals.value === "duplicate";
      if (rated.checked && pace.value === "clock:0") pace.value = `clock:${RATED_CLOCK}`;
    });
    box.replaceChildren(h("span", { class: "challenge-form" },
      deals, " ", bot, " ",
      h("label", {}, `${t("pace")} `, pace), " ",
      h("label", { for: rated.id, class: "option" }, rated, ` ${t("rated")}`), " ",
      h("button", { type: "button", class: "small primary", "data-challenge-send": "",
        onclick: () => send(rated.checked, pace.value, deals.value === "duplicate" ? bot.value : null) }, t("challenge_send")), " ",
      h("button", { type: "button", class: "small quiet", onclick: () => reset() }, t("no"))));
  };
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
    // A duplicate game is dealt from both people's entropy mixed: only the commitment is ours to check.
    keepDeal(made.game.id, { commitment: challenge.commitment, entropy: challenge.deals === "duplicate" ? null : entropy });
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
      challenge.deals === "duplicate"
        ? t("challenged_duplicate", { name: challenge.from_name, variant, bot: botName(`${challenge.bot} bot`), pace: paceText(challenge) })
        : t("challenged_by", { name: challenge.from_name, variant, kind, pace: paceText(challenge) }), " ",
      challenge.unrated ? h("small", { "data-unrated": challenge.unrated }, t(`unrated_${challenge.unrated}`), " ") : null,
      h("button", { type: "button", class: "small primary", "data-accept": challenge.id, onclick: answer(accept) }, t("accept")), " ",
      h("button", { type: "button", class: "small quiet", "data-decline": challenge.id, onclick: answer(decline) }, t("decline")));
  }
  const done = () => { markSeen(challenge.id); look(); };
  if (challenge.status === "accepted") {
    const open = () => {
      const deal = sentDeals()[challenge.id];
      if (deal) {
        keepDeal(challenge.game_id, { commitment: deal.commitment, entropy: challenge.deals === "duplicate" ? null : deal.entropy });
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
