#!/usr/bin/env python3
"""The page models of `pith --format json`: `page_type` and `confidence` (`just train`).

Reads the page table of `pith-lab pages` (TSV: set, page, host, type, url, f1 of `auto`'s
output, then the features of `pith::page::model::features`, then the page's hashed words) and
trains:

- page type: a 7-class classifier on WCXB's page types (wcxb_train and wcxb_dev, the sets whose
  MANIFEST gives `types`) and on the news-only sets' pages as articles (ARTICLE_SETS; the
  other sets' pages have no type and are left out): LightGBM trees
  over the features and the seven probabilities of a linear text model over the words
  (`TextModel`, a logistic regression; the trees train on its out-of-fold probabilities);
- confidence: a regressor (cross-entropy objective, so a logistic output in 0..1) of the
  bag-of-words F1 of `auto`'s output against the gold, on the pages of every set.

Validation: host-grouped 5-fold CV on wcxb_train (GroupKFold by host). For each fold the
training part is every page of the model's sets whose host is not in the held-out fold, so
no host (wcxb_dev shares some with wcxb_train) is on both sides. The confidence model is also
scored leave-one-set-out. Then both models are fit on all their pages and written:

- OUT_MODEL: both forests, the classes and the feature names as a model file (see
  src/extract/learned/model_file.rs for the format, src/page/model/mod.rs for its use);
- OUT_BIN: the text model's idf, intercepts and weights as f64 (src/page/model/words.rs reads
  them);
- PREDICTIONS: the trainer's own predictions for every row of the table (class
  probabilities and confidence), which the Rust evaluator must reproduce (tests/it/page_model.rs);
- REPORT: the validation tables (Markdown).

Deterministic: fixed seeds, deterministic=True, force_row_wise, a fixed thread count, the
table's row order. Nothing here depends on the clock, so a re-run writes the same bytes.

Usage: page_model.py PAGES.tsv --model OUT_MODEL --words OUT_BIN --predictions PREDICTIONS --report REPORT
       [--oof OOF.tsv] [--cv-only]

--cv-only is the experiment loop (under 3 minutes): the CV, the page type's leave-one-set-out
counts and wcxb_dev held out, printed; nothing is written but --oof.
"""

import argparse
import math
import struct
import sys
import time

import lightgbm as lgb
import numpy as np
import pandas as pd
from scipy import sparse
from scipy.stats import pearsonr, spearmanr
from sklearn.linear_model import LogisticRegression

from common import DETERMINISTIC, forest_entry, forest_of, host_folds, read_features, strings_entry, write_model_file

META = ["set", "page", "host", "type", "url", "f1", "word_buckets"]
TYPE_SETS = ["wcxb_train", "wcxb_dev"]
# Sets made only of news articles (../shared/data/README.md: ScrapingHub's article-extraction
# benchmark, L3S-GN1's Google News pages): every page is an `article` for the type model. A
# label from the set's definition, not from its pages. Without them the type model, trained on
# WCXB alone, called 32% of l3s_gn1's and 86% of scrapinghub's pages articles when each was
# held out; with them (the other news set in training) 90% and 94% (docs/research-log.md).
ARTICLE_SETS = ["scrapinghub", "l3s_gn1"]
# Sets not labelled but reported in the same way (CleanEval mixes page kinds; Dragnet's pages
# are articles with comments).
REPORTED_SETS = ["cleaneval_final", "dragnet"]
CV_SET = "wcxb_train"
COMMON = dict(
    num_leaves=15,
    min_data_in_leaf=10,
    feature_fraction=0.8,
    bagging_fraction=0.8,
    bagging_freq=1,
    lambda_l2=1.0,
    max_bin=63,
    **DETERMINISTIC,
)
# Smaller trees, more rounds: chosen by the host-grouped CV below among a few settings (15
# leaves × 100 rounds 0.821, 7 × 200 0.828, learning rate 0.05 × 200 0.822; see docs/research-log.md).
TYPE_PARAMS = dict(COMMON, objective="multiclass", learning_rate=0.1, num_leaves=7)
TYPE_ROUNDS = 200
CONF_PARAMS = dict(COMMON, objective="cross_entropy", learning_rate=0.05, min_data_in_leaf=20)
CONF_ROUNDS = 150


