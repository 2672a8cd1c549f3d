"""The store on SQLite and on a real PostgreSQL server: scenarios, results and logs."""

from __future__ import annotations

import math
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event

from spacecombat.store import DB_ENV, DEFAULT_FILE, Store, UnknownScenarioError
from spacecombat.store.ids import valid_id
from spacecombat.store.models import LogRow, ResultRow, ScenarioRow
from tests.store.helpers import WRITES, count, statements

SCENARIO: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {"units": {"dreadnought": 2, "cruiser": 1}, "faction": "sol"},
    "defender": {"units": {"carrier": 1, "fighter": 3}},
}
REPORT: dict[str, Any] = {"attacker": 0.625, "draw": 0.0625, "defender": 0.3125, "rounds": [1, 2]}
MALFORMED = ["", "short", "A" * 16, "../../etc/passwd", "aaaaaaaaaaaaaa';", "a" * 1000]


def _recent(moment: datetime) -> bool:
    return moment.tzinfo is not None and abs(datetime.now(UTC) - moment) < timedelta(minutes=1)


# -- scenarios ---------------------------------------------------------------------------


def test_the_same_scenario_saved_twice_is_one_row(store: Store, db_url: str) -> None:
    first = store.save_scenario(SCENARIO)
    reordered = dict(reversed(list(SCENARIO.items())))
    assert store.save_scenario(reordered) == first
    assert count(db_url, ScenarioRow) == 1
    assert store.scenario(first) == SCENARIO


def test_scenario_ids_are_short_stable_and_differ_by_content(store: Store) -> None:
    scenario_id = store.save_scenario({"a": 1})
    # the first 16 base32 characters of sha256('{"a":1}'), on every database and every run
    assert scenario_id == "afnl2724yv5c3wkl"
    assert valid_id(scenario_id)
    assert store.save_scenario({"a": 2}) != scenario_id


def test_a_scenario_comes_back_as_json(store: Store) -> None:
    scenario_id = store.save_scenario({"units": ("a", "b"), "ratio": 0.1, "name": "Ĳssel ⚔"})
    assert store.scenario(scenario_id) == {"units": ["a", "b"], "ratio": 0.1, "name": "Ĳssel ⚔"}


def test_an_unknown_scenario_is_none(store: Store) -> None:
    assert store.scenario("aaaaaaaaaaaaaaaa") is None


@pytest.mark.parametrize("bad", [[1, 2], "text", {"x": object()}, {"x": math.nan}])
def test_a_scenario_that_is_not_a_json_object_is_refused(store: Store, bad: Any) -> None:
    with pytest.raises((TypeError, ValueError)):
        store.save_scenario(bad)


def test_malformed_ids_are_none_without_a_query(store: Store) -> None:
    scenario_id = store.save_scenario(SCENARIO)
    with statements() as sent:
        for bad in [*MALFORMED, None, 7]:
            assert store.scenario(bad) is None  # type: ignore[arg-type]
            assert store.result(bad) is None  # type: ignore[arg-type]
            assert store.log(bad) is None  # type: ignore[arg-type]
            assert store.find_result(bad, "exact", {}, "1") is None  # type: ignore[arg-type]
    assert sent == []
    assert store.scenario(scenario_id) == SCENARIO


# -- results -----------------------------------------------------------------------------


def test_a_result_round_trips(store: Store) -> None:
    scenario_id = store.save_scenario(SCENARIO)
    saved = store.save_result(scenario_id, "exact", {"rounds": 3}, "0.1.0", REPORT)
    assert valid_id(saved.id)
    assert (saved.scenario_id, saved.method, saved.engine) == (scenario_id, "exact", "0.1.0")
    assert saved.options == {"rounds": 3}
    assert saved.report == REPORT
    assert _recent(saved.created)
    assert store.result(saved.id) == saved
    assert store.find_result(scenario_id, "exact", {"rounds": 3}, "0.1.0") == saved


