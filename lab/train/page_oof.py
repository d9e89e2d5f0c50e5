#!/usr/bin/env python3
"""Out-of-fold page-type probabilities for every page of the page table (a lab input for
`train.py --page-columns`; docs/research-log.md, "The page type as a block feature").

Each page's seven probabilities come from the shipped type model's recipe
(`page_model.fit_stacked_type`: trees over the features and the text model) trained without
that page's hosts: a wcxb_train page's without its host-grouped CV fold, every other set's
page without its whole set (and the set's hosts).

Usage: page_oof.py PAGES.tsv OUT.tsv   (PAGES.tsv from `pith-lab pages`; about a minute)
"""

import sys

import numpy as np

import page_model as pm
from common import host_folds, read_features


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    df, feats = read_features(sys.argv[1], pm.META)
    X = df[feats]
    W = pm.word_counts(df["word_buckets"].to_numpy())
    classes = sorted(df.loc[df["set"].isin(pm.TYPE_SETS), "type"].unique())
    ci = {c: i for i, c in enumerate(classes)}
    is_news = df["set"].isin(pm.ARTICLE_SETS).to_numpy()
    is_type = df["set"].isin(pm.TYPE_SETS).to_numpy() | is_news
    y = np.where(is_news, ci["article"], df["type"].map(lambda t: ci.get(t, -1)).to_numpy())
    hosts = df["host"].to_numpy()
    probs = np.full((len(df), len(classes)), np.nan)

    def fit_predict(train, test):
        m, tm = pm.fit_stacked_type(X, W, y, hosts, train, classes)
        probs[test] = m.predict(pm.stack(X.iloc[test], tm.probs(W[test]), classes))

    cv = np.flatnonzero((df["set"] == pm.CV_SET).to_numpy())
    for _, test in host_folds(hosts[cv]):
        test = cv[test]
        free = ~np.isin(hosts, list(set(hosts[test])))
        fit_predict(np.flatnonzero(free & is_type), test)
    for s in sorted(set(df["set"]) - {pm.CV_SET}):
        test = np.flatnonzero((df["set"] == s).to_numpy())
        held = set(hosts[test])
        fit_predict(np.flatnonzero(is_type & (df["set"] != s).to_numpy() & ~np.isin(hosts, list(held))), test)
    if np.isnan(probs).any():
        raise SystemExit("a page without out-of-fold probabilities")
    out = df[["set", "page"]].copy()
    for i, c in enumerate(classes):
        out[f"ptype_{c}"] = probs[:, i]
    out.to_csv(sys.argv[2], sep="\t", index=False)
    print(f"{len(out)} pages; wcxb_train accuracy {np.mean(probs[cv].argmax(1) == y[cv]):.3f}", file=sys.stderr)


if __name__ == "__main__":
    main()
