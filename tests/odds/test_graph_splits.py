"""A combat round's two rolls taken player by player on the state graph (issue 24, TI4 faction
battles exact; docs/architecture.md, "The odds engine", 1.).

In the Roll Dice step (ti4-space-combat.md step 3, ti4-ground-combat.md step 1) the attacker
rolls, then the defender; in Assign Hits (step 4 / step 2) the attacker assigns the
defender's hits, then the defender the attacker's. On the state graph every pair of outcomes
of the two rolls was walked through both assignments, (attacker's outcomes) x (defender's
outcomes) walks a round. Where nothing else acts between them (no handler asked while hits
are assigned, nothing queued, kept or aimed), the battle now gives the explorer each
player's part after its own roll and after taking the other's hits
(``Ti4Battle.split_rolls``, analysis/graph.py ``Splitting``), and the explorer walks on once
for each pair of parts after. These tests check that the graph is the same, chance state for
chance state and edge for edge with exact weights, and the answers to the last bit, with
``graph.SPLITS`` on and off.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.analysis import graph
from spacecombat.analysis.budget import TooLarge
from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.graph import Explorer, StateGraph
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.rulesets import battle, parse_scenario
from spacecombat.rulesets.ti4 import split_rolls
from spacecombat.rulesets.ti4.battle import Ti4Battle

from .same_graph import assert_same_graph
from .test_graph_leaps import AMBUSH, DIRECT_HIT, IDLE, _numbers
from .test_graph_passed_states import BATTLES, graph_battles

#: the faction mix's battle no. 265 (benchmarks/faction_exact.py, seed 2026): War Funding
#: against the Crown of Thalnos, which its holder plays from round 2; 14,779 outcomes of
#: rolls followed, 28,924 steps of the rules on the graph
WAR_FUNDING_AND_CROWN: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"war_sun": 1, "cruiser": 1, "dreadnought": 1, "flagship": 1},
        "faction": "muaat",
        "upgrades": ["infantry"],
        "technologies": ["magen_defense_grid_omega"],
        "promissory_notes": ["strike_wing_ambuscade", "war_funding"],
        "conditions": ["command_token_in_active_system"],
        "policy": {"sustain": "first"},
    },
    "defender": {
        "units": {"cruiser": 2, "fighter": 1, "dreadnought": 1, "destroyer": 1, "flagship": 1},
        "faction": "naalu",
        "upgrades": ["carrier", "fighter"],
        "promissory_notes": ["raghs_call", "antivirus"],
        "relics": ["the_crown_of_thalnos"],
        "trade_goods": 0,
        "influence": 2,
        "policy": {"sustain": "in_order", "play": {"the_crown_of_thalnos": {"round": 2}}},
    },
}

#: the Hacan flagship spends trade goods on its own roll (a player's part is its units and
#: its purse) beside the Crown of Thalnos, which destroys units of its holder that missed
HACAN_AND_CROWN: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"flagship": 1, "destroyer": 1},
        "faction": "hacan",
        "trade_goods": 2,
        "relics": ["the_crown_of_thalnos"],
        "policy": {"sustain": "first"},
    },
    "defender": {"units": {"cruiser": 2, "dreadnought": 1}, "policy": {"sustain": "first"}},
}

#: the Mentak flagship: the opponent's ships cannot use SUSTAIN DAMAGE while it is in the
#: space area, or was when the Assign Hits step began (its owner notes it before assigning,
#: docs/rulings.md 14A-1): the note and the flagship's presence travel with the parts
MENTAK_ATTACKS: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"flagship": 1, "cruiser": 1},
        "faction": "mentak",
        "policy": {"sustain": "first"},
    },
    "defender": {"units": {"dreadnought": 2, "destroyer": 1}, "policy": {"sustain": "first"}},
}
MENTAK_DEFENDS: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {"units": {"dreadnought": 2, "carrier": 1}, "policy": {"sustain": "first"}},
    "defender": {
        "units": {"flagship": 1, "destroyer": 2},
        "faction": "mentak",
        "relics": ["the_crown_of_thalnos"],
        "policy": {"sustain": "first"},
    },
}

#: the L1Z1X flagship: its and the dreadnoughts' hits must go to non-fighter ships if able
#: (docs/rulings.md 14G-4): the roll marks how many of the hits are free, and each player's
#: assignment reads the mark against it (``split_rolls._produced``); beside Graviton Laser
#: System on the other side, whose space cannon hits are likewise marked
L1Z1X_FLAGSHIP: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "faction": "l1z1x",
        "units": {"flagship": 1, "dreadnought": 1, "fighter": 2},
        "policy": {"sustain": "first"},
    },
    "defender": {
        "units": {"carrier": 1, "fighter": 3, "cruiser": 1},
        "technologies": ["duranium_armor"],
        "policy": {"sustain": "first"},
    },
}

CASES: dict[str, dict[str, Any]] = {
    "crown of thalnos": BATTLES["crown of thalnos"],
    "duranium armor": BATTLES["duranium armor"],
    "hacan flagship and crown": HACAN_AND_CROWN,
    "mentak flagship attacks": MENTAK_ATTACKS,
    "mentak flagship defends": MENTAK_DEFENDS,
    # the aim of Ambush's hits stays in the state once they are assigned: not read in a
    # combat round, so the rounds after it are split too
    "ambush": AMBUSH,
    "l1z1x flagship": L1Z1X_FLAGSHIP,
    # once played, War Funding Omega is asked no more in the "after roll dice" window, which
    # then passes alike whatever was rolled (while held, its holder's roll is kept)
    "war funding omega": BATTLES["war funding omega"],
}


def _fought(scenario: dict[str, Any]) -> Ti4Battle:
    """The battle as the exact engine fights it (without the effects never played)."""
    fought = battle(parse_scenario(scenario))
    assert isinstance(fought, Ti4Battle)
    return fought.for_stock_policies()


def _explore(
    scenario: dict[str, Any], splits: bool, monkeypatch: pytest.MonkeyPatch
) -> tuple[StateGraph[Any], Explorer[Any], int]:
    """The whole graph (exact weights, rolls folded), and how many chance states had their
    rolls taken player by player."""
    fought = _fought(scenario)
    assert fought.product_refusal() is not None  # solved on the state graph
    split = 0
    real = fought.split_rolls

    def counted(*args: Any) -> Any:
        nonlocal split
        found = real(*args)
        split += found is not None
        return found

    with monkeypatch.context() as patched:
        patched.setattr(graph, "SPLITS", splits)
        patched.setattr(fought, "split_rolls", counted)
        explorer: Explorer[Any] = Explorer(
            fought, fought.stock_policies(), exact=True, limit=None, joins=True
        )
        return explorer.build(), explorer, split


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_rolls_taken_player_by_player_build_the_same_graph(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Crown of Thalnos (its holder's units lost to its own roll), Duranium Armor (acting
    after hits are assigned), the Hacan flagship (trade goods spent on the roll), War Funding
    Omega once played (the window after the rolls passed through), the Mentak flagship
    attacking or defending (its opponent cannot use SUSTAIN DAMAGE while it is there or was
    when the step began, docs/rulings.md 14A-1: its note and presence travel with the parts):
    the same chance states, start and edges (targets, exact Fraction weights, rounds), in fewer
    steps of the rules."""
    walked, stepped, none = _explore(CASES[name], False, monkeypatch)
    built, split, taken = _explore(CASES[name], True, monkeypatch)
    assert none == 0
    assert taken > 0
    assert_same_graph(built, walked)
    assert split.steps < stepped.steps


