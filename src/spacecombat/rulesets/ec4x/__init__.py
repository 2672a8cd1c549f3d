"""EC4X (ec4x-movement-and-combat.md), ruleset ``spec_2025_11_19``: space combat (7.1–7.4),
planetary combat (7.5–7.6) and the game turn (6.1, 6.2, the conflict phase).

Which module holds which section:

Shared by all three, at the top of the package:

- ``tables.py`` and ``data/``: the rules tables (ship classes, target buckets, space CER,
  morale, detection, ROE), loaded and validated; ``options.py``: every reading of an ambiguous
  rule, named, with its default (docs/rulings.md E1 onwards); ``seed.py``: the seed (7.3.2.5).
- ``setup.py``: Task Force Assignment (7.2), the scenario turned into combat units;
  ``state.py``: the battle's state; ``battle.py``: the battle as one process, space combat
  then planetary combat.

``space_combat/`` (7.1–7.4):

- ``engagement.py``: hostility (7.3.2.1), who takes part (top of 7.3; 6.2.4–6.2.6; 7.4), a
  Task Force's ROE and cloak (7.1.1, 7.2);
- ``detection.py``: cloaking and raider detection (7.1.3, 7.3.1.1);
- ``morale.py``: the morale check and its effects (7.1.4);
- ``pre_combat.py``: before round 1: morale, detection and who joins (7.1.3, 7.1.4, 7.2);
- ``rounds.py``: the rounds, their four phases and their end (7.3.1, 7.3.4; 7.4 starbases);
- ``targeting.py``: Target Priority Rules (7.3.2);
- ``cer.py``: Combat Effectiveness Rating (7.3.3);
- ``damage.py``: damage application, its restrictions, overkill, force reduction (7.3.1,
  7.3.3, 7.4);
- ``capacity.py``: fighter capacity at the end of a round (7.3.4 step 2);
- ``retreat.py``: the ROE check and retreat (7.1.1, 7.3.4 step 4, 7.3.5);
- ``outcome.py``: the end of space combat (7.3.6).

Critical hits are in several of them: the natural 9 (``cer.py``, whose docstring lists the
rest), the morale auto-critical (``morale.py``, ``rounds.py``), the starbase's re-roll (7.4,
``rounds.py``), criticals in Destruction Protection and force reduction (``damage.py``), and
the ground batteries' critical (7.5.3, ``planetary/bombardment.py``).

``planetary/`` (7.5–7.6):

- ``tables.py`` and ``data/planetary.toml``: the Bombardment Table, shields, the Ground Combat
  Table and the planet-side units (7.5.1, 7.5.2, 7.6);
- ``colony.py``: the colony's planetary state; ``siege.py``: what a siege's procedures share;
- ``bombardment.py``: Planetary Bombardment (7.5.1–7.5.4);
- ``invasion.py``: Planetary Invasion and ground combat (7.6.1);
- ``blitz.py``: Planetary Blitz (7.6.2);
- ``process.py``: which procedure follows each stage of a siege; a siege on its own;
- ``chain.py``: planetary combat after space combat in one battle, one siege after another
  (7.5, 7.6; rulings E62, G24, G25).

``turn/`` (6.1, 6.2 and the conflict phase):

- ``game.py``: the ruleset's checks of a game state (its options, its squadrons);
- ``starmap.py``: jump lanes, territory (8.1.5), exploration, a map generator;
- ``movement.py``: Jump Lanes (6.1);
- ``orders.py``: Fleet Orders (6.2), one function per order;
- ``conflict.py``: one turn's conflict phase (movement, battles, what follows them);
- ``views.py``: each house's report of a turn.

The scenario layer (``scenario/ec4x.py``, ``scenario/ec4x_game.py``,
``scenario/ec4x_orders.py``) parses what these modules read and imports none of them.
"""

from __future__ import annotations

from spacecombat.rulesets.ec4x.battle import Ec4xBattle, RoePolicy
from spacecombat.rulesets.ec4x.options import Ec4xOptions, read_options
from spacecombat.rulesets.ec4x.setup import Setup, build
from spacecombat.scenario.ec4x import Ec4xScenario

NAME = "ec4x"


def battle_process(scenario: Ec4xScenario) -> Ec4xBattle:
    """The battle process of a checked EC4X scenario."""
    return Ec4xBattle(build(scenario))


__all__ = [
    "NAME",
    "Ec4xBattle",
    "Ec4xOptions",
    "RoePolicy",
    "Setup",
    "battle_process",
    "build",
    "read_options",
]
