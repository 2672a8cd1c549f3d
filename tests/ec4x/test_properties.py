"""Properties of whole battles (7.3): small random scenarios, random draws."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.ec4x.helpers import make, play, random_fallback

FLAGSHIPS = ["CT", "FG", "DD", "CL", "CA", "BC", "RR", "CV", "PB"]
HOUSES = ["alpha", "beta", "gamma"]


@st.composite
def battles(draw: st.DrawFn) -> dict[str, Any]:
    count = draw(st.integers(2, 3))
    houses = HOUSES[:count]
    fleets = []
    for h in houses:
        squadrons = []
        for _ in range(draw(st.integers(1, 4))):
            flagship = draw(st.sampled_from(FLAGSHIPS))
            spec: dict[str, Any] = {
                "flagship": flagship,
                "state": draw(st.sampled_from(["undamaged", "crippled"])),
            }
            if flagship == "CV":
                spec["fighters"] = draw(st.integers(0, 3))
            squadrons.append(spec)
        fleets.append(
            {"id": f"{h}-1", "owner": h, "roe": draw(st.integers(0, 10)), "squadrons": squadrons}
        )
    diplomacy = []
    for i, a in enumerate(houses):
        for b in houses[i + 1 :]:
            status = draw(st.sampled_from(["enemy", "neutral", "non_aggression"]))
            diplomacy.append({"houses": [a, b], "status": status})
    return {
        "ruleset": "ec4x",
        "game_id": "prop",
        "turn": 1,
        "system": {"name": "Vega"},
        "houses": {h: {"prestige": draw(st.integers(-5, 90))} for h in houses},
        "diplomacy": diplomacy,
        "fleets": fleets,
        "options": {"max_rounds": 30},
    }


@settings(max_examples=150, deadline=None)
@given(battles(), st.integers(0, 2**32))
def test_battle_invariants(data: dict[str, Any], seed: int) -> None:
    battle = make(data)
    played = play(battle, [], fallback=random_fallback(seed))
    enemies = {frozenset(d["houses"]) for d in data["diplomacy"] if d["status"] == "enemy"}
    destroyed: set[str] = set()
    attacked: set[tuple[str, str]] = set()  # (attacker, target) in earlier rounds
    this_round: set[tuple[str, str]] = set()
    for e in played.events:
        kind = e["event"]
        if kind == "round_started":
            attacked |= this_round
            this_round = set()
        if kind in ("cer_rolled", "target_selected", "attack_skipped"):
            # no unit acts after it is destroyed
            assert e["unit"] not in destroyed
        if kind == "target_selected":
            assert e["target"] not in destroyed
            pair = (str(e["house"]), str(e["target_house"]))
            # damage lands only on a house the attacker regards as hostile (7.3.2.1): in
            # neutral space, Enemy status or having been attacked by it in an earlier round
            assert frozenset(pair) in enemies or (e["target_house"], e["house"]) in attacked
            this_round.add(pair)
        if kind == "unit_crippled":
            assert e["unit"] not in destroyed
        if kind == "unit_destroyed":
            assert e["unit"] not in destroyed
            destroyed.add(str(e["unit"]))
    for house, block in played.outcome["houses"].items():
        assert block["losses"] >= 0
        assert all(n > 0 for n in block["survivors"].values())
        assert all(0 < n <= block["survivors"].get(c, 0) for c, n in block["crippled"].items())
        involved = any(frozenset((house, other)) in enemies for other in data["houses"])
        if not involved:
            assert block["losses"] == 0
    assert played.outcome["result"] in (*data["houses"], "shared", "none", "cut_off", "cancelled")
