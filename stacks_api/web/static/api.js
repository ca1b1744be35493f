// The HTTP API, as the client uses it: JSON in and out, problems as errors.
const BASE = "/api/v1";

export class Refusal extends Error {
  constructor(problem) {
    super(problem.detail || problem.title || "refused");
    this.problem = problem;
  }
}

export async function call(method, path, { body, token, wait, headers = {} } = {}) {
  const sent = { ...headers };
  if (body !== undefined) sent["Content-Type"] = "application/json";
  if (token) sent.Authorization = `Bearer ${token}`;
  if (wait) sent.Prefer = `wait=${wait}`;
  const answer = await fetch(BASE + path, {
    method, headers: sent, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Refusal({ status: answer.status, ...json });
  return json;
}

// Follow a game's events; EventSource reconnects by itself with Last-Event-ID.
// A spectator ``watch``-es: it is counted, and hears the spectators' chat.
export function follow(gameId, after, { onEvent, onOpen, onLost, watch = false }) {
  const source = new EventSource(`${BASE}/games/${gameId}/events?after=${after}${watch ? "&watch=true" : ""}`);
  source.onmessage = (message) => onEvent(JSON.parse(message.data));
  source.onopen = onOpen;
  source.onerror = onLost;
  return source;
}
