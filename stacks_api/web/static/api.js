// The HTTP API, as the client uses it: JSON in and out, problems as errors.
import { has, t } from "./i18n.js";

const BASE = "/api/v1";

// A refusal's message is the client's own words for its stable code, in the
// player's language; the server's English ``detail`` stays on ``problem`` (it is
// for integrators and the logs).
export class Refusal extends Error {
  constructor(problem) {
    super(problemText(problem));
    this.problem = problem;
  }
}

export function problemText(problem) {
  const key = `problem_${problem.code}`;
  if (problem.code && has(key)) {
    const fields = Object.keys(problem.errors || {}).join(", ");
    return t(key, { seconds: problem.retryAfter ?? "…", fields: fields || "…" });
  }
  return t("problem_unknown", { status: problem.status ?? "?" });
}

export async function call(method, path, { body, token, wait, headers = {} } = {}) {
  const sent = { ...headers };
  if (body !== undefined) sent["Content-Type"] = "application/json";
  if (token) sent.Authorization = `Bearer ${token}`;
  if (wait) sent.Prefer = `wait=${wait}`;
  let answer;
  try {
    answer = await fetch(BASE + path, {
      method, headers: sent, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new Refusal({ status: 0, code: "offline" }); // no answer at all: the network
  }
  const json = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    const retryAfter = Number(answer.headers.get("Retry-After")) || undefined;
    throw new Refusal({ status: answer.status, ...json, retryAfter });
  }
  return json;
}

// Follow an event stream with fetch (so it sends the token: a seat's stream keeps
// its person online). The server writes at least every 15 s: 45 s of silence is a
// lost connection, and every loss reconnects from the last id heard (Last-Event-ID)
// after a growing pause. Returns { close }.
export function stream(path, { token, onEvent, onOpen, onLost, onGone = null }) {
  let lastId = null, closed = false, control = null, watchdog = null, pause = 1000;
  const lost = () => { if (!closed) onLost(); };
  const run = async () => {
    while (!closed) {
      control = new AbortController();
      const headers = { Accept: "text/event-stream" };
      if (token) headers.Authorization = `Bearer ${token}`;
      if (lastId !== null) headers["Last-Event-ID"] = lastId;
      const alive = () => { clearTimeout(watchdog); watchdog = setTimeout(() => control.abort(), SILENCE_MS); };
      try {
        alive();
        const answer = await fetch(BASE + path, { headers, signal: control.signal });
        if (answer.status === 404 && onGone) { // nothing there to reconnect to, ever
          closed = true;
          return onGone();
        }
        if (!answer.ok || !answer.body) throw new Error(String(answer.status));
        onOpen();
        pause = 1000;
        const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          alive();
          buffer += value;
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let data = null;
            for (const line of block.split("\n")) {
              if (line.startsWith("data: ")) data = line.slice(6);
              else if (line.startsWith("id: ")) lastId = line.slice(4);
            }
            if (data !== null) onEvent(JSON.parse(data));
          }
        }
        if (closed) return;
      } catch {
        if (closed) return;
      } finally {
        clearTimeout(watchdog);
      }
      lost();
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, 30_000);
    }
  };
  run();
  return { close() { closed = true; clearTimeout(watchdog); if (control) control.abort(); } };
}

const SILENCE_MS = 45_000;

// A game's events after ``after``. A spectator ``watch``-es: it is counted, and hears
// the spectators' chat; a seat sends its token.
export function follow(gameId, after, { token, onEvent, onOpen, onLost, onGone, watch = false }) {
  return stream(`/games/${gameId}/events?after=${after}${watch ? "&watch=true" : ""}`,
    { token, onEvent, onOpen, onLost, onGone });
}
