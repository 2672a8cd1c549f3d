"""A combat roll kept group by group keyed by its misses (issue 24, 24AD-2;
rulesets/ti4/procedures/kept_roll_alike.py; data/cards.toml War Funding Ω: "after you and your
opponent roll dice during space combat, you may reroll all of your opponent's dice and any
number of your own"; docs/rulings.md 14W-1, 14W-2).

War Funding Ω reads of its holder's kept roll only the dice that missed, as the pool rolled
again: two records whose plain groups of the same dice missed with as many dice in all play out
alike, and the odds engine keys them as one (the hits of such groups moved to the first of them,
each filled up to its dice). Checked: the rule on hand-made records (the misses' pool has the
same chances, the record its length), the same exact fractions with ``MISSES_ALIKE`` on and off
(The Thundarian beside the card, whose repeated Roll Dice step reads the record's length), and
fewer chance states in no. 30 of the faction mix.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat import odds
from spacecombat.analysis.graph import Explorer
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.rulesets.ti4.abilities import war_funding_omega as omega
from spacecombat.rulesets.ti4.procedures import kept_roll_alike
from tests.odds.test_graph_splits import _fought
from tests.odds.test_graph_splits_placed import NO_30
from tests.sweep.test_cache import close
from tests.ti4.test_replaced_hits import HOLDER

CARRIER = DiceGroup("carrier", 1, 9)
DESTROYER = DiceGroup("destroyer", 2, 9)
FIGHTER = DiceGroup("fighter", 1, 9)
CRUISER = DiceGroup("cruiser", 1, 7)
#: a flagship with the Crown of Thalnos: its misses rerolled, a unit lost if none hits (not plain)
CROWNED = DiceGroup("flagship", 2, 7, reroll=0, doom=2, effect="crown_of_thalnos")


def test_the_hits_of_alike_groups_move_to_the_first_of_them() -> None:
    # carrier 0 of 1, cruiser 1 of 1, destroyer 2 of 2, fighter 0 of 1: the three groups at 9
    # hit with 2 dice of 4, the first of them (carrier, then destroyer) filled up to their dice
    rolled = ((CARRIER, 0), (CRUISER, 1), (DESTROYER, 2), (FIGHTER, 0))
    assert kept_roll_alike.misses_alike(rolled) == (
        (CARRIER, 1),
        (CRUISER, 1),
        (DESTROYER, 1),
        (FIGHTER, 0),
    )


def test_a_record_already_so_and_groups_not_plain_are_kept() -> None:
    rolled = ((CROWNED, 0), (CARRIER, 1), (FIGHTER, 0), (CRUISER, 0))
    assert kept_roll_alike.misses_alike(rolled) is rolled
    # the Crown's groups are not plain dice: kept apart even beside groups of the same value
    crowned = ((CRUISER, 0), (CROWNED, 2), (CARRIER, 0), (DESTROYER, 2))
    assert kept_roll_alike.misses_alike(crowned) == (
        (CRUISER, 0),
        (CROWNED, 2),
        (CARRIER, 1),
        (DESTROYER, 1),
    )


@pytest.mark.parametrize(
    "rolled",
    [
        ((CARRIER, 0), (DESTROYER, 1), (FIGHTER, 1)),
        ((CARRIER, 1), (CRUISER, 0), (DESTROYER, 0), (FIGHTER, 1)),
        ((DESTROYER, 2), (CARRIER, 0), (FIGHTER, 0), (CRUISER, 1)),
    ],
)
def test_the_misses_rolled_again_have_the_same_chances(rolled: Any) -> None:
    """The pool War Funding Ω rolls again (``_miss_pool``) has the same exact distribution from
    the record keyed so, which keeps its length and its hits."""
    alike = kept_roll_alike.misses_alike(rolled)
    assert len(alike) == len(rolled)
    assert [g for g, _ in alike] == [g for g, _ in rolled]
    assert sum(h for _, h in alike) == sum(h for _, h in rolled)
    before: DicePool = omega._miss_pool(rolled)
    after: DicePool = omega._miss_pool(alike)
    assert after.distribution() == before.distribution()


#: War Funding Ω held by the defender beside three groups at 9, the attacker's Thundarian in
#: the same window (its repeated Roll Dice step starts from a whole record)
THUNDARIAN: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {"units": {"cruiser": 2}, "faction": "nomad", "leaders": ["the_thundarian"]},
    "defender": {
        "units": {"carrier": 1, "destroyer": 1, "fighter": 2},
        "faction": "sol",
        "promissory_notes": ["war_funding_omega"],
    },
}

#: the defender's fleet of several groups at 9, the attacker holding the card
GROUPS_AT_NINE: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"carrier": 1, "destroyer": 2, "fighter": 2},
        "faction": "sol",
        "promissory_notes": ["war_funding_omega"],
    },
    "defender": {"units": {"cruiser": 2, "destroyer": 1}, "faction": "arborec"},
}


def _reports(scenario: dict[str, Any], alike: bool, mp: pytest.MonkeyPatch) -> tuple[Any, Any]:
    mp.setattr(kept_roll_alike, "MISSES_ALIKE", alike)
    exact = odds(scenario, fractions=True, fallback=False).fractions_json()
    return exact, odds(scenario, fallback=False).to_json()


def _chance_states(scenario: dict[str, Any], alike: bool, mp: pytest.MonkeyPatch) -> int:
    fought = _fought(scenario)
    with mp.context() as patched:
        patched.setattr(kept_roll_alike, "MISSES_ALIKE", alike)
        explorer: Explorer[Any] = Explorer(
            fought, fought.stock_policies(), exact=True, limit=None, joins=True
        )
        return len(explorer.build().states)


@pytest.mark.parametrize("scenario", [THUNDARIAN, GROUPS_AT_NINE, HOLDER])
def test_the_same_fractions_with_and_without(
    scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    exact_off, floats_off = _reports(scenario, False, monkeypatch)
    exact_on, floats_on = _reports(scenario, True, monkeypatch)
    assert exact_on == exact_off
    close(floats_on, floats_off)


def test_fewer_chance_states_where_groups_are_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    for scenario in (THUNDARIAN, GROUPS_AT_NINE):
        assert _chance_states(scenario, True, monkeypatch) < _chance_states(
            scenario, False, monkeypatch
        )


@pytest.mark.slow
def test_the_faction_mix_battle(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 30 of the faction mix (the Mentak defender holds War Funding Ω, Ipswitch places its
    carriers, destroyers and fighters, all at 9): the same fractions, a third fewer chance
    states."""
    exact_off, _ = _reports(NO_30, False, monkeypatch)
    exact_on, _ = _reports(NO_30, True, monkeypatch)
    assert exact_on == exact_off
    off, on = _chance_states(NO_30, False, monkeypatch), _chance_states(NO_30, True, monkeypatch)
    assert on < off * 0.75
