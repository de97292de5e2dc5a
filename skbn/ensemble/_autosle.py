# SPDX-License-Identifier: BSD-3-Clause
"""Auto-SLE (Liu et al.): learn a structure-learning ensemble greedily by Bayesian optimisation."""

from __future__ import annotations

import contextlib
import hashlib
import json
import time
import warnings
from numbers import Integral, Real

import networkx as nx
import numpy as np
import optuna
import pandas as pd
from optuna.distributions import (
    BaseDistribution,
    CategoricalDistribution,
    FloatDistribution,
    IntDistribution,
)
from sklearn.base import clone

from skbn import metrics
from skbn.base import BaseStructureLearner
from skbn.data import check_data
from skbn.datasets._problems import make_training_problems
from skbn.ensemble._sle import FallbackSelectedWarning, StructureLearningEnsemble, select_output
from skbn.graph._convert import as_adjacency, from_adjacency, to_adjacency
from skbn.learners import BOSS, FGES, PCStable
from skbn.model_selection._resampling import FitJob, run_fits
from skbn.scores import Score
from skbn.utils._optuna_slots import SlotRunner, open_storage, quiet_optuna
from skbn.utils._parallel import N_JOBS_CONSTRAINT
from skbn.utils._param_validation import Interval, StrOptions
from skbn.utils._random import draw_seed

__all__ = [
    "AutoSLEEnsemble",
    "default_search_space",
    "ensemble_quality",
    "members_from_study",
    "selected_qualities",
]

_LEARNER = "learner"
_QUALITIES = {
    "f1_adjacency": metrics.f1_adjacency,
    "f1_arrowhead": metrics.f1_arrowhead,
    "f1": lambda truth, learned: metrics.precision_recall_f1(truth, learned).f1,
}


def default_search_space(paper: bool = False) -> dict:
    """Candidate learners and hyperparameter ranges: the paper's (section IV-A3) and BOSS.

    PC-Stable with its significance level in [0.01, 0.2] and search depth (largest
    conditioning set) in [1, 1000]; FGES with penalty discount in [1, 1000] (log scale),
    maximum degree in [1, 1000] and the faithfulness assumption on or off; and, unless
    ``paper=True``, BOSS (which the paper predates) with its penalty discount in [1, 1000]
    (log scale), on the same Gaussian BIC as FGES.

    Parameters
    ----------
    paper : bool, default=False
        Only the paper's two learners (to reproduce its results).

    Returns
    -------
    dict
        ``{name: (learner, {parameter: optuna distribution})}``; add entries to search more
        learners.

    Examples
    --------
    >>> sorted(default_search_space())
    ['boss', 'fges', 'pc_stable']
    >>> sorted(default_search_space(paper=True))
    ['fges', 'pc_stable']
    """
    space = {
        "pc_stable": (
            PCStable(),
            {
                "alpha": FloatDistribution(0.01, 0.2),
                "max_cond_size": IntDistribution(1, 1000),
            },
        ),
        "fges": (
            FGES("bic"),  # the paper's fGES: Gaussian BIC with a searched penalty discount
            {
                "penalty_discount": FloatDistribution(1.0, 1000.0, log=True),
                "max_degree": IntDistribution(1, 1000),
                "faithfulness": CategoricalDistribution([False, True]),
            },
        ),
    }
    if not paper:
        space["boss"] = (
            BOSS("bic", random_state=0),
            {"penalty_discount": FloatDistribution(1.0, 1000.0, log=True)},
        )
    return space


def ensemble_quality(per_member: np.ndarray) -> float:
    """Q of an ensemble: the mean over problems of its best member's quality.

    Parameters
    ----------
    per_member : array-like of shape (n_members, n_problems)
        Each member's quality on each problem; the empty ensemble has quality 0.

    Returns
    -------
    float

    Examples
    --------
    >>> ensemble_quality(np.array([[1.0, 0.2], [0.5, 0.8]]))
    0.9
    """
    per_member = np.asarray(per_member, dtype=float)
    if per_member.size == 0:
        return 0.0
    return float(np.mean(per_member.max(axis=0)))


