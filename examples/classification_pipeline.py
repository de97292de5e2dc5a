# SPDX-License-Identifier: BSD-3-Clause
"""Classification and feature selection with a Bayesian network, in scikit-learn pipelines.

Run with ``python examples/classification_pipeline.py`` (about 10 s on 2 cores); writes
``classification_blanket.png``.
"""

import matplotlib

matplotlib.use("Agg")

from sklearn.datasets import load_breast_cancer  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.model_selection import (  # noqa: E402
    GridSearchCV,
    StratifiedKFold,
    cross_val_score,
    train_test_split,
)
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

from skbn.classification import BayesianNetworkClassifier  # noqa: E402
from skbn.feature_selection import MarkovBlanketSelector  # noqa: E402
from skbn.plotting import plot_graph  # noqa: E402

# %% Data: 569 tumours, 30 continuous measurements, a binary diagnosis.
X, y = load_breast_cancer(return_X_y=True, as_frame=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, stratify=y, random_state=0)

# %% A classifier: a network over the (binned) features and the class; predictions come from
# the class's Markov blanket.
clf = BayesianNetworkClassifier().fit(X_train, y_train)
print("blanket of the class:", list(clf.markov_blanket_))
print("test accuracy:", round(clf.score(X_test, y_test), 3))
print("P(benign) of the first test rows:", clf.predict_proba(X_test[:3])[:, 1].round(3))

# %% Tune the structure by held-out log loss, as for any scikit-learn classifier.
cv = StratifiedKFold(5, shuffle=True, random_state=0)
search = GridSearchCV(
    BayesianNetworkClassifier(),
    {"structure": ["naive_bayes", "tan", "hill_climb"], "discretizer": ["auto", None]},
    scoring="neg_log_loss",
    cv=cv,
).fit(X_train, y_train)
print("best:", search.best_params_, "log loss", round(-search.best_score_, 3))

# %% The blanket as a feature selector in front of any model.
model = make_pipeline(MarkovBlanketSelector(), StandardScaler(), LogisticRegression())
scores = cross_val_score(model, X, y, cv=cv, scoring="roc_auc")
print("selector + logistic regression, ROC AUC:", scores.mean().round(4))

# %% The class and its blanket in the learned network.
blanket = [*clf.markov_blanket_, "class"]
ax = plot_graph(clf.graph_.subgraph(blanket), title="the class's Markov blanket")
ax.figure.savefig("classification_blanket.png", dpi=90, bbox_inches="tight")
