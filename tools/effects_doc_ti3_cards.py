"""docs/effects.md's TI3 part for issue 27A: the TI3 action cards (data/action_cards.toml) and
the Sabotage Runs option, written by ``python -m tools.effects_doc`` after the TI4 tables
(``render`` calls ``lines``). The text is a function of the data, the card handlers
(``spacecombat.rulesets.ti3.cards``) and the test files alone."""

from __future__ import annotations

from pathlib import Path

from spacecombat.core.rulesdata import CardDef
from spacecombat.rulesets.ti3.cards import CARDS, IN_ROUNDS
from spacecombat.rulesets.ti3.rules import load

REPO = Path(__file__).resolve().parents[1]
TESTS = REPO / "tests" / "ti3"

COLUMNS = (
    "Name",
    "Source",
    "Window",
    "In battle",
    "Handler",
    "Implemented",
    "Test",
    "Exact engine",
)

SABOTAGE_RUNS = """\
## TI3 Sabotage Runs (Shattered Empire option)

`options.sabotage_runs: true` (default false). A pre-combat step of the space battle, which the
defender orders among the others (`pre_combat_order`), but never before anti-fighter barrage:
each player whose opponent has a War Sun may send fighters (a `play_card` decision, card
`sabotage_run`; stock: all of them; `policy.play: {sabotage_run: never}`: none); the War Sun
fires one die per fighter at its combat value (`sabotage_run_war_sun_fire`, default true); a
fighter left that rolls a 10 destroys one War Sun outright; fighters without a 10 are destroyed
(`sabotage_run_fighters_lost`, default true). Module
`src/spacecombat/rulesets/ti3/procedures/sabotage_run.py`; rulings docs/rulings.md 27A-1 to
27A-5; test `tests/ti3/test_sabotage_run.py` (scripted dice per step, exact odds derived by
hand). Exact engine: the step comes before the rounds, so the rounds keep the product form.
"""


def _test_file(card: CardDef) -> Path | None:
    if card.handler is None:
        return None
    path = TESTS / "cards" / f"test_{card.handler}.py"
    return path if path.is_file() else None


def _row(card: CardDef) -> str:
    implemented = card.handler in CARDS
    status = "—"
    engine = "—"
    if card.combat == "rule":
        status = "yes" if implemented else "refused"
        if implemented:
            engine = "state graph" if card.handler in IN_ROUNDS else "product form"
    test = _test_file(card)
    cells = (
        card.name,
        card.source,
        card.window,
        card.combat,
        f"`{card.handler}`" if card.handler else "—",
        status,
        f"`{test.relative_to(REPO).as_posix()}`" if test else "—",
        engine,
    )
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


def _implemented(done: int, acting: int) -> str:
    """How many of the cards that act are played; any other is refused by name when held."""
    if done == acting:
        return "every one implemented"
    return f"{done} implemented, the others refused by name when held"


def lines() -> list[str]:
    """The TI3 action cards table, then the Sabotage Runs note."""
    cards = sorted(load().cards.values(), key=lambda c: (c.name.lower(), c.name))
    acting = sum(c.combat == "rule" for c in cards)
    done = sum(c.combat == "rule" and c.handler in CARDS for c in cards)
    out = [
        f"## TI3 action cards (`ti3/data/action_cards.toml`, {len(cards)})",
        "",
        "A side lists the cards it holds in `action_cards`; playing one is its `play_card` "
        "decision in the card's window (`policy.play`: `never` or `{round: N}`). "
        f"{acting} act in a battle ({_implemented(done, acting)}); "
        f"{len(cards) - acting} never do (holding them changes nothing). The list is what our "
        "sources let us read (docs/rulings.md 27A-8, 27S-1, 27S-17): the base deck's cards with "
        "their texts, and those of the expansions we found. Bunker, which the seed's reference "
        "lists, is TI4's card and in no TI3 deck list (27X-2).",
        "",
        "| " + " | ".join(COLUMNS) + " |",
        "|" + "---|" * len(COLUMNS),
    ]
    out += [_row(c) for c in cards]
    out.append("")
    out += SABOTAGE_RUNS.splitlines()
    out.append("")
    return out
