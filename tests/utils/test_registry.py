# SPDX-License-Identifier: BSD-3-Clause
"""The family registry: one place maps a name and a data kind to a score or CI test."""

import numpy as np
import pytest

from skbn.ci_tests import ChiSquare, FisherZ, GSquare, ShrinkageMI, get_ci_test, get_ci_test_names
from skbn.datasets import load_network, make_problem
from skbn.ensemble import StructureLearningEnsemble
from skbn.learners import FGES, MMHC, ExactSearch, HillClimb, OrderMCMC, PCStable, TabuSearch
from skbn.model_selection import bdeu_scorer, ebic_scorer
from skbn.scores import (
    AIC,
    BIC,
    EBIC,
    FNML,
    K2,
    BDeu,
    BGe,
    GaussianAIC,
    GaussianBIC,
    GaussianEBIC,
    GaussianLogLikelihood,
    LogLikelihood,
    get_score,
    get_score_names,
)
from skbn.scores._registry import SCORES
from skbn.utils._registry import required_kind

DISCRETE = {
    "bic": BIC,
    "aic": AIC,
    "ebic": EBIC,
    "loglik": LogLikelihood,
    "bdeu": BDeu,
    "k2": K2,
    "fnml": FNML,
}
GAUSSIAN = {
    "bic": GaussianBIC,
    "aic": GaussianAIC,
    "ebic": GaussianEBIC,
    "loglik": GaussianLogLikelihood,
    "bge": BGe,
}


@pytest.fixture(scope="module")
def discrete():
    return load_network("asia").sample(800, random_state=0)


@pytest.fixture(scope="module")
def gaussian():
    return make_problem("asia", n_samples=400, random_state=0)[0]


@pytest.mark.parametrize("name, cls", sorted(DISCRETE.items()))
def test_score_families_on_discrete_data(name, cls):
    assert type(get_score(name, "discrete")) is cls


@pytest.mark.parametrize("name, cls", sorted(GAUSSIAN.items()))
def test_score_families_on_gaussian_data(name, cls):
    assert type(get_score(name, "gaussian")) is cls


@pytest.mark.parametrize(
    "alias, kind, expected",
    [
        ("BIC-G", "gaussian", GaussianBIC()),
        ("bic_d", "discrete", BIC()),
        ("bde", "discrete", BDeu()),
        ("BDeuScore", "discrete", BDeu()),
        ("ll-g", "gaussian", GaussianLogLikelihood()),
        ("loglik", "discrete", LogLikelihood()),
    ],
)
def test_score_aliases(alias, kind, expected):
    assert repr(get_score(alias, kind)) == repr(expected)


@pytest.mark.parametrize(
    "alias, expected",
    [
        ("x2", ChiSquare(adjust_df=False)),
        ("x2-adf", ChiSquare(adjust_df=True)),
        ("chi_square", ChiSquare()),
        ("g_sq", GSquare()),
        ("mi", GSquare(adjust_df=False)),
        ("gsq", GSquare()),
        ("mi-sh", ShrinkageMI()),
    ],
)
def test_ci_test_aliases(alias, expected):
    assert repr(get_ci_test(alias, "discrete")) == repr(expected)


def test_kind_restricted_aliases_refuse_the_other_kind():
    with pytest.raises(ValueError, match="'bic-g' is not defined for discrete data.*bdeu"):
        get_score("bic-g", "discrete")
    with pytest.raises(ValueError, match="not defined for continuous.*fisher_z"):
        get_ci_test("chi_square", "gaussian")


def test_unknown_names_list_the_valid_ones():
    with pytest.raises(ValueError) as info:
        get_score("bdue")
    message = str(info.value)
    assert "Did you mean 'bdeu'" in message
    for name in ("bic", "aic", "ebic", "bdeu", "k2", "fnml", "bge"):
        assert name in message
    with pytest.raises(ValueError, match="Did you mean 'fisher_z'"):
        get_ci_test("fisher_zz", "gaussian")


def test_parameters_go_to_named_families_only():
    assert get_score("ebic", "gaussian", gamma=1.0).gamma == 1.0
    with pytest.raises(ValueError, match="its parameters are \\['iss'\\]"):
        get_score("bdeu", penalty_discount=2)
    with pytest.raises(ValueError, match="set it on the score object"):
        SCORES.resolve(BIC(), "discrete", penalty_discount=2)


def test_objects_are_checked_against_the_kind():
    score = BDeu(iss=3)
    assert get_score(score, "discrete") is score
    with pytest.raises(ValueError, match="BDeu needs discrete data"):
        get_score(score, "gaussian")
    with pytest.raises(ValueError, match="Use 'bic'"):
        get_score(GaussianBIC(), "discrete")
    with pytest.raises(TypeError, match="criterion must be a Score"):
        get_score(3.0, "discrete")


def test_defaults_by_kind():
    discrete = get_score(None, "discrete")
    assert type(discrete) is EBIC and discrete.gamma == "auto"
    default = get_score(None, "gaussian")
    assert type(default) is GaussianEBIC and default.gamma == 1.0
    # parameters given with None go on top of the default's preset ones
    assert get_score(None, "gaussian", penalty_discount=2.0).get_params() == {
        "gamma": 1.0,
        "penalty_discount": 2.0,
    }
    assert type(get_ci_test(None, "discrete")) is GSquare
    assert type(get_ci_test(None, "gaussian")) is FisherZ


