# SPDX-License-Identifier: BSD-3-Clause
"""Decomposable scores for score-based structure learning.

A score is a small parameter object (``BIC()``, ``BDeu(iss=10)``, ``GaussianBIC(
penalty_discount=2)``). ``score.bind(X)`` validates the data for the score's kind once and
returns a bound scorer whose ``local_score(child, parents)`` is cached per family;
``score.score_graph(graph, X)`` sums the local scores of a DAG (or of a CPDAG's consistent
extension). Higher is better for every score.

Discrete scores count family configurations with numba kernels; Gaussian scores work from the
covariance matrix, so a local score costs O(k^3) in the number of parents, not O(n).
Conditional-Gaussian scores (CGBIC, CGAIC, CGEBIC, CGLogLikelihood) take data that mixes
discrete and continuous columns: a regression per configuration of the discrete parents.
BasisFunctionBIC sees nonlinear relations in continuous data: the BIC of a Legendre
embedding of each variable.

A family name stands for a score wherever one is taken: ``HillClimb("bic")`` uses BIC on
discrete data and GaussianBIC on continuous data; :func:`get_score` resolves a name for a kind
of data and :func:`get_score_names` lists the names (bnlearn's and pgmpy's spellings included).

Score-equivalent scores (equal on Markov-equivalent DAGs): LogLikelihood, BIC, AIC, EBIC,
BDeu, GaussianLogLikelihood, GaussianAIC, GaussianBIC, GaussianEBIC, BGe; the CG scores
among the DAGs that keep discrete nodes before continuous ones (the only DAGs they score
finitely). K2 and FNML are not.
"""

from skbn.scores._available import AvailableCaseScore
from skbn.scores._base import BoundScore, Score
from skbn.scores._basis import BasisFunctionBIC
from skbn.scores._discrete import AIC, BIC, EBIC, FNML, K2, BDeu, LogLikelihood
from skbn.scores._gaussian import (
    BGe,
    GaussianAIC,
    GaussianBIC,
    GaussianEBIC,
    GaussianLogLikelihood,
)
from skbn.scores._mixed import CGAIC, CGBIC, CGEBIC, CGLogLikelihood
from skbn.scores._registry import get_score, get_score_names

__all__ = [
    "BasisFunctionBIC",
    "AIC",
    "AvailableCaseScore",
    "BDeu",
    "BGe",
    "BIC",
    "BoundScore",
    "CGAIC",
    "CGBIC",
    "CGEBIC",
    "CGLogLikelihood",
    "EBIC",
    "FNML",
    "GaussianAIC",
    "GaussianBIC",
    "GaussianEBIC",
    "GaussianLogLikelihood",
    "K2",
    "LogLikelihood",
    "Score",
    "get_score",
    "get_score_names",
]
