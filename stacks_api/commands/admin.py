"""``stacks-api admin``: what the server's operators do to accounts (docs/operations.md).

Run on a host that reaches the server's database (``DATABASE_URL``) and, to
withdraw a closed account's seek, its Redis (``REDIS_URL``).
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime

from marshmallow import ValidationError

from .. import variants
from ..api.names import shown_name
from ..archive import open_archive
from ..runtime.config import Config
from ..store import GameStore, make_store

NAME_LENGTH = 40


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    admin = commands.add_parser(
        "admin", help="moderate: reports, closing and renaming accounts",
        description="Moderation, on the server's database (DATABASE_URL, else the SQLite "
        "file in STACKS_DATA_DIR).",
    )  # fmt: skip
    actions = admin.add_subparsers(dest="admin_command", required=True, metavar="COMMAND")
    reports = actions.add_parser("reports", help="list the reports not resolved yet")
    reports.add_argument("--all", action="store_true", help="resolved ones too")
    reports.add_argument("--json", action="store_true", help="one JSON object a line")
    resolve = actions.add_parser("resolve", help="mark a report resolved")
    resolve.add_argument("report", metavar="REPORT")
    close = actions.add_parser(
        "close", help="close an account: its keys are refused, it leaves the leaderboards"
    )
    close.add_argument("player", metavar="PLAYER")
    close.add_argument("--reason", required=True, help="kept with the account (at most 200)")
    rename = actions.add_parser("rename", help="rename an account and its seats in past games")
    rename.add_argument("player", metavar="PLAYER")
    rename.add_argument("name", metavar="NAME")


def run(args: argparse.Namespace) -> int:
    archive = open_archive(Config.DATABASE_URL, Config.DATABASE_TIMEOUT_S)
    moderation = archive.moderation
    if args.admin_command == "reports":
        for report in moderation.reports(include_resolved=args.all):
            print(json.dumps(report) if args.json else _line(report))
        return 0
    if args.admin_command == "resolve":
        return _said(moderation.resolve(args.report), f"report {args.report} resolved",
                     f"no open report {args.report!r}")  # fmt: skip
    if args.admin_command == "close":
        reason = args.reason.strip()[:200]
        if not reason:
            return _said(False, "", "give a --reason")
        # The server's workers settle the rest within seconds: its live games are left,
        # its challenges cancelled, its seek withdrawn (``service.closures``).
        closed = moderation.close(args.player, reason)
        return _said(closed, f"closed {args.player}", f"no open account {args.player!r}")
    name = args.name.strip()
    try:
        if not 1 <= len(name) <= NAME_LENGTH:
            raise ValidationError(f"a name has 1 to {NAME_LENGTH} characters")
        shown_name(name)
    except ValidationError as refused:
        return _said(False, "", f"refused: {' '.join(map(str, refused.messages))}")
    games = moderation.rename(args.player, name)
    if games >= 0:  # the live store's copies of ended games: read from the archive now
        store = _live_store()
        for game_id in store.player_games(args.player):
            store.forget(game_id)
    return _said(games >= 0, f"renamed {args.player} to {name!r} ({games} archived games)",
                 f"no account {args.player!r} (or it was deleted)")  # fmt: skip


def _live_store() -> GameStore:
    """The server's Redis. Without REDIS_URL the embedded store lives inside the
    server's process, out of reach: an ended game it still holds keeps the old
    name there until it expires (a day) or the server restarts."""
    return make_store(Config.REDIS_URL, Config.STORE_PREFIX, Config.STORE_TIMEOUT_S,
                      tuple(variants.names()), Config.STORE_SHARDS)  # fmt: skip


def _line(report: dict[str, object]) -> str:
    at = datetime.fromtimestamp(float(report["created_at"]), UTC)  # type: ignore[arg-type]
    state = "resolved" if report["resolved_at"] else "open"
    closed = " (closed)" if report["closed"] else ""
    game = f" in game {report['game_id']}" if report["game_id"] else ""
    who = f"{report['player_id']} {report['name']!r}{closed}{game}"
    return (
        f"{report['id']}  {at:%Y-%m-%d %H:%M}  {state}  {who}, by {report['reporter_id']}: "
        + str(report["reason"])
    )


def _said(ok: bool, done: str, failed: str) -> int:
    print(done if ok else failed, file=sys.stdout if ok else sys.stderr)
    return 0 if ok else 1
