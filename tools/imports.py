"""The import graph of ``src/spacecombat``: cycles, imports inside functions, upward imports.

``python -m tools.imports`` prints the three; ``tests/test_layering.py`` holds the package to
them (no cycle, counting imports inside functions; at most ``LOCAL_IMPORTS_ALLOWED`` imports
inside functions, each with a comment saying it is kept for start-up time; no import that goes
up the layers of ``LAYERS``).

An import inside a function counts as an edge of the graph like any other: hiding an import in
a function to dodge a cycle leaves the cycle in the design. Imports under ``if TYPE_CHECKING:``
are left out (they are never executed).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "src"
PACKAGE = "spacecombat"

#: at most this many imports inside functions (kept for start-up time only, each commented)
LOCAL_IMPORTS_ALLOWED = 40

#: a module of the first package may not import one of the second (the layers, lowest first:
#: core knows nothing of scenarios or rulesets; scenarios nothing of rulesets; the web nothing
#: of the command line)
FORBIDDEN: tuple[tuple[str, str], ...] = (
    ("spacecombat.core", "spacecombat.scenario"),
    ("spacecombat.core", "spacecombat.rulesets"),
    ("spacecombat.core", "spacecombat.analysis"),
    ("spacecombat.core", "spacecombat.web"),
    ("spacecombat.core", "spacecombat.cli"),
    ("spacecombat.scenario", "spacecombat.rulesets"),
    ("spacecombat.web", "spacecombat.cli"),
    ("spacecombat.rulesets", "spacecombat.cli"),
    ("spacecombat.rulesets", "spacecombat.web"),
)


@dataclass(frozen=True)
class Import:
    """One import statement's target module, where it is, and whether it is inside a function."""

    source: str
    target: str
    line: int
    local: bool
    comment: str


def modules() -> dict[str, Path]:
    """Every module of the package, by dotted name."""
    found: dict[str, Path] = {}
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and (
        (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
        or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
    )


def _walk(node: ast.AST, local: bool) -> Iterator[tuple[ast.AST, bool]]:
    for child in ast.iter_child_nodes(node):
        if _type_checking(child):
            continue
        inner = local or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        yield child, inner
        yield from _walk(child, inner)


def imports(known: dict[str, Path]) -> list[Import]:
    """Every import of a module of the package by a module of the package."""
    found: list[Import] = []
    for name, path in known.items():
        text = path.read_text()
        lines = text.splitlines()
        tree = ast.parse(text)
        is_package = path.name == "__init__.py"
        for node, local in _walk(tree, False):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = name.split(".") if is_package else name.split(".")[:-1]
                    base = base[: len(base) - (node.level - 1)]
                    module = ".".join([*base, node.module] if node.module else base)
                else:
                    module = node.module or ""
                # ``from X import Y`` reads the module X.Y when there is one, else a name of X
                for alias in node.names:
                    sub = f"{module}.{alias.name}"
                    targets.append(sub if sub in known else module)
            else:
                continue
            line = node.lineno
            around = " ".join(lines[max(0, line - 3) : line])
            comment = around.split("#", 1)[1] if "#" in around else ""
            for target in _with_packages(targets, name, known):
                found.append(Import(name, target, line, local, comment))
    return found


def _with_packages(targets: list[str], source: str, known: dict[str, Path]) -> list[str]:
    """``targets`` and the packages Python imports first to reach them (``import a.b.c`` runs
    ``a/__init__`` and ``a/b/__init__``), but not ``source``'s own packages, which are imported
    before it anyway: a package whose ``__init__`` imports its modules (a registry) is then a
    cycle with any module outside it that reaches one of them through it."""
    ancestors = {source.rsplit(".", n)[0] for n in range(1, source.count(".") + 1)}
    found: list[str] = []
    for target in targets:
        parts = target.split(".")
        for end in range(1, len(parts) + 1):
            module = ".".join(parts[:end])
            if (
                module in known
                and module != source
                and module not in ancestors
                and module not in found
            ):
                found.append(module)
    return found


def cycles(known: dict[str, Path], edges: list[Import]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    graph: dict[str, set[str]] = {name: set() for name in known}
    for edge in edges:
        graph[edge.source].add(edge.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = 0
    sys.setrecursionlimit(10_000)

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return sorted(components)


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def upward(edges: list[Import]) -> list[Import]:
    """The imports that go up the layers (``FORBIDDEN``)."""
    return [
        edge
        for edge in edges
        if any(_within(edge.source, low) and _within(edge.target, high) for low, high in FORBIDDEN)
    ]


def main() -> int:
    known = modules()
    edges = imports(known)
    found = cycles(known, edges)
    print(f"{len(found)} import cycle(s)")
    for component in found:
        print("  " + " <-> ".join(component))
    local = [edge for edge in edges if edge.local]
    print(f"{len(local)} import(s) inside functions (at most {LOCAL_IMPORTS_ALLOWED})")
    for edge in local:
        print(f"  {edge.source}:{edge.line} -> {edge.target}  #{edge.comment.strip()}")
    up = upward(edges)
    print(f"{len(up)} upward import(s)")
    for edge in up:
        print(f"  {edge.source}:{edge.line} -> {edge.target}")
    return 1 if found or up or len(local) > LOCAL_IMPORTS_ALLOWED else 0


if __name__ == "__main__":
    sys.exit(main())
