// The service worker: shows each push as a notification (one per game: a newer one
// replaces it), and a click opens that game, in a tab already open if there is one.
self.addEventListener("push", (event) => {
  const push = event.data ? event.data.json() : {};
  event.waitUntil(self.registration.showNotification(push.title || "Sequence", {
    body: push.body || "", tag: push.game_id || push.type, data: { url: push.url || "/play" },
    icon: "/play/icon-192.png",
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data.url, self.location.origin).href;
  event.waitUntil((async () => {
    const tabs = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const tab = tabs.find((t) => new URL(t.url).pathname === "/play");
    if (!tab) return self.clients.openWindow(url);
    tab.postMessage({ open: url }); // the page goes to the game itself (its own routing)
    return tab.focus().catch(() => null);
  })());
});
