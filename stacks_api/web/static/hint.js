// Hints: a button on your turn in a casual game (not rated, not a tournament's nor a duplicate match's).
// The server's workers compute the hint (the request only asks, 202 until it is
// ready); the suggested card and its space or pile are lit, with the reason in the
// player's language.
import { cardLabel, h } from "./dom.js";
import { t } from "./i18n.js";
import { problemText } from "./api.js";

const RETRY_MS = 500;

async function fetchHint(ui, version) {
  for (let tries = 0; tries < 60; tries++) {
    const answer = await fetch(`/api/v1/games/${ui.id}/hint`, { headers: { Authorization: `Bearer ${ui.token}` } });
    const body = await answer.json().catch(() => ({}));
    if (answer.status === 200) return body;
    if (answer.status !== 202 || ui.view.version !== version) throw new Error(body.code ? problemText(body) : t("hint_failed"));
    await new Promise((done) => setTimeout(done, RETRY_MS));
  }
  throw new Error(t("hint_failed"));
}

// The reason in words: the client's own language when it knows the reason's code.
export function reasonText(move) {
  const { code, ...words } = move.reason;
  if (words.team) words.team = t(words.team);
  if (words.color) words.color = t(words.color);
  if (words.card) words.card = cardLabel(words.card);
  const key = `why_${code}`;
  const shown = t(key, words);
  return shown === key ? move.why : shown;
}

export function hintBox(view, ui) {
  if (view.rated || view.tournament || view.duplicate || !ui.myTurn()) return null; // the server refuses them
  const mine = ui.hint && ui.hint.version === view.version ? ui.hint : null;
  const ask = async () => {
    ui.hint = { version: view.version, asking: true };
    ui.render();
    try {
      const found = await fetchHint(ui, view.version);
      ui.hint = { version: found.version, moves: found.moves };
    } catch (error) {
      ui.hint = null;
      ui.page.say(error.message);
    }
    ui.render();
  };
  if (mine && mine.asking) return h("p", { class: "hint-box", "data-hint-state": "asking" }, t("hint_thinking"));
  if (mine && mine.moves) {
    const best = mine.moves[0];
    return h("p", { class: "hint-box", "data-hint-state": "shown" },
      h("strong", {}, `${t("hint")}: `), reasonText(best), " ",
      h("span", { class: "hint-win" }, t("hint_win", { win: Math.round(best.win * 100) })));
  }
  return h("p", { class: "hint-box" }, h("button", { type: "button", class: "small", "data-hint": "", onclick: ask }, t("hint")));
}

// Light the hinted card and where it goes (after each render).
export function markHint(ui) {
  const mine = ui.hint && ui.view && ui.hint.version === ui.view.version && ui.hint.moves;
  if (!mine || !mine.length) return;
  const action = mine[0].action;
  const lit = [];
  if (action.card) lit.push(document.querySelector(`.hand [data-card='${action.card}']`));
  if (action.cell) lit.push(document.querySelector(`[data-cell='${action.cell[0]},${action.cell[1]}']`));
  if (action.pile !== undefined) lit.push(document.querySelector(`[data-pile='${action.pile}']`));
  for (const node of lit) if (node) { node.classList.add("hinted"); node.dataset.hinted = ""; }
}
