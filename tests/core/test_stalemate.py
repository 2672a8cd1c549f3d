"""Following the favoured path, and remembering the answers (core/stalemate.py)."""

from __future__ import annotations

from spacecombat.core.decisions import DecisionRequest, Option, Policy
from spacecombat.core.engine import Chance, Decision, End, Node, Step
from spacecombat.core.policies import StockPolicy
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.core.stalemate import PathCheck, favoured_path

POOL = DicePool.of([DiceGroup("cruiser", 2, 7)])


def _advance(state: tuple[str, int]) -> Node[tuple[str, int]]:
    """A toy battle: the attacker rolls, then the defender, then a choice, then the end."""
    phase, score = state
    if phase in ("attacker", "defender"):
        after = "defender" if phase == "attacker" else "choose"
        return Chance(phase, "combat", POOL, lambda hits: Step((after, score + hits)))
    if phase == "choose":
        options = (Option("stay", "stay"), Option("retreat", "retreat"))
        request = DecisionRequest("retreat", "defender", "stay or retreat?", options)
        return Decision(request, lambda o: Step((o.text, score)))
    return End({"score": score})


class _Retreats:
    def choose(self, request: DecisionRequest) -> str:
        return "retreat"


POLICIES: dict[str, Policy] = {"attacker": StockPolicy(), "defender": _Retreats()}


def test_the_favoured_player_hits_with_every_die_the_other_never() -> None:
    path = list(favoured_path(_advance, ("attacker", 0), "attacker", POLICIES))
    assert path == [("attacker", 0), ("defender", 2), ("choose", 2), ("retreat", 2)]
    path = list(favoured_path(_advance, ("attacker", 0), "defender", POLICIES))
    assert path[2] == ("choose", 2)


def test_prefer_overrides_the_policy() -> None:
    def stay(request: DecisionRequest) -> Option | None:
        return request.options[0]

    path = list(favoured_path(_advance, ("attacker", 0), "attacker", POLICIES, stay))
    assert path[-1] == ("stay", 2)


class _Setup:
    """Stands for a battle setup (remembered weakly)."""


def test_path_check_remembers_per_setup_and_guards_against_itself() -> None:
    check: PathCheck[int] = PathCheck("test")
    setup = _Setup()
    calls: list[bool] = []

    def run() -> bool:
        calls.append(check.running)
        return True

    assert not check.running
    assert check.answer(setup, 1, run) is True
    assert check.answer(setup, 1, run) is True
    assert calls == [True]
    assert not check.running
    assert check.answer(_Setup(), 1, run) is True
    assert len(calls) == 2
