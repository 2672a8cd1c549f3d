"""A TI3 space battle in an ion storm (Shattered Empire special system; docs/rulings.md 27I):
fighters roll no combat dice there but stay in the battle as units (PC_Twi
``e_IonStormFighters``; ti3-facts.md 4.4), an ion storm has no planet, TI4 has no ion storm,
fighters taking no part at all is refused by name, and the combinations 27I-4 once refused are
played by named options (27J; their own test files: tests/ti3/test_ion_storm_sabotage_run.py,
tests/ti3/flagships/test_van_hauge_ion_storm.py, test_xxcha_flagship_ion_storm.py,
tests/ti3/cards/test_courageous_to_the_end_ion_storm.py).

Dice: a pool rolls its groups in ascending printed value, then unit name; in a simultaneous
exchange the attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any, cast

import pytest

from spacecombat import odds
from spacecombat.analysis.exact import exact_odds
from spacecombat.cli import main
from spacecombat.core.errors import RuleNotImplemented, ScenarioError
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.catalogue import ti3, ti4
from spacecombat.rulesets.ti3.rounds import Ti3ProductRounds
from spacecombat.rulesets.ti3.setup import build
from tests.helpers import events, rolls, run, survivors
from tests.ti3.effects import space

STORM = {"anomaly": "ion_storm"}

#: a carrier and 2 fighters against a cruiser (ti3-combat.md: carrier 9+, cruiser 7+)
CARRIER_AND_FIGHTERS = ({"units": {"carrier": 1, "fighter": 2}}, {"units": {"cruiser": 1}})


def dice(played: Any, player: str) -> list[tuple[str, int]]:
    """(unit, dice) of each group ``player`` rolled in the combat rounds."""
    found: list[tuple[str, int]] = []
    for r in rolls(played, "space_combat"):
        if r["player"] == player:
            groups = cast("list[dict[str, Any]]", r["groups"])
            found.extend((str(g["unit"]), len(g["faces"])) for g in groups)
    return found


# --- 27I-2: fighters roll no dice, but are units of the battle --------------------------------


def test_fighters_roll_no_combat_dice_and_are_taken_as_casualties() -> None:
    """Round 1: the carrier alone rolls (1, a miss), the cruiser 7 (a hit), taken on a fighter;
    round 2: carrier 9 (a hit), cruiser 1. The attacker keeps its carrier and one fighter."""
    played = run(space(*CARRIER_AND_FIGHTERS, system=STORM), [1, 7, 9, 1])
    assert dice(played, "attacker") == [("carrier", 1), ("carrier", 1)]
    assert [e["unit"] for e in events(played, "unit_destroyed", player="attacker")] == ["fighter"]
    assert played.outcome["result"] == "attacker_win"
    assert survivors(played, "attacker") == {"carrier": 1, "fighter": 1}


def test_anti_fighter_barrage_hits_fighters_in_an_ion_storm() -> None:
    """The destroyer's barrage (2 dice at 9: 9 hits, 1 misses) destroys a fighter as anywhere;
    round 1: the carrier 9 (a hit: the destroyer is lost), the destroyer 1."""
    played = run(
        space({"units": {"carrier": 1, "fighter": 2}}, {"units": {"destroyer": 1}}, system=STORM),
        [9, 1, 9, 1],
    )
    destroyed = [(e["player"], e["unit"]) for e in events(played, "unit_destroyed")]
    assert destroyed == [("attacker", "fighter"), ("defender", "destroyer")]
    assert dice(played, "attacker") == [("carrier", 1)]


def test_the_exact_odds_of_a_carrier_and_two_fighters_against_a_cruiser() -> None:
    """Only the carrier rolls (1/5), the cruiser 2/5; the fighters are the first casualties, so
    the cruiser needs 3 hits. A round that decides something: the carrier alone hits 3/25,
    both 2/25, the cruiser alone 8/25 (of 13/25). Won: 5/13 + 8/13 * 5/13 + (8/13)^2 * 3/13
    = 1557/2197; both destroyed (8/13)^2 * 2/13 = 128/2197; lost (8/13)^3 = 512/2197."""
    report = odds(space(*CARRIER_AND_FIGHTERS, system=STORM), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(1557, 2197),
        Fraction(128, 2197),
        Fraction(512, 2197),
    )


def test_outside_an_ion_storm_the_fighters_roll() -> None:
    """The same battle in an empty system: the fighters' dice make it likelier to be won."""
    report = odds(space(*CARRIER_AND_FIGHTERS), fractions=True)
    assert report.attacker_win > Fraction(1557, 2197)
    assert dice(run(space(*CARRIER_AND_FIGHTERS), [9, 1, 1, 1]), "attacker") == [
        ("carrier", 1),
        ("fighter", 2),
    ]


