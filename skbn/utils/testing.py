# SPDX-License-Identifier: BSD-3-Clause
"""Testing helpers: discovery of the public learners and small test instances."""

from __future__ import annotations

import inspect

__all__ = ["all_learners"]

#: Parameters that make a learner quick and deterministic in tests.
INIT_PARAMS: dict[str, dict] = {
    "HillClimb": {"random_state": 0},
    "TabuSearch": {"random_state": 0},
    "FGES": {},
}


def all_learners() -> list[tuple[type, dict]]:
    """Every public learner class of :mod:`skbn.learners` with its test parameters."""
    import skbn.learners as learners
    from skbn.base import BaseStructureLearner

    found = []
    for name in learners.__all__:
        cls = getattr(learners, name)
        if inspect.isclass(cls) and issubclass(cls, BaseStructureLearner):
            found.append((cls, INIT_PARAMS.get(name, {})))
    return found
