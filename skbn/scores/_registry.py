# SPDX-License-Identifier: BSD-3-Clause
"""The score families and the one function that picks a score for a kind of data."""

from __future__ import annotations

from skbn.scores._base import Score
from skbn.scores._basis import BasisFunctionBIC
from skbn.scores._discrete import AIC, BIC, EBIC, FNML, K2, BDeu, LogLikelihood
from skbn.scores._gaussian import BGe, GaussianAIC, GaussianBIC, GaussianEBIC, GaussianLogLikelihood
from skbn.scores._mixed import CGAIC, CGBIC, CGEBIC, CGLogLikelihood
from skbn.utils._registry import FamilyRegistry

__all__ = ["SCORES", "get_score", "get_score_names"]

#: Family name -> score class per data kind. Aliases are the names bnlearn (``"bic-g"``,
#: ``"bde"``, ``"loglik"``), pgmpy (``"bic-d"``, ``"bdeuscore"``, ``"ll-g"``) and Tetrad users
#: type; an alias ending in ``-g`` or ``-d`` accepts only that kind of data.
SCORES = FamilyRegistry("score", Score, "criterion")
SCORES.register(
    "bic",
    discrete=BIC,
    gaussian=GaussianBIC,
    mixed=CGBIC,
    description="log-likelihood minus penalty_discount * log(n) / 2 per free parameter",
    aliases={
        "bic-d": ("discrete", {}),
        "bic-g": ("gaussian", {}),
        "bicscore": (None, {}),
        "sem-bic": ("gaussian", {}),
        "bic-cg": ("mixed", {}),
    },
)
SCORES.register(
    "aic",
    discrete=AIC,
    gaussian=GaussianAIC,
    mixed=CGAIC,
    description="log-likelihood minus penalty_discount per free parameter",
    aliases={
        "aic-d": ("discrete", {}),
        "aic-g": ("gaussian", {}),
        "aic-cg": ("mixed", {}),
        "aicscore": (None, {}),
    },
)
SCORES.register(
    "ebic",
    discrete=EBIC,
    gaussian=GaussianEBIC,
    mixed=CGEBIC,
    description="BIC plus gamma * log(p) per free parameter (Chen & Chen)",
    aliases={"ebic-g": ("gaussian", {})},
)
SCORES.register(
    "loglik",
    discrete=LogLikelihood,
    gaussian=GaussianLogLikelihood,
    mixed=CGLogLikelihood,
    description="maximised log-likelihood, no penalty",
    aliases={
        "ll": (None, {}),
        "log_likelihood": (None, {}),
        "ll-d": ("discrete", {}),
        "ll-g": ("gaussian", {}),
        "loglik-g": ("gaussian", {}),
        "loglik-cg": ("mixed", {}),
    },
)
SCORES.register(
    "bdeu",
    discrete=BDeu,
    description="Bayesian Dirichlet equivalent uniform marginal likelihood",
    aliases={"bde": (None, {}), "bdeuscore": (None, {})},
)
SCORES.register(
    "k2",
    discrete=K2,
    description="Cooper & Herskovits' K2 marginal likelihood",
    aliases={"k2score": (None, {})},
)
SCORES.register("fnml", discrete=FNML, description="factorized normalized maximum likelihood")
SCORES.register(
    "bge",
    gaussian=BGe,
    description="Bayesian Gaussian equivalent marginal likelihood",
    aliases={"bgescore": (None, {})},
)
SCORES.register(
    "basis-bic",
    gaussian=BasisFunctionBIC,
    description="BIC of a Legendre embedding of each continuous variable (nonlinear relations)",
    aliases={"bf-bic": ("gaussian", {}), "basis-function-bic": ("gaussian", {})},
)
SCORES.set_default(
    discrete=("ebic", {"gamma": "auto"}), gaussian=("ebic", {"gamma": 1.0}), mixed="bic"
)
# Held-out scoring of a structure (OTSL's default scorer), chosen by measurement
# (examples/benchmarks/otsl_scoring.py): held-out BIC picked the sparsest configuration of a
# grid on discrete data, where the test bootstraps are small beside the tables; AIC did not.
SCORES.set_default("held_out", discrete="aic", gaussian="bic", mixed="bic")


def get_score(name: str | Score | None, kind: str = "discrete", **params) -> Score:
    """The score a family name stands for on a kind of data.

    Parameters
    ----------
    name : str, Score or None
        A family name (see :func:`get_score_names`) or alias, a score object (returned as it
        is if it suits ``kind``), or None for the default: ``"ebic"`` with ``gamma="auto"``
        on discrete data and with ``gamma=1`` on continuous data.
    kind : {"discrete", "gaussian"}, default="discrete"
    **params
        Parameters of the score, e.g. ``penalty_discount=2`` (names only).

    Returns
    -------
    Score

    Raises
    ------
    ValueError
        For an unknown name (the message lists the valid ones) or a score that does not exist
        for ``kind``.

    Examples
    --------
    >>> get_score("bic", "gaussian", penalty_discount=2)
    GaussianBIC(penalty_discount=2)
    >>> get_score("bde", iss=10)
    BDeu(iss=10)
    """
    return SCORES.resolve(name, kind, **params)


def get_score_names() -> list[str]:
    """Every name :func:`get_score` accepts: family names and aliases.

    Returns
    -------
    list of str

    Examples
    --------
    >>> "bdeu" in get_score_names() and "bic-g" in get_score_names()
    True
    """
    return SCORES.names()


def families_handling_missing(kind: str) -> list[str]:
    """The score families with an available-case form on data of ``kind``, asked of them.

    Examples
    --------
    >>> families_handling_missing("discrete")
    ['bic', 'aic', 'ebic', 'loglik']
    """
    return [
        name
        for name, family in SCORES.families.items()
        if kind in family.classes and SCORES.resolve(name, kind).handles_missing
    ]
