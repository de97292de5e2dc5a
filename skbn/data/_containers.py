# SPDX-License-Identifier: BSD-3-Clause
"""The checked-data containers: DiscreteData, GaussianData and MixedData."""

from __future__ import annotations

import warnings
from functools import cached_property

import numpy as np
import pandas as pd

from skbn._kernels.screen import centred_squares
from skbn.data._limits import DENSE_COVARIANCE_MAX, _readonly
from skbn.data._schema import DataSchema
from skbn.data._screen import thresholded_correlations


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
    >>> import pandas as pd
    >>> from skbn.data import check_data
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
    def schema(self) -> DataSchema:
        """Names, kinds and state labels: what new rows are encoded against."""
        return DataSchema(self.names, np.ones(len(self.names), bool), self.states)

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
        >>> import pandas as pd
        >>> from skbn.data import check_data
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
    >>> from skbn.data import check_data
    >>> data = check_data([[0.0, 1.0], [2.0, 3.0], [4.0, 8.0]])
    >>> data.means.tolist(), data.take(columns=[1]).names
    ([2.0, 4.0], ('x1',))
    """

    kind = "gaussian"

    def __init__(self, values: np.ndarray, names: tuple[str, ...]) -> None:
        if np.shape(values)[1] > DENSE_COVARIANCE_MAX:
            # the blocked route reads columns: a column-major view of a DataFrame's block
            # is kept as it is rather than copied row-major
            self._values = _readonly(np.asarray(values, dtype=np.float64))
        else:
            self._values = _readonly(np.ascontiguousarray(values, dtype=np.float64))
        self._shape = self._values.shape
        self.names = tuple(names)

    @property
    def values(self) -> np.ndarray:
        """The data, shape (n_samples, n_features)."""
        return self._values

    @property
    def schema(self) -> DataSchema:
        """Names and kinds (every column continuous): what new rows are encoded against."""
        return DataSchema(self.names, np.zeros(len(self.names), bool), ((),) * len(self.names))

    @property
    def n_samples(self) -> int:
        """Number of rows."""
        return self._shape[0]

    @property
    def n_features(self) -> int:
        """Number of columns (variables)."""
        return self._shape[1]

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
    def columns(self) -> np.ndarray:
        """The values in Fortran order (one column contiguous), shape (n_samples, n_features).

        The values themselves when they are already (a DataFrame's block is), else a
        column-major copy made once. The scores and the correlation screen read the columns
        from here with :attr:`means`, centring them as they go, so on the blocked route (more
        columns than :data:`DENSE_COVARIANCE_MAX`, where memory is the limit) a DataFrame's
        data is held once, by the DataFrame.
        """
        values = self._values
        if values.flags.f_contiguous:
            return values
        return _readonly(np.asfortranarray(values))

    @property
    def centred(self) -> np.ndarray:
        """Columns minus their means, Fortran order (one column contiguous).

        A new array, as large as the data, on every call: what skbn computes from centred
        columns centres them as it reads :attr:`columns`, and keeps no such copy.
        """
        centred = np.empty(self._shape, dtype=np.float64, order="F")
        np.subtract(self.columns, self.means, out=centred)  # no row-major temporary
        return centred

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
        C = self.columns[:, idx] - self.means[idx]
        return C.T @ C / self.n_samples

    def correlated_pairs(self, r_min: float, block: int | None = None):
        """Find the pairs ``i < j`` whose absolute correlation is at least ``r_min``.

        Computed in tiles of ``block`` by ``block`` columns (single-precision products,
        pairs near the threshold rechecked in double precision:
        :func:`thresholded_correlations`), so memory grows with the pairs kept, not with
        ``p``. Constant columns correlate with nothing.

        Parameters
        ----------
        r_min : float
            Threshold on ``|r|``.
        block : int, optional
            Columns per side of a tile (the screen's own choice by default).

        Returns
        -------
        rows, cols : ndarray of int64
        weights : ndarray of float64
            The absolute correlations of the pairs.
        """
        X, means = self.columns, self.means
        sd = np.sqrt(centred_squares(X, means) / self.n_samples)
        scale = np.where(sd > 0, 1.0 / np.where(sd > 0, sd, 1.0), 0.0)
        return thresholded_correlations(X, r_min, block, scale, means=means)

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
    >>> import pandas as pd
    >>> from skbn.data import check_data
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
    def schema(self) -> DataSchema:
        """Names, kinds and state labels: what new rows are encoded against."""
        return DataSchema(self.names, self.discrete, self.states)

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
