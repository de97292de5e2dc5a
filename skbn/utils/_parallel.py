# SPDX-License-Identifier: BSD-3-Clause
"""Parallelism: what ``n_jobs`` means, and the one place that runs work in parallel.

* :data:`N_JOBS_CONSTRAINT` is the parameter constraint of every ``n_jobs``: None, a positive
  number of workers, or a negative one counted back from all cores (-1 is every core, as in
  joblib and scikit-learn). 0 is refused.
* :func:`effective_n_jobs` turns a value into a number of workers (joblib decides, so a
  ``joblib.parallel_backend`` context is honoured).
* :func:`parallel_map` runs a function over items through joblib -- threads for work that
  releases the GIL (numba kernels, numpy), processes or the active backend (Dask) otherwise --
  returning results in the order of the items, so nothing downstream depends on scheduling,
  and drives a progress bar.
* :func:`numba_threads` sets numba's thread count for the kernels of one call and restores it
  afterwards, even on error.
* :func:`one_blas_thread` runs the enclosed BLAS and LAPACK calls on one thread, for work made
  of many mid-sized matrix operations between numba kernels.

joblib (coarse work: resamples, candidates, clusters) and numba's ``prange`` (fine work) are
never nested: code that runs inside a joblib worker keeps numba at one thread.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from numbers import Integral

import joblib

from skbn.utils._param_validation import Interval

__all__ = [
    "N_JOBS_CONSTRAINT",
    "effective_n_jobs",
    "numba_threads",
    "one_blas_thread",
    "parallel_map",
]

#: ``_parameter_constraints`` entry for ``n_jobs``.
N_JOBS_CONSTRAINT = [
    Interval(Integral, None, -1, closed="right"),
    Interval(Integral, 1, None, closed="left"),
    None,
]


def effective_n_jobs(n_jobs: int | None) -> int:
    """Number of workers ``n_jobs`` stands for (None: 1, unless a joblib context says more).

    Parameters
    ----------
    n_jobs : int or None
        As in scikit-learn: -1 means all cores, -2 all but one, and so on.

    Returns
    -------
    int

    Examples
    --------
    >>> effective_n_jobs(None), effective_n_jobs(3)
    (1, 3)
    >>> import os
    >>> effective_n_jobs(-1) == joblib.cpu_count()
    True
    """
    if n_jobs == 0:
        raise ValueError("n_jobs == 0 has no meaning; use None or 1 for one job, -1 for all cores.")
    return int(joblib.effective_n_jobs(n_jobs))


@contextlib.contextmanager
def numba_threads(n_jobs: int | None):
    """Run the enclosed numba kernels on ``effective_n_jobs(n_jobs)`` threads, then restore.

    None leaves numba's setting as it is.
    """
    if n_jobs is None:
        yield
        return
    import numba

    previous = numba.get_num_threads()
    numba.set_num_threads(max(1, min(effective_n_jobs(n_jobs), numba.config.NUMBA_NUM_THREADS)))
    try:
        yield
    finally:
        numba.set_num_threads(previous)


_BLAS_CONTROLLER = None


def one_blas_thread(active: bool = True):
    """A context in which BLAS and LAPACK run on one thread (``active=False``: as they are).

    For work that alternates numba's parallel kernels with mid-sized matrix operations (the
    kernel CI tests): on 2 cores, OpenBLAS's two threads there made a KCI test at
    n = 2,000 with one conditioning variable 3.3x slower than one thread (180 against
    55 ms), measured by ``OPENBLAS_NUM_THREADS=1``. Results do not change. The BLAS
    libraries are found once, on the first call (scipy's and numpy's may be two).

    Parameters
    ----------
    active : bool, default=True

    Returns
    -------
    context manager
    """
    global _BLAS_CONTROLLER
    if not active:
        return contextlib.nullcontext()
    if _BLAS_CONTROLLER is None:
        import scipy.linalg  # noqa: F401  (scipy's BLAS is loaded, so the controller sees it)
        from threadpoolctl import ThreadpoolController

        _BLAS_CONTROLLER = ThreadpoolController()
    return _BLAS_CONTROLLER.limit(limits=1, user_api="blas")


def parallel_map(
    function: Callable,
    items: Iterable,
    *,
    n_jobs: int | None = None,
    prefer: str | None = None,
    progress=None,
) -> list:
    """``[function(item) for item in items]``, in parallel through joblib, in item order.

    Parameters
    ----------
    function : callable
    items : iterable
    n_jobs : int or None, default=None
        Workers; 1 (or None outside a joblib context) runs in this thread with no overhead.
    prefer : {"threads", "processes"} or None, default=None
        joblib's hint; None lets the active backend (loky, Dask, ...) run the work.
    progress : object with ``update(int)``, optional
        Called once per finished item (e.g. a tqdm bar).

    Returns
    -------
    list
        The results, in the order of ``items``, whatever the backend and scheduling.

    Examples
    --------
    >>> parallel_map(abs, [-1, 2, -3], n_jobs=2, prefer="threads")
    [1, 2, 3]
    """
    items = list(items)
    if not items:
        return []
    if effective_n_jobs(n_jobs) == 1 or len(items) == 1:
        out = []
        for item in items:
            out.append(function(item))
            if progress is not None:
                progress.update(1)
        return out
    parallel = joblib.Parallel(n_jobs=n_jobs, prefer=prefer, return_as="generator")
    out = []
    for result in parallel(joblib.delayed(function)(item) for item in items):
        out.append(result)
        if progress is not None:
            progress.update(1)
    return out
