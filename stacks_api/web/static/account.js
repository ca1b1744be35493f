// The player's account in this browser: its key (kept in localStorage, shown on
// request so it can be copied to another device), its id and its name.
import { call } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "stacks:key";
const PLAYER = "stacks:player";

export function account() {
  try {
    const player = JSON.parse(localStorage.getItem(PLAYER) || "null");
    const key = localStorage.getItem(KEY);
    return key && player ? { key, ...player } : null;
  } catch {
    return null;
  }
}

// Signing in or out is told to this tab (other tabs hear the storage change).
const changed = () => window.dispatchEvent(new Event("stacks:account"));

function keep(key, player) {
  localStorage.setItem(KEY, key);
  localStorage.setItem(PLAYER, JSON.stringify({ id: player.id, name: player.name }));
  changed();
}

export async function createAccount(name) {
  const made = await call("POST", "/players", { body: { name, label: t("key_label") } });
  keep(made.key, made.player);
}

// A key copied from another device: the server says whose it is.
export async function useKey(key) {
  keep(key, await call("GET", "/players/me", { token: key }));
}

export function signOut() {
  localStorage.removeItem(KEY);
  localStorage.removeItem(PLAYER);
  changed();
}

const GUEST_NAME = "stacks:guest-name";

// The name to offer: the account's, else the one this browser last played under.
export function nameToOffer() {
  return account()?.name || localStorage.getItem(GUEST_NAME) || t("default_name");
}

export function keepGuestName(name) {
  localStorage.setItem(GUEST_NAME, name);
}

// The lobby's account box: create one or paste a key; once signed in, the name,
// the player page, the key to copy and a way out.
export function accountBox(say, changed) {
  const mine = account();
  const act = (work) => async (event) => {
    event.preventDefault();
    try {
      await work();
      changed();
    } catch (error) {
      say(error.message);
    }
  };
  if (!mine) {
    const name = h("input", { id: "account-name", maxlength: 40, value: nameToOffer() });
    const pasted = h("input", { id: "account-key", autocomplete: "off", placeholder: "stk_…" });
    return h("section", { class: "account", "data-account": "" },
      h("h2", {}, t("account")), h("p", { class: "hint" }, t("account_why")),
      h("form", { onsubmit: act(() => createAccount(name.value)) },
        h("label", { for: "account-name" }, `${t("your_name")} `, name), " ",
        h("button", { type: "submit", "data-create-account": "" }, t("create_account"))),
      h("form", { onsubmit: act(() => useKey(pasted.value.trim())) },
        h("label", { for: "account-key" }, `${t("have_key")} `, pasted), " ",
        h("button", { type: "submit", "data-use-key": "" }, t("use_key"))));
  }
  const shownKey = h("input", { id: "my-key", readonly: true, value: mine.key, hidden: true,
    "aria-label": t("your_key"), onfocus: (e) => e.target.select() });
  const copy = async () => {
    shownKey.hidden = false;
    try {
      await navigator.clipboard.writeText(mine.key);
      say(t("key_copied"));
    } catch {
      say(t("key_shown"));
    }
  };
  return h("section", { class: "account", "data-account": mine.id },
    h("h2", {}, t("account")),
    h("p", {}, t("signed_in_as", { name: mine.name }), " ",
      h("a", { href: `#player=${mine.id}`, "data-my-page": "" }, t("my_page"))),
    h("p", {}, h("button", { type: "button", class: "small", "data-copy-key": "", onclick: copy }, t("copy_key")), " ",
      h("button", { type: "button", class: "small quiet", onclick: () => { signOut(); changed(); } }, t("sign_out"))),
    shownKey, h("p", { class: "hint" }, t("key_warning")));
}
