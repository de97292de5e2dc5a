# SPDX-License-Identifier: BSD-3-Clause
"""Bayesian networks with their parameters: what learners fit, generators draw from, files hold.

* :class:`DiscreteBayesianNetwork`: a DAG with a labelled conditional probability table per
  node, forward sampling and log-likelihoods (the bundled bnlearn networks, a fitted
  discrete learner's ``network_``, BIF / NET / XDSL files);
* :class:`LinearGaussianNetwork`: a linear regression per node (a fitted Gaussian learner's
  ``network_``, :func:`skbn.datasets.make_linear_gaussian`);
* :class:`ConditionalGaussianNetwork`: discrete nodes with CPTs and continuous nodes with a
  regression per configuration of their discrete parents
  (:func:`skbn.datasets.make_conditional_gaussian`).

:mod:`skbn.parameters` fits these on any graph; :mod:`skbn.io` reads and writes them.
"""

from skbn.network._discrete import DiscreteBayesianNetwork
from skbn.network._gaussian import LinearGaussianNetwork
from skbn.network._mixed import ConditionalGaussianNetwork

__all__ = ["ConditionalGaussianNetwork", "DiscreteBayesianNetwork", "LinearGaussianNetwork"]
