#!/usr/bin/env python3
"""Page metadata: pith's JSON output against trafilatura's metadata on the same pages.

Usage (trafilatura in a venv: python3 -m venv target/meta-venv &&
target/meta-venv/bin/pip install trafilatura==2.3.1 lxml_html_clean):

    target/meta-venv/bin/python tools/metadata_vs_trafilatura.py target/release/pith \
        ../shared/data/wcxb_train --cache target/traf-meta.json

Each page (html/*.html or html/*.html.gz) is decoded once (trafilatura's decode_file) and the
same text goes to both: to `trafilatura.extract_metadata(html, default_url=url)` and, as one
JSON lines record {"id", "url", "html"}, to `pith --format json`. It is done twice: with the
page's URL from the set's MANIFEST.json (every field; for `url`, pith gives back the URL it
was given and trafilatura prefers the page's canonical link), and without any URL (`url` and
`sitename`: what each reads off the page itself, canonical link, og:url...).
Per field it prints on how many pages both give a value, how often they agree, and on how
many pages only one of them gives a value:

- strings (title, sitename, description): equal after case folding and collapsing white
  space; authors compared on their letters and digits only (trafilatura drops dots and joins
  names with "; "); the `lenient` column also counts titles that are equal once one loses a
  site name the other kept (`Story - Site` against `Story`);
- date: the same day, YYYY-MM-DD (the first 10 characters: trafilatura gives only the day),
  and separately how many are within one day of each other;
- url: strict is the same string; lenient the same after dropping the scheme, `www.`, a
  trailing `/` and the fragment, host case-folded;
- lists (categories, tags): the same set of items (case and white space as above).

The lenient column: titles also equal once one loses a first or last part at a separator
(`Story - Site` against `Story`: a site name one tool removed); authors sharing one name
(split at `;` `,` `|` `/` `and`); lists sharing one item; dates as strict.

`--dump FILE` writes every page's pair of values (JSON lines) for reading the disagreements.
"""

import argparse
import datetime
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import trafilatura
from trafilatura.utils import decode_file

FIELDS = ["title", "author", "date", "sitename", "url", "description", "categories", "tags"]
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


def same_author(a, b):
    """Sharing one name, or one name is another followed by more of its byline (a date word,
    a role, a post count: `Carrie Arnold November`, `Phil Helsel is a reporter`) that one tool
    did not cut; the shorter must have two words (a first name alone is not the name)."""
    pa, pb = names(a), names(b)
    if pa & pb:
        return True
    for x in pa:
        for y in pb:
            short, long_ = sorted((x, y), key=len)
            if len(short.split()) >= 2 and long_.startswith(short + " "):
                return True
    return False


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


MODIFIED_META = {"article:modified_time", "og:updated_time", "article:modified", "datemodified",
                 "dcterms.modified", "last-modified", "dateupdated", "lastreviewed"}
MODIFIED_LD = re.compile(r'"(?:dateModified|lastReviewed)"\s*:\s*"([0-9]{4}-[0-9]{2}-[0-9]{2})')
MODIFIED_META_RE = re.compile(r"<meta\b[^>]*>", re.I)
ATTR_RE = re.compile(r'([a-zA-Z:-]+)\s*=\s*(?:"([^"]*)"|\'([^\']*)\')')


def modified_dates(html):
    """The modified dates a page declares (JSON-LD `dateModified`/`lastReviewed`, the modified
    `<meta>` names), YYYY-MM-DD: where trafilatura's date is one of them and pith's the
    publication date, both read a date the page states, htmldate the wrong one of the two."""
    out = set(MODIFIED_LD.findall(html))
    for tag in MODIFIED_META_RE.findall(html):
        attrs = {k.lower(): (v or w) for k, v, w in ATTR_RE.findall(tag)}
        keys = {attrs.get(k, "").lower() for k in ("property", "name", "itemprop")}
        if keys & MODIFIED_META and attrs.get("content", "")[:4].isdigit():
            out.add(attrs["content"][:10])
    return out


