"""Properties of planetary combat (7.5, 7.6) on its own: random colonies, forces and draws."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from spacecombat.core.decisions import DecisionRequest
from spacecombat.core.engine import Draw
from spacecombat.rulesets.ec4x.planetary.siege import Assault, Mission, Siege
from tests.ec4x.siege_helpers import Played, assault, colony, play, squadron, transport


class RandomPolicy:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, request: DecisionRequest) -> str:
        return self.rng.choice(request.options).text


@st.composite
def sieges(draw: st.DrawFn) -> tuple[Assault, tuple[int, ...], int]:
    mission: Mission = draw(st.sampled_from(["bombard", "invade", "blitz"]))
    strikers = [
        squadron(f"A1-{n}", draw(st.integers(1, 60)), draw(st.integers(4, 40)),
                 breaker=draw(st.sampled_from([0, 0, 50])))
        for n in range(draw(st.integers(0 if mission == "blitz" else 1, 3)))
    ]  # fmt: skip
    strikers += [transport(f"TT{n}") for n in range(draw(st.integers(0, 3)))]
    if not strikers:
        strikers = [transport("TT0")]
    cond = tuple(draw(st.sampled_from([0, 0, 1])) for _ in strikers)
    planet = colony(
        shield=draw(st.integers(0, 6)),
        batteries=draw(st.integers(0, 4)),
        batteries_crippled=draw(st.integers(0, 2)),
        armies=draw(st.integers(0, 4)),
        armies_crippled=draw(st.integers(0, 2)),
        marines=draw(st.integers(0, 3)),
        marines_crippled=draw(st.integers(0, 1)),
        spaceports=draw(st.integers(0, 2)),
        iu=draw(st.integers(0, 80)),
        pu=draw(st.integers(0, 40)),
    )
    options: dict[str, Any] = {
        "battery_excess": draw(st.sampled_from(["pass_on", "lost_while_standing"])),
        "blitz_marine_as": draw(st.sampled_from(["stacked", "once"])),
        "bombard_spaceports": draw(st.sampled_from(["after_ground_forces", "never"])),
        "invasion_bombardment": draw(st.sampled_from(["one_round", "three_rounds"])),
    }
    return assault(mission, *strikers, planet=planet, **options), cond, draw(st.integers(0, 999))


def _played(case: tuple[Assault, tuple[int, ...], int]) -> Played:
    a, cond, seed = case
    rng = random.Random(seed)

    def pick(node: Draw[Siege]) -> int:
        return rng.randrange(len(node.weights))

    policy = RandomPolicy(seed)
    return play(a, cond=cond, fallback=pick, policies={"alpha": policy, "beta": policy})


@settings(max_examples=150, deadline=None)
@given(sieges())
def test_iu_and_pu_never_negative(case: tuple[Assault, tuple[int, ...], int]) -> None:
    played = _played(case)
    for e in played.of("infrastructure_bombarded"):
        assert int(str(e["iu"])) >= 0
        assert int(str(e["pu"])) >= 0
    assert played.outcome["iu"] >= 0
    assert played.outcome["pu"] >= 0
    assert played.outcome["iu"] <= case[0].start.iu
    assert played.outcome["pu"] <= case[0].start.pu


@settings(max_examples=150, deadline=None)
@given(sieges())
def test_no_marine_lands_in_an_invasion_while_a_battery_stands(
    case: tuple[Assault, tuple[int, ...], int],
) -> None:
    played = _played(case)
    if case[0].mission != "invade":
        return
    events = played.events
    for i, e in enumerate(events):
        if e["event"] == "marines_landed":
            before = [x for x in events[:i] if x["event"] == "batteries_bombarded"]
            standing: Any = before[-1]["standing"] if before else [case[0].start.battery_count]
            assert sum(standing) == 0


@settings(max_examples=150, deadline=None)
@given(sieges())
def test_assets_seized_only_in_a_blitz(case: tuple[Assault, tuple[int, ...], int]) -> None:
    out = _played(case).outcome
    if out["seized"]:
        assert case[0].mission == "blitz"
        assert out["fallen"]
    if case[0].mission != "blitz":
        assert all(out[k]["seized"] == 0 for k in ("batteries", "armies", "marines"))
    if out["fallen"] and case[0].mission == "invade":
        assert (out["shield"], out["spaceports"]) == (0, 0)


@settings(max_examples=150, deadline=None)
@given(sieges())
def test_every_unit_is_accounted_for(case: tuple[Assault, tuple[int, ...], int]) -> None:
    a = case[0]
    out = _played(case).outcome
    start = a.start
    for key, count in (
        ("batteries", start.battery_count),
        ("armies", start.armies + start.armies_crippled),
        ("marines", start.marines + start.marines_crippled),
    ):
        block = out[key]
        assert block["undamaged"] + block["crippled"] + block["destroyed"] == count
        assert min(block.values()) >= 0
        assert block["seized"] in (0, block["undamaged"] + block["crippled"])
    invaders = out["invaders"]
    assert (
        invaders["undamaged"] + invaders["crippled"] + invaders["destroyed"] == invaders["landed"]
    )
    if out["fallen"]:
        assert out["armies"]["undamaged"] + out["armies"]["crippled"] == 0
        assert invaders["undamaged"] + invaders["crippled"] > 0