# The text model (src/page/model/words.rs): hashed word buckets, sublinear tf × smoothed idf,
# unit length, multinomial logistic regression. C = 4 was the first value tried; C = 1 gave a
# stacked CV accuracy of 0.869 against 0.882 (docs/research-log.md).
TEXT_BUCKETS = 8192
TEXT_C = 4.0


def word_counts(column):
    """The `word_buckets` column (`bucket:count` pairs) as a CSR matrix of counts."""
    rows, cols, vals = [], [], []
    for i, cell in enumerate(column):
        for pair in cell.split():
            b, c = pair.split(":")
            rows.append(i)
            cols.append(int(b))
            vals.append(float(c))
    return sparse.csr_matrix((vals, (rows, cols)), shape=(len(column), TEXT_BUCKETS))


def tfidf(counts, idf):
    """(1 + ln c) · idf per bucket, each row scaled to unit length."""
    x = counts.astype(np.float64).tocsr(copy=True)
    x.data = 1.0 + np.log(x.data)
    x = sparse.csr_matrix(x.multiply(idf[None, :]))
    norms = np.sqrt(np.asarray(x.multiply(x).sum(axis=1)).ravel())
    norms[norms == 0] = 1.0
    return sparse.csr_matrix(x.multiply(1.0 / norms[:, None]))


class TextModel:
    """The linear text model, trained on the rows of `counts` with labels `y`."""

    def __init__(self, counts, y, n_classes):
        n = counts.shape[0]
        df = np.asarray((counts > 0).sum(axis=0)).ravel()
        self.idf = np.log((1.0 + n) / (1.0 + df)) + 1.0
        self.lr = LogisticRegression(C=TEXT_C, max_iter=5000)
        self.lr.fit(tfidf(counts, self.idf), y)
        if list(self.lr.classes_) != list(range(n_classes)):
            raise SystemExit(f"text model: classes {self.lr.classes_}")

    def probs(self, counts):
        return self.lr.predict_proba(tfidf(counts, self.idf))

    def probs_exact(self, counts):
        """The probabilities computed as words.rs computes them, in the same order: bucket by
        bucket, one float at a time (the values the Rust evaluator reproduces)."""
        coef, icpt = self.lr.coef_, self.lr.intercept_
        out = np.zeros((counts.shape[0], coef.shape[0]))
        for i in range(counts.shape[0]):
            row = counts.getrow(i)
            order = np.argsort(row.indices, kind="stable")
            buckets = [int(b) for b in row.indices[order]]
            weighted = [(1.0 + math.log(float(c))) * float(self.idf[b]) for b, c in zip(buckets, row.data[order])]
            norm = 0.0
            for v in weighted:
                norm += v * v
            norm = math.sqrt(norm)
            z = []
            for k in range(coef.shape[0]):
                acc = float(icpt[k])
                if norm > 0.0:
                    for b, v in zip(buckets, weighted):
                        acc += v / norm * float(coef[k, b])
                z.append(acc)
            m = max(z)
            e = [math.exp(v - m) for v in z]
            t = 0.0
            for v in e:
                t += v
            out[i] = [v / t for v in e]
        return out

    def to_bytes(self):
        """words.bin: idf, intercepts, then each class's weights; f64 little-endian."""
        values = list(self.idf) + list(self.lr.intercept_) + list(self.lr.coef_.ravel())
        for v in values:
            if not math.isfinite(v):
                raise SystemExit("non-finite value in the text model")
        return struct.pack(f"<{len(values)}d", *values)


def text_columns(classes):
    return [f"text_{c}" for c in classes]


def fit_stacked_type(X, W, y, hosts, rows, classes):
    """The text model on `rows` and the type trees on the features plus the text model's
    out-of-fold probabilities (inner host-grouped 5-fold CV over `rows`)."""
    inner = np.zeros((len(rows), len(classes)))
    for itr, ite in host_folds(hosts[rows]):
        tm = TextModel(W[rows[itr]], y[rows[itr]], len(classes))
        inner[ite] = tm.probs(W[rows[ite]])
    tm = TextModel(W[rows], y[rows], len(classes))
    xs = stack(X.iloc[rows], inner, classes)
    return fit_type(xs, y[rows], len(classes)), tm


