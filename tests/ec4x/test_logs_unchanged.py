"""Regression guard for the EC4X speed work (issue 9): every event log and exact odds recorded
before the optimisation must come out byte for byte the same.

The data (``data/logs_before.jsonl.gz``) holds one case per line: a scenario, a seed and the
full event log of ``resolver.resolve(scenario, seed=seed)``, or (``"odds"``) the exact odds of
a scenario as ``report.to_json()`` and the exact fractions of ``report.other`` (or the refusal
of the exact engine, with the count it stopped at). The cases: every scenario of
``examples/ec4x`` (seeds 0–4), each also under five sets of non-default options (seeds 0–1);
the speed benchmark's ten-against-ten (seeds 0–2); the tiny one-against-two battle (seeds 0–9,
and its exact odds, also under each set of options); and small random battles (raiders,
fighters, colonies, three houses, crippled starts, crises; one seed each).

The data was written by this module run as a script (``python -m tests.ec4x.test_logs_unchanged
--write``) on the code as it was before the optimisation, and written again after the audit's
fixes (rulings E54-E61), every changed log checked against the fix that changed it, and
again when planetary combat was chained after space combat (E62-E69): only the logs of
scenarios whose fleets carry orders 06-08 against a colony changed (fighters, three-houses,
starbase+options0, random33, random58), and the five planetary examples were added; and again
when issue 23 changed two defaults to the readings the text supports (E24
``undamaged_destroyed_at: twice_ds``, E29 ``force_reduction_judged: combined_hits``): 65 logs
and 4 exact odds changed, each of them reproduced exactly (but for the scenario echoed in
``battle_started``) under the old readings given as options, each first difference an
undamaged unit taking 2 x DS destroyed (or its destruction prevented by restriction 2) or a
force reduction no longer made beside its target's reduction; do not rewrite it to make a
change pass: a difference is a change of behaviour.
"""

from __future__ import annotations

import gzip
import json
import random
import re
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from spacecombat.analysis.budget import TooLarge
from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.montecarlo import monte_carlo
from spacecombat.core.events import to_jsonl
from spacecombat.resolver import resolve

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data" / "logs_before.jsonl.gz"

#: /tmp/tiny.yaml of the issue: one CA against a CL and a DD
TINY: dict[str, Any] = {
    "ruleset": "ec4x",
    "game_id": "tiny",
    "turn": 1,
    "system": {"name": "X"},
    "houses": {
        "alpha": {"prestige": 50, "morale_roll": 3},
        "beta": {"prestige": 50, "morale_roll": 3},
    },
    "diplomacy": [{"houses": ["alpha", "beta"], "status": "enemy"}],
    "fleets": [
        {"id": "A", "owner": "alpha", "order": 3, "roe": 10, "squadrons": [{"flagship": "CA"}]},
        {
            "id": "B",
            "owner": "beta",
            "order": 3,
            "roe": 10,
            "squadrons": [{"flagship": "CL"}, {"flagship": "DD"}],
        },
    ],
}

#: non-default readings, to cover the options' code paths too
OPTION_SETS: list[dict[str, Any]] = [
    {"cer_timing": "round_start", "damage_memory": "battle", "crippled_as_timing": "end_of_round"},
    {
        "damage_memory": "round",
        "phase4_order": "simultaneous",
        "starbase_tier": "first",
        "protection_judged": "after_step",
        "undamaged_destroyed_at": "twice_ds",
    },
    {
        "overkill_all_means": "all",
        "protection_counts_fighters": True,
        "force_reduction_judged": "combined_hits",
        "force_reduction_tie": "first_listed",
        "force_reduction_fighters": False,
        "critical_bypass": "own_hits",
    },
    {
        "morale_roll": "shared",
        "starbase_critical_reroll": "first_critical",
        "spacelift_on_retreat": "retreats",
        "stranded_crippled": "destroyed",
        "roe_hostile_strength": "either_way",
        "undetected_later_rounds": "phase3_after_round1",
        "max_rounds": 3,
    },
    {
        "cer_die": "1-10",
        "crippled_as_rounding": "per_ship",
        "surprise": "never",
        "roe0_defenseless": "stay",
        "threat_hostility": "both_ways",
        "crisis_refusal": "ignore",
    },
]


