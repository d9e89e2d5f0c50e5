"""pith's trafilatura-shaped calls against trafilatura 2.3.1 itself, field by field, on the pages
of tests/pages: pith.extract(html, output_format="json", with_metadata=True),
pith.bare_extraction and pith.extract_metadata give trafilatura's keys, in its order, with its
types, and its values on the fields where pith's metadata agrees. The fields that differ on
these pages, and why, are listed in DIFFERENT (and in docs/python.md); a new disagreement fails.
"""

import json
import pathlib
import xml.etree.ElementTree as ET

import pytest

import pith
from pith import _trafilatura

trafilatura = pytest.importorskip("trafilatura")

REPO = pathlib.Path(__file__).resolve().parents[2]
PAGES = sorted((REPO / "tests" / "pages").rglob("*.html"))
URL = "https://www.example.org/news/{}"

# Fields whose values differ on some of these pages, with the pages (by file name relative to
# tests/pages) and the reason. Every other field must be equal on every page.
DIFFERENT = {
    # pith keeps the page's <title> whole when the site's name is not stated elsewhere;
    # trafilatura cuts the part after " - " / " – ".
    "title": {
        "images.html",
        "repeats_forum.html",
        "site-news-thin/page1.html",
        "site-news/page1.html",
        "site-news/page2.html",
        "site-news/page3.html",
        "site-news/page4.html",
        "site-news/page5.html",
        "site-news/page6.html",
    },
    # The forum's poster name as written ("crumbly"); trafilatura capitalizes it.
    "author": {"repeats_forum.html"},
    # trafilatura guesses 2022-01-01 from the report's copyright line; pith states no date.
    "date": {"report.html"},
    # trafilatura sets language only with target_language (and a detector installed); pith
    # always gives the declared or detected language.
    "language": "all",
    # A simhash of title and text (the same function: test_fingerprint_is_trafilaturas): equal
    # only where the texts are.
    "fingerprint": "all",
    # The main text itself: each extractor's own.
    "text": "all",
    "raw_text": "all",
    # The extraction date: today on both sides (but the two calls may straddle midnight).
    "filedate": "all",
    # trafilatura's lxml trees; pith gives None (its XML output is output_format="xml").
    "body": "all",
    "commentsbody": "all",
}


def differs(field, name):
    d = DIFFERENT.get(field)
    return d == "all" or (d is not None and name in d)


def page_name(path):
    return path.relative_to(REPO / "tests" / "pages").as_posix()


@pytest.fixture(scope="module", params=PAGES, ids=page_name)
def page(request):
    path = request.param
    return page_name(path), path.read_bytes(), URL.format(path.name)


def check_fields(name, ours, theirs):
    """Same keys in the same order; the same type where both have a value; equal values but on
    the fields DIFFERENT names for this page."""
    assert list(ours) == list(theirs), name
    for k in theirs:
        a, b = ours[k], theirs[k]
        if a is not None and b is not None and k not in ("body", "commentsbody"):
            assert type(a) is type(b), (name, k, a, b)
        if not differs(k, name):
            assert a == b, (name, k, a, b)


def test_extract_json_with_metadata_is_trafilaturas(page):
    name, html, url = page
    ours = pith.extract(html, url=url, output_format="json", with_metadata=True)
    theirs = trafilatura.extract(html, url=url, output_format="json", with_metadata=True, include_comments=False)
    assert isinstance(ours, str) and theirs is not None
    check_fields(name, json.loads(ours), json.loads(theirs))


def test_extract_json_without_metadata_has_trafilaturas_keys(page):
    name, html, url = page
    ours = json.loads(pith.extract(html, url=url, output_format="json"))
    theirs = json.loads(trafilatura.extract(html, url=url, output_format="json", include_comments=False))
    assert list(ours) == list(theirs) == ["text", "comments"]


def test_bare_extraction_is_trafilaturas_dict(page):
    name, html, url = page
    ours = pith.bare_extraction(html, url=url, with_metadata=True)
    theirs = trafilatura.bare_extraction(html, url=url, with_metadata=True, include_comments=False).as_dict()
    check_fields(name, ours, theirs)
    assert ours["text"] and ours["raw_text"] == ours["text"]
    # Without with_metadata, the metadata is None on both sides.
    bare = pith.bare_extraction(html, url=url)
    theirs = trafilatura.bare_extraction(html, url=url, include_comments=False).as_dict()
    for k in ("title", "author", "url", "hostname", "date", "sitename", "description"):
        assert bare[k] is None and theirs[k] is None, k


def test_extract_metadata_is_trafilaturas(page):
    name, html, url = page
    ours = pith.extract_metadata(html, url)
    theirs = trafilatura.extract_metadata(html, default_url=url).as_dict()
    check_fields(name, ours, theirs)
    for k in ("text", "raw_text", "fingerprint", "body"):
        assert ours[k] is None, k


def test_fingerprint_is_trafilaturas(page):
    from trafilatura.deduplication import content_fingerprint

    _, html, _ = page
    text = pith.extract(html)
    for s in (text, "None " + text, "", "。、！ 中文的句子。没有空格", "a b c"):
        assert _trafilatura.fingerprint(s) == content_fingerprint(s), s


