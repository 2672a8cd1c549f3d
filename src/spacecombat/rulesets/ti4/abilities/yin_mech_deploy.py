"""Yin mech (Moyin's Ashes) DEPLOY: when you use Indoctrination, you may spend 1 more influence
to place 1 mech instead of 1 infantry (ti4-combat-effects.md §3; data/units.toml). It acts only
through Indoctrination (indoctrination.py offers "play indoctrination: with mech" when this
handler is in play for its owner); it has no hook of its own."""

from __future__ import annotations

from spacecombat.rulesets.ti4.abilities.base import Handler, register


@register
class YinMechDeploy(Handler):
    id = "yin_mech_deploy"