def _random_battles(count: int) -> list[dict[str, Any]]:
    """Small random battles (drawn once, then stored with their logs)."""
    rng = random.Random(20260409)
    flagships = ["CT", "FG", "DD", "CL", "CA", "BC", "BB", "RR", "CV", "PB"]
    found = []
    for n in range(count):
        houses = ["alpha", "beta", "gamma"][: rng.choice([2, 2, 3])]
        fleets = []
        for h in houses:
            for k in range(rng.choice([1, 1, 2])):
                squadrons = []
                for _ in range(rng.randint(1, 3)):
                    flagship = "RR" if n % 2 and rng.random() < 0.5 else rng.choice(flagships)
                    spec: dict[str, Any] = {
                        "flagship": flagship,
                        "state": rng.choice(["undamaged", "undamaged", "crippled"]),
                    }
                    if flagship == "CV":
                        spec["fighters"] = rng.randint(0, 2)
                    squadrons.append(spec)
                fleet: dict[str, Any] = {
                    "id": f"{h[0].upper()}{k}",
                    "owner": h,
                    "order": rng.choice([0, 3, 3, 4, 5, 6, 1]),
                    "roe": rng.randint(0, 10),
                    "squadrons": squadrons,
                }
                if rng.random() < 0.3:
                    fleet["scouts"] = [{"eli": rng.randint(1, 3)}]
                fleets.append(fleet)
        diplomacy = [
            {
                "houses": [a, b],
                "status": rng.choice(["enemy", "enemy", "neutral", "non_aggression"]),
            }
            for i, a in enumerate(houses)
            for b in houses[i + 1 :]
        ]
        scenario: dict[str, Any] = {
            "ruleset": "ec4x",
            "game_id": f"random-{n}",
            "turn": 1,
            "system": {"name": "R"},
            "houses": {h: {"prestige": rng.choice([-5, 20, 50, 80])} for h in houses},
            "diplomacy": diplomacy,
            "fleets": fleets,
        }
        if rng.random() < 0.4:
            owner = rng.choice(houses)
            scenario["system"]["controller"] = owner
            colony: dict[str, Any] = {"owner": owner, "fighters": rng.randint(0, 2)}
            if rng.random() < 0.6:
                colony["starbases"] = [{"state": "undamaged", "eli": rng.randint(1, 3)}]
            scenario["colony"] = colony
        found.append(scenario)
    return found


def _cases() -> list[tuple[str, dict[str, Any], int]]:
    from benchmarks.ec4x_speed import scenario as bench

    cases: list[tuple[str, dict[str, Any], int]] = []
    for path in sorted((ROOT / "examples" / "ec4x").glob("*.yaml")):
        loaded = yaml.safe_load(path.read_text())
        cases += [(path.stem, loaded, seed) for seed in range(5)]
        for k, options in enumerate(OPTION_SETS):
            varied = dict(loaded, options={**loaded.get("options", {}), **options})
            cases += [(f"{path.stem}+options{k}", varied, seed) for seed in range(2)]
    cases += [("bench", bench(), seed) for seed in range(3)]
    cases += [("tiny", TINY, seed) for seed in range(10)]
    for k, options in enumerate(OPTION_SETS):
        cases.append((f"tiny+options{k}", dict(TINY, options=options), 0))
    cases += [(f"random{n}", s, n) for n, s in enumerate(_random_battles(120))]
    return cases


def _log(scenario: dict[str, Any], seed: int) -> str:
    try:
        return to_jsonl(resolve(scenario, seed=seed).events)
    except Exception as error:  # a refused scenario is recorded as refused
        return f"error: {type(error).__name__}: {error}"


def _odds(scenario: dict[str, Any]) -> dict[str, Any]:
    try:
        report = exact_odds(scenario, fractions=True)
    except TooLarge as error:  # recorded as refused, with the count it stopped at
        return {"error": str(error)}
    return {
        "json": json.loads(json.dumps(report.to_json())),
        "other": {k: str(Fraction(v)) for k, v in report.other.items()},
    }


