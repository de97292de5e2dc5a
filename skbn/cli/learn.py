# SPDX-License-Identifier: BSD-3-Clause
"""``skbn learn``: learn a structure from a CSV file or from data sampled from a bundled network."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from skbn.cli._common import (
    NETWORK_FORMATS,
    add_knowledge,
    add_out,
    add_source,
    and_list,
    knowledge_params,
    load_source,
    make_learner,
    make_score,
    make_test,
    output_format,
    print_edges,
    refuse_network_file,
    save_outputs,
    source_name,
)

__all__ = ["add_parser", "run"]

EXAMPLE = """example:
  skbn learn --network alarm -n 5000 --out alarm_learned.bif --plot alarm_learned.png
  skbn learn --network asia -n 2000 --learner pc --test x2 --out asia_pc.json
"""


#: One line for ``skbn --help``.
SUMMARY = "learn a network structure from data"


def _gamma(text: str) -> float | str:
    """``--gamma``: a number, or ``auto``."""
    if text == "auto":
        return text
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number or 'auto', not {text!r}") from None


def add_parser(commands) -> None:
    """Register ``learn`` on the subparsers ``commands``."""
    from skbn.ci_tests._registry import CI_TESTS
    from skbn.learners._registry import LEARNERS
    from skbn.scores._registry import SCORES

    learn = commands.add_parser(
        "learn",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        help=SUMMARY,
        description="Learn a Bayesian network structure from a CSV file, or from data sampled "
        "from a bundled network (then a structure report against the truth is printed).",
    )
    add_source(learn)
    learn.add_argument(
        "--learner",
        choices=("auto", *LEARNERS),
        default="auto",
        help="auto (default: boss with its tabu polish up to 1,000 variables, fges above; "
        "chosen by measurement, see docs/choosing_a_learner.md), hc (hill climbing), tabu "
        "(tabu search), fges, boss (best order score search), grasp, pc (PC-Stable), mmhc, "
        "exact (globally optimal, up to ~25 variables) or mcmc (order MCMC in a PC skeleton)",
    )
    learn.add_argument(
        "--test",
        default=None,
        metavar="TEST",
        help=f"pc/mmhc/mcmc: CI test, one of {', '.join(CI_TESTS.family_names())} (or an "
        "alias such as x2, g2, mi-sh; default: g_sq on discrete data, fisher_z on continuous)",
    )
    learn.add_argument(
        "--alpha", type=float, default=None, help="pc/mmhc: significance level (default: 0.05)"
    )
    learn.add_argument(
        "--score",
        default=None,
        metavar="SCORE",
        help=f"score to maximise, one of {', '.join(SCORES.family_names())} (default: the "
        "library's: ebic with gamma auto on discrete data, bic where chance edges are few, and "
        "ebic with gamma 1 on continuous data); bic, "
        "aic, ebic and loglik take the version for the data's kind",
    )
    learn.add_argument(
        "--penalty-discount",
        type=float,
        default=1.0,
        help="multiplier of the bic/aic/ebic penalty (default: 1)",
    )
    learn.add_argument(
        "--gamma",
        type=_gamma,
        default=None,
        help="ebic gamma, a number or 'auto' (discrete data: the smallest at which at most "
        "5%% of the pairs the penalty accepts are chance); default: the score's own, auto "
        "(discrete) or 1 (continuous) for the default score, 0.5 for --score ebic",
    )
    learn.add_argument(
        "--iss", type=float, default=None, help="bdeu imaginary sample size (default: 1)"
    )
    learn.add_argument(
        "--max-indegree", type=int, default=None, help="hc/tabu/exact/mcmc: largest parent set"
    )
    learn.add_argument(
        "--max-degree", type=int, default=None, help="fges: largest number of adjacencies"
    )
    add_knowledge(learn)
    add_out(learn)
    learn.add_argument("--plot", type=Path, help="draw the learned graph (PNG, SVG, PDF)")


def run(args) -> None:
    """Run ``skbn learn``."""
    from skbn.data import check_data
    from skbn.learners import learners_taking
    from skbn.metrics import structure_report

    output_format(args.out, args.format)  # a bad --out fails now, not after the learning
    # options the chosen learner would not use are refused, not ignored
    # ("auto" is BOSS or FGES: a score)
    takes_test = learners_taking("ci_test")
    takes_score = [*learners_taking("criterion"), "auto"]
    if args.learner in takes_score:
        what = "takes a score (--score)"
    elif args.learner in takes_test:
        what = "takes a CI test (--test)"
    else:
        what = "takes neither a score nor a CI test"
    if args.test is not None and args.learner not in takes_test:
        raise ValueError(
            f"--test applies to {and_list(takes_test)}; --learner {args.learner} {what}."
        )
    takes_alpha = learners_taking("alpha")
    if args.alpha is not None and args.learner not in takes_alpha:
        raise ValueError(
            f"--alpha applies to {and_list(takes_alpha)} (a CI test's level); --learner "
            f"{args.learner} {what}."
        )
    if args.score is not None and args.learner not in takes_score:
        raise ValueError(f"--score does not apply to --learner {args.learner}, which {what}.")
    knowledge = knowledge_params(args)  # so do unreadable knowledge files
    X, truth, source = load_source(args)
    data = check_data(X, missing="allow")  # the learner says if it takes missing values
    refuse_network_file(args.out, args.format, data.kind)
    score = make_score(args.score, data.kind, args.penalty_discount, args.gamma, args.iss)
    learner = make_learner(
        args.learner,
        score,
        make_test(args.test, data.kind),
        alpha=0.05 if args.alpha is None else args.alpha,
        max_indegree=args.max_indegree,
        max_degree=args.max_degree,
        random_state=args.random_state,
        n_features=data.n_features,
    )
    if learner._learns_pag and output_format(args.out, args.format) in NETWORK_FORMATS:
        raise ValueError(
            f"--out {args.out}: --learner {args.learner} learns a PAG, a class of causal "
            "structures with hidden variables, not one network; write the graph instead "
            "(.json, .graphml or .dot)."
        )
    if not args.quiet and "verbose" in learner.get_params():
        learner.set_params(verbose=1)  # the learner's progress lines; --quiet keeps them off
    if knowledge:
        accepted = learner.get_params()
        refused = [k for k in knowledge if k not in accepted]
        if refused:
            flags = {"start_graph": "--start", "required_edges": "--require"}
            flags.update(forbidden_edges="--forbid", tiers="--tiers")
            raise ValueError(
                f"--learner {args.learner} does not take {', '.join(flags[k] for k in refused)}."
            )
        learner.set_params(**knowledge)
    start = time.perf_counter()
    learner.fit(data)
    elapsed = time.perf_counter() - start
    graph = learner.graph_
    n_undirected = sum(1 for u, v in graph.edges() if graph.has_edge(v, u)) // 2
    n_directed = graph.number_of_edges() - 2 * n_undirected
    if learner._learns_pag and truth is not None:
        from skbn.graph import dag_to_pag

        truth = dag_to_pag(truth)  # every variable of the network is measured
    kind = f" ({data.kind})" if f"({data.kind})" not in source else ""
    print(f"data        {source}, {data.n_features} variables{kind}")
    print(f"learner     {learner!r}")
    if "ci_test" in learner.get_params():
        print(f"test        {learner._resolve_family('ci_test', data)!r}")
    if learner._learns_pag:
        summary = graph._marked_summary()  # "3 edges (1 <->, 2 o->)"
        print(f"result      pag: {summary}, learned in {elapsed:.2f} s")
    else:
        print(
            f"result      {graph.graph['kind']}: {n_directed} directed and {n_undirected} "
            f"undirected edges, learned in {elapsed:.2f} s"
        )
    if hasattr(learner, "score_"):
        print(f"score       {learner.score_:.2f}")
    if truth is not None:
        against = "the true network's PAG" if learner._learns_pag else "the true network"
        print(f"\nagainst {against}:")
        print(structure_report(truth, graph))
        print()
    print_edges(graph)
    title = f"{type(learner).__name__} on {source_name(args)}"
    save_outputs(graph, args.out, args.plot, title, truth, learner=learner, format=args.format)
