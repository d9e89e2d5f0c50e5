#!/usr/bin/env python3
"""Cross-validated block model: does a learned block model beat `auto`?

Reads the block table of `pith-lab blocks` (TSV: per block its features, its tokens as `id:count`
pairs over the page's vocabulary and its repeat group) and its page lines (`--pages` JSONL: the
gold's token counts, and the scores of `auto`'s real output and, with `--peers`, of the peers'
saved outputs), then:

- host-grouped 5-fold CV on wcxb_train (GroupKFold by host: no host in two folds);
- leave-one-set-out (LOSO) over the sets in the table (train on all the others); a set with
  snippet gold only (trafilatura_eval: page lines whose gold is null) gives training rows in
  every part and is held out in none, since it has no gold text to score a page against
  (`pith eval` scores the shipped model, trained without it, on its snippets);

and for every held-out page selects the blocks with predicted p >= threshold, adds up their
token counts and scores bag-of-words F1 against the gold's as `pith eval` does
(src/eval/metrics.rs, shared/peers/README.md): multiset overlap, P averaged over pages with
output, R over pages with gold, F1 per page (empty output = 0) over all pages. The trainer
tokenizes nothing: `pith-lab blocks` counts every block's and every gold's tokens with the
scorer's own tokenizer (`pith::eval::metrics::tokens`) and groups the blocks that repeat one
another; `prf` below is only the scorer's arithmetic on those counts. `auto` (its real output)
and trafilatura (its saved outputs under shared/peers) are scored by the library itself on the
same pages (the page lines' `auto` and `peers`, `pith::eval::metrics::bow`).

The threshold is chosen inside the training part only: an inner host-grouped 2-fold CV over the
training pages gives out-of-fold block probabilities, and the threshold of the grid that
maximises their mean page F1 is kept; the model is then refit on the whole training part.
Nothing is chosen on held-out pages. Deterministic: fixed seeds, `deterministic=True`,
`force_row_wise`, 2 threads.

Usage: train.py BLOCKS.tsv PAGES.jsonl [--out DIR]; every run but `--model` needs page lines
written with `pith-lab blocks --pages FILE --peers DIR` (trafilatura's scores).
Writes OUT/results.md (tables), OUT/per_page.tsv (with --cv-only too), OUT/model.txt (trained on
every set) and prints the tables.
"""

import argparse
import hashlib
import json
import os
import struct
import sys
import time

import lightgbm as lgb
import numpy as np
import pandas as pd
from scipy import ndimage, sparse

from common import (DETERMINISTIC, THREADS, forest_entry, forest_of, host_folds, numbers_entry, read_table,
                    fnv1a64, strings_entry, write_model_file)

# Thresholds the trainer chooses from: on the probability itself (--fixed-thresholds), or as a
# fraction of the page's expected best F1 (the default; see page_best).
GRID = np.round(np.arange(0.10, 0.901, 0.05), 2)
SCALED_GRID = np.round(np.arange(0.10, 1.501, 0.05), 2)
META = ["set", "page", "host", "type", "block", "label", "tag", "parent_tag", "repeat", "tokens"]
PARAMS = dict(
    objective="binary",
    learning_rate=0.15,
    num_leaves=31,
    min_data_in_leaf=100,
    feature_fraction=0.8,
    bagging_fraction=0.5,
    bagging_freq=1,
    lambda_l2=1.0,
    max_bin=63,
    max_cat_to_onehot=8,
    cat_smooth=20,
    **DETERMINISTIC,
)
ROUNDS = 100


def prf(common, pred, gold):
    """(P or None, R or None, F1) of `common` matched tokens of `pred` predicted and `gold` gold
    tokens: the arithmetic of src/eval/metrics.rs's prf, mirrored (the counts come from the
    library's tokenizer, through the block table)."""
    p = common / pred if pred > 0 else None
    r = common / gold if gold > 0 else None
    if p is not None and r is not None:
        f = 2 * p * r / (p + r) if p + r > 0 else 0.0
    elif p is None and r is None:
        f = 1.0
    else:
        f = 0.0
    return p, r, f


def summary(scores):
    """Mean P over pages with output, mean R over pages with gold, mean F1 over all."""
    ps = [s[0] for s in scores if s[0] is not None]
    rs = [s[1] for s in scores if s[1] is not None]
    fs = [s[2] for s in scores]
    m = lambda v: float(np.mean(v)) if v else 0.0
    return m(ps), m(rs), m(fs), sum(1 for f in fs if f < 0.5), len(fs)


def pair_selection(p, kept, scale, pairs):
    """Per (t_kept, t_added, floor) threshold, which of a page's blocks are selected: a block
    `auto` kept when p >= t_kept * scale, one it dropped when p >= max(t_added * scale, floor)
    (thresholds x blocks)."""
    t = np.asarray(pairs, dtype=np.float64)
    added = np.maximum(t[:, 1:2] * scale[None, :], t[:, 2:3])
    sel = np.where(kept[None, :], p[None, :] >= t[:, 0:1] * scale[None, :], p[None, :] >= added)
    if HYST["gap"] is None or len(p) == 0:
        return sel
    seed = sel & (kept[None, :] | (p[None, :] >= min(scale.max(), p.max())))
    return hysteresis(sel, seed, HYST["gap"])


# --hysteresis G (lab): a selected block stays only when a chain of selected blocks, each at
# most G unselected blocks from the next, joins it to a seed: a selected block `auto` kept or
# one whose probability reaches the page's best expected F1 (or the page's highest
# probability, when lower). Canny's hysteresis thresholding in page order, with DANAg's
# neighbours within a gap: a weak block far from every sure one (a sidebar's teaser) stays
# out.
HYST = {"gap": None}


def hysteresis(sel, seed, gap):
    """The selections `sel` (rows x blocks) without the groups of selected blocks (joined
    across at most `gap` unselected ones) that hold no `seed` block."""
    rows, n = sel.shape
    idx = np.arange(n)
    prev = np.maximum.accumulate(np.where(sel, idx[None, :], -(10**9)), axis=1)
    before = np.concatenate([np.full((rows, 1), -(10**9)), prev[:, :-1]], axis=1)
    new = sel & (idx[None, :] - before > gap + 1)
    gid = np.cumsum(new.ravel()).reshape(rows, n)
    has = np.zeros(int(gid.max()) + 1, dtype=bool)
    has[gid[sel & seed]] = True
    return sel & has[gid]


# A text the page repeats is kept once, as extract::repeats does after every selection of the
# library: a block whose words are those of an earlier selected block is dropped, unless it lies
# in a table, preformatted text or a figure (where rows, code lines and photo credits repeat by
# nature). The library compares only lines whose text nodes are copies of other selected nodes
# (to skip reading the others); scored both ways, `auto` differs by 0.0002 at most on a set.
# That was the library's first rule. Since issue 42 the library keeps the repeats the content
# makes (a refrain, a notice printed twice) and drops only a region rendered again, judged on
# the tree (extract::repeats); blocks carry no tree here, so the trainer still scores its
# thresholds with the first rule (docs/research-log.md, "Repeats the content makes"), on the
# groups the block table's `repeat` column gives (`pith-lab blocks`: blocks of the same tokens,
# at least one). --keep-repeats measures the selection without it.
REPEATS = {"once": True}


