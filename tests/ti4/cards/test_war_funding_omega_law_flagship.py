"""War Funding Ω held with the Crown of Thalnos (law) rerolling the Jol-Nar flagship's dice
(docs/rulings.md 27V-1; refused by name before, 27U-4).

The flagship, J.N.S. Hylarim (data/units.toml): combat 6 (x2), "each result of 9 or 10, before
applying modifiers, produces 2 additional hits"; Fragile (-1): a die hits on 7 (1 hit on 7-8,
3 on 9-10, none on 1-6). The law: "the elected player may reroll any number of their dice;
each of their units that did not produce a hit with its reroll is destroyed" (no bonus). War
Funding Ω: "After you and your opponent roll dice during space combat: you may reroll all of
your opponent's dice; you may reroll any number of your dice." The holder's roll is kept die
by die (27T-8), each die's reroll by the Crown a group of its own, so that the record tells
which dice the Crown rerolled: the flagship is lost when the Crown rerolled some of its dice
and none of those rerolls produced a hit, even if its other die hit (its hits still count);
War Funding Ω rerolls the dice of the units left that produced no hit.

The stock policy never has the flagship's dice rerolled by the law (a reroll hits with 2/5,
less than half the time: 14C2-1); a scripted player does, and the exact odds below are those
of a player who does in every round (``CrownTheFlagship``)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from spacecombat import rulesets
from spacecombat.analysis.graph import Explorer
from spacecombat.analysis.solve import absorb
from spacecombat.core.decisions import DecisionRequest, Policy
from spacecombat.core.engine import Sampler, play
from spacecombat.core.policies import StockPolicy
from spacecombat.replayer import replay
from spacecombat.resolver import resolve
from spacecombat.rulesets import battle, parse_scenario
from tests.helpers import events, rolls, run, space, survivors

CROWN = "play crown_of_thalnos: reroll flagship"
PLAY = "play war_funding_omega"
MINE = f"{PLAY}: reroll my misses"
BOTH = f"{PLAY}: reroll theirs and my misses"


def law_elected(defender: str) -> dict[str, Any]:
    holder = {"units": "1 flagship", "faction": "jolnar", "promissory_notes": ["war_funding_omega"]}
    return space(
        holder,
        {"units": defender},
        laws=["crown_of_thalnos"],
        elected={"crown_of_thalnos": "attacker"},
    )


def faces(roll: Mapping[str, Any]) -> list[list[int]]:
    return [g["faces"] for g in roll["groups"]]


def attacker_rolls(played: Any) -> list[list[list[int]]]:
    return [faces(r) for r in rolls(played, "space_combat") if r["player"] == "attacker"]


def test_a_die_the_crown_rerolled_that_hit_saves_the_flagship_and_its_other_miss_is_rerolled() -> (
    None
):
    # First die 3, the Crown's reroll 8 (a hit); second die 2, rerolled 1 (no hit): a reroll
    # hit, so the flagship stays, with one die that produced no hit. The dreadnought misses (1).
    # "Reroll my misses" rolls that die alone: 9 (3 hits): 4 hits in all.
    played = run(law_elected("1 dreadnought"), [3, 8, 2, 1, 1, 9], attacker=[CROWN, MINE])
    assert attacker_rolls(played) == [[[3]], [[8]], [[2]], [[1]]]
    assert not events(played, "unit_destroyed", player="attacker")
    [mine] = rolls(played, "war_funding_omega")
    assert (faces(mine), mine["hits"]) == ([[9]], 3)
    assert played.outcome["result"] == "attacker_win"


def test_a_die_that_hit_unrerolled_does_not_save_the_flagship() -> None:
    # First die 7 (a hit: not rerolled); second die 3, rerolled 2: the flagship's only reroll
    # produced no hit, so the law destroys it (its 1 hit still counts: the dreadnought
    # sustains it). No die of a unit left to reroll: War Funding Ω offers "reroll theirs"
    # only, and the script passes.
    played = run(law_elected("1 dreadnought"), [7, 3, 2, 1], attacker=[CROWN, "pass"])
    assert attacker_rolls(played) == [[[7]], [[3]], [[2]]]
    [lost] = events(played, "unit_destroyed", cause="crown of thalnos")
    assert (lost["player"], lost["unit"]) == ("attacker", "flagship")
    [offer] = events(played, "choice_made", decision="play_card", choice="pass")
    assert offer["options"] == ["pass", f"{PLAY}: reroll theirs"]
    assert events(played, "damage_sustained", player="defender")
    assert played.outcome["result"] == "defender_win"


def test_a_die_that_hit_first_is_not_rerolled_by_the_crown() -> None:
    # (The destroyers' barrage first: 1, 1, 1, 1, no fighter to hit.) 9 (3 hits) and 8 (1
    # hit): the Crown rerolls nothing, so nothing is at risk; the destroyers miss (1, 1), and
    # both die. (War Funding Ω: no miss of mine, "reroll theirs" would only risk their hits:
    # passed.)
    played = run(law_elected("2 destroyer"), [1, 1, 1, 1, 9, 8, 1, 1], attacker=[CROWN, "pass"])
    assert attacker_rolls(played) == [[[9]], [[8]]]
    assert survivors(played, "attacker") == {"flagship": 1}
    assert played.outcome["result"] == "attacker_win"


class CrownTheFlagship(StockPolicy):
    """The stock policy, but the law rerolls the flagship's misses in every round."""

    def choose(self, request: DecisionRequest) -> str:
        if request.decision == "play_card" and request.facts.get("card") == "crown_of_thalnos":
            return CROWN
        return super().choose(request)


