# SPDX-License-Identifier: BSD-3-Clause
"""Validated, encoded data containers for structure learning.

Every learner, score and CI test in skbn works on one of two immutable views of the
user's data, produced once by :func:`check_data`:

* :class:`DiscreteData` -- integer codes ``0 .. r_j - 1`` per column, stored column-major
  (Fortran order) as ``int16`` so that the counting kernels read one variable contiguously,
  together with the arity and the original state labels of every column;
* :class:`GaussianData` -- ``float64`` values with their means, and the covariance and
  correlation matrices computed on first use (the sufficient statistics of Gaussian scores
  and of the Fisher-z test);
* :class:`MixedData` -- both, for a frame that mixes discrete and continuous columns: the
  codes of the discrete columns and the values of the continuous ones, each in a full-width
  array indexed by column position, with a mask saying which columns are discrete.

Column kinds follow pandas dtypes: categorical, object, string, bool and integer columns are
discrete; float columns are continuous. Nothing is silently coerced: a float column where a
discrete one is needed (or the reverse) is an error that names the column and says what to do.
The one exception: when discrete data is explicitly required, float columns holding only whole
numbers are read as codes, because that is what ``KBinsDiscretizer(encode="ordinal")`` returns.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from functools import cached_property
from typing import Literal

import numpy as np
import pandas as pd
from scipy import sparse

__all__ = [
    "DENSE_COVARIANCE_MAX",
    "DataKindWarning",
    "DiscreteData",
    "FewRowsWarning",
    "GaussianData",
    "INTEGER_STATES_WARNING",
    "MissingValuesError",
    "MixedData",
    "MAX_CATEGORIES",
    "ROWS_PER_PARAMETER",
    "SPARSE_OBSERVED_FRACTION",
    "SparselyObservedWarning",
    "check_data",
]

#: Largest number of categories a discrete column may have (codes are stored as int16 and
#: the counting kernels index parent configurations with int64 mixed-radix indices).
MAX_CATEGORIES = 2**15

#: Above this many continuous columns the scores never form the whole (p, p) covariance matrix
#: (15,000 columns already take 1.8 GB): they ask for blocks of it, computed from the centred
#: columns, and screen pairs by correlation a block of columns at a time.
DENSE_COVARIANCE_MAX = 15_000

#: An integer column with more distinct values than this is read as discrete with a warning
#: (is it a count or a measurement?); so are float columns that all hold whole numbers with at
#: most this many values in more than twice this many rows (bin codes?), read as continuous.
INTEGER_STATES_WARNING = 20

#: A learned Gaussian family with ``k`` parents has ``k + 2`` parameters (intercept,
#: coefficients, noise variance); with fewer than this many rows per parameter in its
#: largest family, a fit warns with :class:`FewRowsWarning`.
ROWS_PER_PARAMETER = 2

#: A column observed in fewer than this fraction of the rows warns with
#: :class:`SparselyObservedWarning` when missing values are allowed.
SPARSE_OBSERVED_FRACTION = 0.05

_MAX_NAMES_SHOWN = 8


class FewRowsWarning(UserWarning):
    """A learned Gaussian graph has parent sets too large for the number of rows.

    With continuous data a regression on ``k`` parents fits ``n`` rows better and better as
    ``k`` approaches ``n``, and a likelihood score such as Gaussian BIC keeps rewarding
    parents until the residual variance reaches its floor: 50 rows can give in-degrees of 49.
    Fits warn when the largest family has fewer than :data:`ROWS_PER_PARAMETER` rows per
    parameter; the message names the family and the remedies (the default score
    ``GaussianEBIC``, a larger penalty, ``max_indegree``, more rows).

    Examples
    --------
    >>> import warnings
    >>> from skbn.datasets import make_erdos_renyi_dag, make_linear_gaussian
    >>> from skbn.learners import HillClimb
    >>> dag = make_erdos_renyi_dag(60, 30, random_state=0)
    >>> X = make_linear_gaussian(dag, random_state=0).sample(30, random_state=0)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = HillClimb("bic").fit(X)
    >>> any(issubclass(w.category, FewRowsWarning) for w in caught)
    True
    """


class SparselyObservedWarning(UserWarning):
    """A column is observed in only a few rows of data with missing values.

    Such a column's families could be learned from those few rows alone, which any parent
    set fits perfectly: the available-case scores do not score a family with parents
    observed in fewer than :data:`SPARSE_OBSERVED_FRACTION` of the rows, so score-based
    learners leave the column without parents and children (CI tests on so few rows rarely
    reject independence either). The message names the columns and how many rows observe
    each; drop them, or collect them on more rows.

    Examples
    --------
    >>> import warnings, pandas as pd
    >>> X = pd.DataFrame({"a": ["x", "y"] * 50, "b": ["u", "v", "u"] + [None] * 97})
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = check_data(X, missing="allow")
    >>> caught[0].category.__name__
    'SparselyObservedWarning'
    """


class DataKindWarning(UserWarning):
    """The kind skbn gave a column (discrete or continuous) may not be the one you meant.

    The message names the columns and says how to state the kind explicitly, which also
    silences the warning.

    Examples
    --------
    >>> import warnings, pandas as pd
    >>> X = pd.DataFrame({"age": range(30), "sex": ["f", "m"] * 15})
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = check_data(X)
    >>> caught[0].category.__name__
    'DataKindWarning'
    """


def _show(names: Sequence[str]) -> str:
    """Format column names for an error message, shortening long lists."""
    shown = ", ".join(repr(str(n)) for n in names[:_MAX_NAMES_SHOWN])
    if len(names) > _MAX_NAMES_SHOWN:
        shown += f", ... ({len(names)} columns in all)"
    return shown


def _readonly(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


class _Observed:
    """Testwise deletion for the checked-data containers (their ``observed`` mask).

    Each container says ``has_missing`` its own cheap way, so complete data never keeps an
    ``(n, p)`` mask.
    """

    def complete_rows(self, columns) -> np.ndarray:
        """Positions of the rows observed in every one of ``columns`` (all rows if complete).

        The rows of testwise deletion and of available-case scores.
        """
        if not self.has_missing:
            return np.arange(self.n_samples)
        cols = np.asarray(columns, dtype=np.int64)
        return np.flatnonzero(self.observed[:, cols].all(axis=1))


class DiscreteData(_Observed):
    """Discrete data encoded as integer codes, one column per variable.

    Build it with :func:`check_data`; the arrays are read-only.

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features), dtype int16, Fortran order
        ``codes[i, j]`` is the index of row ``i``'s value in ``states[j]``.
    arities : ndarray of shape (n_features,), dtype int64
        Number of states of each column (``len(states[j])``).
    states : tuple of tuple
        The state labels of each column, in code order.
    names : tuple of str
        Column (node) names.

    Examples
    --------
    >>> data = check_data(pd.DataFrame({"a": ["x", "y", "x"]}))
    >>> data.codes[:, 0].tolist(), data.states, data.take([1, 1]).codes[:, 0].tolist()
    ([0, 1, 0], (('x', 'y'),), [1, 1])
    """

    kind = "discrete"

    def __init__(
        self,
        codes: np.ndarray,
        arities: np.ndarray,
        states: tuple[tuple, ...],
        names: tuple[str, ...],
    ) -> None:
        self.codes = _readonly(np.asfortranarray(codes, dtype=np.int16))
        self.arities = _readonly(np.asarray(arities, dtype=np.int64))
        self.states = tuple(tuple(s) for s in states)
        self.names = tuple(names)

    @property
    def n_samples(self) -> int:
        """Number of rows."""
        return self.codes.shape[0]

    @property
    def n_features(self) -> int:
        """Number of columns (variables)."""
        return self.codes.shape[1]

    @cached_property
    def observed(self) -> np.ndarray:
        """Which entries are observed (code ``-1`` marks a missing value), shape (n, p)."""
        return _readonly(self.codes >= 0)

    @cached_property
    def has_missing(self) -> bool:
        """Whether any value is missing (only with ``check_data(..., missing="allow")``)."""
        return bool(self.codes.size) and int(self.codes.min()) < 0

    @cached_property
    def constant_columns(self) -> tuple[str, ...]:
        """Names of the columns that take a single value in the data."""
        first = self.codes[0]
        const = np.all(self.codes == first, axis=0)
        return tuple(n for n, c in zip(self.names, const) if c)

    def take(self, rows=None, columns=None) -> DiscreteData:
        """Return the data on some rows (repeats allowed) and columns, states kept.

        Every column keeps all its states, also those its rows no longer hold, so a
        resample is scored with the parameter counts of the full data.

        Parameters
        ----------
        rows : array-like of int, optional
            Row positions; all rows when None.
        columns : array-like of int, optional
            Column positions; all columns when None.

        Returns
        -------
        DiscreteData
        """
        codes = self.codes if rows is None else self.codes[np.asarray(rows)]
        if columns is None:
            return DiscreteData(codes, self.arities, self.states, self.names)
        cols = np.asarray(columns)
        return DiscreteData(
            codes[:, cols],
            self.arities[cols],
            tuple(self.states[j] for j in cols),
            tuple(self.names[j] for j in cols),
        )

    def with_states(self, states) -> DiscreteData:
        """Return the same rows with every column's states extended to include ``states``.

        Column ``j`` gets ``states[j]`` first, in that order, then its own states that are
        not among them; the codes are renumbered accordingly. A held-out sample scored for a
        network fitted elsewhere counts every level the fit saw, whether the columns were
        categorical (which keep unused levels) or strings (which do not).

        Parameters
        ----------
        states : sequence of sequence
            One sequence of state labels per column.

        Returns
        -------
        DiscreteData

        Examples
        --------
        >>> data = check_data(pd.DataFrame({"a": ["y", "y", "x"]}))
        >>> wider = data.with_states([("z", "y")])
        >>> wider.states, wider.codes[:, 0].tolist()
        ((('z', 'y', 'x'),), [1, 1, 2])
        """
        if len(states) != self.n_features:
            raise ValueError(f"states has {len(states)} columns; the data has {self.n_features}.")
        codes = np.empty_like(self.codes)
        merged = []
        for j, given in enumerate(states):
            given = list(given)
            index = {label: k for k, label in enumerate(given)}
            extra = [label for label in self.states[j] if label not in index]
            for label in extra:
                index[label] = len(index)
            lookup = np.array([index[label] for label in self.states[j]], dtype=np.int16)
            codes[:, j] = lookup[self.codes[:, j]] if len(lookup) else self.codes[:, j]
            merged.append(tuple(given + extra))
        arities = np.array([len(m) for m in merged], dtype=np.int64)
        return DiscreteData(codes, arities, tuple(merged), self.names)

    def to_frame(self) -> pd.DataFrame:
        """Decode back to a DataFrame of categorical columns.

        Returns
        -------
        DataFrame
        """
        return pd.DataFrame(
            {
                name: pd.Categorical.from_codes(self.codes[:, j], categories=list(st))
                for j, (name, st) in enumerate(zip(self.names, self.states))
            }
        )

    def __repr__(self) -> str:
        return (
            f"DiscreteData(n_samples={self.n_samples}, n_features={self.n_features}, "
            f"max_arity={int(self.arities.max())})"
        )


def thresholded_correlations(Z: np.ndarray, r_min: float, block: int = 1024, scale=None):
    """Pairs ``i < j`` of centred columns with ``|Z_i . Z_j| / n * scale_i * scale_j >= r_min``.

    With standardised columns (``scale`` None) these are the correlations. Computed
    ``block`` columns at a time, so memory grows with the pairs kept, not with ``p**2``.
    Returns ``rows, cols`` (int64) and the absolute values, capped at 1.
    """
    n, p = Z.shape
    rows, cols, weights = [], [], []
    for start in range(0, p, block):
        stop = min(start + block, p)
        C = np.abs(Z[:, start:stop].T @ Z[:, start:]) / n
        if scale is not None:
            C *= scale[start:stop, None]
            C *= scale[None, start:]
        C[np.tril_indices(stop - start, 0, m=C.shape[1])] = -1.0  # strict upper triangle
        i, j = np.nonzero(C >= r_min)
        rows.append(i.astype(np.int64) + start)
        cols.append(j.astype(np.int64) + start)
        weights.append(np.minimum(C[i, j], 1.0))
    return np.concatenate(rows), np.concatenate(cols), np.concatenate(weights)


class GaussianData(_Observed):
    """Continuous data as a float64 matrix, with its sufficient statistics on demand.

    Build it with :func:`check_data`; the arrays are read-only.

    Parameters
    ----------
    values : ndarray of shape (n_samples, n_features), dtype float64
        The data.
    names : tuple of str
        Column (node) names.

    Examples
    --------
    >>> data = check_data([[0.0, 1.0], [2.0, 3.0], [4.0, 8.0]])
    >>> data.means.tolist(), data.take(columns=[1]).names
    ([2.0, 4.0], ('x1',))
    """

    kind = "gaussian"

    def __init__(self, values: np.ndarray, names: tuple[str, ...]) -> None:
        self.values = _readonly(np.ascontiguousarray(values, dtype=np.float64))
        self.names = tuple(names)

    @property
    def n_samples(self) -> int:
        """Number of rows."""
        return self.values.shape[0]

    @property
    def n_features(self) -> int:
        """Number of columns (variables)."""
        return self.values.shape[1]

    @cached_property
    def means(self) -> np.ndarray:
        """Column means, shape (n_features,)."""
        return _readonly(self.values.mean(axis=0))

    @cached_property
    def covariance(self) -> np.ndarray:
        """Maximum-likelihood covariance matrix (divisor ``n``), shape (p, p)."""
        centred = self.values - self.means
        return _readonly(centred.T @ centred / self.n_samples)

    @cached_property
    def correlation(self) -> np.ndarray:
        """Pearson correlation matrix, shape (p, p); constant columns get 0 off the diagonal."""
        sd = np.sqrt(np.diag(self.covariance))
        safe = np.where(sd > 0, sd, 1.0)
        corr = self.covariance / np.outer(safe, safe)
        corr[sd == 0, :] = 0.0
        corr[:, sd == 0] = 0.0
        np.fill_diagonal(corr, 1.0)
        return _readonly(corr)

    @property
    def dense_covariance(self) -> bool:
        """Whether the whole covariance matrix is small enough to form (see module constant)."""
        return self.n_features <= DENSE_COVARIANCE_MAX or "covariance" in vars(self)

    @cached_property
    def centred(self) -> np.ndarray:
        """Columns minus their means, Fortran order (one column contiguous)."""
        return _readonly(np.asfortranarray(self.values - self.means))

    def covariance_block(self, idx) -> np.ndarray:
        """Return the covariance matrix of the columns ``idx``.

        Taken from the whole matrix when something has already formed it (a score does when
        :attr:`dense_covariance` allows), else computed from the centred columns ``idx``
        alone, so fitting parameters never forms a ``(p, p)`` matrix by itself.

        Parameters
        ----------
        idx : array-like of int
            Column positions.

        Returns
        -------
        ndarray of shape (len(idx), len(idx))
        """
        idx = np.asarray(idx, dtype=np.int64)
        if "covariance" in vars(self):
            return self.covariance[np.ix_(idx, idx)]
        C = self.centred[:, idx]
        return C.T @ C / self.n_samples

    def correlated_pairs(self, r_min: float, block: int = 1024):
        """Find the pairs ``i < j`` whose absolute correlation is at least ``r_min``.

        Computed ``block`` columns at a time, so memory grows with the pairs kept, not with
        ``p**2``. Constant columns correlate with nothing.

        Parameters
        ----------
        r_min : float
            Threshold on ``|r|``.
        block : int, default=1024
            Columns per matrix product.

        Returns
        -------
        rows, cols : ndarray of int64
        weights : ndarray of float64
            The absolute correlations of the pairs.
        """
        Z = self.centred
        sd = np.sqrt(np.einsum("ij,ij->j", Z, Z) / self.n_samples)
        scale = np.where(sd > 0, 1.0 / np.where(sd > 0, sd, 1.0), 0.0)
        return thresholded_correlations(Z, r_min, block, scale)

    @cached_property
    def observed(self) -> np.ndarray:
        """Which entries are observed (NaN marks a missing value), shape (n, p)."""
        return _readonly(~np.isnan(self.values))

    @cached_property
    def has_missing(self) -> bool:
        """Whether any value is missing (only with ``check_data(..., missing="allow")``)."""
        return bool(np.isnan(self.values).any())

    @cached_property
    def constant_columns(self) -> tuple[str, ...]:
        """Names of the columns that take a single value in the data."""
        const = np.all(self.values == self.values[0], axis=0)
        return tuple(n for n, c in zip(self.names, const) if c)

    def take(self, rows=None, columns=None) -> GaussianData:
        """Return the data on some rows (repeats allowed) and columns.

        Parameters
        ----------
        rows : array-like of int, optional
            Row positions; all rows when None.
        columns : array-like of int, optional
            Column positions; all columns when None.

        Returns
        -------
        GaussianData
        """
        values = self.values if rows is None else self.values[np.asarray(rows)]
        if columns is None:
            return GaussianData(values, self.names)
        cols = np.asarray(columns)
        return GaussianData(values[:, cols], tuple(self.names[j] for j in cols))

    def to_frame(self) -> pd.DataFrame:
        """Return the values as a DataFrame.

        Returns
        -------
        DataFrame
        """
        return pd.DataFrame(self.values, columns=list(self.names))

    def __repr__(self) -> str:
        return f"GaussianData(n_samples={self.n_samples}, n_features={self.n_features})"


class MixedData(_Observed):
    """Discrete and continuous columns together, for conditional-Gaussian models.

    Build it with :func:`check_data` (a frame with both kinds of columns); the arrays are
    read-only. Both arrays have one column per variable, so kernels index them by column
    position: a continuous column holds code 0 with arity 1 in ``codes`` (it never splits a
    table), and a discrete column holds 0.0 in ``values``.

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features), dtype int16
        Codes of the discrete columns (0 in the continuous ones).
    arities : ndarray of shape (n_features,), dtype int64
        Number of states of each discrete column; 1 for a continuous one.
    states : tuple of tuple
        State labels of each discrete column; ``()`` for a continuous one.
    values : ndarray of shape (n_samples, n_features), dtype float64
        Values of the continuous columns (0.0 in the discrete ones).
    discrete : ndarray of shape (n_features,), dtype bool
        Which columns are discrete.
    names : tuple of str
        Column (node) names.

    Examples
    --------
    >>> X = pd.DataFrame({"g": ["a", "b", "a"], "y": [0.5, 1.5, 2.0]})
    >>> data = check_data(X)
    >>> data
    MixedData(n_samples=3, n_features=2, n_discrete=1)
    >>> data.discrete.tolist(), data.codes[:, 0].tolist(), data.values[:, 1].tolist()
    ([True, False], [0, 1, 0], [0.5, 1.5, 2.0])
    """

    kind = "mixed"

    def __init__(
        self,
        codes: np.ndarray,
        arities: np.ndarray,
        states: tuple[tuple, ...],
        values: np.ndarray,
        discrete: np.ndarray,
        names: tuple[str, ...],
    ) -> None:
        self.codes = _readonly(np.asfortranarray(codes, dtype=np.int16))
        self.arities = _readonly(np.asarray(arities, dtype=np.int64))
        self.states = tuple(tuple(s) for s in states)
        self.values = _readonly(np.asfortranarray(values, dtype=np.float64))
        self.discrete = _readonly(np.asarray(discrete, dtype=bool))
        self.names = tuple(names)

    @property
    def n_samples(self) -> int:
        """Number of rows."""
        return self.codes.shape[0]

    @property
    def n_features(self) -> int:
        """Number of columns (variables)."""
        return self.codes.shape[1]

    @property
    def continuous(self) -> np.ndarray:
        """Which columns are continuous (the complement of ``discrete``)."""
        return ~self.discrete

    @cached_property
    def variances(self) -> np.ndarray:
        """Maximum-likelihood variance of every column's observed values (0 if discrete)."""
        values = self.values
        if self.has_missing:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # a column may be all NaN
                return _readonly(np.nan_to_num(np.nanvar(values, axis=0)))
        return _readonly(values.var(axis=0))

    @cached_property
    def observed(self) -> np.ndarray:
        """Which entries are observed (code ``-1`` or NaN marks a missing value), (n, p)."""
        return _readonly(np.where(self.discrete, self.codes >= 0, ~np.isnan(self.values)))

    @cached_property
    def has_missing(self) -> bool:
        """Whether any value is missing (only with ``check_data(..., missing="allow")``)."""
        return not bool(self.observed.all())

    @cached_property
    def constant_columns(self) -> tuple[str, ...]:
        """Names of the columns that take a single value in the data."""
        const = np.where(
            self.discrete,
            np.all(self.codes == self.codes[0], axis=0),
            np.all(self.values == self.values[0], axis=0),
        )
        return tuple(n for n, c in zip(self.names, const) if c)

    def take(self, rows=None, columns=None) -> MixedData:
        """Return the data on some rows (repeats allowed) and columns, states kept.

        Parameters
        ----------
        rows : array-like of int, optional
            Row positions; all rows when None.
        columns : array-like of int, optional
            Column positions; all columns when None.

        Returns
        -------
        MixedData
        """
        codes, values = self.codes, self.values
        if rows is not None:
            rows = np.asarray(rows)
            codes, values = codes[rows], values[rows]
        if columns is None:
            return MixedData(codes, self.arities, self.states, values, self.discrete, self.names)
        cols = np.asarray(columns)
        return MixedData(
            codes[:, cols],
            self.arities[cols],
            tuple(self.states[j] for j in cols),
            values[:, cols],
            self.discrete[cols],
            tuple(self.names[j] for j in cols),
        )

    def with_states(self, states) -> MixedData:
        """Return the same rows with the discrete columns' states extended by ``states``.

        As :meth:`DiscreteData.with_states`; entries for continuous columns are ignored.

        Parameters
        ----------
        states : sequence of sequence
            One sequence of state labels per column.

        Returns
        -------
        MixedData
        """
        idx = np.flatnonzero(self.discrete)
        part = DiscreteData(
            self.codes[:, idx], self.arities[idx], [self.states[j] for j in idx], ()
        ).with_states([states[j] for j in idx])
        codes = np.array(self.codes, order="F")
        codes[:, idx] = part.codes
        arities = self.arities.copy()
        arities[idx] = part.arities
        merged = list(self.states)
        for k, j in enumerate(idx):
            merged[j] = part.states[k]
        return MixedData(codes, arities, tuple(merged), self.values, self.discrete, self.names)

    def to_frame(self) -> pd.DataFrame:
        """Decode back to a DataFrame: categorical and float columns.

        Returns
        -------
        DataFrame
        """
        return pd.DataFrame(
            {
                name: (
                    pd.Categorical.from_codes(self.codes[:, j], categories=list(self.states[j]))
                    if self.discrete[j]
                    else self.values[:, j]
                )
                for j, name in enumerate(self.names)
            }
        )

    def __repr__(self) -> str:
        return (
            f"MixedData(n_samples={self.n_samples}, n_features={self.n_features}, "
            f"n_discrete={int(self.discrete.sum())})"
        )


