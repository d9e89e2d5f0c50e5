"""pith: the main content of web pages (HTML, WARC), with the pith command line's code.

    >>> import pith
    >>> pith.extract(b"<html><body><article><p>Some text.</p></article></body></html>")

extract() gives what `pith FILE` prints, read_warc() what `pith --format json FILE` prints,
record by record; extract_many() extracts a list of pages on all cores. Templates(dir) opens
a store of site templates (`pith learn -o DIR`) for their templates= (`pith --templates DIR`).
JSON output (format="json") carries `page_type`, one of PAGE_TYPES, and `confidence`, the
predicted F1 of the text (0..1: under "model", the block model's own expectation; under "rules", a
learned estimate; None for the other algorithms).
"""

from ._pith import (
    PAGE_TYPES,
    PithError,
    Templates,
    WarcReader,
    __version__,
    extract,
    extract_many,
    read_warc,
)

__all__ = [
    "PAGE_TYPES",
    "PithError",
    "Templates",
    "WarcReader",
    "__version__",
    "extract",
    "extract_many",
    "read_warc",
]
