"""The hashes of the frozen values inside the exact engine's states, kept once computed
(issue 24, docs/architecture.md 24AK-1; core/pool.py ``HashedOnce``, ``DiceGroup``,
rulesets/ti4/hooks.py ``FollowUp``, rulesets/ti4/state.py ``Aim``).

A kept roll's groups (``BattleState.rolls``) and a queue's entries (``BattleState.following``)
are hashed at every lookup of a state, since a tuple keeps no hash. Each now keeps its hash:
the value the generated ``__hash__`` gave (of the fields that take part in it: those compared,
but the fields declared ``hash=False``), so every dict and set orders and finds them as before.
Checked here: on groups and entries made by hand, the hash is the generated one's value,
computed from ``dataclasses.fields`` (it fails if a field is left out or added); equal values
hash alike; the kept hash is no field (``fields``, ``asdict``, ``replace``, ``repr``,
pickling and copies see only the fields); and with ``HASH_ONCE`` off the hash is the same.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest

from spacecombat.core import pool
from spacecombat.core.forces import Status
from spacecombat.core.pool import DiceGroup
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti4.hooks import Follow, FollowUp
from spacecombat.rulesets.ti4.state import NO_AIM, Aim


def _generated(value: Any) -> int:
    """The hash ``dataclasses`` generates for a frozen value: of the fields whose ``hash`` is
    true, or ``None`` and compared, in their order."""
    hashed = [
        f.name for f in dataclasses.fields(value) if (f.compare if f.hash is None else f.hash)
    ]
    return hash(tuple(getattr(value, name) for name in hashed))


GROUPS = [
    DiceGroup("cruiser", 2, 7),
    DiceGroup("destroyer", 3, 9, modifier=1),
    DiceGroup("flagship", 2, 5, mark_on=8),
    DiceGroup("flagship", 2, 5, extra_on=9, extra_hits=2),
    DiceGroup("dreadnought", 1, 5, reroll=0, before=(1,)),
    DiceGroup("carrier", 1, 9, rerolled=True),
    DiceGroup("cruiser", 2, 7, reroll=0, doom=1, doom_strict=True, effect="crown"),
    DiceGroup("cruiser", 1, 7, budget=2, effect="hacan_flagship"),
    DiceGroup("cruiser", 1, 7, reroll=1, aimed=True),
    DiceGroup("fighter", 4, 9, rerollable=False),
    DiceGroup("infantry", 2, 8, reroll=0, reroll_at_most=1),
]

ENTRIES = [
    FollowUp.destroyed(Side.ATTACKER, "fighter"),
    FollowUp.sustained(Side.DEFENDER, "dreadnought"),
    FollowUp.before_assign(Side.DEFENDER),
    FollowUp.must_destroy(Side.ATTACKER, "direct_hit"),
    FollowUp.own("war_funding_omega", Side.DEFENDER, "theirs"),
    FollowUp.own("war_funding_omega", Side.DEFENDER, "mine", Side.ATTACKER),
    dataclasses.replace(FollowUp.destroyed(Side.ATTACKER, "carrier"), asked=3),
    FollowUp(Follow.OWN, Side.ATTACKER),
]


#: the aims of hits produced in a timing window (rulesets/ti4/state.py ``Aim``: every state
#: holds one)
AIMS = [
    NO_AIM,
    Aim("ambush"),
    Aim("x", non_fighter=True),
    Aim("y", unit=("cruiser", Status.DAMAGED)),
]


@pytest.mark.parametrize("value", [*GROUPS, *ENTRIES, *AIMS], ids=repr)
def test_the_generated_hash(value: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    assert hash(value) == _generated(value)
    assert hash(value) == hash(value)  # kept
    twin = dataclasses.replace(value)
    assert twin == value
    assert hash(twin) == hash(value)
    monkeypatch.setattr(pool, "HASH_ONCE", False)
    fresh = dataclasses.replace(value)
    assert hash(fresh) == _generated(value)


def test_every_compared_field_changes_the_value() -> None:
    # the fields hashed tell groups apart (a field the hash left out by mistake would make
    # these collide in every case; the generated formula is the check above)
    base = DiceGroup("cruiser", 2, 7)
    changed = [
        dataclasses.replace(base, unit="destroyer"),
        dataclasses.replace(base, dice=3),
        dataclasses.replace(base, value=8),
        dataclasses.replace(base, modifier=1),
        dataclasses.replace(base, mark_on=9),
        dataclasses.replace(base, extra_on=9, extra_hits=1),
        dataclasses.replace(base, reroll=0),
        dataclasses.replace(base, rerolled=True),
        dataclasses.replace(base, budget=1, effect="hacan_flagship"),
    ]
    assert len({hash(g) for g in changed} | {hash(base)}) == len(changed) + 1


@pytest.mark.parametrize("value", [GROUPS[4], GROUPS[7], ENTRIES[5], AIMS[3]], ids=repr)
def test_the_kept_hash_is_no_field(value: Any) -> None:
    hash(value)
    names = [f.name for f in dataclasses.fields(value)]
    assert "_hash" not in names
    assert "_hash" not in dataclasses.asdict(value)
    assert "_hash" not in repr(value)
    for again in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
        assert again == value
        assert hash(again) == hash(value)
    # (frozen: set only by ``object.__setattr__``; Python 3.11's frozen slotted classes raise a
    # TypeError for a name that is no field)
    with pytest.raises((dataclasses.FrozenInstanceError, TypeError)):
        value._hash = 0
