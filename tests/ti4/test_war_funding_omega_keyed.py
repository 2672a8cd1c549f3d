"""War Funding Ω's window and rerolls keyed for the exact engine (issue 24, 24X-1 and 24X-2;
rulesets/ti4/abilities/war_funding_omega.py, procedures/queued_alike.py; data/cards.toml War
Funding Ω: "after you and your opponent roll dice during space combat, you may reroll all of
your opponent's dice and any number of your own"; docs/rulings.md 14C2-4, 14W-1, 14W-3).

24X-1: the ways offered in the "after roll dice" window, their order and expected gains are a
value of the opponent's pool, the holder's misses and the hits against the holder alone, and
are remembered per setup by these: every request equals the one worked out afresh.

24X-2: played both ways, the card queues the reroll of the opponent's dice, then of the
holder's misses; the exact engine keys that state as the holder's reroll first with the hits
against the holder forgotten, and the opponent's reroll left alone without the holder's roll
kept group by group. Checked here: from every state so keyed, the states reached once the
queue is heard are the same, with the same exact chances, as from the state as it was; and the
reports are the same with and without it (exact fractions).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat import odds, rulesets
from spacecombat.core.engine import Chance, Decision, Node, Step
from spacecombat.rulesets import parse_scenario
from spacecombat.rulesets.ti4.abilities import war_funding_omega as omega
from spacecombat.rulesets.ti4.battle import Ti4Battle
from spacecombat.rulesets.ti4.procedures import queued_alike
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.state import BattleState
from tests.sweep.test_cache import close
from tests.ti4.switched import fractions_on_and_off
from tests.ti4.test_replaced_hits import HOLDER

#: battles of the faction mix (``benchmarks.faction_exact --seed 2026``) where a player holds
#: War Funding Ω, each solved in well under a second
NUMBERS = (16, 22, 25, 29, 37, 49, 59, 84, 88)


#: the holder's opponent rolls again with trade goods to spend (the Hacan flagship, 27T-9):
#: its reroll is made first all the same, as the holder's spends nothing of theirs
HACAN = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {"units": {"flagship": 1, "cruiser": 1}, "faction": "hacan", "trade_goods": 2},
    "defender": {
        "units": {"dreadnought": 1, "destroyer": 1},
        "faction": "mahact",
        "promissory_notes": ["war_funding_omega"],
    },
}


@pytest.fixture(scope="module")
def holding() -> list[dict[str, Any]]:
    drawn = battles(max(NUMBERS) + 1, 2026)
    chosen = [HOLDER, HACAN, *(drawn[n] for n in NUMBERS)]
    assert all("war_funding_omega" in str(b) for b in chosen)
    return chosen


def test_every_offer_is_the_one_worked_out_afresh(
    holding: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = omega.WarFundingOmega.in_window
    made = omega._offer
    calls = [0, 0]  # offers asked for, and those worked out rather than remembered
    working = [0]

    def counted(*args: Any) -> omega.Offer | None:
        working[0] += 1
        return made(*args)

    def checked(self: omega.WarFundingOmega, *args: Any) -> Node[BattleState] | None:
        before = working[0]
        node = asked(self, *args)
        if working[0] == before and node is None:
            return None  # not offered before the ways are worked out (another window)
        calls[0] += 1
        calls[1] += working[0] - before
        with monkeypatch.context() as afresh:
            afresh.setattr(omega, "REMEMBER_OFFER", False)
            again = asked(self, *args)
        if node is None:
            assert again is None
            return None
        assert isinstance(node, Decision)
        assert isinstance(again, Decision)
        assert node.request == again.request
        return node

    monkeypatch.setattr(omega.WarFundingOmega, "in_window", checked)
    monkeypatch.setattr(omega, "_offer", counted)
    for scenario in holding:
        odds(scenario, fallback=False)
    assert calls[0] > 100
    assert calls[1] < calls[0] * 0.9  # some offers come from memory


def _heard(
    battle: Ti4Battle, state: BattleState, mp: pytest.MonkeyPatch
) -> dict[BattleState, Fraction]:
    """The states reached from ``state`` once its queue is heard (the card's rerolls), each
    with its exact chance: the rules' own steps, each state reached keyed as without the
    shortcut (``ALIKE`` off: the holder's kept roll, which nothing reads once the queue is
    heard, dropped by ``dead_rolls``)."""
    reached: dict[BattleState, Fraction] = {}

    def follow(at: BattleState, chance: Fraction) -> None:
        if not at.following:
            with mp.context() as off:
                off.setattr(queued_alike, "ALIKE", False)
                key = battle.canonical(at)
            reached[key] = reached.get(key, Fraction(0)) + chance
            return
        node = battle.advance(at)
        if isinstance(node, Step):
            follow(node.state, chance)
            return
        assert isinstance(node, Chance)
        for outcome, weight in node.outcomes(True).items():
            follow(node.after(outcome).state, chance * Fraction(weight))

    follow(state, Fraction(1))
    return reached


def test_keyed_states_play_out_alike(
    holding: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    keyed = omega.WarFundingOmega.queued_alike
    met: list[tuple[BattleSetup, BattleState, BattleState]] = []

    def kept(
        self: omega.WarFundingOmega, setup: BattleSetup, state: BattleState
    ) -> BattleState | None:
        alike = keyed(self, setup, state)
        if alike is not None:
            met.append((setup, state, alike))
        return alike

    monkeypatch.setattr(omega.WarFundingOmega, "queued_alike", kept)
    reordered = forgotten = spending = 0
    for scenario in holding:
        met.clear()
        battle = rulesets.battle(parse_scenario(scenario))
        assert isinstance(battle, Ti4Battle)
        odds(scenario, fallback=False)
        for _, state, alike in met[:40]:
            if len(state.following) == 2:
                reordered += 1
                assert alike.following == state.following[::-1]
                spending += scenario is HACAN
            else:
                forgotten += 1
                assert alike.rolls == ((), ()) != state.rolls
            assert _heard(battle, alike, monkeypatch) == _heard(battle, state, monkeypatch)
    assert reordered > 20
    assert forgotten > 20
    assert spending > 0


def test_the_same_odds_as_fractions(
    holding: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    for scenario in holding[:5]:
        alike, afresh = fractions_on_and_off(scenario, queued_alike, "ALIKE", monkeypatch)
        assert alike.fractions_json() == afresh.fractions_json()
        close(alike.to_json(), afresh.to_json())  # (the rounds' floats summed in another order)
        remembered, afresh = fractions_on_and_off(scenario, omega, "REMEMBER_OFFER", monkeypatch)
        assert remembered.fractions_json() == afresh.fractions_json()
        assert remembered.to_json() == afresh.to_json()