#: The checked-data containers :func:`check_data` returns.
CHECKED_DATA = (DiscreteData, GaussianData, MixedData)


def _column_kind(series: pd.Series) -> str:
    dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        return "discrete"
    if pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_integer_dtype(dtype):
        return "discrete"
    if pd.api.types.is_float_dtype(dtype):
        return "continuous"
    if pd.api.types.is_string_dtype(dtype) or pd.api.types.is_object_dtype(dtype):
        return "discrete"
    return "unsupported"


def _as_frame(X) -> pd.DataFrame:
    if isinstance(X, pd.DataFrame):
        if X.columns.duplicated().any():
            dup = list(dict.fromkeys(X.columns[X.columns.duplicated()]))
            raise ValueError(
                f"Duplicate column names {_show(dup)}: every column is a node of the network "
                "and needs a unique name. Rename the columns before fitting."
            )
        names = [str(c) for c in X.columns]
        if len(set(names)) != len(names):
            raise ValueError(
                "Column names collide once converted to str "
                f"({_show([n for n in names if names.count(n) > 1])}); rename the columns."
            )
        frame = X.copy(deep=False)
        frame.columns = names
        return frame
    if isinstance(X, pd.Series):
        raise ValueError(
            "Expected 2-D data (one column per variable), got a pandas Series. "
            "Use series.to_frame() to pass a single column."
        )
    if sparse.issparse(X):
        raise TypeError(
            "Sparse data was passed, but skbn needs dense data: convert it with X.toarray()."
        )
    if isinstance(X, (str, bytes, dict, set)) or np.ndim(X) == 0:
        raise TypeError(f"Expected a pandas DataFrame or a 2-D array, got {type(X).__name__}.")
    arr = np.asarray(X)
    if arr.ndim != 2:
        raise ValueError(
            f"Expected 2-D data (rows x variables), got an array with {arr.ndim} dimension(s). "
            "Reshape a single variable with X.reshape(-1, 1)."
        )
    if arr.dtype.kind == "c":
        raise ValueError("Complex data not supported; use real numbers, strings or bools.")
    if arr.dtype.kind not in "biufOUS":
        raise TypeError(f"Unsupported array dtype {arr.dtype}; use numbers, strings or bools.")
    names = [f"x{j}" for j in range(arr.shape[1])]
    return pd.DataFrame({n: arr[:, j] for j, n in enumerate(names)}, columns=names)


