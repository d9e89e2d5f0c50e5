#!/usr/bin/env python3
"""Writes eval/RESULTS.md: `pith eval --json` on every gold set in ../shared/data, pith's
algorithms beside the peers' figures from ../shared/peers/<set>.json, best value in bold.

Usage: python3 eval/report.py [PITH_BINARY]   (run by `just eval`; skips without ../shared)
"""
import json, os, subprocess, sys, time

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
        for args in RUNS:
            r = subprocess.run([binary, "eval", "--json", *args, path], capture_output=True, text=True)
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
        mine = {k: f1(v) for k, v in rows.items() if k.startswith("pith ")}
        peer = max((f1(v), k) for k, v in rows.items() if not k.startswith("pith "))
        print(f"{name}: " + " ".join(f"{k[5:]}={v:.3f}" for k, v in mine.items()) + f" | best peer {peer[1]}={peer[0]:.3f}", flush=True)
    out += ["pith's pages/s: in-process extraction calls on all cores' worth of threads, summed per-page",
            "time (comparable to the peers' per-call timing, which was single-threaded Python).", ""]
    with open(os.path.join(ROOT, "eval", "RESULTS.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(out))
    print(f"wrote eval/RESULTS.md in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
