"""Which hooks a handler answers, remembered per class (issue 24, 24V-2;
rulesets/ti4/abilities/base.py ``overrides``).

The exact engine asks ``overrides`` for each handler in play at each follow-up it hears (a unit
destroyed by The Crown of Thalnos's rerolls, say): the answer, a fact of the handler's class,
is remembered. These tests check that every registered handler's answer for every hook
declared in rulesets/ti4/hooks.py is the one read from the class afresh, asked by instance or
by class, and asked twice.
"""

from __future__ import annotations

from spacecombat.rulesets.ti4.abilities import base
from spacecombat.rulesets.ti4.abilities.base import HANDLERS, Handler, overrides
from spacecombat.rulesets.ti4.hooks import BY_NAME
from spacecombat.rulesets.ti4.sides import Side


def _afresh(cls: type[Handler], hook: str) -> bool:
    return getattr(cls, hook) is not getattr(Handler, hook)


def test_every_answer_is_the_class_one() -> None:
    assert HANDLERS
    answered = 0
    for cls in HANDLERS.values():
        handler = cls(Side.ATTACKER)
        for hook in BY_NAME:
            expected = _afresh(cls, hook)
            assert overrides(handler, hook) is expected, (cls.id, hook)
            assert overrides(cls, hook) is expected, (cls.id, hook)
            assert overrides(handler, hook) is expected  # (remembered)
            answered += expected
    assert answered  # some handlers answer some hooks
    assert (HANDLERS["crown_of_thalnos_relic"], "after_destroyed") in base._OVERRIDDEN


def test_the_default_answers_nothing() -> None:
    assert not any(overrides(Handler, hook) for hook in BY_NAME)
