#!/usr/bin/env python3
"""Page metadata: pith's JSON output against trafilatura's metadata on the same pages.

Usage (trafilatura in a venv: python3 -m venv /tmp/tvenv &&
/tmp/tvenv/bin/pip install trafilatura==2.3.1 lxml_html_clean):

    /tmp/tvenv/bin/python lab/metadata_vs_trafilatura.py target/release/pith \
        ../shared/data/scrapinghub ../shared/data/wcxb_train

Each page (html/*.html or html/*.html.gz) is decoded once (trafilatura's decode_file) and the
same text, with the page's URL from the set's MANIFEST.json, goes to both: to
`trafilatura.extract_metadata(html, default_url=url)` and, as one JSON lines record
{"id", "url", "html"}, to `pith --format json`. Per field it prints how many pages each
gives a value for, and on the pages where both do, how often they agree:

- strings (title, sitename, description): equal after case folding and collapsing white
  space; authors compared on their letters and digits only (trafilatura drops dots and joins
  names with "; "); the `lenient` column also counts titles that are equal once one loses a
  site name the other kept (`Story - Site` against `Story`);
- date: the same YYYY-MM-DD (the first 10 characters);
- lists (categories, tags): the same set of items (case and white space as above).

The lenient column: titles also equal once one loses a first or last part at a separator
(`Story - Site` against `Story`: a site name one tool removed); authors sharing one name
(split at `;` `,` `|` `/` `and`); lists sharing one item; dates as strict.

`--dump FILE` writes every page's pair of values (JSON lines) for reading the disagreements.
"""

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time

import trafilatura
from trafilatura.utils import decode_file

FIELDS = ["title", "author", "date", "sitename", "description", "categories", "tags"]
LISTS = {"categories", "tags"}


def norm(s):
    return " ".join(str(s).split()).casefold()


def words(s):
    """Letters and digits only: trafilatura rewrites author names (drops dots, joins with "; ")."""
    return " ".join("".join(c if c.isalnum() else " " for c in str(s)).split()).casefold()


SEPARATORS = [" | ", " - ", " – ", " — ", " · ", " • ", " :: ", " » ", " « ", ": "]


def names(s):
    """An author value's names: split at ";", ",", "|", "/" and " and "."""
    s = str(s)
    for sep in [",", "|", "/", " and ", " und ", " et ", " y "]:
        s = s.replace(sep, ";")
    return {words(n) for n in s.split(";") if words(n)}


def same_title(a, b):
    """Equal, or equal once one of them loses a first or last part at a title separator (a
    site name one tool removed and the other kept)."""
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    for sep in SEPARATORS:
        if long_.startswith(short + sep) or long_.endswith(sep + short):
            return True
    return False


def value(field, v):
    """The comparable form of a field's value, or None when absent."""
    if v is None:
        return None
    if field in LISTS:
        items = v if isinstance(v, list) else [v]
        items = frozenset(norm(x) for x in items if x and norm(x))
        return items or None
    s = words(v) if field == "author" else norm(v)
    if not s:
        return None
    return s[:10] if field == "date" else s


def urls_of(set_dir):
    with open(os.path.join(set_dir, "MANIFEST.json"), encoding="utf-8") as f:
        m = json.load(f)
    if "id_map" in m:
        return {k: v.get("url") for k, v in m["id_map"].items()}
    return dict(m.get("urls", {}))


def pages(set_dir):
    urls = urls_of(set_dir)
    html_dir = os.path.join(set_dir, "html")
    for name in sorted(os.listdir(html_dir)):
        path = os.path.join(html_dir, name)
        if name.endswith(".html.gz"):
            with gzip.open(path, "rb") as f:
                raw = f.read()
            pid = name[: -len(".html.gz")]
        elif name.endswith(".html"):
            with open(path, "rb") as f:
                raw = f.read()
            pid = name[: -len(".html")]
        else:
            continue
        yield f"{os.path.basename(set_dir)}/{pid}", urls.get(pid), decode_file(raw)


def run_pith(pith, records):
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        for pid, url, html in records:
            f.write(json.dumps({"id": pid, "url": url, "html": html}) + "\n")
        path = f.name
    try:
        t = time.perf_counter()
        out = subprocess.run(
            [pith, "--format", "json", "-j", "1", path], capture_output=True, check=True
        ).stdout
        secs = time.perf_counter() - t
    finally:
        os.unlink(path)
    got = {}
    # Split at "\n" only: str.splitlines() also cuts at U+2028/U+0085 inside strings.
    for line in out.split(b"\n"):
        if not line.strip():
            continue
        o = json.loads(line)
        got[o.get("id")] = o
    return got, secs


def run_trafilatura(records):
    got = {}
    t = time.perf_counter()
    for pid, url, html in records:
        try:
            d = trafilatura.extract_metadata(html, default_url=url).as_dict()
        except Exception as e:  # noqa: BLE001 - a page trafilatura fails on counts as empty
            print(f"trafilatura failed on {pid}: {e}", file=sys.stderr)
            d = {}
        got[pid] = d
    return got, time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pith")
    ap.add_argument("sets", nargs="+")
    ap.add_argument("--dump")
    args = ap.parse_args()
    records = [r for s in args.sets for r in pages(s)]
    pith, pith_secs = run_pith(args.pith, records)
    traf, traf_secs = run_trafilatura(records)
    n = len(records)
    dump = open(args.dump, "w", encoding="utf-8") if args.dump else None
    rows = []
    for field in FIELDS:
        p_found = t_found = both = agree = overlap = lenient = 0
        for pid, _url, _html in records:
            p = value(field, pith.get(pid, {}).get(field))
            t = value(field, traf.get(pid, {}).get(field))
            p_found += p is not None
            t_found += t is not None
            if p is not None and t is not None:
                both += 1
                agree += p == t
                if field == "title":
                    lenient += same_title(p, t)
                if field == "author":
                    lenient += bool(names(pith[pid][field]) & names(traf[pid][field]))
                if field == "date":
                    lenient += p == t
                if field in LISTS:
                    overlap += bool(p & t)
            if dump and (p != t):
                rec = {"id": pid, "field": field, "pith": pith.get(pid, {}).get(field),
                       "trafilatura": traf.get(pid, {}).get(field)}
                dump.write(json.dumps(rec, ensure_ascii=False) + "\n")
        rows.append((field, p_found, t_found, both, agree, overlap if field in LISTS else lenient))
    year_only = sum(
        1
        for pid, _u, _h in records
        if not pith.get(pid, {}).get("date")
        and str(traf.get(pid, {}).get("date") or "").endswith("-01-01")
    )
    print(f"{n} pages ({', '.join(args.sets)}); pith {pith_secs:.1f} s, "
          f"trafilatura {traf_secs:.1f} s\n")
    print("| field | pith finds | trafilatura finds | both find | agree (strict) | agree (lenient) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for field, p, t, b, a, o in rows:
        pct = f"{100 * a / b:.1f}%" if b else "-"
        ov = f"{100 * o / b:.1f}%" if b and field in LISTS | {"title", "author", "date"} else ""
        print(f"| {field} | {p} | {t} | {b} | {a} ({pct}) | {ov} |")
    print(f"\ntrafilatura dates of the form YYYY-01-01 on pages where pith gives none "
          f"(htmldate's guess from a bare year, such as a copyright line): {year_only}")


if __name__ == "__main__":
    main()
