"""A tactical action's odds (``battle: tactical``, issue 22): stage by stage equals the whole
action explored state by state, and a hand-derived case.

The stage-by-stage odds (analysis/tactical.py) are the composition of the parts: for every
fleet that can leave the space combat, its chance times the invasion's odds with it, summed.
The state-by-state engine explores the one process (rulesets/tactical.py) that the resolver
plays, with no stage apart; the two must agree on every figure a player reads (who holds the
system, each planet taken, every planet taken, results, survivors in space and on each
planet, losses, expected rounds) to 1e-9, on random TI4 and TI3 actions."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.tactical import tactical_odds
from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets import battle, parse_scenario, parse_ti_scenario
from spacecombat.rulesets.tactical import TacticalBattle

TOLERANCE = 1e-9


def compare(whole: Any, parts: Any, path: str = "") -> list[str]:
    """Where two reports' JSON differ (beyond ``TOLERANCE``); the rounds by their expected
    count only (state by state they are the whole action's, stage by stage each stage's)."""
    if isinstance(whole, dict):
        out: list[str] = []
        for key in sorted(set(whole) | set(parts)):
            if key == "method" or (path == ".rounds" and key != "expected"):
                continue
            if key not in whole or key not in parts:
                out.append(f"{path}.{key} in one report only")
                continue
            out += compare(whole[key], parts[key], f"{path}.{key}")
        return out
    if isinstance(whole, list):
        if len(whole) != len(parts):
            return [f"{path}: {len(whole)} items against {len(parts)}"]
        return [
            d
            for i, (a, b) in enumerate(zip(whole, parts, strict=True))
            for d in compare(a, b, f"{path}[{i}]")
        ]
    if isinstance(whole, float) or isinstance(parts, float):
        return [] if abs(whole - parts) <= TOLERANCE else [f"{path}: {whole} against {parts}"]
    return [] if whole == parts else [f"{path}: {whole!r} against {parts!r}"]


def both_ways(data: dict[str, Any]) -> list[str]:
    scenario = parse_scenario(data)
    whole = exact_odds(scenario, product_form=False, limit=None).to_json()
    parts = exact_odds(scenario).to_json()
    # survivors ranked by chance: ties may come in either order, so fleets are compared as sets
    for report in (whole, parts):
        _sort_fleets(report)
    return compare(whole, parts)


def _sort_fleets(value: Any) -> None:
    if isinstance(value, dict):
        fleets = value.get("fleets")
        if isinstance(fleets, list):
            fleets.sort(key=lambda f: sorted(f["units"].items()))
        for item in value.values():
            _sort_fleets(item)


# --- random actions ---

TI4_SHIPS = ("dreadnought", "cruiser", "destroyer", "carrier", "fighter")
TI4_DEFENDERS = ("destroyer", "cruiser", "fighter", "carrier")
TI3_SHIPS = ("dreadnought", "cruiser", "destroyer", "carrier", "fighter")


def ti4_action(seed: int) -> dict[str, Any]:
    """A small random TI4 tactical action: a few ships a side (or no defending ships), one or
    two planets with infantry, mechs and PDS, ground forces committed (sometimes more than
    may survive), a retreat policy at times."""
    rng = random.Random(seed)
    attacker: dict[str, int] = {"carrier": 1}
    for _ in range(rng.randint(0, 2)):
        ship = rng.choice(TI4_SHIPS)
        attacker[ship] = attacker.get(ship, 0) + 1
    attacker["infantry"] = rng.randint(1, 3)
    if rng.random() < 0.3:
        attacker["mech"] = 1
    defender: dict[str, int] = {}
    for _ in range(rng.choice((0, 1, 1, 2))):
        ship = rng.choice(TI4_DEFENDERS)
        defender[ship] = defender.get(ship, 0) + 1
    if defender.get("fighter") and not defender.get("carrier"):
        defender["carrier"] = 1
    names = ["Lodor", "Quann"][: rng.choice((1, 1, 2))]
    planets = []
    ground = {u: n for u, n in attacker.items() if u in ("infantry", "mech")}
    for i, name in enumerate(names):
        units = {"infantry": rng.randint(0, 2)}
        if rng.random() < 0.3:
            units["pds"] = 1
        if rng.random() < 0.2:
            units["mech"] = 1
        planet: dict[str, Any] = {"name": name, "defender": {u: n for u, n in units.items() if n}}
        if len(names) > 1:
            planet["commit"] = {"infantry": ground["infantry"]} if i == 0 else dict(ground)
        planets.append(planet)
    data: dict[str, Any] = {
        "ruleset": "ti4",
        "battle": "tactical",
        "attacker": {"units": attacker},
        "defender": {"units": defender},
        "planets": planets,
    }
    if len(names) > 1 and rng.random() < 0.5:
        data["attacker"]["policy"] = {"planet_order": list(reversed(names))}
    if defender and rng.random() < 0.3:
        data["system"] = {"adjacent": [{"name": "Home", "command_tokens": ["attacker"]}]}
        data["attacker"].setdefault("policy", {})["retreat"] = {"after_round": 1}
    if rng.random() < 0.2:
        data["attacker"]["upgrades"] = ["infantry"]
    return data


def ti3_action(seed: int) -> dict[str, Any]:
    """A small random TI3 tactical action (or an invasion with no space battle)."""
    rng = random.Random(10_000 + seed)
    attacker: dict[str, int] = {"carrier": 1}
    for _ in range(rng.randint(0, 2)):
        ship = rng.choice(TI3_SHIPS)
        attacker[ship] = attacker.get(ship, 0) + 1
    attacker["ground_force"] = rng.randint(1, 3)
    defender: dict[str, int] = {}
    for _ in range(rng.choice((0, 1, 1, 2))):
        ship = rng.choice(("cruiser", "destroyer", "dreadnought"))
        defender[ship] = defender.get(ship, 0) + 1
    planet: dict[str, Any] = {"name": "Lodor", "defender": {"ground_force": rng.randint(1, 2)}}
    if rng.random() < 0.3:
        planet["defender"]["pds"] = 1
    return {
        "ruleset": "ti3",
        "battle": "tactical",
        "attacker": {"units": attacker},
        "defender": {"units": defender},
        "planets": [planet],
    }


def _check(actions: list[dict[str, Any]]) -> None:
    failures = []
    for data in actions:
        found = both_ways(data)
        if found:
            failures.append(f"{data}: {found[:3]}")
    assert not failures, "\n".join(failures[:5])


def test_a_few_ti4_actions_stage_by_stage_equal_the_whole_action() -> None:
    _check([ti4_action(seed) for seed in range(12)])


def test_a_few_ti3_actions_stage_by_stage_equal_the_whole_action() -> None:
    _check([ti3_action(seed) for seed in range(6)])


@pytest.mark.slow
def test_300_ti4_actions_stage_by_stage_equal_the_whole_action() -> None:
    _check([ti4_action(seed) for seed in range(300)])


@pytest.mark.slow
def test_100_ti3_actions_stage_by_stage_equal_the_whole_action() -> None:
    _check([ti3_action(seed) for seed in range(100)])


# --- a hand-derived action ---

#: A dreadnought (combat 5: hits 6 in 10; SUSTAIN DAMAGE; BOMBARDMENT 5) carrying one infantry
#: attacks a destroyer (combat 9: 2 in 10) over a planet with one infantry (combat 8: 3 in 10).
HAND = {
    "ruleset": "ti4",
    "battle": "tactical",
    "attacker": {"units": {"dreadnought": 1, "infantry": 1}},
    "defender": {"units": {"destroyer": 1}},
    "planets": [{"name": "Lodor", "defender": {"infantry": 1}}],
}


def test_a_hand_derived_action() -> None:
    """Space combat (ti4-space-combat.md), each round both fire at once. Undamaged: the
    destroyer dies and the dreadnought is untouched 0.48, dies and hits 0.12 (the dreadnought
    sustains), misses but hits 0.08 (sustained), neither 0.32: of the rounds that decide,
    12/17 win untouched, 3/17 win damaged, 2/17 go on damaged. Damaged: win 0.48, draw 0.12,
    loss 0.08, of 0.68: 12/17, 3/17, 2/17. So the attacker holds the system 12/17 + 3/17 +
    (2/17)(12/17) = 279/289 (the infantry aboard survives with its ship).

    Invasion (ti4-ground-combat.md): the dreadnought bombards the planet (6 in 10 to destroy
    its infantry, the planet then taken unopposed); else one infantry each, 3 in 10 to hit:
    the attacker wins 0.21 / 0.51 = 7/17. Taken: 3/5 + (2/5)(7/17) = 13/17; so over the
    action 279/289 x 13/17 = 3627/4913."""
    scenario = parse_scenario(HAND)
    process = battle(scenario)
    assert isinstance(process, TacticalBattle)
    report = tactical_odds(process, fractions=True)
    assert report.holds is not None
    assert report.holds["attacker"] == Fraction(279, 289)
    assert report.holds["neither"] == Fraction(6, 289)  # a draw: both ships gone
    assert report.holds["defender"] == Fraction(4, 289)
    assert report.taken == {"Lodor": Fraction(3627, 4913)}
    assert report.other["taken_all"] == Fraction(3627, 4913)
    assert report.other["invaded"] == Fraction(279, 289)
    # the float engines agree
    fast = exact_odds(scenario).to_json()
    assert fast["holds"]["attacker"] == pytest.approx(279 / 289, abs=1e-12)
    assert fast["taken"]["Lodor"] == pytest.approx(3627 / 4913, abs=1e-12)
    assert not both_ways(HAND)


def test_an_action_without_planets_is_its_space_battle() -> None:
    """No planet listed: the space battle, with the same odds as ``battle: space``."""
    data = {
        "ruleset": "ti4",
        "battle": "tactical",
        "attacker": {"units": {"destroyer": 1, "pds": 2}},
        "defender": {"units": {"destroyer": 1}, "upgrades": ["destroyer"]},
    }
    tactical = exact_odds(parse_scenario(data)).to_json()
    space = exact_odds(parse_scenario({**data, "battle": "space"})).to_json()
    assert tactical["holds"] == pytest.approx(space["holds"], abs=1e-12)
    assert tactical["holds"]["attacker"] == pytest.approx(73 / 88, abs=1e-12)
    assert tactical["invaded"] == 0
    assert tactical["expected_losses"] == pytest.approx(space["expected_losses"])


def test_ground_forces_committed_beyond_those_left_land_those_left_in_planet_order() -> None:
    """``commit`` may name more ground forces than survive: those left land, planet by planet
    in the attacker's planet order (issue 22)."""
    from spacecombat.rulesets.tactical import invasion_part

    data = {
        "ruleset": "ti4",
        "battle": "tactical",
        "attacker": {
            "units": {"carrier": 2, "infantry": 4},
            "policy": {"planet_order": ["B", "A"]},
        },
        "defender": {"units": {}},
        "planets": [
            {"name": "A", "defender": {"infantry": 1}, "commit": {"infantry": 2}},
            {"name": "B", "defender": {"infantry": 1}, "commit": {"infantry": 2}},
        ],
    }
    scenario = parse_ti_scenario(data)
    part = invasion_part(scenario, (("carrier", 0, 2), ("infantry", 0, 3)), (1, 0))
    assert part.planets is not None
    assert [p.commit for p in part.planets] == [{"infantry": 1}, {"infantry": 2}]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"defender": {"units": {"pds": 1}}}, "defender.units.pds"),
        ({"defender": {"units": {}, "planet_units": {"infantry": 1}}}, "defender.planet_units"),
        (
            {"planets": [{"name": "A", "defender": {"infantry": 1}, "commit": {"mech": 1}}]},
            "planets[0].commit.mech",
        ),
        (
            {"defender": {"units": {}, "policy": {"retreat_takes_planet_ground_forces": True}}},
            "defender.policy.retreat_takes_planet_ground_forces",
        ),
    ],
)
def test_bad_tactical_input_is_refused_by_field(change: dict[str, Any], field: str) -> None:
    from spacecombat.core.errors import SpacecombatError

    data = {
        "ruleset": "ti4",
        "battle": "tactical",
        "attacker": {"units": {"carrier": 1, "infantry": 2}},
        "defender": {"units": {}},
        "planets": [{"name": "A", "defender": {"infantry": 1}}],
        **change,
    }
    with pytest.raises(SpacecombatError) as caught:
        battle(parse_scenario(data))
    assert str(caught.value).startswith(field)


