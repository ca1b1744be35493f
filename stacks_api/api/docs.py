"""The API explorer at /docs: our own page (no inline script) over Swagger UI's
assets, served from the installed swagger-ui-bundle package (no CDN), a
redirect from ``/docs/`` to it, and the guides it links to (``/docs/guide/``:
the repository's ``docs/*.md`` as text, wherever the server runs beside them)."""

from __future__ import annotations

import os
import re
from importlib import resources
from pathlib import Path

from flask import Blueprint, Response, abort, redirect, send_from_directory
from swagger_ui_bundle import swagger_ui_path
from werkzeug.wrappers import Response as WerkzeugResponse

from ..runtime.config import Config
from ..web.headers import protect

ASSETS_URL = Config.ASSETS_URL
PAGE = resources.files(__package__).joinpath("explorer")

blp = Blueprint("docs_assets", __name__)
protect(blp)


@blp.route("/docs")
def page() -> Response:
    return send_from_directory(str(PAGE), "index.html", max_age=0)


@blp.route("/docs/explorer.js")
def script() -> Response:
    return send_from_directory(str(PAGE), "explorer.js", max_age=0)


@blp.route(f"{ASSETS_URL}<path:filename>")
def asset(filename: str) -> Response:
    return send_from_directory(swagger_ui_path, filename, max_age=86400)


@blp.route("/docs/")
def explorer() -> WerkzeugResponse:
    return redirect("/docs", code=302)


GUIDE = re.compile(r"[a-z_]+\.md")


def guides() -> Path:
    """The guides' folder: ``STACKS_DOCS_DIR``, else the checkout's ``docs/``."""
    return Path(os.environ.get("STACKS_DOCS_DIR") or Path(__file__).resolve().parents[2] / "docs")


@blp.route("/docs/guide/<name>")
def guide(name: str) -> Response:
    """One guide as Markdown text (the explorer links to api.md and rules.md)."""
    if not GUIDE.fullmatch(name) or not (guides() / name).is_file():
        abort(404)
    return send_from_directory(str(guides()), name, max_age=300,
                               mimetype="text/markdown; charset=utf-8")  # fmt: skip
