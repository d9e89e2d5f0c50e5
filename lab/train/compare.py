#!/usr/bin/env python3
"""Paired comparison of the model and `auto` from train.py's per_page.tsv: mean F1 difference
with a 95% bootstrap interval over hosts (pages of one host resampled together, 2,000 draws,
seeded), and how many pages each wins or loses by more than 0.1 F1.

Usage: compare.py target/train/per_page.tsv
"""

import collections
import sys

import numpy as np


def main():
    rows = collections.defaultdict(list)
    with open(sys.argv[1]) as f:
        head = f.readline().rstrip("\n").split("\t")
        for line in f:
            r = dict(zip(head, line.rstrip("\n").split("\t")))
            rows[r["protocol"]].append(r)
    rng = np.random.default_rng(22)
    print("| protocol | part | pages | model − auto | 95% interval (hosts resampled) | model better by > 0.1 | worse by > 0.1 |")
    print("|---|---|---|---|---|---|---|")
    for protocol, rs in rows.items():
        parts = ["all"] + sorted({r["set"] for r in rs} if protocol == "loso" else set())
        for part in parts:
            sel = [r for r in rs if part == "all" or r["set"] == part]
            by_host = collections.defaultdict(list)
            for r in sel:
                by_host[r["host"]].append(float(r["model_f1"]) - float(r["auto_f1"]))
            hosts = list(by_host.values())
            sums = np.array([sum(h) for h in hosts])
            counts = np.array([len(h) for h in hosts])
            draws = rng.integers(0, len(hosts), size=(2000, len(hosts)))
            means = sums[draws].sum(axis=1) / counts[draws].sum(axis=1)
            lo, hi = np.percentile(means, [2.5, 97.5])
            d = [float(r["model_f1"]) - float(r["auto_f1"]) for r in sel]
            print(f"| {protocol} | {part} | {len(sel)} | {np.mean(d):+.3f} | {lo:+.3f} … {hi:+.3f} | "
                  f"{sum(x > 0.1 for x in d)} | {sum(x < -0.1 for x in d)} |")


if __name__ == "__main__":
    main()
