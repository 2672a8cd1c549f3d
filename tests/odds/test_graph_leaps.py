"""A player's assignment of a combat round's hits taken at once by the state graph (issue 24,
TI4 faction battles exact; docs/architecture.md, "The odds engine", 1.).

In the Assign Hits step (ti4-space-combat.md step 4, ti4-ground-combat.md step 2) the player
whose units were hit assigns the hits one at a time, each an ``assign_hit`` decision. With no
handler in play asked while hits are assigned (procedures/assign_hits.py ``alone``), each
decision is made from that player's units in the arena and the hits left alone, so the whole
assignment leads from (units, hits) to the units it leaves, whatever else the state holds.
``Ti4Battle.leap`` walks it once for each (player, arena, gains, units, hits) and the explorer
(analysis/graph.py ``Explorer.settle``) jumps to where it ends. These tests check that the
graph is the very graph built step by step (``graph.LEAPS`` off: the same chance states in the
same order, the same edges with the same exact weights), with fewer steps of the rules, that
no stretch is taken where a handler acts while hits are assigned, and that the answers of the
faction mix do not change.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.analysis import budget, graph
from spacecombat.analysis.budget import TooLarge
from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.graph import Explorer, StateGraph
from spacecombat.core.engine import Step
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.core.forces import Forces
from spacecombat.rulesets import battle, parse_scenario
from spacecombat.rulesets.ti4.abilities.base import Handler
from spacecombat.rulesets.ti4.battle import Ti4Battle
from spacecombat.rulesets.ti4.procedures import assign_hits
from spacecombat.rulesets.ti4.procedures.combat_round import combat_cause
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import Phase

from .same_graph import assert_same_graph
from .test_graph_passed_states import BATTLES, graph_battles

#: the cause of a space combat round's hits (procedures/combat_round.py ``combat_cause``)
SPACE_COMBAT = combat_cause(None)

#: a battle in which a handler acts after SUSTAIN DAMAGE is used (Direct Hit, an action card:
#: ti4-combat-effects.md), so the hits are assigned step by step
DIRECT_HIT: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"dreadnought": 2, "cruiser": 1},
        "action_cards": ["direct_hit"],
        "relics": ["the_crown_of_thalnos"],
        "policy": {"sustain": "first"},
    },
    "defender": {"units": {"dreadnought": 1, "destroyer": 2}, "policy": {"sustain": "last"}},
}


#: Maneuvering Jets (an action card: cancel one space cannon hit, ti4-combat-effects.md) acts
#: on space cannon hits only (``Handler.assigns_for``); Duranium Armor keeps the rounds on the
#: state graph
MANEUVERING_JETS: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"dreadnought": 1, "destroyer": 2},
        "technologies": ["duranium_armor"],
        "action_cards": ["maneuvering_jets"],
        "policy": {"sustain": "first"},
    },
    "defender": {
        "units": {"cruiser": 2, "destroyer": 1},
        "action_cards": ["maneuvering_jets"],
        "policy": {"sustain": "last"},
    },
}

#: the Mentak flagship (Fourth Moon: other players' ships in its system cannot use SUSTAIN
#: DAMAGE, ti4-combat-effects.md) is asked while hits are assigned (``forbids_sustain``,
#: ``before_assign_hits``) but declares what it reads (``Handler.reads_while_assigning``): the
#: defender's assignment is taken at once, the attacker's too once the step's note is made
MENTAK_FLAGSHIP: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "faction": "mentak",
        "units": {"flagship": 1, "destroyer": 1},
        "policy": {"sustain": "first"},
    },
    "defender": {"units": {"dreadnought": 2, "destroyer": 1}, "policy": {"sustain": "first"}},
}

#: the Mentak mech (other players' ground forces on its planet cannot use SUSTAIN DAMAGE,
#: ti4-combat-effects.md) in ground combat on the planet invaded, against two mechs
MENTAK_MECH: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "invasion",
    "attacker": {"faction": "mentak", "units": "1 carrier, 2 mech, 1 infantry"},
    "defender": {},
    "planets": [{"name": "P", "defender": {"mech": 2, "infantry": 1}}],
}

#: the L1Z1X flagship (during space combat, hits its ships produce must be assigned to
#: non-fighter ships if able, ti4-combat-effects.md): the defender's assignment reads how
#: many of the hits are free (``free_hits``) beside its units and the hits
L1Z1X_FLAGSHIP: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {"faction": "l1z1x", "units": {"flagship": 1, "fighter": 2}},
    "defender": {"units": {"cruiser": 1, "destroyer": 1, "fighter": 3}},
}


#: battles holding a handler asked while hits are assigned that says when it is idle
#: (``Handler.idle_while_assigning``: while the other player assigns, once its card is played,
#: once its effect is used in the combat, once its cost is no longer affordable), each on the
#: state graph: the assignments where every handler asked is idle are taken at once
IDLE: dict[str, dict[str, Any]] = {
    "brother_milor": {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": {"dreadnought": 1, "cruiser": 2}, "policy": {"sustain": "first"}},
        "defender": {
            "faction": "yin",
            "units": {"cruiser": 2, "fighter": 1},
            "leaders": ["brother_milor"],
        },
    },
    "courageous_to_the_end": {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": {"cruiser": 2, "destroyer": 1}},
        "defender": {
            "units": {"dreadnought": 1, "destroyer": 1},
            "action_cards": ["courageous_to_the_end"],
            "policy": {"sustain": "first"},
        },
    },
    "technological_singularity": {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"faction": "nekro", "units": {"cruiser": 2, "destroyer": 1}},
        "defender": {
            "units": {"destroyer": 2, "fighter": 2},
            "upgrades": ["destroyer"],
            "policy": {"sustain": "first"},
        },
    },
    # nothing to gain from the opponent (no technology, no unit upgrade): idle throughout
    "technological_singularity_nothing_to_gain": {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"faction": "nekro", "units": {"cruiser": 2, "destroyer": 1}},
        "defender": {"units": {"dreadnought": 1, "destroyer": 2}, "policy": {"sustain": "first"}},
    },
    "empyrean_flagship_repair": {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": {"cruiser": 2, "destroyer": 1}},
        "defender": {
            "faction": "empyrean",
            "units": {"flagship": 1, "dreadnought": 1},
            "influence": 2,
            "policy": {"sustain": "first"},
        },
    },
    "reflective_shielding_tellurian": {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": {"cruiser": 2, "destroyer": 1}},
        "defender": {
            "faction": "titans",
            "units": {"dreadnought": 1, "destroyer": 1},
            "action_cards": ["reflective_shielding"],
            "leaders": ["tellurian"],
            "policy": {"sustain": "first"},
        },
    },
    # the defender's last hits lost for want of units while those its Reflective Shielding
    # produced are pending against the attacker: the attacker assigns them all the same
    # (docs/rulings.md 27U-1), the defender's assignment taken at once once the card is played
    "reflective_shielding_hits_lost": {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": {"dreadnought": 2, "war_sun": 1}, "policy": {"sustain": "last"}},
        "defender": {
            "units": {"dreadnought": 1},
            "action_cards": ["reflective_shielding"],
            "policy": {"sustain": "last"},
        },
    },
    "shields_holding_rear_admiral_farran": {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {
            "faction": "letnev",
            "units": {"dreadnought": 1, "destroyer": 1},
            "action_cards": ["shields_holding"],
            "leaders": ["rear_admiral_farran"],
            "policy": {"sustain": "first"},
        },
        "defender": {"units": {"cruiser": 2, "destroyer": 1}},
    },
    "ipswitch_loose_cannon": {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {
            "faction": "mentak",
            "units": {"cruiser": 2, "destroyer": 1},
            "leaders": ["ipswitch_loose_cannon"],
        },
        "defender": {"units": {"dreadnought": 1, "destroyer": 2}, "policy": {"sustain": "first"}},
    },
}


def _fought(scenario: dict[str, Any]) -> Ti4Battle:
    """The battle as the exact engine fights it (without the effects never played)."""
    fought = battle(parse_scenario(scenario))
    assert isinstance(fought, Ti4Battle)
    return fought.for_stock_policies()


def _explore(
    scenario: dict[str, Any], leaps: bool, monkeypatch: pytest.MonkeyPatch
) -> tuple[StateGraph[Any], Explorer[Any]]:
    fought = _fought(scenario)
    assert fought.product_refusal() is not None  # solved on the state graph
    with monkeypatch.context() as patched:
        patched.setattr(graph, "LEAPS", leaps)
        explorer: Explorer[Any] = Explorer(fought, fought.stock_policies(), exact=True)
        return explorer.build(), explorer


@pytest.mark.parametrize("name", sorted(BATTLES))
def test_the_assignments_taken_at_once_build_the_same_graph(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Duranium Armor, The Crown of Thalnos, War Funding Omega: no handler acts while hits are
    assigned, so each assignment is one step; the graph is the same, in fewer steps."""
    assert assign_hits.alone(_fought(BATTLES[name]).setup, SPACE_COMBAT)
    walked, stepped = _explore(BATTLES[name], False, monkeypatch)
    built, leapt = _explore(BATTLES[name], True, monkeypatch)
    assert built.states == walked.states
    assert built.start == walked.start
    assert built.edges == walked.edges  # targets, exact Fraction weights and rounds
    assert leapt.steps < stepped.steps