def repeat_groups(groups, exempt):
    """A page's repeat groups from its blocks' `repeat` column (the group's number, -1 for none):
    (their positions in block order, whether each is `exempt`: in a table, preformatted text or
    a figure), in the groups' order."""
    pos = np.flatnonzero(groups >= 0)
    if len(pos) == 0:
        return []
    order = pos[np.argsort(groups[pos], kind="stable")]
    return [(v, exempt[v]) for v in np.split(order, np.flatnonzero(np.diff(groups[order])) + 1)]


def token_pairs(cells):
    """The block table's `tokens` cells (`id:count` pairs separated by spaces) as flat arrays:
    every pair's id and count, and per row where its pairs start (one more entry at the end)."""
    n = np.fromiter((c.count(":") for c in cells), dtype=np.int64, count=len(cells))
    flat = np.fromstring(" ".join(cells).replace(":", " "), dtype=np.int64, sep=" ")
    if len(flat) != 2 * n.sum():
        raise SystemExit("the block table's tokens column is not `id:count` pairs")
    return flat[0::2], flat[1::2], np.r_[0, np.cumsum(n)]


def keep_once(sel, groups):
    """The selections `sel` (rows x blocks) without the blocks that repeat an earlier selected
    block of their group, unless they are exempt."""
    if not groups:
        return sel
    sel = sel.copy()
    for pos, exempt in groups:
        s = sel[:, pos]
        before = np.logical_or.accumulate(s, axis=1)
        repeat = np.zeros_like(s)
        repeat[:, 1:] = before[:, :-1]
        sel[:, pos] = s & ~(repeat & ~exempt[None, :])
    return sel


class PageBank:
    """Per page: a blocks x vocabulary count matrix and the gold counts, so a threshold's
    selection is scored by one sparse product. The counts are the table's (`tokens`: ids over
    the page's vocabulary, the gold's tokens first) and the page line's (`gold`)."""

    def __init__(self, df, pages):
        self.pages = {}
        self.repeats = {}
        # Pages with a gold text; a page with snippet gold only (trafilatura_eval) gives
        # training rows and is never scored.
        self.gold_n = {k: p["gold_tokens"] for k, p in pages.items() if p["gold"] is not None}
        ids, counts, start = token_pairs(df["tokens"].values)
        exempt = (df["in_table"].values > 0) | (df["in_pre"].values > 0) | (df["in_figure"].values > 0)
        repeat = df["repeat"].values.astype(np.int64)
        for (s, pid), g in df.groupby(["set", "page"], sort=False):
            info = pages[(s, pid)]
            if info["gold"] is None:
                continue
            # A page's rows are contiguous (main checks it).
            a, b = g.index.values[0], g.index.values[-1] + 1
            lo, hi = start[a], start[b]
            m = sparse.csr_matrix(
                (counts[lo:hi].astype(np.float64), ids[lo:hi], start[a : b + 1] - lo),
                shape=(b - a, info["vocab"]),
            )
            gv = np.zeros(info["vocab"])
            gv[: len(info["gold"])] = info["gold"]
            self.pages[(s, pid)] = (g.index.values, m, gv)
            self.repeats[(s, pid)] = repeat_groups(repeat[a:b], exempt[a:b])

    def scored(self, key):
        """Whether the page has a gold text to be scored against."""
        return key in self.gold_n

    def scores_pairs(self, key, prob, kept, pairs, scale):
        """(P, R, F1) of the page for each (t_kept, t_added, floor) threshold: a block `auto`
        kept stays when p >= t_kept * scale, one it dropped comes in when p >= max(t_added *
        scale, floor) (`scale` per row: the page's best expected F1, or 1 with fixed
        thresholds)."""
        if key not in self.pages:
            return [prf(0, 0, self.gold_n[key]) for _ in pairs]
        idx, m, gv = self.pages[key]
        sel = pair_selection(prob[idx], kept[idx], scale[idx], pairs)
        if REPEATS["once"]:
            sel = keep_once(sel, self.repeats[key])
        sel = sel.astype(np.float64)
        counts = np.asarray((sparse.csr_matrix(sel) @ m).todense())
        common = np.minimum(counts, gv[None, :]).sum(axis=1)
        pred = counts.sum(axis=1)
        gold = gv.sum()
        return [prf(c, n, gold) for c, n in zip(common, pred)]

    def selects(self, key, prob, kept, thr, scale):
        """Whether the selection under `thr` (a threshold, or a triple whose fractions are
        times `scale`) has any block."""
        idx = self.pages[key][0]
        if isinstance(thr, tuple):
            return bool(pair_selection(prob[idx], kept[idx], scale[idx], [thr]).any())
        return bool((prob[idx] >= thr).any())

    def selected(self, key, prob, kept, thr, scale, fallback):
        """(P, R, F1) of the page as `--algo model` selects under `thr` (a threshold, or a
        triple whose fractions are times `scale`): `fallback`, `auto`'s score, when no block
        reaches it, as the shipped algorithm falls back to `auto`'s selection
        (extract::learned::extract)."""
        if key in self.pages and not self.selects(key, prob, kept, thr, scale):
            return fallback
        if isinstance(thr, tuple):
            return self.scores_pairs(key, prob, kept, [thr], scale)[0]
        return self.scores(key, prob, [thr])[0]

    def scores(self, key, prob, thresholds):
        """(P, R, F1) of the page for each threshold; `prob` indexed like the table."""
        if key not in self.pages:
            # No text block at all (pith sees no visible text): the output is empty.
            return [prf(0, 0, self.gold_n[key]) for _ in thresholds]
        idx, m, gv = self.pages[key]
        p = prob[idx]
        sel = (p[None, :] >= np.asarray(thresholds)[:, None]).astype(np.float64)
        counts = np.asarray((sparse.csr_matrix(sel) @ m).todense())
        common = np.minimum(counts, gv[None, :]).sum(axis=1)
        pred = counts.sum(axis=1)
        gold = gv.sum()
        return [prf(c, n, gold) for c, n in zip(common, pred)]


def features(df, cats):
    x = df.drop(columns=META).astype(np.float32)
    tags = pd.DataFrame(
        {c: pd.Categorical(df[c], categories=cats[c]).codes.astype(np.int32) for c in ("tag", "parent_tag")},
        index=df.index,
    )
    return pd.concat([tags, x], axis=1)


def fit(x, y, w):
    ds = lgb.Dataset(x, y, weight=w, categorical_feature=["tag", "parent_tag"], free_raw_data=True)
    return lgb.train(PARAMS, ds, num_boost_round=ROUNDS)


def set_size(rounds, leaves, rate):
    """The forests' size (a lab switch: `--rounds`, `--leaves`, `--learning-rate`). The walk is
    most of `--algo model`'s time, and it grows with the trees and their depth."""
    global ROUNDS
    if rounds:
        ROUNDS = rounds
    if leaves:
        PARAMS["num_leaves"] = leaves
    if rate:
        PARAMS["learning_rate"] = rate


