# SPDX-License-Identifier: BSD-3-Clause
"""The slot protocol of shared Optuna studies: a dead worker must not hold a slot for ever."""

import time

import optuna
import pytest
from optuna.trial import TrialState

from skbn.utils import _optuna_slots as _slots
from skbn.utils._optuna_slots import SLOT_ATTR, STEP_ATTR, SlotRunner, open_storage


class _Killed(BaseException):
    """Stands for SIGKILL: nothing after the raise runs, so the trial is left RUNNING."""


def _runner(storage, deadline=None):
    study = optuna.load_study(study_name="slots", storage=storage)
    return SlotRunner(
        study,
        storage,
        suggest=lambda trial: trial.suggest_float("x", 0.0, 1.0),
        evaluate=lambda params: (params["x"], {}),
        make_sampler=lambda seed: optuna.samplers.RandomSampler(seed=seed),
        seed=0,
        batch_size=1,
        deadline=deadline,
        poll_interval=0.1,
    )


@pytest.mark.slow
@pytest.mark.parametrize("killed_after", [STEP_ATTR, SLOT_ATTR])
def test_a_worker_killed_while_claiming_a_slot_does_not_hold_it(
    tmp_path, monkeypatch, killed_after
):
    monkeypatch.setattr(_slots, "HEARTBEAT_INTERVAL", 1)
    monkeypatch.setattr(_slots, "GRACE_PERIOD", 2)
    storage = open_storage(f"sqlite:///{tmp_path / 'slots.db'}")
    optuna.create_study(study_name="slots", storage=storage, direction="maximize")

    real = optuna.trial.Trial.set_user_attr

    def die_after(self, key, value):
        real(self, key, value)
        if key == killed_after:
            raise _Killed

    with monkeypatch.context() as m:
        m.setattr(optuna.trial.Trial, "set_user_attr", die_after)
        with pytest.raises(_Killed):
            _runner(storage).run(step=0, n_slots=2)
    study = optuna.load_study(study_name="slots", storage=storage)
    assert [t.state for t in study.trials] == [TrialState.RUNNING]
    assert study.trials[0].user_attrs.get(STEP_ATTR) == 0

    # another worker finishes the step: the dead worker's claim is failed once its heartbeat
    # is older than the grace period (or, half written, was never a claim)
    done = _runner(storage, deadline=time.monotonic() + 60).run(step=0, n_slots=2)
    assert sorted(done) == [0, 1]
    assert all(t.state == TrialState.COMPLETE for t in done.values())
    if killed_after == SLOT_ATTR:
        dead = optuna.load_study(study_name="slots", storage=storage).trials[0]
        assert dead.state == TrialState.FAIL
