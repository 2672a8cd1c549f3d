"""7.3.5 Retreat and the 7.3.4 ROE check; 7.2 spacelift protection."""

from __future__ import annotations

from typing import Any

from tests.ec4x.helpers import fleet, make, partial, play, scenario, squadron

ROUND = [("cer", 0), ("target", 0), ("cer", 0), ("target", 0)]


def outgunned(**alpha: Any) -> dict[str, Any]:
    """Alpha's CA with ROE 0 against beta's CA (nobody is hurt on 0s)."""
    return scenario(
        fleet("A1", "alpha", squadron("CA"), roe=0, **alpha),
        fleet("B1", "beta", squadron("CA")),
    )


def test_retreat_only_after_round_one() -> None:
    """7.1.1: "fleets have the opportunity to retreat only after the first round of combat"."""
    played = play(make(outgunned()), ROUND)
    names = [e["event"] for e in played.events]
    assert names.index("roe_checked") > names.index("casualties_assessed")
    assert played.of("retreated", house="alpha", round=1)
    assert played.outcome["result"] == "beta"
    assert played.house("alpha")["fate"] == "retreated"
    assert played.house("alpha")["survivors"] == {"CA": 1}


def test_roe_check_facts() -> None:
    """7.3.4: own AS against the combined AS of the hostile Task Forces."""
    played = play(make(outgunned()), ROUND)
    checked = played.of("roe_checked", house="alpha")[0]
    assert (checked["own_strength"], checked["hostile_strength"], checked["roe"]) == (12, 12, 0)
    assert checked["roe_allows"] is False


def test_colony_fighters_never_retreat() -> None:
    """7.3.5: "Colony-owned fighters never retreat ... Combat continues until all colony-owned
    fighters are destroyed"."""
    data = outgunned()
    data["system"] = {"name": "Vega", "controller": "alpha"}
    data["colony"] = {"owner": "alpha", "fighters": 1}
    # round 1: phase 2 alpha's fighter -> beta's CA (4 < 13); phase 4 both CAs miss
    played = partial(make(data), [("target", 0), *ROUND])
    retreated = played.of("retreated", house="alpha")[0]
    assert retreated["units"] == ["A1-1"]
    assert retreated["stayed"] == ["Vega-F1"]
    assert [e["round"] for e in played.of("round_started")] == [1, 2]


def test_carrier_fighters_go_with_their_carrier() -> None:
    """7.3.5: "Carrier-owned fighters withdraw with retreating carrier"."""
    data = scenario(
        fleet("A1", "alpha", squadron("CV", fighters=1), roe=0),
        fleet("B1", "beta", squadron("CA")),
    )
    # phase 2: the fighter hits the CA (4); phase 4: the CA (tier 7) then the CV (tier 8)...
    played = play(make(data), [("target", 0), *ROUND])
    assert played.of("retreated")[0]["units"] == ["A1-1", "A1-1F1"]
    assert played.house("alpha")["survivors"] == {"CV": 1, "FS": 1}


def test_crippled_ships_cannot_take_a_restricted_lane() -> None:
    """7.3.5: "Crippled ships cannot retreat through restricted lanes"; 6.1 "Fleets containing
    crippled ships ... can not jump across restricted lanes" (ruling E41): by default the
    fleet with a crippled squadron stays whole, its other fleet goes; with
    restricted_lane_retreat: per_squadron only the crippled squadron stays."""
    data = scenario(
        fleet("A1", "alpha", squadron("CA", state="crippled"), squadron("CA"), roe=0),
        fleet("A2", "alpha", squadron("CA"), roe=0),
        fleet("B1", "beta", squadron("CA")),
    )
    data["houses"]["alpha"]["retreat_lane"] = "restricted"
    played = partial(make(data), [("cer", 0), ("target", 0)] * 4)
    retreated = played.of("retreated")[0]
    assert (retreated["units"], retreated["stayed"]) == (["A2-1"], ["A1-1", "A1-2"])
    assert played.state.stranded == 0b1
    data["options"] = {"restricted_lane_retreat": "per_squadron"}
    played = partial(make(data), [("cer", 0), ("target", 0)] * 4)
    retreated = played.of("retreated")[0]
    assert (retreated["units"], retreated["stayed"]) == (["A1-2", "A2-1"], ["A1-1"])


def test_no_lane_no_retreat() -> None:
    data = outgunned()
    data["houses"]["alpha"]["retreat_lane"] = "none"
    played = partial(make(data), ROUND * 2)
    assert not played.of("roe_checked", house="alpha")
    assert make(data).notices()


def test_spacelift_destroyed_when_escorts_gone() -> None:
    """7.2: "Spacelift ships are destroyed if all friendly escort fleets in their house's Task
    Force are destroyed ... while hostile forces remain"."""
    data = scenario(
        fleet("A1", "alpha", squadron("DD", state="crippled"), spacelift={"TT": 2}),
        fleet("B1", "beta", squadron("DN")),
    )
    played = play(make(data), [("cer", 7), ("target", 0)])
    assert played.of("screened_ships_destroyed", house="alpha")[0]["ships"] == ["TT", "TT"]
    assert played.house("alpha")["losses"] == 40 + 2 * 30
    assert played.house("alpha")["fate"] == "destroyed"


def test_policy_never() -> None:
    data = outgunned()
    data["houses"]["alpha"]["retreat"] = "never"
    played = partial(make(data), ROUND * 2)
    assert played.of("roe_checked", house="alpha", choice="stay")


def test_policy_after_round() -> None:
    data = outgunned()
    data["fleets"][0]["roe"] = 10
    data["houses"]["alpha"]["retreat"] = {"after_round": 2}
    played = play(make(data), ROUND * 2)
    assert played.of("retreated", house="alpha", round=2)
