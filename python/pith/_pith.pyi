"""Type stubs of the pith extension module (re-exported by the `pith` package)."""

import os
from typing import Any, BinaryIO, Dict, Iterable, Iterator, List, Literal, Optional, Union, overload

__version__: str

Algo = Literal["auto", "danag", "danag-lines"]
Format = Literal["text", "markdown", "md"]
Favor = Optional[Literal["precision", "recall"]]

class PithError(ValueError):
    """A page pith cannot extract (empty, binary, too large), with the command line's message."""

class Templates:
    """Site templates (not available yet): constructing one raises NotImplementedError."""

    def __init__(self, dir: Union[str, os.PathLike[str]]) -> None: ...

def extract(
    html: Union[bytes, bytearray, str],
    url: Optional[str] = None,
    algo: Algo = "auto",
    format: Format = "text",
    comments: bool = False,
    templates: Optional[Templates] = None,
    *,
    links: bool = False,
    favor: Favor = None,
    charset: Optional[str] = None,
) -> str:
    """The main content of one page, exactly as `pith FILE` prints it ("" when none)."""

@overload
def extract_many(
    pages: Iterable[Union[bytes, bytearray, str]],
    threads: int = 0,
    algo: Algo = "auto",
    format: Format = "text",
    comments: bool = False,
    templates: Optional[Templates] = None,
    *,
    links: bool = False,
    favor: Favor = None,
    charset: Optional[str] = None,
    errors: Literal["raise"] = "raise",
) -> List[str]: ...
@overload
def extract_many(
    pages: Iterable[Union[bytes, bytearray, str]],
    threads: int = 0,
    algo: Algo = "auto",
    format: Format = "text",
    comments: bool = False,
    templates: Optional[Templates] = None,
    *,
    links: bool = False,
    favor: Favor = None,
    charset: Optional[str] = None,
    errors: Literal["none"],
) -> List[Optional[str]]: ...

class WarcReader(Iterator[Any]):
    """The records of one input, as `pith --format json` prints them."""

    def __iter__(self) -> "WarcReader": ...
    def __next__(self) -> Any: ...

def read_warc(
    source: Union[str, os.PathLike[str], BinaryIO],
    algo: Algo = "auto",
    format: Format = "text",
    comments: bool = False,
    templates: Optional[Templates] = None,
    *,
    links: bool = False,
    favor: Favor = None,
    charset: Optional[str] = None,
    raw: bool = False,
    max_record_bytes: int = 67108864,
) -> WarcReader:
    """One dict per record that `pith --format json FILE` prints (the JSON lines themselves
    with raw=True): id, url, title, lang, date, warc_date, text (or markdown), bytes_in, algo,
    and error when the record failed."""

Record = Dict[str, Any]