def _factorize(name: str, series: pd.Series) -> tuple[np.ndarray, tuple]:
    """Codes (``-1`` where missing) and sorted categories of a discrete column."""
    if isinstance(series.dtype, pd.CategoricalDtype):
        return series.cat.codes.to_numpy(), tuple(series.cat.categories)
    values = series.to_numpy()
    if values.dtype.kind not in "biu":
        # strings: factorising a plain object array is about twice as fast as going through
        # pandas' string arrays, and its -1 sentinel finds missing values at no extra cost
        values = series.to_numpy(dtype=object)
    try:
        codes, uniques = pd.factorize(values, sort=True)
    except TypeError as exc:
        raise TypeError(
            f"Column {name!r} holds values that cannot be used as categories ({exc}): each "
            "argument must be a string or a number (a hashable scalar), e.g. X[col].astype(str)."
        ) from None
    return codes, tuple(uniques.tolist() if hasattr(uniques, "tolist") else uniques)


def _check_categories(name: str, categories: tuple, max_categories: int) -> None:
    if len(categories) > max_categories:
        raise ValueError(
            f"Column {name!r} has {len(categories)} categories, more than the {max_categories} "
            "the counting kernels support. Is it an identifier or a continuous variable? "
            "Drop it, or discretise it (e.g. sklearn.preprocessing.KBinsDiscretizer)."
        )


