"""Every endpoint of the API through an HTTP client: the same answers as the command line (the
odds report, the account of a battle, a replay's verdict, a bad scenario's field and message),
the store answering a repeated request, and bad requests refused with a clear 4xx."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacecombat.analysis import budget
from spacecombat.cli import main
from spacecombat.core.limits import MAX_SCENARIO_BYTES
from spacecombat.store import Store
from spacecombat.web import create_app
from spacecombat.web.app import engine_version

SMALL: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {"units": "2 dreadnought"},
    "defender": {"units": "3 cruiser"},
}
#: a technology whose handler the ``unbuilt`` fixture takes away, so that it is refused by name
UNBUILT = "plasma_scoring"


@pytest.fixture
def unbuilt(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The engine without ``UNBUILT``'s handler (as before it was written): a scenario using
    it is refused as not implemented, and the catalogue says so."""
    from spacecombat.rulesets.ti4.abilities.base import HANDLERS
    from spacecombat.rulesets.ti4.rules import load
    from spacecombat.web.catalogue import catalogue

    handler = load().technologies[UNBUILT].handler
    assert handler is not None
    monkeypatch.delitem(HANDLERS, handler, raising=False)
    catalogue.cache_clear()
    yield
    catalogue.cache_clear()


def cli(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, scenario: object, *args: str
) -> tuple[int, str, str]:
    """Run the command line on ``scenario`` written as a JSON file: status, stdout, stderr."""
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(scenario))
    capsys.readouterr()
    status = main([args[0], str(path), *args[1:]])
    out, err = capsys.readouterr()
    return status, out, err


