"""Space combat Step 1, Anti-Fighter Barrage (ti4-space-combat.md step 1; docs/rulings.md R4,
R15, R16): first round only; both players roll before either assigns; hits only fighters, and
hits beyond the fighters are lost; the step happens with no fighters; if a player has no ships
after it, the combat ends at once."""

from __future__ import annotations

from spacecombat.core.engine import Played
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import events, rolls, run, space, survivors
from tests.ti4.scenarios import space_over_capacity

AFB = "anti_fighter_barrage"
CAUSE = "anti-fighter barrage"


def destroyed_by_barrage(played: Played[BattleState]) -> list[tuple[object, object]]:
    return [(e["player"], e["unit"]) for e in events(played, "unit_destroyed", cause=CAUSE)]


def test_barrage_is_rolled_in_the_first_round_only() -> None:
    # ti4-space-combat.md step 1.2: no Anti-Fighter Barrage in rounds other than the first.
    # Faces, round 1: destroyer AFB 1, 1; destroyer 1; cruiser 1, fighters 1, 1.
    # Round 2: destroyer 1; cruiser 7 (hit), fighters 1, 1: the attacker loses its destroyer.
    played = run(
        space_over_capacity({"units": "1 destroyer"}, {"units": "1 cruiser, 2 fighter"}),
        [1, 1, 1, 1, 1, 1, 1, 7, 1, 1],
    )
    assert played.outcome["rounds"] == 2
    assert len(rolls(played, AFB)) == 1


def test_barrage_hits_destroy_only_fighters() -> None:
    # ti4-space-combat.md step 1 / docs/rulings.md R15: AFB hits go to fighters, never to the
    # cruiser. Faces: destroyer AFB 9, 9 (2 hits); destroyer 9 (hit); cruiser 1.
    played = run(
        space_over_capacity({"units": "1 destroyer"}, {"units": "1 cruiser, 2 fighter"}),
        [9, 9, 9, 1],
    )
    assert destroyed_by_barrage(played) == [("defender", "fighter"), ("defender", "fighter")]


def test_sustain_damage_cannot_cancel_barrage_hits() -> None:
    # docs/rulings.md R4: a unit may sustain only a hit it could take; AFB hits only fighters,
    # so the dreadnought is not offered. Faces: AFB 9, 1 (1 hit); combat: destroyer 9 (hit,
    # sustained by the dreadnought), dreadnought 5 (destroys the destroyer).
    played = run(
        space({"units": "1 destroyer"}, {"units": "1 dreadnought, 1 fighter"}), [9, 1, 9, 5]
    )
    asked = events(played, "choice_made", decision="assign_hit", player="defender")[0]
    assert asked["options"] == ["destroy fighter"]
    assert events(played, "damage_sustained", cause=CAUSE) == []


def test_barrage_hits_beyond_the_fighters_are_lost() -> None:
    # docs/rulings.md R15: excess hits have no effect. Faces: AFB 9, 9 (2 hits) against one
    # fighter; destroyer 9 (hit); cruiser 1.
    played = run(
        space_over_capacity({"units": "1 destroyer"}, {"units": "1 cruiser, 1 fighter"}),
        [9, 9, 9, 1],
    )
    lost = events(played, "hits_lost", cause=CAUSE)
    assert [(e["player"], e["hits"]) for e in lost] == [("defender", 1)]


def test_both_players_roll_before_either_assigns_hits() -> None:
    # ti4-space-combat.md step 1 ("simultaneously") / docs/rulings.md R15.
    # Faces: attacker AFB 9, 1; defender AFB 9, 1; combat: destroyer 9 (hit), destroyer 1.
    played = run(
        space_over_capacity(
            {"units": "1 destroyer, 1 fighter"}, {"units": "1 destroyer, 1 fighter"}
        ),
        [9, 1, 9, 1, 9, 1],
    )
    sequence = [
        (e["event"], e["player"])
        for e in played.events
        if e.get("purpose") == AFB or e.get("cause") == CAUSE
    ]
    assert sequence == [
        ("dice_rolled", "attacker"),
        ("dice_rolled", "defender"),
        ("unit_destroyed", "attacker"),
        ("unit_destroyed", "defender"),
    ]


def test_barrage_is_rolled_when_no_fighters_are_present() -> None:
    # ti4-space-combat.md step 1.3: the step still occurs if no fighters are present
    # (docs/rulings.md R16). Faces: AFB 9, 9; destroyer 9 (hit); cruiser 1.
    played = run(space({"units": "1 destroyer"}, {"units": "1 cruiser"}), [9, 9, 9, 1])
    assert [(e["player"], e["hits"]) for e in rolls(played, AFB)] == [("attacker", 2)]


def test_barrage_hits_with_no_fighters_present_are_lost() -> None:
    # docs/rulings.md R16: without an ability that uses them, the hits have no effect.
    played = run(space({"units": "1 destroyer"}, {"units": "1 cruiser"}), [9, 9, 9, 1])
    lost = events(played, "hits_lost", cause=CAUSE)
    assert [(e["player"], e["hits"]) for e in lost] == [("defender", 2)]


def test_combat_ends_at_once_when_barrage_leaves_a_player_without_ships() -> None:
    # ti4-space-combat.md step 1.1: the defender has only fighters; after the barrage it has no
    # ships, so no combat roll is made. Faces: AFB 9, 10.
    played = run(space_over_capacity({"units": "1 destroyer"}, {"units": "2 fighter"}), [9, 10])
    assert rolls(played, "space_combat") == []
    assert (played.outcome["result"], played.outcome["winner"]) == ("attacker_win", "attacker")


def test_no_retreat_is_announced_after_barrage_ends_the_combat() -> None:
    # ti4-space-combat.md step 1.1: the combat ends "immediately", before Announce Retreats,
    # although the attacker's policy would announce a retreat in round 1. Faces: AFB 9, 10.
    played = run(
        space_over_capacity(
            {"units": "1 destroyer", "policy": {"retreat": {"after_round": 0}}},
            {"units": "2 fighter"},
            system={"adjacent": [{"name": "B", "units": ["attacker"]}]},
        ),
        [9, 10],
    )
    assert events(played, "choice_made", decision="announce_retreat") == []
    assert survivors(played, "attacker") == {"destroyer": 1}


def test_combat_roll_modifiers_do_not_apply_to_barrage() -> None:
    # docs/rulings.md R11 and R15: the nebula's +1 for the defender is for combat rolls only;
    # Destroyer I's barrage still needs a 9. Faces: defender AFB 8, 8 (no hit); combat:
    # cruiser 7 (hit), fighter 1; destroyer 1.
    played = run(
        space_over_capacity(
            {"units": "1 cruiser, 1 fighter"},
            {"units": "1 destroyer"},
            system={"anomaly": "nebula"},
        ),
        [8, 8, 7, 1, 1],
    )
    barrage = rolls(played, AFB)[0]
    groups = barrage["groups"]
    assert isinstance(groups, list)
    assert (groups[0]["hit_on"], barrage["hits"]) == (9, 0)
