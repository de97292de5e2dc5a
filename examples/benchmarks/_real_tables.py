# SPDX-License-Identifier: BSD-3-Clause
"""Real classification tables that ship with installed packages (no download at run time).

Each is read with ``pandas.read_csv`` defaults (the separator and quote character of the
file aside) and not cast afterwards: integer columns stay ``int64``, a column with a blank
cell becomes ``float64``, text stays text. That is what a user meets, and what the
classifier must handle as it is.

- ``anes96`` (statsmodels; 944 rows): the 1996 American National Election Study, the vote
  (Clinton 0, Dole 1) from integer-coded answers (party identification 0-6, placements
  1-7, education 1-7, income 1-24, age 19-91, population 0-7,300, TV news days 0-7).
- ``anes96 (10% blank)``: the same file with 10% of the feature cells blanked (missing
  completely at random, ``numpy.random.default_rng(0)``), written and read back, so its
  integer columns come back as floats with NaN.
- ``fair`` (statsmodels; 6,366 rows): Fair's affairs survey, whether the respondent had
  an affair, from integer ratings and codes and float ages, years married and children.
- ``randhie`` (statsmodels; 20,190 rows): the RAND health insurance experiment, the
  self-rated health (four classes, as text) from the number of visits (integer, 0-77),
  plan variables and chronic disease indices.
- ``ccard`` (statsmodels; 72 rows): whether a credit-card holder owns the home, from the
  monthly spend, age (integer) and income.
- ``diabetes`` (scikit-learn, the raw file; 442 rows): disease progression above the
  median after one year, from age and sex (integers) and eight float measurements.
"""

from __future__ import annotations

import io
import os

import numpy as np
import pandas as pd


def _statsmodels_file(*parts: str) -> str:
    import statsmodels.datasets

    return os.path.join(os.path.dirname(statsmodels.datasets.__file__), *parts)


def anes96() -> tuple[pd.DataFrame, pd.Series]:
    frame = pd.read_csv(_statsmodels_file("anes96", "anes96.csv"), sep="\t", quotechar="'")
    return frame.drop(columns="vote"), frame["vote"]


def anes96_blank(fraction: float = 0.1) -> tuple[pd.DataFrame, pd.Series]:
    X, y = anes96()
    blank = np.random.default_rng(0).random(X.shape) < fraction
    text = X.astype(object).mask(blank).to_csv(index=False)
    return pd.read_csv(io.StringIO(text)), y


def fair() -> tuple[pd.DataFrame, pd.Series]:
    frame = pd.read_csv(_statsmodels_file("fair", "fair.csv"))
    return frame.drop(columns="affairs"), (frame["affairs"] > 0).astype(int)


def randhie() -> tuple[pd.DataFrame, pd.Series]:
    frame = pd.read_csv(_statsmodels_file("randhie", "randhie.csv"))
    health = np.select(
        [frame["hlthp"] == 1, frame["hlthf"] == 1, frame["hlthg"] == 1],
        ["poor", "fair", "good"],
        default="excellent",
    )
    return frame.drop(columns=["hlthg", "hlthf", "hlthp"]), pd.Series(health, name="health")


def ccard() -> tuple[pd.DataFrame, pd.Series]:
    frame = pd.read_csv(_statsmodels_file("ccard", "ccard.csv"))
    return frame.drop(columns="OWNRENT"), frame["OWNRENT"]


def diabetes() -> tuple[pd.DataFrame, pd.Series]:
    import sklearn.datasets

    root = os.path.join(os.path.dirname(sklearn.datasets.__file__), "data")
    names = ["age", "sex", "bmi", "bp", "s1", "s2", "s3", "s4", "s5", "s6"]
    X = pd.read_csv(os.path.join(root, "diabetes_data_raw.csv.gz"), sep=" ", names=names)
    target = pd.read_csv(os.path.join(root, "diabetes_target.csv.gz"), header=None)[0]
    return X, (target > target.median()).astype(int)


TABLES = {
    "anes96": anes96,
    "anes96 (10% blank)": anes96_blank,
    "fair": fair,
    "randhie": randhie,
    "ccard": ccard,
    "diabetes": diabetes,
}
