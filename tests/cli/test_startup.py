"""A command imports only what it needs (issue 12: start-up time). Each case runs in a fresh
interpreter and looks at ``sys.modules`` afterwards: which modules were imported, never how
long it took."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPACE = str(ROOT / "examples" / "space-dreadnoughts-vs-cruisers.yaml")
ODDS = str(ROOT / "examples" / "odds-dreadnoughts-vs-cruisers.yaml")
SMALL = json.dumps(
    {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": "1 cruiser"},
        "defender": {"units": "1 destroyer"},
    }
)

#: what a command should import only when it needs it: the odds engines and their arrays,
#: the schema and the readers, each ruleset, the EC4X scenarios, Monte Carlo's process pool
HEAVY = (
    "numpy",
    "scipy",
    "pydantic",
    "yaml",
    "concurrent",
    "spacecombat.analysis.exact",
    "spacecombat.analysis.product",
    "spacecombat.analysis.montecarlo",
    "spacecombat.rulesets.ti3",
    "spacecombat.rulesets.ti4",
    "spacecombat.rulesets.ec4x",
    "spacecombat.scenario.ec4x",
)
ENGINES = {"numpy", "scipy", "spacecombat.analysis.exact", "spacecombat.analysis.product"}
OTHER_RULESETS = {
    "spacecombat.rulesets.ti3",
    "spacecombat.rulesets.ec4x",
    "spacecombat.scenario.ec4x",
}


def imported(code: str, stdin: str = "") -> set[str]:
    """The entries of ``HEAVY`` that ``code`` imports, run in a fresh interpreter."""
    probe = (
        "import contextlib, io, json, sys\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        + "".join(f"    {line}\n" for line in code.splitlines())
        + "print(json.dumps(list(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    modules = json.loads(done.stdout.splitlines()[-1])
    return {h for h in HEAVY for m in modules if m == h or m.startswith(h + ".")}


def test_the_command_line_alone_imports_no_engine() -> None:
    """``spacecombat --help`` (the parser of every command) imports none of them."""
    assert imported("from spacecombat.cli import main\nmain(['--help'])") == set()


def test_resolve_imports_neither_the_odds_engines_nor_other_rulesets() -> None:
    found = imported(f"from spacecombat.cli import main\nmain(['resolve', {SPACE!r}])")
    assert "spacecombat.rulesets.ti4" in found
    unwanted = ENGINES | OTHER_RULESETS | {"spacecombat.analysis.montecarlo", "concurrent"}
    assert unwanted.isdisjoint(found)


def test_exact_odds_of_a_ti4_battle_need_no_scipy_nor_other_rulesets() -> None:
    """scipy is for the large triangular systems of the rounds in product form only."""
    found = imported(f"from spacecombat.cli import main\nmain(['odds', {ODDS!r}])")
    assert {"numpy", "spacecombat.analysis.product", "spacecombat.rulesets.ti4"} <= found
    assert ({"scipy"} | OTHER_RULESETS).isdisjoint(found)


def test_a_json_batch_does_not_import_yaml() -> None:
    found = imported("from spacecombat.cli import main\nmain(['odds', '-'])", SMALL + "\n")
    assert "spacecombat.analysis.exact" in found
    assert "yaml" not in found


def test_monte_carlo_odds_do_not_import_the_exact_engine() -> None:
    found = imported(
        "from spacecombat import odds\n"
        f"odds({json.loads(SMALL)!r}, method='montecarlo', trials=20, workers=1)"
    )
    assert "spacecombat.analysis.montecarlo" in found
    assert ENGINES.isdisjoint(found)


@pytest.mark.parametrize(
    "first",
    [
        "import spacecombat.cli.odds",
        "import spacecombat.analysis.api",
        "import spacecombat.replayer",
    ],
)
def test_the_public_names_are_the_functions_even_after_their_modules(first: str) -> None:
    """``spacecombat.odds`` and ``spacecombat.replay`` are the functions, as they always were,
    whichever part of the package was imported before."""
    probe = (
        f"{first}\n"
        "import spacecombat\n"
        "from spacecombat import Fleet, odds, replay, resolve\n"
        "assert spacecombat.odds is odds and spacecombat.replay is replay\n"
        "print(odds.__module__, replay.__module__, resolve.__module__, Fleet.__module__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        "spacecombat.analysis.api",
        "spacecombat.replayer",
        "spacecombat.resolver",
        "spacecombat.scenario.notation",
    ]


def test_an_unknown_name_is_an_attribute_error() -> None:
    import spacecombat

    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        spacecombat.nothing  # type: ignore[attr-defined]  # noqa: B018
    assert {"Fleet", "odds", "replay", "resolve"} <= set(dir(spacecombat))
