"""What each of `auto`'s rules is worth on pages no rule was written for.

Reads the table of `pith-lab rules` (one row per gold page: its score with every rule on, and
with each rule switched off in turn) and prints Markdown:

1. per rule, its effect on each set: the mean over the set's pages of F1 with the rule minus
   F1 without it (positive: the rule helps), with a 95% interval from 2,000 bootstrap draws of
   the set's hosts (a host's pages are drawn together), and on wcxb_train the effect in each of
   the five host-grouped folds the trainers use (`common.host_folds`). A set scored by
   snippets (trafilatura_eval: `tp:fn:fp:tn` per page) is scored as `pith eval` scores it, by
   the F1 of its counts summed over its pages, and its interval draws hosts the same way;
2. per rule, its effect on wcxb_train per page type;
3. the verdict of the stated test (docs/rules.md): wcxb_train is the judge, the one set no rule
   was written for, and a rule is

   - `helps` when its interval there lies above zero;
   - `hurts` when it lies below zero and no other set's interval lies above zero (drop it);
   - `conflict` when it lies below zero there and above zero on another set: the sets' gold
     disagree on what the rule removes, and no one setting serves both;
   - `unproven` otherwise (no clear effect on wcxb_train): it costs nothing on unseen pages
     and stays. Flagged `unproven, hurts elsewhere` when another set's interval lies below
     zero and none above, `unproven, mixed elsewhere` when the other sets disagree: those sets
     are the ones the rules were written on, so their evidence alone removes no rule.

   Only `hurts` removes a rule. Each interval draws from its own generator, seeded by the
   rule's and the set's place in the table, so a verdict does not move when a set is added.

Usage: python3 lab/train/rules.py target/rules/rules.tsv [--out FILE]
"""

import argparse
import sys

import numpy as np

from common import host_folds, read_table

JUDGE = "wcxb_train"
META = ["set", "page", "host", "type", "auto"]
DRAWS = 2000
SEED = 22


def interval(hosts, diffs, rng):
    """Mean of `diffs` and its 95% host-bootstrap interval."""
    uniq, inv = np.unique(hosts, return_inverse=True)
    sums = np.bincount(inv, weights=diffs, minlength=len(uniq))
    counts = np.bincount(inv, minlength=len(uniq)).astype(float)
    means = []
    for _ in range(DRAWS):
        pick = rng.integers(0, len(uniq), len(uniq))
        means.append(sums[pick].sum() / counts[pick].sum())
    lo, hi = np.percentile(means, [2.5, 97.5])
    return diffs.mean(), lo, hi


def counts(column):
    """A snippet set's `tp:fn:fp:tn` cells as an array of four counts per page."""
    return np.array([[int(x) for x in v.split(":")] for v in column], dtype=float)


def snippet_f1(c):
    """`pith eval`'s snippet F1 of counts summed over pages (columns tp, fn, fp, tn)."""
    tp, fn, fp = c[..., 0], c[..., 1], c[..., 2]
    p = np.divide(tp, tp + fp, out=np.zeros_like(tp), where=(tp + fp) > 0)
    r = np.divide(tp, tp + fn, out=np.zeros_like(tp), where=(tp + fn) > 0)
    return np.divide(2 * p * r, p + r, out=np.zeros_like(tp), where=(p + r) > 0)


def snippet_interval(hosts, on, off, rng):
    """F1 with minus F1 without the rule on a snippet set, and its 95% host-bootstrap
    interval (a draw sums the counts of the hosts drawn)."""
    uniq, inv = np.unique(hosts, return_inverse=True)
    by_host_on = np.zeros((len(uniq), 4))
    by_host_off = np.zeros((len(uniq), 4))
    np.add.at(by_host_on, inv, on)
    np.add.at(by_host_off, inv, off)
    picks = rng.integers(0, len(uniq), (DRAWS, len(uniq)))
    diffs = snippet_f1(by_host_on[picks].sum(axis=1)) - snippet_f1(by_host_off[picks].sum(axis=1))
    lo, hi = np.percentile(diffs, [2.5, 97.5])
    return snippet_f1(on.sum(axis=0)) - snippet_f1(off.sum(axis=0)), lo, hi


def is_snippets(part):
    """Whether a set's cells are snippet counts."""
    return ":" in str(part["auto"].iloc[0])


