# SPDX-License-Identifier: BSD-3-Clause
"""The one place that records which features an estimator was fitted on."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["record_features"]


def record_features(estimator, names, *, frame=None) -> None:
    """Set ``n_features_in_`` and ``feature_names_in_`` on a fitted ``estimator``.

    Parameters
    ----------
    estimator : object
        The estimator being fitted.
    names : sequence of str
        The column names of the checked data (``x0, x1, ...`` for an array).
    frame : object, optional
        A meta-estimator passes the ``X`` it was given: the names are then kept only when
        ``X`` is a DataFrame, as scikit-learn's own meta-estimators do. A learner passes
        nothing and always keeps them: its graph is over those names.
    """
    estimator.n_features_in_ = len(names)
    if frame is None or isinstance(frame, pd.DataFrame):
        estimator.feature_names_in_ = np.asarray([str(n) for n in names], dtype=object)
