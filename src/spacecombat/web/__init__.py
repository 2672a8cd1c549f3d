"""The HTTP API and the page (``spacecombat serve``): ``create_app`` builds the app."""

from __future__ import annotations

from spacecombat.web.app import (
    MAX_REQUESTS_ENV,
    POOL_WORKERS_ENV,
    TIME_LIMIT_ENV,
    app_from_environment,
    create_app,
)

__all__ = [
    "MAX_REQUESTS_ENV",
    "POOL_WORKERS_ENV",
    "TIME_LIMIT_ENV",
    "app_from_environment",
    "create_app",
]
