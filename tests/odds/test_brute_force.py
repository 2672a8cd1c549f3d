"""The exact engine against brute force: every face of every die, played by the resolver.

The enumerator knows nothing of the odds engine. It plays a battle with ``resolve`` and dice that
hand out a fixed prefix of faces; when the prefix runs out the dice raise, saying how many faces
were asked for, and the search extends the prefix with every combination of that many faces
(1 to 10 each), each combination weighing 10^-count. Battles that end give outcomes; a prefix
that would pass the total-dice cap is "unfinished" mass.

One shortcut keeps this within seconds: two prefixes whose battles told the same story so far
(the same events, die faces aside: the same dice rolled, hits scored, units destroyed, choices
made) are explored once. Every face is still rolled by the resolver at every distinct point; the
shortcut only assumes that a die's face matters through the hits it produced, which is the rule
(docs/rulings.md R5). ``test_the_shortcut_changes_nothing`` checks it against the plain search.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from spacecombat.analysis.exact import exact_odds
from spacecombat.core.events import Event
from spacecombat.resolver import resolve
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.scenario.schema import Scenario
from tests.helpers import invasion, space

RESULTS = ("attacker_win", "defender_win", "draw")


class _OutOfFaces(Exception):
    """The prefix ran out: the battle asked for ``count`` more faces."""

    def __init__(self, count: int) -> None:
        super().__init__(count)
        self.count = count


class PrefixDice:
    """Dice that return the faces of a prefix, then raise ``_OutOfFaces``."""

    def __init__(self, prefix: tuple[int, ...]) -> None:
        self._prefix = prefix
        self._next = 0

    def roll(self, count: int) -> tuple[int, ...]:
        end = self._next + count
        if end > len(self._prefix):
            raise _OutOfFaces(count)
        faces = self._prefix[self._next : end]
        self._next = end
        return faces

    def pick(self, weights: Sequence[int]) -> int:
        raise AssertionError("TI4 battles have no weighted draws")


@dataclass
class Enumeration:
    """Mass by (result, rounds begun), and the mass cut off by the cap."""

    ends: dict[tuple[str, int], Fraction] = field(default_factory=dict)
    unfinished: Fraction = Fraction(0)

    def add(self, other: Enumeration, weight: Fraction) -> None:
        for key, mass in other.ends.items():
            self.ends[key] = self.ends.get(key, Fraction(0)) + mass * weight
        self.unfinished += other.unfinished * weight

    def result(self, name: str) -> Fraction:
        return sum((m for (r, _), m in self.ends.items() if r == name), Fraction(0))

    def ended_in(self, rounds: int) -> Fraction:
        return sum((m for (_, n), m in self.ends.items() if n == rounds), Fraction(0))

    def over_within(self, rounds: int, name: str) -> Fraction:
        return sum((m for (r, n), m in self.ends.items() if r == name and n <= rounds), Fraction(0))


def _story(log: list[Event], prefix: tuple[int, ...]) -> str:
    """The events so far with each die's face left out (kept: how many dice, and the hits),
    and, verbatim, the faces of a roll still under way (a pool rolls group by group, and its
    event comes once every group has rolled)."""
    told: list[object] = []
    used = 0
    for item in log:
        if item.get("event") == "dice_rolled":
            groups = item["groups"]
            assert isinstance(groups, list)
            used += sum(len(g["faces"]) for g in groups)
            item = {**item, "groups": [{**g, "faces": len(g["faces"])} for g in groups]}
        told.append(item)
    told.append(list(prefix[used:]))
    return json.dumps(told, sort_keys=True)


def enumerate_dice(scenario: Scenario, cap: int, *, shortcut: bool = True) -> Enumeration:
    """Every sequence of die faces of at most ``cap`` dice, played by the resolver."""
    explored: dict[str, Enumeration] = {}

    def explore(prefix: tuple[int, ...]) -> Enumeration:
        log: list[Event] = []
        try:
            played = resolve(scenario, dice=PrefixDice(prefix), on_event=log.append)
        except _OutOfFaces as out:
            if len(prefix) + out.count > cap:
                return Enumeration(unfinished=Fraction(1))
            story = _story(log, prefix)
            if shortcut and story in explored:
                return explored[story]
            found = Enumeration()
            weight = Fraction(1, 10**out.count)
            for faces in itertools.product(range(1, 11), repeat=out.count):
                found.add(explore(prefix + faces), weight)
            explored[story] = found
            return found
        rounds = sum(1 for e in log if e.get("event") == "round_started")
        return Enumeration({(str(played.outcome["result"]), rounds): Fraction(1)})

    return explore(())


#: Fighters with no capacity are removed before the battle by default (docs/rulings.md R31);
#: the duels of fighters below are fought with the capacity checked only after the battle.
NO_CAPACITY_CHECK = {"check_capacity_before_battle": False}


@dataclass(frozen=True)
class Case:
    scenario: dict[str, Any]
    #: total dice enumerated
    cap: int
    #: rounds whose every die fits under the cap, whatever happened before
    full_rounds: int


CASES = {
    # ti4-space-combat.md step 3: one die per ship; 2 dice a round.
    "fighter-fighter": Case(
        space({"units": "1 fighter"}, {"units": "1 fighter"}, options=NO_CAPACITY_CHECK), 20, 10
    ),
    # Round 1 adds the destroyer's 2 anti-fighter barrage dice (docs/rulings.md R16): 2 + 2/round.
    "cruiser-destroyer": Case(space({"units": "1 cruiser"}, {"units": "1 destroyer"}), 14, 6),
    # Sustain damage (docs/rulings.md R4): 2 dice a round.
    "dreadnought-cruiser": Case(space({"units": "1 dreadnought"}, {"units": "1 cruiser"}), 10, 5),
    # ti4-ground-combat.md step 1: one die per ground force; at most 3 a round.
    "infantry-invasion": Case(invasion({"units": "2 infantry"}, {"units": "1 infantry"}), 15, 5),
    # Anti-fighter barrage on the fighter (2 dice), then at most 3 dice a round.
    "carrier-fighter-destroyer": Case(
        space({"units": "1 carrier, 1 fighter"}, {"units": "1 destroyer"}), 20, 6
    ),
}


#: the cases by name; the last takes seconds to enumerate: the whole suite's, not the fast loop's
NAMES = [
    pytest.param(name, marks=pytest.mark.slow) if name == "carrier-fighter-destroyer" else name
    for name in CASES
]


@cache
def brute(name: str) -> Enumeration:
    case = CASES[name]
    return enumerate_dice(parse_ti_scenario(case.scenario), case.cap)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("fractions", [True, False], ids=["fractions", "floats"])
def test_exact_odds_are_within_the_unfinished_mass_of_brute_force(
    name: str, fractions: bool
) -> None:
    # The enumeration counts each way to end with its exact weight, and leaves out only the
    # battles that pass the cap, so each exact result exceeds it by at most the unfinished mass.
    # (floats: the product-form fast path for space battles; fractions: the whole state graph.)
    report = exact_odds(CASES[name].scenario, fractions=fractions)
    found = brute(name)
    gaps = {r: Fraction(getattr(report, r)) - found.result(r) for r in RESULTS}
    slack = found.unfinished + Fraction(1, 10**12)
    assert all(-Fraction(1, 10**12) <= gap <= slack for gap in gaps.values()), (
        {r: float(g) for r, g in gaps.items()},
        float(found.unfinished),
    )


@pytest.mark.parametrize("name", NAMES)
def test_brute_force_ends_only_in_win_loss_or_draw(name: str) -> None:
    # ti4-space-combat.md rule 10 / ti4-ground-combat.md rule 4: a battle that ends has a winner
    # or is a draw.
    assert {r for r, _ in brute(name).ends} <= set(RESULTS)


@pytest.mark.parametrize("name", NAMES)
def test_brute_force_accounts_for_every_sequence(name: str) -> None:
    # The weights 10^-count of the sequences that end, and of those cut off, add up to 1.
    found = brute(name)
    assert sum(found.ends.values()) + found.unfinished == 1


@pytest.mark.parametrize("name", NAMES)
def test_the_round_in_which_the_battle_ends_matches_brute_force(name: str) -> None:
    # The exact engine's rounds distribution, for every round the enumeration covers in full.
    report = exact_odds(CASES[name].scenario)
    found = brute(name)
    distribution = report.rounds["distribution"]
    gaps = [
        abs(float(distribution.get(str(r), 0.0)) - float(found.ended_in(r)))
        for r in range(1, CASES[name].full_rounds + 1)
    ]
    assert max(gaps) <= 1e-12, gaps


@pytest.mark.parametrize("name", NAMES)
def test_the_state_after_n_rounds_matches_brute_force(name: str) -> None:
    # ``rounds=N``: the chance that the battle is over after N rounds, by result.
    full = CASES[name].full_rounds
    after = exact_odds(CASES[name].scenario, rounds=full).after_rounds
    assert after is not None
    found = brute(name)
    gaps = {
        r: abs(float(after["over"].get(r, 0.0)) - float(found.over_within(full, r)))
        for r in RESULTS
    }
    assert max(gaps.values()) <= 1e-12, gaps


@pytest.mark.parametrize("name", NAMES)
def test_the_brute_force_leaves_little_unfinished(name: str) -> None:
    # The caps are deep enough for the bound above to mean something.
    assert float(brute(name).unfinished) < 0.1


def test_the_shortcut_changes_nothing() -> None:
    # The plain search (every prefix played) and the search that explores one story once agree
    # exactly. Within the 3 dice of round 1, the cruiser's and the fighter's dice are two groups
    # of one roll (the cruiser's face must be remembered while the fighter's is asked for), and
    # the defender's die is asked for after 100 attacker prefixes with only 4 stories.
    scenario = parse_ti_scenario(space({"units": "1 cruiser, 1 fighter"}, {"units": "1 fighter"}))
    plain = enumerate_dice(scenario, 3, shortcut=False)
    shared = enumerate_dice(scenario, 3)
    assert (plain.ends, plain.unfinished) == (shared.ends, shared.unfinished)