def test_the_state_after_one_round_of_a_hand_derived_action() -> None:
    """docs/rulings.md 22T-4, on ``HAND``: after round 1 of the space combat the destroyer
    lives 0.4 (the dreadnought untouched 0.32, damaged 0.08: still in space); it dies 0.6, and
    the dreadnought's bombardment then takes the planet 0.6 (over: 0.36) or misses, its
    infantry landed to fight the next round: untouched 0.48 x 0.4, damaged 0.12 x 0.4."""
    after = exact_odds(parse_scenario(HAND), rounds=1).to_json()["after_rounds"]
    assert after["over"] == {"attacker_win": pytest.approx(0.36, abs=1e-12)}
    found = {
        (s["stage"], s["attacker"]["space"][0].get("status", "")): s["probability"]
        for s in after["states"]
    }
    assert found == pytest.approx(
        {
            ("space", ""): 0.32,
            ("space", "damaged"): 0.08,
            ("invasion", ""): 0.192,
            ("invasion", "damaged"): 0.048,
        },
        abs=1e-12,
    )
    for state in after["states"]:
        landed = [{"unit": "infantry", "count": 1}] if state["stage"] == "invasion" else []
        assert state["attacker"]["planets"][0] == landed
    with pytest.raises(ScenarioError) as refused:
        exact_odds(parse_scenario(HAND), rounds=1, fractions=True)
    assert refused.value.field == "rounds"