def test_no_leap_where_a_handler_acts_while_hits_are_assigned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Direct Hit acts after one of the opponent's units uses SUSTAIN DAMAGE (``after_sustain``),
    while its holder holds it: the defender's hits are assigned one at a time until the card
    is played; its holder's own assignments, and the defender's once it is played, ask it
    nothing (``Handler.idle_while_assigning``) and are taken at once. The graph is the same."""
    fought = _fought(DIRECT_HIT)
    setup, start = fought.setup, fought.start().state
    assert not assign_hits.alone(setup, SPACE_COMBAT)
    assert assign_hits.leap_key(setup, start, Side.DEFENDER, None, SPACE_COMBAT) is None
    assert assign_hits.leap_key(setup, start, Side.ATTACKER, None, SPACE_COMBAT) == ()
    played = start.using(Side.ATTACKER, "direct_hit")
    assert assign_hits.leap_key(setup, played, Side.DEFENDER, None, SPACE_COMBAT) == ()
    walked, stepped = _explore(DIRECT_HIT, False, monkeypatch)
    built, leapt = _explore(DIRECT_HIT, True, monkeypatch)
    assert_same_graph(built, walked)
    assert leapt.steps < stepped.steps


def test_hits_reflected_back_do_not_stop_the_defenders_assignment_taken_at_once() -> None:
    """Once the defender played Reflective Shielding, its 2 hits pending against the attacker
    (who assigned first) do not keep the defender's remaining assignment from being taken at
    once: the attacker assigns them when the defender is done, its last hits assigned or lost
    alike (procedures/assign_hits.py ``_handing_back``; docs/rulings.md 27U-1)."""
    fought = _fought(IDLE["reflective_shielding_hits_lost"])
    setup, start = fought.setup, fought.start().state
    assigning = (
        start.using(Side.DEFENDER, "reflective_shielding")
        .at(Phase.ASSIGN_HITS, turn=Side.DEFENDER)
        .with_hits_on(Side.ATTACKER, 2)
        .with_hits_on(Side.DEFENDER, 3)
    )
    assert assign_hits.leap_key(setup, assigning, Side.DEFENDER, None, SPACE_COMBAT) == ()
    leapt = fought.leap(assigning, fought.stock_policies())
    assert leapt is not None
    assert leapt.side(Side.DEFENDER).space.count() == 0  # sustained, destroyed, a hit lost
    assert (leapt.hits_on(Side.DEFENDER), leapt.hits_on(Side.ATTACKER)) == (0, 2)
    node = fought.advance(leapt)
    assert isinstance(node, Step)
    assert (node.state.phase, node.state.turn) == (Phase.ASSIGN_HITS, Side.ATTACKER)


def test_a_handler_acting_on_other_hits_only_is_not_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Maneuvering Jets acts before space cannon hits are assigned, so a combat round's hits
    are assigned without asking it, and taken at once; space cannon hits still ask it."""
    setup = _fought(MANEUVERING_JETS).setup
    assert assign_hits.alone(setup, SPACE_COMBAT)
    assert not assign_hits.alone(setup, "space cannon offense")
    walked, stepped = _explore(MANEUVERING_JETS, False, monkeypatch)
    built, leapt = _explore(MANEUVERING_JETS, True, monkeypatch)
    assert built.states == walked.states
    assert built.edges == walked.edges
    assert leapt.steps < stepped.steps