def selected_qualities(qualities, scores, extendable) -> np.ndarray:
    """Per problem, the quality of the member the ensemble's selection would return.

    The rule :class:`StructureLearningEnsemble` applies on new data: among the members
    whose output has a consistent DAG extension (all of them if none has), the highest
    selection score wins, ties to the earlier member.

    Parameters
    ----------
    qualities, scores : array-like of shape (n_members, n_problems)
        Each member's quality and selection score on each problem.
    extendable : array-like of bool, shape (n_members, n_problems)

    Returns
    -------
    ndarray of shape (n_problems,)
        Zeros for the empty ensemble.

    Examples
    --------
    >>> q = [[0.9, 0.2], [0.5, 0.8]]
    >>> s = [[-10.0, -5.0], [-12.0, -1.0]]
    >>> selected_qualities(q, s, [[True, True], [True, True]]).tolist()
    [0.9, 0.8]
    >>> selected_qualities(q, s, [[False, True], [True, True]]).tolist()
    [0.5, 0.8]
    """
    q = np.asarray(qualities, dtype=float)
    if q.size == 0:
        return np.zeros(q.shape[1] if q.ndim == 2 else 0)
    s = np.asarray(scores, dtype=float)
    ext = np.asarray(extendable, dtype=bool)
    pool = ext | ~ext.any(axis=0, keepdims=True)
    best = np.argmax(np.where(pool, s, -np.inf), axis=0)
    return q[best, np.arange(q.shape[1])]


def _check_search_space(space) -> dict:
    if not isinstance(space, dict) or not space:
        raise ValueError(
            "search_space must be a non-empty dict {name: (learner, {parameter: "
            "optuna distribution})}; see default_search_space()."
        )
    for name, entry in space.items():
        if not isinstance(name, str) or "__" in name:
            raise ValueError(f"search_space names must be strings without '__', got {name!r}.")
        if not (isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[1], dict)):
            raise ValueError(
                f"search_space[{name!r}] must be (learner, {{parameter: distribution}})."
            )
        learner, dists = entry
        valid = learner.get_params(deep=False)
        for param, dist in dists.items():
            if param not in valid:
                raise ValueError(
                    f"search_space[{name!r}]: {type(learner).__name__} has no parameter "
                    f"{param!r}; its parameters are {sorted(valid)}."
                )
            if not isinstance(dist, BaseDistribution):
                raise TypeError(
                    f"search_space[{name!r}][{param!r}] must be an optuna distribution "
                    f"(FloatDistribution, IntDistribution, CategoricalDistribution), got {dist!r}."
                )
    return space


def _suggest(trial, space: dict) -> tuple[str, dict]:
    """Ask ``trial`` for a learner and its hyperparameters (conditional on the learner)."""
    name = trial.suggest_categorical(_LEARNER, list(space))
    params = {}
    for param, dist in space[name][1].items():
        key = f"{name}__{param}"
        if isinstance(dist, FloatDistribution):
            params[param] = trial.suggest_float(
                key, dist.low, dist.high, log=dist.log, step=dist.step
            )
        elif isinstance(dist, IntDistribution):
            params[param] = trial.suggest_int(
                key, dist.low, dist.high, log=dist.log, step=dist.step
            )
        elif isinstance(dist, CategoricalDistribution):
            params[param] = trial.suggest_categorical(key, list(dist.choices))
        else:  # pragma: no cover - checked in _check_search_space
            raise TypeError(f"Unsupported distribution {dist!r}.")
    return name, params


def _config_from_params(params: dict, space: dict) -> tuple[str, dict]:
    name = params[_LEARNER]
    prefix = f"{name}__"
    return name, {k[len(prefix) :]: v for k, v in params.items() if k.startswith(prefix)}