def train_rows(df, mask):
    """Training rows: judged blocks only (label 0/1), weighted by log(1 + words)."""
    m = mask & (df["label"].values >= 0)
    return m


# With --balance-sets, every set weighs the same in training and in the threshold's choice:
# a row's weight is multiplied by (training pages / sets) / (its set's training pages), so
# that WCXB's 1,358 pages do not outvote the news sets' gold conventions.
BALANCE = {"on": False}
# A block `auto` kept and one it dropped get thresholds of their own, chosen together by the
# inner CV: overriding `auto` may need more evidence than agreeing with it (CV on wcxb_train
# 0.860 against 0.858 with one threshold; leave-one-set-out +0.001 against −0.002 over
# `auto`). --one-threshold measures the single threshold.
TWO = {"on": True}


def set_weights(df, mask):
    """Per row: the weight of its set (1 for every row unless BALANCE is on)."""
    if not BALANCE["on"]:
        return np.ones(len(df))
    pages = df.loc[mask, ["set", "page"]].drop_duplicates()
    per_set = pages.groupby("set").size()
    w = (len(pages) / len(per_set)) / per_set
    return df["set"].map(w).fillna(0.0).to_numpy()


# The inner CV that gives the training part its out-of-fold probabilities (the second model's
# inputs, the thresholds' choice). --inner-folds 4 (measured, not kept; docs/research-log.md, "Two
# more variants with the floor"): CV 0.8733 -> 0.8741, but cleaneval_final 0.959 -> 0.950 and
# scrapinghub 0.947 -> 0.941 held out, for twice the training time.
INNER = {"folds": 2}


def oof_and_fit(df, x, mask, sw):
    """Out-of-fold probabilities of the `mask` rows (an inner host-grouped CV over their
    pages, INNER folds) and the model fitted on all of them; rows weighted by log(1 + words)
    times their set's weight `sw`."""
    idx = np.where(mask)[0]
    oof = np.zeros(len(df))
    for inner_tr, inner_te in host_folds(df["host"].values[idx], n_splits=INNER["folds"]):
        # Fit on the inner training pages, predict the inner held-out pages.
        itr = np.zeros(len(df), dtype=bool)
        itr[idx[inner_tr]] = True
        ite = np.zeros(len(df), dtype=bool)
        ite[idx[inner_te]] = True
        m = train_rows(df, itr)
        model = fit(x[m], df["label"].values[m], np.log1p(df["words"].values[m]) * sw[m])
        oof[ite] = model.predict(x[ite], num_threads=THREADS)
    m = train_rows(df, mask)
    model = fit(x[m], df["label"].values[m], np.log1p(df["words"].values[m]) * sw[m])
    return oof, model


# The least probability a block `auto` dropped needs to come in, whatever the page's F*. A
# fraction of F* falls with F*, and F* falls on a page of many blocks of middling probability
# (a documentation page's long menu of links at 0.3-0.45): the bar for overriding `auto` then
# sinks to them and lets the whole menu in. The trainer chooses the floor with the fractions;
# 0 is no floor. Measured by `just train-lab` against the same trainer without floors: CV
# 0.8735 -> 0.8733, six sets held out 0.8672 -> 0.8678, cleaneval_final 0.952 -> 0.959.
FLOORS = [0.0, 0.3, 0.4, 0.5]


def threshold_pairs():
    """The (for blocks `auto` kept, for blocks it dropped, floor for blocks it dropped)
    thresholds the trainer chooses from: fractions of the page's best expected F1 and
    FLOORS, or probabilities with --fixed-thresholds (no floor)."""
    if not SCALED["on"]:
        return [(float(a), float(b), 0.0) for a in GRID for b in GRID]
    return [(float(a), float(b), f) for a in SCALED_GRID for b in SCALED_GRID for f in FLOORS]


# --smooth-grid (measured): the triple is chosen on each triple's score averaged with its
# neighbours one grid step away on every axis (those inside the grid), so a lone peak among
# 3,364 noisy candidates weighs less than a broad ridge. The score sums of the training pages
# come from one inner split; a peak is as likely that split's noise as the method's optimum.
SMOOTH = {"on": False}


def best_pair(per):
    """The index in threshold_pairs() of the best of the score sums `per` (with --smooth-grid,
    of their means over each triple's grid neighbourhood)."""
    if not SMOOTH["on"]:
        return int(np.argmax(per))
    shape = (len(SCALED_GRID), len(SCALED_GRID), len(FLOORS))
    v = np.asarray(per, dtype=np.float64).reshape(shape)
    total = ndimage.uniform_filter(v, size=3, mode="constant", cval=0.0)
    count = ndimage.uniform_filter(np.ones(shape), size=3, mode="constant", cval=0.0)
    return int(np.argmax((total / count).ravel()))


def pair_scores(df, bank, oof, mask, sw, betas):
    """Per beta, the sum over the `mask` pages of each page's F-beta under each of the
    threshold_pairs(), weighted by the page's set weight `sw`."""
    kept = df["auto_kept"].values > 0
    scale = page_best(df, oof)
    pairs = threshold_pairs()
    set_w = dict(zip(df["set"].values, sw))
    per = {b: np.zeros(len(pairs)) for b in betas}
    for k in df.loc[mask, ["set", "page"]].drop_duplicates().itertuples(index=False):
        if not bank.scored(tuple(k)):
            continue
        sc = bank.scores_pairs(tuple(k), oof, kept, pairs, scale)
        for b in per:
            per[b] += set_w[k[0]] * np.array([fbeta(v, b) for v in sc])
    return per


# --robust-sets (measured, not kept; docs/research-log.md, "The worst set's gain as the threshold's
# objective"): the triple whose worst training set gains most over `auto` (each set's mean page
# F1 under the triple minus `auto`'s mean there) instead of the best mean over all pages. With
# one set (the CV) it is the pooled choice.
ROBUST = {"on": False, "auto": {}}


def robust_pair(df, bank, oof, mask):
    """The index in threshold_pairs() of the triple with the largest smallest per-set gain
    over `auto` (ROBUST["auto"]: per page, `auto`'s F1) among the `mask` pages' sets."""
    ones = np.ones(len(df))
    names, gains = [], []
    for s in sorted(set(df.loc[mask, "set"])):
        in_set = mask & (df["set"].values == s)
        keys = [tuple(k) for k in df.loc[in_set, ["set", "page"]].drop_duplicates().itertuples(index=False)]
        keys = [k for k in keys if bank.scored(k)]
        if not keys:
            continue
        total = pair_scores(df, bank, oof, in_set, ones, [1.0])[1.0]
        names.append(s)
        gains.append(total / len(keys) - sum(ROBUST["auto"][k] for k in keys) / len(keys))
    gains = np.array(gains)
    i = int(np.argmax(gains.min(axis=0)))
    print(f"worst-set triple {fmt_thr(threshold_pairs()[i])}: gains over auto "
          + ", ".join(f"{s} {g:+.4f}" for s, g in zip(names, gains[:, i])), file=sys.stderr)
    return i


