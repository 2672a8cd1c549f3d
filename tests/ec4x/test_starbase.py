"""7.4 Starbase Combat: +2 CER, critical re-roll, bucket 5, ROE 10, no cloak."""

from __future__ import annotations

from typing import Any

from spacecombat.rulesets.ec4x.space_combat.damage import protected
from tests.ec4x.helpers import fleet, make, partial, scenario, squadron


def siege(**fields: Any) -> dict[str, Any]:
    """Alpha bombards (06) beta's colony, defended by one starbase."""
    return scenario(
        fleet("A1", "alpha", squadron("DN"), order=6),
        fleet("B1", "beta", squadron("CT"), order=0),
        system={"name": "Vega", "controller": "beta"},
        colony={"owner": "beta", "starbases": [{"eli": 1}]},
        **fields,
    )


def test_starbase_bucket_5_and_plus_2() -> None:
    """7.4 items 2 and 4; 7.3.2.4 bucket walk ends with starbases (after the CT, bucket 2)."""
    data = siege()
    data["fleets"].pop(1)
    played = partial(make(data), [("cer", 0), ("target", 0), ("cer", 0), ("target", 0)])
    chosen = played.of("target_selected", unit="A1-1")[0]
    assert (chosen["bucket"], chosen["weights"]) == (5, [5])
    rolled = played.of("cer_rolled", unit="Vega-SB1")[0]
    assert rolled["modifiers"] == {"starbase": 2}
    assert rolled["cer"] == "1/4"  # 0 + 2
    assert played.of("task_force_formed", house="beta")[0]["roe"] == 10


def test_critical_against_starbase_is_rerolled() -> None:
    """7.4 item 1: "If a player rolls a critical hit against a Starbase on the first attempt,
    re-roll a second time. The second roll stands regardless of result"."""
    data = siege()
    data["fleets"].pop(1)
    played = partial(make(data), [("cer", 9), ("target", 0), ("cer_reroll", 3)])
    rolls = played.of("cer_rolled", unit="A1-1")
    assert [(r["die"], r["critical"]) for r in rolls] == [(9, True), (3, False)]
    assert played.of("critical_rerolled")
    assert rolls[1]["hits"] == 14
    again = partial(make(data), [("cer", 9), ("target", 0), ("cer_reroll", 9)])
    assert again.of("cer_rolled", unit="A1-1")[1]["critical"] is True


def test_starbase_is_not_protected() -> None:
    """7.3.3 restriction 2 "does not apply to Starbases": a crippled starbase may be destroyed
    while the CT of its Task Force is undamaged (the CT is protected)."""
    setup = make(siege()).setup
    cond = (0, 0, 1)  # alpha's DN, beta's CT, beta's starbase (crippled)
    assert not protected(setup, cond, 2)
    assert not protected(setup, (0, 1, 0), 1)  # the CT: the starbase is not a squadron


def test_starbase_task_force_cannot_cloak() -> None:
    """7.2: "Task Forces including Starbases cannot cloak": beta's raider is not cloaked."""
    data = siege()
    data["fleets"][1]["squadrons"] = [squadron("RR", clk=5)]
    played = partial(make(data), [])
    assert not played.of("detection_rolled")
    assert played.of("task_force_formed", house="beta")[0]["cloaked"] is False
