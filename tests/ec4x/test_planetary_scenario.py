"""Planetary combat chained after space combat (7.3 then 7.5/7.6, ruling E62): the colony's
scenario keys, bad input, and whole battles with scripted draws."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacecombat.analysis.exact import exact_odds
from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets.ec4x.options import parse_ec4x
from tests.ec4x.helpers import fleet, make, play, random_fallback, scenario, squadron


def siege(order: int = 6, *, defender: bool = False, **colony: Any) -> dict[str, Any]:
    """Alpha's fleet under ``order`` at beta's colony Vega (beta: one DD on guard if
    ``defender``)."""
    fields: dict[str, Any] = {"squadrons": [squadron("CA"), squadron("DD")], "order": order}
    if order in (7, 8):
        fields["spacelift"] = {"TT": 2}
    fleets = [fleet("A1", "alpha", **fields)]
    if defender:
        fleets.append(fleet("B1", "beta", squadron("DD"), order=5))
    return scenario(
        *fleets,
        system={"name": "Vega", "controller": "beta"},
        colony={"owner": "beta", **colony},
    )


# ---- the scenario ---------------------------------------------------------------------------


def test_colony_keys_parse_in_both_forms() -> None:
    data = siege(shield=6, batteries=2, armies={"undamaged": 1, "crippled": 2}, iu=5, pu=9)
    colony = parse_ec4x(data).colony
    assert colony is not None
    assert colony.batteries is not None
    assert colony.armies is not None
    assert (colony.shield, colony.batteries.undamaged, colony.armies.crippled) == (6, 2, 2)
    assert (colony.marines, colony.spaceports, colony.iu) == (None, None, 5)  # absent: none


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (lambda d: d["colony"].update(shield=7), "colony.shield"),
        (lambda d: d["colony"].update(iu=-1), "colony.iu"),
        (lambda d: d["colony"].update(armies={"undamaged": -1}), "colony.armies"),
        (lambda d: d["colony"].update(marines={"crippled": 1, "lost": 2}), "colony.marines"),
        (lambda d: d.update(options={"max_shield_level": 5}) or d["colony"].update(shield=6),
         "colony.shield"),
    ],
)  # fmt: skip
def test_bad_colony_is_refused_naming_the_field(edit: Any, field: str) -> None:
    data = siege()
    edit(data)
    with pytest.raises(ScenarioError) as caught:
        parse_ec4x(data)
    assert caught.value.field.startswith(field)


def test_e62_invasion_order_without_a_colony_is_refused() -> None:
    data = siege(7)
    del data["colony"]
    with pytest.raises(ScenarioError) as caught:
        parse_ec4x(data)
    assert caught.value.field == "fleets[0].order"
    assert "colony" in caught.value.message


def test_e62_bombard_order_without_a_colony_keeps_space_combat() -> None:
    data = siege(6)
    del data["colony"]
    data["system"] = {"name": "Vega"}
    parse_ec4x(data)  # accepted: nothing to bombard


def two_sieges(gamma_order: int = 6, **options: Any) -> dict[str, Any]:
    """Alpha (A1, CA + DD, order 06) and gamma (G1, one DD, ``gamma_order``, listed first) at
    beta's undefended colony; no space combat (no defender, no starbase)."""
    data = siege(6, iu=1000)
    data["houses"]["gamma"] = {"prestige": 30, "morale_roll": 1}
    gamma: dict[str, Any] = {"order": gamma_order}
    if gamma_order in (7, 8):
        gamma["spacelift"] = {"TT": 2}
    data["fleets"].insert(0, fleet("G1", "gamma", squadron("DD"), **gamma))
    data["diplomacy"].append({"houses": ["beta", "gamma"], "status": "enemy"})
    return data | ({"options": options} if options else {})


def started(played: Any) -> list[str]:
    return [str(e["attacker"]) for e in played.of("planetary_combat_started")]


def test_g24_several_houses_siege_in_a_drawn_order() -> None:
    """G24 default ``siege_order: drawn``: a draw among the houses waiting picks gamma; its
    three rounds (a 0 each), then alpha's against the colony as gamma left it."""
    played = play(make(two_sieges()), [("siege_order", "gamma")] + [0] * 6)
    (drawn,) = played.of("drawn", purpose="siege_order")
    assert drawn["value"] == "gamma"
    assert started(played) == ["gamma", "alpha"]
    first_end, _ = played.of("bombardment_ended")
    second = played.of("planetary_combat_started")[1]
    assert second["defences"] == first_end["colony"]  # one after another (G24)
    out = played.outcome["colony"]
    assert [s["attacker"] for s in out["sieges"]] == ["gamma", "alpha"]
    assert [s["result"] for s in out["sieges"]] == ["bombarded", "bombarded"]
    assert (out["attacker"], out["result"], out["fallen"]) == ("alpha", "bombarded", False)
    # each round a 0: gamma's DD (AS 5) 2 hits, alpha's CA + DD (AS 17) 5 hits, three rounds
    assert [s["iu"] for s in out["sieges"]] == [1000 - 3 * 2, 1000 - 3 * 2 - 3 * 5]
    assert out["iu"] == 1000 - 21


