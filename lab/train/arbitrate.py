#!/usr/bin/env python3
"""Candidate arbitration: does the confidence model pick, per page, a better extraction than
`auto` among auto, auto --recall and danag?

Reads `pith-lab pages --candidates` (one row per page and candidate: the candidate's true F1
and the page features of its output). A regressor with the confidence model's settings
(lab/train/page_model.py) learns each candidate's F1 from its features plus the candidate's
name (two 0/1 columns); on a held-out page the candidate with the highest prediction is
chosen (`auto` on a tie). Nothing is tuned: no margin, no threshold.

- host-grouped 5-fold CV on wcxb_train (the folds of page_model.py; training rows are every
  set's pages whose host is not in the fold);
- leave one set out (trained on the other sets, without the held-out set's hosts).

For each: mean F1 of auto, recall, danag, the chosen one and the per-page best (oracle),
the paired chosen - auto difference with a 95% host-bootstrap interval, and how often each
candidate was chosen. Usage: arbitrate.py CANDIDATES.tsv [--out FILE]
"""

import argparse
import sys

import numpy as np
import pandas as pd

sys.path.insert(0, __import__("os").path.dirname(__file__))
from common import SEED, host_folds, read_features  # noqa: E402
from page_model import CONF_PARAMS, CONF_ROUNDS, CV_SET  # noqa: E402

import lightgbm as lgb  # noqa: E402

META = ["set", "page", "host", "type", "url", "candidate", "f1", "word_buckets"]
CANDS = ["auto", "recall", "danag"]


def load(path):
    df, feats = read_features(path, META)
    flags = pd.DataFrame({"cand_" + c: (df["candidate"] == c).astype(np.float64) for c in CANDS[1:]})
    df = pd.concat([df, flags], axis=1)
    return df, feats + list(flags.columns)


def fit(X, y):
    return lgb.train(CONF_PARAMS, lgb.Dataset(X, label=y), num_boost_round=CONF_ROUNDS)


def choose(df, test_keys, pred):
    """Per page of test_keys: the F1 of each candidate and of the chosen one."""
    sub = df.loc[test_keys].copy()
    sub["pred"] = pred
    f1 = sub.pivot_table(index=["set", "page", "host"], columns="candidate", values="f1", sort=True)
    pr = sub.pivot_table(index=["set", "page", "host"], columns="candidate", values="pred", sort=True)
    f1, pr = f1[CANDS], pr[CANDS]
    pick = np.argmax(pr.to_numpy(), axis=1)  # first maximum: auto on a tie
    out = f1.copy()
    out["chosen"] = f1.to_numpy()[np.arange(len(f1)), pick]
    out["oracle"] = f1.max(axis=1)
    out["pick"] = [CANDS[i] for i in pick]
    return out.reset_index()


def boot(diff, hosts, draws=2000, seed=SEED):
    rng = np.random.default_rng(seed)
    uh, inv = np.unique(hosts, return_inverse=True)
    sums = np.bincount(inv, weights=diff)
    counts = np.bincount(inv)
    stats = []
    for _ in range(draws):
        s = rng.integers(0, len(uh), len(uh))
        stats.append(sums[s].sum() / counts[s].sum())
    return np.percentile(stats, [2.5, 97.5])


def row(name, r):
    d = r["chosen"] - r["auto"]
    lo, hi = boot(d.to_numpy(), r["host"].to_numpy())
    picks = r["pick"].value_counts()
    return (
        f"| {name} | {len(r)} | {r['auto'].mean():.3f} | {r['recall'].mean():.3f} | {r['danag'].mean():.3f} | "
        f"**{r['chosen'].mean():.3f}** | {r['oracle'].mean():.3f} | {d.mean():+.3f} ({lo:+.3f} … {hi:+.3f}) | "
        f"{int((d > 0.01).sum())} / {int((d < -0.01).sum())} | "
        + " / ".join(str(int(picks.get(c, 0))) for c in CANDS)
        + " |"
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("table")
    ap.add_argument("--out")
    a = ap.parse_args()
    df, feats = load(a.table)
    hosts = df["host"].to_numpy()
    lines = [
        "| held out | pages | auto | recall | danag | chosen | oracle | chosen − auto (95% host interval) | gain / lose > 0.01 | picks auto / recall / danag |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    # CV on wcxb_train, folds by host over its pages (in table order, as page_model.py).
    cv_pages = df[(df["set"] == CV_SET) & (df["candidate"] == "auto")]
    parts = []
    for _, test in host_folds(cv_pages["host"]):
        test_pages = cv_pages.iloc[test]
        held = set(test_pages["host"])
        keys = df.index[(df["set"] == CV_SET) & df["page"].isin(set(test_pages["page"]))]
        train = df.index[~np.isin(hosts, list(held))]
        m = fit(df.loc[train, feats], df.loc[train, "f1"])
        parts.append(choose(df, keys, m.predict(df.loc[keys, feats])))
    cv = pd.concat(parts)
    lines.append(row(f"{CV_SET} (5-fold CV)", cv))
    loso = []
    for s in sorted(df["set"].unique()):
        keys = df.index[df["set"] == s]
        held = set(df.loc[keys, "host"])
        train = df.index[(df["set"] != s) & ~np.isin(hosts, list(held))]
        m = fit(df.loc[train, feats], df.loc[train, "f1"])
        r = choose(df, keys, m.predict(df.loc[keys, feats]))
        loso.append(r)
        lines.append(row(f"{s} (LOSO)", r))
    lines.append(row("all (LOSO)", pd.concat(loso)))
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