def stack(x, probs, classes):
    extra = pd.DataFrame(probs, columns=text_columns(classes), index=x.index)
    return pd.concat([x, extra], axis=1)


def fit_type(X, y, n_classes):
    ds = lgb.Dataset(X, label=y, free_raw_data=False)
    return lgb.train(dict(TYPE_PARAMS, num_class=n_classes), ds, num_boost_round=TYPE_ROUNDS)


def fit_conf(X, y):
    ds = lgb.Dataset(X, label=y, free_raw_data=False)
    return lgb.train(CONF_PARAMS, ds, num_boost_round=CONF_ROUNDS)


def write_model(path, feats, classes, type_model, conf_model):
    """src/page/model/page.model: the classes, the feature names, the type classifier (over the
    features and the text model's probabilities) and the confidence regressor, as a model file
    (`extract::learned::model_file`)."""
    tf = forest_of(type_model, "page_type", len(classes))
    cf = forest_of(conf_model, "confidence", 1)
    write_model_file(path, [
        strings_entry("classes", list(classes)),
        strings_entry("features", list(feats)),
        strings_entry("text_features", list(text_columns(classes))),
        forest_entry("page_type", tf, len(feats) + len(classes)),
        forest_entry("confidence", cf, len(feats)),
    ])
    return (len(tf["splits"]) + len(cf["splits"]), len(tf["leaves"]) + len(cf["leaves"]),
            len(tf["roots"]) + len(cf["roots"]))


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pages")
    ap.add_argument("--model", required=True, help="the page models (page.model)")
    ap.add_argument("--words", required=True, help="the text model's weights (words.bin)")
    ap.add_argument("--predictions", required=True)
    ap.add_argument("--report", required=True)
    ap.add_argument("--oof", help="also write each wcxb_train page's out-of-fold type here (TSV: "
                    "set, page, host, url, type, predicted, the text model's guess)")
    ap.add_argument("--cv-only", action="store_true",
                    help="stop after the CV: print its accuracy per type, write --oof, no models")
    a = ap.parse_args()
    t0 = time.time()
    df, feats = read_features(a.pages, META)
    X = df[feats]
    W = word_counts(df["word_buckets"].to_numpy())
    classes = sorted(df.loc[df["set"].isin(TYPE_SETS), "type"].unique())
    cls_index = {c: i for i, c in enumerate(classes)}
    is_news = df["set"].isin(ARTICLE_SETS).to_numpy()
    is_type = df["set"].isin(TYPE_SETS).to_numpy() | is_news
    y_type = np.where(is_news, cls_index["article"], df["type"].map(lambda t: cls_index.get(t, -1)).to_numpy())
    y_conf = df["f1"].to_numpy()
    hosts = df["host"].to_numpy()

    # Host-grouped 5-fold CV on wcxb_train.
    cv = np.flatnonzero((df["set"] == CV_SET).to_numpy())
    oof_type = np.full(len(df), -1)
    oof_text = np.full(len(df), -1)
    oof_probs = np.zeros((len(df), len(classes)))
    oof_conf = np.full(len(df), np.nan)
    fold_of = np.full(len(df), -1)
    for k, (_, test) in enumerate(host_folds(hosts[cv])):
        test = cv[test]
        held = set(hosts[test])
        free = ~np.isin(hosts, list(held))
        tr_type = np.flatnonzero(free & is_type)
        m, tm = fit_stacked_type(X, W, y_type, hosts, tr_type, classes)
        tp = tm.probs(W[test])
        oof_text[test] = tp.argmax(axis=1)
        p = m.predict(stack(X.iloc[test], tp, classes))
        oof_probs[test] = p
        oof_type[test] = p.argmax(axis=1)
        tr_conf = np.flatnonzero(free)
        c = fit_conf(X.iloc[tr_conf], y_conf[tr_conf])
        oof_conf[test] = c.predict(X.iloc[test])
        fold_of[test] = k
        print(f"fold {k + 1}: {len(test)} pages, type trained on {len(tr_type)}, confidence on {len(tr_conf)}", file=sys.stderr)

    if a.oof:
        with open(a.oof, "w") as f:
            f.write("set\tpage\thost\turl\ttype\tpredicted\ttext\n")
            for i in cv:
                f.write("\t".join([df["set"].iat[i], df["page"].iat[i], hosts[i], str(df["url"].iat[i]),
                                   classes[y_type[i]], classes[oof_type[i]], classes[oof_text[i]]]) + "\n")

    # Confidence, leave one set out.
    loso = {}
    for s in ([] if a.cv_only else sorted(df["set"].unique())):
        test = np.flatnonzero((df["set"] == s).to_numpy())
        held = set(hosts[test])
        train = np.flatnonzero((df["set"] != s).to_numpy() & ~np.isin(hosts, list(held)))
        c = fit_conf(X.iloc[train], y_conf[train])
        pred = c.predict(X.iloc[test])
        loso[s] = (len(test), len(train), spearmanr(pred, y_conf[test]).statistic, float(np.mean(np.abs(pred - y_conf[test]))), float(np.mean(pred)), float(np.mean(y_conf[test])))

    # Page type, leave one set out: the share of each article set's pages called `article` by
    # a model trained without that set (and its hosts).
    def held_out_types(s):
        """Set `s`'s rows, the typed rows trained on (no page of `s` or of its hosts) and the
        types a model trained on them gives `s`'s pages."""
        test = np.flatnonzero((df["set"] == s).to_numpy())
        held = set(hosts[test])
        train = np.flatnonzero(is_type & (df["set"] != s).to_numpy() & ~np.isin(hosts, list(held)))
        m, tm = fit_stacked_type(X, W, y_type, hosts, train, classes)
        return test, train, m.predict(stack(X.iloc[test], tm.probs(W[test]), classes)).argmax(axis=1)

    type_loso = {}
    for s in ARTICLE_SETS + REPORTED_SETS:
        test, train, p = held_out_types(s)
        type_loso[s] = (len(test), len(train), np.bincount(p, minlength=len(classes)))

    if a.cv_only:
        def print_accuracy(what, truth, pred):
            print(f"{what} {np.mean(truth == pred):.3f} of {len(truth)}")
            for k, c in enumerate(classes):
                sel = truth == k
                print(f"  {c}: {np.mean(pred[sel] == k):.3f} of {int(sel.sum())}")

        print_accuracy("page type CV accuracy", y_type[cv], oof_type[cv])
        for s, (n, _, counts) in type_loso.items():
            print(f"held out {s}: {counts[cls_index['article']]} of {n} typed article")
        # wcxb_dev held out: a second sample of typed pages, none of whose hosts is trained on.
        test, _, p = held_out_types("wcxb_dev")
        print_accuracy("held out wcxb_dev: accuracy", y_type[test], p)
        return

    # Final models on all their pages.
    all_type = np.flatnonzero(is_type)
    type_model, text_model = fit_stacked_type(X, W, y_type, hosts, all_type, classes)
    conf_model = fit_conf(X, y_conf)
    n_splits, n_leaves, n_trees = write_model(a.model, feats, classes, type_model, conf_model)
    with open(a.words, "wb") as f:
        f.write(text_model.to_bytes())
    probs = type_model.predict(stack(X, text_model.probs_exact(W), classes))
    conf = conf_model.predict(X)
    with open(a.predictions, "w") as f:
        f.write("\t".join(["set", "page", "url"] + classes + ["confidence"]) + "\n")
        for i in range(len(df)):
            row = [df["set"].iat[i], df["page"].iat[i], df["url"].iat[i]]
            row += [f"{v:.9f}" for v in probs[i]] + [f"{conf[i]:.9f}"]
            f.write("\t".join(row) + "\n")

    # The report.
    t = cv
    truth, pred = y_type[t], oof_type[t]
    acc = float(np.mean(truth == pred))
    text_acc = float(np.mean(truth == oof_text[t]))
    text_bytes = len(text_model.to_bytes())
    fold_acc = [float(np.mean(truth[fold_of[t] == k] == pred[fold_of[t] == k])) for k in range(5)]
    majority = float(np.mean(truth == np.bincount(truth).argmax()))
    conf_m = np.zeros((len(classes), len(classes)), dtype=int)
    for a_, b_ in zip(truth, pred):
        conf_m[a_, b_] += 1
    rows = []
    for i, c in enumerate(classes):
        n = conf_m[i].sum()
        prec = conf_m[i, i] / max(conf_m[:, i].sum(), 1)
        rows.append([c, n] + list(conf_m[i]) + [f"{conf_m[i, i] / max(n, 1):.3f}", f"{prec:.3f}"])
    true_f1, pc = y_conf[t], oof_conf[t]
    rho = spearmanr(pc, true_f1).statistic
    r = pearsonr(pc, true_f1).statistic
    mae = float(np.mean(np.abs(pc - true_f1)))
    order = np.argsort(pc, kind="stable")
    deciles = np.array_split(order, 10)
    cal = []
    for i, d in enumerate(deciles):
        cal.append([i + 1, len(d), f"{pc[d].min():.3f} – {pc[d].max():.3f}", f"{pc[d].mean():.3f}", f"{true_f1[d].mean():.3f}", int(np.sum(true_f1[d] < 0.5))])
    out = [
        "# The page models: page type and confidence",
        "",
        "Generated by `lab/train/page_model.py` (`just train`) from `pith-lab pages` over the six text",
        "sets of `../shared/data`; do not edit. Every figure below is host-grouped 5-fold CV on",
        f"wcxb_train ({len(t)} pages, GroupKFold by host; each fold's models trained on every other",
        "page of their sets whose host is not in the fold), except the leave-one-set-out table.",
        "",
        f"Features: {len(feats)}, and for the page type the text model's {len(classes)} probabilities",
        f"({TEXT_BUCKETS} hashed word buckets, logistic regression with C = {TEXT_C:g}; the trees are",
        "trained on its out-of-fold probabilities, an inner host-grouped 5-fold CV). Models: page type",
        f"{TYPE_ROUNDS} rounds × {len(classes)} classes, confidence {CONF_ROUNDS} trees; {n_trees} trees,",
        f"{n_splits} splits and {n_leaves} leaves in all; the text model {text_bytes:,} bytes.",
        "",
        "## Page type",
        "",
        f"Accuracy **{acc:.3f}** ({int(np.sum(truth == pred))} of {len(t)}); by fold "
        + ", ".join(f"{x:.3f}" for x in fold_acc)
        + f". Always answering the commonest type would score {majority:.3f}; the text model alone"
        + f" {text_acc:.3f}.",
        "",
        "Confusion (rows: WCXB's type, columns: predicted), with each type's recall and precision:",
        "",
    ]
    out += table(["type", "pages"] + classes + ["recall", "precision"], rows)
    out += [
        "",
        "## Confidence",
        "",
        f"Spearman's ρ between the predicted confidence and the true F1 of `auto`'s output: **{rho:.3f}**",
        f"(Pearson {r:.3f}, mean absolute error {mae:.3f}; mean predicted {np.mean(pc):.3f}, mean true {np.mean(true_f1):.3f}).",
        "",
        "Calibration: pages in deciles of predicted confidence, the true mean F1 in each.",
        "",
    ]
    out += table(["decile", "pages", "predicted range", "mean predicted", "mean true F1", "true F1 < 0.5"], cal)
    out += [
        "",
        "Leave one set out: each set's pages as typed by a model trained without that set and its",
        f"hosts. {' and '.join(ARTICLE_SETS)} are news articles (labelled `article` when trained on);",
        f"{' and '.join(REPORTED_SETS)} (mixed pages; articles with comments) are never labelled.",
        "",
    ]
    out += table(
        ["held out", "pages", "type trained on"] + classes,
        [[s, n, ntr] + [int(c) for c in counts] for s, (n, ntr, counts) in type_loso.items()],
    )
    out += [
        "",
        "## Confidence, leave one set out",
        "",
        "Trained on the other five sets, without the held-out set's hosts:",
        "",
    ]
    out += table(
        ["held out", "pages", "trained on", "Spearman", "mean abs. error", "mean predicted", "mean true F1"],
        [[s, n, ntr, f"{rh:.3f}", f"{e:.3f}", f"{mp:.3f}", f"{mt:.3f}"] for s, (n, ntr, rh, e, mp, mt) in loso.items()],
    )
    with open(a.report, "w") as f:
        f.write("\n".join(out) + "\n")
    print("\n".join(out))
    print(f"page_model.py: {time.time() - t0:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
