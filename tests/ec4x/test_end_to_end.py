"""EC4X end to end: scenarios played through the real resolver (``spacecombat.resolver``), their
logs replayed (``spacecombat.replayer``), and the exact odds engine checked against Monte Carlo
and against a probability derived by hand (docs/ec4x.md, docs/protocol.md "Replay")."""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.montecarlo import monte_carlo
from spacecombat.analysis.report import FATES, OddsReport
from spacecombat.core.events import Event
from spacecombat.replayer import replay
from spacecombat.resolver import resolve
from spacecombat.rulesets.ec4x.seed import ec4x_seed
from tests.fuzz.strategies import ec4x_scenarios

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples" / "ec4x").glob("*.yaml"))
#: 6.2, 7.3 rule 3: orders directed at a colony
THREAT_ORDERS = frozenset({5, 6, 7, 8, 12})
PATROL = 3


def example(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def as_json(events: Sequence[Event]) -> list[str]:
    """Events as their JSON text (compared as JSON: ``1`` is not ``True``)."""
    return [json.dumps(e, sort_keys=True) for e in events]


def first(events: Sequence[Event], kind: str, **match: object) -> int:
    """The index of the first event of ``kind`` whose fields equal ``match``."""
    return next(
        i
        for i, e in enumerate(events)
        if e["event"] == kind and all(e.get(k) == v for k, v in match.items())
    )


def unseeded(events: Sequence[Event]) -> list[Event]:
    """The log as a battle played with unseeded draws writes it: ``"seed": null`` and no
    ``seed_source`` (``resolver.log_header``)."""
    log = [copy.deepcopy(e) for e in events]
    log[0]["seed"] = None
    log[0].pop("seed_source")
    return log


def test_the_examples_are_all_here() -> None:
    assert {p.stem for p in EXAMPLES} >= {
        "fighters",
        "raiders-against-scouts",
        "retreat",
        "starbase",
        "three-houses",
        "two-houses",
    }


# --- the seed (7.3.2.5, docs/ec4x.md "The seed") --------------------------------------------------


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_same_scenario_and_seed_give_the_same_log(path: Path) -> None:
    data = example(path)
    for seed in (0, 7, 2**64 - 1):
        one, two = resolve(data, seed=seed), resolve(copy.deepcopy(data), seed=seed)
        assert as_json(one.events) == as_json(two.events)
        assert one.outcome == two.outcome
        assert one.events[0]["seed"] == seed
    # and without a seed: the scenario's own (its seed, or its game and turn's)
    assert as_json(resolve(data).events) == as_json(resolve(copy.deepcopy(data)).events)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_without_a_seed_the_seed_is_the_game_and_turns(path: Path) -> None:
    data = example(path)
    data.pop("seed", None)
    header = resolve(data).events[0]
    expected = ec4x_seed(data["game_id"], data["turn"])
    assert header["seed"] == expected
    assert header["seed_source"] == (f'SHA-256 of "{data["game_id"]}-{data["turn"]}" modulo 2^32')
    assert header["ruleset"] == "ec4x"
    assert as_json(resolve(data, seed=expected).events)[1:] == as_json(resolve(data).events)[1:]


def test_the_documented_seeds() -> None:
    """docs/ec4x.md: "game-42", 7 gives 1875041491; "demo-1", 12 gives 598587255."""
    assert ec4x_seed("game-42", 7) == 1875041491
    assert ec4x_seed("demo-1", 12) == 598587255
    data = example(ROOT / "examples" / "ec4x" / "two-houses.yaml")
    assert resolve(data).events[0]["seed"] == 598587255


def test_a_scenario_seed_overrides_the_game_and_turn() -> None:
    data = example(ROOT / "examples" / "ec4x" / "two-houses.yaml")
    data["seed"] = 42
    played = resolve(data)
    assert (played.events[0]["seed"], played.events[0]["seed_source"]) == (42, "scenario seed")
    assert as_json(played.events)[1:] == as_json(resolve(data, seed=42).events)[1:]
    derived = resolve({k: v for k, v in data.items() if k != "seed"})
    assert as_json(played.events)[2:] != as_json(derived.events)[2:]


def test_a_given_seed_overrides_both() -> None:
    data = example(ROOT / "examples" / "ec4x" / "starbase.yaml")  # has seed: 2026
    assert data["seed"] == 2026
    played = resolve(data, seed=5)
    assert (played.events[0]["seed"], played.events[0]["seed_source"]) == (5, "given seed")
    data.pop("seed")
    played = resolve(data, seed=5)
    assert (played.events[0]["seed"], played.events[0]["seed_source"]) == (5, "given seed")


def test_a_given_seed_equal_to_the_scenarios_is_still_a_given_seed() -> None:
    data = example(ROOT / "examples" / "ec4x" / "starbase.yaml")
    assert resolve(data, seed=2026).events[0]["seed_source"] == "given seed"


# --- replay (docs/protocol.md "Replay") ----------------------------------------------------------


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_log_replays_verified(path: Path) -> None:
    for seed in (None, 3):
        played = resolve(example(path), seed=seed)
        log = json.loads(json.dumps(list(played.events)))  # as read back from JSON Lines
        report = replay(log)
        assert (report.reproduces, report.verified, report.events) == (True, True, len(log))
        assert report.seed == played.events[0]["seed"]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_log_without_its_seed_reproduces_unverified(path: Path) -> None:
    log = unseeded(resolve(example(path), seed=11).events)
    report = replay(log)
    assert (report.reproduces, report.verified, report.seed) == (True, False, None)


def test_a_log_with_only_its_seed_set_to_null_reproduces_unverified() -> None:
    log = [copy.deepcopy(e) for e in resolve(example(EXAMPLES[0]), seed=11).events]
    log[0]["seed"] = None  # seed_source ("given seed") left as it was
    report = replay(log)
    assert (report.reproduces, report.verified, report.seed) == (True, False, None)


def test_a_seedless_replay_takes_each_drawn_value_from_the_log() -> None:
    """Without a seed the CER die is the log's: a die changed in the log is rolled so, and the
    first difference is the ``cer_rolled`` event that reads it, not the draw itself."""
    log = unseeded(resolve(example(ROOT / "examples" / "ec4x" / "two-houses.yaml")).events)
    at = first(log, "drawn", purpose="cer")
    was = str(log[at]["value"])
    now = "9" if was != "9" else "0"
    log[at]["value"] = now
    report = replay(log)
    assert not report.reproduces
    rolled = first(log, "cer_rolled")
    assert rolled > at
    assert report.line == rolled + 1
    assert report.reason == (
        f"log line {rolled + 1} differs from the replay at die (log {was}, replay {now})"
    )


def test_a_changed_target_choice_does_not_reproduce() -> None:
    log = list(resolve(example(ROOT / "examples" / "ec4x" / "two-houses.yaml")).events)
    at = next(
        i
        for i, e in enumerate(log)
        if e["event"] == "drawn"
        and e["purpose"] == "target"
        and isinstance(options := e["options"], list)
        and len(options) > 1
    )
    options = log[at]["options"]
    assert isinstance(options, list)
    was = log[at]["value"]
    now = next(o for o in options if o != was)
    log[at] = {**log[at], "value": now}
    report = replay(log)
    assert (report.reproduces, report.line, report.index) == (False, at + 1, at)
    assert report.reason == (
        f"log line {at + 1} differs from the replay at value (log '{now}', replay '{was}')"
    )


def test_a_changed_cer_die_does_not_reproduce() -> None:
    log = list(resolve(example(ROOT / "examples" / "ec4x" / "three-houses.yaml")).events)
    at = first(log, "drawn", purpose="cer")
    was = str(log[at]["value"])
    now = str((int(was) + 1) % 10)
    log[at] = {**log[at], "value": now}
    report = replay(log)
    assert (report.reproduces, report.line) == (False, at + 1)
    assert report.reason == (
        f"log line {at + 1} differs from the replay at value (log '{now}', replay '{was}')"
    )
    # a face the die does not have, without a seed: the replay names the draw it wanted
    log = unseeded(log)
    log[at]["value"] = "10"
    report = replay(log)
    assert (report.reproduces, report.line) == (False, at + 1)
    assert report.replayed == f"the {log[at]['player']}'s d10 draw for cer"


def test_a_truncated_log_names_where_it_ends() -> None:
    events = list(resolve(example(ROOT / "examples" / "ec4x" / "retreat.yaml")).events)
    for keep in (2, len(events) // 2, len(events) - 1):
        report = replay(events[:keep])
        assert (report.reproduces, report.line, report.index) == (False, keep + 1, keep)
        assert report.reason.startswith(
            f"the log ends at line {keep}, but the battle goes on: the replay's next event is "
        )
        assert report.expected is None


def test_a_log_that_goes_on_after_the_end_does_not_reproduce() -> None:
    events = list(resolve(example(ROOT / "examples" / "ec4x" / "fighters.yaml")).events)
    report = replay([*events, events[-1]])
    assert (report.reproduces, report.line) == (False, len(events) + 1)
    assert report.reason.startswith(
        f"log line {len(events) + 1}: the battle ended at line {len(events)}, but the log goes on"
    )


# --- properties of whole battles through the resolver ---------------------------------------------


class Diplomacy:
    """Who may target whom (7.3.2.1, targeting.regards_hostile), from the scenario and the
    events so far: Enemy status; the target's fleets threaten the attacker's colony here
    (orders 05-08, 12; also the other way with option threat_hostility: both_ways); the
    target patrols (03) in the attacker's territory without a pact; or the target attacked
    the attacker in an earlier round. A fleet refusing orders (7.1.4) only removes hostility,
    so the scenario's orders give a bound the events must keep to."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.status: dict[frozenset[str], str] = {
            frozenset(d["houses"]): d["status"] for d in data.get("diplomacy", [])
        }
        self.controller: str | None = data["system"].get("controller")
        self.orders: dict[str, set[int]] = {}
        for fleet in data["fleets"]:
            order = fleet.get("order", 0)
            code = order if isinstance(order, int) else order["code"]
            self.orders.setdefault(fleet["owner"], set()).add(code)
        options = data.get("options") or {}
        self.both_ways = options.get("threat_hostility") == "both_ways"
        self.attacked: set[tuple[str, str]] = set()  # (attacker, target) in earlier rounds
        self.this_round: set[tuple[str, str]] = set()

    def threatens(self, house: str, colony: str) -> bool:
        return self.controller == colony and bool(self.orders.get(house, set()) & THREAT_ORDERS)

    def hostile(self, attacker: str, target: str) -> bool:
        if attacker == target:
            return False
        status = self.status.get(frozenset((attacker, target)), "neutral")
        return (
            status == "enemy"
            or (target, attacker) in self.attacked
            or self.threatens(target, attacker)
            or (self.both_ways and self.threatens(attacker, target))
            or (
                self.controller == attacker
                and status != "non_aggression"
                and PATROL in self.orders.get(target, set())
            )
        )

    def new_round(self) -> None:
        self.attacked |= self.this_round
        self.this_round = set()


def check_battle(
    data: Mapping[str, Any], events: Sequence[Event], outcome: Mapping[str, Any]
) -> None:
    """The invariants every EC4X log keeps (see the test below)."""
    assert events[0]["event"] == "battle_started"
    assert events[1]["event"] == "forces_set"
    units = events[1]["units"]
    assert isinstance(units, list)
    house_of = {str(u["unit"]): str(u["house"]) for u in units}
    for u in units:
        for key in ("attack", "attack_crippled", "defense", "cr", "bucket"):
            assert isinstance(u[key], int)
            assert u[key] >= 0, (key, u)
        assert u["ships"]
    diplomacy = Diplomacy(data)
    destroyed: set[str] = set()
    task_forces: dict[str, set[str]] = {}
    for e in events[2:]:
        kind = e["event"]
        if kind == "round_started":
            diplomacy.new_round()
        if kind in ("target_selected", "cer_rolled", "attack_skipped"):
            assert e["unit"] not in destroyed, f"{e['unit']} acts after it was destroyed: {e}"
        if kind == "target_selected":
            attacker = house_of[str(e["unit"])]
            assert e["house"] == attacker
            candidates = e["candidates"]
            assert isinstance(candidates, list)
            assert e["target"] in candidates
            assert house_of[str(e["target"])] == e["target_house"]
            for candidate in candidates:
                assert candidate not in destroyed
                target = house_of[str(candidate)]
                assert diplomacy.hostile(attacker, target), (
                    f"{e['unit']} ({attacker}) may choose {candidate} ({target}), "
                    "a house it does not regard as hostile"
                )
            diplomacy.this_round.add((attacker, str(e["target_house"])))
        if kind == "damage_applied":
            target = str(e["house"])
            assert house_of[str(e["unit"])] == target
            hits = e["hits"]
            assert isinstance(hits, int)
            assert hits >= 0
            attackers = e["attackers"]
            assert isinstance(attackers, list)
            for unit in attackers:
                assert house_of[unit] != target, f"{unit} damages its own house: {e}"
                assert diplomacy.hostile(house_of[unit], target), f"not hostile: {e}"
        if kind == "task_force_formed":
            formed = e["units"]
            assert isinstance(formed, list)
            assert all(house_of[u] == e["house"] for u in formed)
            task_forces[str(e["house"])] = set(formed)
        if kind == "unit_crippled":
            assert e["unit"] not in destroyed, f"a destroyed unit is crippled: {e}"
        if kind == "unit_destroyed":
            assert e["unit"] not in destroyed, f"destroyed twice: {e}"
            destroyed.add(str(e["unit"]))
        if kind == "strength_assessed":
            strength = e["strength"]
            assert isinstance(strength, dict)
            assert all(v >= 0 for v in strength.values())
    assert events[-1]["event"] == "combat_ended"
    assert events[-1]["result"] == outcome["result"]
    rounds = outcome["rounds"]
    assert isinstance(rounds, int)
    assert rounds >= 0
    houses = outcome["houses"]
    assert set(houses) <= set(data["houses"])
    for name, facts in houses.items():
        assert facts["fate"] in FATES
        assert facts["losses"] >= 0
        assert all(n > 0 for n in facts["survivors"].values()), (name, facts)
        for code, n in facts["crippled"].items():
            assert 0 < n <= facts["survivors"].get(code, 0), (name, facts)
        repairs = facts["repairs"]
        assert Fraction(repairs) >= 0 if isinstance(repairs, str) else repairs >= 0
        if facts["fate"] == "destroyed":
            # its Task Force (fleets held back, e.g. guarding, are not in it) is gone
            assert task_forces[name] <= destroyed, (name, task_forces[name] - destroyed)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ec4x_scenarios(), st.integers(0, 2**64 - 1))
def test_generated_battles_keep_the_rules(data: dict[str, Any], seed: int) -> None:
    """Small generated scenarios (2-3 houses, random diplomacy, 1-3 fleets of 1-3 squadrons,
    colonies with fighters and starbases, valid orders and ROEs) with random seeds: the same
    seed gives the same log; the log replays, verified; no unit acts after it is destroyed,
    none is crippled after it; every target candidate and every damage belongs to a house the
    attacker regards as hostile (never its own); no count is negative."""
    played = resolve(data, seed=seed)
    events = list(played.events)
    assert as_json(resolve(copy.deepcopy(data), seed=seed).events) == as_json(events)
    report = replay(json.loads(json.dumps(events)))
    assert report.reproduces, report.reason
    assert report.verified
    outcome = json.loads(json.dumps(played.outcome))
    check_battle(data, events, outcome)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ec4x_scenarios(fleets=2, squadrons=2), st.integers(0, 2**64 - 1))
def test_generated_logs_replay_without_their_seed(data: dict[str, Any], seed: int) -> None:
    report = replay(unseeded(resolve(data, seed=seed).events))
    assert report.reproduces, report.reason
    assert not report.verified


# --- exact odds against Monte Carlo and by hand --------------------------------------------------

Z999 = 3.29  # two-sided 99.9%


def wilson(successes: int, trials: int, z: float = Z999) -> tuple[float, float]:
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def duel(
    ours: list[dict[str, Any]],
    theirs: list[dict[str, Any]],
    *,
    alpha: Mapping[str, Any] | None = None,
    beta: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Alpha's fleet (``ours``: its fields, then its squadrons) against beta's (``theirs``) in
    neutral space, at war; prestige 30 and a failed morale roll given (no morale draw, no
    modifier); ``alpha`` and ``beta``: more of each house's settings."""
    specs = {
        "alpha": {"prestige": 30, "morale_roll": 1, **(alpha or {})},
        "beta": {"prestige": 30, "morale_roll": 1, **(beta or {})},
    }
    fleets = [
        {"id": fid, "owner": owner, "order": 3, "roe": 8, **fleet[0], "squadrons": fleet[1:]}
        for fid, owner, fleet in (("A1", "alpha", ours), ("B1", "beta", theirs))
    ]
    return {
        "ruleset": "ec4x",
        "game_id": "odds",
        "turn": 1,
        "system": {"name": "Vega"},
        "houses": specs,
        "diplomacy": [{"houses": ["alpha", "beta"], "status": "enemy"}],
        "fleets": fleets,
    }


SMALL_BATTLES = {
    # one CA against a CL and a DD; beta leaves after round 2 if it still can
    "CA v CL+DD": duel(
        [{}, {"flagship": "CA"}],
        [{}, {"flagship": "CL"}, {"flagship": "DD"}],
        beta={"retreat": {"after_round": 2}},
    ),
    # two DDs with a scout (+1 CER) against a CL that never retreats; alpha by its ROE
    "2DD+SC v CL": duel(
        [{"scouts": [{"eli": 1}]}, {"flagship": "DD"}, {"flagship": "DD"}],
        [{"roe": 10}, {"flagship": "CL"}],
        alpha={"retreat": {"after_round": 3}},
        beta={"retreat": "never"},
    ),
}


def probabilities(report: OddsReport) -> Iterator[tuple[str, float]]:
    """Each result's and each house fate's probability."""
    for result, p in report.other.items():
        yield f"result {result}", float(p)
    assert report.houses is not None
    for house, facts in report.houses.items():
        for fate in FATES:
            yield f"{house} {fate}", float(facts[fate])


@pytest.mark.parametrize("name", list(SMALL_BATTLES))
def test_exact_odds_lie_within_monte_carlos_interval(name: str) -> None:
    scenario = SMALL_BATTLES[name]
    exact = exact_odds(scenario, fractions=True)
    assert exact.residual == 0
    assert sum(exact.other.values()) == 1
    assert all(isinstance(p, Fraction) for p in exact.other.values())
    trials = 4000
    sampled = monte_carlo(scenario, trials=trials, seed=1, workers=1)
    assert sampled.trials == trials
    estimated = dict(probabilities(sampled))
    seen = dict(probabilities(exact))
    assert set(estimated) <= set(seen)
    for what, p in seen.items():
        count = round(estimated.get(what, 0.0) * trials)
        low, high = wilson(count, trials)
        assert low - 1e-12 <= p <= high + 1e-12, (
            f"{name}: {what}: exact {p:.4f}, Monte Carlo {count}/{trials} ({low:.4f}-{high:.4f})"
        )
    for house in ("alpha", "beta"):
        assert exact.houses is not None
        assert sampled.houses is not None
        assert sum(exact.houses[house][f] for f in FATES) == pytest.approx(1)
        # expected losses (PC): Monte Carlo's standard error here is under 1 PC
        assert sampled.houses[house]["expected_losses"] == pytest.approx(
            exact.houses[house]["expected_losses"], abs=4
        )


def test_a_battle_decided_in_round_one_by_hand() -> None:
    """Alpha's CA (AS 12) against beta's crippled DD (DS 6, AS 3 crippled); alpha retreats at
    the end of round 1, beta never. Neither house has a CER modifier (no scouts, a failed
    morale roll given, no cloak: phase 4, no ambush), the d10 reads 0-9.

    Phase 4 goes by CR tiers (option phase4_order: cr_tiers): the CA (CR 7) fires before the
    DD (CR 4). Its hits are CER x 12 rounded up: die 0-2 CER 1/4, 3 hits; 3-4 CER 1/2, 6
    hits; 5-6 CER 3/4, 9 hits; 7-9 CER 1, 12 hits. A crippled squadron alone in its Task Force
    is not protected (restriction 2), so 6 hits or more (DS 6) destroy the DD: die 3-9,
    probability 7/10, and the combat ends with alpha alone ("alpha" holds the system). On die
    0-2 (3/10) the DD survives and fires: at most 3 hits, short of the CA's DS 13; at the end
    of round 1 alpha retreats, leaving beta holding the system. So, exactly:
    P(result alpha) = 7/10, P(result beta) = 3/10; beta destroyed 7/10, holds 3/10; alpha
    holds 7/10, retreats 3/10; every battle lasts one round; beta's expected loss is
    7/10 x PC 40 = 28, alpha's 0."""
    scenario = duel(
        [{}, {"flagship": "CA"}],
        [{}, {"flagship": "DD", "state": "crippled"}],
        alpha={"retreat": {"after_round": 1}},
        beta={"retreat": "never"},
    )
    exact = exact_odds(scenario, fractions=True)
    assert exact.other == {"alpha": Fraction(7, 10), "beta": Fraction(3, 10)}
    assert exact.residual == 0
    assert exact.houses is not None
    alpha, beta = exact.houses["alpha"], exact.houses["beta"]
    assert (alpha["holds"], alpha["retreated"], alpha["destroyed"]) == pytest.approx((0.7, 0.3, 0))
    assert (beta["holds"], beta["retreated"], beta["destroyed"]) == pytest.approx((0.3, 0, 0.7))
    assert (alpha["expected_losses"], beta["expected_losses"]) == pytest.approx((0, 28))
    assert exact.rounds["distribution"] == pytest.approx({"1": 1.0})
    # the resolver agrees die by die: seeds whose first CER die is 0-2 leave beta holding
    for seed in range(30):
        played = resolve(scenario, seed=seed)
        die = next(int(str(e["value"])) for e in played.events if e.get("purpose") == "cer")
        assert played.outcome["result"] == ("alpha" if die >= 3 else "beta")
