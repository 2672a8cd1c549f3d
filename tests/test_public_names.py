"""Issue 21: no module of the package is named like a public function, so every module imports
the plain way (``import spacecombat.analysis.api as a``) and ``spacecombat.odds`` and
``spacecombat.replay`` stay the functions whatever was imported before. Each case runs in a
fresh interpreter."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import spacecombat

#: scripts, not modules: running ``python -m spacecombat`` and Alembic's environment, which
#: only Alembic imports (it reads ``alembic.context``)
SCRIPTS = {"spacecombat.__main__", "spacecombat.store.migrations.env"}


def _every_module() -> list[str]:
    """Every module of the package (``walk_packages`` imports the packages to list them)."""
    found = ["spacecombat"]
    for info in pkgutil.walk_packages(spacecombat.__path__, "spacecombat."):
        if info.name not in SCRIPTS:
            found.append(info.name)
    return sorted(found)


def test_every_module_is_found() -> None:
    found = set(_every_module())
    assert {"spacecombat.analysis.api", "spacecombat.replayer", "spacecombat.cli.odds"} <= found
    assert "spacecombat.odds" not in found
    assert "spacecombat.replay" not in found


def test_every_module_imports_as_a_name_and_the_functions_stay_public() -> None:
    modules = _every_module()
    probe = "\n".join(
        [
            *(f"import {name} as module_{n}" for n, name in enumerate(modules)),
            "import spacecombat",
            "from spacecombat.analysis.api import odds",
            "from spacecombat.replayer import replay",
            "from spacecombat.resolver import resolve",
            "from spacecombat.scenario.notation import Fleet",
            "assert spacecombat.odds is odds, spacecombat.odds",
            "assert spacecombat.replay is replay, spacecombat.replay",
            "assert spacecombat.resolve is resolve and spacecombat.Fleet is Fleet",
            "from spacecombat import odds as public_odds, replay as public_replay",
            "assert public_odds is odds and public_replay is replay",
            # no module is hidden by (or hides) a name of its package: a function and a
            # module of one name would be whichever was set last
            "import sys",
            "for name in " + repr(modules[1:]) + ":",
            "    parent, _, child = name.rpartition('.')",
            "    assert getattr(sys.modules[parent], child) is sys.modules[name], name",
            "print(len([" + ", ".join(f"module_{n}" for n in range(len(modules))) + "]))",
        ]
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(len(modules))]
