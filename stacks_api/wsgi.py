"""The WSGI entry point for gunicorn: ``stacks_api.wsgi:app``."""

from .app import create_app
from .runtime import logs

logs.configure()
app = create_app()
