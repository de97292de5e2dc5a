# SPDX-License-Identifier: BSD-3-Clause
"""Conditional-independence tests for constraint-based and hybrid structure learning.

A test is a small parameter object (``ChiSquare()``, ``GSquare()``, ``ShrinkageMI()``,
``FisherZ()``). ``test.bind(X)`` validates the data once; ``bound.test(x, y, cond)`` returns
a :class:`CIResult` ``(statistic, dof, pvalue)``. Discrete tests count with numba kernels and
take their p-values from the chi-square distribution (scipy); Fisher's z works from the
correlation matrix; ``KCI()`` sees nonlinear dependence through Gaussian kernels, and
``RCoT()`` / ``RCIT()`` approximate it with random Fourier features at a cost that does not
grow with the rank of the kernels;
``CGMutualInformation()`` tests mixed discrete and continuous data with
conditional-Gaussian likelihood ratios.

A family name stands for a test wherever one is taken: ``PCStable(ci_test="chi_square")``;
:func:`get_ci_test` resolves a name for a kind of data and :func:`get_ci_test_names` lists the
names (pgmpy's, bnlearn's and causal-learn's spellings included).
"""

from skbn.ci_tests._base import BoundCITest, CIResult, CITest
from skbn.ci_tests._discrete import ChiSquare, GSquare, ShrinkageMI
from skbn.ci_tests._gaussian import FisherZ
from skbn.ci_tests._kernel import KCI
from skbn.ci_tests._mixed import CGMutualInformation
from skbn.ci_tests._random_features import RCIT, RCoT
from skbn.ci_tests._registry import get_ci_test, get_ci_test_names
from skbn.ci_tests._testwise import TestwiseDeletion

__all__ = [
    "BoundCITest",
    "CIResult",
    "CGMutualInformation",
    "CITest",
    "ChiSquare",
    "FisherZ",
    "GSquare",
    "KCI",
    "RCIT",
    "RCoT",
    "ShrinkageMI",
    "TestwiseDeletion",
    "get_ci_test",
    "get_ci_test_names",
]
