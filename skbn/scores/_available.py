# SPDX-License-Identifier: BSD-3-Clause
"""Available-case (node-average) scores: each family scored on the rows where it is observed."""

from __future__ import annotations

import math

import numpy as np

from skbn.data import SPARSE_OBSERVED_FRACTION
from skbn.scores._base import BoundScore, Score

__all__ = ["AvailableCaseScore", "GAUSSIAN_NOISE_PENALTY", "NOISE_PENALTY"]

#: Weight ``a`` of the sampling-noise penalty ``a * sqrt(n (n - |O|) / |O|)`` per parameter,
#: on discrete and mixed data: the best mean F1-adjacent over ALARM and INSURANCE (discrete,
#: 18 problems: 0.68, against 0.65 with 0.5) and over CG versions of CHILD and ALARM (12
#: problems: 0.70, 0.71 with 0.5); ``examples/benchmarks/missing_penalty.py``.
NOISE_PENALTY = 0.25
#: The same weight on Gaussian data. A Gaussian family has few parameters (one per parent and
#: two more), so the per-parameter penalty must be heavier there: 1 had the best mean
#: F1-adjacent over linear-Gaussian CHILD and ALARM, 5% to 40% missing (0.71; 0.56 with 0.5,
#: 0.68 with 2; ``examples/benchmarks/missing_penalty.py --kind gaussian``).
GAUSSIAN_NOISE_PENALTY = 1.0


