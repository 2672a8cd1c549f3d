"""The handlers of a timing window, of a follow-up and of the "after assign hits" window found
once per setup, and the rules of a player's hit assignment read once per setup (issue 24,
24AI-1..24AI-3; docs/architecture.md, "The odds engine", 24AI).

Timing windows (ti4-space-combat.md rule 2.1, 9.1; ti4-ground-combat.md rule 4.1, 4.2): each
handler in play may act once in each window, in the handlers' documented order; a handler is
asked where its class declares it acts (abilities/base.py ``Acts``: its owner among
``players``, the kind of battle among ``battles``, the moment among ``windows``, and, for a
card with ``held``, while its owner still holds it). All but ``held`` read the setup and the
moment alone, so procedures/windows.py ``_askable`` finds those handlers once per setup and
moment and ``timing_window`` checks ``held`` alone at each state. Checked here at every timing
window met while battles of the faction mix are solved (War Funding Ω, held until played; the
Crown of Thalnos; Technological Singularity; Reflective Shielding): the handlers asked, past
the state's cursor, are those ``Acts.admits`` there, in the window order, at the same places.

A unit destroyed or that used SUSTAIN DAMAGE is heard by the handlers that answer the hook
(``after_destroyed``, ``after_sustain``; docs/rulings.md 14B3-5), and the "after assign hits"
window (Duranium Armor) asks the handlers that answer ``after_assign_hits``:
``BattleSetup.answering_at`` lists them once per setup with their places in ``handlers``; checked
against ``overrides`` for every hook of ``HOOKS`` on every setup met. The rules of a player's
assignment (procedures/assign_hits.py ``_rules``: the units the hits reach, SUSTAIN DAMAGE by
the cards, R4's barrage hits that it cannot cancel, the status taken, Direct Hit's immune
units) are checked against the functions they are read from.
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles, solve

from spacecombat.core.forces import Status
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4 import battle
from spacecombat.rulesets.ti4.abilities import sustain_damage
from spacecombat.rulesets.ti4.abilities.base import Handler, overrides
from spacecombat.rulesets.ti4.hooks import HOOKS
from spacecombat.rulesets.ti4.procedures import assign_hits, windows
from spacecombat.rulesets.ti4.setup import BattleSetup, build
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState, Phase

#: battles of the faction mix (``benchmarks.faction_exact --seed 2026``) with handlers acting in
#: timing windows, one of them a card asked only while held (no. 3, no. 236: War Funding Ω)
NUMBERS = (3, 30, 236)


@pytest.fixture(scope="module")
def drawn() -> list[dict[str, Any]]:
    found = battles(max(NUMBERS) + 1, 2026)
    return [found[n] for n in NUMBERS]


def _admitted(setup: BattleSetup, state: BattleState) -> list[tuple[int, Handler]]:
    """The handlers the window asks from the state's cursor on, as ``Acts.admits`` says at each
    state (the window order, ``windows._window_order``)."""
    moment = frozenset(state.windows[0])
    return [
        (index, handler)
        for index, handler in enumerate(windows._window_order(setup))
        if index >= state.cursor
        and handler.acts is not None
        and handler.acts.admits(handler, setup, state, moment)
    ]


def _asked(setup: BattleSetup, state: BattleState) -> list[tuple[int, Handler]]:
    """The handlers ``timing_window`` asks from the state's cursor on."""
    moment, askable = windows._askable(setup, state.windows[0])
    assert moment == frozenset(state.windows[0])
    return [
        (index, handler)
        for index, handler, card in askable
        if index >= state.cursor and (card is None or card.held(state))
    ]


def _answering(setup: BattleSetup) -> None:
    for hook in HOOKS:
        expected = [(i, h) for i, h in enumerate(setup.handlers) if overrides(h, hook.name)]
        assert list(setup.answering_at(hook.name)) == expected


def test_the_handlers_asked_in_each_window_are_those_admitted(
    drawn: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    window = windows.timing_window
    met: dict[str, int] = {"windows": 0, "asked": 0, "held": 0}
    setups: dict[int, BattleSetup] = {}

    def checked(setup: BattleSetup, state: BattleState) -> Any:
        if not state.following and not state.aim.cause and not state.sustained:
            asked = _asked(setup, state)
            assert asked == _admitted(setup, state)
            met["windows"] += 1
            met["asked"] += len(asked)
            _, askable = windows._askable(setup, state.windows[0])
            met["held"] += sum(card is not None for _, _, card in askable)
        setups[id(setup)] = setup
        return window(setup, state)

    monkeypatch.setitem(battle.PROCEDURES, Phase.TIMING_WINDOW, checked)
    for scenario in drawn:
        assert solve(scenario)["refused"] is None
    assert met["windows"] > 100
    assert met["asked"] > 100
    assert met["held"] > 0
    for setup in setups.values():
        _answering(setup)


def test_a_card_asked_only_while_held_is_not_asked_once_played() -> None:
    """War Funding Ω (``Acts(held=True)``): asked in the "after roll dice" window while its
    holder holds it, not once it is played (``BattleState.using``)."""
    scenario = {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {
            "units": {"cruiser": 2},
            "faction": "sol",
            "promissory_notes": ["war_funding_omega"],
            "trade_goods": 2,
        },
        "defender": {"units": {"destroyer": 2}, "faction": "hacan"},
    }
    setup = build(parse_ti_scenario(scenario))
    cards = [h for h in setup.handlers if getattr(h, "card", None) == "war_funding_omega"]
    assert len(cards) == 1
    card = cards[0]
    assert card.acts is not None
    assert card.acts.held
    moment = tuple(sorted(card.acts.windows))
    state = setup.initial.at(
        Phase.TIMING_WINDOW, windows=(moment,), then=Phase.ASSIGN_HITS, cursor=0
    )
    assert _asked(setup, state) == _admitted(setup, state)
    assert card in dict(_asked(setup, state)).values()
    played = state.using(Side.ATTACKER, "war_funding_omega")
    assert _asked(setup, played) == _admitted(setup, played)
    assert card not in dict(_asked(setup, played)).values()


@pytest.mark.parametrize("in_round", [True, False])
def test_the_rules_of_an_assignment_are_those_read_from_the_setup(
    drawn: list[dict[str, Any]], in_round: bool
) -> None:
    for scenario in drawn:
        setup = build(parse_ti_scenario(scenario))
        _answering(setup)
        for side in (Side.ATTACKER, Side.DEFENDER):
            cards = setup.side(side)
            for targets in assign_hits.Targets:
                rules = assign_hits._rules(setup, side, targets, in_round)
                assert rules is assign_hits._rules(setup, side, targets, in_round)
                assert rules.reached == targets.types(setup, side)
                assert rules.may_sustain is (targets is not assign_hits.Targets.FIGHTERS)
                assert rules.damaged is sustain_damage.damaged_status(in_round)
                assert rules.sustain_first == sustain_damage.immune_to_direct_hit(setup, side)
                for hits in (1, 2, 3):
                    assert rules.cancels(hits) == sustain_damage.hits_cancelled(setup, side, hits)
                area = setup.initial.side(side).space
                assert rules.eligible(area) == [
                    (u, s) for u, s, _ in area if u in targets.types(setup, side)
                ]
                for unit in cards.cards:
                    for status in Status:
                        able = rules.may_sustain and sustain_damage.can_sustain(
                            setup, side, unit, status
                        )
                        assert rules.able(unit, status) is able
