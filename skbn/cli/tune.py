# SPDX-License-Identifier: BSD-3-Clause
"""``skbn tune``: out-of-sample tuning of a learner's hyperparameters (OTSL)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from skbn.cli._common import (
    add_out,
    add_source,
    learner_from_spec,
    load_source,
    output_format,
    progress,
    refuse_network_file,
    save_figure,
    spec_help,
)
from skbn.cli._common import save_outputs as _save_outputs

__all__ = ["add_parser", "run"]

EXAMPLE = """example:
  skbn tune --network asia -n 2000 --learner hc:ebic --param criterion__gamma=0,0.5,1 --resamples 3
"""


#: One line for ``skbn --help``.
SUMMARY = "tune a learner's hyperparameters out of sample (OTSL)"


def _parse_value(text: str):
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return {"true": True, "false": False, "none": None}.get(text.lower(), text)


def _at_grid_edge(grid: dict, best: dict) -> dict:
    """Return the numeric parameters (three or more values) chosen at a grid extreme."""
    edges = {}
    for name, values in grid.items():
        numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if len(numbers) >= 3 and len(numbers) == len(values):
            if best.get(name) in (min(numbers), max(numbers)):
                edges[name] = best[name]
    return edges


def _parse_grid(items: list[str]) -> dict:
    grid = {}
    for item in items:
        name, sep, values = item.partition("=")
        if not sep or not values:
            raise ValueError(f"--param expects NAME=V1,V2,..., got {item!r}.")
        grid[name.strip()] = [_parse_value(v.strip()) for v in values.split(",")]
    return grid


def add_parser(commands) -> None:
    """Register ``tune`` on the subparsers ``commands``."""
    tune = commands.add_parser(
        "tune",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        help=SUMMARY,
        description="Out-of-sample tuning (OTSLSearchCV): fit every configuration on bootstrap "
        "training sets and score its structure on out-of-bag data; refit the best on all rows.",
    )
    add_source(tune)
    tune.add_argument(
        "--learner",
        default="hc",
        help=spec_help() + " (default: hc with the library's default score, as in skbn learn)",
    )
    tune.add_argument(
        "--param",
        action="append",
        required=True,
        metavar="NAME=V1,V2,...",
        help="a hyperparameter and its values, e.g. criterion__penalty_discount=1,2,4,8 "
        "(repeat for a grid)",
    )
    tune.add_argument(
        "--scoring",
        default="auto",
        help="structure scorer: auto (AIC on discrete data, BIC on continuous data), ebic, "
        "bdeu, bic, aic or loglik, or 'normalised-ebic:P' for OTSL's EBIC with "
        "gamma = (P - 1) / P_max (default: auto)",
    )
    tune.add_argument("--resamples", type=int, default=10, help="bootstrap rounds (default: 10)")
    tune.add_argument("--plot", type=Path, help="draw the score against the first --param")
    add_out(tune)
    tune.add_argument("--results", type=Path, help="write every configuration's score (CSV)")


def _scorer(text: str):
    from skbn.model_selection import get_structure_scorer, make_normalised_ebic_scorer

    if text.startswith("normalised-ebic:"):
        count = text.split(":", 1)[1]
        if not count.isdigit() or int(count) < 1:
            raise ValueError(
                f"--scoring {text!r}: after 'normalised-ebic:' comes the number of penalty "
                "values of the grid (a whole number of at least 1), e.g. normalised-ebic:20."
            )
        return make_normalised_ebic_scorer(int(count))
    return get_structure_scorer(text)


def run(args) -> None:
    """Run ``skbn tune``."""
    import pandas as pd

    from skbn.data import check_data
    from skbn.metrics import structure_report
    from skbn.model_selection import OTSLSearchCV

    output_format(args.out, args.format)  # a bad --out fails before the search
    scorer = _scorer(args.scoring)  # and so does a bad --scoring
    X, truth, source = load_source(args)
    kind = check_data(X, missing="allow").kind  # the learner refuses what it cannot take
    refuse_network_file(args.out, args.format, kind)
    learner = learner_from_spec(args.learner, kind, args.random_state)
    grid = _parse_grid(args.param)
    valid = learner.get_params(deep=True)
    unknown = [name for name in grid if name not in valid]
    if unknown:
        raise ValueError(
            f"{type(learner).__name__} has no parameter {unknown}; its parameters are "
            f"{sorted(valid)}."
        )
    start = time.perf_counter()
    search = OTSLSearchCV(
        learner,
        grid,
        scoring=scorer,
        n_resamples=args.resamples,
        random_state=args.random_state,
        n_jobs=args.jobs,
        verbose=progress(args),
    ).fit(X)
    print(f"data        {source}")
    print(f"learner     {learner!r}")
    family = getattr(scorer, "family_for", lambda kind: None)(kind)
    print(f"held-out    {scorer!r}" + (f" ({family.upper()} on {kind} data)" if family else ""))
    print(f"chosen      {search.best_params_} in {time.perf_counter() - start:.1f} s")
    for name, value in _at_grid_edge(grid, search.best_params_).items():
        print(
            f"skbn: warning: the chosen {name}={value} is at the edge of its grid "
            f"{grid[name]}; the best value may lie beyond it, so extend the grid past it.",
            file=sys.stderr,
        )
    table = pd.DataFrame(search.cv_results_["params"])
    table["mean_score"] = search.cv_results_["mean_test_score"]
    print(table.to_string(index=False))
    if truth is not None:
        print("\nchosen structure against the true network:")
        print(structure_report(truth, search.graph_))
    if args.results:
        table.to_csv(args.results, index=False)
        print(f"results     written to {args.results}")
    if args.plot:
        from skbn.plotting import plot_search_curve

        save_figure(plot_search_curve(search, param=next(iter(grid))), args.plot)
    _save_outputs(
        search.graph_, args.out, None, "", truth, learner=search.best_estimator_, format=args.format
    )