def test_g24_the_draw_may_pick_alpha() -> None:
    played = play(make(two_sieges()), [("siege_order", "alpha")] + [0] * 6)
    assert started(played) == ["alpha", "gamma"]


def test_g24_option_house_order_and_fleet_order() -> None:
    """``house_order``: the scenario's houses (alpha, beta, gamma): alpha first; ``fleet_order``:
    gamma's G1 is listed first: gamma first. No draw either way."""
    by_house = play(make(two_sieges(siege_order="house_order")), [0] * 6)
    assert started(by_house) == ["alpha", "gamma"]
    assert not by_house.of("drawn", purpose="siege_order")
    by_fleet = play(make(two_sieges(siege_order="fleet_order")), [0] * 6)
    assert started(by_fleet) == ["gamma", "alpha"]


def test_g24_no_siege_after_the_colony_falls() -> None:
    """Gamma's blitz (two TTs, no battery, no garrison) takes the colony; alpha's bombardment
    of it is abandoned (``already_fallen``), and the colony block reports gamma's conquest."""
    data = two_sieges(8, siege_order="fleet_order")
    played = play(make(data), [0])  # the blitz round: G1's DD rolls; nothing fires back
    assert started(played) == ["gamma"]
    (abandoned,) = played.of("siege_abandoned")
    assert (abandoned["attacker"], abandoned["owner"]) == ("alpha", "gamma")
    out = played.outcome["colony"]
    assert (out["attacker"], out["mission"], out["owner_after"]) == ("gamma", "blitz", "gamma")
    assert (out["fallen"], out["seized"]) == (True, True)
    assert [s["result"] for s in out["sieges"]] == ["conquered", "already_fallen"]


def invade_and_blitz(**options: Any) -> dict[str, Any]:
    """Alpha's A1 (CA + DD, two TTs) under 07 and A2 (two TTs) under 08 at beta's colony with
    one battery and one army."""
    data = siege(7, batteries=1, armies=1, iu=10)
    data["fleets"].append(fleet("A2", "alpha", order=8, spacelift={"TT": 2}))
    return data | ({"options": options} if options else {})


def test_g25_default_the_invasion_then_the_blitz() -> None:
    """G25 default ``invasion_then_blitz``: the invasion's round (CA + DD, AS 17, a 0: 5
    hits, short of the battery's DS 8, cripple the army) leaves the battery standing, so it
    fails (7.6.1); then A2's blitz lands its two divisions whatever batteries stand (7.6.2),
    AS 3 each: a 9 gives 12 hits, which destroy the crippled army. The colony falls."""
    script = [("bombardment", 0), ("bombardment", 0)]  # the invasion's round
    script += [("bombardment", 0)]  # the blitz's round: A2 has no squadron; the battery fires
    script += [("ground_combat", 9), ("ground_combat", 0)]
    played = play(make(invade_and_blitz()), script)
    missions = [e["mission"] for e in played.of("planetary_combat_started")]
    assert missions == ["invade", "blitz"]
    assert played.of("invasion_failed")
    out = played.outcome["colony"]
    assert [(s["mission"], s["result"]) for s in out["sieges"]] == [
        ("invade", "failed"),
        ("blitz", "conquered"),
    ]
    assert out["sieges"][1]["invaders"]["landed"] == 2
    assert (out["mission"], out["owner_after"], out["seized"]) == ("blitz", "alpha", True)
    assert out["armies"]["destroyed"] == 1


def test_g25_options_blitz_only_and_invasion_only() -> None:
    """``blitz_only``: one blitz by A1 and A2 (four transports); ``invasion_only``: one
    invasion by both, which fails while the battery stands."""
    blitz = play(
        make(invade_and_blitz(invade_and_blitz="blitz_only")),
        [],
        fallback=random_fallback(2),
        all_used=False,
    )
    (start,) = blitz.of("planetary_combat_started")
    assert start["mission"] == "blitz"
    strikers = start["strikers"]
    assert isinstance(strikers, list)
    assert [s for s in strikers if "-TT" in s] == ["A1-TT1", "A1-TT2", "A2-TT1", "A2-TT2"]
    invasion = play(make(invade_and_blitz(invade_and_blitz="invasion_only")), [0, 0])
    (start,) = invasion.of("planetary_combat_started")
    assert start["mission"] == "invade"
    assert invasion.outcome["colony"]["result"] == "failed"
    assert "sieges" not in invasion.outcome["colony"]


