"""The HTTP API and the page (``spacecombat serve``): ``create_app`` builds the app."""

from __future__ import annotations

from spacecombat.web.app import create_app

__all__ = ["create_app"]
