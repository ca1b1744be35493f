"""The WSGI entry point for gunicorn: ``stacks_api.wsgi:app``."""

from .app import create_app

app = create_app()