def test_a_handler_declaring_what_it_reads_is_taken_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Mentak flagship forbids the defender's dreadnoughts SUSTAIN DAMAGE while it is
    there (or was when the step began, 14A-1): the key of the defender's assignment says so,
    and the graph built with the leaps is the graph built step by step, in fewer steps."""
    fought = _fought(MENTAK_FLAGSHIP)
    setup, start = fought.setup, fought.start().state
    assert not assign_hits.alone(setup, SPACE_COMBAT)
    key = assign_hits.leap_key(setup, start, Side.DEFENDER, None, SPACE_COMBAT)
    assert key == (0, (), ((True, False),))  # the flagship there, the step's note not made
    walked, stepped = _explore(MENTAK_FLAGSHIP, False, monkeypatch)
    built, leapt = _explore(MENTAK_FLAGSHIP, True, monkeypatch)
    assert_same_graph(built, walked)
    assert leapt.steps < stepped.steps


def test_the_mentak_mech_declares_what_it_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same on a planet: the Mentak mech forbids the defender's mechs SUSTAIN DAMAGE in
    ground combat (ti4-ground-combat.md step 2); the graph is the same either way."""
    walked, stepped = _explore(MENTAK_MECH, False, monkeypatch)
    built, leapt = _explore(MENTAK_MECH, True, monkeypatch)
    assert_same_graph(built, walked)
    assert leapt.steps < stepped.steps


