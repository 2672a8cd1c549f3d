"""``spacecombat`` run in a child process: the tests whose command starts a Dask cluster run it
there, so that no cluster's threads are left in the test process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent


def spacecombat(*argv: str, timeout: float = 300) -> tuple[int, str, str]:
    """Exit status, standard output and standard error of ``spacecombat ARGV``."""
    done = subprocess.run(
        [str(BIN / "spacecombat"), *argv], capture_output=True, text=True, timeout=timeout
    )
    return done.returncode, done.stdout, done.stderr
