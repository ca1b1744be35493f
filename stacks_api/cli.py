"""The ``stacks-api`` command: run the server, write the OpenAPI document."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

import yaml


def openapi_yaml() -> str:
    """The OpenAPI document of the app, as committed in openapi.yaml."""
    from .app import create_app
    from .config import TestConfig

    app = create_app(TestConfig)
    spec = app.extensions["stacks_api.api"].spec.to_dict()
    text: str = yaml.safe_dump(spec, sort_keys=False, allow_unicode=True, width=100)
    return text


def serve(args: argparse.Namespace) -> None:
    """Replace this process with gunicorn serving the app."""
    workers = args.workers
    if not os.environ.get("REDIS_URL") and workers != 1:
        print("no REDIS_URL: using the in-memory store, which needs a single worker")
        workers = 1
    argv = [
        sys.executable, "-m", "gunicorn",
        "--bind", f"{args.host}:{args.port}",
        "--workers", str(workers),
        # Threads let long-lived event streams and normal requests share a worker.
        "--worker-class", "gthread", "--threads", str(args.threads),
        "--access-logfile", "-",
        "stacks_api.wsgi:app",
    ]  # fmt: skip
    os.execv(sys.executable, argv)


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
        if name not in bots.BOTS or not isinstance(chosen, dict):
            raise argparse.ArgumentTypeError(f"{name!r}: expected a bot name and an object")
        problem = bots.check_options(name, chosen)
        if problem:
            raise argparse.ArgumentTypeError(problem)
    return options


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="stacks-api", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    server = commands.add_parser("serve", help="run the HTTP server with gunicorn")
    server.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    server.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    server.add_argument("--workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY", "2")))
    server.add_argument("--threads", type=int, default=16)
    match = commands.add_parser("tournament", help="play bots against each other")
    match.add_argument("--variant", choices=["sequence", "stacks"], default="sequence")
    match.add_argument("--bots", nargs=2, default=["greedy", "random"], metavar="BOT")
    match.add_argument("--games", type=int, default=200)
    match.add_argument("--players", type=int, default=2)
    match.add_argument("--first-seed", type=int, default=0, help="to split a long run")
    match.add_argument(
        "--options",
        type=bot_options,
        default={},
        help='bot options as JSON, e.g. {"mcts": {"iterations": 80}}',
    )
    spec = commands.add_parser("openapi", help="write the OpenAPI document")
    spec.add_argument("--output", default="openapi.yaml", help="a path, or - for stdout")
    args = parser.parse_args(argv)
    if args.command == "serve":
        serve(args)
    elif args.command == "tournament":
        from .bots import BOTS
        from .tournament import run

        for name in args.bots:
            if name not in BOTS:
                parser.error(f"unknown bot {name!r} (choose from {', '.join(sorted(BOTS))})")
        report = run(
            args.variant, args.bots[0], args.bots[1], args.games, args.players,
            args.first_seed, args.options,
        )  # fmt: skip
        print(report)
    elif args.output == "-":
        sys.stdout.write(openapi_yaml())
    else:
        Path(args.output).write_text(openapi_yaml(), encoding="utf-8")
        print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
