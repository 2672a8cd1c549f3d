"""A combat roll kept group by group keyed by what reads it, for the odds engine's canonical
states (War Funding Ω, data/cards.toml; docs/rulings.md 14W-1; docs/architecture.md, "The odds
engine" 1., 24AD-2).

While War Funding Ω is held, its holder's combat roll is made one group at a time and kept in the
state with each group's hits (``BattleState.rolls``; ``keeps_rolls``, procedures/combat_round.py
``_roll_by_group``; ti4-space-combat.md step 3), so that the card, offered in the "after roll
dice" window, can reroll the holder's misses: "any number of your own [dice]", every die that
produced no hit (docs/rulings.md 14W-2). The card reads of the record only those misses, as a
pool of dice (abilities/war_funding_omega.py ``_my_misses``: each group's dice less its hits, at
its combat value; its ``in_window`` gains, ``queued_alike`` and the "mine" reroll all read that
pool), and a pool's chances are those of its dice, whichever units they belong to. So two
records whose plain groups of the same dice (the same combat value and everything else but the
unit: no reroll, no extra hits, no trade goods, no marks) missed with as many dice in all play out
alike: the rerolls have the same chances of every number of hits. The odds engine keys such a
record with the hits of those groups moved to the first of them, each filled up to its dice in
the order rolled (``Ti4Battle.canonical``): every group stays in its place, so the record keeps
its length (a roll made again in the window, The Thundarian's, starts afresh from a whole record:
procedures/combat_round.py ``_roll_by_group``). Only where every handler keeping rolls declares
that it reads them so (``Handler.kept_roll_read_as_misses``). The resolver and Monte Carlo's
sampler do not use canonical states. tests/ti4/test_kept_roll_alike.py compares the odds with
and without it.
"""

from __future__ import annotations

from spacecombat.core.pool import DiceGroup
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.state import BattleState, Phase, RolledHits

#: whether canonical states key a kept roll by its misses (the tests switch it off to compare)
MISSES_ALIKE = True


def _plain(group: DiceGroup) -> bool:
    """A group whose misses are plain dice of its kind (no reroll, no extra hits, no trade
    goods, no marks, no units its rerolls may destroy)."""
    return (
        group.reroll is None
        and not group.before
        and not group.rerolled
        and not group.doom
        and group.extra_on is None
        and not group.extra_hits
        and not group.budget
        and group.mark_on is None
        and not group.aimed
    )


def misses_alike(rolled: RolledHits) -> RolledHits:
    """``rolled`` with the hits of its plain groups of the same dice moved to the first of them
    in rolling order, each filled up to its dice (their misses the same dice, as many);
    ``rolled`` itself where no two plain groups have the same dice."""
    if len(rolled) < 2:
        return rolled
    kinds: dict[tuple[object, ...], list[int]] = {}
    alike = False
    for at, (group, _) in enumerate(rolled):
        if _plain(group):
            # the group's dice but for their unit and number (the other fields are those of
            # every plain group: ``_plain``)
            kind = (group.value, group.modifier, group.doom_strict, group.effect)
            places = kinds.setdefault((*kind, group.rerollable, group.reroll_at_most), [])
            places.append(at)
            alike = alike or len(places) > 1
    if not alike:
        return rolled
    out = list(rolled)
    for places in kinds.values():
        left = sum(rolled[at][1] for at in places)
        for at in places:
            group = rolled[at][0]
            hits = min(group.dice, left)
            out[at] = (group, hits)
            left -= hits
    keyed = tuple(out)
    return rolled if keyed == rolled else keyed


#: whether ``misses_alike`` is remembered per setup by the record it keys (a value of the
#: record alone); off: worked out at each canonical state
#: (tests/odds/test_graph_kept_roll_handed_over.py; docs/architecture.md 24AH-2)
REMEMBER = True
_ALIKE = "kept_roll_alike.misses_alike"
_SAME = "kept_roll_alike.same"  # (the record keyed as it is)


def _alike(setup: BattleSetup, rolled: RolledHits) -> RolledHits:
    """``misses_alike(rolled)``, remembered per setup where ``REMEMBER``."""
    if len(rolled) < 2:
        return rolled
    if not REMEMBER:
        return misses_alike(rolled)
    key = (_ALIKE, rolled)
    known = setup.memo.get(key)
    if known is None:
        keyed = misses_alike(rolled)
        known = setup.memo[key] = _SAME if keyed is rolled else keyed
    return rolled if known is _SAME else known  # type: ignore[return-value]


def with_misses_alike(setup: BattleSetup, state: BattleState) -> BattleState:
    """``state`` with each kept roll keyed by its misses (``misses_alike``), in a timing window
    (both players have rolled) where every handler keeping rolls reads them so; else
    ``state`` itself."""
    if not MISSES_ALIKE or state.phase is not Phase.TIMING_WINDOW:
        return state
    attacker, defender = state.rolls
    if len(attacker) < 2 and len(defender) < 2:
        return state  # (no two groups to key alike)
    keepers = setup.answering("keeps_rolls")
    if not keepers:
        return state
    for keeper in keepers:
        if not keeper.kept_roll_read_as_misses:
            return state
    rolls = (_alike(setup, attacker), _alike(setup, defender))
    if rolls[0] is attacker and rolls[1] is defender:
        return state
    return state.changed(rolls=rolls)
