"""Taking hits one at a time (core/hits.py)."""

from __future__ import annotations

from spacecombat.core.decisions import Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.forces import Forces, Status
from spacecombat.core.hits import destroyed, next_hit
from spacecombat.core.sides import Side
from tests.core._fakes import FakeState, units

A = Side.ATTACKER


def _next(state: FakeState, **changes: object) -> Node[FakeState]:
    def eligible(area: Forces) -> list[tuple[str, Status]]:
        return [(u, s) for u, s, _ in area if u != "pds"]

    def after(state: FakeState, option: Option) -> FakeState:
        return state._replace(round=state.round + 1)

    arguments: dict[str, object] = {
        "eligible": eligible,
        "targets": "ships",
        "cause": "combat",
        "verb": "assign",
        "may_sustain": lambda unit, status: unit == "cruiser" and status is Status.UNDAMAGED,
        "cancels": lambda hits: min(hits, 2),
        "damaged": Status.DAMAGED,
        "done": lambda s: s._replace(phase="done"),
        "after": after,
        **changes,
    }
    return next_hit(state, A, None, **arguments)  # type: ignore[arg-type]


def test_no_hits_left_moves_on() -> None:
    node = _next(FakeState("assign", units("1 cruiser"), units()))
    assert isinstance(node, Step)
    assert node.state.phase == "done"
    assert node.events == ()


def test_hits_no_unit_can_take_are_lost() -> None:
    node = _next(FakeState("assign", units("1 pds"), units(), hits=(2, 0)))
    assert isinstance(node, Step)
    assert node.state.hits == (0, 0)
    assert node.state.phase == "done"
    assert node.events == (
        {
            "event": "hits_lost",
            "player": "attacker",
            "hits": 2,
            "cause": "combat",
            "reason": "no ships left to take them",
        },
    )


def test_a_sustain_cancels_what_the_ruleset_says() -> None:
    node = _next(FakeState("assign", units("1 cruiser, 1 fighter"), units(), hits=(3, 0)))
    assert isinstance(node, Decision)
    request = node.request
    assert request.prompt == "3 combat hit(s) against your ships: assign the next one"
    assert [o.text for o in request.options] == [
        "sustain cruiser",
        "destroy cruiser",
        "destroy fighter",
    ]
    step = node.then(request.option("sustain cruiser"))
    assert step.state.hits == (1, 0)
    assert step.state.attacker.space.count("cruiser", Status.DAMAGED) == 1
    assert step.state.round == 1  # the ruleset's ``after``
    assert step.events[0]["event"] == "damage_sustained"
    assert step.events[0]["hits_cancelled"] == 2


def test_destroying_takes_one_hit_and_explain_sees_the_area() -> None:
    seen: list[tuple[str, ...]] = []

    def explain(area: Forces, text: str) -> str:
        seen.append(area.types())
        return "no"

    node = _next(FakeState("assign", units("1 fighter"), units(), hits=(2, 0)), explain=explain)
    assert isinstance(node, Decision)
    assert node.request.explain is not None
    node.request.explain("destroy war_sun")
    assert seen == [("fighter",)]
    step = node.then(node.request.option("destroy fighter"))
    assert step.state.hits == (1, 0)
    assert step.events == destroyed(A, [("fighter", Status.UNDAMAGED, 1)], "combat")


def test_destroyed_gives_one_event_a_unit() -> None:
    events = destroyed(A, [("cruiser", Status.DAMAGED, 2)], "space cannon")
    assert (
        events
        == (
            {
                "event": "unit_destroyed",
                "player": "attacker",
                "unit": "cruiser",
                "status": "damaged",
                "cause": "space cannon",
            },
        )
        * 2
    )
