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


def rs_float(x):
    """A number as Rust source: Python's shortest round-trip form, the same f64."""
    x = float(x)
    if not np.isfinite(x):
        raise SystemExit(f"non-finite value {x} in a model")
    return repr(x)


def export(booster, name, outputs):
    """One forest as Rust statics for `extract::learned::forest::Forest`: the roots, splits and
    leaves of every tree, in tree order; within a tree, nodes in pre-order (a child's index is
    above its parent's). A numeric split is `s(feature, threshold, left, right)`; a categorical
    one `c(feature, &[categories going left], left, right)`. Returns the lines and the counts
    of splits, leaves and trees."""
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
                    splits.append(f"s({node['split_feature']}, {rs_float(node['threshold'])}, {left}, {right})")
                elif kind == "==" and missing in ("None", "NaN"):
                    # Categories going left, as LightGBM writes them: "3||7||12".
                    cats = sorted(int(v) for v in str(node["threshold"]).split("||"))
                    splits.append(f"c({node['split_feature']}, &[{', '.join(map(str, cats))}], {left}, {right})")
                else:
                    raise SystemExit(f"{name}: unsupported split {kind} {missing}")
            else:
                leaves.append(rs_float(node["leaf_value"]))
        roots.append(ref[id(root)])
    up = name.upper()
    out = [f"static {up}_SPLITS: [Split; {len(splits)}] = ["]
    out += [f"    {s}," for s in splits]
    out.append("];")
    out.append(f"static {up}_LEAVES: [f64; {len(leaves)}] = [")
    for i in range(0, len(leaves), 6):
        out.append("    " + " ".join(v + "," for v in leaves[i : i + 6]))
    out.append("];")
    out.append(f"static {up}_ROOTS: [i32; {len(roots)}] = [")
    for i in range(0, len(roots), 16):
        out.append("    " + " ".join(f"{v}," for v in roots[i : i + 16]))
    out.append("];")
    return out, len(splits), len(leaves), len(roots)
