"""trafilatura's calls on pith: extract() with output_format=, bare_extraction(), extract_metadata().

pith.extract keeps pith's own call (format=, comments=, links=, images=, favor=) and takes
trafilatura's keywords (output_format=, with_metadata=, include_comments=, include_links=,
include_images=, include_tables=, favor_precision=, favor_recall=, target_language=,
record_id=): a call with any of them answers as trafilatura.extract does (None when there is no
main text or the input is empty, text without a final newline, trafilatura's JSON keys). The
migration table is in docs/python.md.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import json
import string
import unicodedata
from typing import Any, Dict, List, Optional, Union
from urllib.parse import urlsplit

from . import _pith

# trafilatura's output formats that pith writes (csv and xmltei it does not).
OUTPUT_FORMATS = ("txt", "markdown", "json", "html", "xml")

# trafilatura's Document fields, in its order (trafilatura.settings.Document.__slots__).
DOCUMENT_FIELDS = (
    "title",
    "author",
    "url",
    "hostname",
    "description",
    "sitename",
    "date",
    "categories",
    "tags",
    "fingerprint",
    "id",
    "license",
    "body",
    "comments",
    "commentsbody",
    "raw_text",
    "text",
    "language",
    "image",
    "pagetype",
    "filedate",
)

# The fields of the YAML header of txt and markdown output with metadata, in trafilatura's order.
_YAML_FIELDS = "title author url hostname description sitename date categories tags fingerprint id license".split()
_YAML_RESERVED = frozenset({"true", "false", "yes", "no", "on", "off", "y", "n", "null", "none", "~"})

Page = Union[bytes, bytearray, str]


def _check_html(html: Any, function: str) -> None:
    if not isinstance(html, (bytes, bytearray, str)):
        raise TypeError(f"{function}: html must be bytes or str, not {type(html).__name__}")


def hostname(url: Optional[str]) -> Optional[str]:
    """The host of url without a leading "www." (trafilatura's hostname), or None."""
    if not url:
        return None
    try:
        host = urlsplit(url.strip()).hostname
    except ValueError:
        return None
    if not host:
        return None
    return host[4:] if host.startswith("www.") else host


@functools.lru_cache(maxsize=1)
def _punctuation_table() -> Dict[int, str]:
    """Every Unicode punctuation character to a space (built once: it scans all of Unicode)."""
    return {i: " " for i in range(0x110000) if unicodedata.category(chr(i))[0] == "P"}


def _sample_tokens(text: str, length: int = 64) -> List[str]:
    """trafilatura.deduplication.sample_tokens: the words the fingerprint hashes."""
    tokens = [t for token in text.split() if (t := token.strip(string.punctuation)).isalnum()]
    if not tokens:
        # Text without Latin punctuation and spaces (Chinese 。): split at any punctuation.
        tokens = [t for t in text.translate(_punctuation_table()).split() if t.isalnum()]
    for i in range(4, 0, -1):
        sample = [t for t in tokens if len(t) > i]
        if len(sample) >= length / 2:
            return sample
    return tokens


def fingerprint(text: str) -> str:
    """trafilatura's content fingerprint: the 64-bit Charikar simhash of the text's words
    (blake2b-hashed), in hex; the same value trafilatura gives for the same text."""
    vector = [0] * 64
    for token in _sample_tokens(text):
        h = int.from_bytes(hashlib.blake2b(token.encode(), digest_size=8).digest(), "big")
        for i in range(64):
            vector[i] += 1 if h & (1 << i) else -1
    return f"{sum(1 << i for i in range(64) if vector[i] >= 0):x}"


def _strip_newline(text: str) -> str:
    return text[:-1] if text.endswith("\n") else text


def _document(
    d: Optional[Dict[str, Any]], text: Optional[str], with_metadata: bool, record_id: Optional[str], comments: bool = False
) -> Dict[str, Any]:
    """trafilatura's Document fields from pith's JSON dict d (metadata None without
    with_metadata, as trafilatura's); text None for metadata alone. With comments, comments is
    "" (pith keeps them in the main text, where they stand), else None as trafilatura's."""
    doc: Dict[str, Any] = dict.fromkeys(DOCUMENT_FIELDS)
    if with_metadata and d is not None:
        url = d.get("url")
        doc.update(
            title=d.get("title"),
            author=d.get("author"),
            url=url,
            hostname=hostname(url),
            description=d.get("description"),
            sitename=d.get("sitename"),
            date=d.get("date"),
            categories=list(d.get("categories") or []),
            tags=list(d.get("tags") or []),
            language=d.get("lang"),
            image=d.get("image"),
        )
    doc["id"] = record_id
    doc["filedate"] = datetime.date.today().isoformat()
    if text is not None:
        doc["text"] = text
        doc["raw_text"] = text
        doc["comments"] = "" if comments else None
        if with_metadata:
            doc["fingerprint"] = fingerprint(f"{doc['title']} {text}")
    return doc


def _yaml_scalar(value: str) -> str:
    if (
        value
        and value == value.strip()
        and value[0].isalpha()
        and ": " not in value
        and " #" not in value
        and not value.endswith(":")
        and value.lower() not in _YAML_RESERVED
        and all(ch >= " " and ch != "\x7f" for ch in value)
    ):
        return value
    return json.dumps(value, ensure_ascii=False)


def _yaml_header(doc: Dict[str, Any]) -> str:
    fields = "".join(
        f"{k}: {_yaml_scalar(v) if isinstance(v, str) else v}\n" for k in _YAML_FIELDS if (v := doc.get(k))
    )
    return f"---\n{fields}---\n"


def _json_output(doc: Dict[str, Any], with_metadata: bool) -> str:
    """trafilatura's JSON output: its keys in its order (source, source-hostname and excerpt
    for url, sitename and description; categories and tags joined by ";")."""
    if not with_metadata:
        return json.dumps({"text": doc["text"], "comments": doc["comments"] or ""}, ensure_ascii=False)
    out = {k: v for k, v in doc.items() if k not in ("body", "commentsbody")}
    out["comments"] = out["comments"] or ""
    out.update(
        {
            "source": out.pop("url"),
            "source-hostname": out.pop("sitename"),
            "excerpt": out.pop("description"),
            "categories": ";".join(out.pop("categories") or []),
            "tags": ";".join(out.pop("tags") or []),
        }
    )
    return json.dumps(out, ensure_ascii=False)


def _favor(favor_precision: Optional[bool], favor_recall: Optional[bool]) -> Optional[str]:
    if favor_precision:
        return "precision"
    if favor_recall:
        return "recall"
    return None


def _in_language(d: Dict[str, Any], target_language: Optional[str]) -> bool:
    """Whether the page is in target_language (ISO 639-1, or any BCP 47 tag, or several
    separated by commas: the primary subtags are compared), as the command line's
    --target-language: a page whose language is unknown is not kept (trafilatura keeps it when
    its detector gives no answer)."""
    if not target_language:
        return True
    lang = d.get("lang")
    if not lang:
        return False
    primary = lambda tag: tag.strip().lower().replace("_", "-").split("-")[0]  # noqa: E731
    return primary(lang) in {primary(t) for t in target_language.split(",") if t.strip()}


def _run(html: Page, url: Optional[str], algo: str, fmt: str, comments: bool, templates: Any, links: bool, images: bool, keep_repeats: bool, favor: Optional[str], charset: Optional[str]) -> Any:
    """One extraction; None for an input pith cannot read (empty, binary, too large)."""
    try:
        return _pith.extract(
            html, url, algo, fmt, comments, templates,
            links=links, images=images, keep_repeats=keep_repeats, favor=favor, charset=charset,
        )
    except _pith.PithError:
        return None


def trafilatura_extract(
    html: Page,
    url: Optional[str],
    algo: str,
    templates: Any,
    keep_repeats: bool,
    charset: Optional[str],
    output_format: Optional[str],
    with_metadata: Optional[bool],
    include_comments: Optional[bool],
    include_links: Optional[bool],
    include_images: Optional[bool],
    include_tables: Optional[bool],
    favor_precision: Optional[bool],
    favor_recall: Optional[bool],
    target_language: Optional[str],
    record_id: Optional[str],
) -> Optional[str]:
    """pith.extract called with trafilatura's keywords."""
    fmt = output_format or "txt"
    if fmt not in OUTPUT_FORMATS:
        raise ValueError(f"unknown output_format `{fmt}` (one of: {', '.join(OUTPUT_FORMATS)})")
    if include_tables is False:
        raise NotImplementedError("include_tables=False: pith keeps the tables of the main content")
    with_metadata = bool(with_metadata)
    args = dict(
        url=url, algo=algo, comments=bool(include_comments), templates=templates,
        links=bool(include_links), images=bool(include_images), keep_repeats=keep_repeats,
        favor=_favor(favor_precision, favor_recall), charset=charset,
    )
    d = None
    if fmt == "json" or with_metadata or target_language:
        # The metadata (and the language) come with the JSON object.
        d = _run(html, fmt="json", **args)
        if d is None or not d.get("text") or not _in_language(d, target_language):
            return None
    if fmt == "json":
        return _json_output(_document(d, _strip_newline(d["text"]), with_metadata, record_id), with_metadata)
    if fmt == "txt" and d is not None:
        body = d["text"]
    else:
        body = _run(html, fmt="text" if fmt == "txt" else fmt, **args)
    if not body:
        return None
    body = _strip_newline(body)
    if fmt in ("txt", "markdown") and with_metadata:
        plain = _strip_newline(d["text"])
        return _yaml_header(_document(d, plain, True, record_id)) + body
    return body


def bare_extraction(
    html: Page,
    url: Optional[str] = None,
    *,
    with_metadata: bool = False,
    include_comments: bool = False,
    include_links: bool = False,
    include_images: bool = False,
    include_tables: bool = True,
    favor_precision: bool = False,
    favor_recall: bool = False,
    target_language: Optional[str] = None,
    algo: str = "model",
    templates: Any = None,
    keep_repeats: bool = False,
    charset: Optional[str] = None,
    record_id: Optional[str] = None,
) -> Optional[Dict[str, Any]]:
    """The page as trafilatura.bare_extraction(..., as_dict=True) gives it: a dict with
    trafilatura's Document fields (title, author, url, hostname, description, sitename, date,
    categories, tags, fingerprint, id, license, body, comments, commentsbody, raw_text, text,
    language, image, pagetype, filedate); the metadata fields are None unless with_metadata,
    as trafilatura's. None when the page has no main text, the input is empty or unreadable, or
    its language is not target_language. body and commentsbody (trafilatura's lxml trees) are
    None: pith.extract(html, output_format="xml") gives the body as XML."""
    _check_html(html, "bare_extraction")
    if include_tables is False:
        raise NotImplementedError("include_tables=False: pith keeps the tables of the main content")
    d = _run(
        html, url, algo, "json", include_comments, templates, bool(include_links), bool(include_images),
        keep_repeats, _favor(favor_precision, favor_recall), charset,
    )
    if d is None or not d.get("text") or not _in_language(d, target_language):
        return None
    return _document(d, _strip_newline(d["text"]), with_metadata, record_id, include_comments)


def extract_metadata(
    html: Page,
    url: Optional[str] = None,
    *,
    charset: Optional[str] = None,
) -> Optional[Dict[str, Any]]:
    """The page's metadata as trafilatura.extract_metadata(html, default_url=url).as_dict()
    gives it: a dict with trafilatura's Document fields, the text fields None. None for an
    input pith cannot read (empty, binary)."""
    _check_html(html, "extract_metadata")
    d = _run(html, url, "model", "json", False, None, False, False, False, None, charset)
    if d is None:
        return None
    return _document(d, None, True, None)
