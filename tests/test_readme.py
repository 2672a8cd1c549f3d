"""The README stays true: its test command is what CI runs, its example exists, its Python runs."""

from __future__ import annotations

import re
from pathlib import Path

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