def fit_with_threshold(df, x, bank, train_mask):
    """Fits on `train_mask` rows and picks the threshold (a kept/added/floor triple, unless
    --one-threshold) by an inner host-grouped 2-fold CV over those pages (out-of-fold
    probabilities, mean page F1 over the grid). Also returns those out-of-fold
    probabilities."""
    sw = set_weights(df, train_mask)
    oof, model = oof_and_fit(df, x, train_mask, sw)
    if TWO["on"] and ROBUST["on"]:
        thr = threshold_pairs()[robust_pair(df, bank, oof, train_mask)]
    elif TWO["on"]:
        thr = threshold_pairs()[best_pair(pair_scores(df, bank, oof, train_mask, sw, [1.0])[1.0])]
    else:
        set_w = dict(zip(df["set"].values, sw))
        per_t = np.zeros(len(GRID))
        for k in df.loc[train_mask, ["set", "page"]].drop_duplicates().itertuples(index=False):
            if bank.scored(tuple(k)):
                per_t += set_w[k[0]] * np.array([s[2] for s in bank.scores(tuple(k), oof, GRID)])
        thr = float(GRID[int(np.argmax(per_t))])
    return model, thr, oof


# A second model reads the first one's probabilities of the block's neighbours: content comes
# in runs (a paragraph among paragraphs, a teaser among teasers), which one block's own
# numbers and its two neighbours' sizes cannot see (CV on wcxb_train 0.863 against 0.860
# without it; leave-one-set-out cleaneval +0.004 against −0.012). --no-stack measures one.
STACK = {"on": True}
PAGES = {"codes": None}
NEIGHBOURS = ["s_prev1", "s_next1", "s_prev2", "s_next2", "s_window", "s_page", "s_max", "s_best"]
# --best-run (measured, not kept; docs/research-log.md, "Two more variants with the floor"): three more
# inputs from the page's best run of blocks under the first model (best_runs). CV 0.8733 ->
# 0.8725, all six sets held out 0.8678 -> 0.8653. The library has no such inputs, so --model
# refuses it.
BEST_RUN = {"on": False, "names": ["s_in_run", "s_run_gap", "s_run_share"]}


def best_runs(df, prob):
    """Per row: whether the block lies in its page's best run, the blocks between it and the
    run over the page's blocks (0 inside), and the run's share of the page's words. The best
    run is the contiguous stretch of blocks (in page order) with the largest sum of
    (p - 0.5) x words, DANAg's densest region over the first model's probabilities; the
    earliest of equal runs."""
    page = PAGES["codes"]
    w = df["words"].values.astype(np.float64)
    inrun, gap, share = np.zeros(len(df)), np.zeros(len(df)), np.zeros(len(df))
    starts = np.r_[0, np.flatnonzero(np.diff(page)) + 1, len(page)]
    for a, b in zip(starts[:-1], starts[1:]):
        pre = np.r_[0.0, np.cumsum((prob[a:b] - 0.5) * w[a:b])]
        end = int(np.argmax(pre[1:] - np.minimum.accumulate(pre[:-1])))
        start = int(np.argmin(pre[: end + 1]))
        idx = np.arange(b - a)
        inrun[a:b] = (idx >= start) & (idx <= end)
        gap[a:b] = np.where(idx < start, start - idx, np.where(idx > end, idx - end, 0)) / (b - a)
        share[a:b] = w[a + start : a + end + 1].sum() / max(w[a:b].sum(), 1.0)
    return inrun, gap, share


def neighbour_columns(df, prob):
    """The stage-2 inputs from stage-1 probabilities `prob` (indexed like the table): the
    previous and next block's, the second previous and next (-1 where there is none), the
    mean over the three blocks on each side, the page's mean, its highest and its best
    expected F1; with --best-run, best_runs' three after them."""
    page = PAGES["codes"]
    p = pd.Series(prob, index=df.index)
    g = p.groupby(page, sort=False)
    cols = {}
    for name, d in (("s_prev1", 1), ("s_next1", -1), ("s_prev2", 2), ("s_next2", -2)):
        cols[name] = g.shift(d).fillna(-1.0).values
    total = np.zeros(len(df))
    count = np.zeros(len(df))
    for d in (-3, -2, -1, 1, 2, 3):
        v = g.shift(d)
        total += v.fillna(0.0).values
        count += v.notna().values
    cols["s_window"] = np.where(count > 0, total / np.maximum(count, 1), -1.0)
    # Sums in block order (bincount adds one row at a time), as the library adds them.
    sums = np.bincount(page, weights=prob)
    cols["s_page"] = (sums / np.bincount(page))[page]
    # Where the block stands against its page: the page's highest probability and its best
    # expected F1 (CV on wcxb_train 0.866 against 0.867 without them, 87 pages below 0.5
    # against 91; leave-one-set-out better or equal on every set, +0.007 over `auto` on all
    # of them against +0.005).
    top = np.zeros(page.max() + 1)
    np.maximum.at(top, page, prob)
    cols["s_max"] = top[page]
    cols["s_best"] = best_f1(df, prob)
    assert list(cols) == NEIGHBOURS
    if BEST_RUN["on"]:
        cols.update(zip(BEST_RUN["names"], best_runs(df, prob)))
    return pd.DataFrame(cols, index=df.index).astype(np.float32)


# The threshold scales with the page: a block stays when its probability reaches a fraction of
# the page's best expected F1 (page_best), not a fixed number. --fixed-thresholds measures the
# fixed ones.
SCALED = {"on": True}


def page_best(df, prob):
    """Per row, what its thresholds are fractions of: its page's best_f1, or 1 with
    --fixed-thresholds."""
    if not SCALED["on"]:
        return np.ones(len(df))
    return best_f1(df, prob)


def best_f1(df, prob):
    """Per row, its page's best expected F1 under the probabilities `prob`, F*: with blocks
    sorted by falling p (ties in block order) and w a block's words, the largest
    2 sum_S p w / (sum_S w + sum_all p w) over the prefixes S. With calibrated probabilities
    the selection of greatest expected F1 keeps the blocks with p >= F*/2 (the F1-optimal
    threshold is half the best F1 reachable), so a threshold as a fraction of F* adapts to
    how sure the model is on this page. Summed in the order extract::learned sums (block
    order for the page's total, sorted order for the prefixes), so its F* are the same f64."""
    page = PAGES["codes"]
    w = df["words"].values.astype(np.float64)
    best = np.zeros(len(df))
    starts = np.r_[0, np.flatnonzero(np.diff(page)) + 1, len(page)]
    for a, b in zip(starts[:-1], starts[1:]):
        p, ww = prob[a:b], w[a:b]
        total = np.cumsum(p * ww)[-1]
        order = np.argsort(-p, kind="stable")
        f = (2.0 * np.cumsum(p[order] * ww[order])) / np.maximum(np.cumsum(ww[order]) + total, 1e-9)
        best[a:b] = f.max()
    return best


