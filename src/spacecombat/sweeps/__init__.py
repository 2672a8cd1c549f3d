"""Balance sweeps: a base scenario solved over axes of values, on Dask (docs/sweeps.md).

``sweep(spec, client=None)`` gives the table as a pandas ``DataFrame``; ``spacecombat sweep``
writes it to Parquet (cli/sweep.py). The spec is read and checked by ``spec.py``, the points
solved by ``points.py``, the work spread and resumed by ``run.py``, drawn by ``plot.py``.
"""

from __future__ import annotations

from spacecombat.sweeps.run import sweep
from spacecombat.sweeps.spec import SweepSpec, load_spec

__all__ = ["SweepSpec", "load_spec", "sweep"]
