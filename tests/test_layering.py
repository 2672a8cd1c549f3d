"""The package's layers (issue 21; tools/imports.py): no import cycle, counting imports inside
functions and the packages an import runs; no import up the layers; imports inside functions
only for start-up time, each saying so, and few; a TI4 ability reaches the engine only through
the effects API (rulesets/ti4/effects.py), never a procedure. (That every module imports by its
own name, and the public functions stay public: tests/test_public_names.py.)"""

from __future__ import annotations

from tools import imports

KNOWN = imports.modules()
EDGES = imports.imports(KNOWN)


def test_no_import_cycle() -> None:
    assert imports.cycles(KNOWN, EDGES) == []


def test_no_upward_import() -> None:
    assert [f"{e.source}:{e.line} -> {e.target}" for e in imports.upward(EDGES)] == []


def test_imports_inside_functions_are_few_and_say_why() -> None:
    local = [e for e in EDGES if e.local]
    statements = {(e.source, e.line) for e in local}
    assert len(statements) <= imports.LOCAL_IMPORTS_ALLOWED
    silent = sorted({f"{e.source}:{e.line}" for e in local if "start-up" not in e.comment})
    assert silent == [], "an import inside a function says it is kept for start-up time"


def test_ti4_abilities_import_no_procedure() -> None:
    reaching = sorted(
        f"{e.source} -> {e.target}"
        for e in EDGES
        if e.source.startswith("spacecombat.rulesets.ti4.abilities.")
        and e.target.startswith("spacecombat.rulesets.ti4.procedures")
    )
    assert reaching == []
