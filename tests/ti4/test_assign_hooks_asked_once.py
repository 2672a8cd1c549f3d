"""Who is asked about an assignment of hits, made once (issue 24, 24N-1;
rulesets/ti4/procedures/assign_hits.py ``_hooks``; ti4-space-combat-wiki.md, "Assign Hits").

``leap_key`` and ``blind`` (the exact engine's leaps over a player's whole assignment) asked,
at each call, which handlers are asked about the assignment (each once, in the order forbid,
lend, before, after, destroyed), which of them hear what is assigned, and whether one answers
``blind_while_assigning``. These are values of the setup and the cause alone and are now made
once with the rest of ``_hooks``. Checked here: at every ``_hooks`` asked while battles of the
faction mix with handlers around the assignment are solved (Direct Hit, Reflective Shielding,
the Tellurian, the Crown of Thalnos, Technological Singularity), each is equal to the one made
afresh from the handlers' own hooks.
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat import odds
from spacecombat.rulesets.ti4.abilities.base import overrides
from spacecombat.rulesets.ti4.procedures import assign_hits
from spacecombat.rulesets.ti4.setup import BattleSetup

#: battles of the faction mix (``benchmarks.faction_exact --seed 2026``) whose assignments
#: have handlers asked, each solved in under a second
NUMBERS = (40, 55, 116, 163)


@pytest.fixture(scope="module")
def asked() -> list[dict[str, Any]]:
    drawn = battles(max(NUMBERS) + 1, 2026)
    return [drawn[n] for n in NUMBERS]


def test_every_hooks_equal_to_the_one_made_afresh(
    asked: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    made = assign_hits._hooks
    checked = 0
    some_asked = 0
    some_blind = 0

    def afresh(setup: BattleSetup, cause: str) -> Any:
        nonlocal checked, some_asked, some_blind
        hooks = made(setup, cause)
        handlers = setup.handlers
        listed = (
            *hooks.forbid,
            *hooks.lend,
            *(handlers[i] for i in (*hooks.before, *hooks.after, *hooks.destroyed)),
        )
        assert hooks.asked == tuple(dict.fromkeys(listed))
        assert hooks.heard == {handlers[i] for i in (*hooks.after, *hooks.destroyed)}
        assert hooks.some_blind == any(
            overrides(h, "blind_while_assigning") for h in dict.fromkeys(listed)
        )
        checked += 1
        some_asked += bool(hooks.asked)
        some_blind += hooks.some_blind
        return hooks

    monkeypatch.setattr(assign_hits, "_hooks", afresh)
    for scenario in asked:
        odds(scenario, fallback=False)
    assert checked > 1000
    assert some_asked > 1000
    assert some_blind > 100