@pytest.mark.parametrize("name", sorted(IDLE))
def test_handlers_idle_while_a_player_assigns_build_the_same_graph(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Handlers asked while hits are assigned but idle while a player assigns (the other
    player's assignment, a card played, an effect used, nothing to gain: tests/odds/
    test_graph_leaps.py): a round is split where they are idle for both players, for every
    pair of the players' parts (``assign_hits.leap_key`` is ``()``); the graph is the same."""
    walked, _, none = _explore(IDLE[name], False, monkeypatch)
    built, _, _ = _explore(IDLE[name], True, monkeypatch)
    assert none == 0
    assert_same_graph(built, walked)


@pytest.mark.parametrize(
    "name",
    ["brother_milor", "empyrean_flagship_repair", "technological_singularity_nothing_to_gain"],
)
def test_a_round_is_split_where_the_handlers_asked_are_idle(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Brother Milor once played, the Empyrean flagship once its owner cannot pay,
    Technological Singularity with nothing to gain: idle while either player assigns, so
    those rounds are split; Ipswitch, Loose Cannon is asked while the opponent assigns
    (it hears of ships destroyed and places its owner's), so none of its rounds is, unless
    the assignments that place ships are walked whole (``split_rolls.PLACING``: tests/odds/
    test_graph_splits_placed.py)."""
    assert _explore(IDLE[name], True, monkeypatch)[2] > 0
    monkeypatch.setattr(split_rolls, "PLACING", False)
    assert _explore(IDLE["ipswitch_loose_cannon"], True, monkeypatch)[2] == 0


def test_nothing_is_split_where_a_handler_acts_while_hits_are_assigned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Direct Hit acts after the opponent's units use SUSTAIN DAMAGE: the assignments are not
    each a function of one player's units and hits, so every pair of outcomes is followed
    (unless each assignment is walked whole from both players' parts, ``split_rolls.WHOLE``:
    tests/odds/test_graph_splits_whole.py)."""
    monkeypatch.setattr(split_rolls, "WHOLE", False)
    _, _, taken = _explore(DIRECT_HIT, True, monkeypatch)
    assert taken == 0


@pytest.mark.parametrize("limit", [60, 100])
def test_the_budgets_stop_a_battle_where_they_stopped_it(
    limit: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The defender's roll's states, one for each outcome of the attacker's, are counted as
    folded states and their outcomes as outcomes of rolls, as when the rolls were folded: a
    battle too large stops at the same budget with the same words either way (the Crown of
    Thalnos battle: 37 chance states, 187 states folded)."""
    scenario = BATTLES["crown of thalnos"]
    with pytest.raises(TooLarge) as split:
        exact_odds(scenario, limit=limit)
    monkeypatch.setattr(graph, "SPLITS", False)
    with pytest.raises(TooLarge) as walked:
        exact_odds(scenario, limit=limit)
    assert str(split.value) == str(walked.value)


def test_the_odds_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole exact engine, fractions and floats (to the last bit: the sums are made in the
    order of the rolls folded), with and without the rolls taken player by player."""
    for scenario in CASES.values():
        split = exact_odds(scenario, fractions=True).to_json()
        floats = exact_odds(scenario).to_json()
        with monkeypatch.context() as patched:
            patched.setattr(graph, "SPLITS", False)
            assert exact_odds(scenario, fractions=True).to_json() == split
            assert exact_odds(scenario).to_json() == floats


@pytest.mark.slow
def test_the_faction_mix_battle_gives_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 265 of the faction mix: the same graph in a quarter of the steps of the rules."""
    walked, stepped, _ = _explore(WAR_FUNDING_AND_CROWN, False, monkeypatch)
    built, split, taken = _explore(WAR_FUNDING_AND_CROWN, True, monkeypatch)
    assert taken > 0
    assert built.states == walked.states
    assert built.edges == walked.edges
    assert 4 * split.steps < stepped.steps


@pytest.mark.slow
def test_the_faction_mix_gets_the_same_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    """150 random faction battles solved on the state graph: the same report with and without
    the rolls taken player by player, every number to 1e-12 (the same refusal where a battle
    is too large either way)."""
    for scenario in graph_battles(150, seed=2426):
        try:
            split: object = exact_odds(scenario).to_json()
        except (TooLarge, RuleNotImplemented) as exc:
            split = type(exc).__name__
        with monkeypatch.context() as patched:
            patched.setattr(graph, "SPLITS", False)
            try:
                walked: object = exact_odds(scenario).to_json()
            except (TooLarge, RuleNotImplemented) as exc:
                walked = type(exc).__name__
        if isinstance(split, str) or isinstance(walked, str):
            assert split == walked, scenario
            continue
        ours, theirs = _numbers(split), _numbers(walked)
        assert ours.keys() == theirs.keys(), scenario
        for where, value in ours.items():
            other = theirs[where]
            assert value == other or abs(value - other) <= 1e-12, (where, scenario)


@pytest.mark.slow
@pytest.mark.parametrize("limit", [30, 120])
def test_random_battles_stop_where_they_stopped(
    limit: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """40 random faction battles on the state graph with room for few chance states: the same
    report, or the same refusal in the same words, with and without the rolls taken player by
    player (the budgets count what the folded rolls counted, in the same order)."""

    def solved(scenario: dict[str, Any]) -> object:
        try:
            return exact_odds(scenario, limit=limit).to_json()
        except TooLarge as exc:
            return str(exc)

    for scenario in graph_battles(40, seed=77):
        split = solved(scenario)
        with monkeypatch.context() as patched:
            patched.setattr(graph, "SPLITS", False)
            assert solved(scenario) == split, scenario


@pytest.mark.parametrize("limit", [10, 20, 40])
@pytest.mark.parametrize(
    "name", ["mentak flagship attacks", "mentak flagship defends", "l1z1x flagship"]
)
def test_the_mentak_and_l1z1x_flagship_battles_stop_where_they_stopped(
    name: str, limit: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the Mentak flagship (each assignment walked from the other player's part, the
    owner's note carried with its part: ``split_rolls._paired``) or the L1Z1X flagship (the
    free hits keyed with the hits), a battle too large stops at
    the same budget with the same words either way (at 10 to 40 states of the graph or folded
    into the rolls before them)."""
    scenario = CASES[name]
    with pytest.raises(TooLarge) as split:
        exact_odds(scenario, limit=limit)
    monkeypatch.setattr(graph, "SPLITS", False)
    with pytest.raises(TooLarge) as walked:
        exact_odds(scenario, limit=limit)
    assert str(split.value) == str(walked.value)
    assert f"stopped at {limit} battle states" in str(split.value)


def test_rounds_after_ambush_are_split(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rounds after Ambush's hits are assigned are split too: they begin with no aim, the
    window's aim being cleared with its last hit (docs/rulings.md 27W-1)."""
    fought = _fought(AMBUSH)
    real = fought.split_rolls
    aimed: list[bool] = []

    def counted(state: Any, *args: Any) -> Any:
        found = real(state, *args)
        if found is not None:
            aimed.append(bool(state.aim.cause))
        return found

    monkeypatch.setattr(fought, "split_rolls", counted)
    Explorer(fought, fought.stock_policies(), exact=True, limit=None, joins=True).build()
    assert aimed
    assert not any(aimed)


def test_rounds_with_hits_marked_for_non_fighter_ships_are_split(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The L1Z1X flagship's rolls (hits and marks: how many must go to non-fighter ships) are
    split too: the free hits are keyed with the hits (``split_rolls._produced``)."""
    fought = _fought(L1Z1X_FLAGSHIP)
    real = fought.split_rolls
    marked: list[bool] = []

    def counted(state: Any, *args: Any) -> Any:
        found = real(state, *args)
        if found is not None:
            marked.append(any(isinstance(hits, tuple) for _, hits in found.first))
        return found

    monkeypatch.setattr(fought, "split_rolls", counted)
    Explorer(fought, fought.stock_policies(), exact=True, limit=None, joins=True).build()
    assert any(marked)