def test_hits_that_must_go_to_non_fighter_ships_are_taken_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The L1Z1X flagship's hits go to non-fighter ships first (docs/rulings.md 14G-3): the
    walk is keyed by how many hits are free too; the graph is the same either way."""
    walked, stepped = _explore(L1Z1X_FLAGSHIP, False, monkeypatch)
    built, leapt = _explore(L1Z1X_FLAGSHIP, True, monkeypatch)
    assert_same_graph(built, walked)
    assert leapt.steps < stepped.steps


@pytest.mark.parametrize("name", sorted(IDLE))
def test_handlers_idle_while_a_player_assigns_leave_the_assignment_taken_at_once(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The handler is asked while hits are assigned, but says when it is idle
    (``Handler.idle_while_assigning``); where every handler asked is, the assignment is taken
    at once: the graph is the graph built step by step (the same chance states in the same
    order, the same edges with exact weights), in fewer steps, and the odds are the same."""
    fought = _fought(IDLE[name])
    assert not assign_hits.alone(fought.setup, SPACE_COMBAT)
    walked, stepped = _explore(IDLE[name], False, monkeypatch)
    built, leapt = _explore(IDLE[name], True, monkeypatch)
    assert_same_graph(built, walked)
    assert leapt.steps < stepped.steps
    odds = exact_odds(IDLE[name], fractions=True).to_json()
    with monkeypatch.context() as patched:
        patched.setattr(graph, "LEAPS", False)
        assert exact_odds(IDLE[name], fractions=True).to_json() == odds


