"""Every table of the archive, registered on ``Base`` by importing this (what the
migrations and their test compare the database with)."""

from __future__ import annotations

from . import models_grants, models_push
from .models import Base

__all__ = ["Base", "models_grants", "models_push"]