def test_fighter_bonuses_have_no_die_to_act_on() -> None:
    """Advanced Fighters and the Naalu's +1 reach fighters' dice only: none in an ion storm."""
    naalu = {"units": {"carrier": 1, "fighter": 2}, "faction": "naalu"}
    naalu["technologies"] = ["advanced_fighters"]
    report = odds(space(naalu, {"units": {"cruiser": 1}}, system=STORM), fractions=True)
    assert report.attacker_win == Fraction(1557, 2197)


def test_fighter_prototype_is_not_offered() -> None:
    """Its +2 would reach no die (27I-2): the card is kept, nothing is asked."""
    holder = {"units": {"carrier": 1, "fighter": 2}, "action_cards": ["fighter_prototype"]}
    played = run(space(holder, {"units": {"cruiser": 1}}, system=STORM), [9, 1])
    assert not events(played, "choice_made", decision="play_card")
    assert not events(played, "card_played")
    assert played.outcome["result"] == "attacker_win"


def test_fighters_alone_on_both_sides_are_a_stalemate() -> None:
    """Neither player's fighters roll: nobody can win, the battle ends at once (T15)."""
    att = {"units": {"fighter": 2}, "technologies": ["advanced_fighters"]}
    dfn = {"units": {"fighter": 1}, "technologies": ["advanced_fighters"]}
    scenario = space(att, dfn, system=STORM)
    played = run(scenario, [])
    assert played.outcome["result"] == "stalemate"
    assert odds(scenario).other["stalemate"] == 1.0
    assert Ti3ProductRounds.refusal(build(parse_ti_scenario(scenario))) is not None


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [
        ({"carrier": 1, "fighter": 2}, {"cruiser": 1}),
        ({"carrier": 2, "fighter": 4}, {"destroyer": 2, "cruiser": 1}),
        ({"dreadnought": 1, "carrier": 1, "fighter": 3}, {"carrier": 1, "fighter": 3}),
    ],
)
def test_product_form_agrees_with_the_state_graph(
    attacker: dict[str, int], defender: dict[str, int]
) -> None:
    """The fast path and the state graph (analysis/graph.py) read the fighters' dice from the
    same pool (procedures/common.combat_pool): the same answer to 1e-12."""
    scenario = space({"units": attacker}, {"units": defender}, system=STORM)
    fast = exact_odds(scenario)
    slow = exact_odds(scenario, product_form=False, limit=None)
    for name in ("attacker_win", "draw", "defender_win"):
        assert abs(getattr(fast, name) - getattr(slow, name)) < 1e-12, name


def test_the_resolver_plays_as_the_odds_say() -> None:
    """Monte Carlo with the resolver against the exact answer (1557/2197 ~ 0.7087)."""
    scenario = space(*CARRIER_AND_FIGHTERS, system=STORM)
    sampled = odds(scenario, method="montecarlo", trials=4000, precision=0, seed=1)
    assert abs(sampled.attacker_win - 1557 / 2197) < 0.03


# --- 27I-3, 27I-5, 27J: what is refused, what is now played -------------------------------


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"battle": "invasion"}, "battle"),
        ({"battle": "tactical"}, "battle"),
        ({"planets": [{"name": "A", "defender": {"pds": 1}}]}, "planets"),
        ({"defender": {"units": {"cruiser": 1}, "planet_units": {"pds": 1}}}, "defender"),
    ],
)
def test_an_ion_storm_has_no_planet(change: dict[str, Any], field: str) -> None:
    scenario = {**space(*CARRIER_AND_FIGHTERS, system=STORM), **change}
    with pytest.raises(ScenarioError) as raised:
        build(parse_ti_scenario(scenario))
    assert raised.value.field.startswith(field)
    assert "ion storm has no planet" in str(raised.value)


