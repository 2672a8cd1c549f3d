"""War Funding Ω's offer worked out with fewer steps, the same offer (issue 24, docs/architecture.md
24AK-2, 24AK-3; rulesets/ti4/abilities/war_funding_omega.py; data/cards.toml War Funding Ω:
"After you and your opponent roll dice during space combat: You may reroll all of your
opponent's dice and any number of your own"; docs/rulings.md 14W-1, 14W-3).

The stock policy plays the way with the largest exact expected change of hits (14W-3): the
expected hits of the opponent's roll made again and of the holder's misses rolled again. A pool
of plain dice (each die one hit or none: no extra hits, no reroll, no trade goods) has binomial
hits per group (core/pool.py ``_hits_of``), so its expected hits are the sum of its dice's
chances to hit, and it can produce one number of hits only where each die hits always or never
(``BY_GROUPS``; other pools read their whole distribution, as before). And the card is held
where its holder has used neither it nor it cancelled (``Card.held``), read in place in
``_able``. Checked here: on pools made by hand, the same fractions and answers as from the
distribution; on battles holding the card, every offer worked out from the same gains, in the
same order, and the same reports in fractions, with ``BY_GROUPS`` on and off (the remembered
pools' values forgotten between the two); ``_able`` answers as ``held`` says.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat import odds, rulesets
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.rulesets import parse_scenario
from spacecombat.rulesets.ti4.abilities import war_funding_omega as omega
from spacecombat.rulesets.ti4.abilities.base import discarded
from spacecombat.rulesets.ti4.battle import Ti4Battle
from spacecombat.rulesets.ti4.sides import Side
from tests.odds.test_graph_kept_roll_handed_over import _offer_before
from tests.ti4.test_replaced_hits import HOLDER

POOLS = [
    DicePool.of([DiceGroup("cruiser", 2, 7)]),
    DicePool.of([DiceGroup("cruiser", 2, 7), DiceGroup("fighter", 3, 9, modifier=-1)]),
    DicePool.of([DiceGroup("war_sun", 3, 3, modifier=2)]),  # hits on 1: always
    DicePool.of([DiceGroup("fighter", 2, 9, modifier=-2)]),  # hits on 11: never
    DicePool.of([DiceGroup("war_sun", 2, 3, modifier=2), DiceGroup("fighter", 1, 12)]),
    DicePool.of([DiceGroup("war_sun", 2, 3, modifier=2), DiceGroup("cruiser", 1, 7)]),
    DicePool.of([DiceGroup("flagship", 2, 5, mark_on=5), DiceGroup("destroyer", 2, 9)]),
    DicePool.of([DiceGroup("cruiser", 2, 7, reroll=0, aimed=True)]),
    DicePool.of([DiceGroup("flagship", 2, 5, extra_on=9, extra_hits=2)]),
    DicePool.of([DiceGroup("dreadnought", 2, 5, reroll=0)]),
    DicePool.of([DiceGroup("cruiser", 1, 7, budget=2, effect="hacan_flagship")]),
    DicePool.of([]),
]


@pytest.mark.parametrize("pool", POOLS, ids=repr)
def test_the_same_gains_on_pools_made_by_hand(
    pool: DicePool, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected, certain = omega._expected.__wrapped__, omega._certain.__wrapped__
    found = expected(pool), [certain(pool, hits) for hits in range(pool.dice + 2)]
    monkeypatch.setattr(omega, "BY_GROUPS", False)
    if pool.groups:
        assert found[0] == expected(pool)
        assert isinstance(found[0], Fraction)
    assert found[1] == [certain(pool, hits) for hits in range(pool.dice + 2)]


#: battles of the faction mix (``benchmarks.faction_exact --seed 2026``) holding War Funding Ω,
#: each solved in well under a second (tests/ti4/test_war_funding_misses_remembered.py)
NUMBERS = (16, 22, 25, 29)


@pytest.fixture(scope="module")
def holding() -> list[dict[str, Any]]:
    drawn = battles(max(NUMBERS) + 1, 2026)
    chosen = [HOLDER, *(drawn[n] for n in NUMBERS)]
    assert all("war_funding_omega" in str(b) for b in chosen)
    return chosen


def _offers(
    scenario: dict[str, Any], by_groups: bool, mp: pytest.MonkeyPatch
) -> tuple[list[tuple[Any, Any]], Any]:
    """Every pair of gains the card's offers were worked out from, in order, and the report in
    fractions, with ``BY_GROUPS`` set to ``by_groups`` (nothing remembered from before)."""
    mp.setattr(omega, "BY_GROUPS", by_groups)
    omega._expected.cache_clear()
    omega._certain.cache_clear()
    made = omega._offer
    gains: list[tuple[Any, Any]] = []

    def told(theirs: Fraction | None, mine: Fraction | None) -> omega.Offer | None:
        gains.append((theirs, mine))
        return made(theirs, mine)

    mp.setattr(omega, "_offer", told)
    report = odds(scenario, fractions=True, fallback=False)
    mp.setattr(omega, "_offer", made)
    return gains, report


def test_the_same_offers_and_odds(
    holding: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    offered = 0
    for scenario in holding:
        by_groups, by_groups_report = _offers(scenario, True, monkeypatch)
        whole, whole_report = _offers(scenario, False, monkeypatch)
        assert by_groups == whole
        assert by_groups_report.fractions_json() == whole_report.fractions_json()
        assert by_groups_report.to_json() == whole_report.to_json()
        offered += len(by_groups)
    omega._expected.cache_clear()
    omega._certain.cache_clear()
    assert offered > 50


def test_able_where_held() -> None:
    battle = rulesets.battle(parse_scenario(HOLDER))
    assert isinstance(battle, Ti4Battle)
    setup = battle.setup
    (card,) = [h for h in setup.handlers if isinstance(h, omega.WarFundingOmega)]
    assert card.owner is Side.ATTACKER
    start = setup.initial
    states = [
        start,
        start.using(Side.ATTACKER, "the_cavalry"),
        start.using(Side.ATTACKER, omega.CARD),
        start.using(Side.ATTACKER, discarded(omega.CARD)),
        start.using(Side.DEFENDER, omega.CARD),
        start.using(Side.DEFENDER, discarded(omega.CARD)),
    ]
    able = [card._able(setup, s) for s in states]
    assert able == [Side.ATTACKER if card.held(s) else None for s in states]
    assert able == [Side.ATTACKER, Side.ATTACKER, None, None, Side.ATTACKER, Side.ATTACKER]


GAINS = [None, Fraction(-13, 10), Fraction(-7, 100), Fraction(0), Fraction(7, 100)]


@pytest.mark.parametrize(
    ("theirs", "mine"),
    [(t, m) for t in GAINS for m in [None, Fraction(0), Fraction(7, 100), Fraction(3, 1000)]],
)
def test_the_offer_compared_as_integers(theirs: Fraction | None, mine: Fraction | None) -> None:
    """The ways compared as integers over one denominator (24AK-4): the order, ties (equal
    gains of other denominators) and "pass" first as the fractions' (the way worked out before
    24AH, tests/odds/test_graph_kept_roll_handed_over.py)."""
    assert omega._offer(theirs, mine) == _offer_before(theirs, mine)
