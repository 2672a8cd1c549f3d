"""[0.0.1], the L1Z1X Mindnet flagship (docs/rulings.md 27S-9; PC_Twi r_L1z1x.cpp
e_L1z1xFlagship, CombatInterface.cpp uaHeavyDamage): in each combat round of a space battle
where it is, the hits it and its owner's dreadnoughts produce must go on the opponent's
non-fighter ships while it has any. 5 x3, SUSTAIN DAMAGE (PC_Twi FMstats).

Dice: the L1Z1X side rolls its flagship's and dreadnoughts' dice first (a roll of their own),
then its other ships'; a pool rolls its groups in ascending printed value, then unit name; in
an exchange the attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import space

L1Z1X = {"faction": "l1z1x"}


def lost(played: Any, player: str) -> list[object]:
    return [e["unit"] for e in events(played, "unit_destroyed") if e["player"] == player]


def test_the_flagships_hits_go_on_non_fighter_ships() -> None:
    """The defender's stock player would lose its fighters first; the flagship's hit must go
    on the carrier. Round 1: flagship 5, 1, 1 (one hit); carrier 1, fighters 1, 1."""
    played = run(
        space({"units": {"flagship": 1}, **L1Z1X}, {"units": {"carrier": 1, "fighter": 2}}),
        [5, 1, 1, 1, 1, 1, 10, 10, 10, 1, 1],
        all_dice=False,
    )
    assert lost(played, "defender")[0] == "carrier"


def test_other_ships_hits_are_assigned_as_usual() -> None:
    """A cruiser's hit (the flagship misses) takes a fighter, as the stock player chooses.
    Round 1: flagship 1, 1, 1; cruiser 7 (hit); carrier 1, fighters 1, 1. Round 2: flagship 5,
    5, 1 (the carrier, then the fighter: none other left); cruiser 1; carrier 1, fighter 1."""
    played = run(
        space(
            {"units": {"flagship": 1, "cruiser": 1}, **L1Z1X},
            {"units": {"carrier": 1, "fighter": 2}},
        ),
        [1, 1, 1, 7, 1, 1, 1, 5, 5, 1, 1, 1, 1],
    )
    assert lost(played, "defender")[0] == "fighter"
    rolled = [r["player"] for r in events(played, "dice_rolled", purpose="space_combat")][:3]
    assert rolled == ["attacker", "attacker", "defender"]


def test_the_dreadnoughts_too_and_fighters_when_no_other_ship_is_left() -> None:
    """Two dreadnought hits against a carrier and a fighter: the carrier takes the first, the
    fighter the second (no non-fighter ship is left). Round 1: flagship 1, 1, 1; dreadnoughts
    5, 5; carrier 1, fighter 1."""
    played = run(
        space(
            {"units": {"flagship": 1, "dreadnought": 2}, **L1Z1X},
            {"units": {"carrier": 1, "fighter": 1}},
        ),
        [1, 1, 1, 5, 5, 1, 1],
    )
    assert lost(played, "defender") == ["carrier", "fighter"]


def test_exact_odds_the_flagship_against_a_carrier_and_two_fighters() -> None:
    """Hand-derived by the recursion below (an independent model of the rounds). The flagship
    rolls 3 dice at 5 (3/5 each); the carrier hits on 9 (1/5), the fighters on 8 with
    Cybernetics (3/10 each); the flagship has two lives. With the ability every attacker hit
    goes on the carrier while it lives, then on the fighters; without it the stock defender
    loses its fighters first (cheaper), which the same model with the order reversed gives."""
    flagship = {k: comb(3, k) * Fraction(3, 5) ** k * Fraction(2, 5) ** (3 - k) for k in range(4)}

    def defender_hits(carrier: int, fighters: int) -> dict[int, Fraction]:
        dist = {0: Fraction(1)}
        for p in [Fraction(1, 5)] * carrier + [Fraction(3, 10)] * fighters:
            new: dict[int, Fraction] = {}
            for k, pk in dist.items():
                new[k] = new.get(k, Fraction(0)) + pk * (1 - p)
                new[k + 1] = new.get(k + 1, Fraction(0)) + pk * p
            dist = new
        return dist

    def solve(carrier_first: bool) -> tuple[Fraction, Fraction, Fraction]:
        @cache
        def at(lives: int, carrier: int, fighters: int) -> tuple[Fraction, Fraction, Fraction]:
            stay = win = draw = lose = Fraction(0)
            for h, ph in flagship.items():
                for k, pk in defender_hits(carrier, fighters).items():
                    p = ph * pk
                    c, f = carrier, fighters
                    for _ in range(h):
                        if carrier_first and c:
                            c -= 1
                        elif f:
                            f -= 1
                        elif c:
                            c -= 1
                    left = max(0, lives - k)
                    if (left, c, f) == (lives, carrier, fighters):
                        stay += p
                    elif left == 0 and c + f == 0:
                        draw += p
                    elif c + f == 0:
                        win += p
                    elif left == 0:
                        lose += p
                    else:
                        w, d, lo = at(left, c, f)
                        win, draw, lose = win + p * w, draw + p * d, lose + p * lo
            return win / (1 - stay), draw / (1 - stay), lose / (1 - stay)

        return at(2, 1, 2)

    defender = {"units": {"carrier": 1, "fighter": 2}, "technologies": ["cybernetics"]}
    report = odds(space({"units": {"flagship": 1}, **L1Z1X}, defender), fractions=True)
    expected = solve(carrier_first=True)
    assert (report.attacker_win, report.draw, report.defender_win) == expected
    assert expected != solve(carrier_first=False)


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"flagship": 1, "dreadnought": 1, "cruiser": 1}, **L1Z1X},
        {"units": {"carrier": 2, "fighter": 4, "cruiser": 1}},
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
