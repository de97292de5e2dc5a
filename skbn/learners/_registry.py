# SPDX-License-Identifier: BSD-3-Clause
"""Short names of the learners, for the command line and configuration files."""

from __future__ import annotations

from skbn.learners._boss import BOSS
from skbn.learners._exact import ExactSearch
from skbn.learners._fci import FCI
from skbn.learners._fcit import FCIT
from skbn.learners._fges import FGES
from skbn.learners._grasp import GRaSP
from skbn.learners._hill_climb import HillClimb
from skbn.learners._lingam import DirectLiNGAM
from skbn.learners._mmhc import MMHC
from skbn.learners._order_mcmc import OrderMCMC
from skbn.learners._pc import PCStable
from skbn.learners._rfci import RFCI
from skbn.learners._score_fci import BOSSFCI, GFCI, GRaSPFCI
from skbn.learners._tabu import TabuSearch

__all__ = [
    "AUTO_BOSS_MAX_FEATURES",
    "LEARNERS",
    "default_learner",
    "get_learner",
    "learners_taking",
]

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
    "fci": FCI,
    "rfci": RFCI,
    "gfci": GFCI,
    "boss-fci": BOSSFCI,
    "grasp-fci": GRaSPFCI,
    "fcit": FCIT,
    "mmhc": MMHC,
    "exact": ExactSearch,
    "mcmc": OrderMCMC,
    "lingam": DirectLiNGAM,
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


def learners_taking(parameter: str) -> list[str]:
    """The short names of the learners that have ``parameter`` (their ``get_params`` says).

    Parameters
    ----------
    parameter : str
        A learner parameter, e.g. ``"max_indegree"``.

    Returns
    -------
    list of str
        Keys of ``LEARNERS``, in its order.

    Examples
    --------
    >>> learners_taking("max_indegree")
    ['hc', 'tabu', 'mmhc', 'exact', 'mcmc']
    """
    return [name for name, cls in LEARNERS.items() if parameter in cls().get_params()]


def get_learner(name: str, *, n_features: int | None = None, **params):
    """A learner by short name (see ``LEARNERS``), with parameters.

    ``"auto"`` is :func:`default_learner`'s choice for ``n_features`` columns, the one the
    command line makes when no learner is named. A parameter the learner does not have is
    refused, naming the learners that have it.

    Parameters
    ----------
    name : str
        A key of ``LEARNERS``, or ``"auto"``.
    n_features : int, optional
        Number of columns of the data; needed for ``"auto"`` only.
    **params
        Parameters of the learner.

    Returns
    -------
    estimator
        An unfitted learner.

    Examples
    --------
    >>> get_learner("tabu", criterion="bdeu")
    TabuSearch(criterion='bdeu')
    >>> get_learner("auto", n_features=37, random_state=0)
    BOSS(polish=True, random_state=0)
    """
    if name == "auto":
        if n_features is None:
            raise ValueError(
                "get_learner('auto') chooses by the number of columns: pass n_features=."
            )
        learner = default_learner(n_features)
    elif name in LEARNERS:
        learner = LEARNERS[name]()
    else:
        raise ValueError(
            f"Unknown learner {name!r}; choose one of {', '.join(LEARNERS)} or 'auto'."
        )
    accepted = learner.get_params()
    unknown = [p for p in params if p not in accepted]
    if unknown:
        takers = learners_taking(unknown[0])
        verb = "takes" if len(takers) == 1 else "take"
        where = f"; {', '.join(takers)} {verb} it" if takers else ""
        raise ValueError(
            f"{type(learner).__name__} has no parameter {unknown[0]!r}{where}. Its parameters: "
            f"{', '.join(sorted(accepted))}."
        )
    return learner.set_params(**params)
