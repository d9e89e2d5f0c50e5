#!/usr/bin/env python3
"""Bag-of-words (and snippet) accuracy of pith's algorithms on every gold set in ../shared/data,
beside the peers' figures in ../shared/peers, written as Markdown to eval/RESULTS.md.

The scoring follows ../shared/peers/README.md ("Scorer rules") exactly: gold clean-up for
CleanEval and Dragnet, lower-cased `\\w+` tokens, per-page multiset overlap, P averaged over
pages with output, R over pages with gold, F1 over all pages; snippet counts for
trafilatura_eval. pith runs in one process per set per algorithm (many files at once), so the
speed column is end to end, process start included.

Usage: python3 eval/quick_eval.py [PITH_BINARY] [--out eval/RESULTS.md]
A stop-gap until `pith eval`; it needs nothing but Python 3.
"""
import collections, json, os, re, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(ROOT, "..", "shared")
# (row name, pith arguments)
VARIANTS = [
    ("auto", ["--algo", "auto"]),
    ("auto --precision", ["--algo", "auto", "--precision"]),
    ("auto --recall", ["--algo", "auto", "--recall"]),
    ("auto --comments", ["--algo", "auto", "--comments"]),
    ("danag", ["--algo", "danag"]),
    ("danag-lines", ["--algo", "danag-lines"]),
]
SETS = ["scrapinghub", "cleaneval_final", "dragnet", "l3s_gn1", "wcxb_dev", "trafilatura_eval"]


def tokens(text):
    return re.findall(r"\w+", text.lower())


def clean_gold(name, g):
    if name == "cleaneval_final":
        g = re.sub(r"\A\s*URL:[^\n]*\n?", "", g)
        g = re.sub(r"<[phlPHL]>", "\n", g)
    if name == "dragnet":
        g = re.sub(r"^[ \t]*!@#\$%\^&\*\(\)\s*COMMENTS[ \t]*\r?$", "\n", g, flags=re.M)
    return g


def bow(pred, gold):
    p, g = tokens(pred), tokens(gold)
    cp, cg = collections.Counter(p), collections.Counter(g)
    c = sum(min(v, cg[k]) for k, v in cp.items())
    P = c / len(p) if p else None
    R = c / len(g) if g else None
    if not p and not g:
        F = 1.0
    elif not p or not g:
        F = 0.0
    else:
        F = 2 * P * R / (P + R) if P + R else 0.0
    return P, R, F


def run_pith(binary, args, paths):
    """Extracts every page, one process per page (keeps the mapping to ids exact)."""
    t = time.perf_counter()
    outs = []
    for path in paths:
        r = subprocess.run([binary, *args, path], capture_output=True)
        outs.append(r.stdout.decode("utf-8", "replace"))
    return outs, time.perf_counter() - t


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else os.path.join(ROOT, "target", "release", "pith")
    out_path = os.path.join(ROOT, "eval", "RESULTS.md")
    if "--out" in sys.argv:
        out_path = sys.argv[sys.argv.index("--out") + 1]
    if not os.path.isdir(os.path.join(SHARED, "data")):
        print("skipping eval: ../shared/data not found")
        return
    lines = ["# Accuracy on the gold sets", "",
             "Produced by `just eval` (`eval/quick_eval.py`). Mean bag-of-words F1 (P, R means as in",
             "`../shared/peers/README.md`); snippet F1 for trafilatura_eval. Peers: `../shared/peers/<set>.json`.",
             "Best F1 per set in bold.", ""]
    for name in SETS:
        d = os.path.join(SHARED, "data", name)
        if not os.path.isdir(d):
            continue
        ids = sorted(f[:-5] for f in os.listdir(os.path.join(d, "html")) if f.endswith(".html"))
        paths = [os.path.join(d, "html", i + ".html") for i in ids]
        snippet = name == "trafilatura_eval"
        rows = {}
        for algo, args in VARIANTS:
            outs, secs = run_pith(binary, args, paths)
            if snippet:
                tp = fp = fn = tn = 0
                for i, out in zip(ids, outs):
                    g = json.load(open(os.path.join(d, "gold", i + ".json"), encoding="utf-8"))
                    norm = re.sub(r"\s+", " ", out).strip()
                    for s in g.get("with", []):
                        if re.sub(r"\s+", " ", s).strip() in norm:
                            tp += 1
                        else:
                            fn += 1
                    for s in g.get("without", []):
                        if re.sub(r"\s+", " ", s).strip() in norm:
                            fp += 1
                        else:
                            tn += 1
                P = tp / (tp + fp) if tp + fp else 0.0
                R = tp / (tp + fn) if tp + fn else 0.0
                F = 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 0.0
                rows["pith " + algo] = (F, P, R, sum(1 for o in outs if not o.strip()), len(ids) / secs)
            else:
                ps, rs, fs = [], [], []
                for i, out in zip(ids, outs):
                    gp = os.path.join(d, "gold", i + ".txt")
                    gold = clean_gold(name, open(gp, encoding="utf-8", errors="replace").read())
                    P, R, F = bow(out, gold)
                    fs.append(F)
                    if P is not None:
                        ps.append(P)
                    if R is not None:
                        rs.append(R)
                rows["pith " + algo] = (statistics.mean(fs), statistics.mean(ps), statistics.mean(rs),
                                        sum(1 for o in outs if not o.strip()), len(ids) / secs)
        peers = json.load(open(os.path.join(SHARED, "peers", name + ".json")))["tools"]
        for tool, v in peers.items():
            if snippet:
                s = v["snippet"]
                rows[tool] = (s["f1"], s["precision"], s["recall"], v.get("empty", 0), v.get("pages_per_s", 0))
            else:
                b = v["bow"]
                rows[tool] = (b["f1"]["mean"], b["precision"]["mean"], b["recall"]["mean"], v.get("empty", 0), v.get("pages_per_s", 0))
        best = max(r[0] for r in rows.values())
        metric = "snippet F1" if snippet else "bow F1"
        lines += [f"## {name} ({len(ids)} pages)", "", f"| tool | {metric} | P | R | empty | pages/s |", "|---|---|---|---|---|---|"]
        for tool, (F, P, R, empty, pps) in sorted(rows.items(), key=lambda kv: -kv[1][0]):
            f = f"**{F:.3f}**" if F == best else f"{F:.3f}"
            lines.append(f"| {tool} | {f} | {P:.3f} | {R:.3f} | {empty} | {pps:.1f} |")
        lines.append("")
        best_peer = max((v for k, v in rows.items() if not k.startswith("pith")), key=lambda r: r[0])
        mine = " ".join(f"{v}={rows['pith ' + v][0]:.3f}" for v, _ in VARIANTS)
        print(f"{name}: {mine} best-peer={best_peer[0]:.3f}", flush=True)
    lines += ["pith's pages/s here include starting one process per page; see `just bench` for throughput.", ""]
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    print("wrote", out_path)


if __name__ == "__main__":
    main()