def fit_stacked(df, x, bank, train_mask):
    """Stage 1 fitted on the training rows (with its out-of-fold probabilities, no threshold
    of its own); stage 2 trained on the stage-1 out-of-fold probabilities of the training
    pages' neighbours, its thresholds chosen by fit_with_threshold. Returns a predictor of
    the stage-2 probabilities of a test mask, the thresholds and the stage-2 out-of-fold
    probabilities of the training rows."""
    oof1, m1 = oof_and_fit(df, x, train_mask, set_weights(df, train_mask))
    x2 = pd.concat([x, neighbour_columns(df, oof1)], axis=1)
    m2, thr, oof2 = fit_with_threshold(df, x2, bank, train_mask)

    def predict(test_mask):
        p1 = np.zeros(len(df))
        p1[test_mask] = m1.predict(x[test_mask], num_threads=THREADS)
        x2t = pd.concat([x, neighbour_columns(df, p1)], axis=1)
        return m2.predict(x2t[test_mask], num_threads=THREADS)

    return predict, thr, oof2


# --chooser (measured, not shipped; docs/research-log.md, "Choosing between the model and `auto`,
# page by page"): per page, a small regressor predicts the model's F1 minus `auto`'s from what
# the block model says of the page, and the output is `auto`'s when the prediction is not above
# zero. It learns from the training pages' out-of-fold stage-2 probabilities, so it sees the
# model as it is on unseen pages; nothing about the held-out part is chosen.
CHOOSER = {"on": False}
CHOOSER_PARAMS = dict(
    objective="regression",
    learning_rate=0.05,
    num_leaves=7,
    min_data_in_leaf=30,
    feature_fraction=0.8,
    bagging_fraction=0.7,
    bagging_freq=1,
    lambda_l2=1.0,
    **DETERMINISTIC,
)
CHOOSER_ROUNDS = 150
CHOOSER_NAMES = [
    "best_f1", "p_max", "log_words", "log_auto_words", "log_model_words", "auto_words_kept",
    "model_words_added", "model_expected_f1", "auto_expected_f1", "expected_f1_gain",
    "p_auto_kept", "p_auto_dropped", "log_blocks", "log_size_ratio", "auto_root_is_top",
    "page_best_score", "page_outcome", "page_auto_share", "in_main_share", "link_density",
]


def chooser_features(df, prob, kept, scale, thr, idx):
    """What the block model says of one page (its rows `idx`) under the thresholds `thr`: its
    F* and highest probability, the words of the page, of `auto`'s and of the model's
    selections and how they overlap, each selection's expected F1 under the probabilities,
    the mean probability of the blocks `auto` kept and dropped, and `auto`'s own page
    numbers."""
    p, k = prob[idx], kept[idx]
    w = df["words"].values[idx].astype(np.float64)
    sel = pair_selection(p, k, scale[idx], [thr])[0]
    total = (p * w).sum()
    w_all, w_auto, w_sel = w.sum(), (w * k).sum(), (w * sel).sum()

    def expected_f1(m):
        return 2 * (p * w * m).sum() / max((w * m).sum() + total, 1e-9)

    e_sel, e_auto = expected_f1(sel), expected_f1(k)
    first = idx[0]
    return [
        scale[first], p.max(), np.log1p(w_all), np.log1p(w_auto), np.log1p(w_sel),
        (w * k * sel).sum() / max(w_auto, 1), (w * sel * ~k).sum() / max(w_sel, 1),
        e_sel, e_auto, e_sel - e_auto,
        (p * w * k).sum() / max(w_auto, 1), (p * w * ~k).sum() / max(w_all - w_auto, 1),
        np.log1p(len(idx)), np.log((w_sel + 1) / (w_auto + 1)),
        df["auto_root_is_top"].values[first], df["page_best_score"].values[first],
        df["page_outcome"].values[first], df["page_auto_share"].values[first],
        (w * (df["in_main"].values[idx] > 0)).sum() / max(w_all, 1),
        (w * df["link_density"].values[idx]).sum() / max(w_all, 1),
    ]


def fit_chooser(df, bank, oof, train_mask, thr, auto_score):
    """The chooser, fitted on the `train_mask` pages: the model's page score under the
    out-of-fold probabilities `oof` (PageBank.selected) minus `auto_score(key)`'s F1."""
    kept = df["auto_kept"].values > 0
    scale = page_best(df, oof)
    xs, ys = [], []
    for k in df.loc[train_mask, ["set", "page"]].drop_duplicates().itertuples(index=False):
        k = tuple(k)
        # A page with blocks has a gold text (PageBank keeps no other); one without has no
        # selection to choose.
        if k not in bank.pages:
            continue
        au = auto_score(k)
        xs.append(chooser_features(df, oof, kept, scale, thr, bank.pages[k][0]))
        ys.append(bank.selected(k, oof, kept, thr, scale, au)[2] - au[2])
    ds = lgb.Dataset(np.array(xs), np.array(ys), feature_name=CHOOSER_NAMES)
    return lgb.train(CHOOSER_PARAMS, ds, num_boost_round=CHOOSER_ROUNDS)


def fmt_thr(t):
    """A threshold, or a (kept, added, floor) triple of them."""
    return f"{t[0]:.2f}/{t[1]:.2f}/{t[2]:.2f}" if isinstance(t, tuple) else f"{t:.2f}"


def fbeta(s, beta):
    """F-beta of one page's (P, R, F1), with F1's conventions for an empty output or gold."""
    p, r, f = s
    if p is None or r is None:
        return f
    b2 = beta * beta
    return (1 + b2) * p * r / (b2 * p + r) if p + r > 0 else 0.0


def fit_for_export(df, x, bank):
    """The shipped models, trained on every row: the first over the block's numbers, the
    second over them and the first one's out-of-fold probabilities of the block's neighbours.
    Three triples of thresholds (for blocks `auto` kept, for blocks it dropped, the floor of
    the latter) on the second one's out-of-fold probabilities (host-grouped 2-fold over all
    pages): the best mean page F1 (the default), then among triples no lower than it in each
    part the best F0.5 (`--precision`, a subset of the default's blocks) and among triples no
    higher the best F2 (`--recall`, a superset)."""
    every = np.ones(len(df), dtype=bool)
    ones = np.ones(len(df))
    oof1, m1 = oof_and_fit(df, x, every, ones)
    x2 = pd.concat([x, neighbour_columns(df, oof1)], axis=1)
    oof, m2 = oof_and_fit(df, x2, every, ones)
    per = pair_scores(df, bank, oof, every, ones, (1.0, 0.5, 2.0))
    pairs = threshold_pairs()
    best = pairs[best_pair(per[1.0])]
    def best_where(beta, ok):
        cand = [i for i, p in enumerate(pairs) if ok(p)]
        return pairs[max(cand, key=lambda i: (per[beta][i], -i))]
    thr = {
        1.0: best,
        0.5: best_where(0.5, lambda p: all(a >= b for a, b in zip(p, best))),
        2.0: best_where(2.0, lambda p: all(a <= b for a, b in zip(p, best))),
    }
    return (m1, m2), thr