def _warn_if_many_integer_states(frame: pd.DataFrame, discrete, encoded) -> None:
    many = [
        name
        for name in discrete
        if pd.api.types.is_integer_dtype(frame[name].dtype)
        and not pd.api.types.is_bool_dtype(frame[name].dtype)
        and len(encoded[name][1]) > INTEGER_STATES_WARNING
    ]
    if many:
        counts = ", ".join(f"{n!r}: {len(encoded[n][1])}" for n in many[:_MAX_NAMES_SHOWN])
        warnings.warn(
            f"Integer columns with more than {INTEGER_STATES_WARNING} distinct values are read "
            f"as discrete variables with one state per value ({counts}). If they are "
            "measurements, cast them with X[cols].astype(float) (all columns continuous; on the "
            "command line, --kind gaussian) or bin them (sklearn.preprocessing.KBinsDiscretizer;"
            " on the command line, --bins); to keep them as categories "
            "say so with X[cols].astype('category'), which also silences this warning.",
            DataKindWarning,
            stacklevel=3,
        )


def _warn_if_identifiers(frame: pd.DataFrame, discrete, encoded) -> None:
    """Warn about string/object columns whose values are nearly all distinct (identifiers).

    Integer columns have their own warning; categorical columns are declared on purpose.
    """
    n = len(frame)
    suspects = [
        name
        for name in discrete
        if not isinstance(frame[name].dtype, pd.CategoricalDtype)
        and not pd.api.types.is_integer_dtype(frame[name].dtype)
        and not pd.api.types.is_bool_dtype(frame[name].dtype)
        and len(encoded[name][1]) > INTEGER_STATES_WARNING
        and len(encoded[name][1]) > n / 2
    ]
    if suspects:
        counts = ", ".join(
            f"{m!r}: {len(encoded[m][1])} values in {n} rows" for m in suspects[:_MAX_NAMES_SHOWN]
        )
        warnings.warn(
            f"Columns with a distinct value in most rows look like identifiers ({counts}). "
            "As variables they have one state per value: nothing can be learned from them, "
            "and tests on them need tables of states x states cells. Drop them, or say they "
            "are categories with X[cols].astype('category'), which also silences this warning.",
            DataKindWarning,
            stacklevel=3,
        )