def crowning(fought: Any) -> dict[str, Policy]:
    """The battle's stock policies, the attacker's crowning the flagship."""
    policies: dict[str, Policy] = fought.stock_policies()
    stock = policies["attacker"]
    assert isinstance(stock, StockPolicy)
    policies["attacker"] = CrownTheFlagship(stock.config)
    return policies


def test_logs_replay_and_the_sampler_plays_as_play_does() -> None:
    import json

    scenario = law_elected("2 destroyer")
    parsed = parse_scenario(scenario)
    fought = battle(parsed)
    crowned = 0
    for seed in range(40):
        played = resolve(scenario, seed=seed, policies=crowning(fought))
        crowned += bool(events(played, "card_played", card="war_funding_omega"))
        log = [json.loads(json.dumps(e)) for e in played.events]
        assert replay(log).reproduces, seed
        policies = crowning(fought)
        end = Sampler(fought, policies).play(rulesets.dice_for(parsed, seed))
        again = play(fought, rulesets.dice_for(parsed, seed), crowning(fought))
        assert (end.state, end.outcome) == (again.state, again.outcome), seed
    assert crowned > 5


def exact(scenario: dict[str, Any]) -> dict[str, Fraction]:
    fought = battle(parse_scenario(scenario))
    policies = crowning(fought)
    graph = Explorer(fought, policies, exact=True, limit=None).build()
    absorbed = absorb(graph, exact=True)
    found: dict[str, Fraction] = {}
    for end, weight in absorbed.ends.items():
        result = str(end.outcome["result"])
        found[result] = found.get(result, Fraction(0)) + Fraction(weight)
    assert absorbed.residual == 0
    return found


def test_exact_odds_hand_derived() -> None:
    """The flagship crowned by the law, holding the card, against 2 destroyers (each hits on 9:
    1/5; k hits with 16/25, 8/25, 1/25). A die: none 3/5, 1 hit 1/5, 3 hits 1/5; the Crown
    rerolls a die with none.
    - Both dice hit (4/25), or one did and the other's reroll hit (2 · 2/5 · 3/5 · 2/5 =
      24/125), or both were rerolled and both hit (9/25 · 4/25 = 36/625): at least 2 hits,
      the flagship stays with no miss: 256/625. Both destroyers die; the card rerolls theirs
      when they hit (a gain), a draw if 2 hit again: 9/25 · 1/25.
    - Both rerolled, one hit (9/25 · 12/25 = 108/625): the flagship stays with a miss, 1 or 3
      hits alike (54/625 each). With 3: as above (the card then rerolls theirs and my
      miss, or my miss alone). With 1: k = 0: "reroll my misses": it hits (2/5) a win, else
      one destroyer left (U). k >= 1: "theirs and my misses": my die hits (2/5): a win, a
      draw if they hit twice; misses (3/5): one destroyer left, the flagship undamaged (U,
      16/25), damaged (D, 8/25) or destroyed (1/25).
    - One rerolled, its reroll missed (2 · 2/5 · 3/5 · 3/5 = 36/125): the flagship is lost,
      its other die's hits kept: 1 hit (18/125) leaves a destroyer (a loss), 3 hits (18/125)
      kill both (a draw).
    - Both rerolled, both missed again (81/625): lost with no hit.
    Against one destroyer in a later round (no card, the law again): the flagship stays
    (256/625 + 108/625 = 364/625) with at least 1 hit: a win, but, damaged, a draw if the
    destroyer hits (1/5); lost with hits (36/125): a draw; lost with none (81/625): a loss."""
    f = Fraction
    win, draw, loss = (f(1), f(0), f(0)), (f(0), f(1), f(0)), (f(0), f(0), f(1))

    def mix(*parts: tuple[Fraction, tuple[Fraction, ...]]) -> tuple[Fraction, ...]:
        return tuple(sum((p * v[i] for p, v in parts), f(0)) for i in range(3))

    stays, lost_hitting, lost_idle = f(364, 625), f(36, 125), f(81, 625)
    undamaged = mix((stays, win), (lost_hitting, draw), (lost_idle, loss))
    damaged = mix((stays * f(4, 5), win), (stays / 5 + lost_hitting, draw), (lost_idle, loss))
    killed = mix((1 - f(9, 625), win), (f(9, 625), draw))
    one_left = mix(
        (f(16, 25), mix((f(2, 5), win), (f(3, 5), undamaged))),
        (
            f(9, 25),
            mix(
                (f(2, 5), mix((f(24, 25), win), (f(1, 25), draw))),
                (f(3, 5), mix((f(16, 25), undamaged), (f(8, 25), damaged), (f(1, 25), loss))),
            ),
        ),
    )
    expected = mix(
        (f(256, 625) + f(54, 625), killed),
        (f(54, 625), one_left),
        (f(18, 125), loss),
        (f(18, 125), draw),
        (f(81, 625), loss),
    )
    found = exact(law_elected("2 destroyer"))
    assert expected == (
        f(3369025744, 6103515625),
        f(1019595996, 6103515625),
        f(342978777, 1220703125),
    )
    assert found.get("attacker_win", f(0)) == expected[0]
    assert found.get("draw", f(0)) == expected[1]
    assert found.get("defender_win", f(0)) == expected[2]
    assert sum(expected) == 1
