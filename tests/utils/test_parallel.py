# SPDX-License-Identifier: BSD-3-Clause
"""The parallelism helpers: thread counts set for a block of work and restored after it."""

import numpy as np
import pytest
from threadpoolctl import threadpool_info

from skbn.ci_tests import KCI, RCoT
from skbn.utils._parallel import one_blas_thread


def _blas_threads() -> list[int]:
    return sorted({pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"})


def test_one_blas_thread_limits_every_blas_and_restores_it():
    import scipy.linalg  # noqa: F401  (scipy's BLAS loaded as well as numpy's)

    before = _blas_threads()
    with one_blas_thread():
        assert _blas_threads() == [1]
    assert _blas_threads() == before
    with one_blas_thread(active=False):
        assert _blas_threads() == before
    with pytest.raises(RuntimeError), one_blas_thread():
        raise RuntimeError("restored on error too")
    assert _blas_threads() == before


@pytest.mark.parametrize("make", [KCI, lambda: RCoT(random_state=0)], ids=["KCI", "RCoT"])
def test_kernel_tests_give_the_same_answer_whatever_the_blas_threads(make):
    rng = np.random.default_rng(0)
    z = rng.normal(size=600)
    data = np.column_stack([np.sin(2 * z) + 0.3 * rng.normal(size=600), z**2, z])
    bound = make().bind(data)
    # the test limits BLAS itself below its row threshold; run its arithmetic both ways
    limited = bound._evaluate(0, 1, np.array([2]))
    free = bound._evaluate_now(0, 1, np.array([2]))
    assert limited[:3] == pytest.approx(free[:3], rel=1e-12)
