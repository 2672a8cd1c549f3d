"""spacecombat: space 4X battles played out exactly as their rules say.

- ``resolve(scenario, seed=...)``: play one battle, every die and choice logged;
- ``replay(log)``: check that a log reproduces itself;
- ``odds(scenario)``: the exact odds (or Monte Carlo, ``method="montecarlo"``);
- ``sweep(spec, client=None)``: a balance sweep's table (pandas), on Dask.

The five names are imported when first used (PEP 562), so that importing a part of the package
(the command line, one command) does not import the others. No module of the package is named
like a public function: the odds engine is ``spacecombat.analysis``, replay's module
``spacecombat.replayer`` and sweep's ``spacecombat.sweeps``.
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING

# The odds engine multiplies many small matrices; BLAS threads only slow that down (and Monte
# Carlo runs in processes). A thread count set by the user wins.
for _blas_threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_blas_threads, "1")

if TYPE_CHECKING:
    from spacecombat.analysis.api import odds
    from spacecombat.replayer import replay
    from spacecombat.resolver import resolve
    from spacecombat.scenario.notation import Fleet
    from spacecombat.sweeps.run import sweep

__all__ = ["Fleet", "odds", "replay", "resolve", "sweep"]

#: each public name and the module that defines it
_HOMES = {
    "Fleet": "spacecombat.scenario.notation",
    "odds": "spacecombat.analysis.api",
    "replay": "spacecombat.replayer",
    "resolve": "spacecombat.resolver",
    "sweep": "spacecombat.sweeps.run",
}


def _import_on_use(name: str) -> object:
    """The module's ``__getattr__`` (PEP 562): import a public name from its home."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value: object = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


if not TYPE_CHECKING:  # mypy knows the names from the imports above, and no others
    __getattr__ = _import_on_use


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})
