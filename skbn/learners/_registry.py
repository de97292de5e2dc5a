# SPDX-License-Identifier: BSD-3-Clause
"""Short names of the learners, for the command line and configuration files."""

from __future__ import annotations

from skbn.learners._boss import BOSS
from skbn.learners._exact import ExactSearch
from skbn.learners._fges import FGES
from skbn.learners._hill_climb import HillClimb
from skbn.learners._mmhc import MMHC
from skbn.learners._order_mcmc import OrderMCMC
from skbn.learners._pc import PCStable
from skbn.learners._tabu import TabuSearch

__all__ = ["LEARNERS", "get_learner"]

#: Short name -> learner class.
LEARNERS = {
    "hc": HillClimb,
    "tabu": TabuSearch,
    "fges": FGES,
    "boss": BOSS,
    "pc": PCStable,
    "mmhc": MMHC,
    "exact": ExactSearch,
    "mcmc": OrderMCMC,
}


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
