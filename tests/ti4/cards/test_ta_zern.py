"""Ta Zern (Jol-Nar commander; abilities/ta_zern.py): after the holder rolls dice for a unit
ability, it may reroll any of those dice (ti4-combat-effects.md §5); it rerolls every miss
once (docs/rulings.md 14D1-6). Hooks ``ability_dice`` (``DiceGroup.reroll``): space
cannon offense (ti4-space-combat.md, before combat), anti-fighter barrage (step 1), space
cannon defense (ti4-ground-combat.md invasion step 3), bombardment (invasion step 1)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, rolls, run, space

TZ = {"leaders": ["ta_zern"]}


def faces(played: Any, purpose: str, player: str) -> list[tuple[list[int], bool]]:
    """Each group's faces of ``player``'s roll for ``purpose``, and whether it is a reroll."""
    [roll] = [r for r in rolls(played, purpose) if r["player"] == player]
    return [
        (g["faces"], bool(g.get("rerolled"))) for g in cast("list[dict[str, Any]]", roll["groups"])
    ]


def test_a_missed_space_cannon_die_is_rolled_again() -> None:
    # PDS 1 (miss), rerolled 6: the hit destroys the defender's only cruiser: no combat
    played = run(space({"units": "1 cruiser, 1 pds", **TZ}, {"units": "1 cruiser"}), [1, 6])
    assert faces(played, "space_cannon_offense", "attacker") == [([1], False), ([6], True)]
    assert events(played, "unit_destroyed", player="defender", cause="space cannon offense")


def test_a_hit_is_kept() -> None:
    # PDS 6 hits: nothing rerolled
    played = run(space({"units": "1 cruiser, 1 pds", **TZ}, {"units": "1 cruiser"}), [6])
    assert faces(played, "space_cannon_offense", "attacker") == [([6], False)]


def test_only_the_misses_are_rerolled() -> None:
    # 3 PDS: 6 hits, 1 and 2 miss and are rerolled (6, 1): 2 hits, no cruiser left
    played = run(
        space({"units": "1 cruiser, 3 pds", **TZ}, {"units": "2 cruiser"}), [6, 1, 2, 6, 1]
    )
    assert faces(played, "space_cannon_offense", "attacker") == [
        ([6, 1, 2], False),
        ([6, 1], True),
    ]


def test_anti_fighter_barrage_misses_are_rerolled() -> None:
    # destroyer AFB 9 (x2): 1, 9 -> the miss is rerolled (1); the 9 destroys the fighter;
    # combat: the destroyer's 9 destroys the carrier, whose 1 misses
    played = run(
        space({"units": "1 destroyer", **TZ}, {"units": "1 carrier, 1 fighter"}), [1, 9, 1, 9, 1]
    )
    assert faces(played, "anti_fighter_barrage", "attacker") == [([1, 9], False), ([1], True)]


def test_space_cannon_defense_misses_are_rerolled() -> None:
    played = run(invasion({"units": "1 carrier, 1 infantry"}, {"units": "1 pds", **TZ}), [1, 1])
    assert faces(played, "space_cannon_defense", "defender") == [([1], False), ([1], True)]


def test_bombardment_misses_are_rerolled() -> None:
    # dreadnought BOMBARDMENT 5: 1 (rerolled: 5) destroys the only defending infantry
    scenario = invasion(
        {"units": "1 dreadnought, 1 carrier, 1 infantry", **TZ}, {"units": "1 infantry"}
    )
    played = run(scenario, [1, 5])
    assert faces(played, "bombardment", "attacker") == [([1], False), ([5], True)]


def test_combat_rolls_are_not_rerolled() -> None:
    played = run(space({"units": "1 cruiser", **TZ}, {"units": "1 cruiser"}), [7, 1])
    assert faces(played, "space_combat", "attacker") == [([7], False)]


def test_the_opponent_does_not_reroll() -> None:
    played = run(space({"units": "1 cruiser", **TZ}, {"units": "1 cruiser, 1 pds"}), [1, 7, 1])
    assert faces(played, "space_cannon_offense", "defender") == [([1], False)]


def test_exact_odds_hand_derived() -> None:
    """1 cruiser and a PDS (with Ta Zern) against 1 cruiser. The PDS hits at 6 (1/2), or
    misses and hits with its reroll: 1/2 + 1/2 * 1/2 = 3/4 (no combat); otherwise a 2/5 duel
    (3/8, 1/4, 3/8): attacker = defender = 1/4 * 3/8 = 3/32, draw = 1/16."""
    found = odds(space({"units": "1 cruiser, 1 pds", **TZ}, {"units": "1 cruiser"}))
    assert found.attacker_win == pytest.approx(float(Fraction(3, 32)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(3, 32)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(1, 16)), abs=1e-12)
    assert found.other["no_combat"] == pytest.approx(0.75, abs=1e-12)