def test_a_handler_idle_for_one_player_is_asked_for_the_other() -> None:
    """Brother Milor acts after its holder's units are destroyed, until exhausted: the
    attacker's assignment never asks it; the defender's does while it is held, and no
    longer once it was exhausted."""
    fought = _fought(IDLE["brother_milor"])
    setup, start = fought.setup, fought.start().state
    assert assign_hits.leap_key(setup, start, Side.ATTACKER, None, SPACE_COMBAT) == ()
    assert assign_hits.leap_key(setup, start, Side.DEFENDER, None, SPACE_COMBAT) is None
    exhausted = start.using(Side.DEFENDER, "brother_milor")
    assert assign_hits.leap_key(setup, exhausted, Side.DEFENDER, None, SPACE_COMBAT) == ()


def test_technological_singularity_with_nothing_to_gain_is_idle() -> None:
    """Technological Singularity hears of the opponent's units destroyed while it could gain
    something (``offers``): against an opponent with no technology and no unit upgrade it is
    idle from the start, and the defender's assignment is taken at once; against one with a
    unit upgrade it is asked until used."""
    for name, idle in (
        ("technological_singularity_nothing_to_gain", True),
        ("technological_singularity", False),
    ):
        fought = _fought(IDLE[name])
        setup, start = fought.setup, fought.start().state
        key = assign_hits.leap_key(setup, start, Side.DEFENDER, None, SPACE_COMBAT)
        assert (key == ()) is idle, name
        assert (key is None) is not idle, name


def test_reads_while_assigning_is_refused_beside_the_hooks_that_hear() -> None:
    """A handler that hears what is assigned (``after_sustain``, ``after_destroyed``) queues
    follow-ups, and the key is asked for where ``before_assign_hits`` is (its companion):
    declaring what it reads is refused where the class is made without it, or beside those."""
    reads = {"reads_while_assigning": lambda *_: ()}
    with pytest.raises(TypeError, match=r"reads_while_assigning: it answers after_destroyed"):
        type(
            "Hearing",
            (Handler,),
            {**reads, "before_assign_hits": lambda *_: None, "after_destroyed": lambda *_: None},
        )
    with pytest.raises(TypeError, match="reads_while_assigning without before_assign_hits"):
        type("Idle", (Handler,), reads)


@pytest.mark.parametrize("hook", ["forbids_sustain", "lends_sustain"])
def test_assigns_for_is_refused_beside_a_hook_asked_without_a_cause(hook: str) -> None:
    """``forbids_sustain`` and ``lends_sustain`` are asked without the hits' cause, so a handler
    answering one cannot say it acts on some causes only: refused where the class is made."""
    answers = {hook: lambda *_: False, "before_assign_hits": lambda *_: None}
    with pytest.raises(TypeError, match=f"assigns_for.*it answers {hook}"):
        type("Wrong", (Handler,), {**answers, "assigns_for": frozenset({"space combat"})})


def test_assigns_for_needs_a_hook_of_hit_assignment() -> None:
    with pytest.raises(TypeError, match="assigns_for"):
        type("Idle", (Handler,), {"assigns_for": frozenset({"space combat"})})


def test_the_odds_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole exact engine, fractions and floats, with and without the leaps."""
    for scenario in BATTLES.values():
        leapt = exact_odds(scenario, fractions=True).to_json()
        floats = exact_odds(scenario).to_json()
        with monkeypatch.context() as patched:
            patched.setattr(graph, "LEAPS", False)
            assert exact_odds(scenario, fractions=True).to_json() == leapt
            assert exact_odds(scenario).to_json() == floats


def _numbers(report: object, path: str = "") -> dict[str, float]:
    """Every number of a report's JSON, by where it is."""
    if isinstance(report, dict):
        return {k: v for key in report for k, v in _numbers(report[key], f"{path}/{key}").items()}
    if isinstance(report, list):
        return {k: v for i, x in enumerate(report) for k, v in _numbers(x, f"{path}/{i}").items()}
    if isinstance(report, int | float) and not isinstance(report, bool):
        return {path: float(report)}
    return {path: float("nan")} if report is None else {}