def url_key(u):
    """A URL without its scheme, `www.`, fragment and trailing `/`, host case-folded."""
    u = str(u).strip().split("#")[0]
    u = re.sub(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", "", u)
    host, _, path = u.partition("/")
    host = host.lower()
    host = host[4:] if host.startswith("www.") else host
    return (host + "/" + path).rstrip("/")


def value(field, v):
    """The comparable form of a field's value, or None when absent."""
    if v is None:
        return None
    if field == "url":
        return str(v).strip() or None
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


def run_pith(pith, records, with_urls=True):
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        for pid, url, html in records:
            rec = {"id": pid, "html": html}
            if with_urls:
                rec["url"] = url
            f.write(json.dumps(rec) + "\n")
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


def run_trafilatura(records, cache=None, with_urls=True):
    """trafilatura's metadata per page; with `cache` (a JSON file), read from it when it holds
    every page, else computed and written to it (trafilatura takes a minute; pith a second)."""
    if cache and not with_urls:
        cache = cache + ".no-urls"
    if cache and os.path.exists(cache):
        with open(cache, encoding="utf-8") as f:
            got = json.load(f)
        if all(pid in got for pid, _u, _h in records):
            return got, 0.0
    got = {}
    t = time.perf_counter()
    for pid, url, html in records:
        try:
            d = trafilatura.extract_metadata(html, default_url=url if with_urls else None)
            d = d.as_dict()
        except Exception as e:  # noqa: BLE001 - a page trafilatura fails on counts as empty
            print(f"trafilatura failed on {pid}: {e}", file=sys.stderr)
            d = {}
        got[pid] = d
    secs = time.perf_counter() - t
    if cache:
        with open(cache, "w", encoding="utf-8") as f:
            json.dump(got, f, ensure_ascii=False, default=str)
    return got, secs


def table(records, pith, traf, dump=None, fields=FIELDS):
    """The comparison rows over `records`: (field, pith finds, trafilatura finds, both find,
    agree strictly, agree leniently)."""
    rows = []
    for field in fields:
        p_found = t_found = both = agree = overlap = lenient = 0
        for pid, _url, html in records:
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
                    lenient += same_author(pith[pid][field], traf[pid][field])
                if field == "url":
                    lenient += url_key(p) == url_key(t)
                if field == "date":
                    lenient += p == t or (
                        pith[pid].get("date_source") == "published" and t in modified_dates(html))
                if field in LISTS:
                    overlap += bool(p & t)
            if dump and (p != t):
                rec = {"id": pid, "field": field, "pith": pith.get(pid, {}).get(field),
                       "trafilatura": traf.get(pid, {}).get(field)}
                if field == "date":
                    rec["date_source"] = pith.get(pid, {}).get("date_source")
                dump.write(json.dumps(rec, ensure_ascii=False) + "\n")
        rows.append((field, p_found, t_found, both, agree, overlap if field in LISTS else lenient))
    return rows


def print_table(title, records, pith, traf, dump=None, fields=FIELDS):
    print(f"{title}: {len(records)} pages\n")
    print("| field | pith gives | trafilatura gives | both give | agree (strict) | agree (lenient) "
          "| only pith | only trafilatura |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for field, p, t, b, a, o in table(records, pith, traf, dump, fields):
        pct = f"{100 * a / b:.1f}%" if b else "-"
        ov = (f"{o} ({100 * o / b:.1f}%)"
              if b and field in LISTS | {"title", "author", "date", "url"} else "")
        print(f"| {field} | {p} | {t} | {b} | {a} ({pct}) | {ov} | {p - b} | {t - b} |")
    if "date" not in fields:
        return
    within = same = both = 0
    for pid, _u, _h in records:
        p, t = pith.get(pid, {}).get("date"), traf.get(pid, {}).get("date")
        if p and t:
            both += 1
            try:
                dp = datetime.date.fromisoformat(str(p)[:10])
                dt = datetime.date.fromisoformat(str(t)[:10])
            except ValueError:
                continue
            same += dp == dt
            within += abs((dp - dt).days) <= 1
    if both:
        print(f"date: both give {both}, the same day {same} ({100 * same / both:.1f}%), "
              f"within one day {within} ({100 * within / both:.1f}%)")
    sources = {}
    for pid, _u, _h in records:
        src = pith.get(pid, {}).get("date_source")
        if src:
            sources[src] = sources.get(src, 0) + 1
    stated = {"published", "time", "url"}
    for label, keep in (("stated", lambda x: x in stated), ("guessed", lambda x: x not in stated)):
        both = agree = 0
        for pid, _u, html in records:
            p, t = pith.get(pid, {}), traf.get(pid, {})
            if p.get("date") and t.get("date") and keep(p.get("date_source")):
                both += 1
                d = str(t["date"])[:10]
                agree += p["date"][:10] == d or (
                    p.get("date_source") == "published" and d in modified_dates(html))
        if both:
            print(f"date, pith's {label} dates: both find {both}, agree (lenient) {agree} "
                  f"({100 * agree / both:.1f}%)")
    if sources:
        print("\npith's date_source: "
              + ", ".join(f"{k} {v}" for k, v in sorted(sources.items(), key=lambda kv: -kv[1])))
    year_only = sum(
        1
        for pid, _u, _h in records
        if not pith.get(pid, {}).get("date")
        and str(traf.get(pid, {}).get("date") or "").endswith("-01-01")
    )
    print(f"trafilatura dates of the form YYYY-01-01 on pages where pith gives none "
          f"(htmldate's guess from a bare year, such as a copyright line): {year_only}\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pith")
    ap.add_argument("sets", nargs="+")
    ap.add_argument("--dump", help="write every disagreement as a JSON line to this file")
    ap.add_argument("--cache", help="trafilatura's results, kept in this JSON file between runs")
    args = ap.parse_args()
    by_set = [(s, list(pages(s))) for s in args.sets]
    records = [r for _s, rs in by_set for r in rs]
    name = "All sets" if len(by_set) > 1 else os.path.basename(os.path.normpath(args.sets[0]))
    dump = open(args.dump, "w", encoding="utf-8") if args.dump else None
    for with_urls in (True, False):
        pith, pith_secs = run_pith(args.pith, records, with_urls)
        traf, traf_secs = run_trafilatura(records, args.cache, with_urls)
        how = "with the pages' URLs" if with_urls else "without URLs (url read off the page)"
        print(f"## {how}\n\npith {pith_secs:.1f} s, trafilatura {traf_secs:.1f} s"
              + (" (cached)" if traf_secs == 0 else "") + "\n")
        fields = FIELDS if with_urls else ["url", "sitename"]
        if len(by_set) > 1:
            for s, rs in by_set:
                print_table(os.path.basename(os.path.normpath(s)), rs, pith, traf, None, fields)
        print_table(name, records, pith, traf, dump, fields)


if __name__ == "__main__":
    main()
