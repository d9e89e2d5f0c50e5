"""Pages per second from one Python process: pith.extract, trafilatura and Resiliparse on one
core over the same pages, pith.extract_many at 1 and 2 threads, and the per-call overhead of the
module against the CLI's per-page time. `just bench-python` runs it; it prints a Markdown table.

    python python/bench/bench.py [--pith-bin target/release/pith] [--passes 3]

Pages: every HTML page of the gold sets in ../shared/data. Peers are called as
../shared/peers/README.md says they were (trafilatura on bytes with include_comments=False,
Resiliparse's extract_plain_text(main_content=True) on a str decoded outside the timer); pith
gets the bytes (its charset detection is inside the timer). A tool that is not installed is
reported as such. Timings are sums of perf_counter around each call; compare ratios within one
run, since the machine is shared.
"""

import argparse
from importlib.metadata import version as dist_version
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import time

import pith

from declared import declared_str

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "data"
SETS = ["cleaneval_final", "dragnet", "l3s_gn1", "scrapinghub", "trafilatura_eval", "wcxb_dev"]


def timed(fn, inputs):
    """CPU seconds this process spent in fn over all inputs (an exception counts as a call, as
    in the peers' runner). CPU time, not wall time: on a machine shared with other jobs the wall
    clock also counts the time the core was lent to them."""
    total = 0.0
    for x in inputs:
        t = time.process_time()
        try:
            fn(x)
        except Exception:
            pass
        total += time.process_time() - t
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pith-bin", default=str(ROOT / "target" / "release" / "pith"))
    ap.add_argument("--passes", type=int, default=3, help="passes of pith (median)")
    args = ap.parse_args()

    files = [p for s in SETS if (SHARED / s / "html").is_dir() for p in sorted((SHARED / s / "html").iterdir())]
    if not files:
        print(f"bench-python: no gold sets under {SHARED}; nothing to measure")
        return 0
    pages = [p.read_bytes() for p in files]
    n, mb = len(pages), sum(map(len, pages)) / 1e6
    print(f"{n} pages, {mb:.1f} MB, Python {sys.version.split()[0]}, pith {pith.__version__}, "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores\n")

    cores = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cores[-1]})  # one core for the single-threaded rows (and the CLI)
    rows = []
    runs = [timed(pith.extract, pages) for _ in range(args.passes)]
    pith_s = statistics.median(runs)
    rows.append(("pith.extract (bytes)", pith.__version__, pith_s))

    cli_s = None
    if pathlib.Path(args.pith_bin).exists():
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([args.pith_bin, "-j", "1", *map(str, files)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cli_s = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        rows.append(("pith CLI, -j 1 (whole process: files read, output written)", "", cli_s))
    else:
        print(f"(no CLI at {args.pith_bin}: `cargo build --release` for the overhead row)")

    try:
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.html import HTMLTree

        strs = [declared_str(p) for p in pages]
        rs = timed(lambda s: extract_plain_text(HTMLTree.parse(s), main_content=True), strs)
        rows.append(("Resiliparse extract_plain_text", dist_version("resiliparse"), rs))
    except ImportError as e:
        print(f"(Resiliparse not installed: {e})")
    try:
        import trafilatura

        tr = timed(lambda b: trafilatura.extract(b, include_comments=False), pages)
        rows.append(("trafilatura.extract", trafilatura.__version__, tr))
    except ImportError as e:
        print(f"(trafilatura not installed: {e})")

    os.sched_setaffinity(0, set(cores))
    # Wall time here: what threads buy is elapsed time.
    many, many_cpu = {}, {}
    for threads in (1, 2):
        t, c = time.perf_counter(), time.process_time()
        pith.extract_many(pages, threads=threads, errors="none")
        many[threads] = time.perf_counter() - t
        many_cpu[threads] = time.process_time() - c

    print("Single-core rows: pages per CPU second of one core; extract_many: pages per wall second.\n")
    print("| call | version | pages/s | × trafilatura | × Resiliparse |")
    print("|---|---|---|---|---|")
    by = {name: s for name, _, s in rows}
    tr_s = by.get("trafilatura.extract")
    rs_s = by.get("Resiliparse extract_plain_text")
    for name, version, s in rows:
        x_tr = f"{tr_s / s:.1f}" if tr_s else "-"
        x_rs = f"{rs_s / s:.1f}" if rs_s else "-"
        print(f"| {name} | {version} | {n / s:.0f} | {x_tr} | {x_rs} |")
    print()
    print(f"pith.extract passes (s): {', '.join(f'{r:.2f}' for r in runs)}")
    if cli_s:
        over = (pith_s - cli_s) / cli_s * 100
        print(f"CPU per page: module {pith_s / n * 1e3:.3f} ms, CLI {cli_s / n * 1e3:.3f} ms; the module "
              f"call costs {over:+.1f}% of the CLI's per-page time")
    print()
    print("| extract_many | pages/s (wall) | CPU s | × threads=1 (wall) |")
    print("|---|---|---|---|")
    for t in (1, 2):
        print(f"| threads={t} | {n / many[t]:.0f} | {many_cpu[t]:.2f} | {many[1] / many[t]:.2f} |")
    # With other jobs on the cores the wall clock cannot show what two free cores give; the CPU
    # seconds can: when two threads spend no more CPU than one, two free cores halve the time.
    print(f"\nload average now {os.getloadavg()[0]:.1f}; CPU(2 threads)/CPU(1 thread) = "
          f"{many_cpu[2] / many_cpu[1]:.2f}, so on two free cores 2 threads would give about "
          f"{2 * many_cpu[1] / many_cpu[2]:.2f}x one")
    return 0


if __name__ == "__main__":
    sys.exit(main())