def test_required_kind_is_the_intersection():
    from skbn.ci_tests._registry import CI_TESTS

    assert required_kind((SCORES, "bic")) == "auto"
    assert required_kind((SCORES, "bdeu")) == "discrete"
    assert required_kind((SCORES, "bic"), (CI_TESTS, "fisher_z")) == "gaussian"
    with pytest.raises(ValueError, match="need different kinds of data"):
        required_kind((SCORES, "bdeu"), (CI_TESTS, "fisher_z"))


def test_names_are_listed():
    assert {"bic", "bdeu", "bic-g", "bde"} <= set(get_score_names())
    assert {"chi_square", "g_sq", "fisher_z", "x2", "mi-sh"} <= set(get_ci_test_names())


@pytest.mark.parametrize("name", sorted(DISCRETE))
def test_every_discrete_family_name_works_in_a_learner(discrete, name):
    by_name = HillClimb(name).fit(discrete)
    by_object = HillClimb(get_score(name, "discrete")).fit(discrete)
    assert set(by_name.graph_.edges) == set(by_object.graph_.edges)
    assert by_name.score_ == by_object.score_


@pytest.mark.parametrize("name", sorted(GAUSSIAN))
def test_every_gaussian_family_name_works_in_a_learner(gaussian, name):
    by_name = TabuSearch(name).fit(gaussian)
    by_object = TabuSearch(get_score(name, "gaussian")).fit(gaussian)
    assert set(by_name.graph_.edges) == set(by_object.graph_.edges)


def test_one_name_serves_both_kinds(discrete, gaussian):
    assert HillClimb("bic").fit(discrete).score_ == HillClimb(BIC()).fit(discrete).score_
    assert HillClimb("bic").fit(gaussian).score_ == HillClimb(GaussianBIC()).fit(gaussian).score_


@pytest.mark.parametrize("name", ["chi_square", "g_sq", "mi_shrink", "x2"])
def test_ci_test_names_work_in_constraint_based_learners(discrete, name):
    obj = get_ci_test(name, "discrete")
    assert set(PCStable(name).fit(discrete).graph_.edges) == set(
        PCStable(obj).fit(discrete).graph_.edges
    )
    assert set(MMHC(name, "bdeu").fit(discrete).graph_.edges) == set(
        MMHC(obj, BDeu()).fit(discrete).graph_.edges
    )


def test_names_work_in_every_score_based_learner(discrete, gaussian):
    assert FGES("bic", penalty_discount=2).fit(gaussian).score_ == pytest.approx(
        FGES(GaussianBIC(penalty_discount=2)).fit(gaussian).score_
    )
    small = discrete.iloc[:, :5]
    assert ExactSearch("bdeu").fit(small).score_ == ExactSearch(BDeu()).fit(small).score_
    a = OrderMCMC("k2", ci_test="x2", n_iter=200, random_state=0).fit(discrete)
    b = OrderMCMC(K2(), ci_test=ChiSquare(adjust_df=False), n_iter=200, random_state=0).fit(
        discrete
    )
    assert a.score_ == b.score_


def test_a_name_that_needs_another_kind_is_refused_before_work(gaussian):
    with pytest.raises(ValueError, match="HillClimb with criterion='bdeu' needs discrete data"):
        HillClimb("bdeu").fit(gaussian)
    with pytest.raises(ValueError, match="need different kinds of data"):
        MMHC("chi_square", "bge").fit(gaussian)


def test_names_in_ensembles_and_scorers(discrete, gaussian):
    sle = StructureLearningEnsemble([HillClimb(), FGES()], selection_score="bdeu").fit(discrete)
    expected = [BDeu().score_graph(e.graph_, discrete) for e in sle.estimators_]
    np.testing.assert_allclose(sle.selection_scores_, expected)
    # the OTSL scorers read the parameter of a score given by name, as of one given as object
    hc_named = HillClimb("ebic").set_params(criterion="ebic").fit(gaussian)
    hc_object = HillClimb(GaussianEBIC()).fit(gaussian)
    assert ebic_scorer(hc_named, gaussian) == ebic_scorer(hc_object, gaussian)
    bdeu = HillClimb("bdeu").fit(discrete)
    assert bdeu_scorer(bdeu, discrete) == pytest.approx(BDeu().score_graph(bdeu.graph_, discrete))


def test_the_kind_decides_the_estimator_tags():
    from sklearn.utils import get_tags

    assert get_tags(HillClimb()).input_tags.categorical
    assert get_tags(HillClimb("bdeu")).input_tags.categorical
    assert not get_tags(HillClimb(GaussianBIC())).input_tags.categorical
    assert not get_tags(PCStable("fisher_z")).input_tags.categorical


def test_nested_parameters_of_a_family_name_are_refused_with_the_fix():
    with pytest.raises(ValueError, match="criterion='ebic' is a family name.*EBIC\\(\\)"):
        HillClimb("ebic").set_params(criterion__gamma=1)
    assert HillClimb(EBIC()).set_params(criterion__gamma=1).criterion.gamma == 1
    # setting the object and its parameter in one call works
    assert HillClimb("ebic").set_params(criterion=EBIC(), criterion__gamma=2).criterion.gamma == 2