def test_monte_carlo_agrees_with_the_exact_odds_stage_by_stage() -> None:
    """Simulation against the exact engine on ``HAND`` with a second planet: who holds the
    system, each planet taken, and each stage's rounds (each trial's space rounds its own,
    not those of the first trial that ended in the same final state) within 4.5 standard
    errors of 20,000 trials."""
    from spacecombat.analysis.montecarlo import monte_carlo

    data = {
        **HAND,
        "attacker": {"units": {"dreadnought": 1, "carrier": 1, "infantry": 3}},
        "planets": [*HAND["planets"], {"name": "Quann", "defender": {"infantry": 1}}],
    }
    scenario = parse_scenario(data)
    exact = exact_odds(scenario).to_json()
    trials = 20_000
    sampled = monte_carlo(scenario, trials=trials, seed=3, workers=1).to_json()

    def near(found: float, expected: float, what: str, spread: float = 0.25) -> None:
        # spread: the standard deviation of one trial (a chance: at most 1/2)
        assert abs(found - expected) <= 4.5 * spread / trials**0.5, (what, found, expected)

    for holder, p in exact["holds"].items():
        near(sampled["holds"][holder], p, f"holds {holder}", 0.5)
    for planet, p in exact["taken"].items():
        near(sampled["taken"][planet], p, f"taken {planet}", 0.5)
    for stage in ("space", "ground"):
        got, want = sampled["rounds"][stage], exact["rounds"][stage]
        near(got["expected"], want["expected"], f"{stage} rounds", 1.5)
        for r, p in want["distribution"].items():
            near(got["distribution"].get(r, 0.0), p, f"{stage} round {r}", 0.5)
    near(sampled["rounds"]["expected"], exact["rounds"]["expected"], "rounds", 2.0)
