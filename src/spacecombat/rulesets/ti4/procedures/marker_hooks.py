"""Hooks answered only to mark a handler as acting in the combat rounds (issue 24, 24AC-1).

``ActsOnHits`` (abilities/sustain_damage.py) overrides ``after_assign_hits`` with a body that
answers ``None`` at every state, reading and changing nothing: only so that ``acts_in_rounds``
(abilities/base.py) counts the handler as acting in the rounds (its other hooks of hit
assignment do). The window after hits are assigned (procedures/combat_round.py
``after_assign_hits``; ti4-space-combat.md step 4, ti4-ground-combat.md step 2) passes it by as
a handler not in play. Where the exact engine asks which handlers act there and what they read
(rulesets/ti4/split_rolls.py ``_settles_early``, 24Y-4), such a handler acts on nothing.
"""

from __future__ import annotations

from spacecombat.rulesets.ti4.abilities.base import Handler
from spacecombat.rulesets.ti4.abilities.sustain_damage import ActsOnHits

#: whether a handler whose ``after_assign_hits`` is the marker alone (``marker_only``) is passed
#: over where the exact engine asks who acts after hits are assigned; off: it counts as acting
#: there, reading both players' parts, the old way (24AC-1; tests/odds/test_graph_marker_hooks.py)
PASSED_OVER = True


def marker_only(handler: Handler) -> bool:
    """Whether ``handler``'s ``after_assign_hits`` is ``ActsOnHits``'s, which answers ``None``
    whatever the state (Brother Milor, Rear Admiral Farran, the Mentak flagship and mech, ...):
    in the window after hits are assigned it reads and changes nothing."""
    return PASSED_OVER and is_marker(type(handler))


def is_marker(kind: type[Handler]) -> bool:
    """Whether the class's ``after_assign_hits`` is ``ActsOnHits``'s marker."""
    return kind.after_assign_hits is ActsOnHits.after_assign_hits
