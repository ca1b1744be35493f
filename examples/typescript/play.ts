// A whole game of each variant against the greedy bot, through types generated from
// openapi.yaml by openapi-typescript and calls made with openapi-fetch: only
// generated names and types, no casts (compiled with tsc --strict).
//
//   npx openapi-typescript ../../openapi.yaml -o schema.d.ts && npx tsc && node out/play.js URL
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type View = components["schemas"]["SequenceView"] | components["schemas"]["StacksView"];
type Variant = components["schemas"]["CreateGame"]["variant"];

const MOST_REQUESTS = 5000; // a bound, so a broken server cannot keep this running

type Api = ReturnType<typeof createClient<paths, "application/json">>;

// How many events the game had, and how many of them opened a block window: the
// events are typed by variant, and each narrowed by its `type`.
async function told(api: Api, game_id: string): Promise<string> {
  const listed = await api.GET("/api/v1/games/{game_id}/events", {
    params: { path: { game_id } },
  });
  if (!listed.data) throw new Error(`events: ${JSON.stringify(listed.error)}`);
  let windows = 0;
  for (const event of listed.data.events) {
    if (event.type === "block_window" && event.waiting.length > 0) windows += 1;
  }
  return `${listed.data.events.length} events, ${windows} block windows`;
}

async function play(baseUrl: string, variant: Variant, players: number): Promise<string> {
  const api = createClient<paths, "application/json">({ baseUrl });
  const bot: components["schemas"]["SeatSpec"] = { bot: "greedy" };
  const seats = [{}, ...Array.from({ length: players - 1 }, () => bot)];
  const created = await api.POST("/api/v1/games", { body: { variant, players, seats } });
  if (!created.data) throw new Error(`create: ${JSON.stringify(created.error)}`);
  const game_id = created.data.game.id;
  const joined = await api.POST("/api/v1/games/{game_id}/players", {
    params: { path: { game_id } }, body: { name: "Typed", entropy: "c0de" },
  });
  if (!joined.data) throw new Error(`join: ${JSON.stringify(joined.error)}`);
  const headers = { Authorization: `Bearer ${joined.data.token}` };
  for (let i = 0; i < MOST_REQUESTS; i++) {
    const got = await api.GET("/api/v1/games/{game_id}", {
      params: { path: { game_id }, header: { Prefer: "wait=10" } }, headers,
    });
    if (!got.data) throw new Error(`view: ${JSON.stringify(got.error)}`);
    const view: View = got.data;
    if (view.status !== "active") {
      const result = JSON.stringify(view.result);
      return `${view.variant}: ${view.status}, result ${result}, ${await told(api, game_id)}`;
    }
    const legal = view.you?.legal_actions ?? [];
    const action = legal[Math.floor(Math.random() * legal.length)];
    if (action === undefined) continue; // not our turn: a bot is thinking
    const acted = await api.POST("/api/v1/games/{game_id}/actions", {
      params: { path: { game_id } }, body: action, headers,
    });
    if (acted.error) throw new Error(`action: ${JSON.stringify(acted.error)}`);
  }
  throw new Error(`${variant}: the game did not finish`);
}

const url = process.argv[2] ?? "http://127.0.0.1:8000";
console.log(await play(url, "sequence", 2));
console.log(await play(url, "stacks", 3));