def test_ti4_has_no_ion_storm() -> None:
    scenario = {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": {"cruiser": 1}},
        "defender": {"units": {"cruiser": 1}},
        "system": STORM,
    }
    with pytest.raises(ScenarioError) as raised:
        odds(scenario)
    assert raised.value.field == "system.anomaly"
    assert "allowed: none, nebula, gravity_rift, asteroid_field, supernova" in str(raised.value)
    scenario["system"] = {"adjacent": [{"name": "B", "anomaly": "ion_storm"}]}
    with pytest.raises(ScenarioError) as raised:
        odds(scenario)
    assert raised.value.field == "system.adjacent[0].anomaly"


def test_ti4_with_an_ion_storm_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = tmp_path / "storm.yaml"
    scenario.write_text(
        "ruleset: ti4\nbattle: space\nsystem: {anomaly: ion_storm}\n"
        "attacker: {units: {cruiser: 1}}\ndefender: {units: {cruiser: 1}}\n",
        encoding="utf-8",
    )
    assert main(["resolve", str(scenario)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "system.anomaly" in captured.err


def test_the_catalogues_list_the_ion_storm_for_ti3_only() -> None:
    assert "ion_storm" in ti3()["anomalies"]
    assert "ion_storm" not in ti4()["anomalies"]


def test_fighters_taking_no_part_at_all_is_refused_by_name() -> None:
    """``ion_storm_fighters: absent``: no source reads the rule so (27I-2)."""
    scenario = space(
        {"units": {"carrier": 1}},
        {"units": {"war_sun": 1}},
        system=STORM,
        options={"ion_storm_fighters": "absent"},
    )
    with pytest.raises(RuleNotImplemented) as raised:
        build(parse_ti_scenario(scenario))
    assert raised.value.where == "options.ion_storm_fighters"


@pytest.mark.parametrize(
    ("attacker", "options"),
    [
        # each combination 27I-4 refused is played, its reading a named option (27J-2 to 27J-5)
        ({"units": {"carrier": 1, "fighter": 2}}, {"sabotage_runs": True}),
        ({"units": {"flagship": 1, "ground_force": 1}, "faction": "yin"}, {}),
        ({"units": {"flagship": 1}, "faction": "xxcha"}, {}),
        ({"units": {"carrier": 1, "fighter": 1}, "action_cards": ["courageous_to_the_end"]}, {}),
    ],
)
def test_what_27i_4_refused_is_now_played(
    attacker: dict[str, Any], options: dict[str, Any]
) -> None:
    scenario = space(attacker, {"units": {"war_sun": 1}}, system=STORM, options=options)
    assert build(parse_ti_scenario(scenario)).anomaly == "ion_storm"


@pytest.mark.parametrize(
    ("option", "allowed"),
    [
        ("ion_storm_sabotage_run", "'not_made'"),
        ("ion_storm_van_hauge", "'no_dice'"),
        ("ion_storm_flagship_pds", "'fires'"),
        ("ion_storm_courageous", "'rolls'"),
    ],
)
def test_a_bad_value_of_an_ion_storm_option_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, allowed: str
) -> None:
    """27J-2 to 27J-5: the field and what it allows, exit status 2, nothing on stdout."""
    scenario = tmp_path / "storm.yaml"
    scenario.write_text(
        "ruleset: ti3\nbattle: space\nsystem: {anomaly: ion_storm}\n"
        f"options: {{{option}: maybe}}\n"
        "attacker: {units: {cruiser: 1}}\ndefender: {units: {cruiser: 1}}\n",
        encoding="utf-8",
    )
    assert main(["resolve", str(scenario)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"options.{option}" in captured.err
    assert allowed in captured.err
