"""The engine's answers on a fixed corpus, to show that a change of design changes none of them.

``python -m tools.answers dump OUT.jsonl [--battles N] [--seed S]`` writes one JSON line per
case: the exact odds report (``odds(..., fallback=False)``, or the error it raised) and the event
log of one seeded battle (``resolve``), for every example scenario (examples/, examples/ec4x/)
and ``N`` random TI4 faction battles (benchmarks/factions.py, drawn from ``S``).

``python -m tools.answers compare A.jsonl B.jsonl`` says whether two dumps agree: every number
of the odds to 1e-12, everything else (logs, errors, notes) byte for byte; it prints the first
differences and exits 1 if there are any.

Run ``dump`` with each source tree (``PYTHONPATH=OTHER/src python -m tools.answers dump ...``):
it uses only the public functions ``spacecombat.odds`` and ``spacecombat.resolve``, so the trees
may differ in everything else.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from benchmarks.factions import random_faction_battle

import spacecombat

REPO = Path(__file__).resolve().parents[1]
TOLERANCE = 1e-12


def corpus(battles: int, seed: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every case: its name and scenario."""
    for path in sorted((REPO / "examples").glob("*.yaml")) + sorted(
        (REPO / "examples" / "ec4x").glob("*.yaml")
    ):
        yield path.relative_to(REPO).as_posix(), yaml.safe_load(path.read_text())
    rng = random.Random(seed)
    for index in range(battles):
        yield f"faction battle {index}", random_faction_battle(rng)


def answer(scenario: dict[str, Any]) -> dict[str, Any]:
    """The odds and one seeded log of a scenario, or the errors they raised."""
    out: dict[str, Any] = {}
    try:
        out["odds"] = spacecombat.odds(scenario, fallback=False).to_json()
    except Exception as exc:  # an error is an answer too: it must not change
        out["odds_error"] = f"{type(exc).__name__}: {exc}"
    try:
        out["log"] = list(spacecombat.resolve(scenario, seed=7).events)
    except Exception as exc:
        out["log_error"] = f"{type(exc).__name__}: {exc}"
    return out


def dump(path: Path, battles: int, seed: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        for name, scenario in corpus(battles, seed):
            line = {"case": name, **answer(scenario)}
            out.write(json.dumps(line, sort_keys=True, default=str) + "\n")


def differences(a: Any, b: Any, where: str = "") -> Iterator[str]:
    """Where ``a`` and ``b`` differ: numbers beyond ``TOLERANCE``, anything else at all."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                yield f"{where}/{key}: only in {'B' if key not in a else 'A'}"
            else:
                yield from differences(a[key], b[key], f"{where}/{key}")
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            yield f"{where}: {len(a)} against {len(b)} entries"
        for index, (x, y) in enumerate(zip(a, b, strict=False)):
            yield from differences(x, y, f"{where}[{index}]")
    elif (
        isinstance(a, float | int)
        and isinstance(b, float | int)
        and not isinstance(a, bool)
        and not isinstance(b, bool)
    ):
        if not math.isclose(a, b, rel_tol=0, abs_tol=TOLERANCE):
            yield f"{where}: {a!r} against {b!r}"
    elif a != b or type(a) is not type(b):  # True == 1, but a flag is not a count
        yield f"{where}: {str(a)[:80]!r} against {str(b)[:80]!r}"


def compare(first: Path, second: Path, shown: int = 20) -> int:
    a = [json.loads(line) for line in first.read_text(encoding="utf-8").splitlines()]
    b = [json.loads(line) for line in second.read_text(encoding="utf-8").splitlines()]
    found = list(differences(a, b))
    for line in found[:shown]:
        print(line)
    print(f"{len(a)} cases, {len(found)} difference(s)")
    return 1 if found else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    commands = parser.add_subparsers(dest="command", required=True)
    dumping = commands.add_parser("dump")
    dumping.add_argument("out", type=Path)
    dumping.add_argument("--battles", type=int, default=200)
    dumping.add_argument("--seed", type=int, default=0)
    comparing = commands.add_parser("compare")
    comparing.add_argument("first", type=Path)
    comparing.add_argument("second", type=Path)
    args = parser.parse_args(argv)
    if args.command == "dump":
        dump(args.out, args.battles, args.seed)
        return 0
    return compare(args.first, args.second)


if __name__ == "__main__":
    sys.exit(main())
