"""pith: the main content of web pages (HTML, WARC), with the pith command line's code.

    >>> import pith
    >>> pith.extract(b"<html><body><article><p>Some text.</p></article></body></html>")

extract() gives what `pith FILE` prints, read_warc() what `pith --format json FILE` prints,
record by record; extract_many() extracts a list of pages on all cores. Templates(dir) opens
a store of site templates (`pith learn -o DIR`) for their templates= (`pith --templates DIR`).
JSON output (format="json") carries `page_type`, one of PAGE_TYPES, and `confidence`, the
predicted F1 of the text (0..1: under "model", the block model's own expectation; under "rules", a
learned estimate; None for the other algorithms).

trafilatura's calls work too (docs/python.md has the table): extract() with trafilatura's
keywords (output_format="txt"|"markdown"|"json"|"html"|"xml", with_metadata=, include_comments=,
include_links=, include_images=, favor_precision=, favor_recall=, target_language=) answers as
trafilatura.extract does, None when there is no main text; bare_extraction() gives
trafilatura's dict, extract_metadata() its metadata.
"""

from typing import Any, Optional, Union

from . import _pith
from ._pith import (
    PAGE_TYPES,
    PithError,
    Templates,
    WarcReader,
    __version__,
    extract_many,
    read_warc,
)
from ._trafilatura import bare_extraction, extract_metadata, trafilatura_extract

__all__ = [
    "PAGE_TYPES",
    "PithError",
    "Templates",
    "WarcReader",
    "__version__",
    "bare_extraction",
    "extract",
    "extract_many",
    "extract_metadata",
    "read_warc",
]


def extract(
    html: Union[bytes, bytearray, str],
    url: Optional[str] = None,
    algo: str = "model",
    format: Optional[str] = None,
    comments: bool = False,
    templates: Optional[Templates] = None,
    *,
    links: bool = False,
    images: bool = False,
    keep_repeats: bool = False,
    favor: Optional[str] = None,
    charset: Optional[str] = None,
    output_format: Optional[str] = None,
    with_metadata: Optional[bool] = None,
    include_comments: Optional[bool] = None,
    include_links: Optional[bool] = None,
    include_images: Optional[bool] = None,
    include_tables: Optional[bool] = None,
    favor_precision: Optional[bool] = None,
    favor_recall: Optional[bool] = None,
    target_language: Optional[str] = None,
    record_id: Optional[str] = None,
) -> Any:
    """The main content of one page.

    pith's call (format=, comments=, links=, images=, favor=): exactly what `pith FILE` prints
    ("" when the page has no main text; PithError for an empty or binary input); format "text"
    (the default), "markdown", "html", "xml", or "json" / "json-markdown" for a dict with every
    field of `pith --format json`.

    trafilatura's call (any of output_format=, with_metadata=, include_comments=,
    include_links=, include_images=, include_tables=, favor_precision=, favor_recall=,
    target_language=, record_id=): what trafilatura.extract returns, a str in output_format
    ("txt" by default, "markdown", "json", "html", "xml") or None when the page has no main
    text, the input is empty or unreadable, or it is not in target_language. The two calls'
    keywords do not mix (TypeError). algo=, templates=, keep_repeats= and charset= work in both.
    """
    trafilatura_style = any(
        v is not None
        for v in (
            output_format, with_metadata, include_comments, include_links, include_images,
            include_tables, favor_precision, favor_recall, target_language, record_id,
        )
    )
    if not isinstance(html, (bytes, bytearray, str)):
        raise TypeError(f"extract: html must be bytes or str, not {type(html).__name__}")
    if not trafilatura_style:
        return _pith.extract(
            html, url, algo, format or "text", comments, templates,
            links=links, images=images, keep_repeats=keep_repeats, favor=favor, charset=charset,
        )
    mixed = [
        name
        for name, v in (("format", format), ("comments", comments), ("links", links), ("images", images), ("favor", favor))
        if v
    ]
    if mixed:
        raise TypeError(
            f"extract: {', '.join(mixed)} is pith's keyword; with trafilatura's keywords use "
            "output_format=, include_comments=, include_links=, include_images=, favor_precision= or favor_recall="
        )
    return trafilatura_extract(
        html, url, algo, templates, keep_repeats, charset, output_format, with_metadata,
        include_comments, include_links, include_images, include_tables, favor_precision,
        favor_recall, target_language, record_id,
    )

