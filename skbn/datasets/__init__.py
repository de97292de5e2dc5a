# SPDX-License-Identifier: BSD-3-Clause
"""Networks and data with known truth.

* The 24 networks of the bnlearn Bayesian network repository ship with skbn as BIF files:
  :func:`list_networks`, :func:`load_network` returning a :class:`DiscreteBayesianNetwork`
  whose ``graph`` is the true DAG and whose ``sample`` draws data by forward sampling.
* :func:`read_bif` / :func:`write_bif` read and write other networks.
* :func:`make_linear_gaussian` puts a linear-Gaussian SEM on any DAG;
  :func:`make_conditional_gaussian` makes the last nodes of a discrete network continuous
  (mixed data with known truth).
* Random DAGs with an exact arc count: :func:`make_erdos_renyi_dag`,
  :func:`make_scale_free_dag`, :func:`make_small_world_dag`.
* :func:`replicate_network` builds large networks from copies of a small one, and
  :func:`make_problem` returns ``(X, true_dag)`` ready for a learner.
"""

from skbn.datasets._bif import BIFError, parse_bif, read_bif, to_bif, write_bif
from skbn.datasets._bundled import list_networks, load_network
from skbn.datasets._gaussian import LinearGaussianNetwork, make_linear_gaussian
from skbn.datasets._mixed import ConditionalGaussianNetwork, make_conditional_gaussian
from skbn.datasets._network import DiscreteBayesianNetwork
from skbn.datasets._problems import TRAINING_NETWORKS, make_problem, make_training_problems
from skbn.datasets._random_dags import (
    make_erdos_renyi_dag,
    make_scale_free_dag,
    make_small_world_dag,
)
from skbn.datasets._replicate import replicate_network

__all__ = [
    "BIFError",
    "ConditionalGaussianNetwork",
    "TRAINING_NETWORKS",
    "DiscreteBayesianNetwork",
    "LinearGaussianNetwork",
    "list_networks",
    "load_network",
    "make_conditional_gaussian",
    "make_erdos_renyi_dag",
    "make_linear_gaussian",
    "make_problem",
    "make_training_problems",
    "make_scale_free_dag",
    "make_small_world_dag",
    "parse_bif",
    "read_bif",
    "replicate_network",
    "to_bif",
    "write_bif",
]
