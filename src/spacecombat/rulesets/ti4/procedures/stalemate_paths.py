"""The stalemate check's paths where effects act for one player without giving the other hit
points back (issue 24, 24AF-1; docs/rulings.md 24AF-1).

The check (procedures/stalemate.py, docs/rulings.md R20) follows, at each new pair of fleets,
the path where one side (the favoured) hits with every die and the other never does. 24Y-3
answers "a side can win" at once where every handler acting in the rounds adds at most to the
favoured side's dice (``Handler.never_stalls``, ``never_stalls_for_owner``), and 24AC-3 where
they only take units away or place a few (``never_stalls_where_all_hit``). This passes over, on
the favoured side's path of a space combat, the handlers that declare that path
(``Handler.never_stalls_on``: "owner" where the favoured side is their owner, "other" where it
is the other player):

- none gives the side not favoured a unit or a hit point back, so each hit point the favoured
  side's rounds take from it stays taken;
- none takes a die or a unit from the favoured side, but one that a hit produced against it by
  another effect reached (forbidding its SUSTAIN DAMAGE, destroying the ship that sustained):
  where every handler is passed over by 24Y-3 or by this, no effect produces a hit against the
  favoured side (the other side's dice hit nothing on the path; a declared handler produces
  hits only by its owner's dice or against the side not favoured), so its units and dice stay
  as the plain rules leave them, and 24Y-3's reading holds: each of its rounds takes at least
  one hit point from the other side where it has a die that can hit; beside 24AC-3's Devotion,
  whose hit may reach it, the favoured side's ships are those it has less some, as 24AC-3
  already reads them;
- what else they do only ends the combat sooner (a retreat made or forced, Skilled Retreat's
  draw), keeps it going while hits are taken (a retreat stopped), takes more of the side not
  favoured, or adds to dice or trade goods, which no declared handler's reading rests on.

So the other side's hit points only fall, its fleets never repeat at a round's end, and the
path ends, as following it says. Only in a space combat: an invasion's path goes on into its
ground combats, which these readings do not cover.
"""

from __future__ import annotations

from spacecombat.rulesets.ti4.abilities.base import Handler
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import Side

#: whether the check passes over, on the favoured side's path of a space combat, the handlers
#: declaring that path (``Handler.never_stalls_on``; ``passed_over``); off: they keep the path
#: followed, the old way (24AF-1; tests/ti4/test_stalemate_paths.py)
DECLARED = True

#: the names of the two paths in ``Handler.never_stalls_on``
OWNER = "owner"
OTHER = "other"


def passed_over(setup: BattleSetup, handler: Handler, favoured: Side) -> bool:
    """Whether ``handler`` declares, for ``favoured``'s path in a space combat, that it keeps
    the path ending (``Handler.never_stalls_on``): its owner's path where ``favoured`` owns it,
    the other player's where not. A handler of no player's is never passed over so."""
    paths = type(handler).never_stalls_on
    if not DECLARED or not paths or setup.kind != "space" or handler.owner is None:
        return False
    return (OWNER if handler.owner is favoured else OTHER) in paths
