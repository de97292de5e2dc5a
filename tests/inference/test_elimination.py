# SPDX-License-Identifier: BSD-3-Clause
"""Variable elimination (skbn.inference._elimination) against brute-force sums."""

import itertools

import numpy as np

from skbn.inference._elimination import elimination_order, sum_out


def test_a_product_of_more_factors_than_einsum_takes_is_exact():
    # naive Bayes over 80 features, each row's evidence applied: 81 factors on the class,
    # more operands than one einsum accepts ("too many operands" on digits' 64 pixels)
    rng = np.random.default_rng(0)
    n, k = 3, 4
    factors = [((0,), rng.random((1, k)))]
    factors += [((0,), rng.uniform(0.01, 1, (n, k))) for _ in range(80)]
    values, log_scale = sum_out(factors, [], (0,))
    expected = np.log(factors[0][1]) + sum(np.log(f[1]) for f in factors[1:])
    np.testing.assert_allclose(np.log(values) + log_scale[:, None], expected, rtol=1e-10)


def test_chunks_keep_the_variables_later_factors_need():
    # 40 factors over (hidden, class) and a hidden variable summed out: chunks must not sum
    # the hidden one before every factor that holds it has joined
    rng = np.random.default_rng(1)
    arities = [3, 2]
    factors = [((0, 1), rng.uniform(0.1, 1, (2, 3, 2))) for _ in range(40)]
    order, _ = elimination_order([s for s, _ in factors], [0], arities)
    values, log_scale = sum_out(factors, order, (1,))
    brute = np.zeros((2, 2))
    for h, c in itertools.product(range(3), range(2)):
        brute[:, c] += np.prod([f[1][:, h, c] for f in factors], axis=0)
    np.testing.assert_allclose(values * np.exp(log_scale)[:, None], brute, rtol=1e-10)
