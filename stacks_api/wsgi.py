"""The WSGI entry point for gunicorn: ``stacks_api.wsgi:app``."""

from . import logs
from .app import create_app

logs.configure()
app = create_app()
