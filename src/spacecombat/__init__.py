"""spacecombat: space 4X battles played out exactly as their rules say.

- ``resolve(scenario, seed=...)``: play one battle, every die and choice logged;
- ``replay(log)``: check that a log reproduces itself;
- ``odds(scenario)``: the exact odds (or Monte Carlo, ``method="montecarlo"``).

The four names are imported when first used, so that importing a part of the package (the
command line, one command) does not import the others: ``from spacecombat import odds`` works
as ever, and gives the function even though ``spacecombat.odds`` is also a subpackage.
"""

from __future__ import annotations

import importlib
import os
import sys
import types
from typing import TYPE_CHECKING

# The odds engine multiplies many small matrices; BLAS threads only slow that down (and Monte
# Carlo runs in processes). A thread count set by the user wins.
for _blas_threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_blas_threads, "1")

if TYPE_CHECKING:
    from spacecombat.odds.api import odds
    from spacecombat.replay import replay
    from spacecombat.resolver import resolve
    from spacecombat.scenario.notation import Fleet

__all__ = ["Fleet", "odds", "replay", "resolve"]

#: each public name and the module that defines it
_HOMES = {
    "Fleet": "spacecombat.scenario.notation",
    "odds": "spacecombat.odds.api",
    "replay": "spacecombat.replay",
    "resolve": "spacecombat.resolver",
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


class _Package(types.ModuleType):
    """This package's module: the functions ``odds`` and ``replay`` keep their names when their
    subpackage or module of the same name is imported (the import system sets each submodule
    as an attribute of its package, which would hide the function)."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in _HOMES and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
