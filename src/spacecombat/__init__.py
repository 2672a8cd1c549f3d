"""spacecombat: space 4X battles played out exactly as their rules say.

- ``resolve(scenario, seed=...)``: play one battle, every die and choice logged;
- ``replay(log)``: check that a log reproduces itself;
- ``odds(scenario)``: the exact odds (or Monte Carlo, ``method="montecarlo"``).
"""

from spacecombat.odds.api import odds
from spacecombat.resolver import replay, resolve
from spacecombat.scenario.notation import Fleet

__all__ = ["Fleet", "odds", "replay", "resolve"]
