"""Type stubs of the pith extension module (re-exported by the `pith` package)."""

import os
import pathlib
from typing import Any, BinaryIO, Dict, Iterable, Iterator, List, Literal, Optional, Sequence, Union, overload

__version__: str
# The values of `page_type` in JSON output.
PAGE_TYPES: List[str]

Algo = Literal["model", "rules", "auto", "danag", "danag-lines"]
# "html" and "xml" give whole documents (metadata in <head> / trafilatura's <doc> attributes).
Format = Literal["text", "markdown", "md", "html", "xml"]
# read_warc's records are dicts: their body is text or Markdown.
BodyFormat = Literal["text", "markdown", "md"]
# extract() and extract_many() also take the CLI's JSON formats: a dict per page.
JsonFormat = Literal["json", "jsonl", "json-markdown"]
Favor = Optional[Literal["precision", "recall"]]

# The @overload stubs below repeat the same parameter list: an overload is a whole signature,
# differing here only in the literal type of `format` or `errors` and in the return type, and
# Python's typing has no way to share keyword parameters with defaults between signatures
# (Unpack[TypedDict] covers **kwargs only, and these parameters may also be passed by position).

class PithError(ValueError):
    """A page pith cannot extract (empty, binary, too large) or a template store it cannot open,
    with the command line's message."""

class Templates:
    """A store of site templates written by `pith learn -o DIR` (the CLI's `--templates DIR`),
    opened once and passed as templates=; PithError when dir is not a directory."""

    def __init__(self, dir: Union[str, os.PathLike[str]]) -> None: ...
    @property
    def dir(self) -> pathlib.Path: ...

@overload
def extract(
    html: Union[bytes, bytearray, str],
    url: Optional[str] = None,
    algo: Algo = "model",
    format: Format = "text",
    comments: bool = False,
    templates: Optional[Templates] = None,
    *,
    links: bool = False,
    images: bool = False,
    keep_repeats: bool = False,
    favor: Favor = None,
    charset: Optional[str] = None,
) -> str:
    """The main content of one page, exactly as `pith FILE` prints it ("" when none); with
    templates and url, as `pith --templates STORE --url URL FILE`; format "html" or "xml" as
    `pith --format html|xml --url URL FILE` (a whole document). TypeError when html is neither
    bytes nor str."""

@overload
def extract(
    html: Union[bytes, bytearray, str],
    url: Optional[str] = None,
    algo: Algo = "model",
    format: JsonFormat = ...,
    comments: bool = False,
    templates: Optional[Templates] = None,
    *,
    links: bool = False,
    images: bool = False,
    keep_repeats: bool = False,
    favor: Favor = None,
    charset: Optional[str] = None,
) -> Dict[str, Any]:
    """The page as `pith --format json --url URL -` writes it, as a dict: url, title, author,
    date, date_source (a stated or a guessed date: docs/metadata.md), sitename, description,
    image, categories, tags, lang, lang_source, text (markdown with "json-markdown"), with
    images=True images (a list of {"src", "alt", "caption"}), bytes_in, algo."""

@overload
def extract_many(
    pages: Iterable[Union[bytes, bytearray, str]],
    threads: int = 0,
    algo: Algo = "model",
    format: Format = "text",
    comments: bool = False,
    templates: Optional[Templates] = None,
    *,
    links: bool = False,
    images: bool = False,
    keep_repeats: bool = False,
    favor: Favor = None,
    charset: Optional[str] = None,
    errors: Literal["raise"] = "raise",
    urls: Optional[Sequence[Optional[str]]] = None,
) -> List[str]: ...
@overload
def extract_many(
    pages: Iterable[Union[bytes, bytearray, str]],
    threads: int = 0,
    algo: Algo = "model",
    format: Format = "text",
    comments: bool = False,
    templates: Optional[Templates] = None,
    *,
    links: bool = False,
    images: bool = False,
    keep_repeats: bool = False,
    favor: Favor = None,
    charset: Optional[str] = None,
    errors: Literal["none"],
    urls: Optional[Sequence[Optional[str]]] = None,
) -> List[Optional[str]]: ...
@overload
def extract_many(
    pages: Iterable[Union[bytes, bytearray, str]],
    threads: int = 0,
    algo: Algo = "model",
    format: JsonFormat = ...,
    comments: bool = False,
    templates: Optional[Templates] = None,
    *,
    links: bool = False,
    images: bool = False,
    keep_repeats: bool = False,
    favor: Favor = None,
    charset: Optional[str] = None,
    errors: Literal["raise", "none"] = "raise",
    urls: Optional[Sequence[Optional[str]]] = None,
) -> List[Optional[Dict[str, Any]]]: ...

class WarcReader(Iterator[Any]):
    """The records of one input, as `pith --format json` prints them."""

    def __iter__(self) -> "WarcReader": ...
    def __next__(self) -> Any: ...

def read_warc(
    source: Union[str, os.PathLike[str], BinaryIO],
    algo: Algo = "model",
    format: BodyFormat = "text",
    comments: bool = False,
    templates: Optional[Templates] = None,
    *,
    links: bool = False,
    images: bool = False,
    keep_repeats: bool = False,
    favor: Favor = None,
    charset: Optional[str] = None,
    raw: bool = False,
    max_record_bytes: int = 67108864,
    url: Optional[str] = None,
) -> WarcReader:
    """One dict per record that `pith --format json FILE` prints (the JSON lines themselves
    with raw=True): id, url, title, author, sitename, lang, lang_source, date, date_source,
    warc_date, description, image, categories, tags, text (or markdown), bytes_in, algo, and error when
    the record failed (the metadata fields: docs/metadata.md). With templates, each record's URL (url= for a plain
    HTML page) picks its site's template and algo says what ran ("fastce+auto",
    "fastce+auto:HOST#i" when the host has several templates, or the fallback)."""

Record = Dict[str, Any]
