"""How the peers' runner (../shared/peers/README.md) decodes a page for the tools that take a
str: shared by python/bench/bench.py and tools/speed_vs_resiliparse.py. It needs only the
standard library, so the latter can import it without the pith wheel."""

import re

CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([-\w:.]+)""", re.I)


def declared_str(page):
    """The str the peers' runner gave str-taking tools: the charset declared in the first 4096
    bytes (latin-1 read as windows-1252), else UTF-8, undecodable bytes replaced."""
    m = CHARSET.search(page[:4096])
    enc = m.group(1).decode("ascii", "replace").lower() if m else "utf-8"
    if enc in ("iso-8859-1", "latin-1", "latin1", "us-ascii", "ascii"):
        enc = "windows-1252"
    try:
        return page.decode(enc, "replace")
    except LookupError:
        return page.decode("utf-8", "replace")