class AvailableCaseScore(BoundScore):
    """A penalised likelihood on data with missing values, family by family.

    What :meth:`Score.bind <skbn.scores.Score.bind>` returns for incomplete data. The family
    ``child <- parents`` is scored on its locally complete rows ``O`` (those observing the
    child and every parent): the maximised log-likelihood ``LL_O`` of those rows is averaged
    per row and scaled back to all ``n`` rows, and each of the family's ``k`` parameters costs
    the larger of the score's penalty for ``n`` rows and a noise penalty::

        score = n / |O| * LL_O - max(penalty(n, p), a * sqrt(n (n - |O|) / |O|)) * k

    With ``a = 0`` this is Balov's penalised node-average likelihood (bnlearn's ``pnal``,
    ``pnal-g`` and ``pnal-cg`` scores) times ``n``. Balov showed it inconsistent with BIC's
    penalty: the per-row average of a family observed in ``|O|`` rows differs from that of a
    family observed in all ``n`` by sampling noise of standard deviation proportional to
    ``sqrt(1 / |O| - 1 / n)``, which is ``sqrt(n (n - |O|) / |O|)`` once scaled to ``n`` rows.
    The noise term covers it: about ``a * sqrt(n - |O|)`` when most rows are observed, and
    growing like ``n / sqrt(|O|)`` for a family observed in few rows, so that a column
    observed in a handful of rows (whose families fit those rows perfectly) cannot win
    against families scored on thousands. The default ``a`` (0.25 on discrete and mixed
    data, 1 on Gaussian data) was chosen by measurement. On complete data it is the ordinary score.
    Values are assumed missing completely at random; when missingness depends on observed
    values use :class:`~skbn.learners.StructuralEM`; missing-not-at-random data is out of
    scope. A family with no locally complete row, a family with parents observed in fewer
    than ``SPARSE_OBSERVED_FRACTION`` (5%) of the rows (any parent set fits a handful of rows
    perfectly), or (continuous child) no more rows than parameters of its regression, scores
    ``-inf``: a column observed in fewer than 5% of the rows stays without parents and
    children. Different families use different rows, so the score is not score-equivalent
    on incomplete data.

    Parameters
    ----------
    score : Score
        A penalised likelihood (``score.handles_missing``).
    data : DiscreteData, GaussianData or MixedData
        Checked data with missing values.
    noise_penalty : float, optional
        Weight ``a`` of the penalty ``a * sqrt(n (n - |O|) / |O|)`` per parameter that covers
        the sampling noise between families scored on different rows; the penalty of a family
        is the larger of this and the score's own. None means ``NOISE_PENALTY`` (0.25) on
        discrete and mixed data and ``GAUSSIAN_NOISE_PENALTY`` (1) on Gaussian data, both
        chosen by measurement; 0 gives bnlearn's ``pnal`` times ``n`` exactly.

    References
    ----------
    N. Balov, "Consistent model selection of discrete Bayesian networks from incomplete
    data", Electronic Journal of Statistics 7, 2013.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from skbn.scores import BIC
    >>> X = pd.DataFrame({"a": [0, 0, 1, 1, 1], "b": [0, 1, 1, 1, None]}, dtype="Int64")
    >>> bound = BIC().bind(X)
    >>> type(bound).__name__
    'AvailableCaseScore'
    >>> # rows 0-3 observe a and b: LL = 2 log(1/2); scaled by 5/4; penalty log(5)/2 * 2
    >>> expected = 5 / 4 * 2 * np.log(0.5) - np.log(5)
    >>> bool(np.isclose(bound.local_score("b", ["a"]), expected))
    True
    """

    def __init__(self, score, data, noise_penalty: float | None = None) -> None:
        super().__init__(score, data)
        self._per_param = float(score._per_parameter(data.n_samples, data.n_features))
        if noise_penalty is None:
            noise_penalty = GAUSSIAN_NOISE_PENALTY if data.kind == "gaussian" else NOISE_PENALTY
        self.noise_penalty = float(noise_penalty)

    def n_observed(self, child: int, parents=()) -> int:
        """Count the rows that observe ``child`` and every one of ``parents``.

        Parameters
        ----------
        child : str or int
            A column name or position.
        parents : iterable of str or int, default=()
            The parent set.

        Returns
        -------
        int
        """
        family = [self._resolve(child), *(self._resolve(u) for u in parents)]
        return len(self.data.complete_rows(family))

    def _local(self, child, parents):
        family = np.concatenate(([child], parents)).astype(np.int64)
        rows = self.data.complete_rows(family)
        m = len(rows)
        k = len(parents)
        continuous_child = self.data.kind == "gaussian" or (
            self.data.kind == "mixed" and not self.data.discrete[child]
        )
        if m == 0 or (continuous_child and m <= k + 1):
            return -np.inf
        if k and m < SPARSE_OBSERVED_FRACTION * self.n_samples:
            # a handful of rows fits any parent set: only a parentless family is scored there
            return -np.inf
        bound = self.score._penalised_bound(self.data.take(rows, family), 0.0)
        local_parents = np.arange(1, k + 1, dtype=np.int64)
        loglik = bound._local(0, local_parents)
        if not np.isfinite(loglik):
            return -np.inf
        per = self._per_param
        n = self.n_samples
        if self.noise_penalty and m < n:
            per = max(per, self.noise_penalty * math.sqrt(n * (n - m) / m))
        penalty = per * bound.n_parameters(0, local_parents) if per else 0.0
        return self.n_samples / m * loglik - penalty

    def effect_pairs(self, block: int = 512):
        """Find the pairs ``i < j`` whose single arc (either way) raises the score (Gaussian).

        The score of ``y`` given ``x`` reads the rows observing both, so the screen works
        on each pair's available rows: the counts, sums, squares and cross-products of the
        rows two columns observe together are matrix products of the observed-cell masks
        and the zero-filled centred columns, tile by tile (``block`` columns a side; no
        ``(p, p)`` matrix). They give each pair's correlation and variances on its rows and
        so both gains in closed form; every pair within rounding of a positive gain is then
        scored exactly (:meth:`local_score`'s own computation), so the pairs are those the
        family scores give one by one. None where no screen applies (non-Gaussian data, a
        score without penalty).

        Parameters
        ----------
        block : int, default=512
            Columns per side of a tile.

        Returns
        -------
        tuple of (ndarray, ndarray) or None
        """
        if self.data.kind != "gaussian" or self._per_param <= 0:
            return None
        values = self.data.values
        observed = self.data.observed
        n, p = values.shape
        mask = observed.astype(np.float64)
        own = mask.sum(axis=0)
        centred = np.where(observed, values - np.nanmean(values, axis=0), 0.0)
        own_var = (centred**2).sum(axis=0) / own - (centred.sum(axis=0) / own) ** 2
        per_own = self._penalty_per_parameter(own)
        tol = 1e-8 * n  # the closed form's rounding, far above double precision's
        rows, cols = [], []
        for a0 in range(0, p, block):
            a1 = min(a0 + block, p)
            Ma, Za = mask[:, a0:a1], centred[:, a0:a1]
            for b0 in range(a0, p, block):
                b1 = min(b0 + block, p)
                Mb, Zb = mask[:, b0:b1], centred[:, b0:b1]
                with np.errstate(divide="ignore", invalid="ignore"):
                    m = Ma.T @ Mb
                    sa, sb = (Za.T @ Mb) / m, (Ma.T @ Zb) / m
                    va = ((Za**2).T @ Mb) / m - sa**2
                    vb = (Ma.T @ Zb**2) / m - sb**2
                    cov = (Za.T @ Zb) / m - sa * sb
                    rest = np.log1p(-(cov**2) / (va * vb))
                    per = 3.0 * self._penalty_per_parameter(m)
                    gain_b = -n / 2 * (rest + np.log(vb / own_var[b0:b1])) - per
                    gain_a = -n / 2 * (rest + np.log(va / own_var[a0:a1, None])) - per
                    gain_b += 2.0 * per_own[b0:b1]
                    gain_a += 2.0 * per_own[a0:a1, None]
                # a pair whose closed form is undefined (a column constant on the shared
                # rows) is scored exactly too
                maybe = ~(gain_a <= -tol) | ~(gain_b <= -tol)
                maybe &= (m > 2) & (m >= SPARSE_OBSERVED_FRACTION * n)
                if b0 == a0:
                    maybe &= np.triu(np.ones_like(maybe), 1)
                i, j = np.nonzero(maybe)
                rows.append(i + a0)
                cols.append(j + b0)
        rows = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
        cols = np.concatenate(cols) if cols else np.zeros(0, dtype=np.int64)
        keep = np.zeros(len(rows), dtype=bool)
        for k, (i, j) in enumerate(zip(rows.tolist(), cols.tolist())):
            keep[k] = (
                self.family_score(j, (i,)) - self.family_score(j, ()) > 0
                or self.family_score(i, (j,)) - self.family_score(i, ()) > 0
            )
        return rows[keep].astype(np.int64), cols[keep].astype(np.int64)

    def _penalty_per_parameter(self, m):
        """The penalty per parameter of families observed in ``m`` rows (array-wise)."""
        m = np.asarray(m, dtype=np.float64)
        n, per = self.n_samples, self._per_param
        if not self.noise_penalty:
            return np.full(m.shape, per)
        with np.errstate(divide="ignore", invalid="ignore"):
            noise = self.noise_penalty * np.sqrt(n * (n - m) / m)
        return np.where(m < n, np.maximum(per, noise), per)


# data with missing values binds to available-case scoring (Score.bind); set here so that
# the base module does not import this one
Score._incomplete_binder = AvailableCaseScore
