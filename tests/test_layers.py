"""The layers of docs/architecture.md, read from the imports: ``labyrinth_env.core`` is the
bottom floor (it imports nothing of the package above it), and no modules of the package
import each other in a circle.

Every ``import`` and ``from ... import`` counts, at any level (inside functions and
``TYPE_CHECKING`` blocks too): a function-level import reaching up is still a dependency,
only a later one. ``from package import name`` is an edge to the submodule when ``name`` is
one, else to the package.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the package and the folders setup.py maps into it
FOLDERS = {
    "labyrinth_env": ROOT / "labyrinth_env",
    "labyrinth_env.agents": ROOT / "agents",
    "labyrinth_env.benchmarks": ROOT / "benchmarks",
}
CORE = "labyrinth_env.core"


def _modules() -> dict[str, Path]:
    modules = {}
    for package, folder in FOLDERS.items():
        for path in folder.rglob("*.py"):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join([package, *parts])] = path
    return modules


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """``name`` or its nearest enclosing module of the package; None outside it."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str | None] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(_known(alias.name, modules) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(here[: len(here) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                child = f"{base}.{alias.name}"
                found.add(child if child in modules else _known(base, modules))
    return {m for m in found if m is not None and m != name}


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports."""
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, by
    an explicit stack: no recursion limit), and every module that imports itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = [[m] for m in graph if m in graph[m]]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_graph_sees_every_kind_of_import():
    graph = import_graph()
    assert "labyrinth_env.rulesets.team_edition.env" in graph
    assert "labyrinth_env.agents.mcts" in graph  # the mapped folders belong to the package
    # a function-level import (spec.loops binds the batch template when first asked for)
    assert {"labyrinth_env.core.batch_template", "labyrinth_env.core.templates"} <= graph["labyrinth_env.spec"]
    # relative imports, and ``from package import submodule``
    assert "labyrinth_env.core.templates" in graph["labyrinth_env.core"]


def test_core_imports_nothing_above_it():
    graph = import_graph()
    upward = {
        name: sorted(m for m in imported if m != CORE and not m.startswith(CORE + "."))
        for name, imported in graph.items()
        if name == CORE or name.startswith(CORE + ".")
    }
    assert {name: up for name, up in upward.items() if up} == {}


def test_the_import_graph_has_no_cycle():
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert sorted(cycles(graph)) == [["a", "b", "c"], ["e"]]
