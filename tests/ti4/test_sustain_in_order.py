"""``policy.sustain: in_order`` in a TI4 battle (issue 14; core/policies.py): a unit uses
SUSTAIN DAMAGE only when it is the next casualty in the casualty order, except units Direct Hit
cannot destroy (Dreadnought II: units.toml ``immune_to_direct_hit``), which sustain first
(ti4-space-combat.md step 4.1; ti4-combat-effects.md §6, Direct Hit)."""

from __future__ import annotations

from tests.helpers import events, run, space


def destroyed(played: object, player: str) -> list[object]:
    return [e["unit"] for e in events(played, "unit_destroyed") if e["player"] == player]  # type: ignore[arg-type]


def sustained(played: object, player: str) -> list[object]:
    return [e["unit"] for e in events(played, "damage_sustained") if e["player"] == player]  # type: ignore[arg-type]


def test_a_dreadnought_i_is_kept_whole_while_a_carrier_is_before_it() -> None:
    scenario = space(
        {"units": "1 dreadnought, 1 carrier", "policy": {"sustain": "in_order"}},
        {"units": "1 cruiser"},
    )
    # round 1: the cruiser hits; the attacker misses with both
    played = run(scenario, [1, 1, 10, 10, 1])
    assert destroyed(played, "attacker")[:1] == ["carrier"]
    assert not sustained(played, "attacker")


def test_a_dreadnought_ii_sustains_first_direct_hit_cannot_destroy_it() -> None:
    scenario = space(
        {
            "units": "1 dreadnought, 1 carrier",
            "upgrades": ["dreadnought"],
            "policy": {"sustain": "in_order"},
        },
        {"units": "1 cruiser"},
    )
    played = run(scenario, [1, 1, 10, 5, 1, 1])
    assert sustained(played, "attacker") == ["dreadnought"]
    assert "carrier" not in destroyed(played, "attacker")
