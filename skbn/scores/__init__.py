# SPDX-License-Identifier: BSD-3-Clause
"""Decomposable scores for score-based structure learning.

A score is a small parameter object (``BIC()``, ``BDeu(iss=10)``, ``GaussianBIC(
penalty_discount=2)``). ``score.bind(X)`` validates the data for the score's kind once and
returns a bound scorer whose ``local_score(child, parents)`` is cached per family;
``score.score_graph(graph, X)`` sums the local scores of a DAG (or of a CPDAG's consistent
extension). Higher is better for every score.

Discrete scores count family configurations with numba kernels; Gaussian scores work from the
covariance matrix, so a local score costs O(k^3) in the number of parents, not O(n).

Score-equivalent scores (equal on Markov-equivalent DAGs): LogLikelihood, BIC, AIC, EBIC,
BDeu, GaussianLogLikelihood, GaussianAIC, GaussianBIC, GaussianEBIC, BGe. K2 and FNML are
not.
"""

from skbn.scores._base import BoundScore, Score
from skbn.scores._discrete import AIC, BIC, EBIC, FNML, K2, BDeu, LogLikelihood
from skbn.scores._gaussian import (
    BGe,
    GaussianAIC,
    GaussianBIC,
    GaussianEBIC,
    GaussianLogLikelihood,
)

__all__ = [
    "AIC",
    "BDeu",
    "BGe",
    "BIC",
    "BoundScore",
    "EBIC",
    "FNML",
    "GaussianAIC",
    "GaussianBIC",
    "GaussianEBIC",
    "GaussianLogLikelihood",
    "K2",
    "LogLikelihood",
    "Score",
]
