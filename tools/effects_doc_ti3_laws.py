"""docs/effects.md's TI3 laws table (issue 27, docs/rulings.md 27Z): the TI3 political cards
a scenario may list in ``laws`` (rulesets/ti3/data/political_cards.toml), written by
``python -m tools.effects_doc`` after the TI3 action cards. The text is a function of the data,
the law handlers (``spacecombat.rulesets.ti3.abilities.laws``) and the test files alone."""

from __future__ import annotations

from pathlib import Path

from spacecombat.rulesets.ti3.abilities.laws import LAW_HANDLERS
from spacecombat.rulesets.ti3.laws import PoliticalCard, political_cards

REPO = Path(__file__).resolve().parents[1]
TESTS = REPO / "tests" / "ti3" / "laws"

COLUMNS = ("Name", "Box", "Elects", "In battle", "Handler", "Implemented", "Test")

#: what each ``combat`` value means in the table
_STATUS = {"none": "—", "unverified": "refused (effect unknown)"}


def _test_file(card: PoliticalCard) -> str:
    if card.handler is None:
        return "—"
    path = TESTS / f"test_{card.handler}.py"
    return f"`{path.relative_to(REPO).as_posix()}`" if path.is_file() else "—"


def _status(card: PoliticalCard) -> str:
    if card.combat == "rule":
        return "yes" if card.handler in LAW_HANDLERS else "refused"
    return _STATUS[card.combat]


def _row(card: PoliticalCard) -> str:
    cells = (
        card.name,
        card.expansion,
        card.elect or "—",
        card.combat,
        f"`{card.handler}`" if card.handler else "—",
        _status(card),
        _test_file(card),
    )
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


def lines() -> list[str]:
    """The TI3 laws table."""
    cards = sorted(political_cards().values(), key=lambda c: (c.name.lower(), c.name))
    acting = [c for c in cards if c.combat == "rule"]
    done = [c for c in acting if c.handler in LAW_HANDLERS]
    unknown = [c for c in cards if c.combat == "unverified"]
    never = len(cards) - len(acting) - len(unknown)
    return [
        f"## TI3 laws (`ti3/data/political_cards.toml`, {len(cards)})",
        "",
        "A TI3 scenario lists the political cards in force in `laws` (and in `elected` the "
        "player an acting card elects: attacker or defender). "
        f"{len(acting)} act in a battle ({len(done)} implemented, the others refused by name); "
        f"{never} never do (listing them changes nothing); {len(unknown)} are cards of the "
        "deck whose effect none of our sources gives, refused by name rather than guessed. "
        "Sources and rulings: docs/rulings.md 27Z (PC_Twi's political cards, the Clojure TI3 "
        "deck's, the fandom list's opening, ti3-facts.md section 11).",
        "",
        "| " + " | ".join(COLUMNS) + " |",
        "|" + "---|" * len(COLUMNS),
        *(_row(c) for c in cards),
        "",
    ]