def score(part):
    """A set's score with every rule on: mean F1, or the snippet F1 of its summed counts."""
    if is_snippets(part):
        return float(snippet_f1(counts(part["auto"]).sum(axis=0)))
    return part["auto"].astype(float).mean()


def verdict(judge, others):
    """The test of the module doc: `judge` is wcxb_train's (mean, lo, hi), `others` the
    other sets'."""
    _, lo, hi = judge
    helps_elsewhere = any(o[1] > 0 for o in others)
    if lo > 0:
        return "helps"
    if hi < 0:
        return "conflict" if helps_elsewhere else "hurts"
    if any(o[2] < 0 for o in others):
        return "unproven, mixed elsewhere" if helps_elsewhere else "unproven, hurts elsewhere"
    return "unproven"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("table", help="the TSV of `pith-lab rules`")
    ap.add_argument("--out", help="write the Markdown here instead of standard output")
    a = ap.parse_args()
    df = read_table(a.table, str)
    rules = [c for c in df.columns if c not in META]
    sets = list(dict.fromkeys(df["set"]))
    if JUDGE not in sets:
        sys.exit(f"rules.py: the table has no {JUDGE} pages, the set that judges")
    judge = df[df["set"] == JUDGE].reset_index(drop=True)
    for c in ["auto"] + rules:
        judge[c] = judge[c].astype(float)
    folds = list(host_folds(judge["host"].to_numpy()))
    types = [t for t in dict.fromkeys(judge["type"])]
    out = []
    w = out.append
    w("## What each rule is worth, set by set\n")
    w(
        "Mean F1 with the rule minus F1 with it switched off, per set (positive: the rule "
        "helps), and on wcxb_train its 95% host-bootstrap interval and the effect in each "
        "host-grouped fold; a set scored by snippets, by the F1 of its summed counts. `auto` "
        "with every rule on scores "
        + ", ".join(f"{s} {score(df[df['set'] == s]):.4f}" for s in sets)
        + ".\n"
    )
    w(
        "| rule | "
        + " | ".join(sets)
        + f" | {JUDGE} interval | {JUDGE} folds | pages changed | verdict |"
    )
    w("|---|" + "---|" * len(sets) + "---|---|---|---|")
    verdicts = {}
    for ri, r in enumerate(rules):
        stats = {}
        for s in sets:
            rng = np.random.default_rng([SEED, ri, sorted(sets).index(s)])
            part = df[df["set"] == s]
            hosts = part["host"].to_numpy()
            if is_snippets(part):
                stats[s] = snippet_interval(hosts, counts(part["auto"]), counts(part[r]), rng)
            else:
                diffs = (part["auto"].astype(float) - part[r].astype(float)).to_numpy()
                stats[s] = interval(hosts, diffs, rng)
        jd = (judge["auto"] - judge[r]).to_numpy()
        by_fold = [jd[test].mean() for _, test in folds]
        changed = int((np.abs(jd) > 1e-9).sum())
        v = verdict(stats[JUDGE], [stats[s] for s in sets if s != JUDGE])
        verdicts[r] = v
        cells = [f"{stats[s][0]:+.4f}" for s in sets]
        m, lo, hi = stats[JUDGE]
        w(
            f"| {r} | "
            + " | ".join(cells)
            + f" | {lo:+.4f} … {hi:+.4f} | "
            + " ".join(f"{x:+.3f}" for x in by_fold)
            + f" | {changed} | {v} |"
        )
    w("")
    w(f"## On {JUDGE}, per page type\n")
    n_type = judge["type"].value_counts()
    w("| rule | " + " | ".join(f"{t} ({n_type[t]})" for t in types) + " |")
    w("|---|" + "---|" * len(types))
    for r in rules:
        cells = []
        for t in types:
            part = judge[judge["type"] == t]
            cells.append(f"{(part['auto'] - part[r]).mean():+.4f}")
        w(f"| {r} | " + " | ".join(cells) + " |")
    w("")
    tally = {}
    for v in verdicts.values():
        tally[v] = tally.get(v, 0) + 1
    w("Verdicts: " + ", ".join(f"{k} {n}" for k, n in sorted(tally.items())) + ".")
    text = "\n".join(out) + "\n"
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
