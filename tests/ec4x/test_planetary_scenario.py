"""Planetary combat chained after space combat (7.3 then 7.5/7.6, ruling E62): the colony's
scenario keys, bad input, and whole battles with scripted draws."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacecombat.core.errors import RuleNotImplemented, ScenarioError
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


def test_e62_several_planetary_attackers_are_refused() -> None:
    data = siege(6)
    data["houses"]["gamma"] = {"prestige": 30, "morale_roll": 1}
    data["fleets"].append(fleet("G1", "gamma", squadron("DD"), order=6))
    with pytest.raises(RuleNotImplemented, match="several houses"):
        make(data)


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
