// Other apps that act for the account: the consent page of the OAuth flow (the
// server serves this client at /oauth/authorize) and the list of connected apps.
import { account } from "./account.js";
import { Refusal, call, problemText } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const SCOPES = ["play", "challenge", "tournament", "read", "bot"];

function host(uri) {
  try {
    return new URL(uri).host;
  } catch {
    return uri;
  }
}

// Whether a redirect stays on the person's own machine (an app running there).
function loopback(uri) {
  try {
    return ["127.0.0.1", "[::1]", "localhost"].includes(new URL(uri).hostname);
  } catch {
    return false;
  }
}

// The person approves or denies with their key; the server says where to go next
// (the app's redirect URI with a code, or with an error), and the browser goes.
export async function showConsent(main, say) {
  const asked = new URLSearchParams(location.search);
  // The server served this page with 400 if the app's request cannot be trusted:
  // ask it again for the problem, and tell the person in their words.
  const checked = await fetch(location.href, { headers: { Accept: "application/json" } }).catch(() => null);
  if (checked && !checked.ok) {
    const problem = await checked.json().catch(() => ({}));
    main.replaceChildren(h("section", { class: "consent", "data-consent-refused": problem.code || "" },
      h("h1", {}, t("consent_refused_title")),
      h("p", {}, t("consent_refused", { app: asked.get("client_id") || "?" })),
      h("p", { class: "hint" }, problemText({ status: checked.status, ...problem })),
      h("p", {}, h("a", { href: "/play" }, t("lobby")))));
    return;
  }
  const me = account();
  const scopes = (asked.get("scope") || "").split(" ").filter((s) => SCOPES.includes(s));
  const decide = (decision) => async () => {
    try {
      const body = new URLSearchParams({ ...Object.fromEntries(asked), decision });
      const answer = await fetch("/oauth/authorize", { method: "POST", body,
        headers: { Authorization: `Bearer ${me.key}`, Accept: "application/json" } });
      const next = await answer.json().catch(() => ({}));
      if (!answer.ok) throw new Refusal({ status: answer.status, ...next });
      location.assign(next.redirect_to);
    } catch (error) {
      say(error.message);
    }
  };
  main.replaceChildren(h("section", { class: "consent", "data-consent": "" },
    h("h1", {}, t("consent_title")),
    h("p", {}, t("consent_app", { app: asked.get("client_id") || "?" })),
    h("p", { class: "hint", "data-consent-where": "" }, loopback(asked.get("redirect_uri") || "")
      ? t("consent_where_device") : t("consent_where", { host: host(asked.get("redirect_uri") || "") })),
    h("ul", { class: "scopes" }, ...scopes.map((s) => h("li", { "data-scope": s }, t(`scope_${s}`)))),
    me
      ? h("p", {}, t("signed_in_as", { name: me.name }), " ",
        h("button", { class: "primary", "data-approve": "", onclick: decide("approve") }, t("approve")), " ",
        h("button", { "data-deny": "", onclick: decide("deny") }, t("deny")))
      : h("p", { "data-sign-in-first": "" }, t("consent_sign_in"), " ", h("a", { href: "/play" }, t("lobby")))));
}

const when = (seconds) => new Date(seconds * 1000).toLocaleDateString();

// The settings page's list: each app or personal token, its scopes, and a revoke.
export function appsSection(say) {
  const me = account();
  const list = h("ul", { class: "apps", "data-apps": "" });
  const load = async () => {
    try {
      const { apps } = await call("GET", "/players/me/apps", { token: me.key });
      list.replaceChildren(...(apps.length ? apps.map((app) => h("li", { "data-app": app.id },
        h("strong", {}, app.app), ` · ${app.scopes.join(", ")} · ${t("granted_on", { date: when(app.created_at) })} · `,
        app.last_used_at ? t("last_used", { date: when(app.last_used_at) }) : t("never_used"), " ",
        h("button", { class: "small quiet", "data-revoke-app": app.id, onclick: () => revoke(app.id) }, t("revoke"))))
        : [h("li", {}, t("apps_none"))]));
    } catch (error) {
      say(error.message);
    }
  };
  const revoke = async (id) => {
    try {
      await call("DELETE", `/players/me/apps/${id}`, { token: me.key });
      await load();
    } catch (error) {
      say(error.message);
    }
  };
  load();
  return h("section", { class: "settings" }, h("h2", {}, t("apps_title")), list);
}
