# SPDX-License-Identifier: BSD-3-Clause
"""Reproducible Optuna optimisation shared by any number of workers through one storage.

Every trial fills a numbered *slot* of a greedy step. The parameters of slot ``s`` are
proposed by a sampler seeded from ``(seed, step, s)`` that sees only the completed slots of
earlier batches (``batch_size`` slots per batch), so the proposals, and hence the result, do
not depend on how many workers run, how their work interleaves, or whether a worker was killed
and its slot redone. Workers that find nothing to claim wait for the running slots; trials of
dead workers are failed by Optuna's heartbeat check and their slots claimed again.
"""

from __future__ import annotations

import contextlib
import threading
import time
import warnings
from collections.abc import Callable

import numpy as np
import optuna
from optuna.study import StudyDirection
from optuna.trial import FrozenTrial, TrialState

__all__ = ["SlotRunner", "open_storage", "quiet_optuna", "slot_seed"]

#: Heartbeat settings used when ``storage`` is given as a URL: a worker that has not been
#: heard from for ``GRACE_PERIOD`` seconds is taken as dead and its trial failed.
HEARTBEAT_INTERVAL = 10
GRACE_PERIOD = 60
STEP_ATTR, SLOT_ATTR = "skbn:step", "skbn:slot"


def postgres_driver_url(url: str) -> str:
    """``url`` with an installed PostgreSQL driver named when it names none.

    SQLAlchemy 2.1 reads a bare ``postgresql://`` URL with psycopg 3; the ``postgres`` extra
    installs psycopg2. With only psycopg2 installed the bare form gets ``+psycopg2``.
    """
    import importlib.util

    for bare in ("postgresql://", "postgres://"):
        if url.startswith(bare):
            rest = url[len(bare) :]
            if importlib.util.find_spec("psycopg") is None and importlib.util.find_spec("psycopg2"):
                return "postgresql+psycopg2://" + rest
            return "postgresql://" + rest
    return url


#: Tries at creating a new database's tables when other workers create them at the same time.
SCHEMA_TRIES = 20


def _rdb_storage(url: str):
    """Optuna's RDB storage, retried while another worker is creating the same schema.

    Two workers opening one new database at once both try to create Optuna's tables and its
    ``alembic_version`` row; the loser gets an integrity error (or, on SQLite, a locked
    database) although the schema is then complete, so it tries again after a short wait.
    """
    import sqlalchemy.exc

    for attempt in range(SCHEMA_TRIES):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
                return optuna.storages.RDBStorage(
                    url, heartbeat_interval=HEARTBEAT_INTERVAL, grace_period=GRACE_PERIOD
                )
        except (sqlalchemy.exc.IntegrityError, sqlalchemy.exc.OperationalError) as exc:
            text = str(exc)
            racing = (
                isinstance(exc, sqlalchemy.exc.IntegrityError)
                or "locked" in text
                or "already exists" in text
            )
            if not racing or attempt == SCHEMA_TRIES - 1:
                raise
            time.sleep(0.05 * (attempt + 1))
    raise AssertionError("unreachable")  # pragma: no cover


def open_storage(storage):
    """None (in memory), an Optuna storage object, or a database URL (heartbeat enabled)."""
    if storage is None:
        return optuna.storages.InMemoryStorage()
    if isinstance(storage, str):
        storage = postgres_driver_url(storage)
        try:
            return _rdb_storage(storage)
        except Exception as exc:  # sqlalchemy's errors: bad URL, missing driver, no server
            raise ValueError(
                f"Cannot open the Optuna storage {storage!r}: {type(exc).__name__}: {exc}. "
                "Use a URL such as 'sqlite:///autosle.db', or 'postgresql://user@host/db' "
                "with a reachable server (pip install 'skbn[postgres]' for its driver)."
            ) from None
    if isinstance(storage, optuna.storages.BaseStorage):
        return storage
    raise TypeError(
        "storage must be None, a database URL such as 'sqlite:///autosle.db', or an Optuna "
        f"storage object; got {type(storage).__name__}."
    )


@contextlib.contextmanager
def quiet_optuna():
    """Silence Optuna's INFO messages (scratch studies) for the duration of a block."""
    verbosity = optuna.logging.get_verbosity()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    try:
        yield
    finally:
        optuna.logging.set_verbosity(verbosity)


