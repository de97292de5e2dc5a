# SPDX-License-Identifier: BSD-3-Clause
"""Structure learners: scikit-learn estimators whose ``fit(X)`` sets ``graph_``.

Score-based learners search for a DAG (``HillClimb``, ``TabuSearch``), a Markov
equivalence class (``FGES``) or an order of the variables (``BOSS``, ``GRaSP``) that maximises a
decomposable score from :mod:`skbn.scores`;
``ExactSearch`` finds a globally optimal DAG for up to about 25 variables.
Every learner also fits the network's parameters, so ``score_samples``/``score`` give
held-out log-likelihoods for scikit-learn's model selection tools.

Hidden common causes: ``FCI`` and ``RFCI`` (tests), and ``BOSSFCI``, ``GRaSPFCI``,
``GFCI`` and ``FCIT`` (a score search's graph corrected by tests) return a partial ancestral graph
(PAG, ``kind="pag"``), whose edge marks say which arcs a latent confounder may explain.

Constraint-based learners (``PCStable``) build a skeleton from conditional-independence tests
in :mod:`skbn.ci_tests` and orient it with colliders and Meek's rules; the hybrid ``MMHC``
restricts hill climbing to a skeleton found by tests, and ``OrderMCMC`` samples topological
orders within a PC skeleton and returns the best DAG it met.

Markov-blanket learners (``GrowShrink``, ``IAMB`` with its inter-, fast- and FDR variants,
``HITONMB``) learn each variable's blanket with tests (``HITONPC`` its parents and children),
then the skeleton inside the blankets, and orient it as PC does.

Tree learners: ``ChowLiu`` spans the variables with the maximum mutual-information tree,
and ``TAN`` conditions that tree on a class variable, the structure of a tree-augmented
naive Bayes classifier (:class:`skbn.classification.BayesianNetworkClassifier`).

``default_learner(n_features)`` is the learner skbn uses when none is named (the command
line's ``--learner auto``), chosen by measurement over the bundled networks.
``get_learner(name, **params)`` builds a learner from its short name (the command line's
``--learner``: ``hc``, ``tabu``, ``fges``, ``boss``, ``grasp``, ``pc``, ``fci``, ``rfci``, ``gfci``,
``boss-fci``, ``grasp-fci``, ``mmhc``,
``exact``, ``mcmc``, ``lingam``), or ``"auto"``.

Linear non-Gaussian data: ``DirectLiNGAM`` finds a causal order from pairwise likelihood
ratios and returns the full DAG with its arc weights; ``LiNGAMOrientation`` turns another
learner's CPDAG into a DAG by orienting its undirected edges with the same ratios.
"""

from skbn.learners._blanket import HITONMB, HITONPC, IAMB, GrowShrink
from skbn.learners._boss import BOSS
from skbn.learners._exact import ExactSearch
from skbn.learners._fci import FCI
from skbn.learners._fcit import FCIT
from skbn.learners._fges import FGES
from skbn.learners._grasp import GRaSP
from skbn.learners._hill_climb import HillClimb
from skbn.learners._lingam import DirectLiNGAM
from skbn.learners._lingam_orientation import LiNGAMOrientation
from skbn.learners._mmhc import MMHC
from skbn.learners._order_mcmc import OrderMCMC
from skbn.learners._pc import PCStable
from skbn.learners._registry import default_learner, get_learner, learners_taking
from skbn.learners._rfci import RFCI
from skbn.learners._score_fci import BOSSFCI, GFCI, GRaSPFCI
from skbn.learners._structural_em import StructuralEM
from skbn.learners._tabu import TabuSearch
from skbn.learners._trees import TAN, ChowLiu

__all__ = [
    "DirectLiNGAM",
    "LiNGAMOrientation",
    "BOSS",
    "BOSSFCI",
    "FCI",
    "FCIT",
    "FGES",
    "GFCI",
    "GRaSP",
    "GRaSPFCI",
    "HITONMB",
    "HITONPC",
    "IAMB",
    "MMHC",
    "RFCI",
    "TAN",
    "ChowLiu",
    "ExactSearch",
    "GrowShrink",
    "HillClimb",
    "OrderMCMC",
    "PCStable",
    "StructuralEM",
    "TabuSearch",
    "default_learner",
    "get_learner",
    "learners_taking",
]