# ---- whole battles ---------------------------------------------------------------------------


def test_7_5_bombardment_follows_space_combat() -> None:
    """Space combat first (7.3), the planetary steps after, if the attacker holds orbit."""
    data = siege(6, defender=True, batteries=1, iu=10)
    # space: round 1, phase 4 tiers: CA (CR 7?) ... use a fallback for space, script after
    played = play(make(data), [], fallback=random_fallback(3), all_used=False)
    kinds = [e["event"] for e in played.events]
    out = played.outcome
    assert kinds[-1] == "combat_ended"
    if out["houses"]["alpha"]["fate"] == "holds":
        assert "planetary_combat_started" in kinds
        assert kinds.index("planetary_combat_started") > max(
            i for i, k in enumerate(kinds) if k == "round_started"
        )
        assert out["colony"]["result"] in {"bombarded"}
    else:
        assert out["colony"]["result"] == "orbit_not_held"


def test_7_6_1_invasion_of_an_undefended_colony() -> None:
    """No defender in space: no space combat; one round of bombardment, then the landing."""
    data = siege(7, armies=1, iu=20, shield=2, spaceports=1)
    # bombardment: CA+DD AS; CER 1/4 (a 0) and shield fails (1); no batteries.
    played = play(make(data), [("bombardment", 0), ("shield", 1),
                               ("ground_combat", 9), ("ground_combat", 0)])  # fmt: skip
    out = played.outcome["colony"]
    assert (out["mission"], out["fallen"], out["owner_after"]) == ("invade", True, "alpha")
    assert (out["shield"], out["spaceports"]) == (0, 0)
    assert out["invaders"]["landed"] == 2


def test_retreat_means_no_orbit() -> None:
    data = siege(6, defender=True, batteries=1)
    data["fleets"][0]["roe"] = 0  # ROE 0: retreats at the first check
    played = play(make(data), [], fallback=random_fallback(1), all_used=False)
    assert played.outcome["colony"]["result"] == "orbit_not_held"
    assert "planetary_combat_started" not in [e["event"] for e in played.events]


@st.composite
def battles(draw: st.DrawFn) -> dict[str, Any]:
    order = draw(st.sampled_from([6, 7, 8]))
    data = siege(
        order,
        defender=draw(st.booleans()),
        shield=draw(st.integers(0, 6)),
        batteries=draw(st.integers(0, 3)),
        armies=draw(st.integers(0, 3)),
        marines=draw(st.integers(0, 2)),
        spaceports=draw(st.integers(0, 1)),
        iu=draw(st.integers(0, 50)),
        pu=draw(st.integers(0, 50)),
    )
    data["seed_case"] = draw(st.integers(0, 10_000))
    return data


@settings(max_examples=60, deadline=None)
@given(battles())
def test_properties_of_chained_battles(data: dict[str, Any]) -> None:
    """IU and PU never negative; no marine lands in an invasion while a battery stands;
    assets are seized only in a blitz; every unit accounted for."""
    seed = data.pop("seed_case")
    played = play(make(data), [], fallback=random_fallback(seed), all_used=False)
    out = played.outcome["colony"]
    spec = data["colony"]
    assert out["iu"] >= 0
    assert out["pu"] >= 0
    assert out["iu"] <= spec["iu"]
    if out["seized"]:
        assert data["fleets"][0]["order"] == 8
    for key in ("batteries", "armies", "marines"):
        block = out[key]
        assert block["undamaged"] + block["crippled"] + block["destroyed"] == spec[key]
    if data["fleets"][0]["order"] == 7 and out["invaders"]["landed"]:
        assert out["batteries"]["undamaged"] + out["batteries"]["crippled"] == 0
    survivors = played.outcome["houses"]["alpha"]["survivors"]
    assert sum(survivors.values()) <= 2 + 2 + 2  # CA, DD and the TTs


def test_g24_exact_odds_weigh_the_drawn_order() -> None:
    """The exact engine follows the ``siege_order`` draw: gamma's blitz (no battery, no
    garrison) always takes the colony; if gamma goes first (1/2) alpha's bombardment is
    abandoned and the IU stays 1000; if alpha goes first (1/2) its three rounds cost on average
    3 x 11 IU (AS 17: d10 0-2 x1/4 -> 5, 3-5 x1/2 -> 9, 6-9 x1 -> 17; (15 + 27 + 68) / 10).
    Expected IU: 1000 - 33 / 2 = 983.5."""
    report = exact_odds(parse_ec4x(two_sieges(8))).to_json()
    colony = report["colony"]
    assert colony["falls"] == pytest.approx(1) == colony["seized"]
    assert colony["expected_left"]["iu"] == pytest.approx(983.5)
