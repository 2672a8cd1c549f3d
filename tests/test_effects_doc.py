"""docs/effects.md, the catalogue of TI4 combat effects, is what tools/effects_doc.py makes of
the rules data, the registered handlers and the test files; every implemented handler has its
own test file; every handler id the data names can be a module's name. And the effects the
data calls ``none`` because they never act in a battle (docs/rulings.md 14E-1, 14E-2:
DEPLOY, movement, activation, capture, after-combat production, adjacency laws) are never a
reason to refuse one, and change nothing in it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.abilities.base import HANDLERS
from spacecombat.rulesets.ti4.hooks import HOOKS
from spacecombat.rulesets.ti4.rules import load
from spacecombat.rulesets.ti4.setup import build
from tests.helpers import space
from tools import effects_doc
from tools.effects_doc import (
    DOC,
    derived_window,
    entries,
    handler_ids,
    handler_test_file,
    is_module_name,
    render,
)


def test_the_committed_catalogue_is_current() -> None:
    """Fails when a handler or a data entry was added without ``python -m tools.effects_doc``."""
    assert DOC.read_text(encoding="utf-8") == render(), "run: python -m tools.effects_doc"


def test_every_implemented_rule_entry_has_a_test_file() -> None:
    untested = sorted(
        {e.handler or "" for e in entries(load()) if e.implemented and handler_test_file(e) is None}
    )
    assert not untested, f"handlers without tests/ti4/.../test_<handler>.py: {untested}"


def test_every_handler_id_is_a_module_name() -> None:
    ids = handler_ids(load())
    assert ids
    assert [h for h in ids if not is_module_name(h)] == []


def test_every_registered_handler_is_in_the_catalogue() -> None:
    """A handler no data entry names would be missing from docs/effects.md (the active
    system's nebula is no data record)."""
    assert set(HANDLERS) - set(handler_ids(load())) <= {"nebula"}


@pytest.mark.parametrize("name", ["2ram", "l1z1x-commander", "Foresight", "class", "a b"])
def test_names_that_cannot_be_modules(name: str) -> None:
    assert not is_module_name(name)


def test_windows_read_off_a_text() -> None:
    assert derived_window("ACTION: spend a token") == "*pre*"
    assert derived_window("All your units' combat rolls get +1.") == "*every combat roll*"
    assert derived_window("After each round of space combat you may ...") == "*end of round*"
    assert derived_window("Limit 1 per player.") == "—"


def test_every_kind_is_listed_with_a_summary() -> None:
    text = render()
    for _kind, title, _file in effects_doc.KINDS:
        assert f"## {title} (" in text
    found = entries(load())
    assert f"**Summary.** {len(found)} effects:" in text
    # one row per entry, and no dates (the text is a function of the tree)
    # (the hook section: a header and one row per hook; TI3's sections, after TI4's, have their
    # own tests: tests/ti3/cards/test_action_cards.py, tests/ti3/test_effects_doc_races.py)
    ti4 = text.split("\n## TI3")[0]
    rows = sum(line.startswith("| ") for line in ti4.splitlines())
    assert rows == len(found) + len(effects_doc.KINDS) + len(HOOKS) + 1
    assert render() == text


def test_none_entries_have_no_handler_and_no_engine_form() -> None:
    for entry in entries(load()):
        if entry.combat != "rule":
            assert effects_doc.engine_form(entry) == "—"
            assert not entry.implemented


def test_check_reports_an_out_of_date_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = tmp_path / "effects.md"
    monkeypatch.setattr(effects_doc, "DOC", doc)
    doc.write_text("old\n", encoding="utf-8")
    assert effects_doc.main(["--check"]) == 1
    assert "out of date" in capsys.readouterr().err
    assert doc.read_text(encoding="utf-8") == "old\n"  # --check never writes
    assert effects_doc.main([]) == 0
    assert doc.read_text(encoding="utf-8") == render()
    assert effects_doc.main(["--check"]) == 0


CRUISERS = {"units": "2 cruiser"}
DESTROYERS = {"units": "2 destroyer"}

#: (what is added, the battle with it, the same battle without it)
WITHOUT_EFFECT: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        "salvage_operations",
        space({**CRUISERS, "technologies": ["salvage_operations"]}, DESTROYERS),
        space(CRUISERS, DESTROYERS),
    ),
    (
        "nullification_field",
        space(CRUISERS, {**DESTROYERS, "technologies": ["nullification_field"]}),
        space(CRUISERS, DESTROYERS),
    ),
    (
        "valefar_assimilator_x",
        space({**CRUISERS, "technologies": ["valefar_assimilator_x"]}, DESTROYERS),
        space(CRUISERS, DESTROYERS),
    ),
    *(
        (law, space(CRUISERS, DESTROYERS, laws=[law]), space(CRUISERS, DESTROYERS))
        for law in ("enforced_travel_ban", "nexus_sovereignty", "wormhole_reconstruction")
    ),
]


@pytest.mark.parametrize(("effect", "scenario", "baseline"), WITHOUT_EFFECT)
def test_a_none_effect_changes_nothing(
    effect: str, scenario: dict[str, Any], baseline: dict[str, Any]
) -> None:
    assert build(parse_ti_scenario(scenario)).handlers == ()
    got, expected = odds(scenario, fractions=True), odds(baseline, fractions=True)
    assert (got.attacker_win, got.defender_win, got.draw) == (
        expected.attacker_win,
        expected.defender_win,
        expected.draw,
    )
    assert got.attacker_win not in (0, 1)  # a battle whose result is in doubt


#: factions and units whose abilities are all ``none`` once DEPLOY, capture, movement and
#: activation effects are (Coalescence, Devour, Foresight; Ouranos, Hecatoncheires, Scavenger
#: Zeta, Icarus Drive, Starlancer, The Terror Between, Reanimator)
FACTION_SIDES = [
    {"faction": "titans", "units": "1 flagship, 1 carrier, 1 mech"},
    {"faction": "vuilraith", "units": "1 flagship, 1 carrier, 1 mech"},
    {"faction": "naalu", "units": "2 cruiser"},
    {"faction": "saar", "units": "1 carrier, 1 mech"},
    {"faction": "creuss", "units": "1 carrier, 1 mech"},
    {"faction": "mahact", "units": "1 carrier, 1 mech"},
]


@pytest.mark.parametrize("side", FACTION_SIDES, ids=[s["faction"] for s in FACTION_SIDES])
def test_a_faction_whose_effects_never_act_is_not_refused(side: dict[str, Any]) -> None:
    scenario = space(side, DESTROYERS)
    assert build(parse_ti_scenario(scenario)).handlers == ()
    report = odds(scenario)
    assert report.attacker_win + report.defender_win + report.draw == pytest.approx(1, abs=1e-9)
