"""The hostile-client findings of issue 14, all at once, while a normal client plays.

    python bench/abuse.py [--seconds 60] [--attackers 6] [--slow-sockets 200]

Starts its own redis-server and ``stacks-api serve`` (2 gevent web workers, one
bot worker, rate limits on, trusting one proxy hop so every attacker thread can
claim its own client address in X-Forwarded-For, as clients behind a proxy
would). Attacker threads cycle through the findings: deep JSON, unreadable
integers, odd version headers, floats in positions, hostile Idempotency-Keys,
bogus tokens with keys, oversized bodies, unbounded bot options, game-creation
floods, oversized skip markers, overlong URLs; one more thread keeps
``--slow-sockets`` connections that announce a body and never send it. A
normal client plays a two-human game throughout from its own address.

It prints the normal client's latency (target: p99 under 250 ms), what the
attacks got back (any 500 is a failure), and Redis memory every 10 s (target:
bounded, not growing with the attack).
"""

from __future__ import annotations

import sys
from pathlib import Path

# bench/http.py would hide the stdlib's http: keep this folder at the end of the path.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))

import argparse
import collections
import itertools
import json
import random
import socket
import threading
import time

import redis
import requests
from load import percentile, served_on_redis

JSON = {"Content-Type": "application/json"}


def attacks(base: str, game_id: str) -> list[tuple[str, str, str, bytes, dict[str, str]]]:
    """(name, method, path, body, headers) of each attack."""
    games, actions = f"{base}/games", f"{base}/games/{game_id}/actions"
    position = {"piles": [[], [], [], []], "hands": [["B1"], ["R1"]], "turn": 0}
    stacks = {"variant": "stacks", "players": 2}
    mcts = {"bot": "mcts", "options": {"seconds": 10, "iterations": 20_000}}
    passing = json.dumps({"type": "pass"}).encode()

    def body(value: object) -> bytes:
        return json.dumps(value).encode()

    def as_seat(**extra: str) -> dict[str, str]:
        return {**JSON, "Authorization": "Bearer bogus", **extra}

    return [
        ("deep json", "POST", games, b"[" * 30_000 + b"]" * 30_000, JSON),
        ("long int", "POST", games, b'{"variant": "sequence", "seed": ' + b"9" * 5000 + b"}", JSON),
        ("odd If-Match", "POST", actions, passing, as_seat(**{"If-Match": '"12'})),
        ("odd Last-Event-ID", "GET", f"{games}/{game_id}/events", b"",
         {"Last-Event-ID": "1" * 5000}),
        ("float direction", "POST", games,
         body({**stacks, "position": {**position, "direction": 1.0}}), JSON),
        ("key injection", "POST", actions, passing, as_seat(**{"Idempotency-Key": "x}:state"})),
        ("bogus token + key", "POST", actions, passing, as_seat(**{"Idempotency-Key": "1"})),
        ("1 MB body", "POST", games, body({"seats": [{}] * 350_000}), JSON),
        ("bot options", "POST", games,
         body({"variant": "sequence", "players": 2, "seats": [mcts, {}]}), JSON),
        ("create flood", "POST", games, body({"variant": "sequence", "players": 2}), JSON),
        ("skips 1000", "POST", games,
         body({**stacks, "position": {**position, "skips": [1000, 0]}}), JSON),
        ("long URL", "GET", f"{games}/{'x' * 9000}", b"", {}),
    ]  # fmt: skip


def attacker(n: int, base: str, game_id: str, until: float, seen: collections.Counter) -> None:
    session = requests.Session()
    address = f"10.0.{n // 250}.{n % 250 + 1}"
    for name, method, url, body, headers in itertools.cycle(attacks(base, game_id)):
        if time.perf_counter() > until:
            return
        try:
            answer = session.request(method, url, data=body, timeout=10,
                                     headers={**headers, "X-Forwarded-For": address})  # fmt: skip
            seen[(name, answer.status_code)] += 1
        except requests.RequestException as err:
            seen[(name, type(err).__name__)] += 1