def _warn_if_codes(frame: pd.DataFrame, continuous, values: np.ndarray, mixed: bool) -> None:
    """Warn when every float column holds a few whole numbers: bin codes read as Gaussian.

    Only with more than twice :data:`INTEGER_STATES_WARNING` rows: in fewer rows a few distinct
    values say nothing. Missing values (NaN) are ignored. ``mixed``: discrete columns are
    there too, so the floats would be the continuous half of a conditional-Gaussian network.
    """
    if len(values) <= 2 * INTEGER_STATES_WARNING:
        return
    head = values[:50]
    if not np.all(np.mod(head[~np.isnan(head)], 1) == 0):
        return
    columns = [values[:, j] for j in range(len(continuous))]
    columns = [c[~np.isnan(c)] for c in columns]
    if not all(np.all(np.mod(c, 1) == 0) for c in columns):
        return
    if not all(len(np.unique(c)) <= INTEGER_STATES_WARNING for c in columns):
        return
    if mixed:
        cast = ", ".join(f"{n!r}: int" for n in continuous[:3])
        warnings.warn(
            f"The float columns {_show(continuous)} hold whole numbers with at most "
            f"{INTEGER_STATES_WARNING} distinct values (bin codes, such as "
            "KBinsDiscretizer(encode='ordinal') returns?), and float columns are continuous, "
            "so they are learned as Gaussian beside the discrete columns (a "
            "conditional-Gaussian network). To treat them as categories cast them, e.g. "
            f"X.astype({{{cast}}}); to keep them continuous, pass a conditional-Gaussian score "
            "(e.g. criterion='bic-cg') or test (ci_test='mi_cg').",
            DataKindWarning,
            stacklevel=3,
        )
        return
    warnings.warn(
        f"Every column holds whole numbers with at most {INTEGER_STATES_WARNING} distinct "
        "values (bin codes, such as KBinsDiscretizer(encode='ordinal') returns?), and float "
        "columns are continuous, so a Gaussian model is learned on them. To treat them as "
        "categories give the learner a discrete score or test (e.g. criterion='bdeu' or "
        "skbn.scores.BIC()), or cast them with X.astype(int); to keep the Gaussian model, "
        "pass a Gaussian score (e.g. criterion='bic-g').",
        DataKindWarning,
        stacklevel=3,
    )