@pytest.mark.slow
def test_the_faction_mix_gets_the_same_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    """120 random faction battles solved on the state graph: the same report with and without
    the leaps, every number to 1e-12 (the same refusal where a battle is too large: without
    the leaps only the steps of the rules are more, and their budget is lifted)."""
    for scenario in graph_battles(120, seed=2412):
        try:
            leapt: object = exact_odds(scenario).to_json()
        except (TooLarge, RuleNotImplemented) as exc:
            leapt = type(exc).__name__
        with monkeypatch.context() as patched:
            patched.setattr(graph, "LEAPS", False)
            patched.setattr(budget, "GRAPH_STEPS", 10**8)
            try:
                walked: object = exact_odds(scenario).to_json()
            except (TooLarge, RuleNotImplemented) as exc:
                walked = type(exc).__name__
        if isinstance(leapt, str) or isinstance(walked, str):
            assert leapt == walked, scenario
            continue
        ours, theirs = _numbers(leapt), _numbers(walked)
        assert ours.keys() == theirs.keys(), scenario
        for where, value in ours.items():
            other = theirs[where]
            assert value == other or abs(value - other) <= 1e-12, (where, scenario)


#: Ambush (Mentak faction ability, ti4-combat-effects.md): up to 2 cruisers or destroyers
#: roll before the combat; its hits' aim stays in the state once they are assigned (beside the
#: Mentak flagship, so that the battle is solved on the state graph)
AMBUSH: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "faction": "mentak",
        "units": {"flagship": 1, "cruiser": 2, "destroyer": 1},
        "policy": {"sustain": "first"},
    },
    "defender": {"units": {"dreadnought": 2, "cruiser": 2}, "policy": {"sustain": "first"}},
}


def test_the_rounds_after_ambush_are_leapt(monkeypatch: pytest.MonkeyPatch) -> None:
    """The aim of Ambush's hits (read while they are assigned in the window, procedures/
    windows.py) is cleared once the last is assigned (docs/rulings.md 27W-1): no round begins
    with it, and the assignments of the rounds after it are taken at once too: the graph is
    the one built step by step."""
    walked, stepped = _explore(AMBUSH, False, monkeypatch)
    built, leapt = _explore(AMBUSH, True, monkeypatch)
    rolls = [s for s in built.states if s.phase is Phase.ROLL_DICE]
    assert rolls
    assert not any(s.aim.cause for s in rolls)
    assert_same_graph(built, walked)
    assert leapt.steps < stepped.steps


#: battles in which a handler acting while a player assigns (a card played, a ship destroyed,
#: hits produced against the other player or cancelled) reads nothing of the other player's
#: part (``Handler.blind_while_assigning``): Direct Hit (the opponent's, after SUSTAIN DAMAGE),
#: Reflective Shielding (its holder's, 2 hits against the opponent), the Tellurian (its
#: holder's, 1 hit cancelled); ti4-combat-effects.md, action cards and leaders
BLIND: dict[str, dict[str, Any]] = {
    "direct_hit": DIRECT_HIT,
    "reflective_shielding_tellurian": IDLE["reflective_shielding_tellurian"],
    "reflective_shielding_hits_lost": IDLE["reflective_shielding_hits_lost"],
    # the attacker's roll kept group by group while it holds War Funding Omega (its decision
    # after both rolls): the Assign Hits step clears it before anything reads it
    "direct_hit_war_funding_omega": {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {
            "faction": "arborec",
            "units": {"dreadnought": 2, "cruiser": 1},
            "promissory_notes": ["war_funding_omega"],
            "policy": {"sustain": "first"},
        },
        "defender": {
            "units": {"dreadnought": 1, "destroyer": 2},
            "action_cards": ["direct_hit", "reflective_shielding"],
            "policy": {"sustain": "first"},
        },
    },
    # Courageous to the End (its holder's): the walk stops at its roll (24Y-1)
    "courageous_to_the_end": IDLE["courageous_to_the_end"],
    # the Empyrean flagship's repair (its owner's, for influence; 24Y-2)
    "empyrean_flagship_repair": IDLE["empyrean_flagship_repair"],
    "direct_hit_both_sides": {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {
            "units": {"dreadnought": 2, "cruiser": 2, "fighter": 1},
            "action_cards": ["direct_hit", "reflective_shielding"],
            "technologies": ["duranium_armor"],
            "policy": {"sustain": "first"},
        },
        "defender": {
            "units": {"dreadnought": 2, "destroyer": 2},
            "action_cards": ["direct_hit"],
            "policy": {"sustain": "last"},
        },
    },
}


