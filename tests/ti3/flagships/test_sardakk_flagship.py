"""C'morran N'orr, the Sardakk N'orr flagship (docs/rulings.md 27R-5; PC_Twi r_Norr.cpp
e_NorrFlagship): while it is in the battle, the owner's ships get +1 on their combat rolls in
the rounds of a space battle (with the race's own +1: two in all)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.abilities.base import RollContext, RollKind
from spacecombat.rulesets.ti3.abilities.races import SardakkFlagship
from tests.helpers import rolls, run
from tests.ti3.effects import at_least_one, space, two_lives_duel

A, D = Side.ATTACKER, Side.DEFENDER


def test_the_modifier_reads_the_flagship_and_the_round_kind() -> None:
    """+1 to the owner's space combat rolls while its flagship is there; not the opponent's,
    not anti-fighter barrage or pre-combat shots, not once the flagship is gone."""
    h = SardakkFlagship(A)
    assert h.modifier(RollContext(RollKind.SPACE_COMBAT, A, "cruiser", own_flagship=True)) == 1
    assert h.modifier(RollContext(RollKind.SPACE_COMBAT, A, "flagship", own_flagship=True)) == 1
    assert h.modifier(RollContext(RollKind.SPACE_COMBAT, A, "cruiser")) == 0
    assert h.modifier(RollContext(RollKind.SPACE_COMBAT, D, "cruiser", own_flagship=True)) == 0
    for kind in (RollKind.ANTI_FIGHTER_BARRAGE, RollKind.PRE_COMBAT_SHOT, RollKind.INVASION_COMBAT):
        assert h.modifier(RollContext(kind, A, "cruiser", own_flagship=True)) == 0


def _cruiser_needs(attacker: dict[str, Any], faces: list[int]) -> list[object]:
    played = run(space(attacker, {"units": {"cruiser": 1}}), faces)
    needed = []
    for r in rolls(played, "space_combat"):
        groups = r["groups"]
        assert isinstance(groups, list)
        if r["player"] == "attacker":
            needed += [g["hit_on"] for g in groups if g["unit"] == "cruiser"]
    return needed


def test_a_cruiser_hits_on_5_beside_the_flagship_and_on_6_without_it() -> None:
    """Cruiser 7, -1 (race), -1 (flagship) = 5: its 5 destroys the defender's cruiser (round
    1: flagship 1, 1, 1, cruiser 5; defender 1). Without the flagship it needs 6: the 5
    misses, the 6 of round 2 hits (defender 1, 1)."""
    with_flagship = {"units": {"flagship": 1, "cruiser": 1}, "faction": "sardakk"}
    assert _cruiser_needs(with_flagship, [1, 1, 1, 5, 1]) == [5]
    alone = {"units": {"cruiser": 1}, "faction": "sardakk"}
    assert _cruiser_needs(alone, [5, 1, 6, 1]) == [6, 6]


def test_odds_of_the_flagship_against_a_cruiser() -> None:
    """The flagship (5 x3, -1 race, -1 own ability: 3+, p = 4/5 a die) alone against a cruiser
    (7+: 2/5): it hits with a = 1 - (1/5)^3 = 124/125; by the two-lives duel
    (tests/ti3/effects.py): r = 1/125 * 3/5 = 3/625, win 310/311 + 1/311 * 186/311 =
    96596/96721, both destroyed 124/96721, lost 1/96721."""
    report = odds(
        space({"units": {"flagship": 1}, "faction": "sardakk"}, {"units": {"cruiser": 1}}),
        fractions=True,
    )
    expected = two_lives_duel(at_least_one(3, Fraction(4, 5)), Fraction(2, 5))
    assert expected == (Fraction(96596, 96721), Fraction(124, 96721), Fraction(1, 96721))
    assert (report.attacker_win, report.draw, report.defender_win) == expected
