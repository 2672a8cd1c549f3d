"""spacecombat: space 4X battles played out exactly as their rules say.

- ``resolve(scenario, seed=...)``: play one battle, every die and choice logged;
- ``replay(log)``: check that a log reproduces itself;
- ``odds(scenario)``: the exact odds (or Monte Carlo, ``method="montecarlo"``).
"""

import os

# The odds engine multiplies many small matrices; BLAS threads only slow that down (and Monte
# Carlo runs in processes). A thread count set by the user wins.
for _blas_threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_blas_threads, "1")

from spacecombat.odds.api import odds  # noqa: E402
from spacecombat.replay import replay  # noqa: E402
from spacecombat.resolver import resolve  # noqa: E402
from spacecombat.scenario.notation import Fleet  # noqa: E402

__all__ = ["Fleet", "odds", "replay", "resolve"]
