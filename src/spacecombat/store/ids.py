"""Canonical JSON and the store's short ids.

A scenario's id is derived from the sha256 of its canonical JSON (sorted keys, no whitespace),
so the same battle always gets the same id; results and logs get random ids. Every id is
:data:`ID_LENGTH` characters of lowercase base32 (``a``-``z``, ``2``-``7``): 80 bits, short
enough for a link and too many to guess.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
from typing import Any

#: characters in an id
ID_LENGTH = 16
_ID = re.compile(rf"[a-z2-7]{{{ID_LENGTH}}}")


def canonical_json(value: Any) -> str:
    """``value`` as canonical JSON: sorted keys, no whitespace, non-ASCII kept as is.

    Raises ``TypeError`` for a value JSON cannot hold and ``ValueError`` for NaN or an
    infinity (not JSON, and PostgreSQL refuses them).
    """
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def sha256_hex(text: str) -> str:
    """The sha256 of ``text`` (UTF-8), in hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _base32(data: bytes) -> str:
    return base64.b32encode(data).decode("ascii").rstrip("=").lower()


def id_from_digest(digest_hex: str) -> str:
    """The short id of a content hash: the first :data:`ID_LENGTH` base32 characters."""
    return _base32(bytes.fromhex(digest_hex))[:ID_LENGTH]


def random_id() -> str:
    """A new random id (80 bits from :mod:`secrets`)."""
    return _base32(secrets.token_bytes(ID_LENGTH * 5 // 8))


def valid_id(value: object) -> bool:
    """Whether ``value`` is a well-formed id (any other input is never looked up)."""
    return isinstance(value, str) and _ID.fullmatch(value) is not None
