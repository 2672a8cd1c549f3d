"""The sweeps' API tests use the web tests' app and store (tests/web/conftest.py)."""

from tests.web.conftest import client, store

__all__ = ["client", "store"]