def check_data(
    X,
    *,
    kind: Literal["auto", "discrete", "gaussian", "mixed"] = "auto",
    max_categories: int = MAX_CATEGORIES,
    missing: Literal["error", "allow"] = "error",
) -> DiscreteData | GaussianData | MixedData:
    """Validate ``X`` and encode it once for the kernels.

    Parameters
    ----------
    X : DataFrame, array-like of shape (n_samples, n_features), or checked data
        The data. DataFrame column names become node names; arrays get ``x0, x1, ...``.
        Categorical, object, string, bool and integer columns are discrete; float columns are
        continuous. Already checked data is returned unchanged (if of the requested kind).
    kind : {"auto", "discrete", "gaussian", "mixed"}, default="auto"
        The kind of data required. ``"auto"`` infers it from the column types: a frame with
        both discrete and continuous columns gives :class:`MixedData`. ``"mixed"`` gives
        :class:`MixedData` whatever the columns (all of one kind is a special case).
    max_categories : int, default=2**15
        Largest number of categories accepted in a discrete column.
    missing : {"error", "allow"}, default="error"
        What to do with missing values (NaN, None, ``pd.NA``). ``"error"`` refuses them,
        naming the columns; ``"allow"`` keeps them (code ``-1`` in a discrete column, NaN in a
        continuous one) for the methods that handle them -- testwise deletion in the CI
        tests, available-case scores, :class:`~skbn.learners.StructuralEM` -- but still
        refuses a column with fewer than 2 observed values.

    Returns
    -------
    DiscreteData, GaussianData or MixedData
        The validated, encoded data.

    Raises
    ------
    TypeError
        If ``X`` is not tabular or holds values of an unsupported type.
    ValueError
        On missing values (unless allowed), infinite values, fewer than 2 rows, no columns,
        duplicate column names, too many categories, or columns of the wrong kind; the
        message names the columns.

    Examples
    --------
    >>> import pandas as pd
    >>> from skbn.data import check_data
    >>> data = check_data(pd.DataFrame({"a": ["x", "y", "x"], "b": [1, 0, 1]}))
    >>> data
    DiscreteData(n_samples=3, n_features=2, max_arity=2)
    >>> data.codes[:, 0], data.states[0]
    (array([0, 1, 0], dtype=int16), ('x', 'y'))
    >>> check_data([[0.5, 1.0], [1.5, -2.0]]).names
    ('x0', 'x1')
    """
    if kind not in ("auto", "discrete", "gaussian", "mixed"):
        raise ValueError(f"kind must be 'auto', 'discrete', 'gaussian' or 'mixed', got {kind!r}.")
    if missing not in ("error", "allow"):
        raise ValueError(f"missing must be 'error' or 'allow', got {missing!r}.")
    if not 2 <= max_categories <= MAX_CATEGORIES:
        raise ValueError(
            f"max_categories must be between 2 and {MAX_CATEGORIES} (discrete codes are "
            f"16-bit integers), got {max_categories!r}."
        )
    if isinstance(X, CHECKED_DATA) and missing == "error" and X.has_missing:
        raise MissingValuesError(_missing_message(X.names, X.observed))
    if isinstance(X, MixedData):
        if kind in ("discrete", "gaussian"):
            want = "discrete" if kind == "discrete" else "continuous"
            other = np.flatnonzero(X.discrete if kind == "gaussian" else ~X.discrete)
            raise ValueError(
                f"All columns must be {want}, but columns "
                f"{_show([X.names[j] for j in other])} are not; use a score or test for "
                "mixed data (e.g. criterion='bic', ci_test='mi_cg')."
            )
        return X
    if kind == "mixed" and isinstance(X, (DiscreteData, GaussianData)):
        return _as_mixed(X)
    if isinstance(X, (DiscreteData, GaussianData)):
        if kind == "discrete" and isinstance(X, GaussianData):
            raise ValueError(
                "Discrete data is required, but continuous data was given; discretise it "
                "first (e.g. sklearn.preprocessing.KBinsDiscretizer(encode='ordinal'))."
            )
        if kind == "gaussian" and isinstance(X, DiscreteData):
            raise ValueError(
                "Continuous (Gaussian) data is required, but discrete data was given; use a "
                "discrete score or CI test instead."
            )
        return X

    frame = _as_frame(X)
    n_rows, n_cols = frame.shape
    if n_cols == 0:
        raise ValueError(
            f"Found 0 feature(s) (shape=({n_rows}, 0)) while a minimum of 1 is required: "
            "X needs at least one column (variable)."
        )
    if n_rows < 2:
        raise ValueError(
            f"Found {n_rows} sample(s) (shape=({n_rows}, {n_cols})) while a minimum of 2 is "
            "required to learn a structure."
        )

    kinds = {name: _column_kind(frame[name]) for name in frame.columns}
    bad = [n for n, k in kinds.items() if k == "unsupported"]
    if bad:
        raise TypeError(
            f"Columns {_show(bad)} have unsupported dtypes "
            f"({', '.join(sorted({str(frame[n].dtype) for n in bad}))}); "
            "use numeric, bool, string or categorical columns."
        )
    continuous = [n for n, k in kinds.items() if k == "continuous"]
    discrete = [n for n, k in kinds.items() if k == "discrete"]
    values = frame[continuous].to_numpy(dtype=np.float64) if continuous else None
    # discrete columns are encoded once, here; a -1 code marks a missing value
    encoded = {name: _factorize(name, frame[name]) for name in discrete}
    n_observed = {name: int((codes >= 0).sum()) for name, (codes, _) in encoded.items()}
    if continuous:
        n_observed.update(zip(continuous, (~np.isnan(values)).sum(axis=0).tolist()))
    if missing == "error":
        incomplete = [n for n in frame.columns if n_observed[n] < n_rows]
        if incomplete:
            raise MissingValuesError(_missing_message(incomplete))
    else:
        too_few = [n for n in frame.columns if n_observed[n] < 2]
        if too_few:
            raise ValueError(
                f"Columns {_show(too_few)} have fewer than 2 observed values (all the others "
                "are missing): nothing can be learned about them. Drop them."
            )
        sparse = [n for n in frame.columns if n_observed[n] < SPARSE_OBSERVED_FRACTION * n_rows]
        if sparse:
            counts = ", ".join(f"{n!r}: {n_observed[n]}" for n in sparse[:_MAX_NAMES_SHOWN])
            warnings.warn(
                f"Columns {_show(sparse)} are observed in fewer than "
                f"{SPARSE_OBSERVED_FRACTION:.0%} of the {n_rows} rows ({counts}); their "
                "families are learned from those rows only. Drop them unless they matter.",
                SparselyObservedWarning,
                stacklevel=3,
            )
    if continuous:
        bad_inf = [n for n, bad in zip(continuous, np.isinf(values).any(axis=0)) if bad]
        if bad_inf:
            raise ValueError(f"Columns {_show(bad_inf)} contain infinite values.")
        # covariances are sums of n products of deviations (each at most twice the largest
        # absolute value): they must fit in float64, without copying the data to check it
        if not len(values):
            largest = np.zeros(len(continuous))
        elif all(n_observed[n] == n_rows for n in continuous):
            # np.abs would copy the data
            largest = np.maximum(values.max(axis=0), -values.min(axis=0))
        else:
            largest = np.maximum(np.nanmax(values, axis=0), -np.nanmin(values, axis=0))
        limit = np.sqrt(np.finfo(np.float64).max / (4.0 * max(len(values), 1)))
        huge = [n for n, m in zip(continuous, largest) if m > limit]
        if huge:
            raise ValueError(
                f"Columns {_show(huge)} hold values so large (up to "
                f"{largest.max():.3g}) that their "
                "variance overflows float64. Rescale them first (e.g. sklearn.preprocessing."
                "StandardScaler, or divide by a power of ten); the learned structure does not "
                "depend on the scale of a column."
            )

    if kind == "auto":
        kind = "mixed" if continuous and discrete else "gaussian" if continuous else "discrete"
        if kind in ("gaussian", "mixed"):
            _warn_if_codes(frame, continuous, values, mixed=kind == "mixed")

    names = tuple(frame.columns)
    if kind == "mixed":
        return _mixed_data(frame, names, continuous, discrete, values, encoded, max_categories)
    if kind == "discrete":
        # Integer-valued float columns are codes (KBinsDiscretizer(encode="ordinal") returns
        # them as floats): accepted when discrete data is asked for, never in "auto" mode.
        fractional = [
            n for n in continuous if not np.all(np.mod(frame[n].dropna().to_numpy(), 1) == 0)
        ]
        if fractional:
            raise ValueError(
                f"Discrete data is required, but columns {_show(fractional)} hold non-integer "
                "floats. Discretise them (sklearn.preprocessing.KBinsDiscretizer(encode="
                "'ordinal') in a Pipeline), or model them as continuous with a score or test "
                "for mixed data (criterion='bic', 'aic', 'ebic' or 'loglik'; ci_test='mi_cg')."
            )
        for n in continuous:
            encoded[n] = _factorize(n, frame[n].astype("Int64"))
        codes = np.empty((n_rows, n_cols), dtype=np.int16, order="F")
        states = []
        for j, name in enumerate(names):
            column, st = encoded[name]
            _check_categories(name, st, max_categories)
            codes[:, j] = column
            states.append(st)
        arities = np.array([len(s) for s in states], dtype=np.int64)
        _warn_if_many_integer_states(frame, discrete, encoded)
        _warn_if_identifiers(frame, discrete, encoded)
        return DiscreteData(codes, arities, tuple(states), names)

    if discrete:
        raise ValueError(
            f"Continuous (Gaussian) data is required, but columns {_show(discrete)} are "
            "discrete (categorical/object/bool/integer). Cast numeric ones with "
            "X.astype(float) (on the command line, --kind gaussian), or model both kinds "
            "with a score or test for mixed data "
            "(criterion='bic', 'aic', 'ebic' or 'loglik'; ci_test='mi_cg')."
        )
    return GaussianData(values, names)


