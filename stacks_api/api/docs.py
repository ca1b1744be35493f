"""Swagger UI assets, served from the installed swagger-ui-bundle package (no CDN), and
a redirect from ``/docs/`` to the explorer."""

from __future__ import annotations

from flask import Blueprint, Response, redirect, send_from_directory
from swagger_ui_bundle import swagger_ui_path
from werkzeug.wrappers import Response as WerkzeugResponse

from ..config import Config

ASSETS_URL = Config.ASSETS_URL

blp = Blueprint("docs_assets", __name__)


@blp.route(f"{ASSETS_URL}<path:filename>")
def asset(filename: str) -> Response:
    return send_from_directory(swagger_ui_path, filename, max_age=86400)


@blp.route("/docs/")
def explorer() -> WerkzeugResponse:
    return redirect("/docs", code=302)
