"""The EC4X exact engine's reach (issue 24): the random battles of ``tests/ec4x/reach.py`` (two
houses, one to three squadrons a side, colonies with a starbase or fighters, sieges), each
solved in-process by ``exact_odds`` at the default budget, one process, CPU time
(``time.process_time``: the steadier measure on a shared machine). Prints each battle's answer
and CPU time (``--only`` some of them), then how many are exact, the CPU of those and of the
refusals (the time the exact engine took to give up; ``odds()`` then plays Monte Carlo).

Run: ``.venv/bin/python -m benchmarks.ec4x_reach [--battles 240] [--only 13,20]``; to measure
the code before a change, run it with ``PYTHONPATH`` pointing at that code's ``src``.
"""

from __future__ import annotations

import argparse
import platform
import time

from spacecombat.analysis.budget import TooLarge
from spacecombat.analysis.exact import exact_odds
from tests.ec4x.reach import random_battles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=240)
    parser.add_argument("--only", default="", help="battle numbers, comma-separated")
    args = parser.parse_args()
    battles = random_battles(args.battles)
    chosen = [int(n) for n in args.only.split(",") if n] or list(range(args.battles))
    print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    solved: list[float] = []
    refused: list[tuple[int, float, str]] = []
    for n in chosen:
        start = time.process_time()
        try:
            exact_odds(battles[n])
            answer = "exact"
        except TooLarge as exc:
            answer = f"refused: {str(exc)[:100]}"
        spent = time.process_time() - start
        if answer == "exact":
            solved.append(spent)
        else:
            refused.append((n, spent, answer))
        if args.only:
            print(f"{n}: {answer}, {spent:.2f} s CPU", flush=True)
    print(f"exact {len(solved)} of {len(chosen)}, CPU {sum(solved):.1f} s in all")
    for n, spent, answer in refused:
        print(f"battle {n}: {answer} after {spent:.2f} s CPU")


if __name__ == "__main__":
    main()
