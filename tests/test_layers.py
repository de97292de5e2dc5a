# SPDX-License-Identifier: BSD-3-Clause
"""The layers of docs/architecture.md: every module imports only its own layer and those below.

Each skbn module is given a layer (lowest first); an import of a module of a higher layer,
at the top of a module or inside a function, fails the test. Package ``__init__`` files may
import their own submodules.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: (module prefix, layer); the longest matching prefix decides.
LAYERS = [
    ("skbn._kernels", 0),
    ("skbn._version", 0),
    ("skbn.utils._param_validation", 1),
    ("skbn.utils._registry", 1),
    ("skbn.utils._parallel", 1),
    ("skbn.utils._search", 1),
    ("skbn.utils._numeric", 1),
    ("skbn.utils._memory", 1),
    ("skbn.utils._random", 1),
    ("skbn.data", 2),
    ("skbn.utils._binding", 3),
    ("skbn.graph", 3),
    ("skbn.scores", 3),
    ("skbn.ci_tests", 3),
    ("skbn.network", 3),
    ("skbn.metrics", 3),
    ("skbn.plotting", 3),
    ("skbn.scores._registry", 4),
    ("skbn.ci_tests._registry", 4),
    ("skbn.constraints", 4),
    ("skbn.io", 4),
    ("skbn.datasets", 5),
    ("skbn.base", 5),
    ("skbn.learners", 5),
    ("skbn.model_selection._resampling", 6),
    ("skbn.parameters", 6),
    ("skbn.model_selection", 7),
    ("skbn.ensemble", 7),
    ("skbn.utils.estimator_checks", 8),
    ("skbn.utils.testing", 8),
    ("skbn.cli", 9),
    ("skbn", 10),
]


def _layer(module: str) -> int:
    best = max((p for p, _ in LAYERS if module == p or module.startswith(p + ".")), key=len)
    return dict(LAYERS)[best]


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
