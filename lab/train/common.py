"""What the trainers share: reading `pith-lab`'s tables, LightGBM's determinism settings and
the host-grouped folds (page_model.py, train.py, arbitrate.py)."""

import numpy as np
import pandas as pd
from sklearn.model_selection import GroupKFold

SEED = 22
THREADS = 2
# Every source of randomness seeded and LightGBM's results made independent of the machine:
# the same model on every run.
DETERMINISTIC = dict(
    num_threads=THREADS,
    seed=SEED,
    bagging_seed=SEED,
    feature_fraction_seed=SEED,
    data_random_seed=SEED,
    deterministic=True,
    force_row_wise=True,
    verbose=-1,
)


def read_table(path, dtype):
    """A TSV table of `pith-lab` (no quoting, nothing read as missing), columns typed by
    `dtype` (a type, or a dict column -> type; pandas infers the others)."""
    return pd.read_csv(
        path,
        sep="\t",
        quoting=3,
        keep_default_na=False,
        na_values=[],
        dtype=dtype,
        low_memory=False,
    )


def read_features(path, meta):
    """A table of page rows: the columns not in `meta` (and "f1") as numbers, the rest text.
    Every column is read as text and the numbers parsed by Python's float(): exactly the f64
    values pith-lab printed (Rust's shortest round-trip form), which the Rust evaluator sees
    too. Returns the table and its feature columns."""
    df = read_table(path, str)
    feats = [c for c in df.columns if c not in meta]
    for c in feats + ["f1"]:
        df[c] = np.array([float(v) for v in df[c]], dtype=np.float64)
    return df, feats


def host_folds(hosts, n_splits=5):
    """Host-grouped folds over rows whose hosts are `hosts` (GroupKFold by host, in row
    order): (train, test) positions, no host on both sides."""
    hosts = np.asarray(hosts)
    for train, test in GroupKFold(n_splits=n_splits).split(hosts, groups=hosts):
        assert not set(hosts[train]) & set(hosts[test]), "a host in two folds"
        yield train, test
