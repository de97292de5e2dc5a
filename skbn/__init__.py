# SPDX-License-Identifier: BSD-3-Clause
"""skbn: scikit-learn-compatible structure learning of Bayesian networks.

Subpackages: :mod:`skbn.data` (validation and encoding), :mod:`skbn.graph` (DAG/CPDAG/PDAG
helpers, I/O, plotting), :mod:`skbn.metrics` (structure metrics) and :mod:`skbn.datasets`
(bundled networks, sampling, random DAGs, problem generators).
"""

from skbn import data, datasets, graph, metrics
from skbn.data import check_data

__version__ = "0.1.0.dev0"

__all__ = ["check_data", "data", "datasets", "graph", "metrics", "__version__"]
