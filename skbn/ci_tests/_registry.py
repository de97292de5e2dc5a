# SPDX-License-Identifier: BSD-3-Clause
"""The CI-test families and the one function that picks a test for a kind of data."""

from __future__ import annotations

from skbn.ci_tests._base import CITest
from skbn.ci_tests._discrete import ChiSquare, GSquare, ShrinkageMI
from skbn.ci_tests._gaussian import FisherZ
from skbn.ci_tests._kernel import KCI
from skbn.ci_tests._mixed import CGMutualInformation
from skbn.ci_tests._random_features import RCIT, RCoT
from skbn.utils._registry import FamilyRegistry

__all__ = ["CI_TESTS", "get_ci_test", "get_ci_test_names"]

#: Family name -> test class per data kind. Aliases are pgmpy's (``"chi_square"``,
#: ``"g_sq"``), bnlearn's (``"x2"``, ``"mi"``, ``"mi-sh"``, ``"zf"``; without ``-adf`` their
#: degrees of freedom are the classic ones) and causal-learn's (``"chisq"``, ``"gsq"``,
#: ``"fisherz"``).
CI_TESTS = FamilyRegistry("CI test", CITest, "ci_test")
CI_TESTS.register(
    "chi_square",
    discrete=ChiSquare,
    description="Pearson's X^2 test, degrees of freedom adjusted for empty margins",
    aliases={
        "x2": (None, {"adjust_df": False}),
        "x2-adf": (None, {"adjust_df": True}),
        "chisq": (None, {}),
        "pearson": (None, {}),
    },
)
CI_TESTS.register(
    "g_sq",
    discrete=GSquare,
    description="likelihood-ratio G^2 test (2 N times the mutual information)",
    aliases={
        "g2": (None, {}),
        "gsq": (None, {}),
        "g_square": (None, {}),
        "log_likelihood": (None, {}),
        "mi": (None, {"adjust_df": False}),
        "mi-adf": (None, {"adjust_df": True}),
    },
)
CI_TESTS.register(
    "mi_shrink",
    discrete=ShrinkageMI,
    description="shrinkage mutual-information test (bnlearn's mi-sh)",
    aliases={"mi-sh": (None, {}), "shrinkage_mi": (None, {})},
)
CI_TESTS.register(
    "fisher_z",
    gaussian=FisherZ,
    description="Fisher's z test of zero partial correlation",
    aliases={"fisherz": (None, {}), "zf": (None, {})},
)
CI_TESTS.register(
    "kci",
    gaussian=KCI,
    description="kernel conditional-independence test (nonlinear dependence)",
    aliases={"kernel": (None, {}), "hsic": (None, {})},
)
CI_TESTS.register(
    "rcot",
    gaussian=RCoT,
    description="randomized conditional correlation test (random Fourier features)",
    aliases={"rit": (None, {})},
)
CI_TESTS.register(
    "rcit",
    gaussian=RCIT,
    description="randomized conditional independence test (random Fourier features)",
)
CI_TESTS.register(
    "mi_cg",
    mixed=CGMutualInformation,
    description="conditional-Gaussian likelihood-ratio test for mixed data (bnlearn's mi-cg)",
    aliases={"mi-cg": (None, {}), "cg_lrt": (None, {})},
)
CI_TESTS.set_default(discrete="g_sq", gaussian="fisher_z", mixed="mi_cg")


def get_ci_test(name: str | CITest | None, kind: str = "discrete", **params) -> CITest:
    """The CI test a family name stands for on a kind of data.

    Parameters
    ----------
    name : str, CITest or None
        A family name (see :func:`get_ci_test_names`) or alias, a test object (returned as it
        is if it suits ``kind``), or None for the default (``"g_sq"`` on discrete data,
        ``"fisher_z"`` on continuous data).
    kind : {"discrete", "gaussian"}, default="discrete"
    **params
        Parameters of the test (names only).

    Returns
    -------
    CITest

    Examples
    --------
    >>> get_ci_test("x2")
    ChiSquare(adjust_df=False)
    >>> get_ci_test(None, "gaussian")
    FisherZ()
    """
    return CI_TESTS.resolve(name, kind, **params)


def get_ci_test_names() -> list[str]:
    """Every name :func:`get_ci_test` accepts: family names and aliases.

    Returns
    -------
    list of str

    Examples
    --------
    >>> "chi_square" in get_ci_test_names()
    True
    """
    return CI_TESTS.names()
