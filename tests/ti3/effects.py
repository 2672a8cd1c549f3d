"""What the tests of issue 27's TI3 effects share: scenarios, and the hand-derived odds of a
duel where one player's single unit takes two hits (SUSTAIN DAMAGE) and the other's one.

The duel (ti3-combat.md, Roll combat dice; Remove casualties): each round the two-lives unit
destroys the other with chance ``a`` (at least one hit), the other hits with chance ``p``; a
round where nobody hits repeats (chance ``r = (1 - a)(1 - p)``). Undamaged, the two-lives unit
wins whenever it hits (a hit taken is sustained): ``a / (1 - r)``; it is damaged with
``(1 - a) p / (1 - r)``. Damaged, it wins with ``a (1 - p) / (1 - r)``, both are destroyed
with ``a p / (1 - r)``, it loses with ``(1 - a) p / (1 - r)``."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

from tests.helpers import events, rolls


def space(attacker: dict[str, Any], defender: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A TI3 space battle."""
    return {
        "ruleset": "ti3",
        "battle": "space",
        "attacker": attacker,
        "defender": defender,
        **extra,
    }


def invasion(attacker: dict[str, Any], defender: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A TI3 invasion."""
    return {
        "ruleset": "ti3",
        "battle": "invasion",
        "attacker": attacker,
        "defender": defender,
        **extra,
    }


def invasion_of_a(
    attacker: dict[str, Any], defender: dict[str, Any], a: Any = None, d: Any = None
) -> dict[str, Any]:
    """A TI3 invasion of planet A: the attacker's ``attacker`` units (``a``: more of its
    side's fields) land on it, held by the defender's ``defender`` (``d``: its side's fields);
    no bombardment."""
    return {
        "ruleset": "ti3",
        "battle": "invasion",
        "attacker": {"units": attacker, **(a or {})},
        "defender": d or {},
        "planets": [{"name": "A", "defender": defender, "bombarded_by": {}}],
    }


def destroyed_by(played: Any, cause: str) -> list[tuple[object, object]]:
    """(player, unit) of each ``unit_destroyed`` event of ``played`` with ``cause``."""
    return [(e["player"], e["unit"]) for e in events(played, "unit_destroyed", cause=cause)]


def invasion_faces(played: Any) -> list[list[int]]:
    """The faces of each invasion combat roll of ``played``, in order."""
    found: list[list[int]] = []
    for roll in rolls(played, "invasion_combat"):
        groups = cast("list[dict[str, list[int]]]", roll["groups"])
        found.append([face for group in groups for face in group["faces"]])
    return found


def two_lives_duel(a: Fraction, p: Fraction) -> tuple[Fraction, Fraction, Fraction]:
    """(the two-lives unit wins, both are destroyed, it loses), by the derivation above."""
    rest = 1 - (1 - a) * (1 - p)
    win_now = a / rest
    damaged = (1 - a) * p / rest
    win = win_now + damaged * a * (1 - p) / rest
    both = damaged * a * p / rest
    lose = damaged * (1 - a) * p / rest
    assert win + both + lose == 1
    return win, both, lose


def at_least_one(dice: int, p: Fraction) -> Fraction:
    """The chance that ``dice`` dice hitting with ``p`` each score at least one hit."""
    return 1 - (1 - p) ** dice
