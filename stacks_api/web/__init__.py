"""The browser client at /play: static files from this package, no build step.

Plain ES modules and one stylesheet, so the client needs no CDN, no bundler and
no framework to keep up to date; it talks to the server only through the public
HTTP API and the event stream, like any other frontend.
"""

from __future__ import annotations

from importlib import resources

from flask import Blueprint, Response, current_app, redirect, send_from_directory
from werkzeug.wrappers import Response as WerkzeugResponse

from .headers import protect

STATIC = resources.files(__package__).joinpath("static")
LAYOUT = resources.files("stacks_api.variants.sequence").joinpath("board-layout.json")

blp = Blueprint("play", __name__)
protect(blp)


@blp.route("/")
def home() -> WerkzeugResponse:
    return redirect("/play", code=302)


@blp.route("/play")
def page() -> Response:
    return send_from_directory(str(STATIC), "index.html", max_age=0)


@blp.route("/play/board-layout.json")
def layout() -> Response:
    return current_app.response_class(LAYOUT.read_text("utf-8"), mimetype="application/json")


@blp.route("/play/sw.js")
def service_worker() -> Response:
    """The service worker, allowed to control /play itself (not only /play/...)."""
    sent = send_from_directory(str(STATIC), "sw.js", max_age=0)
    sent.headers["Service-Worker-Allowed"] = "/play"
    return sent


@blp.route("/play/<path:name>")
def asset(name: str) -> Response:
    mimetype = "application/manifest+json" if name.endswith(".webmanifest") else None
    return send_from_directory(str(STATIC), name, max_age=0, mimetype=mimetype)
