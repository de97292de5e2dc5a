# SPDX-License-Identifier: BSD-3-Clause
"""skbn's layers: which modules sit on which layer, lowest first.

A module imports only modules of its own layer and the layers below it. This table is the
one copy: ``tests/test_layers.py`` checks every import against it, and the documentation's
architecture picture (``docs/_scripts/architecture.py``) is drawn from it.
"""

#: (layer, name, what the layer is for, {module prefix: what it owns}); for a module, the
#: longest matching prefix decides its layer.
LAYERS = [
    (
        0,
        "kernels",
        "numba only; imports nothing from skbn",
        {
            "skbn._kernels": "counting, scores, CI tests, graph moves, sorting",
            "skbn._version": "the version",
            "skbn._layers": "this table",
        },
    ),
    (
        1,
        "utilities",
        "one policy each, no skbn objects",
        {
            "skbn.utils._param_validation": "scikit-learn's parameter validation",
            "skbn.utils._registry": "FamilyRegistry",
            "skbn.utils._parallel": "n_jobs, joblib, numba threads",
            "skbn.utils._search": "scikit-learn's search internals",
            "skbn.utils._numeric": "numeric helpers",
            "skbn.utils._memory": "memory= caches, data keys, allocation checks",
            "skbn.utils._random": "seeds",
            "skbn.utils._features": "n_features_in_ and feature_names_in_",
            "skbn.utils._optuna_slots": "reproducible Optuna studies shared by workers",
            "skbn.utils._warnings": "warnings at the caller's line",
        },
    ),
    (
        2,
        "data",
        "validation and encoding, once",
        {
            "skbn.data": "check_data -> DiscreteData | GaussianData | MixedData",
        },
    ),
    (
        3,
        "scores, tests, graphs, models",
        "bound objects over encoded data",
        {
            "skbn.utils._binding": "binding a score or test to data",
            "skbn.graph": "PDAG arrays, Meek rules, graph I/O",
            "skbn.scores": "decomposable scores",
            "skbn.ci_tests": "conditional-independence tests",
            "skbn.network": "fitted networks: CPTs, Gaussian and CG models",
            "skbn.inference": "posteriors of fitted networks, batched evidence",
            "skbn.causal": "adjustment sets of DAGs, effects by adjustment, IDA",
            "skbn.metrics": "SHD, F1 and the other graph metrics",
            "skbn.plotting": "drawing",
            "skbn.preprocessing": "supervised discretisation",
        },
    ),
    (
        4,
        "services",
        "the choices every learner asks for",
        {
            "skbn.scores._registry": "score families by data kind",
            "skbn.ci_tests._registry": "test families by data kind",
            "skbn.constraints": "allowed, forbidden, required arcs; tiers",
            "skbn.io": "BIF, NET, XDSL and graph files",
        },
    ),
    (
        5,
        "learners",
        "estimators whose fit(X) sets graph_",
        {
            "skbn.datasets": "bundled networks and problems",
            "skbn.base": "data kind, constraints, parameters, score_samples",
            "skbn.learners": "HillClimb, Tabu, BOSS, FGES, PC-Stable, MMHC, Exact, OrderMCMC, EM",
        },
    ),
    (
        6,
        "resampling engine",
        "fits on rows or columns; seeds; failures",
        {
            "skbn.model_selection._resampling": "run_fits, summarise_splits",
            "skbn.parameters": "ParameterLearner",
        },
    ),
    (
        7,
        "meta-estimators",
        "searches and ensembles over learners",
        {
            "skbn.model_selection": "OTSL, StARS, OCT, InterVal searches",
            "skbn.ensemble": "bootstrap + poset, PEF, SLE, Auto-SLE",
        },
    ),
    (
        8,
        "checks",
        "estimator checks for users' learners",
        {
            "skbn.utils.estimator_checks": "check_structure_learner",
            "skbn.utils.testing": "test helpers",
        },
    ),
    (
        9,
        "command line",
        "one module per subcommand",
        {
            "skbn.cli": "names from the registries",
        },
    ),
    (
        10,
        "package",
        "lazy top-level names",
        {
            "skbn": "skbn/__init__.py",
        },
    ),
]


def layer_of(module: str) -> int:
    """Return the layer of ``module`` (a dotted name under ``skbn``)."""
    best, layer = "", None
    for number, _, _, modules in LAYERS:
        for prefix in modules:
            matches = module == prefix or module.startswith(prefix + ".")
            if matches and len(prefix) > len(best):
                best, layer = prefix, number
    if layer is None:
        raise KeyError(f"{module} is not under skbn")
    return layer
