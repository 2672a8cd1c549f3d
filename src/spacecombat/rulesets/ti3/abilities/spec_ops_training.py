"""Spec Ops Training (Federation of Sol racial technology, Shattered Empire; data/
technologies.toml): "Each time you roll a 1 during Invasion Combat, you may reroll the die. You
must use the second result" (PC_Twi r_Sol.cpp; docs/rulings.md 27S-35).

With the ``shock_troops`` option (ti3-facts.md section 8: a ground force that rolls a natural
10 may be promoted) a roll's natural 10s are counted besides its hits, so its 1s cannot be
counted by the roll too (a roll gives its hits and one count of natural faces). The 1s are
then re-rolled inside the roll (docs/rulings.md 27T-11): each group re-rolls its dice that
missed on a natural 1 (``DiceGroup.reroll_at_most``), at its own value and modifiers, the
second face replacing the first, so its natural 10 is the die's (a promotion). The pool
rolls group by group as before, each group's 1s right after it: the same dice in the same
order as the roll made group by group without the option (procedures/exchange.py
``_spec_ops_roll``), in one ``dice_rolled`` event."""

from __future__ import annotations

from dataclasses import replace

from spacecombat.core.pool import DicePool

#: the natural face re-rolled
ONE = 1


def with_ones_rerolled(pool: DicePool) -> DicePool:
    """``pool`` whose groups each re-roll, once and with no added modifier, their dice that
    missed on a natural 1 (a group that hits on a 1 has nothing to re-roll and stays plain)."""
    return DicePool(
        tuple(
            group if group.hit_on <= ONE else replace(group, reroll=0, reroll_at_most=ONE)
            for group in pool.groups
        )
    )