def test_results_are_keyed_by_method_options_and_engine_version(store: Store) -> None:
    scenario_id = store.save_scenario(SCENARIO)
    options = {"trials": 1000, "seed": 7}
    saved = store.save_result(scenario_id, "montecarlo", options, "0.1.0", REPORT)
    assert store.find_result(scenario_id, "montecarlo", {"seed": 7, "trials": 1000}, "0.1.0") == (
        saved
    )
    assert store.find_result(scenario_id, "montecarlo", {"trials": 1000, "seed": 8}, "0.1.0") is (
        None
    )
    assert store.find_result(scenario_id, "montecarlo", options, "0.1.1") is None
    assert store.find_result(scenario_id, "exact", options, "0.1.0") is None
    other = store.save_scenario({"other": True})
    assert store.find_result(other, "montecarlo", options, "0.1.0") is None
    newer = store.save_result(scenario_id, "montecarlo", options, "0.1.1", {"newer": 1})
    assert newer.id != saved.id
    assert store.find_result(scenario_id, "montecarlo", options, "0.1.1") == newer


def test_saving_a_result_twice_keeps_the_first(store: Store, db_url: str) -> None:
    scenario_id = store.save_scenario(SCENARIO)
    first = store.save_result(scenario_id, "exact", {}, "0.1.0", REPORT)
    again = store.save_result(scenario_id, "exact", {}, "0.1.0", {"something": "else"})
    assert again == first
    assert count(db_url, ResultRow) == 1


def test_a_result_needs_a_stored_scenario(store: Store, db_url: str) -> None:
    for missing in ["aaaaaaaaaaaaaaaa", "not an id"]:
        with pytest.raises(UnknownScenarioError):
            store.save_result(missing, "exact", {}, "0.1.0", REPORT)
    assert count(db_url, ResultRow) == 0


def test_a_result_saves_its_scenario_in_the_same_transaction(store: Store, db_url: str) -> None:
    scenario_id = Store.scenario_id(SCENARIO)
    assert store.scenario(scenario_id) is None
    saved = store.save_result(scenario_id, "exact", {}, "0.1.0", REPORT, scenario=SCENARIO)
    assert store.scenario(scenario_id) == SCENARIO
    assert saved.scenario_id == scenario_id == store.save_scenario(SCENARIO)
    # a second result of the same scenario finds the row there: still one scenario
    store.save_result(scenario_id, "monte_carlo", {}, "0.1.0", REPORT, scenario=SCENARIO)
    assert (count(db_url, ScenarioRow), count(db_url, ResultRow)) == (1, 2)


def test_a_scenario_given_with_another_id_writes_nothing(store: Store, db_url: str) -> None:
    other = Store.scenario_id({**SCENARIO, "battle": "invasion"})
    with pytest.raises(ValueError, match="not"):
        store.save_result(other, "exact", {}, "0.1.0", REPORT, scenario=SCENARIO)
    with pytest.raises(ValueError, match="not"):
        store.save_log(other, 1, [], scenario=SCENARIO)
    assert (count(db_url, ScenarioRow), count(db_url, ResultRow), count(db_url, LogRow)) == (
        0,
        0,
        0,
    )


def test_a_log_saves_its_scenario_in_the_same_transaction(store: Store, db_url: str) -> None:
    scenario_id = Store.scenario_id(SCENARIO)
    log_id = store.save_log(scenario_id, 5, [{"event": "roll"}], scenario=SCENARIO)
    stored = store.log(log_id)
    assert stored is not None
    assert stored.scenario_id == scenario_id
    assert store.scenario(scenario_id) == SCENARIO
    assert count(db_url, ScenarioRow) == 1


def test_saving_a_stored_scenario_again_only_reads(store: Store) -> None:
    store.save_scenario(SCENARIO)
    with statements() as seen:
        store.save_scenario(SCENARIO)
    assert seen
    assert not any(WRITES.match(s) for s in seen), seen


