# SPDX-License-Identifier: BSD-3-Clause
"""Networks and data with known truth.

* The 24 networks of the bnlearn Bayesian network repository ship with skbn as BIF files:
  :func:`list_networks`, :func:`load_network` returning a :class:`DiscreteBayesianNetwork`
  whose ``graph`` is the true DAG and whose ``sample`` draws data by forward sampling.
* Other networks are read and written by :mod:`skbn.io`; the network classes live in
  :mod:`skbn.network` (re-exported here, the types these functions return).
* :func:`make_linear_gaussian` puts a linear-Gaussian SEM on any DAG;
  :func:`make_conditional_gaussian` makes the last nodes of a discrete network continuous
  (mixed data with known truth); :func:`make_additive_noise` draws nonlinear mechanisms and
  non-Gaussian noise on any DAG (the data of kernel tests and LiNGAM).
* Random DAGs with an exact arc count: :func:`make_erdos_renyi_dag`,
  :func:`make_scale_free_dag`, :func:`make_small_world_dag`.
* :func:`replicate_network` builds large networks from copies of a small one, and
  :func:`make_problem` returns ``(X, true_dag)`` ready for a learner;
  :func:`make_latent_problem` hides some variables and returns the true PAG as well.
"""

import warnings

from skbn.datasets._bundled import list_networks, load_network
from skbn.datasets._gaussian import make_linear_gaussian
from skbn.datasets._mixed import make_conditional_gaussian
from skbn.datasets._nonlinear import AdditiveNoiseModel, make_additive_noise
from skbn.datasets._problems import (
    TRAINING_NETWORKS,
    LatentProblem,
    make_latent_problem,
    make_problem,
    make_training_problems,
)
from skbn.datasets._random_dags import (
    make_erdos_renyi_dag,
    make_scale_free_dag,
    make_small_world_dag,
)
from skbn.datasets._replicate import replicate_network
from skbn.network import ConditionalGaussianNetwork, DiscreteBayesianNetwork, LinearGaussianNetwork
from skbn.utils._warnings import stack_level

#: Names that moved to :mod:`skbn.io`; still importable from here, with a FutureWarning.
_MOVED_TO_IO = ("BIFError", "parse_bif", "read_bif", "to_bif", "write_bif")


def __getattr__(name: str):
    if name in _MOVED_TO_IO:
        import skbn.io

        warnings.warn(
            f"skbn.datasets.{name} moved to skbn.io.{name}; import it from there (the old "
            "name will be removed in a future release).",
            FutureWarning,
            stacklevel=stack_level(),
        )
        return getattr(skbn.io, name)
    raise AttributeError(f"module 'skbn.datasets' has no attribute {name!r}")


__all__ = [
    "AdditiveNoiseModel",
    "ConditionalGaussianNetwork",
    "TRAINING_NETWORKS",
    "DiscreteBayesianNetwork",
    "LatentProblem",
    "LinearGaussianNetwork",
    "list_networks",
    "load_network",
    "make_additive_noise",
    "make_conditional_gaussian",
    "make_erdos_renyi_dag",
    "make_latent_problem",
    "make_linear_gaussian",
    "make_problem",
    "make_training_problems",
    "make_scale_free_dag",
    "make_small_world_dag",
    "replicate_network",
]
