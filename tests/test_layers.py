# SPDX-License-Identifier: BSD-3-Clause
"""Every module imports only its own layer and those below (the table: skbn/_layers.py).

Each skbn module is given a layer (lowest first); an import of a module of a higher layer,
at the top of a module or inside a function, fails the test. Package ``__init__`` files may
import their own submodules.
"""

import ast
from pathlib import Path

import pytest

from skbn._layers import layer_of

ROOT = Path(__file__).resolve().parents[1]


def _layer(module: str) -> int:
    return layer_of(module)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("skbn"):
            yield node.module, [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("skbn"):
                    yield alias.name, []


MODULES = sorted(p for p in (ROOT / "skbn").rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_go_down_the_layers(path):
    name = _module_name(path)
    own = _layer(name)
    package = path.name == "__init__.py"
    for module, names in _imports(ast.parse(path.read_text())):
        # "from skbn import metrics" imports skbn.metrics, not the top-level package
        targets = [f"skbn.{n}" for n in names] if module == "skbn" else [module]
        for target in targets:
            if package and target.startswith(name + "."):
                continue  # a package's __init__ gathers its own modules
            assert _layer(target) <= own, (
                f"{name} (layer {own}) imports {target} ({_layer(target)})"
            )


def test_the_layer_table_names_only_modules_that_exist():
    # the architecture picture is drawn from this table: a stale row would draw a ghost
    from skbn._layers import LAYERS

    for _, _, _, modules in LAYERS:
        for prefix in modules:
            path = ROOT.joinpath(*prefix.split("."))
            assert path.with_suffix(".py").exists() or (path / "__init__.py").exists(), prefix


def test_every_module_has_a_layer():
    for path in MODULES:
        assert isinstance(_layer(_module_name(path)), int)


def _import_graph():
    """Every import between skbn's modules (not packages), at module level or in functions."""
    import networkx as nx

    names = {_module_name(p) for p in MODULES if p.name != "__init__.py"}
    graph = nx.DiGraph()
    for path in MODULES:
        name = _module_name(path)
        for module, imported in _imports(ast.parse(path.read_text())):
            targets = {module, *(f"{module}.{n}" for n in imported)} & names
            graph.add_edges_from((name, t) for t in targets if t != name and name in names)
    return graph


def test_no_import_cycle_between_private_modules():
    import networkx as nx

    # LearnedGraph draws itself in a notebook with skbn.plotting, which reads graphs: the
    # one cycle kept, through a function-level import in LearnedGraph._repr_svg_ (closed
    # by plotting's reading of adjacency arrays, and of PAGs' endpoint matrices)
    allowed = [
        {"skbn.graph._learned", "skbn.plotting", "skbn.graph._convert"},
        {"skbn.graph._learned", "skbn.plotting", "skbn.graph._pag"},
    ]
    cycles = [set(c) for c in nx.simple_cycles(_import_graph())]
    assert [c for c in cycles if c not in allowed] == []
