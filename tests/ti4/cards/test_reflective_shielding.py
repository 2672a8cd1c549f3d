"""Reflective Shielding (action card; abilities/reflective_shielding.py): when one of your ships
uses SUSTAIN DAMAGE during a space combat, produce 2 hits against your opponent's ships
(data/cards.toml; ti4-combat-effects.md, codex). Offered through the "play_card" decision right
after the SUSTAIN DAMAGE (ti4-space-combat.md step 4.1) in a space combat round; the opponent
assigns the 2 hits in the same Assign Hits step, after the holder if it had assigned already
(procedures/assign_hits.py; docs/rulings.md 14A-7); against hits of a timing window too, the
2 hits then assigned there; against Waylay's barrage hits, assigned once the barrage hits
are (27T-7)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, run, space, survivors

RS = {"action_cards": ["reflective_shielding"]}


def holder(units: str, **policy: Any) -> dict[str, Any]:
    side: dict[str, Any] = {"units": units, **RS}
    if policy:
        side["policy"] = policy
    return side


def test_the_attacker_reflects_two_hits() -> None:
    # Dreadnought 1; cruisers 7, 1: the dreadnought sustains, 2 hits destroy both cruisers.
    played = run(space(holder("1 dreadnought"), {"units": "2 cruiser"}), [1, 7, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "reflective_shielding", 1)
    [produced] = events(played, "hits_produced")
    assert (produced["player"], produced["hits"], produced["against"]) == (
        "attacker",
        2,
        "defender",
    )
    assert len(events(played, "unit_destroyed", player="defender")) == 2
    assert survivors(played, "defender") == {}


def test_the_defender_reflects_after_the_attacker_assigned() -> None:
    # Cruisers 7, 1 (a hit); dreadnought 1. The attacker has nothing to assign; the defender's
    # dreadnought sustains and reflects 2 hits, which the attacker then assigns.
    played = run(space({"units": "2 cruiser"}, holder("1 dreadnought")), [7, 1, 1])
    assert [e["player"] for e in events(played, "hits_produced")] == ["defender"]
    assert len(events(played, "unit_destroyed", player="attacker")) == 2
    assert survivors(played, "defender") == {"dreadnought": 1}


def test_reflected_hits_beyond_the_ships_are_lost() -> None:
    # Cruisers 7, 1; dreadnought 5: the attacker loses a cruiser first; then the dreadnought
    # sustains and reflects 2 hits: one destroys the last cruiser, one is lost.
    played = run(space({"units": "2 cruiser"}, holder("1 dreadnought")), [7, 1, 5])
    assert len(events(played, "unit_destroyed", player="attacker")) == 2
    [lost] = events(played, "hits_lost", player="attacker")
    assert lost["hits"] == 1


def test_policy_never_keeps_it() -> None:
    scenario = space(
        holder("1 dreadnought", play={"reflective_shielding": "never"}), {"units": "2 cruiser"}
    )
    # Round 1: 1; 7, 1: sustains, no card. Round 2: 5; 1, 1. Round 3: 5; 1.
    played = run(scenario, [1, 7, 1, 5, 1, 1, 5, 1])
    assert not events(played, "card_played")


def test_a_scripted_player_may_pass() -> None:
    played = run(
        space(holder("1 dreadnought"), {"units": "1 cruiser"}),
        [1, 7, 5, 1],
        attacker=["sustain dreadnought", "pass"],
    )
    assert not events(played, "hits_produced")


def test_not_against_space_cannon_offense() -> None:
    # The PDS hits (6) before the combat: the dreadnought sustains, no offer. Round 1: 5; 1.
    played = run(space(holder("1 dreadnought"), {"units": "1 cruiser, 1 pds"}), [6, 5, 1])
    assert events(played, "damage_sustained", player="attacker")
    assert not events(played, "card_played")


def test_exact_odds_hand_derived() -> None:
    """Dreadnought (3/5) with the card against 2 cruisers (2/5 each). Defender's hits k: 0 with
    9/25, 1 with 12/25, 2 with 4/25. With k = 1 the dreadnought sustains and reflects 2 hits:
    a win; k = 2 it sustains, reflects, and dies: a draw; k = 0 the dreadnought's hit (3/5)
    leaves one cruiser, against which any hit wins (the card still held). So
    win = (12/25 + 9/25 * 3/5) / (1 - 9/25 * 2/5) = 87/107, draw = (4/25) / (107/125) = 20/107."""
    found = odds(space(holder("1 dreadnought"), {"units": "2 cruiser"}))
    assert found.attacker_win == pytest.approx(float(Fraction(87, 107)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(20, 107)), abs=1e-12)
    assert found.defender_win == pytest.approx(0.0, abs=1e-12)


# Hits produced outside the combat roll (docs/rulings.md 14H-3)

MENTAK = {"faction": "mentak"}
CREUSS = {"units": "1 cruiser", "faction": "creuss", "technologies": ["dimensional_splicer"]}
WORMHOLE = {"wormholes": ["alpha"]}


def test_against_an_ambush_hit_the_opponent_assigns_at_once() -> None:
    # Ambush 7, 1: the dreadnought sustains in the "start of combat" window; the 2 hits
    # destroy both Mentak cruisers there: the combat ends before its first round.
    played = run(space({"units": "2 cruiser", **MENTAK}, holder("1 dreadnought")), [7, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"]) == ("defender", "reflective_shielding")
    gone = events(played, "unit_destroyed", player="attacker")
    assert [(e["unit"], e["cause"]) for e in gone] == [("cruiser", "Reflective Shielding")] * 2
    assert played.outcome["result"] == "defender_win"
    assert not events(played, "dice_rolled", purpose="space_combat")


def test_with_ambush_hits_left_both_are_assigned_in_the_window() -> None:
    # Ambush 7, 7: the dreadnought sustains the first and the card is played; the attacker
    # assigns the 2 hits, the defender its last Ambush hit (the cruiser).
    scenario = space({"units": "2 cruiser", **MENTAK}, holder("1 dreadnought, 1 cruiser"))
    played = run(scenario, [7, 7])
    cause = "Ambush and Reflective Shielding"
    assert len(events(played, "unit_destroyed", player="attacker", cause=cause)) == 2
    [lost] = events(played, "unit_destroyed", player="defender")
    assert (lost["unit"], lost["cause"]) == ("cruiser", cause)
    assert played.outcome["result"] == "defender_win"


def test_against_a_dimensional_splicer_hit() -> None:
    played = run(space(CREUSS, holder("1 dreadnought"), system=WORMHOLE), [])
    assert [c["card"] for c in events(played, "card_played")] == [
        "dimensional_splicer",
        "reflective_shielding",
    ]
    [gone] = events(played, "unit_destroyed", player="attacker")
    assert gone["cause"] == "Reflective Shielding"
    assert played.outcome["result"] == "defender_win"


def test_against_a_dimensional_splicer_hit_never_and_a_scripted_pass_keep_it() -> None:
    # the dreadnought sustains; round 1: 1; 5
    never = holder("1 dreadnought", play={"reflective_shielding": "never"})
    for played in (
        run(space(CREUSS, never, system=WORMHOLE), [1, 5]),
        run(
            space(CREUSS, holder("1 dreadnought"), system=WORMHOLE),
            [1, 5],
            defender=["sustain dreadnought", "pass"],
        ),
    ):
        assert not events(played, "hits_produced")
        assert played.outcome["result"] == "defender_win"


WAYLAID = {"units": "1 destroyer", "action_cards": ["waylay"]}


def test_against_waylay_barrage_hits_the_opponent_assigns_them_after_the_barrage() -> None:
    """docs/rulings.md 27T-7: Waylay's barrage 9, 1 reaches the dreadnought, which sustains;
    the 2 hits Reflective Shielding produces are not barrage hits: once the barrage hits are
    assigned, the attacker assigns them to its ships: the destroyer is destroyed and the
    combat ends (step 1.1)."""
    played = run(space(WAYLAID, holder("1 dreadnought")), [9, 1])
    assert [(c["player"], c["card"]) for c in events(played, "card_played")] == [
        ("attacker", "waylay"),
        ("defender", "reflective_shielding"),
    ]
    [lost] = events(played, "unit_destroyed", cause="Reflective Shielding")
    assert (lost["player"], lost["unit"]) == ("attacker", "destroyer")
    assert played.outcome["result"] == "defender_win"
    never = holder("1 dreadnought", play={"reflective_shielding": "never"})
    kept = run(space(WAYLAID, never), [9, 1, 1, 5])
    assert events(kept, "damage_sustained", cause="anti-fighter barrage")
    assert kept.outcome["result"] == "defender_win"


def test_the_attackers_card_against_the_defenders_waylay() -> None:
    """The attacker assigns first: its dreadnought sustains the defender's Waylay hit; the 2
    hits produced against the defender wait until the defender's barrage hits (none) are
    assigned, then destroy its destroyer."""
    played = run(space(holder("1 dreadnought"), WAYLAID), [9, 1])
    [lost] = events(played, "unit_destroyed", cause="Reflective Shielding")
    assert (lost["player"], lost["unit"]) == ("defender", "destroyer")
    assert played.outcome["result"] == "attacker_win"


def test_exact_odds_against_waylay_hand_derived() -> None:
    """Waylay's destroyer (barrage 9 x2: 1/5 a die; combat 9) against a dreadnought (combat 5,
    SUSTAIN DAMAGE) with the card. One barrage hit (8/25): sustained and reflected, the
    destroyer is destroyed: the defender wins. Two (1/25): the second destroys the damaged
    dreadnought and the reflected hits the destroyer: a draw. None (16/25): the first
    combat hit the destroyer scores is sustained and reflected, so it never wins: the
    defender wins. Defender 24/25, draw 1/25."""
    found = odds(space(WAYLAID, holder("1 dreadnought")))
    assert found.defender_win == pytest.approx(float(Fraction(24, 25)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(1, 25)), abs=1e-12)


def test_exact_odds_against_dimensional_splicer_hand_derived() -> None:
    """Creuss cruiser (2/5) with Dimensional Splicer against a dreadnought (3/5) with the card:
    the splicer's hit is sustained and reflected: the cruiser is destroyed (defender 1).
    Without the card the damaged dreadnought duels the cruiser, one hit each: attacker
    (4/25) / (19/25) = 4/19, draw 6/19, defender 9/19."""
    found = odds(space(CREUSS, holder("1 dreadnought"), system=WORMHOLE))
    assert found.defender_win == pytest.approx(1.0, abs=1e-12)
    never = holder("1 dreadnought", play={"reflective_shielding": "never"})
    plain = odds(space(CREUSS, never, system=WORMHOLE))
    assert plain.attacker_win == pytest.approx(float(Fraction(4, 19)), abs=1e-12)
    assert plain.draw == pytest.approx(float(Fraction(6, 19)), abs=1e-12)


# The holder's last hits lost for want of units (docs/rulings.md 27U-1)


def test_the_defender_reflects_and_its_last_hits_run_out_exactly() -> None:
    # Cruisers 7, 7; dreadnought 1. The dreadnought sustains (the card reflects 2 hits), the
    # second hit destroys it: the attacker assigns the 2 reflected hits to both cruisers.
    played = run(space({"units": "2 cruiser"}, holder("1 dreadnought")), [7, 7, 1])
    assert [e["player"] for e in events(played, "hits_produced")] == ["defender"]
    assert len(events(played, "unit_destroyed", player="attacker")) == 2
    assert survivors(played, "attacker") == {}
    assert survivors(played, "defender") == {}


def test_the_defender_reflects_and_its_last_hits_are_lost() -> None:
    # Cruisers 7, 7, 7; dreadnought 1. The dreadnought sustains (the card reflects 2 hits), the
    # second hit destroys it, the third is lost (no ship left): the attacker still assigns the
    # 2 reflected hits ("produce 2 hits against your opponent's ships"), to two cruisers.
    played = run(space({"units": "3 cruiser"}, holder("1 dreadnought")), [7, 7, 7, 1])
    [lost] = events(played, "hits_lost", player="defender")
    assert lost["hits"] == 1
    assert [e["player"] for e in events(played, "hits_produced")] == ["defender"]
    destroyed = events(played, "unit_destroyed", player="attacker")
    assert [(e["unit"], e["cause"]) for e in destroyed] == [("cruiser", "space combat")] * 2
    assert survivors(played, "attacker") == {"cruiser": 1}


def test_exact_odds_with_hits_lost_hand_derived() -> None:
    """3 cruisers (2/5 each) against a dreadnought (3/5) holding the card. Once the card is
    played and the dreadnought damaged, m cruisers against it, a round of no hit repeated
    (attacker win, draw, defender win): R(0) = (0, 0, 1); R(m) = [(1 - (3/5)^m)(3/5 x
    (m > 1 ? win : draw) + 2/5 x win) + (3/5)^m 3/5 R(m-1)] / (1 - (3/5)^m 2/5), so
    R(1) = (4, 6, 9)/19, R(2) = (1628, 162, 243)/2033. Before it (the card held), the
    attacker loses j cruisers (1 with 3/5) and the defender's dreadnought takes k hits: k = 0,
    the fight goes on with 3 - j (2 cruisers: defender win 87/107, draw 20/107, as the
    attacker's case above mirrored); k = 1, it sustains, the attacker loses 2 more: R(1 - j);
    k >= 2, it sustains, reflects 2 hits, is destroyed (a third hit is lost): the attacker
    still assigns the 2 hits (27U-1) and wins with 1 - j cruiser, else a draw. Summed over
    j and k (3 cruisers: k with 27, 54, 36, 8 /125) and the repeat (j = k = 0) divided out:
    attacker 2104/10849, draw 368472/1160843, defender 567243/1160843. (Were the 2 hits
    never assigned when the third is lost, j = 1, k = 3 would be a win: 0.2360, not 0.1939.)"""
    found = odds(space({"units": "3 cruiser"}, holder("1 dreadnought")))
    assert found.method == "exact"
    assert found.attacker_win == pytest.approx(float(Fraction(2104, 10849)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(368472, 1160843)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(567243, 1160843)), abs=1e-12)