@pytest.mark.parametrize(
    ("method", "engine"), [("", "1"), ("exact", ""), ("m" * 33, "1"), ("exact", "e" * 65)]
)
def test_method_and_engine_are_short_labels(store: Store, method: str, engine: str) -> None:
    scenario_id = store.save_scenario(SCENARIO)
    with pytest.raises(ValueError, match="at most"):
        store.save_result(scenario_id, method, {}, engine, REPORT)


def test_a_report_that_is_not_json_writes_nothing(store: Store, db_url: str) -> None:
    scenario_id = store.save_scenario(SCENARIO)
    with pytest.raises(TypeError):
        store.save_result(scenario_id, "exact", {}, "0.1.0", {"ok": 1, "z": {"bad": object()}})
    with pytest.raises(ValueError, match="JSON"):
        store.save_result(scenario_id, "exact", {}, "0.1.0", {"p": math.nan})
    assert count(db_url, ResultRow) == 0
    assert store.find_result(scenario_id, "exact", {}, "0.1.0") is None


def test_a_failure_inside_the_transaction_writes_nothing(store: Store, db_url: str) -> None:
    """The insert has reached the database when the transaction fails: it is rolled back."""
    scenario_id = store.save_scenario(SCENARIO)

    def fail_after_insert(connection: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO RESULTS"):
            raise RuntimeError("stopped mid-transaction")

    event.listen(Engine, "after_cursor_execute", fail_after_insert)
    try:
        with pytest.raises(RuntimeError, match="mid-transaction"):
            store.save_result(scenario_id, "exact", {}, "0.1.0", REPORT)
    finally:
        event.remove(Engine, "after_cursor_execute", fail_after_insert)
    assert count(db_url, ResultRow) == 0
    assert store.find_result(scenario_id, "exact", {}, "0.1.0") is None
    saved = store.save_result(scenario_id, "exact", {}, "0.1.0", REPORT)
    assert store.result(saved.id) == saved


KILLED_MID_WRITE = """
import os, sys
from sqlalchemy import Engine, event
from spacecombat.store import Store

store = Store(sys.argv[1])
scenario_id = store.save_scenario({"killed": True})

@event.listens_for(Engine, "after_cursor_execute")
def die(connection, cursor, statement, *args):
    if statement.lstrip().upper().startswith("INSERT INTO RESULTS"):
        os._exit(37)  # the server is killed: no commit, no rollback, no clean-up

store.save_result(scenario_id, "exact", {}, "0.1.0", {"big": "x" * 200000})
"""


def test_a_process_killed_mid_write_leaves_no_result(db_url: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", KILLED_MID_WRITE, db_url], capture_output=True, timeout=60
    )
    assert done.returncode == 37, done.stderr.decode()
    with Store(db_url) as store:
        scenario_id = store.save_scenario({"killed": True})
        assert store.find_result(scenario_id, "exact", {}, "0.1.0") is None
        saved = store.save_result(scenario_id, "exact", {}, "0.1.0", {"big": "y"})
        assert store.find_result(scenario_id, "exact", {}, "0.1.0") == saved
    assert count(db_url, ResultRow) == 1


# -- battle logs -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [None, 0, 7, 2**63, 2**64 - 1])
def test_a_log_round_trips_with_its_seed(store: Store, seed: int | None) -> None:
    scenario_id = store.save_scenario(SCENARIO)
    events: list[dict[str, Any]] = [
        {"event": "roll", "dice": [3, 9], "who": "attacker"},
        {"event": "end"},
    ]
    log_id = store.save_log(scenario_id, seed, events)
    assert valid_id(log_id)
    log = store.log(log_id)
    assert log is not None
    assert (log.id, log.scenario_id, log.seed, log.events) == (log_id, scenario_id, seed, events)
    assert _recent(log.created)


def test_each_log_gets_a_new_id(store: Store, db_url: str) -> None:
    scenario_id = store.save_scenario(SCENARIO)
    ids = {store.save_log(scenario_id, 1, [{"event": "end"}]) for _ in range(5)}
    assert len(ids) == 5
    assert count(db_url, LogRow) == 5
    assert store.log("aaaaaaaaaaaaaaaa") is None


@pytest.mark.parametrize("seed", [-1, 2**64, True, 1.5, "7"])
def test_a_seed_out_of_range_is_refused(store: Store, seed: Any) -> None:
    scenario_id = store.save_scenario(SCENARIO)
    with pytest.raises(ValueError, match="seed"):
        store.save_log(scenario_id, seed, [])


@pytest.mark.parametrize("events", ["text", [1, 2], [{"x": object()}], {"a": 1}])
def test_events_must_be_json_objects(store: Store, events: Any) -> None:
    scenario_id = store.save_scenario(SCENARIO)
    with pytest.raises(TypeError):
        store.save_log(scenario_id, None, events)


def test_a_log_needs_a_stored_scenario(store: Store, db_url: str) -> None:
    with pytest.raises(UnknownScenarioError):
        store.save_log("aaaaaaaaaaaaaaaa", 1, [])
    assert count(db_url, LogRow) == 0


# -- two stores on one database ----------------------------------------------------------


def test_two_stores_on_one_database_see_each_other(
    open_store: Callable[[], Store], db_url: str
) -> None:
    one, two = open_store(), open_store()
    scenario_id = one.save_scenario(SCENARIO)
    assert two.save_scenario(SCENARIO) == scenario_id
    assert two.scenario(scenario_id) == SCENARIO
    saved = two.save_result(scenario_id, "exact", {}, "0.1.0", REPORT)
    assert one.save_result(scenario_id, "exact", {}, "0.1.0", {"late": 1}) == saved
    assert one.result(saved.id) == saved
    log_id = one.save_log(scenario_id, 3, [])
    assert two.log(log_id) == one.log(log_id)
    assert count(db_url, ScenarioRow) == count(db_url, ResultRow) == 1


def test_the_url_shown_hides_the_password(backend: str, db_url: str) -> None:
    if backend == "postgresql":  # trust authentication: any password is accepted
        db_url = db_url.replace("postgresql://postgres@", "postgresql://postgres:s3cret@")
    with Store(db_url) as store:
        assert store.scenario("aaaaaaaaaaaaaaaa") is None
        assert "s3cret" not in store.url
        assert store.url.startswith(f"{backend}")
        if backend == "postgresql":
            assert store.url.startswith("postgresql+psycopg://postgres:***@")


def test_sqlite_writes_take_the_write_lock_first(backend: str, store: Store) -> None:
    with statements() as sent:
        store.save_scenario(SCENARIO)  # a read finds it missing, then the write
    if backend == "sqlite":
        assert sent[0] == "BEGIN"
        assert "BEGIN IMMEDIATE" in sent
        assert WRITES.match(sent[sent.index("BEGIN IMMEDIATE") + 1])
    with statements() as sent:
        store.scenario("aaaaaaaaaaaaaaaa")
    assert "BEGIN IMMEDIATE" not in sent


# -- where the database is -----------------------------------------------------------------


def test_without_a_url_the_store_is_a_file_in_the_user_data_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(DB_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home"))
    with Store() as store:
        scenario_id = store.save_scenario(SCENARIO)
    assert (tmp_path / "home" / "spacecombat" / DEFAULT_FILE).is_file()
    with Store() as again:
        assert again.scenario(scenario_id) == SCENARIO


def test_the_environment_names_the_database(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(DB_ENV, f"sqlite:///{tmp_path / 'env.sqlite3'}")
    with Store() as store:
        store.save_scenario(SCENARIO)
    assert (tmp_path / "env.sqlite3").is_file()


def test_an_in_memory_database_works(tmp_path: Path) -> None:
    with Store("sqlite://") as store:
        scenario_id = store.save_scenario(SCENARIO)
        assert store.scenario(scenario_id) == SCENARIO
