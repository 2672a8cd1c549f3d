"""The system packages the tests need beside Python's: Debian's Chromium (the browser tests
drive it with Playwright; browsers cannot be downloaded here) and a PostgreSQL server (the
store's tests start a throwaway cluster with ``initdb`` and ``pg_ctl``).

Run by the README's test command before anything else: when one is missing, it is installed
with ``apt-get`` (as root, on Debian), and if that is not possible the command stops with one
line naming what to install. Nothing is done when both are there.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from collections.abc import Callable


def _chromium() -> bool:
    return shutil.which("chromium") is not None or os.path.exists("/usr/bin/chromium")


def _postgresql() -> bool:
    return shutil.which("initdb") is not None or bool(glob.glob("/usr/lib/postgresql/*/bin/initdb"))


#: Debian package -> whether it is installed
NEEDED: dict[str, Callable[[], bool]] = {"chromium": _chromium, "postgresql": _postgresql}


def main() -> int:
    missing = [package for package, present in NEEDED.items() if not present()]
    if not missing:
        return 0
    apt = shutil.which("apt-get")
    if apt is None or os.geteuid() != 0:
        print(
            f"the tests need the system packages {', '.join(missing)}: install them "
            f"(Debian: apt-get install {' '.join(missing)}) and run the command again",
            file=sys.stderr,
        )
        return 1
    subprocess.run([apt, "update", "-q"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(
        [apt, "install", "-y", "-q", "--no-install-recommends", *missing],
        check=True,
        env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
        stdout=subprocess.DEVNULL,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
