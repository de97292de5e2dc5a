# SPDX-License-Identifier: BSD-3-Clause
"""Distributed tuning: the same OTSLSearchCV call, its fits spread over a Dask cluster.

Run with ``python examples/dask_tuning.py`` (needs ``pip install "skbn[dask]"``; about 6 s on 2
cores, numba kernels compiled). Point ``Client`` at a real scheduler to use several machines.
"""

import sys

import joblib

try:
    from dask.distributed import Client, LocalCluster
except ImportError:
    print('This example needs Dask: pip install "skbn[dask]" (nothing was run).')
    sys.exit(0)

from skbn.datasets import load_network
from skbn.learners import HillClimb
from skbn.model_selection import OTSLSearchCV
from skbn.scores import AIC

X = load_network("alarm").sample(1000, random_state=0)
grid = {"criterion__penalty_discount": [1, 2, 4, 8]}

if __name__ == "__main__":
    # %% A local cluster of two worker processes stands in for a real one.
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0") as cluster:
        with Client(cluster) as client, joblib.parallel_backend("dask"):
            print(client)
            search = OTSLSearchCV(
                HillClimb(AIC()), grid, n_resamples=4, random_state=0, n_jobs=-1
            ).fit(X)
    print("chosen:", search.best_params_)

    # %% Same seeds, same answer as a serial run: the backend changes where, not what.
    serial = OTSLSearchCV(HillClimb(AIC()), grid, n_resamples=4, random_state=0).fit(X)
    assert serial.best_params_ == search.best_params_
    print("serial run agrees")