def _quality_function(quality):
    if callable(quality):
        return quality
    if not isinstance(quality, str):
        raise TypeError(f"quality must be a string or a callable, got {type(quality).__name__}.")
    parts = [part.strip() for part in quality.split("+")]
    unknown = [part for part in parts if part not in _QUALITIES]
    if unknown:
        raise ValueError(
            f"Unknown quality term(s) {unknown}; use a '+'-joined combination of "
            f"{sorted(_QUALITIES)} or a callable(truth, learned) -> float >= 0."
        )
    functions = [_QUALITIES[part] for part in parts]
    return lambda truth, learned: sum(f(truth, learned) for f in functions)


def _check_problems(problems) -> list:
    if not isinstance(problems, (list, tuple)) or len(problems) == 0:
        raise ValueError(
            "problems must be a non-empty list of (X, true_graph) pairs, an int (that many "
            "problems from make_training_problems) or None."
        )
    checked = []
    for k, item in enumerate(problems):
        if not (isinstance(item, tuple) and len(item) == 2):
            raise ValueError(f"problems[{k}] must be an (X, true_graph) pair.")
        X, truth = item
        if not isinstance(X, pd.DataFrame):
            X = pd.DataFrame(np.asarray(X))
            X.columns = [f"x{j}" for j in range(X.shape[1])]
        names = [str(c) for c in X.columns]
        if isinstance(truth, nx.DiGraph):
            missing = set(names) ^ {str(v) for v in truth.nodes}
            if missing:
                raise ValueError(
                    f"problems[{k}]: the true graph's nodes and X's columns differ: "
                    f"{sorted(missing)[:8]}."
                )
        else:
            truth = np.asarray(truth)
            if truth.shape != (len(names), len(names)):
                raise ValueError(
                    f"problems[{k}]: a true graph given as an array must be "
                    f"({len(names)}, {len(names)}), got {truth.shape}."
                )
            truth = from_adjacency(truth != 0, names, kind="dag")
        checked.append((X, truth))
    return checked


def _fingerprint(problems, space, quality, seed, batch_size, credit="best", selection=None) -> str:
    h = hashlib.sha256()
    for X, truth in problems:
        h.update(json.dumps([str(c) for c in X.columns]).encode())
        h.update(np.ascontiguousarray(X.to_numpy()).tobytes())
        A, nodes = as_adjacency(truth)
        h.update(json.dumps([str(v) for v in nodes]).encode())
        h.update(np.ascontiguousarray(A, dtype=np.int8).tobytes())
    for name, (learner, dists) in space.items():
        h.update(repr((name, learner, sorted((k, repr(v)) for k, v in dists.items()))).encode())
    h.update(repr((getattr(quality, "__name__", quality), seed, batch_size)).encode())
    if credit != "best":  # studies made before ``credit`` existed keep their fingerprint
        h.update(repr((credit, selection)).encode())
    return h.hexdigest()


def _qualities(estimator, problems, quality, n_jobs, selection=False, selection_score=None):
    """The quality of ``estimator``'s output on every training problem (one engine run).

    With ``selection``, also each output's selection score and whether it has a consistent
    extension (as :func:`~skbn.ensemble._sle.select_output` computes them on new data).
    """
    outcomes = run_fits(
        [FitJob(estimator, data=k) for k in range(len(problems))],
        [data for data, _ in problems],
        n_jobs=n_jobs,
        desc="training problems",
    )
    values, scores, extendable = [], [], []
    for (data, truth), o in zip(problems, outcomes):
        value = float(quality(truth, from_adjacency(o.adjacency, list(data.names), kind=o.kind)))
        if not np.isfinite(value) or value < 0:
            raise ValueError(f"The quality measure must return a finite value >= 0, got {value}.")
        values.append(value)
        if selection:
            with warnings.catch_warnings():  # one output alone: its fallback warning says nothing
                warnings.simplefilter("ignore", FallbackSelectedWarning)
                score, ext, _ = select_output(data, selection_score, [o.adjacency], ["member"])
            scores.append(float(score[0]))
            extendable.append(bool(ext[0]))
    values = np.asarray(values, dtype=float)
    if not selection:
        return values
    return values, np.asarray(scores, dtype=float), np.asarray(extendable, dtype=bool)