def test_no_main_text_or_empty_input_gives_none_as_trafilatura():
    for html in (b"", "", b"   \n", b"<html><body></body></html>", b"\x89PNG\r\n\x1a\n" + b"\x00" * 64):
        for fmt in ("txt", "json", "xml", "html", "markdown"):
            assert pith.extract(html, output_format=fmt) is None, (html, fmt)
        assert pith.bare_extraction(html) is None
        assert trafilatura.extract(html) is None
        assert trafilatura.bare_extraction(html) is None
    assert pith.extract_metadata(b"") is None


def test_wrong_types_raise_a_clear_type_error():
    for call in (pith.extract, pith.bare_extraction, pith.extract_metadata, pith._pith.extract):
        for bad in (None, 12, ["<p>x</p>"]):
            with pytest.raises(TypeError, match=r"html must be bytes or str, not (NoneType|int|list)"):
                call(bad)
    with pytest.raises(TypeError, match="pith's keyword"):
        pith.extract(b"<p>x</p>", format="markdown", output_format="markdown")
    with pytest.raises(ValueError, match="unknown output_format `csv`"):
        pith.extract(b"<p>x</p>", output_format="csv")
    with pytest.raises(NotImplementedError, match="include_tables"):
        pith.extract(b"<p>x</p>", include_tables=False)


def test_output_formats():
    html = (REPO / "tests" / "pages" / "article.html").read_bytes()
    url = "https://www.example.org/news/flood"
    # txt: trafilatura's text has no final newline; with metadata, its YAML header.
    txt = pith.extract(html, url=url, output_format="txt")
    assert txt == pith.extract(html, url=url).rstrip("\n")
    with_meta = pith.extract(html, url=url, output_format="txt", with_metadata=True)
    header, body = with_meta.split("\n---\n", 1)
    assert header.startswith("---\ntitle: River towns rebuild after the spring flood\nauthor: Marta Kowalski\n")
    assert f"url: {url}\nhostname: example.org\n" in header and 'date: "2024-04-12"' in header
    assert body == txt
    theirs = trafilatura.extract(html, url=url, output_format="txt", with_metadata=True, include_comments=False)
    assert theirs.split("\n---\n")[0].split("\n")[:5] == header.split("\n")[:5]
    # markdown keeps the headings and, with include_links, the links resolved.
    md = pith.extract(html, url=url, output_format="markdown", include_links=True)
    assert "## What the council is paying for" in md
    assert "[the council’s map](https://www.example.org/flood-map)" in md
    # xml: trafilatura's <doc> with its attributes and <main>.
    xml = pith.extract(html, url=url, output_format="xml", include_links=True)
    doc = ET.fromstring(xml)
    assert doc.tag == "doc" and [c.tag for c in doc] == ["main", "comments"]
    assert doc.get("title") == "River towns rebuild after the spring flood"
    assert doc.get("hostname") == "example.org" and doc.get("url") == url
    theirs = trafilatura.extract(html, url=url, output_format="xml", include_links=True, with_metadata=True)
    theirs = ET.fromstring(theirs)
    for k in ("title", "author", "date", "url", "hostname", "sitename"):
        assert doc.get(k) == theirs.get(k), k
    assert {e.tag for e in doc.iter()} >= {"head", "p", "list", "item", "quote", "ref"}
    assert {e.tag for e in theirs.iter()} >= {"head", "p", "list", "item", "quote", "ref"}
    # html: a whole document; the pith call with format="html" is the same document.
    page = pith.extract(html, url=url, output_format="html")
    assert page.startswith("<!DOCTYPE html>\n<html lang=\"en\">") and "<h2>What the council is paying for</h2>" in page
    assert page + "\n" == pith.extract(html, url=url, format="html")
    assert xml + "\n" == pith.extract(html, url=url, format="xml", links=True)


def test_the_cli_writes_what_format_html_and_xml_give(pith_bin, tmp_path):
    import subprocess

    path = REPO / "tests" / "pages" / "report.html"
    url = "https://www.example.org/report"
    for fmt in ("html", "xml"):
        cli = subprocess.run(
            [pith_bin, "--format", fmt, "--links", "--url", url, str(path)], capture_output=True, check=True
        ).stdout.decode("utf-8")
        assert cli == pith.extract(path.read_bytes(), url=url, format=fmt, links=True)


def test_target_language_and_favor():
    html = (REPO / "tests" / "pages" / "article.html").read_bytes()
    assert pith.extract(html, target_language="en") is not None
    assert pith.extract(html, target_language="de") is None
    assert pith.bare_extraction(html, target_language="de") is None
    assert pith.extract(html, target_language="de,en") is not None
    # A page of unknown language is dropped, as `pith --target-language` drops it.
    stub = b"<html><body><article><p>ok 42</p></article></body></html>"
    assert pith.extract(stub) is not None
    assert pith.extract(stub, target_language="en") is None
    assert pith.extract(html, favor_precision=True) == pith.extract(html, favor="precision").rstrip("\n")
    assert pith.extract(html, favor_recall=True) == pith.extract(html, favor="recall").rstrip("\n")


def test_pith_calls_are_unchanged():
    html = (REPO / "tests" / "pages" / "article.html").read_bytes()
    assert pith.extract(html) == pith._pith.extract(html)
    assert pith.extract(html, None, "rules", "markdown") == pith._pith.extract(html, None, "rules", "markdown")
    d = pith.extract(html, format="json")
    assert isinstance(d, dict) and "page_type" in d
    assert pith.extract(b"<html><body></body></html>") == ""
    with pytest.raises(pith.PithError):
        pith.extract(b"")
