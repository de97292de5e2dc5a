# SPDX-License-Identifier: BSD-3-Clause
"""Short names of the learners, for the command line and configuration files."""

from __future__ import annotations

from skbn.learners._boss import BOSS
from skbn.learners._exact import ExactSearch
from skbn.learners._fges import FGES
from skbn.learners._grasp import GRaSP
from skbn.learners._hill_climb import HillClimb
from skbn.learners._mmhc import MMHC
from skbn.learners._order_mcmc import OrderMCMC
from skbn.learners._pc import PCStable
from skbn.learners._tabu import TabuSearch

__all__ = ["AUTO_BOSS_MAX_FEATURES", "LEARNERS", "default_learner", "get_learner"]

#: Most columns for which :func:`default_learner` picks BOSS with its tabu polish; FGES
#: above, whose search state grows with the graph rather than with ``p**2``.
AUTO_BOSS_MAX_FEATURES = 1000

#: Short name -> learner class.
LEARNERS = {
    "hc": HillClimb,
    "tabu": TabuSearch,
    "fges": FGES,
    "boss": BOSS,
    "grasp": GRaSP,
    "pc": PCStable,
    "mmhc": MMHC,
    "exact": ExactSearch,
    "mcmc": OrderMCMC,
}


def default_learner(n_features: int, *, random_state=None):
    """The learner skbn picks when the user names none: chosen by measurement.

    ``BOSS(polish=True)`` up to :data:`AUTO_BOSS_MAX_FEATURES` columns, where the learner
    grid (``examples/benchmarks/results/learner_grid``) found it nearest the best learner's
    SHD over the bundled networks, sample sizes and random graphs; ``FGES()`` above, which
    the scale page measures to 100,000 variables. Both take discrete, continuous and mixed
    data, with missing values, and their default score follows the data's kind.

    Parameters
    ----------
    n_features : int
        Number of columns of the data.
    random_state : int, RandomState instance or None, default=None
        Seeds BOSS's starting orders.

    Returns
    -------
    estimator
        An unfitted learner.

    Examples
    --------
    >>> from skbn.learners import default_learner
    >>> default_learner(37, random_state=0)
    BOSS(polish=True, random_state=0)
    >>> default_learner(50_000)
    FGES()
    """
    if n_features <= AUTO_BOSS_MAX_FEATURES:
        return BOSS(polish=True, random_state=random_state)
    return FGES()


def get_learner(name: str, **params):
    """A learner by short name (see ``LEARNERS``), with parameters.

    Examples
    --------
    >>> get_learner("tabu", criterion="bdeu")
    TabuSearch(criterion='bdeu')
    """
    try:
        cls = LEARNERS[name]
    except KeyError:
        raise ValueError(
            f"Unknown learner {name!r}; choose one of {', '.join(LEARNERS)}."
        ) from None
    return cls(**params)
