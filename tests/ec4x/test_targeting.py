"""7.3.2 target priority: diplomatic filtering, bucket walk, fighter rule, weights."""

from __future__ import annotations

from tests.ec4x.helpers import fleet, make, partial, play, random_fallback, scenario, squadron


def test_bucket_walk_raiders_first() -> None:
    """7.3.2.4: Raider (1) → Capital (2) → Destroyer (3) → Fighter (4) → Starbase (5)."""
    data = scenario(
        fleet("A1", "alpha", squadron("DN")),
        fleet("B1", "beta", squadron("DD"), squadron("CA"), squadron("RR", state="crippled")),
    )
    # the crippled raider (phase 3) fires first; then the DN chooses among bucket 1 only
    played = partial(make(data), [("cer", 0), ("target", 0), ("cer", 0), ("target", 0)])
    chosen = played.of("target_selected", unit="A1-1")[0]
    assert (chosen["bucket"], chosen["candidates"]) == (1, ["B1-3"])


def test_weights_base_size_crippled() -> None:
    """7.3.2.5: Base_Weight(bucket) × Unit_Size × Crippled_Modifier: a CA with two CA escorts
    2 × 3 × 1 = 6; a crippled CL 2 × 1 × 2 = 4."""
    data = scenario(
        fleet("A1", "alpha", squadron("DN")),
        fleet("B1", "beta", squadron("CA", escorts={"CA": 2}), squadron("CL", state="crippled")),
    )
    played = partial(make(data), [("cer", 0)])
    draw = played.draws[-1]
    assert (draw.purpose, draw.labels, draw.weights) == ("target", ("B1-1", "B1-2"), (6, 4))


def test_fighters_target_fighters_first() -> None:
    """7.3.2.3: "If any enemy fighter squadrons (bucket 4) exist ... build candidate list from
    all enemy fighter squadrons only"."""
    data = scenario(
        fleet("A1", "alpha", squadron("CV", fighters=1)),
        fleet("B1", "beta", squadron("RR", state="crippled"), squadron("CV", fighters=2)),
    )
    played = partial(make(data), [])
    draw = played.draws[0]
    assert (draw.player, draw.labels, draw.weights) == ("alpha", ("B1-2F1", "B1-2F2"), (4, 4))


def test_fighters_fall_back_to_bucket_order() -> None:
    data = scenario(
        fleet("A1", "alpha", squadron("CV", fighters=1)),
        fleet("B1", "beta", squadron("DD"), squadron("RR", state="crippled")),
    )
    draw = partial(make(data), []).draws[0]
    assert draw.labels == ("B1-2",)


def test_single_candidate_still_draws() -> None:
    """A choice among one candidate is drawn (and logged), keeping the draw order fixed."""
    data = scenario(fleet("A1", "alpha", squadron("DD")), fleet("B1", "beta", squadron("DD")))
    draws = partial(make(data), [("cer", 0)]).draws
    assert draws[1].labels == ("B1-1",)


def test_three_houses_mixed_diplomacy() -> None:
    """7.3.2.1: "An attacking unit may only target Task Forces from houses considered hostile":
    alpha and beta are enemies, gamma is neutral to both and never hit."""
    data = scenario(
        fleet("A1", "alpha", squadron("DN")),
        fleet("B1", "beta", squadron("DN")),
        fleet("C1", "gamma", squadron("DN")),
    )
    data["houses"]["gamma"] = {"prestige": 30, "morale_roll": 1}
    played = play(make(data), [], fallback=random_fallback(3))
    assert all(e["target_house"] != "gamma" for e in played.of("target_selected"))
    assert played.house("gamma")["fate"] == "not_engaged"
    assert played.house("gamma")["losses"] == 0


def test_enemy_of_both_is_attacked_by_both() -> None:
    """Three houses: gamma is the enemy of alpha and beta, who are neutral to each other."""
    data = scenario(
        fleet("A1", "alpha", squadron("CA")),
        fleet("B1", "beta", squadron("CA")),
        fleet("C1", "gamma", squadron("CA")),
        diplomacy=[
            {"houses": ["alpha", "gamma"], "status": "enemy"},
            {"houses": ["beta", "gamma"], "status": "enemy"},
        ],
    )
    data["houses"]["gamma"] = {"prestige": 30, "morale_roll": 1}
    played = partial(make(data), [0, 0, 0, 0, 0])
    draws = played.draws
    assert draws[1].labels == ("C1-1",)  # alpha may target only gamma
    assert draws[5].labels == ("A1-1", "B1-1")  # gamma both
