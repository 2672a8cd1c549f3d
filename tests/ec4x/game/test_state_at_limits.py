"""Issue 23 "Scale": a game at the documented limits (docs/limits.md: 2,000 systems, 5,000
fleets) plays a turn, and the state that turn writes is read back as the next turn's input:
the file limit of a game state (``MAX_STATE_BYTES``) fits the largest state the limits allow.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from benchmarks.ec4x_scale import big_map, game

from spacecombat.cli import main
from spacecombat.cli.turn import dumps
from spacecombat.core.limits import (
    MAX_FLEETS,
    MAX_SCENARIO_BYTES,
    MAX_STATE_BYTES,
    MAX_SYSTEMS,
    MAX_UNITS_PER_SIDE,
)
from spacecombat.rulesets.ec4x.turn.game import load_game


@pytest.mark.slow
def test_a_turn_at_the_limits_writes_a_state_its_next_turn_reads(tmp_path: Path) -> None:
    state, orders = game(MAX_SYSTEMS, MAX_FLEETS)
    (tmp_path / "state.json").write_text(dumps(state.to_json()))
    (tmp_path / "orders.json").write_text(dumps(orders.model_dump(mode="json", exclude_none=True)))
    args = [str(tmp_path / "state.json"), str(tmp_path / "orders.json")]
    assert main(["turn", *args, "--out", str(tmp_path / "next.json")]) == 0
    size = (tmp_path / "next.json").stat().st_size
    assert MAX_SCENARIO_BYTES < size < MAX_STATE_BYTES  # the former 1 MB limit refused it
    again = load_game(tmp_path / "next.json")
    assert again.turn == state.turn + 1


def largest_state() -> dict[str, Any]:
    """The largest state the limits allow, ids as the map generator writes them: 2,000
    systems (a colony on each with every field set), the most lanes, and 5,000 fleets of 200
    units each (one-ship squadrons, the longest way to write 200 units), under orders."""
    data = big_map(2026, MAX_SYSTEMS, 8)
    houses = sorted(data["houses"])
    ids = [s["id"] for s in data["systems"]]
    for n, system in enumerate(data["systems"]):
        planet = system["planets"][0]
        planet.setdefault(
            "colony",
            {
                "owner": houses[n % len(houses)],
                "pu": 1_000_000,
                "iu": 1_000_000,
                "shield": 6,
                "batteries": 200,
                "armies": 200,
                "marines": 200,
                "fighters": 200,
                "spaceports": 200,
                "shipyards": 200,
                "starbases": [{"state": "crippled", "eli": 5}] * 4,
            },
        )
    pairs = {tuple(sorted(lane["systems"])) for lane in data["lanes"]}
    step = 1
    while len(data["lanes"]) < 6 * MAX_SYSTEMS:  # more lanes, up to the limit of 6 a system
        for a, b in zip(ids, ids[step:], strict=False):
            if len(data["lanes"]) >= 6 * MAX_SYSTEMS:
                break
            if (min(a, b), max(a, b)) not in pairs:
                pairs.add((min(a, b), max(a, b)))
                data["lanes"].append({"systems": [a, b], "class": "restricted"})
        step += 1
    data["fleets"] = [
        {
            "id": f"{houses[n % len(houses)]}-x{n}",
            "owner": houses[n % len(houses)],
            "location": ids[n % len(ids)],
            "squadrons": [{"flagship": "DD", "state": "crippled"}] * MAX_UNITS_PER_SIDE,
            "order": {"code": 1, "target": ids[(n * 7) % len(ids)]},
            "roe": 10,
        }
        for n in range(MAX_FLEETS)
    ]
    return data


@pytest.mark.slow
def test_the_largest_state_the_limits_allow_fits_the_file_limit(tmp_path: Path) -> None:
    text = dumps(largest_state())
    assert len(text.encode()) <= MAX_STATE_BYTES
    path = tmp_path / "state.json"
    path.write_text(text)
    state = load_game(path)
    assert (len(state.systems), len(state.fleets)) == (MAX_SYSTEMS, MAX_FLEETS)


def test_a_state_over_the_file_limit_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"ruleset": "ec4x"}) + " " * MAX_STATE_BYTES)
    assert main(["turn", str(path), str(path)]) == 2
    assert f"larger than the limit of {MAX_STATE_BYTES:,} bytes" in capsys.readouterr().err
