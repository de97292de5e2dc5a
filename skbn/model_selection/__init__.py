# SPDX-License-Identifier: BSD-3-Clause
"""Model selection for structure learners: tuning, resampling and structure scorers.

``OTSLSearchCV`` (out-of-sample tuning, Chobtham & Constantinou) scores each configuration's
learned structure on out-of-bag bootstrap data; ``OutOfSampleBootstrap`` is its splitter and
works in scikit-learn's own ``GridSearchCV``. The structure scorers (``ebic_scorer``,
``bdeu_scorer``, ...) score ``graph_`` on held-out data; ``make_truth_scorer`` compares it
with a known truth. ``InSampleSearchCV``, ``StARSSearchCV`` and ``OCTSearchCV``
(Markov-blanket predictions, Biza et al.) are the baselines of the OTSL paper's comparison.
Intersection-Validation (``intersection_validate``, ``InterValSearchCV``, ``InterValScorer``)
compares learners without ground truth through the agreement graph of their CPDAGs.
"""

from skbn.model_selection._interval import (
    InterValResult,
    InterValScorer,
    InterValSearchCV,
    agreement_graph,
    intersection_validate,
    make_interval_scorer,
)
from skbn.model_selection._oct import (
    OCTSearchCV,
    markov_blankets,
    prediction_mutual_information,
)
from skbn.model_selection._otsl import InSampleSearchCV, OTSLRandomSearchCV, OTSLSearchCV
from skbn.model_selection._scorers import (
    aic_scorer,
    auto_scorer,
    bdeu_scorer,
    bic_scorer,
    ebic_scorer,
    get_structure_scorer,
    loglik_scorer,
    make_normalised_ebic_scorer,
    make_structure_scorer,
    make_truth_scorer,
)
from skbn.model_selection._split import InSampleSplit, OutOfSampleBootstrap, SubsampleSplit
from skbn.model_selection._stars import StARSSearchCV

__all__ = [
    "OCTSearchCV",
    "markov_blankets",
    "prediction_mutual_information",
    "InSampleSearchCV",
    "InterValResult",
    "InterValScorer",
    "InterValSearchCV",
    "SubsampleSplit",
    "agreement_graph",
    "intersection_validate",
    "make_interval_scorer",
    "InSampleSplit",
    "OTSLRandomSearchCV",
    "OTSLSearchCV",
    "OutOfSampleBootstrap",
    "StARSSearchCV",
    "aic_scorer",
    "auto_scorer",
    "bdeu_scorer",
    "bic_scorer",
    "ebic_scorer",
    "get_structure_scorer",
    "loglik_scorer",
    "make_normalised_ebic_scorer",
    "make_structure_scorer",
    "make_truth_scorer",
]
