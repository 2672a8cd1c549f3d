"""Timing windows: "start of combat" and "start of combat round" share one window in round 1;
"end of combat round" and "end of combat" share one in the last round (ti4-space-combat.md
rules 2.1 and 9.1; ti4-ground-combat.md rules 4.1 and 4.2, notes 1 and 2)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from spacecombat.core.dice import ScriptedDice
from spacecombat.core.engine import Chance, Node, Step, play
from spacecombat.core.events import event
from spacecombat.core.pool import DiceGroup, DicePool, Tally
from spacecombat.rulesets import parse_ti_scenario, ti4
from spacecombat.rulesets.ti4.abilities.base import Acts, Handler
from spacecombat.rulesets.ti4.battle import Ti4Battle
from spacecombat.rulesets.ti4.effects import with_cursor
from spacecombat.rulesets.ti4.hooks import Window
from spacecombat.rulesets.ti4.setup import BattleSetup, build
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import events, invasion, run, space

CRUISERS = space({"units": "1 cruiser"}, {"units": "1 cruiser"})


def _windows(played_events: list[dict[str, object]]) -> list[tuple[int, list[str]]]:
    return [
        (int(str(e["round"])), list(e["windows"]))  # type: ignore[call-overload]
        for e in played_events
        if e["event"] == "window_opened"
    ]


def test_first_round_start_windows_share_one_window() -> None:
    # Round 1 misses on both sides, round 2 the attacker hits: faces 1, 1 then 7, 1.
    played = run(CRUISERS, [1, 1, 7, 1])
    opened = _windows(events(played, "window_opened"))
    assert opened[0] == (1, ["start_of_combat", "start_of_combat_round"])


def test_later_rounds_open_only_the_start_of_round_window() -> None:
    played = run(CRUISERS, [1, 1, 7, 1])
    assert (2, ["start_of_combat_round"]) in _windows(events(played, "window_opened"))


def test_a_round_that_is_not_the_last_ends_with_the_end_of_round_window_only() -> None:
    played = run(CRUISERS, [1, 1, 7, 1])
    assert _windows(events(played, "window_opened"))[1] == (1, ["end_of_combat_round"])


def test_last_round_end_windows_share_one_window() -> None:
    played = run(CRUISERS, [1, 1, 7, 1])
    assert _windows(events(played, "window_opened"))[-1] == (
        2,
        ["end_of_combat_round", "end_of_combat"],
    )


def test_a_one_round_combat_opens_exactly_two_windows() -> None:
    played = run(CRUISERS, [7, 1])
    assert _windows(events(played, "window_opened")) == [
        (1, ["start_of_combat", "start_of_combat_round"]),
        (1, ["end_of_combat_round", "end_of_combat"]),
    ]


def test_ground_combat_has_the_same_windows() -> None:
    # ti4-ground-combat.md notes 1 and 2: start windows before Roll Dice, end after Assign Hits.
    played = run(invasion({"units": "1 infantry"}, {"units": "1 infantry"}), [8, 1])
    assert _windows(events(played, "window_opened")) == [
        (1, ["start_of_combat", "start_of_combat_round"]),
        (1, ["end_of_combat_round", "end_of_combat"]),
    ]


def test_no_window_opens_when_there_is_no_combat() -> None:
    # The PDS hits the only cruiser in space cannon offense (face 6): no combat (R14).
    played = run(space({"units": "1 cruiser"}, {"units": "1 pds"}), [6])
    assert events(played, "window_opened") == []


class _Recorder(Handler):
    """Acts in every window by logging it (handlers are pure: they say what happens by the
    node they return, so the stalemate check may run them ahead without side effects)."""

    id = "test_recorder"
    acts = Acts(
        frozenset(
            {
                Window.START_OF_COMBAT,
                Window.START_OF_COMBAT_ROUND,
                Window.END_OF_COMBAT_ROUND,
                Window.END_OF_COMBAT,
            }
        )
    )

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        return Step(state, (event("recorded", windows=sorted(windows)),))


def test_each_handler_acts_once_in_each_window() -> None:
    setup = replace(build(parse_ti_scenario(CRUISERS)), handlers=(_Recorder(Side.ATTACKER),))
    played = play(Ti4Battle(setup), ScriptedDice([1, 1, 7, 1]), ti4.stock_policies(setup))
    assert [e["windows"] for e in played.events if e["event"] == "recorded"] == [
        ["start_of_combat", "start_of_combat_round"],
        ["end_of_combat_round"],
        ["start_of_combat_round"],
        ["end_of_combat", "end_of_combat_round"],
    ]


def test_a_handlers_roll_keeps_its_marks_and_tally_through_the_window() -> None:
    """A roll a handler makes in a window (procedures/common.with_cursor) still reports its
    marks and its tally: only the cursor of the states it leads to changes."""
    state = build(parse_ti_scenario(space({"units": "1 cruiser"}, {"units": "1 cruiser"}))).initial
    seen: list[object] = []

    def marked(hits: int, marks: int) -> Step[BattleState]:
        seen.append((hits, marks))
        return Step(state)

    def tallied(tally: Tally) -> Step[BattleState]:
        seen.append(tally)
        return Step(state)

    pool = DicePool.of([DiceGroup("cruiser", 1, 7)])
    node = Chance("attacker", "test", pool, lambda h: Step(state), marked, tallied)
    bumped = with_cursor(node, 3)
    assert isinstance(bumped, Chance)
    assert bumped.then_marked is not None
    assert bumped.then_tally is not None
    assert bumped.then_marked(1, 1).state.cursor == 3
    tally = Tally(1, 0, ())
    assert bumped.then_tally(tally).state.cursor == 3
    assert seen == [(1, 1), tally]


class _EndOnly(_Recorder):
    """Declares the end of combat only: the dispatcher asks it there and nowhere else."""

    id = "test_end_only"
    acts = Acts(frozenset({Window.END_OF_COMBAT}))


class _DefenderInInvasions(_Recorder):
    id = "test_defender_in_invasions"
    acts = Acts(
        frozenset({Window.START_OF_COMBAT}),
        battles=frozenset({"invasion"}),
        players=frozenset({Side.DEFENDER}),
    )


def _recorded(
    handler: Handler, scenario: dict[str, object], faces: tuple[int, ...] = (1, 1, 7, 1)
) -> list[object]:
    setup = replace(build(parse_ti_scenario(scenario)), handlers=(handler,))
    played = play(Ti4Battle(setup), ScriptedDice(list(faces)), ti4.stock_policies(setup))
    return [e["windows"] for e in played.events if e["event"] == "recorded"]


def test_a_handler_is_asked_only_in_the_windows_it_declares() -> None:
    # the last round's end shares "end of combat round" and "end of combat" (rule 9.1)
    assert _recorded(_EndOnly(Side.ATTACKER), CRUISERS) == [
        ["end_of_combat", "end_of_combat_round"]
    ]


def test_a_handler_is_asked_only_for_the_players_and_battles_it_declares() -> None:
    assert _recorded(_DefenderInInvasions(Side.DEFENDER), CRUISERS) == []  # a space battle
    assert _recorded(_DefenderInInvasions(Side.ATTACKER), CRUISERS) == []
    ground = invasion({"units": "1 infantry"}, {"units": "1 infantry"})
    assert _recorded(_DefenderInInvasions(Side.ATTACKER), ground, (8, 1)) == []
    assert _recorded(_DefenderInInvasions(Side.DEFENDER), ground, (8, 1)) == [
        ["start_of_combat", "start_of_combat_round"]
    ]


def test_a_handler_answering_in_window_must_declare_where() -> None:
    with pytest.raises(TypeError, match="declare where"):

        class _Undeclared(Handler):  # pragma: no cover - the class statement raises
            id = "test_undeclared"

            def in_window(
                self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
            ) -> Node[BattleState] | None:
                return None
