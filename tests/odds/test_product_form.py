"""The product-form fast path (rulesets/ti4/rounds.py, analysis/product.py) against the generic
state graph (analysis/graph.py, analysis/solve.py).

A space combat round is two independent per-player steps when no rule links them (the module
docstring of rulesets/ti4/rounds.py): each player's dice depend only on their own ships
(ti4-space-combat.md step 3), and each assigns the hits they took to their own ships (step 4).
The fast path relies on that, and on one walk of Assign Hits giving the result for every number
of hits (``ProductRounds.after_hits``); these tests check both claims.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spacecombat.analysis import product
from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.report import OddsReport
from spacecombat.core.sides import SideState
from spacecombat.rulesets import parse_ti_scenario, ti4
from spacecombat.rulesets.ti4.rounds import ProductRounds
from spacecombat.rulesets.ti4.state import BattleState, Phase
from tests.helpers import space

SHIPS = ("war_sun", "dreadnought", "cruiser", "carrier", "destroyer", "fighter")
UPGRADABLE = ("dreadnought", "cruiser", "carrier", "destroyer", "fighter")
SUSTAINERS = ("war_sun", "dreadnought")


@st.composite
def fleets(draw: st.DrawFn) -> dict[str, Any]:
    """1 to 4 ships of each of up to 3 generic types (war suns: 1 or 2, to keep the state graph
    small), some upgraded, some sustainers damaged, perhaps with Non-Euclidean Shielding
    (docs/rulings.md R23: a faction technology without the faction)."""
    kinds = draw(st.lists(st.sampled_from(SHIPS), min_size=1, max_size=3, unique=True))
    units = {kind: draw(st.integers(1, 2 if kind == "war_sun" else 4)) for kind in kinds}
    side: dict[str, Any] = {
        "units": units,
        "upgrades": draw(st.lists(st.sampled_from(UPGRADABLE), max_size=2, unique=True)),
    }
    damaged = {k: draw(st.integers(0, units[k])) for k in kinds if k in SUSTAINERS}
    if any(damaged.values()):
        side["damaged"] = {k: n for k, n in damaged.items() if n}
    if draw(st.booleans()):
        side["technologies"] = ["non_euclidean_shielding"]
    return side


@st.composite
def space_battles(draw: st.DrawFn) -> dict[str, Any]:
    policy = {"sustain": draw(st.sampled_from(["first", "last"]))}
    return space(draw(fleets()), draw(fleets()), policy=policy)


def summary(report: OddsReport) -> dict[str, float]:
    """What the two paths must agree on."""
    return {
        "attacker_win": float(report.attacker_win),
        "defender_win": float(report.defender_win),
        "draw": float(report.draw),
        "attacker_losses": report.expected_losses["attacker"],
        "defender_losses": report.expected_losses["defender"],
        "expected_rounds": float(report.rounds["expected"]),
    }


SAME_BATTLES = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def assert_paths_agree(scenario: dict[str, Any]) -> None:
    fast = summary(exact_odds(scenario))
    slow = summary(exact_odds(scenario, product_form=False))
    gaps = {name: abs(fast[name] - slow[name]) for name in fast}
    assert max(gaps.values()) <= 1e-9, (fast, slow)


@settings(SAME_BATTLES, max_examples=4)
@given(space_battles())
def test_a_few_battles_agree_with_the_state_graph(scenario: dict[str, Any]) -> None:
    """The fast loop's sample of the test below."""
    assert_paths_agree(scenario)


@pytest.mark.slow
@settings(SAME_BATTLES, max_examples=30)
@given(space_battles())
def test_the_fast_path_agrees_with_the_state_graph(scenario: dict[str, Any]) -> None:
    assert_paths_agree(scenario)


def test_the_fast_path_is_taken_for_a_plain_space_battle(monkeypatch: pytest.MonkeyPatch) -> None:
    # Otherwise the test above would compare the state graph with itself.
    solved: list[object] = []
    real = product.solve

    def spy(*args: Any, **kwargs: Any) -> Any:
        solved.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(product, "solve", spy)
    exact_odds(space({"units": "2 dreadnought, 1 cruiser"}, {"units": "3 cruiser, 2 fighter"}))
    assert len(solved) == 1


# --- one walk of Assign Hits gives the result for every number of hits ---------------------------

SIDE_STATES = {
    # sustain first: every sustain before any ship is destroyed
    "mixed": space({"units": "2 dreadnought, 3 cruiser, 2 fighter"}, {"units": "1 cruiser"}),
    # sustain last: ships that cannot sustain go first, sustains only when none is left
    "sustain-last": space(
        {"units": "2 dreadnought, 1 war_sun, 2 destroyer, 2 fighter"},
        {"units": "1 cruiser"},
        policy={"sustain": "last"},
    ),
    # docs/rulings.md R8: a sustain cancels 2 hits; with 1 hit left it cancels that 1
    "non-euclidean": space(
        {
            "units": "2 dreadnought, 1 war_sun, 2 cruiser",
            "technologies": ["non_euclidean_shielding"],
        },
        {"units": "1 cruiser"},
    ),
    # damaged dreadnoughts cannot sustain again
    "damaged": space(
        {"units": "3 dreadnought, 1 carrier, 2 fighter", "damaged": {"dreadnought": 2}},
        {"units": "1 cruiser"},
    ),
    "damaged-non-euclidean-last": space(
        {
            "units": "3 dreadnought, 2 cruiser",
            "damaged": {"dreadnought": 1},
            "technologies": ["non_euclidean_shielding"],
        },
        {"units": "1 cruiser"},
        policy={"sustain": "last"},
    ),
}


def round_start(scenario: dict[str, Any]) -> tuple[ProductRounds, BattleState, SideState]:
    battle = ti4.one_battle(parse_ti_scenario(scenario))
    template = battle.setup.initial.at(Phase.ROLL_DICE, round=2)
    return ProductRounds(battle.setup, battle), template, template.attacker


@pytest.mark.parametrize("name", SIDE_STATES)
def test_after_hits_equals_assigning_the_hits_directly(name: str) -> None:
    form, template, units = round_start(SIDE_STATES[name])
    most = 3 * sum(count for _, _, count in units.space)
    walked = [form.after_hits("attacker", units, h, template) for h in range(most + 1)]
    direct = [form.assign_directly("attacker", units, h, template) for h in range(most + 1)]
    assert walked == direct


@pytest.mark.parametrize("name", SIDE_STATES)
def test_after_hits_equals_assigning_the_hits_directly_for_the_defender(name: str) -> None:
    # The same fleets on the other side of the battle.
    data = SIDE_STATES[name]
    swapped = {**data, "attacker": data["defender"], "defender": data["attacker"]}
    battle = ti4.one_battle(parse_ti_scenario(swapped))
    template = battle.setup.initial.at(Phase.ROLL_DICE, round=2)
    form, units = ProductRounds(battle.setup, battle), template.defender
    most = 3 * sum(count for _, _, count in units.space)
    walked = [form.after_hits("defender", units, h, template) for h in range(most + 1)]
    direct = [form.assign_directly("defender", units, h, template) for h in range(most + 1)]
    assert walked == direct


def test_the_walk_covers_states_that_differ_with_the_hits() -> None:
    # The comparison above means something: with 2 dreadnoughts, 3 cruisers and 2 fighters,
    # every hit up to the last ship changes what is left.
    form, template, units = round_start(SIDE_STATES["mixed"])
    walked = [form.after_hits("attacker", units, h, template) for h in range(10)]
    assert len(set(walked)) == 10
