"""The shared battle driver (core/battle.py)."""

from __future__ import annotations

from spacecombat.core.battle import RulesetBattle, no_destination
from spacecombat.core.engine import End, Node, Step
from spacecombat.core.events import Event
from spacecombat.core.sides import Side
from tests.core._fakes import FakeSetup, FakeState, units


def _fight(setup: FakeSetup, state: FakeState) -> Node[FakeState]:
    return Step(state._replace(phase="over", round=state.round + 1))


def _over(setup: FakeSetup, state: FakeState) -> Node[FakeState]:
    return End({"result": "draw"})


PROCEDURES = {"fight": _fight, "over": _over}


class FakeBattle(RulesetBattle[FakeSetup, FakeState]):
    procedures = PROCEDURES

    def _retreats_ruled_out(self) -> list[Event]:
        return [{"event": "retreat_ruled_out", "player": "defender"}]


def _battle() -> FakeBattle:
    return FakeBattle(FakeSetup(FakeState("fight", units("1 cruiser"), units("1 fighter"))))


def test_start_sets_the_forces_then_the_ruled_out_retreats() -> None:
    step = _battle().start()
    assert [e["event"] for e in step.events] == ["forces_set", "retreat_ruled_out"]
    forces = step.events[0]
    assert list(forces) == ["event", "battle", "attacker", "defender", "planets"]
    assert forces["planets"] == []


def test_advance_hands_the_state_to_its_phases_procedure() -> None:
    battle = _battle()
    node = battle.advance(battle.setup.initial)
    assert isinstance(node, Step)
    assert node.state.phase == "over"
    assert isinstance(battle.advance(node.state), End)


def test_round_cap_follows_the_stock_policies() -> None:
    battle = _battle()  # the defender retreats after round 3
    assert battle.round_cap == 4
    assert set(battle.stock_policies()) == {"attacker", "defender"}
    state = battle.setup.initial
    assert battle.canonical(state._replace(round=9)).round == 4
    assert battle.canonical(state._replace(round=3)).round == 3


def test_end_key_forgets_how_many_rounds_but_not_whether_any() -> None:
    state = _battle().setup.initial._replace(round=5, ground_rounds=(0, 3))
    assert _battle().end_key(state) == state._replace(round=1, ground_rounds=(0, 1))


def test_describe_lists_each_sides_units() -> None:
    battle = _battle()
    state = battle.setup.initial
    assert battle.describe(state) == {s.value: state.side(s).to_json() for s in Side}


def test_no_destination_names_three_systems_at_most() -> None:
    assert no_destination([("A", "is full"), ("B", None)], "a destination") is None
    reasons: list[tuple[str, str | None]] = [(n, "is blocked") for n in "ABCDE"]
    assert no_destination(reasons, "a destination") == (
        "no adjacent system is a destination ('A' is blocked; 'B' is blocked; 'C' is blocked; "
        "and 2 more)"
    )
