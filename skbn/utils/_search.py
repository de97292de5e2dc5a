# SPDX-License-Identifier: BSD-3-Clause
"""scikit-learn's search machinery, and the two private hooks skbn's searches override.

``BaseSearchCV`` and its ``_format_results``/``_get_scorers`` hooks are private API; they are
used here and nowhere else, so a change in scikit-learn is a one-file fix.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy.stats import rankdata
from sklearn.model_selection._search import BaseSearchCV

__all__ = ["BaseSearchCV", "NanMeanSearchMixin"]


class NanMeanSearchMixin:
    """Average test scores over the splits that produced one (NaN splits are ignored).

    In OTSL a split whose learned PDAG has no DAG extension scores NaN and the authors' code
    averages the other splits (``colMeans(na.rm=TRUE)``); scikit-learn would make the whole
    candidate NaN. A candidate with no finite split keeps a NaN mean and ranks last.
    """

    def _format_results(self, candidate_params, n_splits, out, more_results=None):
        with warnings.catch_warnings():
            # scikit-learn warns about NaN means computed over all splits; the means are
            # recomputed below without the NaN splits
            warnings.filterwarnings("ignore", message="One or more of the test scores")
            results = super()._format_results(candidate_params, n_splits, out, more_results)
        splits = [f"split{i}_test_score" for i in range(n_splits)]
        if not all(key in results for key in splits):
            return results  # multi-metric: left as scikit-learn computes it
        scores = np.column_stack([np.asarray(results[key], dtype=float) for key in splits])
        finite = np.isfinite(scores)
        counts = finite.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            means = np.where(counts > 0, np.nansum(scores, axis=1) / np.maximum(counts, 1), np.nan)
            deviations = np.where(finite, scores - means[:, None], 0.0)
            stds = np.where(
                counts > 0, np.sqrt((deviations**2).sum(axis=1) / np.maximum(counts, 1)), np.nan
            )
        results["mean_test_score"] = means
        results["std_test_score"] = stds
        results["n_finite_splits"] = counts
        if np.any(counts == 0):
            warnings.warn(
                f"{int(np.sum(counts == 0))} configuration(s) scored NaN on every split (failed "
                "fits or structures without a DAG extension); they rank last.",
                UserWarning,
                stacklevel=2,
            )
        # ties share the best rank, so argmin picks the first configuration (as the paper's
        # code does with which.max); NaN means rank last
        filled = np.where(np.isnan(means), -np.inf, means)
        results["rank_test_score"] = rankdata(-filled, method="min").astype(np.int32)
        return results