def slot_seed(seed: int, step: int, slot: int) -> int:
    """An int32 seed for one slot, derived from the run's seed."""
    return int(np.random.SeedSequence([seed, step, slot]).generate_state(1)[0] >> 1)


def _heartbeat_enabled(storage) -> bool:
    getter = getattr(storage, "get_heartbeat_interval", None)
    return getter is not None and getter() is not None


class _Heartbeat:
    """Records a running trial's heartbeat from a thread while the trial is evaluated."""

    def __init__(self, storage, trial_id: int) -> None:
        self.storage, self.trial_id = storage, trial_id
        self.enabled = _heartbeat_enabled(storage)
        self._stop = threading.Event()
        self._thread = None

    def __enter__(self):
        if self.enabled:
            self.storage.record_heartbeat(self.trial_id)
            interval = self.storage.get_heartbeat_interval()

            def beat():
                while not self._stop.wait(interval):
                    self.storage.record_heartbeat(self.trial_id)

            self._thread = threading.Thread(target=beat, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc):
        if self._thread is not None:
            self._stop.set()
            self._thread.join()


class _FixedSampler(optuna.samplers.BaseSampler):
    """Hands out the parameters chosen for the slot being claimed."""

    def __init__(self) -> None:
        self.params: dict = {}

    def infer_relative_search_space(self, study, trial):
        return {}

    def sample_relative(self, study, trial, search_space):
        return {}

    def sample_independent(self, study, trial, param_name, param_distribution):
        return self.params[param_name]