def write() -> None:
    lines = [
        json.dumps({"case": name, "scenario": s, "seed": seed, "log": _log(s, seed)})
        for name, s, seed in _cases()
    ]
    lines.append(json.dumps({"case": "tiny odds", "scenario": TINY, "odds": _odds(TINY)}))
    for k, options in enumerate(OPTION_SETS):
        varied = dict(TINY, options=options)
        lines.append(
            json.dumps({"case": f"tiny+options{k} odds", "scenario": varied, "odds": _odds(varied)})
        )
    DATA.parent.mkdir(exist_ok=True)
    with gzip.open(DATA, "wt", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")


def _recorded() -> list[dict[str, Any]]:
    with gzip.open(DATA, "rt", encoding="utf-8") as data:
        return [json.loads(line) for line in data if line.strip()]


RECORDED = _recorded() if DATA.exists() else []


def test_the_data_covers_every_case() -> None:
    names = {(r["case"], r.get("seed")) for r in RECORDED}
    assert len(names) == len(RECORDED) >= 200
    assert {("tiny", s) for s in range(10)} <= names
    assert {("bench", s) for s in range(3)} <= names
    assert ("tiny odds", None) in names
    assert sum(not r.get("log", "").startswith("error") for r in RECORDED) >= 190


@pytest.mark.parametrize(
    "record",
    [r for r in RECORDED if "log" in r],
    ids=lambda r: f"{r['case']}-seed{r['seed']}",
)
def test_log_unchanged(record: dict[str, Any]) -> None:
    assert _log(record["scenario"], record["seed"]) == record["log"]


@pytest.mark.parametrize(
    "record", [r for r in RECORDED if "odds" in r], ids=lambda r: str(r["case"])
)
def test_exact_odds_unchanged(record: dict[str, Any]) -> None:
    """Every exact answer unchanged. A battle recorded as refused may now be refused at
    another budget (the exact engine's budgets are sized to EC4X's states, issue 24), for the
    same reason, or answered (checked against Monte Carlo); a recorded answer may not
    change."""
    now = _odds(record["scenario"])
    before = record["odds"]
    if "error" in before and "error" in now:
        assert _without_counts(now["error"]) == _without_counts(before["error"])
    elif "error" in before:
        # refused before, answered now (the CER die merged by what it gives, issue 24):
        # each result as Monte Carlo finds it, within 4 standard errors
        trials = 2_000
        sampled = monte_carlo(record["scenario"], trials=trials, seed=24, workers=1).other
        exact = {k: float(Fraction(v)) for k, v in now["other"].items()}
        for key in exact.keys() | sampled.keys():
            p = exact.get(key, 0.0)
            assert abs(float(sampled.get(key, 0.0)) - p) <= 4 * (p * (1 - p) / trials) ** 0.5
    else:
        assert _close(now, before), "an exact answer changed"


def _close(now: object, before: object) -> bool:
    """The same answer: the same shape, texts and fractions alike, floats within 1e-12
    (relative beyond 1: expected losses). The distribution of the rounds is pushed in floats,
    its sums taken in another order since issue 24: about 1e-16 apart."""
    if isinstance(now, dict) and isinstance(before, dict):
        return now.keys() == before.keys() and all(_close(now[k], before[k]) for k in now)
    if isinstance(now, list) and isinstance(before, list):
        return len(now) == len(before) and all(map(_close, now, before))
    if isinstance(now, float) and isinstance(before, float | int) and not isinstance(before, bool):
        return abs(now - before) <= 1e-12 * max(1.0, abs(before))
    return now == before


def _without_counts(message: str) -> str:
    """A refusal without its numbers (``stopped at 36,000 battle states`` and ``at 3,000``
    say the same) nor which of the budgets stopped it (``at N battle states`` and ``at N
    battle states reached by the dice``: the reason in brackets is what must not change)."""
    message = re.sub(r"^the exact engine stopped [^(]*\(", "the exact engine stopped (", message)
    return re.sub(r"[0-9][0-9,]*", "N", message)


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    write()
