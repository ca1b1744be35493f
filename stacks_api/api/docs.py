"""The API explorer at /docs: our own page (no inline script) over Swagger UI's
assets, served from the installed swagger-ui-bundle package (no CDN), and a
redirect from ``/docs/`` to it."""

from __future__ import annotations

from importlib import resources

from flask import Blueprint, Response, redirect, send_from_directory
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
