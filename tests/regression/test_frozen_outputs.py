# SPDX-License-Identifier: BSD-3-Clause
"""Every learner and meta-estimator still gives the outputs recorded in ``frozen.json``.

A guard for refactors, kept beside the truth-based tests: it shows that moving code changed
nothing by accident. See ``cases.py`` for the cases and ``record.py`` to re-record after a
deliberate change.
"""

import json
from pathlib import Path

import pytest

from tests.regression.cases import GROUPS, compare

FROZEN = json.loads(Path(__file__).with_name("frozen.json").read_text())


@pytest.mark.slow
@pytest.mark.parametrize("group", sorted(GROUPS))
def test_outputs_are_unchanged(group):
    diffs = compare(FROZEN[group], GROUPS[group]())
    assert not diffs, f"{len(diffs)} differences:\n" + "\n".join(diffs[:40])