class SlotRunner:
    """Fill the slots of one greedy step of a shared study.

    Parameters
    ----------
    study : optuna.Study
        Opened with any sampler; this runner replaces it with a fixed-parameter one.
    storage : optuna storage
        The study's storage (its heartbeat, if enabled, is recorded while a trial runs).
    suggest : callable
        ``suggest(trial)`` asks the trial for a configuration (define-by-run).
    evaluate : callable
        ``evaluate(params) -> (value, user_attrs)``.
    make_sampler : callable
        ``make_sampler(seed) -> optuna sampler`` for the proposals.
    """

    def __init__(
        self,
        study: optuna.Study,
        storage,
        suggest: Callable,
        evaluate: Callable,
        make_sampler: Callable,
        *,
        seed: int,
        batch_size: int = 1,
        deadline: float | None = None,
        poll_interval: float = 0.5,
        log: Callable = lambda message: None,
        on_trial: Callable = lambda: None,
    ) -> None:
        self.study = study
        self.storage = storage
        self.suggest = suggest
        self.evaluate = evaluate
        self.make_sampler = make_sampler
        self.seed = seed
        self.batch_size = batch_size
        self.deadline = deadline
        self.poll_interval = poll_interval
        self.log = log
        self.on_trial = on_trial
        self._fixed = _FixedSampler()
        study.sampler = self._fixed

    # -- reading the shared state ------------------------------------------------------------
    @staticmethod
    def _claims(study, step: int) -> list[FrozenTrial]:
        # a trial claims a slot once both attributes are written; one whose worker died
        # between the two writes claims nothing (and is failed once its heartbeat is stale)
        return [
            t
            for t in study.get_trials(deepcopy=False)
            if t.user_attrs.get(STEP_ATTR) == step and SLOT_ATTR in t.user_attrs
        ]

    @staticmethod
    def _by_slot(trials, states) -> dict[int, FrozenTrial]:
        found: dict[int, FrozenTrial] = {}
        for t in sorted(trials, key=lambda t: t.number):
            if t.state in states:
                found.setdefault(t.user_attrs[SLOT_ATTR], t)
        return found

    def completed(self, step: int) -> dict[int, FrozenTrial]:
        """The completed trial of every finished slot of ``step``, keyed by slot."""
        return self.completed_in(self.study, step)

    @classmethod
    def completed_in(cls, study, step: int) -> dict[int, FrozenTrial]:
        """As :meth:`completed`, for any study."""
        return cls._by_slot(cls._claims(study, step), (TrialState.COMPLETE,))

    # -- proposing ---------------------------------------------------------------------------
    def _propose(self, step: int, slot: int, history: list[FrozenTrial]):
        storage = optuna.storages.InMemoryStorage()
        with quiet_optuna():
            storage.create_new_study(directions=[StudyDirection.MAXIMIZE], study_name="proposal")
        scratch = optuna.Study(
            "proposal", storage, sampler=self.make_sampler(slot_seed(self.seed, step, slot))
        )
        for t in history:
            scratch.add_trial(
                optuna.trial.create_trial(
                    params=t.params, distributions=t.distributions, value=t.value
                )
            )
        trial = scratch.ask()
        self.suggest(trial)
        return dict(trial.params), dict(trial.distributions)

    # -- the loop ----------------------------------------------------------------------------
    def run(self, step: int, n_slots: int) -> dict[int, FrozenTrial]:
        """Work on ``step`` until its ``n_slots`` slots are complete (or the deadline)."""
        waiting_since = None
        while True:
            if self.deadline is not None and time.monotonic() > self.deadline:
                self.log(f"step {step}: time is up")
                return self.completed(step)
            if _heartbeat_enabled(self.storage):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
                    optuna.storages.fail_stale_trials(self.study)
            trials = self._claims(self.study, step)
            done = self._by_slot(trials, (TrialState.COMPLETE,))
            if len(done) >= n_slots:
                return done
            busy = self._by_slot(trials, (TrialState.RUNNING,))
            free = [s for s in range(n_slots) if s not in done and s not in busy]
            slot = free[0] if free else None
            if slot is not None:
                first = (slot // self.batch_size) * self.batch_size
                if any(s not in done for s in range(first)):
                    slot = None  # an earlier batch is still running elsewhere
            if slot is None:
                if waiting_since is None:
                    waiting_since = time.monotonic()
                    self.log(f"step {step}: waiting for slots running in other workers")
                time.sleep(self.poll_interval)
                continue
            waiting_since = None
            history = [done[s] for s in range(first)]
            self._run_slot(step, slot, history)

    def _rivals(self, step: int, slot: int, number: int) -> list[FrozenTrial]:
        """Live claims of the same slot by trials asked before trial ``number``."""
        return [
            t
            for t in self._claims(self.study, step)
            if t.user_attrs.get(SLOT_ATTR) == slot
            and t.number < number
            and t.state in (TrialState.RUNNING, TrialState.COMPLETE)
        ]

    def _run_slot(self, step: int, slot: int, history: list[FrozenTrial]) -> None:
        params, distributions = self._propose(step, slot, history)
        self._fixed.params = params
        with warnings.catch_warnings():
            # the heartbeat is recorded here and by _Heartbeat below, not by Study.optimize
            warnings.filterwarnings("ignore", "Heartbeat of storage", UserWarning)
            trial = self.study.ask(fixed_distributions=distributions)
        # the heartbeat goes in before the claim: Optuna fails only trials that have one, so a
        # worker killed after claiming a slot but before its first beat would hold the slot
        # for ever and every other worker would wait on it
        if _heartbeat_enabled(self.storage):
            self.storage.record_heartbeat(trial._trial_id)
        trial.set_user_attr(STEP_ATTR, step)
        trial.set_user_attr(SLOT_ATTR, slot)
        # two workers may claim the same slot at once: the later trial gives way
        if self._rivals(step, slot, trial.number):
            self.study.tell(trial, state=TrialState.FAIL)
            return
        try:
            with _Heartbeat(self.storage, trial._trial_id):
                value, attrs = self.evaluate(params)
        except BaseException:
            self.study.tell(trial, state=TrialState.FAIL, skip_if_finished=True)
            raise
        for key, val in attrs.items():
            trial.set_user_attr(key, val)
        # the claim above is check-then-act: a rival asked earlier may have written its claim
        # after this trial checked; the earlier trial keeps the slot, so at most one completes
        if self._rivals(step, slot, trial.number):
            self.study.tell(trial, state=TrialState.FAIL)
            self.log(f"step {step} slot {slot}: an earlier claim holds the slot; result dropped")
            return
        self.study.tell(trial, value)
        self.log(f"step {step} slot {slot}: {params} -> gain {value:.4f}")
        self.on_trial()
