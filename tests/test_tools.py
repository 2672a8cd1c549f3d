"""The developer tools that issue 21's checks rest on: the import graph (tools/imports.py) finds
a cycle however it is hidden, the answers' comparison (tools/answers.py) tells a change of answer
from float noise, and the fast loop's coverage (tools/fast_coverage.py) counts a module as
exercised only when a function of it ran."""

from __future__ import annotations

from pathlib import Path

from tools import answers, fast_coverage, imports


def _package(root: Path, files: dict[str, str]) -> dict[str, Path]:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return {
        ".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): p
        for p in sorted(root.rglob("*.py"))
    }


def test_an_import_inside_a_function_still_makes_a_cycle(tmp_path: Path) -> None:
    known = _package(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg import b\n",
            "pkg/b.py": "def f() -> None:\n    from pkg import a\n",
        },
    )
    edges = imports.imports(known)
    assert [e.local for e in edges if e.source == "pkg.b"] == [True]
    assert imports.cycles(known, edges) == [["pkg.a", "pkg.b"]]


def test_a_package_that_imports_its_modules_is_part_of_a_cycle(tmp_path: Path) -> None:
    # a registry package imports its modules; a module outside it that reaches one of them
    # runs the package first: outside -> registry -> plugin -> outside
    known = _package(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/outside.py": "from pkg.registry.base import X\n",
            "pkg/registry/__init__.py": "from pkg.registry import plugin\n",
            "pkg/registry/base.py": "X = 1\n",
            "pkg/registry/plugin.py": "from pkg.registry.base import X\nfrom pkg import outside\n",
        },
    )
    found = imports.cycles(known, imports.imports(known))
    assert found == [["pkg.outside", "pkg.registry", "pkg.registry.plugin"]]


def test_imports_under_type_checking_are_not_edges(tmp_path: Path) -> None:
    known = _package(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import b\n"
            ),
            "pkg/b.py": "from pkg import a\n",
        },
    )
    assert imports.cycles(known, imports.imports(known)) == []


def test_answers_differ_beyond_the_tolerance_only() -> None:
    same = {"odds": {"attacker_win": 0.5}, "log": [{"event": "x"}]}
    noise = {"odds": {"attacker_win": 0.5 + 1e-14}, "log": [{"event": "x"}]}
    moved = {"odds": {"attacker_win": 0.5 + 1e-9}, "log": [{"event": "x"}]}
    edited = {"odds": {"attacker_win": 0.5}, "log": [{"event": "y"}]}
    assert list(answers.differences(same, noise)) == []
    assert list(answers.differences(same, moved)) == ["/odds/attacker_win: 0.5 against 0.500000001"]
    assert len(list(answers.differences(same, edited))) == 1
    assert list(answers.differences({"a": 1}, {"b": 1})) == ["/a: only in A", "/b: only in B"]
    assert list(answers.differences([1, 2], [1])) == [": 2 against 1 entries"]
    # a boolean is not a number to compare within a tolerance
    assert len(list(answers.differences({"x": True}, {"x": 1}))) == 1


def test_a_module_counts_as_exercised_only_by_the_lines_of_its_functions(tmp_path: Path) -> None:
    # its top level runs when it is imported; only a function's body shows it was exercised
    module = tmp_path / "m.py"
    module.write_text(
        "X = 1\n\n\ndef f() -> int:\n    return X\n\n\n"
        "class C:\n    def g(self) -> int:\n        y = 2\n        return y\n"
    )
    assert fast_coverage.function_lines(module) == {5, 10, 11}
    empty = tmp_path / "__init__.py"
    empty.write_text('"""Only a docstring."""\n')
    assert fast_coverage._empty(empty)
    assert not fast_coverage._empty(module)
