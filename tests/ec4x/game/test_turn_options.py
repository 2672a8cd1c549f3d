"""The conflict phase's options (rulings G12-G16 and on) are set in the game state's
``options``, read from the state file, checked like movement's and space combat's, and each
changes what its ruling says, both ways."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spacecombat.cli import main
from spacecombat.core.dice import ScriptedDice
from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets.ec4x.turn.conflict import TurnResult, turn
from spacecombat.rulesets.ec4x.turn.game import load_game, parse_game
from spacecombat.rulesets.ec4x.turn.orders import TURN_OPTIONS, TurnOptions
from spacecombat.scenario.ec4x_game import GameState
from spacecombat.scenario.ec4x_orders import parse_orders
from tests.ec4x.game.helpers import data, fleet

SCOUT: dict[str, Any] = {"squadrons": [], "scouts": [{"eli": 1}]}


def from_file(raw: dict[str, Any], tmp_path: Path, **options: object) -> GameState:
    """``raw`` with ``options`` written to a state file and read back (``load_game``)."""
    if options:
        raw = {**raw, "options": options}
    path = tmp_path / "state.json"
    path.write_text(json.dumps(raw))
    return load_game(path)


def play(state: GameState, dice: ScriptedDice | None = None, **orders: Any) -> TurnResult:
    given = parse_orders({"game_id": "test", "turn": state.turn, "orders": orders}, state)
    return turn(state, given, dice=dice)


def where(result: TurnResult, fid: str) -> str | None:
    return next((f.location for f in result.state.fleets if f.id == fid), None)


def at_war(raw: dict[str, Any]) -> dict[str, Any]:
    raw["diplomacy"] = [{"houses": ["alpha", "beta"], "status": "enemy"}]
    return raw


def test_every_turn_option_is_settable_in_the_state(tmp_path: Path) -> None:
    """Each option of ``TurnOptions`` is read from the state's ``options`` with each of its
    values; the turn uses them (``turn`` without ``options`` takes the state's)."""
    for name in TURN_OPTIONS:
        annotation = TurnOptions.model_fields[name].annotation
        for value in annotation.__args__:  # type: ignore[union-attr]
            s = from_file(data("A-B major"), tmp_path, **{name: value})
            assert s.options == {name: value}
            r = play(s)
            assert r.state.options == {name: value}  # kept for the next turn


@pytest.mark.parametrize(
    ("options", "field", "words"),
    [
        ({"closest_tie": "nearest"}, "options.closest_tie", "'lowest_id', 'home_first'"),
        ({"retreat_tie": 1}, "options.retreat_tie", "'lowest_id', 'best_lane'"),
        ({"spy_detectors": "all"}, "options.spy_detectors", "'each_unit', 'best_unit'"),
        ({"hack_without_starbase": True}, "options.hack_without_starbase", "'fails'"),
        ({"closest_ties": "lowest_id"}, "options.closest_ties", "closest_tie, retreat_tie"),
    ],
)
def test_a_bad_turn_option_names_it_and_its_values(
    options: dict[str, object], field: str, words: str, tmp_path: Path
) -> None:
    with pytest.raises(ScenarioError) as caught:
        from_file(data("A-B major"), tmp_path, **options)
    assert caught.value.field == field
    assert words in str(caught.value)


@pytest.mark.parametrize(("tie", "goal"), [("lowest_id", "A"), ("home_first", "H")])
def test_g12_closest_tie(tie: str, goal: str, tmp_path: Path) -> None:
    """6.2.3 "seek the closest friendly solar system": A and the homeworld H are both one jump
    from X; ``lowest_id`` takes A, ``home_first`` the homeworld."""
    raw = data(
        "X-A major, X-H major", colonies={"A": "alpha", "H": "alpha"}, fleets=[fleet(at="X")]
    )
    raw["houses"]["alpha"]["home"] = "H"
    r = play(from_file(raw, tmp_path, closest_tie=tie), alpha=[{"fleet": "F1", "order": 2}])
    assert where(r, "F1") == goal


@pytest.mark.parametrize(("tie", "goal"), [("lowest_id", "C"), ("best_lane", "D")])
def test_g13_retreat_tie(tie: str, goal: str, tmp_path: Path) -> None:
    """7.3.5 "flee to the closest friendly star system": alpha's DD (ROE 0) fights beta's DD at
    B (5 hits at most: it cannot cripple a DS 6) and retreats after the first round; C (minor
    lane) and D (major lane) are both one jump away: ``lowest_id`` flees to C, ``best_lane`` to
    D. The battle's draws are the turn's own (seeded by game id and turn)."""
    raw = at_war(
        data(
            "B-C minor, B-D major",
            colonies={"C": "alpha", "D": "alpha"},
            fleets=[
                fleet("F1", at="B", roe=0),
                fleet("G1", owner="beta", at="B"),
            ],
        )
    )
    r = play(from_file(raw, tmp_path, retreat_tie=tie))
    assert {"event": "retreated", "fleet": "F1", "path": ["B", goal]} in r.reports["alpha"][
        "events"
    ]
    assert where(r, "F1") == goal


def spy_game(raw_options: dict[str, object], tmp_path: Path) -> GameState:
    """Alpha's spy (ELI4) on beta's colony B, which has an ELI1 starbase (ELI3 for detection)
    and beta's fleet of one ELI5 scout: G1 is the best detector (ELI5: 6-8 against a spy of
    ELI4), then the starbase (ELI3: 15-17)."""
    raw = at_war(
        data(
            "A-B major",
            colonies={"A": "alpha", "B": "beta"},
            fleets=[
                fleet("F1", at="B", squadrons=[], scouts=[{"eli": 4}]),
                fleet("G1", owner="beta", at="B", squadrons=[], scouts=[{"eli": 5}]),
            ],
        )
    )
    raw["systems"][1]["planets"][0]["colony"]["starbases"] = [{"eli": 1}]
    return from_file(raw, tmp_path, **raw_options)


@pytest.mark.parametrize(("detectors", "survives"), [("each_unit", False), ("best_unit", True)])
def test_g15_spy_detectors(detectors: str, survives: bool, tmp_path: Path) -> None:
    """Facts §4: G1 rolls 1D3 (pick 0: the lower bound, 6) and 1D20 (pick 0: a 1): not
    detected. ``each_unit``: the starbase rolls next, 1D3 upper (17) and a 20: detected, the spy
    is destroyed. ``best_unit``: only G1 rolls; the spy survives and reports."""
    s = spy_game({"spy_detectors": detectors}, tmp_path)
    dice = ScriptedDice(picks=[0, 0, 2, 19])
    r = play(s, dice, alpha=[{"fleet": "F1", "order": 11}])
    assert (where(r, "F1") == "B") is survives
    assert bool(r.reports["alpha"]["intelligence"]) is survives


@pytest.mark.parametrize("hack", ["fails", "spy_on_planet"])
def test_g16_hack_without_starbase(hack: str, tmp_path: Path) -> None:
    """6.2.11 "hack into a rival's Starbase network": beta's colony has none. ``fails``: the
    report says so; ``spy_on_planet``: the scout reports the colony as under order 09."""
    raw = data("A-B major", colonies={"B": "beta"}, fleets=[fleet("F1", at="B", **SCOUT)])
    r = play(
        from_file(raw, tmp_path, hack_without_starbase=hack), alpha=[{"fleet": "F1", "order": 10}]
    )
    (intel,) = r.reports["alpha"]["intelligence"]
    if hack == "fails":
        assert intel["result"] == "no rival starbase to hack"
        assert "colony" not in intel
    else:
        assert intel["colony"]["owner"] == "beta"
        assert "result" not in intel


def test_turn_options_stay_out_of_the_battle_scenario(tmp_path: Path) -> None:
    """A battle's scenario takes the state's space combat options only (a turn option there
    would be refused as unknown by the battle ruleset)."""
    raw = at_war(
        data(
            "A-B major",
            colonies={"A": "alpha"},
            fleets=[fleet("F1", at="B"), fleet("G1", owner="beta", at="B")],
        )
    )
    s = from_file(raw, tmp_path, retreat_tie="best_lane", max_rounds=1)
    r = play(s)
    assert r.battles[0]["outcome"]["rounds"] == 1


def test_parse_game_accepts_turn_options_beside_the_others() -> None:
    raw = data("A-B major", options={"owned_path": "through", "closest_tie": "home_first"})
    assert parse_game(raw).options == {"owned_path": "through", "closest_tie": "home_first"}


@pytest.mark.parametrize("hack", ["fails", "spy_on_planet"])
def test_the_turn_command_takes_the_options_of_the_state_file(
    hack: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``spacecombat turn`` reads a turn option from the state file (G16 both ways) and a bad
    one exits 2 naming ``options.KEY``."""
    raw = data("A-B major", colonies={"B": "beta"}, fleets=[fleet("F1", at="B", **SCOUT)])
    raw["options"] = {"hack_without_starbase": hack}
    (tmp_path / "state.json").write_text(json.dumps(raw))
    orders = {"game_id": "test", "turn": 5, "orders": {"alpha": [{"fleet": "F1", "order": 10}]}}
    (tmp_path / "orders.json").write_text(json.dumps(orders))
    reports = tmp_path / "reports"
    reports.mkdir()
    args = ["turn", str(tmp_path / "state.json"), str(tmp_path / "orders.json")]
    assert main([*args, "--out", str(tmp_path / "next.json"), "--report", str(reports)]) == 0
    (intel,) = json.loads((reports / "turn-5-alpha.json").read_text())["intelligence"]
    assert ("colony" in intel) is (hack == "spy_on_planet")
    assert json.loads((tmp_path / "next.json").read_text())["options"] == raw["options"]

    raw["options"] = {"hack_without_starbase": "guess"}
    (tmp_path / "state.json").write_text(json.dumps(raw))
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "options.hack_without_starbase" in err[0]
    assert "'fails', 'spy_on_planet'" in err[0]


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("excess_hits", "spill_over"),
        ("squadron_losses", "individual_ships"),
        ("detection_scope", "per_house"),
    ],
)
def test_an_option_value_not_implemented_is_refused_when_the_state_is_read(
    option: str, value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 23: a game never stops at its first battle, after movement, for its own options:
    a space combat reading not implemented (E25's ``spill_over``, ...) is refused when the
    state is read, naming the option; the turn command exits 2 and writes nothing."""
    from spacecombat.core.errors import RuleNotImplemented

    raw = data("A-B major", options={option: value})
    with pytest.raises(RuleNotImplemented) as refused:
        parse_game(raw)
    assert refused.value.where == f"options.{option}"
    state_file = tmp_path / "state.json"
    state_file.write_text(json.dumps(raw))
    orders_file = tmp_path / "orders.json"
    orders_file.write_text(json.dumps({"game_id": "test", "turn": 5}))
    out = tmp_path / "next.json"
    status = main(["turn", str(state_file), str(orders_file), "--out", str(out)])
    err = capsys.readouterr().err
    assert status == 2
    assert f"options.{option}" in err
    assert len(err.strip().splitlines()) == 1
    assert not out.exists()
