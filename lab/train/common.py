"""What the trainers share: reading `pith-lab`'s tables, LightGBM's determinism settings and
the host-grouped folds (page_model.py, train.py, arbitrate.py)."""

import struct

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


def forest_of(booster, name, outputs):
    """One forest as the model file stores it (`extract::learned::forest`): the roots, splits
    and leaves of every tree, in tree order; within a tree, nodes in pre-order (a child's index
    is above its parent's). A child `c >= 0` is a split, `c < 0` the leaf `~c`. A split is
    (feature, threshold, left, right) for a numeric one, (feature, [categories going left],
    left, right) for a categorical one."""
    model = booster.dump_model()
    if model.get("num_tree_per_iteration", 1) != outputs:
        raise SystemExit(f"{name}: {model.get('num_tree_per_iteration')} trees per iteration")
    splits, leaves, roots = [], [], []
    for info in model["tree_info"]:
        root = info["tree_structure"]
        # Pre-order numbering first, so that a parent knows its children's indices.
        order, stack = [], [root]
        while stack:
            node = stack.pop()
            order.append(node)
            if "split_index" in node:
                stack.append(node["right_child"])
                stack.append(node["left_child"])
        ref = {}
        s_base, l_base = len(splits), len(leaves)
        s_i, l_i = 0, 0
        for node in order:
            if "split_index" in node:
                ref[id(node)] = s_base + s_i
                s_i += 1
            else:
                ref[id(node)] = ~(l_base + l_i)
                l_i += 1
        for node in order:
            if "split_index" in node:
                left, right = ref[id(node["left_child"])], ref[id(node["right_child"])]
                kind, missing = node["decision_type"], node.get("missing_type", "None")
                if kind == "<=" and missing == "None":
                    t = float(node["threshold"])
                    if not np.isfinite(t):
                        raise SystemExit(f"{name}: non-finite threshold {t}")
                    splits.append((int(node["split_feature"]), t, left, right))
                elif kind == "==" and missing in ("None", "NaN"):
                    # Categories going left, as LightGBM writes them: "3||7||12".
                    cats = sorted(int(v) for v in str(node["threshold"]).split("||"))
                    splits.append((int(node["split_feature"]), cats, left, right))
                else:
                    raise SystemExit(f"{name}: unsupported split {kind} {missing}")
            else:
                v = float(node["leaf_value"])
                if not np.isfinite(v):
                    raise SystemExit(f"{name}: non-finite leaf {v}")
                leaves.append(v)
        roots.append(ref[id(root)])
    return dict(outputs=outputs, roots=roots, splits=splits, leaves=leaves)


MODEL_MAGIC = b"PITHMODL"
MODEL_VERSION = 1


def _name(name):
    b = name.encode()
    if len(b) > 255:
        raise SystemExit(f"entry name too long: {name}")
    return struct.pack("<B", len(b)) + b


def strings_entry(name, values):
    out = b"\x01" + _name(name) + struct.pack("<I", len(values))
    for v in values:
        b = v.encode()
        out += struct.pack("<H", len(b)) + b
    return out


def numbers_entry(name, values):
    return b"\x02" + _name(name) + struct.pack("<I", len(values)) + struct.pack(f"<{len(values)}d", *values)


def forest_entry(name, forest, inputs):
    """A forest of `forest_of` for rows of `inputs` values, in the model file's layout
    (`extract::learned::model_file`)."""
    words, nodes = [], []
    for feature, test, left, right in forest["splits"]:
        if feature >= inputs:
            raise SystemExit(f"{name}: feature {feature} outside {inputs} inputs")
        if isinstance(test, list):
            n = max(test) // 64 + 1
            first = len(words)
            bits = [0] * n
            for c in test:
                bits[c // 64] |= 1 << (c % 64)
            words += bits
            nodes.append(struct.pack("<HHiiQ", feature, n, left, right, first))
        else:
            nodes.append(struct.pack("<HHiid", feature, 0, left, right, test))
    out = b"\x03" + _name(name)
    out += struct.pack("<6I", forest["outputs"], inputs, len(forest["roots"]), len(nodes), len(forest["leaves"]), len(words))
    out += struct.pack(f"<{len(forest['roots'])}i", *forest["roots"])
    out += b"".join(nodes)
    out += struct.pack(f"<{len(forest['leaves'])}d", *forest["leaves"])
    out += struct.pack(f"<{len(words)}Q", *words)
    return out


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def write_model_file(path, entries):
    """A model file of the given entries' bytes (`strings_entry`, `numbers_entry`,
    `forest_entry`): the header, the version and the FNV-1a 64 hash of the body."""
    body = b"".join(entries)
    with open(path, "wb") as f:
        f.write(MODEL_MAGIC + struct.pack("<IQ", MODEL_VERSION, fnv1a64(body)) + body)
    return len(body)
