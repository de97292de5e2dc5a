# SPDX-License-Identifier: BSD-3-Clause
"""Generated frames: check_data and one learner per family accept or refuse cleanly.

Whatever the frame (column types, missing or infinite values, huge values, repeated names,
few rows), ``check_data`` either returns data consistent with the frame or raises a
ValueError/TypeError, and a score-based and a constraint-based learner either fit a graph
over the columns or raise a ValueError before work.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from skbn.data import (
    DataKindWarning,
    DiscreteData,
    FewRowsWarning,
    GaussianData,
    MixedData,
    check_data,
)
from skbn.learners import HillClimb, PCStable

KINDS = ["int", "float", "str", "bool", "category", "mixed_object"]


@st.composite
def frames(draw):
    n = draw(st.integers(0, 25))
    p = draw(st.integers(1, 4))
    kind = draw(st.sampled_from(["all_discrete", "all_float", "any"]))
    names = draw(st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), min_size=p, max_size=p))
    data = []
    for _ in range(p):
        dtype = {
            "all_discrete": draw(st.sampled_from(["int", "str", "bool", "category"])),
            "all_float": "float",
            "any": draw(st.sampled_from(KINDS)),
        }[kind]
        if dtype == "float":
            values = draw(
                st.lists(
                    st.one_of(
                        st.floats(-5, 5),
                        st.just(np.nan),
                        st.just(np.inf),
                        st.just(1e200),
                    ),
                    min_size=n,
                    max_size=n,
                )
            )
            column = pd.Series(values, dtype=float)
        elif dtype == "int":
            column = pd.Series(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)))
        elif dtype == "bool":
            column = pd.Series(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
        elif dtype == "str":
            values = draw(st.lists(st.sampled_from(["x", "y", "z", None]), min_size=n, max_size=n))
            column = pd.Series(values, dtype=object)
        elif dtype == "category":
            values = draw(st.lists(st.sampled_from(["u", "v"]), min_size=n, max_size=n))
            column = pd.Series(values, dtype="category")
        else:
            values = draw(
                st.lists(st.sampled_from(["x", 1, 2.5, None, (1, 2)]), min_size=n, max_size=n)
            )
            column = pd.Series(values, dtype=object)
        data.append(column.reset_index(drop=True))
    frame = pd.concat(data, axis=1) if data else pd.DataFrame()
    frame.columns = names
    return frame


def _quiet():
    warnings.simplefilter("ignore", DataKindWarning)
    warnings.simplefilter("ignore", FewRowsWarning)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(frames())
@example(pd.DataFrame({"a": [0.0, 0.0], "b": [0, 0]}))  # a float and an integer column: mixed
def test_check_data_accepts_consistently_or_refuses_cleanly(frame):
    with warnings.catch_warnings():
        _quiet()
        try:
            data = check_data(frame)
        except (ValueError, TypeError) as exc:
            assert str(exc)  # a message, not an empty error
            return
    p = frame.shape[1]
    assert data.n_samples == len(frame) and data.n_features == p
    assert list(data.names) == [str(c) for c in frame.columns]
    assert len(set(data.names)) == len(data.names)
    if isinstance(data, DiscreteData):
        assert np.all(data.codes >= 0) and np.all(data.codes < data.arities[None, :])
        for j in range(frame.shape[1]):
            decoded = [data.states[j][k] for k in data.codes[:, j]]
            assert decoded == list(frame.iloc[:, j])
    elif isinstance(data, MixedData):
        # a float column next to a discrete one: each column keeps its own kind, the
        # discrete ones decode back to the frame and the continuous ones hold its values
        float_columns = [pd.api.types.is_float_dtype(frame.iloc[:, j]) for j in range(p)]
        assert data.discrete.tolist() == [not f for f in float_columns]
        assert 0 < data.discrete.sum() < p
        for j in range(p):
            column = frame.iloc[:, j]
            if data.discrete[j]:
                assert 0 <= data.codes[:, j].min() and data.codes[:, j].max() < data.arities[j]
                assert [data.states[j][k] for k in data.codes[:, j]] == list(column)
            else:
                assert data.arities[j] == 1 and data.states[j] == ()
                assert np.all(np.isfinite(data.values[:, j]))
                np.testing.assert_array_equal(data.values[:, j], column.to_numpy(dtype=float))
    else:
        assert isinstance(data, GaussianData)
        assert np.all(np.isfinite(data.values))
        np.testing.assert_array_equal(data.values, frame.to_numpy(dtype=float))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(frames())
@pytest.mark.parametrize("learner", [HillClimb(), PCStable()], ids=["score", "constraint"])
def test_learners_fit_or_refuse_before_work(learner, frame):
    with warnings.catch_warnings():
        _quiet()
        try:
            # learners that learn from missing values accept what check_data keeps with
            # missing="allow"
            check_data(frame, missing="allow" if learner._handles_missing else "error")
            accepted = True
        except (ValueError, TypeError):
            accepted = False
        try:
            est = learner.fit(frame)
        except (ValueError, TypeError) as exc:
            # what check_data refuses, the learner refuses too, with a message
            assert str(exc)
            return
    assert accepted
    assert sorted(est.graph_.nodes) == sorted(str(c) for c in frame.columns)
