# SPDX-License-Identifier: BSD-3-Clause
"""``import skbn`` and ``skbn --help`` load nothing they do not show (fresh interpreters)."""

import subprocess
import sys

import pytest

HEAVY = ("optuna", "sklearn", "numba", "scipy", "skbn.learners", "skbn.ensemble")


def _loaded_after(code):
    script = f"{code}\nimport sys\nprint(' '.join(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    return set(out.stdout.split())


def test_import_skbn_loads_no_learner_and_no_heavy_dependency():
    loaded = _loaded_after("import skbn")
    assert not loaded & set(HEAVY)


def test_help_loads_no_learner_and_no_heavy_dependency():
    code = "from skbn.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass"
    loaded = _loaded_after(code)
    assert not loaded & set(HEAVY)


@pytest.mark.parametrize("name", ["HillClimb", "load_network", "io", "OTSLSearchCV"])
def test_public_names_still_resolve_on_first_use(name):
    import skbn

    assert name in dir(skbn)
    assert getattr(skbn, name) is not None


def test_an_unknown_name_is_an_attribute_error():
    import skbn

    with pytest.raises(AttributeError, match="no attribute 'HillClimber'"):
        skbn.HillClimber  # noqa: B018