def _best_of_step(done: dict):
    """The trial a greedy step keeps: the highest gain, ties to the earliest slot."""
    slot = min(done, key=lambda s: (-done[s].value, s))
    return done[slot]


def members_from_study(
    study, search_space=None, n_steps: int | None = None, credit: str = "best"
) -> dict:
    """The members a finished (or interrupted) Auto-SLE study chose, read from its trials.

    The selection phase on its own: for each greedy step recorded in ``study`` the trial
    with the highest gain (ties to the earliest slot) is the member, until a step has no
    completed trial or no positive gain. No learner is fitted.

    Parameters
    ----------
    study : optuna.Study
        A study made by :meth:`AutoSLEEnsemble.learn_members` (its trials carry the step,
        the slot and the per-problem qualities).
    search_space : dict, default=None
        The study's search space; None means :func:`default_search_space`.
    n_steps : int, default=None
        Read at most this many steps.
    credit : {"best", "selected"}, default="best"
        The ``credit`` the study was run with; it decides how ``quality`` is computed.

    Returns
    -------
    dict
        ``members`` (list of (name, learner)), ``gains``, ``member_qualities`` (one row per
        member), ``quality``.

    Examples
    --------
    >>> from optuna.distributions import FloatDistribution
    >>> from skbn.datasets import make_training_problems
    >>> from skbn.learners import FGES
    >>> problems = make_training_problems(3, n_nodes=(5, 8), n_samples=200, random_state=0)
    >>> space = {"fges": (FGES(), {"penalty_discount": FloatDistribution(1.0, 9.0)})}
    >>> auto = AutoSLEEnsemble(space, ensemble_size=2, n_trials=3, problems=problems,
    ...                        random_state=0).learn_members()
    >>> members_from_study(auto.study_, space)["gains"] == auto.gains_
    True
    """
    from skbn.utils._optuna_slots import SlotRunner

    space = default_search_space() if search_space is None else search_space
    if credit not in ("best", "selected"):
        raise ValueError(f"credit must be 'best' or 'selected', got {credit!r}.")
    members, gains, rows, scores, extendable = [], [], [], [], []
    step = 0
    while n_steps is None or step < n_steps:
        done = SlotRunner.completed_in(study, step)
        if not done:
            break
        trial = _best_of_step(done)
        if trial.value <= 1e-12:
            break
        learner_name, config = _config_from_params(trial.params, space)
        members.append(
            (f"{learner_name}-{step}", clone(space[learner_name][0]).set_params(**config))
        )
        gains.append(float(trial.value))
        rows.append(np.asarray(trial.user_attrs["quality"], dtype=float))
        if credit == "selected":
            scores.append(trial.user_attrs["selection_score"])
            extendable.append(trial.user_attrs["extendable"])
        step += 1
    table = np.vstack(rows) if rows else np.zeros((0, 0))
    if credit == "selected" and rows:
        quality = float(np.mean(selected_qualities(table, scores, extendable)))
    else:
        quality = ensemble_quality(table)
    return {"members": members, "gains": gains, "member_qualities": table, "quality": quality}


