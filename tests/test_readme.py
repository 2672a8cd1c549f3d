"""The README stays true: its test command is what CI runs, its example exists, its Python runs."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from spacecombat.cli import main

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
COMMANDS = re.findall(r"```sh\n(python3 -m venv .*?)\n```", README)


def test_readme_has_the_two_setup_commands() -> None:
    assert len(COMMANDS) == 2


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == COMMANDS[1]


def test_readme_example_scenario_exists() -> None:
    example = re.search(r"resolve (\S+\.yaml)", COMMANDS[0])
    assert example is not None
    assert (ROOT / example.group(1)).exists()


def test_readme_python_runs() -> None:
    for block in re.findall(r"```python\n(.*?)```", README, flags=re.DOTALL):
        exec(compile(block, "README.md", "exec"), {})


#: "`spacecombat ...` prints (abridged):" followed by a text block: what the command prints
PRINTED = re.findall(
    r"`(spacecombat [^`\n]+)`[^`]*? prints(?: \(abridged\))?:\n\n```text\n(.*?)```",
    README,
    flags=re.DOTALL,
)


def test_readme_shows_printed_examples() -> None:
    assert len(PRINTED) >= 3


@pytest.mark.parametrize(("command", "shown"), PRINTED, ids=[c for c, _ in PRINTED])
def test_readme_printed_example_is_what_the_command_prints(
    command: str,
    shown: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every line the README shows is printed by the command, in the same order ("..." marks
    lines left out of an abridged example)."""
    monkeypatch.chdir(ROOT)
    status = main(shlex.split(command)[1:])
    printed = [line.rstrip() for line in capsys.readouterr().out.splitlines()]
    assert status == 0
    at = 0
    for line in shown.splitlines():
        if line.strip() in ("...", "…"):
            continue
        assert line.rstrip() in printed[at:], f"README line not printed (in order): {line!r}"
        at = printed.index(line.rstrip(), at) + 1


def test_the_faction_example_shows_the_engines_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The README's battle with a flagship, a technology and Morale Boost (issue 14) shows what
    ``spacecombat odds`` prints for it, line for line."""
    found = re.search(
        r"```sh\n\.venv/bin/spacecombat (odds \S+)\n```\n\n```\n(.*?)\n…\n```", README, re.S
    )
    assert found is not None
    assert main(shlex.split(found.group(1))) == 0
    printed = capsys.readouterr().out.splitlines()
    shown = found.group(2).splitlines()
    assert printed[: len(shown)] == shown
