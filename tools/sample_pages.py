#!/usr/bin/env python3
"""Keep one page in K of the trainers' tables, in place (tools/train_twice.sh --sample K).

A page is kept when the SHA-1 of "set/page" is 0 mod K, so the choice is the same on every
run and machine. PAGES.tsv (pith-lab pages) and BLOCKS.tsv (pith-lab blocks) keep their header
and the rows of kept pages, in their order; BLOCKS.jsonl (--pages) keeps the kept pages' lines.

Usage: sample_pages.py K PAGES.tsv BLOCKS.tsv BLOCKS.jsonl
"""

import hashlib
import json
import sys


def kept(k, set_name, page):
    digest = hashlib.sha1(f"{set_name}/{page}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % k == 0


def filter_tsv(k, path):
    """Rows whose first two columns (set, page) name a kept page; returns how many pages."""
    with open(path, encoding="utf-8", newline="") as f:
        lines = f.readlines()
    out, pages = [lines[0]], set()
    for line in lines[1:]:
        s, p = line.split("\t", 2)[:2]
        if kept(k, s, p):
            out.append(line)
            pages.add((s, p))
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.writelines(out)
    return len(pages)


def main():
    if len(sys.argv) != 5:
        raise SystemExit(__doc__)
    k = int(sys.argv[1])
    if k < 1:
        raise SystemExit("K must be 1 or more")
    n_pages = filter_tsv(k, sys.argv[2])
    n_block_pages = filter_tsv(k, sys.argv[3])
    path = sys.argv[4]
    lines = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            page = json.loads(line)
            if kept(k, page["set"], page["page"]):
                lines.append(line)
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(lines)
    print(f"sample_pages: one page in {k}: {n_pages} pages, {n_block_pages} with blocks, "
          f"{len(lines)} page lines", file=sys.stderr)


if __name__ == "__main__":
    main()
