// The seats this browser holds: each tab keeps its token in sessionStorage, and the
// "my games" list in localStorage keeps every game joined here (token included), so
// a closed tab loses nothing.
const MY_GAMES = "stacks:my-games";
const MOST = 30; // the newest games only: an old list is no use to anyone

export function myGames() {
  try {
    const games = JSON.parse(localStorage.getItem(MY_GAMES) || "[]");
    return Array.isArray(games) ? games : [];
  } catch {
    return [];
  }
}

export function remember(game) {
  const others = myGames().filter((g) => g.id !== game.id);
  localStorage.setItem(MY_GAMES, JSON.stringify([{ ...game, at: Date.now() }, ...others].slice(0, MOST)));
}

export function forget(id) {
  localStorage.setItem(MY_GAMES, JSON.stringify(myGames().filter((g) => g.id !== id)));
  sessionStorage.removeItem(`token:${id}`);
}

// The token to open ``id`` with: this tab's, else the one "my games" kept.
export function tokenFor(id) {
  return sessionStorage.getItem(`token:${id}`) || myGames().find((g) => g.id === id)?.token || null;
}

export function keepToken(id, token) {
  sessionStorage.setItem(`token:${id}`, token);
}

// Forget ``token`` for game ``id`` (refused by the server), and only that one: a link
// with someone else's (or a made-up) token must not wipe the one kept here.
export function dropToken(id, token) {
  if (sessionStorage.getItem(`token:${id}`) === token) sessionStorage.removeItem(`token:${id}`);
  localStorage.setItem(MY_GAMES, JSON.stringify(myGames().map((g) => (g.id === id && g.token === token ? { ...g, token: null } : g))));
}

// The host tokens of games made here (they cancel a game before its deal).
const HOSTED = "stacks:hosted";

export function keepHostToken(id, token) {
  const kept = { ...JSON.parse(localStorage.getItem(HOSTED) || "{}"), [id]: token };
  localStorage.setItem(HOSTED, JSON.stringify(Object.fromEntries(Object.entries(kept).slice(-MOST))));
}

export function hostToken(id) {
  try {
    return JSON.parse(localStorage.getItem(HOSTED) || "{}")[id] || null;
  } catch {
    return null;
  }
}

// What the player saw and sent before each deal (the commitment, the entropy): kept
// to check the game once it is over (stacks-api verify ... --commitment --entropy).
const DEALS = "stacks:deals";

function deals() {
  try {
    return JSON.parse(localStorage.getItem(DEALS) || "{}") || {};
  } catch {
    return {};
  }
}

// Entropy of our own for a deal: 16 random bytes, as hex.
export function freshEntropy() {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function keepDeal(id, deal) {
  const kept = Object.entries({ ...deals(), [id]: { ...deal, at: Date.now() } })
    .sort((a, b) => b[1].at - a[1].at).slice(0, 100);
  localStorage.setItem(DEALS, JSON.stringify(Object.fromEntries(kept)));
}

export function dealFor(id) {
  return deals()[id] || null;
}