def test_odds_are_the_report_the_command_line_prints(
    client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    answer = client.post("/api/v1/odds", json={"scenario": SMALL})
    assert answer.status_code == 200
    body = answer.json()
    assert body["cached"] is False
    status, out, _ = cli(capsys, tmp_path, SMALL, "odds", "--format", "json")
    assert status == 0
    assert body["report"] == json.loads(out)
    assert body["report"]["method"] == "exact"
    # what a player reads first (issue 22): who holds the system, here the rules' winner
    holds = body["report"]["holds"]
    assert holds["attacker"] == pytest.approx(body["report"]["attacker_win"], abs=1e-12)
    assert holds["neither"] == pytest.approx(body["report"]["draw"], abs=1e-12)


def test_a_repeated_request_is_answered_from_the_store(client: TestClient, store: Store) -> None:
    request = {"scenario": SMALL, "method": "montecarlo", "trials": 300, "seed": 4}
    first = client.post("/api/v1/odds", json=request).json()
    # the same battle written another way is the same scenario, and the same request
    again = {**request, "scenario": {**SMALL, "attacker": {"units": {"dreadnought": 2}}}}
    second = client.post("/api/v1/odds", json=again).json()
    assert first["cached"] is False
    assert second["cached"] is True
    assert second["result_id"] == first["result_id"]
    assert second["scenario_id"] == first["scenario_id"]
    assert second["report"] == first["report"]
    stored = store.result(first["result_id"])
    assert stored is not None
    assert stored.engine == engine_version()
    assert stored.options == {"trials": 300, "seed": 4}
    # another option is another result
    other = client.post("/api/v1/odds", json={**request, "seed": 5}).json()
    assert other["cached"] is False
    assert other["result_id"] != first["result_id"]


def test_monte_carlo_options_unused_by_exact_odds_are_noted_as_on_the_command_line(
    client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    report = client.post("/api/v1/odds", json={"scenario": SMALL, "trials": 50}).json()["report"]
    _, out, _ = cli(capsys, tmp_path, SMALL, "odds", "--format", "json", "--trials", "50")
    assert report["note"] == json.loads(out)["note"] == "--trials 50 not used: the odds are exact"


def test_a_battle_too_large_for_the_exact_engine_gets_monte_carlo_with_the_note(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The exact engine's work budget made tiny before the pool's workers are forked (they
    inherit it): the odds fall back to Monte Carlo, played inside the worker, and say why."""
    monkeypatch.setattr(budget, "WORK", 1_000)
    scenario = {**SMALL, "attacker": {"units": "6 dreadnought"}}
    with TestClient(create_app(store, workers=1)) as client:
        answer = client.post("/api/v1/odds", json={"scenario": scenario, "trials": 40})
    assert answer.status_code == 200
    report = answer.json()["report"]
    assert report["method"] == "montecarlo"
    assert report["note"].startswith("Monte Carlo instead of exact: ")


def test_rounds_are_refused_with_monte_carlo(client: TestClient) -> None:
    answer = client.post(
        "/api/v1/odds", json={"scenario": SMALL, "method": "montecarlo", "rounds": 2}
    )
    assert answer.status_code == 422
    assert answer.json()["error"]["field"] == "rounds"


def test_a_stored_result_is_given_back_by_its_id(client: TestClient) -> None:
    made = client.post("/api/v1/odds", json={"scenario": SMALL, "rounds": 1}).json()
    answer = client.get(f"/api/v1/results/{made['result_id']}")
    assert answer.status_code == 200
    assert answer.json() == {
        "id": made["result_id"],
        "scenario_id": made["scenario_id"],
        "method": "exact",
        "options": {"rounds": 1},
        "report": made["report"],
    }


def test_resolve_gives_the_account_the_command_line_prints_and_a_log_that_replays(
    client: TestClient, store: Store, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    answer = client.post("/api/v1/resolve", json={"scenario": SMALL, "seed": 7})
    assert answer.status_code == 200
    played = answer.json()
    assert played["seed"] == 7
    _, out, _ = cli(capsys, tmp_path, SMALL, "resolve", "--seed", "7")
    assert played["text"] == out
    _, log, _ = cli(capsys, tmp_path, SMALL, "resolve", "--seed", "7", "--format", "jsonl")
    assert played["events"] == [json.loads(line) for line in log.splitlines()]
    stored = store.log(played["log_id"])
    assert stored is not None
    assert (stored.scenario_id, stored.seed, stored.events) == (
        played["scenario_id"],
        7,
        played["events"],
    )
    replayed = client.post("/api/v1/replay", json={"log": played["events"]}).json()
    assert replayed["reproduces"] is True
    assert replayed["dice_verified"] is True
    assert replayed["first_difference"] is None
    assert replayed["message"].startswith("reproduces: ")


def test_resolve_without_a_seed_draws_one_and_logs_it(client: TestClient) -> None:
    played = client.post("/api/v1/resolve", json={"scenario": SMALL, "seed": None}).json()
    assert isinstance(played["seed"], int)
    assert played["events"][0]["seed"] == played["seed"]


def test_an_ec4x_battle_is_resolved_and_replayed(client: TestClient) -> None:
    from spacecombat.scenario.formats import read_document

    scenario = read_document(Path(__file__).parents[2] / "examples/ec4x/two-houses.yaml")
    played = client.post("/api/v1/resolve", json={"scenario": scenario}).json()
    assert played["text"].splitlines()[0]
    jsonl = "".join(json.dumps(event) + "\n" for event in played["events"])
    replayed = client.post("/api/v1/replay", json={"log": jsonl}).json()
    assert replayed["reproduces"] is True


def test_an_edited_die_is_named_by_the_replay(
    client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    events = client.post("/api/v1/resolve", json={"scenario": SMALL, "seed": 7}).json()["events"]
    index = next(i for i, e in enumerate(events) if e["event"] == "dice_rolled")
    group = events[index]["groups"][0]
    group["faces"] = [1 if face != 1 else 2 for face in group["faces"]]
    jsonl = "".join(json.dumps(event) + "\n" for event in events)
    answer = client.post("/api/v1/replay", json={"log": jsonl})
    assert answer.status_code == 200
    verdict = answer.json()
    assert verdict["reproduces"] is False
    assert verdict["first_difference"]["line"] == index + 1
    assert verdict["first_difference"]["expected"] == events[index]
    path = tmp_path / "log.jsonl"
    path.write_text(jsonl)
    capsys.readouterr()
    assert main(["replay", str(path)]) == 1
    assert verdict["message"] + "\n" == capsys.readouterr().out


def test_a_malformed_log_is_refused_naming_its_line(client: TestClient) -> None:
    answer = client.post("/api/v1/replay", json={"log": '{"event": "battle_started"}\n[1]\n'})
    assert answer.status_code == 422
    assert answer.json()["error"]["field"] == "log"
    assert "log line" in answer.json()["error"]["message"]
    for log, message in [
        ([], "the log is empty: it needs at least its battle_started event"),
        ([{"event": "battle_started"}, 1], "log line 2: an event is a JSON object"),
        (5, "a log is a list of event objects, or JSON Lines text"),
    ]:
        answer = client.post("/api/v1/replay", json={"log": log})
        assert answer.status_code == 422
        assert answer.json()["error"] == {"field": "log", "message": message}


@pytest.mark.parametrize(
    ("scenario", "field"),
    [
        ({**SMALL, "attacker": {"units": {"ufo": 1}}}, "attacker.units.ufo"),
        ({**SMALL, "attacker": {"units": {"dreadnought": 2.5}}}, "attacker.units.dreadnought"),
        ({**SMALL, "battle": "dogfight"}, "battle"),
        ({**SMALL, "colour": "red"}, "colour"),
        ({**SMALL, "defender": {"units": "3 cruiser", "damaged": {"cruiser": 1}}}, None),
        ({**SMALL, "attacker": {"units": "1 cruiser", "technologies": [UNBUILT]}}, None),
        ("ruleset: ti4\nbattle: &b space\nother: *b\n", "scenario"),
        ([SMALL], "scenario"),
    ],
)
@pytest.mark.usefixtures("unbuilt")
def test_a_bad_scenario_gets_422_with_the_field_and_the_command_lines_message(
    client: TestClient,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    scenario: object,
    field: str | None,
) -> None:
    for path in ("/api/v1/odds", "/api/v1/resolve", "/api/v1/scenarios"):
        answer = client.post(path, json={"scenario": scenario})
        assert answer.status_code == 422, path
        error = answer.json()["error"]
        status, out, err = cli(capsys, tmp_path, scenario, "odds")
        assert (status, out) == (2, "")
        assert err == f"spacecombat: {error['message']}\n"
        assert error["message"].startswith(f"{error['field']}: ")
        if field is not None:
            assert error["field"] == field


@pytest.mark.usefixtures("unbuilt")
def test_a_rule_the_engine_does_not_implement_is_refused_by_name(client: TestClient) -> None:
    scenario = {**SMALL, "attacker": {"units": "1 cruiser", "technologies": [UNBUILT]}}
    error = client.post("/api/v1/odds", json={"scenario": scenario}).json()["error"]
    assert error["field"] == "attacker.technologies[0]"
    assert "Plasma Scoring is not implemented yet" in error["message"]


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"scenario": SMALL, "metod": "exact"}, "metod", "unknown key; allowed: scenario, "),
        ({"scenario": SMALL, "method": "guess"}, "method", "allowed: 'exact', 'montecarlo'"),
        ({"scenario": SMALL, "trials": 0}, "trials", "must be at least 1"),
        ({"scenario": SMALL, "trials": "5"}, "trials", "a whole number"),
        ({"scenario": SMALL, "seed": -1}, "seed", "must be at least 0"),
        ({"method": "exact"}, "scenario", "is required"),
        ([SMALL], "body", "a JSON object"),
    ],
)
def test_a_bad_request_gets_422_naming_the_field(
    client: TestClient, body: object, field: str, words: str
) -> None:
    answer = client.post("/api/v1/odds", json=body)
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert error["field"] == field
    assert words in error["message"]


@pytest.mark.parametrize(
    "text",
    [
        b'{"scenario": ',
        b'{"scenario": {}, "scenario": {}}',
        b'{"scenario": NaN}',
        b"[" * 10_000 + b"]" * 10_000,
        b"\xff\xfe",
        b"",
    ],
)
def test_malformed_json_gets_400_with_a_message(client: TestClient, text: bytes) -> None:
    answer = client.post("/api/v1/odds", content=text, headers={"content-type": "application/json"})
    assert answer.status_code == 400
    assert answer.json()["error"]["message"]


def test_a_body_over_the_limit_gets_413(client: TestClient) -> None:
    padding = "x" * (MAX_SCENARIO_BYTES + 10_000)
    answer = client.post("/api/v1/scenarios", json={"scenario": {**SMALL, "x": padding}})
    assert answer.status_code == 413
    assert "limit" in answer.json()["error"]["message"]

    def chunks() -> Any:  # no Content-Length: counted as it is read
        for _ in range(25):
            yield b" " * 1_000_000

    answer = client.post(
        "/api/v1/replay", content=chunks(), headers={"content-type": "application/json"}
    )
    assert answer.status_code == 413


@pytest.mark.parametrize(
    "example",
    sorted(  # examples/sweep-*.yaml are sweep specs, not scenarios
        p
        for p in (Path(__file__).parents[2] / "examples").rglob("*.yaml")
        if not p.name.startswith("sweep-")
    ),
    ids=lambda path: path.name,
)
def test_a_stored_scenario_is_the_same_battle(example: Path) -> None:
    """What the store keeps (defaults left out, fleets as counts) reads as the same battle."""
    from spacecombat.rulesets import parse_scenario
    from spacecombat.scenario.formats import read_document
    from spacecombat.web.jobs import canonical

    written = read_document(example)
    assert parse_scenario(canonical(written)) == parse_scenario(written)


def test_a_scenario_is_saved_once_and_shared_by_its_id(client: TestClient) -> None:
    saved = client.post("/api/v1/scenarios", json={"scenario": SMALL})
    assert saved.status_code == 200
    again = client.post(
        "/api/v1/scenarios", json={"scenario": {**SMALL, "defender": {"units": {"cruiser": 3}}}}
    )
    assert again.json()["id"] == saved.json()["id"]
    shared = client.get(f"/api/v1/scenarios/{saved.json()['id']}")
    assert shared.status_code == 200
    assert shared.json() == saved.json()
    # what is stored is a scenario the engine reads as the same battle
    odds = client.post("/api/v1/odds", json={"scenario": shared.json()["scenario"]}).json()
    assert odds["scenario_id"] == saved.json()["id"]


@pytest.mark.parametrize("path", ["/api/v1/scenarios/nope", "/api/v1/results/nope"])
def test_an_unknown_id_gets_404(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 404
    assert answer.json()["error"]["message"]


def test_an_unknown_route_gets_a_json_404(client: TestClient) -> None:
    answer = client.get("/api/v1/nothing")
    assert answer.status_code == 404
    assert "error" in answer.json()


@pytest.mark.usefixtures("unbuilt")
def test_the_rulesets_come_from_their_data(client: TestClient) -> None:
    from spacecombat.rulesets.ec4x.tables import tables
    from spacecombat.rulesets.ti3 import rules as ti3
    from spacecombat.rulesets.ti4 import rules as ti4

    answer = client.get("/api/v1/rulesets")
    assert answer.status_code == 200
    found = answer.json()
    assert set(found) == {"ti4", "ti3", "ec4x"}
    assert found["ti4"]["units"] == list(ti4.UNIT_TYPES)
    assert set(found["ti4"]["cards"]) == set(ti4.load().units)
    assert found["ti4"]["cards"]["dreadnought"]["combat"] == {"hit": 5, "dice": 1}
    assert set(found["ti4"]["technologies"]) == set(ti4.load().technologies)
    assert set(found["ti4"]["factions"]) == set(ti4.load().factions)
    assert set(found["ti4"]["laws"]) == set(ti4.load().laws)
    assert "dreadnought" in found["ti4"]["upgrades"]
    assert "gravity_rift" in found["ti4"]["anomalies"]
    assert "check_capacity_before_battle" in found["ti4"]["options"]["fields"]
    assert "casualty_order" in found["ti4"]["policy"]["fields"]
    assert found["ti4"]["technologies"][UNBUILT]["implemented"] is False
    assert found["ti4"]["technologies"]["duranium_armor"]["implemented"] is True
    assert found["ti4"]["held_cards"]["morale_boost"]["implemented"] is True
    assert found["ti4"]["held_cards"]["morale_boost"]["kind"] == "action_card"
    assert found["ti4"]["conditions"]["relic_fragment"]["scope"] == "player"
    assert found["ti3"]["units"] == list(ti3.UNIT_TYPES)
    assert set(found["ti3"]["factions"]) == set(ti3.load().factions)
    assert "shock_troops" in found["ti3"]["options"]["fields"]
    assert found["ec4x"]["units"] == list(tables().classes)
    assert found["ec4x"]["cards"]["DN"]["attack"] == tables().classes["DN"].attack
    assert "damage_memory" in found["ec4x"]["options"]["fields"]
    assert "retreat" in found["ec4x"]["policy"]["fields"]


def test_the_api_is_documented(client: TestClient) -> None:
    assert client.get("/docs").status_code == 200
    schema = client.get("/openapi.json").json()
    assert {"/api/v1/odds", "/api/v1/resolve", "/api/v1/replay", "/api/v1/rulesets"} <= set(
        schema["paths"]
    )
    body = schema["paths"]["/api/v1/odds"]["post"]["requestBody"]
    assert "scenario" in body["content"]["application/json"]["schema"]["properties"]


def test_an_unexpected_error_is_a_500_without_a_traceback(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("secret internals /etc/passwd")

    monkeypatch.setattr(store, "save_scenario", broken)
    with TestClient(create_app(store, workers=1), raise_server_exceptions=False) as client:
        answer = client.post("/api/v1/scenarios", json={"scenario": SMALL})
    assert answer.status_code == 500
    message = "internal error (it is logged; please report it)"
    assert answer.json() == {"error": {"message": message}}
    assert "secret" not in answer.text


def test_the_documentation_page_loads_nothing_from_elsewhere(client: Any) -> None:
    """/docs is Swagger UI served by the package (the API works offline): every script, style
    and icon it names is local."""
    page = client.get("/docs")
    assert page.status_code == 200
    text = page.text
    assert "/vendor/swagger-ui-bundle.js" in text
    assert "http://" not in text.replace("http://www.w3.org", "")
    assert "https://" not in text
    assert client.get("/vendor/swagger-ui-bundle.js").status_code == 200
    assert client.get("/openapi.json").json()["info"]["title"] == "spacecombat"
