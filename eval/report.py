#!/usr/bin/env python3
"""Writes eval/RESULTS.md: `pith eval --json` on every gold set in ../shared/data, pith's
algorithms beside the peers' figures from ../shared/peers/<set>.json, best value in bold; for
a set whose MANIFEST.json gives page types (WCXB), also the mean F1 per page type and the
pages under 0.5, pith's from `pith eval --per-page`, the peers' from
../shared/peers/<set>/per_page.tsv.

Usage: python3 eval/report.py [PITH_BINARY]   (run by `just eval`; skips without ../shared)
"""
import csv, json, os, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared"))
RUNS = [  # pith eval arguments, one run each
    ["--algo", "auto", "--algo", "danag", "--algo", "danag-lines"],
    ["--algo", "auto", "--precision"],
    ["--algo", "auto", "--recall"],
    ["--algo", "auto", "--comments"],
]


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "pith")
    data = os.path.join(SHARED, "data")
    if not os.path.isdir(data):
        print("skipping eval: ../shared/data not found")
        return
    sets = sorted(d for d in os.listdir(data)
                  if os.path.isdir(os.path.join(data, d, "html")) and os.path.isdir(os.path.join(data, d, "gold")))
    out = ["# Accuracy on the gold sets", "",
           "Written by `just eval` (`pith eval --json` per set, `eval/report.py`). Text gold: mean",
           "per-page bag-of-words F1 / P / R and LCS F1 (rules in `eval/METRICS.md`); snippet gold:",
           "set-level snippet F1 / P / R. Peers: `../shared/peers/<set>.json`. Best F1 in bold.", ""]
    started = time.perf_counter()
    for name in sets:
        path = os.path.join(data, name)
        rows = {}
        pages = 0
        per_page = {}  # system -> {page id: bow F1}
        for args in RUNS:
            with tempfile.TemporaryDirectory() as tmp:
                csv_path = os.path.join(tmp, "per_page.csv")
                r = subprocess.run([binary, "eval", "--json", "--per-page", csv_path, *args, path],
                                   capture_output=True, text=True)
                if r.returncode == 0 and os.path.exists(csv_path):
                    with open(csv_path, newline="", encoding="utf-8") as f:
                        for row in csv.DictReader(f):
                            if row["bow_f1"]:
                                per_page.setdefault("pith " + row["system"], {})[row["id"]] = float(row["bow_f1"])
            if r.returncode != 0:
                print(f"{name}: pith eval failed: {r.stderr.strip()}", file=sys.stderr)
                continue
            v = json.loads(r.stdout)
            pages = v["pages"]
            for sys_name, res in v["results"].items():
                rows["pith " + sys_name] = res
        peers_path = os.path.join(SHARED, "peers", name + ".json")
        if os.path.exists(peers_path):
            for tool, res in json.load(open(peers_path))["tools"].items():
                rows[tool] = res
        snippet = all("bow" not in r for r in rows.values())
        def f1(r):
            if snippet:
                return r["snippet"]["f1"]
            return r["bow"]["f1"]["mean"] if "bow" in r else -1
        best = max(f1(r) for r in rows.values())
        out += [f"## {name} ({pages} pages)", ""]
        if snippet:
            out += ["| system | snippet F1 | P | R | accuracy | empty | pages/s |", "|---|---|---|---|---|---|---|"]
        else:
            out += ["| system | bow F1 | P | R | lcs F1 | empty | pages/s |", "|---|---|---|---|---|---|---|"]
        for sys_name, r in sorted(rows.items(), key=lambda kv: -f1(kv[1])):
            b = f"**{f1(r):.3f}**" if f1(r) == best else f"{f1(r):.3f}"
            pps = r.get("pages_per_s")
            pps = f"{pps:.1f}" if pps else "-"
            if snippet:
                s = r["snippet"]
                out.append(f"| {sys_name} | {b} | {s['precision']:.3f} | {s['recall']:.3f} | {s['accuracy']:.3f} | {r.get('empty', 0)} | {pps} |")
            elif "bow" in r:
                out.append(f"| {sys_name} | {b} | {r['bow']['precision']['mean']:.3f} | {r['bow']['recall']['mean']:.3f} | {r['lcs']['f1']['mean']:.3f} | {r.get('empty', 0)} | {pps} |")
        out.append("")
        out += by_type(path, name, per_page)
        mine = {k: f1(v) for k, v in rows.items() if k.startswith("pith ")}
        peer = max((f1(v), k) for k, v in rows.items() if not k.startswith("pith "))
        print(f"{name}: " + " ".join(f"{k[5:]}={v:.3f}" for k, v in mine.items()) + f" | best peer {peer[1]}={peer[0]:.3f}", flush=True)
    out += ["pith's pages/s: in-process extraction calls on all cores' worth of threads, summed per-page",
            "time (comparable to the peers' per-call timing, which was single-threaded Python).", ""]
    with open(os.path.join(ROOT, "eval", "RESULTS.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(out))
    print(f"wrote eval/RESULTS.md in {time.perf_counter() - started:.1f} s")


def by_type(path, name, per_page):
    """The per-type table of a set whose manifest gives page types (else nothing): pith's
    auto modes from `per_page`, the peers from ../shared/peers/<set>/per_page.tsv."""
    try:
        types = json.load(open(os.path.join(path, "MANIFEST.json"))).get("types") or {}
    except (OSError, ValueError):
        return []
    if not types:
        return []
    systems = {k: v for k, v in per_page.items() if k.startswith("pith auto")}
    peers_tsv = os.path.join(SHARED, "peers", name, "per_page.tsv")
    if os.path.exists(peers_tsv):
        with open(peers_tsv, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                systems.setdefault(row["tool"], {})[row["id"]] = float(row["bow_f1"])
    kinds = sorted(set(types.values()), key=lambda t: -sum(1 for v in types.values() if v == t))
    count = {t: sum(1 for v in types.values() if v == t) for t in kinds}
    def mean(scores, t):
        vals = [scores.get(i, 0.0) for i, ty in types.items() if ty == t]
        return sum(vals) / len(vals)
    best = {t: max(mean(s, t) for s in systems.values()) for t in kinds}
    out = [f"Per page type (mean bow F1; a page a system has no score for counts 0), and pages under 0.5:", "",
           "| system | " + " | ".join(f"{t} ({count[t]})" for t in kinds) + " | under 0.5 |",
           "|---|" + "---|" * (len(kinds) + 1)]
    order = sorted(systems.items(), key=lambda kv: -sum(kv[1].get(i, 0.0) for i in types))
    for sys_name, scores in order:
        cells = []
        for t in kinds:
            m = mean(scores, t)
            cells.append(f"**{m:.3f}**" if m == best[t] else f"{m:.3f}")
        under = sum(1 for i in types if scores.get(i, 0.0) < 0.5)
        out.append(f"| {sys_name} | " + " | ".join(cells) + f" | {under} |")
    return out + [""]


if __name__ == "__main__":
    main()
