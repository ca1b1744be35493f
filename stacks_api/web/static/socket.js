// A game's WebSocket (docs/api.md, "Play over one socket"): a hello with the seat's
// token, then moves and looks at the view as messages, and every change of the game
// as it happens. If it cannot open, ``onFail`` says so once and the page uses HTTP
// and the event stream instead; once it has been open, a lost socket reconnects by
// itself (and sends again what was waiting for an answer: the server never applies
// an id twice). Returns { ask(message), close(), open }.
import { Refusal } from "./api.js";

const PING_MS = 20_000; // an app-level ping: the server answers pong
const SILENCE_MS = 45_000; // nothing heard this long: the connection is lost

export function openSocket(gameId, token, { onState, onEvents, onPresence, onOpen, onLost, onFail }) {
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/v1/games/${gameId}/socket`;
  const pending = new Map(); // id -> { message, resolve, reject }
  let ws = null, opened = false, closed = false, pause = 1000, timer = null, heard = Date.now(), serial = 0;

  const send = (message) => { if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message)); };
  const connect = () => {
    if (typeof WebSocket !== "function") return onFail();
    try {
      ws = new WebSocket(url);
    } catch {
      return onFail();
    }
    let welcomed = false;
    ws.onopen = () => send({ type: "hello", token: token || null });
    ws.onmessage = (event) => {
      heard = Date.now();
      const message = JSON.parse(event.data);
      if (message.type === "state") {
        const first = !opened;
        welcomed = opened = true;
        pause = 1000;
        onState(message.view, first);
        for (const waiting of pending.values()) send(waiting.message); // answered once, applied once
        return onOpen();
      }
      if (message.type === "events") return onEvents(message);
      if (message.type === "presence") return onPresence(message);
      const waiting = message.id ? pending.get(message.id) : null;
      if (!waiting) return;
      pending.delete(message.id);
      if (message.type === "refused") waiting.reject(new Refusal(message.problem));
      else waiting.resolve(message);
    };
    ws.onclose = () => {
      ws = null;
      if (closed) return;
      if (!welcomed && !opened) return onFail(); // it never opened: HTTP and the stream instead
      onLost();
      setTimeout(connect, pause);
      pause = Math.min(pause * 2, 30_000);
    };
  };
  // The server pings at the protocol level; these keep the page's own count of silence.
  timer = setInterval(() => {
    if (!opened || closed) return;
    if (Date.now() - heard > SILENCE_MS) ws?.close();
    else send({ type: "ping" });
  }, PING_MS);
  connect();
  return {
    get open() { return opened && ws?.readyState === WebSocket.OPEN; },
    ask(message) {
      const id = `m${Date.now().toString(36)}${(serial++).toString(36)}`;
      const sent = { ...message, id };
      return new Promise((resolve, reject) => {
        pending.set(id, { message: sent, resolve, reject });
        send(sent);
      });
    },
    close() {
      closed = true;
      clearInterval(timer);
      for (const waiting of pending.values()) waiting.reject(new Refusal({ status: 0, code: "offline" }));
      pending.clear();
      ws?.close();
    },
  };
}