class MissingValuesError(ValueError):
    """Missing values where complete data is required (a :class:`ValueError`).

    The estimator that asked for complete data may reword it (naming the learners that take
    missing values, from their own flags).

    Examples
    --------
    >>> import pandas as pd
    >>> from skbn.data import MissingValuesError, check_data
    >>> try:
    ...     check_data(pd.DataFrame({"a": ["x", None, "y"]}), missing="error")
    ... except MissingValuesError as error:
    ...     print(str(error)[:48])
    Columns 'a' contain missing values (NaN/None/pd.
    """


def _missing_message(names, observed=None) -> str:
    """Word the error for missing values where they are refused, naming the columns."""
    if observed is not None:
        names = [n for n, ok in zip(names, observed.all(axis=0)) if not ok]
    return (
        f"Columns {_show(list(names))} contain missing values (NaN/None/pd.NA), and complete "
        "data is required here: drop or impute them first (e.g. "
        "sklearn.impute.SimpleImputer), or use a learner that learns from them (the "
        "missing-data guide lists them)."
    )


def _as_mixed(data: DiscreteData | GaussianData) -> MixedData:
    """Return checked data of one kind as :class:`MixedData` (all columns discrete, or none)."""
    n, p = data.n_samples, data.n_features
    if isinstance(data, DiscreteData):
        return MixedData(
            data.codes, data.arities, data.states, np.zeros((n, p)), np.ones(p, bool), data.names
        )
    return MixedData(
        np.zeros((n, p), dtype=np.int16),
        np.ones(p, dtype=np.int64),
        ((),) * p,
        data.values,
        np.zeros(p, dtype=bool),
        data.names,
    )


def _mixed_data(frame, names, continuous, discrete, values, encoded, max_categories) -> MixedData:
    """Encode a frame with discrete and continuous columns as :class:`MixedData`."""
    n, p = frame.shape
    codes = np.zeros((n, p), dtype=np.int16, order="F")
    floats = np.zeros((n, p), dtype=np.float64, order="F")
    is_discrete = np.array([name in encoded for name in names], dtype=bool)
    states: list[tuple] = []
    position = {name: k for k, name in enumerate(continuous)}
    for j, name in enumerate(names):
        if is_discrete[j]:
            column, st = encoded[name]
            _check_categories(name, st, max_categories)
            codes[:, j] = column
            states.append(st)
        else:
            floats[:, j] = values[:, position[name]]
            states.append(())
    arities = np.array([len(s) if d else 1 for s, d in zip(states, is_discrete)], dtype=np.int64)
    _warn_if_many_integer_states(frame, discrete, encoded)
    _warn_if_identifiers(frame, discrete, encoded)
    return MixedData(codes, arities, tuple(states), floats, is_discrete, names)
