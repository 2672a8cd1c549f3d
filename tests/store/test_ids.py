"""Canonical JSON, ids and the choice of database (no database needed)."""

from __future__ import annotations

import base64
import hashlib
import math
from pathlib import Path

import pytest

from spacecombat.store import DB_ENV, DEFAULT_FILE, resolve_url
from spacecombat.store.ids import canonical_json, id_from_digest, random_id, valid_id


def test_canonical_json_sorts_keys_and_drops_whitespace() -> None:
    assert canonical_json({"b": [1, 2.5], "a": {"é": None}}) == '{"a":{"é":null},"b":[1,2.5]}'


@pytest.mark.parametrize("bad", [{"x": object()}, {"x": {1, 2}}, {"x": b"bytes"}])
def test_canonical_json_refuses_what_json_cannot_hold(bad: object) -> None:
    with pytest.raises(TypeError):
        canonical_json(bad)


@pytest.mark.parametrize("number", [math.nan, math.inf, -math.inf])
def test_canonical_json_refuses_nan_and_infinities(number: float) -> None:
    with pytest.raises(ValueError, match="JSON"):
        canonical_json({"x": number})


def test_a_scenario_id_is_base32_of_the_hash() -> None:
    digest = hashlib.sha256(b'{"a":1}').hexdigest()
    expected = base64.b32encode(bytes.fromhex(digest)).decode().lower()[:16]
    assert id_from_digest(digest) == expected
    assert valid_id(expected)


def test_random_ids_are_well_formed_and_distinct() -> None:
    ids = {random_id() for _ in range(1000)}
    assert len(ids) == 1000
    assert all(valid_id(i) for i in ids)


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "abc",
        "a" * 15,
        "a" * 17,
        "A" * 16,
        "aaaaaaaaaaaaaaa1",  # 1 is not base32
        "../../etc/passwd",
        "aaaaaaaaaaaaaaa'",
        "aaaaaaaaaaaaaaa\n",
        "ａａａａａａａａａａａａａａａａ",  # full-width letters
        None,
        1234567890123456,
        b"aaaaaaaaaaaaaaaa",
    ],
)
def test_malformed_ids_are_not_valid(bad: object) -> None:
    assert not valid_id(bad)


def test_a_postgresql_url_gets_the_psycopg_driver() -> None:
    assert resolve_url("postgresql://u:secret@h:5433/db").drivername == "postgresql+psycopg"
    assert resolve_url("postgres://u@h/db").drivername == "postgresql+psycopg"
    assert resolve_url("postgresql+psycopg://u@h/db").drivername == "postgresql+psycopg"
    assert resolve_url("sqlite:////tmp/x.db").drivername == "sqlite"


@pytest.mark.parametrize("bad", ["mysql://u@h/db", "not a url", "oracle://x"])
def test_other_databases_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="database"):
        resolve_url(bad)


def test_the_environment_names_the_database(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DB_ENV, "postgresql://u@h/from_env")
    assert resolve_url(None).database == "from_env"
    assert resolve_url("sqlite:////tmp/given.db").database == "/tmp/given.db"


def test_by_default_a_sqlite_file_in_the_user_data_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(DB_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    url = resolve_url(None)
    assert url.drivername == "sqlite"
    assert url.database == str(tmp_path / "data" / "spacecombat" / DEFAULT_FILE)
    assert (tmp_path / "data" / "spacecombat").is_dir()
