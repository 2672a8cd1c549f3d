"""The hook table (rulesets/ti4/hooks.py) is the one declaration of the questions handlers answer:
``Handler``'s defaults, the fast-path gate and docs/effects.md all follow it. The guard that the
"in rounds" flags are right is tests/ti4/test_fast_path_guard.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import spacecombat.rulesets.ti4.abilities  # noqa: F401  (registers every handler)
from spacecombat.rulesets.ti4 import hooks
from spacecombat.rulesets.ti4.abilities.base import (
    HANDLERS,
    Handler,
    acts_in_rounds,
    overrides,
)
from spacecombat.rulesets.ti4.hooks import BY_NAME, HOOKS, IN_ROUNDS, Follow, check_declared
from spacecombat.rulesets.ti4.sides import Side

TI4 = Path(hooks.__file__).resolve().parent


@pytest.mark.parametrize("hook", HOOKS, ids=lambda h: h.name)
def test_each_hook_is_asked_where_the_table_says(hook: hooks.Hook) -> None:
    # the table names the modules that ask the hook; each of them does (a name moved or renamed
    # leaves a stale table, caught here)
    for module in hook.asked_by:
        text = (TI4 / module).read_text()
        assert re.search(rf"\b{hook.name}\b", text), f"{module} does not ask {hook.name}"


def test_handler_defines_exactly_the_declared_hooks() -> None:
    defined = frozenset(
        name
        for name, value in vars(Handler).items()
        if callable(value) and not name.startswith("_") and not isinstance(value, type)
    )
    check_declared(defined)  # raises if they differ
    with pytest.raises(TypeError, match="not declared"):
        check_declared(defined | {"a_new_hook"})
    with pytest.raises(TypeError, match="declared but not defined"):
        check_declared(defined - {"in_window"})


def test_the_fast_path_gate_reads_the_table() -> None:
    # a handler is off product form exactly when it answers a hook flagged in rounds that its
    # class does not declare it answers in a way the product form keeps (issue 24)
    for handler_id, cls in HANDLERS.items():
        handler = cls(Side.ATTACKER)
        flagged = {hook.name for hook in HOOKS if hook.in_rounds and overrides(cls, hook.name)}
        assert acts_in_rounds(handler) == bool(flagged - cls.keeps_product_form), handler_id
        assert cls.keeps_product_form <= flagged, handler_id


def test_a_hook_flag_dropped_changes_the_gate(monkeypatch: pytest.MonkeyPatch) -> None:
    # the Winnu flagship answers combat_roll alone among the hooks flagged in rounds (roll_key
    # and sets_combat_dice are its companions): without that flag it would be solved in
    # product form (the mistake that made the table)
    winnu = HANDLERS["winnu_flagship_dice"](Side.ATTACKER)
    assert acts_in_rounds(winnu)
    monkeypatch.setattr(
        "spacecombat.rulesets.ti4.abilities.base.IN_ROUNDS", IN_ROUNDS - {"combat_roll"}
    )
    assert not acts_in_rounds(winnu)


def test_every_handler_answering_in_window_declares_where() -> None:
    for handler_id, cls in HANDLERS.items():
        if overrides(cls, "in_window"):
            assert cls.acts is not None, handler_id
            assert cls.acts.windows, handler_id


def test_a_companion_hook_is_never_answered_alone() -> None:
    # roll_key says what combat_roll reads: answering it alone is refused where the class is
    # defined, so the gate need not flag it
    with pytest.raises(TypeError, match="roll_key without combat_roll"):

        class _Lonely(Handler):  # pragma: no cover - the class statement raises
            id = "test_lonely"

            def roll_key(self, setup: object, state: object, roller: object) -> object:
                return None


def test_each_follow_up_is_heard_through_a_declared_hook() -> None:
    heard = {kind: kind.hook for kind in Follow}
    assert heard[Follow.MUST_DESTROY] is None  # its player answers it, not a handler
    assert all(hook in BY_NAME for hook in heard.values() if hook is not None)
    assert heard[Follow.OWN] == "follow_up"
