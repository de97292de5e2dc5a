# SPDX-License-Identifier: BSD-3-Clause
"""Every learner and meta-estimator still gives the outputs recorded in ``frozen.json``.

A guard for refactors, kept beside the truth-based tests: it shows that moving code changed
nothing by accident. See ``cases.py`` for the cases and ``record.py`` to re-record after a
deliberate change.
"""

import json
from pathlib import Path

import pytest

from tests.regression.cases import GROUPS, LEARNER_CASES, compare, learner_output

FROZEN = json.loads(Path(__file__).with_name("frozen.json").read_text())


@pytest.mark.slow
@pytest.mark.parametrize("case", LEARNER_CASES)
def test_learner_output_is_unchanged(case):
    # one test per learner case, so that one change does not hide the others
    diffs = compare(FROZEN["learners"][case], learner_output(case), f"/learners/{case}")
    assert not diffs, f"{len(diffs)} differences:\n" + "\n".join(diffs[:40])


def test_every_frozen_learner_case_is_tested():
    assert sorted(FROZEN["learners"]) == sorted(LEARNER_CASES)


@pytest.mark.slow
@pytest.mark.parametrize("group", sorted(set(GROUPS) - {"learners"}))
def test_outputs_are_unchanged(group):
    diffs = compare(FROZEN[group], GROUPS[group]())
    assert not diffs, f"{len(diffs)} differences:\n" + "\n".join(diffs[:40])