class AutoSLEEnsemble(BaseStructureLearner):
    """Learn a structure-learning ensemble from training problems (Liu et al.'s Auto-SLE).

    The ensemble is built greedily. Step ``i`` runs a Bayesian optimisation (Optuna, TPE by
    default) over the candidate learners and their hyperparameters, maximising the gain
    ``Q(A + {theta}) - Q(A)`` where ``A`` holds the members chosen so far and ``Q`` is the
    mean over the training problems of the best member's quality (by default F1 of the
    adjacencies plus F1 of the arrowheads against the true CPDAG). The best configuration
    joins the ensemble; the search stops after ``ensemble_size`` members or when no
    configuration gains anything. The per-problem qualities of the chosen members are kept,
    so each trial costs one fit per training problem.

    On new data, ``fit`` runs every member and keeps the output with the best
    ``selection_score`` (:class:`StructureLearningEnsemble`).

    Parameters
    ----------
    search_space : dict, default=None
        ``{name: (learner, {parameter: optuna distribution})}``; None means
        :func:`default_search_space` (the paper's PC-Stable and FGES ranges, and BOSS).
    ensemble_size : int, default=4
    n_trials : int, default=100
        Trials per greedy step.
    problems : list of (X, true_graph), int or None, default=None
        Training problems with known truth; an int asks :func:`make_training_problems` for
        that many, None for 100 (the paper's recipe: pieces of 5 to 1,000 variables of
        replicated bnlearn networks with linear-Gaussian data). The paper's budget for this
        was about 48 hours; pass smaller problems for a quick ensemble.
    quality : str or callable, default="f1_adjacency+f1_arrowhead"
        A ``+``-joined combination of ``"f1_adjacency"``, ``"f1_arrowhead"`` and ``"f1"``,
        or ``callable(true_graph, learned_graph) -> float >= 0``.
    selection_score : str, Score or None, default=None
        Picks the member output on new data, by family name or as an object; None means
        ``"bic"`` (GaussianBIC on continuous data, BIC on discrete data).
    credit : {"best", "selected"}, default="best"
        Which member's quality ``Q`` credits on each training problem. ``"best"`` is the
        paper's: the best member's, as if the truth picked the output. ``"selected"`` (our
        extension) credits the member that ``selection_score`` picks, as the ensemble does on
        new data (:func:`selected_qualities`), so a member that wins the selection without
        being accurate costs what it costs at test time. The paper's ``Q`` never penalises
        such a member: with BIC selection, an FGES member with a small penalty discount
        tends to win every selection, and the learned ensemble then behaves like that member
        alone (see the Auto-SLE method page). With ``"selected"`` a gain can be negative and
        ``Q`` is no longer submodular, so the paper's approximation bound does not apply.
    sampler : optuna sampler, callable or None, default=None
        None: TPE seeded per trial from ``random_state``. A callable ``seed -> sampler`` is
        called the same way (e.g. ``lambda s: optuna.samplers.TPESampler(seed=s,
        multivariate=True)``), which keeps runs reproducible. A sampler instance is shared by
        all proposals; results then depend on its state and are not reproducible on resume.
    storage : str, optuna storage or None, default=None
        Where the study lives. None keeps it in memory. A URL such as
        ``"sqlite:///autosle.db"`` makes the search resumable: an interrupted run continues
        from the completed trials. A server URL (``"postgresql://..."``) lets several
        processes or machines share the search: start the same ``learn_members`` call in
        each. Trials of a worker not heard from for 60 s are failed and redone.
    study_name : str, default=None
        None derives a name from the problems and settings, so the same call resumes the
        same study. A stored study made for other problems or settings is refused.
    timeout : float, default=None
        Seconds after which no new trial starts; the members found by then are kept (the
        result then depends on the machine's speed).
    batch_size : int, default=1
        Trials proposed together from the same history. With ``k`` workers sharing a study,
        ``batch_size=k`` keeps all of them busy; the result depends on ``batch_size`` but
        never on the number of workers.
    warm_start : bool, default=False
        ``fit`` reuses the members already learned instead of learning them afresh.
    n_jobs : int, default=None
        Training problems evaluated in parallel within a trial (joblib), and members fitted
        in parallel by ``fit``.
    random_state : int, RandomState instance or None, default=None
    verbose : int, default=0
        1 shows a progress bar per greedy step and the chosen members; 2 also prints every
        trial.

    Attributes
    ----------
    members_ : list of (str, learner)
        The chosen configurations, in the order they were added.
    gains_ : list of float
        Training-set gain of each member when it was added.
    quality_ : float
        ``Q`` of the learned ensemble on the training problems (under ``credit``).
    member_qualities_ : ndarray of shape (n_members, n_problems)
        Each member's quality on each training problem.
    member_selection_scores_ : ndarray of shape (n_members, n_problems)
        With ``credit="selected"``: each member's selection score on each training problem
        (``member_extendable_`` says whether its output had a consistent extension).
    study_ : optuna.Study
        Every trial of every step (user attributes ``skbn:step`` and ``skbn:slot``).
    ensemble_ : StructureLearningEnsemble
        Fitted on ``X`` by ``fit``; ``graph_``, ``selection_scores_``, ``best_estimator_``
        and ``estimators_`` are its.

    Notes
    -----
    Reproducibility: the configuration tried in slot ``s`` of step ``i`` comes from a sampler
    seeded by ``(random_state, i, s)`` that sees the completed trials of the earlier batches
    only, so the learned members depend on the problems, the search space, ``n_trials``,
    ``batch_size`` and ``random_state`` -- not on ``n_jobs``, the number of workers or
    interruptions.

    The work comes in three phases, each callable on its own: :meth:`learn_members` runs the
    study (and picks each step's member as it goes), :func:`members_from_study` reads the
    chosen members back from a stored study without fitting anything, and ``fit`` applies
    the ensemble to new data. ``fit`` starts afresh, learning the members again (a stored
    study resumes, so a repeated ``fit`` with ``storage`` runs no new trial); with
    ``warm_start=True`` it reuses ``members_`` from an earlier ``learn_members`` or ``fit``.
    A clone (e.g. inside :class:`PEFLearner`) would learn them again, so pass
    ``to_ensemble()`` to other meta-estimators.

    References
    ----------
    Liu et al., "Auto-SLE: automatic learning of structure learning ensembles for large
    Bayesian networks" (arXiv 2506.22848), Algorithm 1.

    Examples
    --------
    >>> from optuna.distributions import FloatDistribution
    >>> from skbn.datasets import make_training_problems
    >>> from skbn.learners import FGES
    >>> problems = make_training_problems(4, n_nodes=(5, 12), n_samples=300, random_state=0)
    >>> space = {"fges": (FGES(), {"penalty_discount": FloatDistribution(1.0, 50.0, log=True)})}
    >>> auto = AutoSLEEnsemble(space, ensemble_size=2, n_trials=4, problems=problems,
    ...                        warm_start=True, random_state=0)
    >>> auto = auto.learn_members()
    >>> len(auto.members_) <= 2, auto.gains_[0] > 0
    (True, True)
    >>> X, _ = make_training_problems(1, n_nodes=(8, 8), n_samples=300, random_state=1)[0]
    >>> auto.fit(X).graph_.number_of_nodes()
    8
    """

    _family_parameters = ("selection_score",)
    _parameter_constraints = {
        "search_space": [dict, None],
        "ensemble_size": [Interval(Integral, 1, None, closed="left")],
        "n_trials": [Interval(Integral, 1, None, closed="left")],
        "problems": [list, tuple, Interval(Integral, 1, None, closed="left"), None],
        "quality": [str, callable],
        "selection_score": [Score, str, None],
        "credit": [StrOptions({"best", "selected"})],
        "sampler": [optuna.samplers.BaseSampler, callable, None],
        "storage": [str, optuna.storages.BaseStorage, None],
        "study_name": [str, None],
        "timeout": [Interval(Real, 0, None, closed="neither"), None],
        "batch_size": [Interval(Integral, 1, None, closed="left")],
        "warm_start": ["boolean"],
        "n_jobs": N_JOBS_CONSTRAINT,
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }

    def __init__(
        self,
        search_space: dict | None = None,
        *,
        ensemble_size: int = 4,
        n_trials: int = 100,
        problems=None,
        quality="f1_adjacency+f1_arrowhead",
        selection_score: Score | str | None = None,
        credit: str = "best",
        sampler=None,
        storage=None,
        study_name: str | None = None,
        timeout: float | None = None,
        batch_size: int = 1,
        warm_start: bool = False,
        n_jobs=None,
        random_state=None,
        verbose: int = 0,
    ) -> None:
        self.search_space = search_space
        self.ensemble_size = ensemble_size
        self.n_trials = n_trials
        self.problems = problems
        self.quality = quality
        self.selection_score = selection_score
        self.credit = credit
        self.sampler = sampler
        self.storage = storage
        self.study_name = study_name
        self.timeout = timeout
        self.batch_size = batch_size
        self.warm_start = warm_start
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose

    # -- learning the members ----------------------------------------------------------------
    def _log(self, message: str) -> None:
        # verbose=1: progress bars and the chosen members; 2 and more: every trial too
        per_trial = " slot " in message
        if self.verbose >= 2 or (self.verbose == 1 and not per_trial):
            print(f"[AutoSLE] {message}", flush=True)

    def _make_sampler(self):
        if self.sampler is None:
            return lambda seed: optuna.samplers.TPESampler(seed=seed)
        if isinstance(self.sampler, optuna.samplers.BaseSampler):
            return lambda seed: self.sampler
        return self.sampler

    def learn_members(self, problems=None) -> AutoSLEEnsemble:
        """Run the greedy search on training problems and set ``members_``.

        Parameters
        ----------
        problems : list of (X, true_graph), int or None, default=None
            Overrides the ``problems`` parameter for this call.

        Returns
        -------
        self
        """
        from skbn.utils._param_validation import validate_params_of

        validate_params_of(self)
        space = _check_search_space(
            default_search_space() if self.search_space is None else self.search_space
        )
        quality = _quality_function(self.quality)
        storage = open_storage(self.storage)  # a bad URL fails before any work
        problems = self.problems if problems is None else problems
        seed = draw_seed(self.random_state)
        if problems is None or isinstance(problems, Integral):
            n = 100 if problems is None else int(problems)
            self._log(f"generating {n} training problems")
            problems = make_training_problems(n, random_state=seed)
        problems = _check_problems(problems)
        selected = self.credit == "selected"
        fingerprint = _fingerprint(
            problems,
            space,
            self.quality,
            seed,
            self.batch_size,
            self.credit,
            repr(self.selection_score),
        )
        # each training problem is checked and encoded once for all trials
        checked = [(check_data(X), truth) for X, truth in problems]
        name = self.study_name or f"autosle-{fingerprint[:16]}"
        with contextlib.nullcontext() if self.verbose else quiet_optuna():
            study = optuna.create_study(
                storage=storage, study_name=name, direction="maximize", load_if_exists=True
            )
        stored = study.user_attrs.get("skbn:fingerprint")
        if stored is None:
            study.set_user_attr("skbn:fingerprint", fingerprint)
        elif stored != fingerprint:
            raise ValueError(
                f"The stored study {name!r} was made for other training problems, search "
                "space, quality, batch_size or random_state; use another study_name or "
                "delete that study (optuna.delete_study)."
            )

        def evaluate_config(params, best_so_far, chosen):
            learner_name, config = _config_from_params(params, space)
            estimator = clone(space[learner_name][0]).set_params(**config)
            if not selected:
                q = _qualities(estimator, checked, quality, self.n_jobs)
                gain = float(np.mean(np.maximum(best_so_far, q)) - np.mean(best_so_far))
                return gain, {"quality": q.tolist(), "learner_name": learner_name}
            q, sc, ext = _qualities(
                estimator, checked, quality, self.n_jobs, True, self.selection_score
            )
            qs, scs, exts = chosen
            after = selected_qualities([*qs, q], [*scs, sc], [*exts, ext])
            gain = float(np.mean(after) - np.mean(best_so_far))
            attrs = {"quality": q.tolist(), "learner_name": learner_name}
            return gain, {**attrs, "selection_score": sc.tolist(), "extendable": ext.tolist()}

        # per problem: the quality the ensemble so far is credited with (under ``credit``)
        best = np.zeros(len(problems))
        member_s, member_e = [], []
        runner = None
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        members, gains, member_q = [], [], []
        n_completed = 0
        for step in range(self.ensemble_size):
            base = best.copy()
            chosen = (list(member_q), list(member_s), list(member_e))
            bar = None
            if self.verbose == 1:
                from tqdm.auto import tqdm

                already = len(SlotRunner.completed_in(study, step))
                bar = tqdm(total=self.n_trials, initial=already, desc=f"Auto-SLE member {step}")
            runner = SlotRunner(
                study,
                storage,
                lambda trial: _suggest(trial, space),
                lambda params, base=base, chosen=chosen: evaluate_config(params, base, chosen),
                self._make_sampler(),
                seed=seed,
                batch_size=self.batch_size,
                deadline=deadline,
                log=self._log,
                on_trial=bar.update if bar is not None else (lambda: None),
            )
            try:
                done = runner.run(step, self.n_trials)
            finally:
                if bar is not None:
                    bar.close()
            if not done:
                break
            n_completed += len(done)
            trial = _best_of_step(done)
            if trial.value <= 1e-12:
                self._log(f"step {step}: no configuration gains anything; stopping")
                break
            learner_name, config = _config_from_params(trial.params, space)
            estimator = clone(space[learner_name][0]).set_params(**config)
            q = np.asarray(trial.user_attrs["quality"], dtype=float)
            members.append((f"{learner_name}-{step}", estimator))
            gains.append(float(trial.value))
            member_q.append(q)
            if selected:
                member_s.append(np.asarray(trial.user_attrs["selection_score"], dtype=float))
                member_e.append(np.asarray(trial.user_attrs["extendable"], dtype=bool))
                best = selected_qualities(member_q, member_s, member_e)
            else:
                best = np.maximum(best, q)
            self._log(f"step {step}: added {learner_name} {config} (gain {trial.value:.4f})")
        if not members and n_completed:
            raise RuntimeError(
                f"Auto-SLE found no member: {n_completed} trial(s) completed, but no "
                "configuration gained anything over the empty ensemble (every learner's "
                "quality was 0 on the training problems); try more trials, more or larger "
                "training problems, or another quality measure."
            )
        if not members:
            raise RuntimeError(
                "Auto-SLE found no member: no trial completed"
                + (" before the timeout." if deadline is not None else ".")
            )
        self.members_ = members
        self.gains_ = gains
        self.member_qualities_ = np.vstack(member_q)
        if selected:
            self.member_selection_scores_ = np.vstack(member_s)
            self.member_extendable_ = np.vstack(member_e)
            self.quality_ = float(np.mean(best))
        else:
            self.quality_ = ensemble_quality(self.member_qualities_)
        self.study_ = study
        return self

    def to_ensemble(self) -> StructureLearningEnsemble:
        """Return the learned members as an unfitted :class:`StructureLearningEnsemble`.

        Returns
        -------
        StructureLearningEnsemble
        """
        if not hasattr(self, "members_"):
            from sklearn.exceptions import NotFittedError

            raise NotFittedError(
                "This AutoSLEEnsemble has no members yet; call learn_members() or fit() first."
            )
        return StructureLearningEnsemble(
            [(name, clone(est)) for name, est in self.members_],
            selection_score=self.selection_score,
            n_jobs=self.n_jobs,
            verbose=max(0, self.verbose - 1),
        )

    # -- fitting -----------------------------------------------------------------------------
    def _learn(self, data, prepared):
        if not (self.warm_start and hasattr(self, "members_")):
            self.learn_members()
        self.ensemble_ = ensemble = self.to_ensemble().fit(data.to_frame())
        for attr in (
            "estimators_",
            "member_names_",
            "selection_scores_",
            "extendable_",
            "best_index_",
            "best_estimator_",
            "fit_times_",
        ):
            setattr(self, attr, getattr(ensemble, attr))
        A = to_adjacency(ensemble.graph_, list(data.names))
        kind = ensemble.graph_.graph.get("kind", "pdag")
        return A, kind