def write_export(model_path, pred_path, df, x, cats, models, thr):
    """src/extract/learned/block.model (the two forests, the tag categories, the input names and
    the thresholds: a model file, `extract::learned::model_file`) and the trainer's own raw
    scores per page: the number of blocks, FNV-1a hashes of the two models' raw scores' f64
    bits in block order and the page's best expected F1 (page_best), which
    tests/it/block_model.rs recomputes with the library. The second model reads the first one's
    probabilities as the library computes them at run time: from the first model trained on
    every row."""
    m1, m2 = models
    f1 = forest_of(m1, "block", 1)
    f2 = forest_of(m2, "runs", 1)
    feats = list(x.columns)
    tag = lambda v: "" if v == "-" else v
    write_model_file(model_path, [
        strings_entry("tags", [tag(v) for v in cats["tag"]]),
        strings_entry("parent_tags", [tag(v) for v in cats["parent_tag"]]),
        strings_entry("inputs", feats),
        strings_entry("run_inputs", list(NEIGHBOURS)),
        # (kept, added, floor): the best mean page F1, F0.5 (--precision) and F2 (--recall)
        # on the trainer's out-of-fold predictions.
        numbers_entry("threshold", [float(v) for v in thr[1.0]]),
        numbers_entry("threshold_precision", [float(v) for v in thr[0.5]]),
        numbers_entry("threshold_recall", [float(v) for v in thr[2.0]]),
        forest_entry("block", f1, len(feats)),
        forest_entry("runs", f2, len(feats) + len(NEIGHBOURS)),
    ])
    n_trees1, n_splits1, n_leaves1 = len(f1["roots"]), len(f1["splits"]), len(f1["leaves"])
    n_trees2, n_splits2, n_leaves2 = len(f2["roots"]), len(f2["splits"]), len(f2["leaves"])
    raw1 = m1.predict(x, raw_score=True, num_threads=THREADS)
    p1 = m1.predict(x, num_threads=THREADS)
    x2 = pd.concat([x, neighbour_columns(df, p1)], axis=1)
    raw2 = m2.predict(x2, raw_score=True, num_threads=THREADS)
    best = page_best(df, m2.predict(x2, num_threads=THREADS))
    with open(pred_path, "w") as f:
        f.write("set\tpage\tblocks\tfnv_block\tfnv_runs\tmean_probability\tbest_f1\n")
        keys = (df["set"] + "\t" + df["page"]).values
        start = 0
        while start < len(df):
            end = start
            while end < len(df) and keys[end] == keys[start]:
                end += 1
            h1 = fnv1a64(struct.pack(f"<{end - start}d", *raw1[start:end]))
            r = raw2[start:end]
            h2 = fnv1a64(struct.pack(f"<{len(r)}d", *r))
            prob = float(np.mean(1.0 / (1.0 + np.exp(-r))))
            f.write(f"{keys[start]}\t{end - start}\t{h1:016x}\t{h2:016x}\t{prob:.9f}\t{float(best[start])!r}\n")
            start = end
    return n_trees1 + n_trees2, n_splits1 + n_splits2, n_leaves1 + n_leaves2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("blocks")
    ap.add_argument("pages")
    ap.add_argument("--out", default="target/train")
    ap.add_argument("--drop", action="append", default=[],
                    help="leave out the features whose name starts with this (an ablation; repeatable)")
    ap.add_argument("--balance-sets", action="store_true",
                    help="every set weighs the same in training and in the threshold's choice")
    ap.add_argument("--page-columns", help="a TSV of set, page and page-level features to join to every block")
    ap.add_argument("--cv-only", action="store_true",
                    help="only the wcxb_train CV (no leave-one-set-out, no model on every set)")
    ap.add_argument("--report", help="also write the tables here, under a title (eval/BLOCK_MODEL.md)")
    ap.add_argument("--model", help="only train the shipped model on every row and write it here as a model "
                    "file (src/extract/learned/block.model); no cross-validation")
    ap.add_argument("--predictions", help="with --model: the trainer's raw scores per page, hashed "
                    "(lab/train/block_predictions.tsv)")
    ap.add_argument("--rounds", type=int, help=f"boosting rounds per forest (default {ROUNDS})")
    ap.add_argument("--leaves", type=int, help=f"leaves per tree (default {PARAMS['num_leaves']})")
    ap.add_argument("--learning-rate", type=float, help=f"(default {PARAMS['learning_rate']})")
    ap.add_argument("--no-stack", action="store_true",
                    help="one model, without the second one over the first one's probabilities of "
                    "each block's neighbours")
    ap.add_argument("--one-threshold", action="store_true",
                    help="one threshold for every block, instead of one for the blocks auto kept and "
                    "one for those it dropped")
    ap.add_argument("--keep-repeats", action="store_true",
                    help="score the selection as it is, without dropping the blocks that repeat an "
                    "earlier selected block's words (extract::repeats)")
    ap.add_argument("--chooser", action="store_true",
                    help="per page, `auto`'s output when a regressor trained on the training pages "
                    "predicts the model's F1 no higher than `auto`'s (measured, not shipped)")
    ap.add_argument("--fixed-thresholds", action="store_true",
                    help="thresholds on the probability itself, instead of fractions of the page's "
                    "best expected F1 (--one-threshold is always fixed)")
    ap.add_argument("--inner-folds", type=int, default=2,
                    help="folds of the inner host-grouped CV that gives the training part its "
                    "out-of-fold probabilities (2 ships; 4 measured, not kept)")
    ap.add_argument("--robust-sets", action="store_true",
                    help="choose the threshold triple whose worst training set gains most over "
                    "auto (measured, not shipped)")
    ap.add_argument("--smooth-grid", action="store_true",
                    help="choose the threshold triple on its score averaged with its grid neighbours "
                    "(measured)")
    ap.add_argument("--best-run", action="store_true",
                    help="the second model also reads where the block stands against the page's "
                    "best run of blocks under the first model (measured, not shipped)")
    ap.add_argument("--within", metavar="SET",
                    help="diagnostic: host-grouped 5-fold CV over SET, trained on every other row")
    ap.add_argument("--hysteresis", type=int, metavar="G",
                    help="keep a selected block only when joined to a sure one across gaps of at "
                    "most G blocks (measured)")
    a = ap.parse_args()
    set_size(a.rounds, a.leaves, a.learning_rate)
    if a.inner_folds < 2:
        raise SystemExit("--inner-folds needs at least 2")
    HYST["gap"] = a.hysteresis
    if a.hysteresis is not None and a.model:
        raise SystemExit("--hysteresis has no selection in the library to export to")
    if a.best_run and a.model:
        raise SystemExit("--best-run has no inputs in the library to export to")
    if a.robust_sets and (a.model or a.one_threshold or a.smooth_grid):
        raise SystemExit("--robust-sets chooses the held-out parts' triple: not with --model, "
                         "--one-threshold or --smooth-grid")
    if a.smooth_grid and a.fixed_thresholds:
        raise SystemExit("--smooth-grid smooths the triples' grid; --fixed-thresholds has none")
    INNER["folds"] = a.inner_folds
    BEST_RUN["on"] = a.best_run
    SMOOTH["on"] = a.smooth_grid
    BALANCE["on"] = a.balance_sets
    TWO["on"] = not a.one_threshold
    STACK["on"] = not a.no_stack
    SCALED["on"] = not a.fixed_thresholds
    REPEATS["once"] = not a.keep_repeats
    CHOOSER["on"] = a.chooser
    if a.chooser and a.no_stack:
        raise SystemExit("--chooser needs the second model (no --no-stack)")
    os.makedirs(a.out, exist_ok=True)
    t0 = time.time()
    df = read_table(
        a.blocks,
        {"set": str, "page": str, "host": str, "type": str, "tag": str, "parent_tag": str, "tokens": str},
    )
    if a.page_columns:
        # Page-level columns (e.g. out-of-fold page-type probabilities) joined to every block
        # of their page as features.
        extra = read_table(a.page_columns, {"set": str, "page": str})
        df = df.merge(extra, on=["set", "page"], how="left", validate="many_to_one")
        added = [c for c in extra.columns if c not in ("set", "page")]
        if df[added].isna().any().any():
            raise SystemExit(f"{a.page_columns}: a page of the block table is missing")
        print(f"page columns: {', '.join(added)}", file=sys.stderr)
    pages = {}
    with open(a.pages) as f:
        for line in f:
            p = json.loads(line)
            pages[(p["set"], p["page"])] = p
    if not a.model and not all("peers" in p for p in pages.values()):
        raise SystemExit(f"{a.pages}: no peers' scores in the page lines; write them with "
                         "`pith-lab blocks ... --pages FILE --peers DIR` (../shared/peers)")
    # Labels between 0 and 1 (`pith-lab blocks --label-share`, the shipped table: a block's
    # share of word pairs in the gold) are fitted by cross-entropy; a table of 0 and 1 (the
    # per-block rule thresholded, --counted-pairs) by the binary log loss, as it was measured.
    judged = df["label"].values[df["label"].values >= 0]
    if not np.isin(judged, [0, 1]).all():
        PARAMS["objective"] = "cross_entropy"
        print("labels: shares between 0 and 1 (cross-entropy)", file=sys.stderr)
    cats = {c: sorted(df[c].unique()) for c in ("tag", "parent_tag")}
    x = features(df, cats)
    # Each row's page as a number, for the second model's neighbours.
    PAGES["codes"] = pd.factorize(df["set"] + "/" + df["page"])[0]
    if (np.diff(PAGES["codes"]) < 0).any():
        raise SystemExit(f"{a.blocks}: a page's blocks are not contiguous")
    dropped = [c for c in x.columns if any(c.startswith(d) for d in a.drop)]
    x = x.drop(columns=dropped)
    if dropped:
        print(f"ablation: without {', '.join(dropped)}", file=sys.stderr)
    print(f"table: {len(df)} blocks, {len(pages)} pages, {x.shape[1]} features "
          f"({time.time() - t0:.1f}s to load)", file=sys.stderr)
    bank = PageBank(df, pages)
    print(f"token bank built ({time.time() - t0:.1f}s)", file=sys.stderr)
    if a.model:
        if not a.predictions:
            raise SystemExit("--model needs --predictions")
        models, thr = fit_for_export(df, x, bank)
        n = write_export(a.model, a.predictions, df, x, cats, models, thr)
        print(f"block model: {n[0]} trees, {n[1]} splits, {n[2]} leaves; thresholds (kept/added/floor) "
              f"F1 {fmt_thr(thr[1.0])}, F0.5 {fmt_thr(thr[0.5])}, F2 {fmt_thr(thr[2.0])} "
              f"({time.time() - t0:.0f} s)", file=sys.stderr)
        return

    def auto_score(key):
        """(P, R, F1) of `auto`'s real output, as the library scored it (the page line)."""
        return tuple(pages[key]["auto"])

    def peer_score(key, tool):
        """(P, R, F1) of a peer's saved output, as the library scored it; a set without the
        tool's outputs scores as empty outputs (the reference scorer's rule for a missing
        one)."""
        s = pages[key]["peers"].get(tool)
        return tuple(s) if s is not None else prf(0, 0, bank.gold_n[key])

    if a.robust_sets:
        ROBUST["on"] = True
        ROBUST["auto"] = {k: auto_score(k)[2] for k in pages if bank.scored(k)}

    # The labels' own ceiling: every block labelled content (a share of at least one half),
    # nothing else.
    oracle = (df["label"].values >= 0.5).astype(np.float64)
    per_page = []  # (protocol, set, page, host, type, model, auto, trafilatura, threshold, fold, oracle, confidence)
    timings = {}
    chose_auto = {}  # with --chooser: per protocol, the held-out pages given `auto`'s output

    def run(protocol, folds):
        """folds: list of (name, train_mask, test_mask)."""
        t = time.time()
        for name, tr, te in folds:
            prob = np.zeros(len(df))
            if STACK["on"]:
                predict, thr, oof = fit_stacked(df, x, bank, tr)
                prob[te] = predict(te)
            else:
                model, thr, _ = fit_with_threshold(df, x, bank, tr)
                prob[te] = model.predict(x[te], num_threads=THREADS)
            kept = df["auto_kept"].values > 0
            scale = page_best(df, prob)
            if CHOOSER["on"]:
                chooser = fit_chooser(df, bank, oof, tr, thr, auto_score)
            for k in test_pages[name]:
                au = auto_score(k)
                ms = bank.selected(k, prob, kept, thr, scale, au)
                if CHOOSER["on"] and k in bank.pages:
                    f = chooser_features(df, prob, kept, scale, thr, bank.pages[k][0])
                    if chooser.predict(np.array([f]), num_threads=THREADS)[0] <= 0:
                        ms = au
                        chose_auto[protocol] = chose_auto.get(protocol, 0) + 1
                tf = peer_score(k, "trafilatura")
                p = pages[k]
                orc = bank.scores(k, oracle, [0.5])[0]
                # The confidence `--algo model` reports: the page's F*, its best expected F1
                # under the held-out probabilities (0 for a page without text blocks).
                conf = float(scale[bank.pages[k][0][0]]) if k in bank.pages and len(bank.pages[k][0]) else 0.0
                per_page.append((protocol, k[0], k[1], p["host"], p["type"], ms, au, tf, thr, name, orc, conf))
            print(f"{protocol} {name}: threshold {fmt_thr(thr)} ({time.time() - t:.0f}s)", file=sys.stderr)
        timings[protocol] = time.time() - t

    # Folds are cut over pages (every page of the set, a page without text blocks included),
    # then mapped to the table's rows.
    row_key = (df["set"] + "/" + df["page"]).values
    test_pages = {}

    def host_cv(name, everything_else):
        """Host-grouped 5-fold CV over the pages of set `name`: per fold (its name, training
        rows, test rows), with the fold's test pages registered. A fold trains on the set's
        other folds, or with `everything_else` on every row of the table outside its test
        pages."""
        s_pages = [k for k in pages if k[0] == name]
        s_hosts = [pages[k]["host"] for k in s_pages]
        if len(set(s_hosts)) < 5:
            raise SystemExit(f"{name}: fewer than 5 hosts in the table, too few for 5 host-grouped folds")

        def rows(js):
            return np.isin(row_key, [f"{s_pages[j][0]}/{s_pages[j][1]}" for j in js])

        folds = []
        for i, (tr, te) in enumerate(host_folds(s_hosts)):
            fold = f"fold{i + 1}"
            tem = rows(te)
            test_pages[fold] = [s_pages[j] for j in te]
            folds.append((fold, ~tem if everything_else else rows(tr), tem))
        return folds

    if a.within:
        # Diagnostic: host-grouped 5-fold CV over one set, each fold trained on every other
        # row of every set (the set's other hosts included).
        run(f"within-{a.within}", host_cv(a.within, everything_else=True))
        write_per_page(os.path.join(a.out, "per_page.tsv"), per_page)
        m, au = summary([r[5] for r in per_page]), summary([r[6] for r in per_page])
        print(f"{a.within} within: model F1 {m[2]:.4f} ({m[3]} below 0.5), auto {au[2]:.4f}")
        return

    # Host-grouped 5-fold CV on wcxb_train, trained on its other folds alone.
    run("cv5-wcxb_train", host_cv("wcxb_train", everything_else=False))

    if a.cv_only:
        summary_cv = summary([r[5] for r in per_page])
        auto_cv = summary([r[6] for r in per_page])
        text = (f"wcxb_train CV without {dropped}: model F1 {summary_cv[2]:.3f} "
                f"({summary_cv[3]} below 0.5), auto {auto_cv[2]:.3f}; {time.time() - t0:.0f} s\n")
        with open(os.path.join(a.out, "ablation.md"), "a") as f:
            f.write(text)
        write_per_page(os.path.join(a.out, "per_page.tsv"), per_page)
        print(text)
        return

    # Leave one set out.
    # Sets with snippet gold only are in every training part and held out in none (the
    # shipped model, trained on the other sets, is scored on them by `pith eval`).
    sets = sorted({k[0] for k in pages if bank.scored(k)})
    for s in sets:
        test_pages[s] = [k for k in pages if k[0] == s]
    run("loso", [(s, df["set"].values != s, df["set"].values == s) for s in sets])

    # The model trained on everything, for its size and determinism.
    t = time.time()
    model, thr, _ = fit_with_threshold(df, x, bank, np.ones(len(df), dtype=bool))
    timings["all"] = time.time() - t
    path = os.path.join(a.out, "model.txt")
    model.save_model(path)
    digest = hashlib.sha256(open(path, "rb").read()).hexdigest()[:16]
    imp = sorted(zip(model.feature_name(), model.feature_importance("gain")), key=lambda v: -v[1])

    # Tables.
    out = []
    def table(title, protocol, key):
        rows = [r for r in per_page if r[0] == protocol]
        groups = sorted({key(r) for r in rows})
        out.append(f"\n### {title}\n")
        out.append("| group | pages | model P / R / F1 | auto P / R / F1 | trafilatura F1 | model − auto | below 0.5: model / auto / traf. | label ceiling F1 |")
        out.append("|---|---|---|---|---|---|---|---|")
        for g in groups + ["all"]:
            rs = [r for r in rows if g == "all" or key(r) == g]
            m, au, tf = summary([r[5] for r in rs]), summary([r[6] for r in rs]), summary([r[7] for r in rs])
            orc = summary([r[10] for r in rs])
            out.append(
                f"| {g} | {m[4]} | {m[0]:.3f} / {m[1]:.3f} / **{m[2]:.3f}** | {au[0]:.3f} / {au[1]:.3f} / **{au[2]:.3f}** "
                f"| {tf[2]:.3f} | {m[2] - au[2]:+.3f} | {m[3]} / {au[3]} / {tf[3]} | {orc[2]:.3f} |"
            )
    table("wcxb_train, host-grouped 5-fold CV, per page type", "cv5-wcxb_train", lambda r: r[4])
    table("wcxb_train, host-grouped 5-fold CV, per fold", "cv5-wcxb_train", lambda r: r[9])
    table("Leave one set out, per held-out set", "loso", lambda r: r[1])
    table("Leave one set out, wcxb sets per page type", "loso", lambda r: r[4] if r[1].startswith("wcxb") else "(" + r[1] + ")")
    thr_rows = sorted({(r[0], r[9], r[8]) for r in per_page})
    out.append("\n### Thresholds chosen inside the training part\n")
    out.append(", ".join(f"{p} {n}: {fmt_thr(t)}" for p, n, t in thr_rows))
    out.append(f"; the first model alone, trained on everything: {fmt_thr(thr)} (the shipped "
               "thresholds, on the second model, are `just train`'s)")
    out.append("\n### Confidence: the page's F* against its F1\n")
    out.append("Spearman's rank correlation of the held-out F* (`confidence` in JSON) with the "
               "page's F1 under the model's selection: " + ", ".join(
                   f"{name} {spearman(rows):.3f} ({len(rows)} pages)" for name, rows in [
                       ("CV wcxb_train", [r for r in per_page if r[0] == "cv5-wcxb_train"]),
                       ("leave one set out", [r for r in per_page if r[0] == "loso"])] if rows))
    if CHOOSER["on"]:
        out.append("\n### The chooser (--chooser)\n")
        out.append("Held-out pages given `auto`'s output: "
                   + ", ".join(f"{p} {n}" for p, n in sorted(chose_auto.items())))
    out.append("\n### Time (2 threads)\n")
    out.append(", ".join(f"{k}: {v:.0f} s" for k, v in timings.items()) + f"; whole run {time.time() - t0:.0f} s")
    out.append(f"\nThe first model on every set: {model.num_trees()} trees, {os.path.getsize(path)} bytes as LightGBM text, sha256 {digest}…")
    out.append("\n### Top features by gain (the first model on every set)\n")
    out.append(", ".join(f"{n} {v:.0f}" for n, v in imp[:20]))
    text = "\n".join(out) + "\n"
    with open(os.path.join(a.out, "results.md"), "w") as f:
        f.write(text)
    if a.report:
        with open(a.report, "w") as f:
            f.write("# The block model (`--algo model`) on pages it was not trained on\n\n"
                    "Written by `just train-lab` (lab/train/train.py); docs/model.md explains the "
                    "protocol. Cells are P / R / F1 means; the model as `--algo model` selects. "
                    "Thresholds are triples: for blocks `auto` kept / for blocks it dropped / the least "
                    "probability a block it dropped needs.\n")
            f.write(text)
    write_per_page(os.path.join(a.out, "per_page.tsv"), per_page)
    print(text)


def spearman(rows):
    """Spearman's rank correlation of the pages' confidence with their model F1 (per_page rows)."""
    from scipy.stats import spearmanr
    return float(spearmanr([r[11] for r in rows], [r[5][2] for r in rows]).statistic)


def write_per_page(path, per_page):
    """One row per held-out page: protocol, fold, page, type, threshold and the F1s."""
    with open(path, "w") as f:
        f.write("protocol\tfold\tset\tpage\thost\ttype\tthreshold\tmodel_f1\tauto_f1\ttrafilatura_f1\tceiling_f1\tconfidence\n")
        for r in per_page:
            f.write(f"{r[0]}\t{r[9]}\t{r[1]}\t{r[2]}\t{r[3]}\t{r[4]}\t{fmt_thr(r[8])}\t{r[5][2]:.4f}\t{r[6][2]:.4f}\t{r[7][2]:.4f}\t{r[10][2]:.4f}\t{r[11]:.4f}\n")


if __name__ == "__main__":
    main()