@pytest.mark.parametrize("name", sorted(BLIND))
def test_handlers_blind_to_the_other_player_leave_the_assignment_taken_at_once(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where every handler asked while a player assigns is idle or reads nothing of the other
    player's part (``assign_hits.blind``), the assignment is walked once for every state
    alike but for the other player's part and the hits against it (``Ti4Battle._blind_leap``):
    the graph is the graph built without it (the same chance states in the same order, the
    same edges with exact weights), in fewer steps, and the odds are the same."""
    fought = _fought(BLIND[name])
    start = fought.start().state
    assert any(
        assign_hits.leap_key(fought.setup, start, side, None, SPACE_COMBAT) is None
        and assign_hits.blind(fought.setup, start, side, SPACE_COMBAT)
        for side in Side
    )
    with monkeypatch.context() as patched:
        patched.setattr(assign_hits, "blind", lambda *_: False)
        walked, stepped = _explore(BLIND[name], True, monkeypatch)
        odds = exact_odds(BLIND[name], fractions=True).to_json()
    built, leapt = _explore(BLIND[name], True, monkeypatch)
    assert_same_graph(built, walked)
    assert leapt.steps < stepped.steps
    assert exact_odds(BLIND[name], fractions=True).to_json() == odds


def test_a_handler_reading_the_other_player_is_not_blind() -> None:
    """The Mentak flagship forbids the opponent's SUSTAIN DAMAGE while it is there: it reads
    the other player's part, so an assignment asking it and Direct Hit is walked step by step
    (``assign_hits.blind`` false); Courageous to the End reads whether the opponent has a
    ship in the space area (one it could destroy), so it is blind only where it has one
    (24Y-1)."""
    scenario = {**MENTAK_FLAGSHIP, "attacker": {**MENTAK_FLAGSHIP["attacker"]}}
    scenario["attacker"]["action_cards"] = ["direct_hit"]
    fought = _fought(scenario)
    start = fought.start().state
    assert not assign_hits.blind(fought.setup, start, Side.DEFENDER, SPACE_COMBAT)
    courageous = _fought(IDLE["courageous_to_the_end"])
    begun = courageous.start().state
    assert assign_hits.blind(courageous.setup, begun, Side.DEFENDER, SPACE_COMBAT)
    shipless = begun.with_side(Side.ATTACKER, begun.attacker.with_space(Forces()))
    assert not assign_hits.blind(courageous.setup, shipless, Side.DEFENDER, SPACE_COMBAT)


@pytest.mark.parametrize("limit", [5, 10])
@pytest.mark.parametrize("name", ["direct_hit_both_sides", "direct_hit_war_funding_omega"])
def test_the_blind_walks_stop_a_battle_where_it_stopped(
    name: str, limit: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The graph is the same, so a battle too large stops at the same budget with the same
    words with the blind walks or without (``assign_hits.blind`` off)."""
    with pytest.raises(TooLarge) as blind:
        exact_odds(BLIND[name], limit=limit)
    monkeypatch.setattr(assign_hits, "blind", lambda *_: False)
    with pytest.raises(TooLarge) as walked:
        exact_odds(BLIND[name], limit=limit)
    assert str(blind.value) == str(walked.value)
    assert f"stopped at {limit} battle states" in str(blind.value)