def slowloris(port: int, count: int, until: float, seen: collections.Counter) -> None:
    sockets: list[socket.socket] = []
    while time.perf_counter() < until:
        while len(sockets) < count:
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=5)
                sock.sendall(b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: "
                             b"application/json\r\nContent-Length: 100\r\n\r\n{")  # fmt: skip
                sockets.append(sock)
                seen[("slow socket", "opened")] += 1
            except OSError:
                seen[("slow socket", "refused")] += 1
                break
        time.sleep(1)
        alive = []
        for sock in sockets:  # the server cuts them off after its read timeout
            sock.setblocking(False)
            try:
                if sock.recv(1, socket.MSG_PEEK) == b"":
                    raise OSError
                sock.close()  # it answered (408): open another
                seen[("slow socket", "answered")] += 1
            except BlockingIOError:
                alive.append(sock)
            except OSError:
                sock.close()
                seen[("slow socket", "cut off")] += 1
        sockets = alive
    for sock in sockets:
        sock.close()


def normal_player(base: str, until: float, latencies: list[float], errors: list) -> None:
    session = requests.Session()
    session.headers["X-Forwarded-For"] = "192.0.2.1"
    rng = random.Random(1)
    while time.perf_counter() < until:
        game = session.post(f"{base}/games", json={"variant": "sequence", "players": 2}).json()
        game_id = game["game"]["id"]
        tokens = [session.post(f"{base}/games/{game_id}/players", json={"name": n}).json()["token"]
                  for n in "AB"]  # fmt: skip
        while time.perf_counter() < until:
            start = time.perf_counter()
            state = session.get(f"{base}/games/{game_id}").json()
            if state["status"] != "active":
                break
            auth = {"Authorization": f"Bearer {tokens[state['to_move'][0]]}"}
            mine = session.get(f"{base}/games/{game_id}", headers=auth).json()
            answer = session.post(f"{base}/games/{game_id}/actions", headers=auth,
                                  json=rng.choice(mine["you"]["legal_actions"]))  # fmt: skip
            latencies.append(time.perf_counter() - start)
            if answer.status_code != 200:
                errors.append(answer.status_code)
            time.sleep(0.05)  # a quick human


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--attackers", type=int, default=6)
    parser.add_argument("--slow-sockets", type=int, default=200)
    args = parser.parse_args()

    env = {"STACKS_RATE_LIMITS": "on", "STACKS_TRUSTED_PROXIES": "1", "STACKS_READ_TIMEOUT_S": "10"}
    with served_on_redis(env) as (server, redis_url):
        base = f"{server.url}/api/v1"
        memory = redis.Redis.from_url(redis_url)
        created = requests.post(
            f"{base}/games",
            json={"variant": "sequence", "players": 2},
            headers={"X-Forwarded-For": "192.0.2.2"},
        )
        target = created.json()["game"]["id"]
        seen: collections.Counter = collections.Counter()
        latencies: list[float] = []
        errors: list = []
        until = time.perf_counter() + args.seconds
        threads = [threading.Thread(target=attacker, args=(n, base, target, until, seen))
                   for n in range(args.attackers)]  # fmt: skip
        threads.append(
            threading.Thread(target=slowloris, args=(server.port, args.slow_sockets, until, seen))
        )
        threads.append(
            threading.Thread(target=normal_player, args=(base, until, latencies, errors))
        )
        for thread in threads:
            thread.start()
        samples = [int(memory.info("memory")["used_memory"])]
        while any(t.is_alive() for t in threads):
            time.sleep(10)
            samples.append(int(memory.info("memory")["used_memory"]))
        print(f"stacks-api serve: 2 gevent web workers, 1 bot worker, Redis, rate limits on; "
              f"{args.attackers} attacker threads + {args.slow_sockets} slow sockets, "
              f"{args.seconds:.0f} s")  # fmt: skip
        print(f"normal client: {len(latencies)} moves, p50 {percentile(latencies, 0.5):.1f} ms, "
              f"p99 {percentile(latencies, 0.99):.1f} ms, max {percentile(latencies, 1.0):.1f} ms "
              f"(GET + GET + POST each), errors {collections.Counter(errors)}")  # fmt: skip
        print("Redis memory (MB, every 10 s): "
              + " ".join(f"{s / 1e6:.2f}" for s in samples))  # fmt: skip
        by_attack: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        for (name, outcome), count in seen.items():
            by_attack[name][outcome] += count
        for name, outcomes in by_attack.items():
            print(
                f"  {name:18} "
                + ", ".join(f"{k}: {v}" for k, v in sorted(outcomes.items(), key=str))
            )
        server_errors = sum(c for (_, outcome), c in seen.items() if outcome == 500)
        print(f"500 answers: {server_errors}")


if __name__ == "__main__":
    main()
