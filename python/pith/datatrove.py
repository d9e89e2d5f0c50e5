"""pith in datatrove: `PithExtractor` takes the place of datatrove's `Trafilatura` step, and
`PithWarcReader` reads WARC files into documents of main text in one step.

    from datatrove.pipeline.readers import WarcReader
    from datatrove.pipeline.writers import JsonlWriter
    from pith.datatrove import PithExtractor, PithWarcReader

    pipeline = [WarcReader("crawl/"), PithExtractor(), JsonlWriter("docs/")]
    pipeline = [PithWarcReader("crawl/"), JsonlWriter("docs/")]   # the same, read by pith

Importing this module needs datatrove (`pip install datatrove`); `import pith` alone does not.
"""

from datatrove.pipeline.extractors.base import BaseExtractor
from datatrove.pipeline.readers.base import BaseDiskReader

from ._pith import extract as _extract
from ._pith import read_warc as _read_warc


class PithExtractor(BaseExtractor):
    """Replaces each document's HTML (``doc.text``) with its main content, extracted by pith.

    Args:
        algo: "model" (default), "rules" ("auto" is its old name), "danag" or "danag-lines".
        favour_precision: lean to precision (the CLI's --precision), as datatrove's Trafilatura
            extractor does by default; False keeps pith's balanced default.
        favour_recall: lean to recall (--recall).
        comments: keep user comments.
        format: "text" or "markdown".
        sandbox: run each extraction in datatrove's subprocess sandbox with ``timeout``, as
            its other extractors do. pith's extraction is linear in the page and never hangs,
            and a Rust panic surfaces as an ordinary exception, so by default extraction runs
            in this process (no subprocess, no pickling of every page).
        timeout: the sandbox's per-document timeout, in seconds.

    Documents whose page has no main text are dropped, as with datatrove's other extractors;
    a page pith cannot read (empty, binary) counts under ``clean_error`` and is skipped.
    """

    name = "🪨 pith"
    _requires_dependencies = ["datatrove"]

    def __init__(
        self,
        algo: str = "model",
        favour_precision: bool = False,
        favour_recall: bool = False,
        comments: bool = False,
        format: str = "text",
        sandbox: bool = False,
        timeout: float = 1,
    ):
        super().__init__(timeout)
        if favour_precision and favour_recall:
            raise ValueError("favour_precision and favour_recall exclude each other")
        self.algo = algo
        self.favor = "precision" if favour_precision else "recall" if favour_recall else None
        self.comments = comments
        self.format = format
        self.sandbox = sandbox
        # Options are checked now, not at the first document.
        self.extract("<p>check</p>")

    def extract(self, text: str) -> str:
        """The main content of one page (datatrove's extractor interface); "" for an empty one
        (datatrove's sandbox warms up on "")."""
        if not text.strip():
            return ""
        return _extract(
            text, algo=self.algo, format=self.format, comments=self.comments, favor=self.favor
        )

    def run(self, data, rank: int = 0, world_size: int = 1):
        if self.sandbox:
            yield from super().run(data, rank, world_size)
            return
        from datatrove.utils.typeshelper import StatHints

        for doc in data:
            self.stat_update(StatHints.total)
            with self.track_time():
                try:
                    doc.text = self.extract(doc.text)
                    self.stat_update("extracted")
                except ValueError:
                    self.stat_update("clean_error")
                    continue
            if doc.text:
                self.stat_update(StatHints.forwarded)
                self.update_doc_stats(doc)
                yield doc
            else:
                self.stat_update(StatHints.dropped)


class PithWarcReader(BaseDiskReader):
    """Reads WARC files with pith: one document per HTML record that has main text, its text
    already extracted (no extractor step needed), as `pith.read_warc` gives it.

    Unlike WarcReader (warcio), a record cut short or a broken gzip member does not end the
    task: pith reports it (counted under ``record_error``) and goes on with the next record.
    Metadata: url, title, lang, date and date_source (a stated or a guessed date), warc_date,
    and the file path.

    Args:
        data_folder, paths_file, limit, skip, file_progress, doc_progress, adapter,
        default_metadata, recursive, glob_pattern, shuffle_files: as datatrove's WarcReader.
        **options: passed to pith.read_warc (algo, format, comments, favor, ...).
    """

    name = "🪨 pith WARC"
    _requires_dependencies = ["datatrove"]

    def __init__(
        self,
        data_folder,
        paths_file=None,
        limit: int = -1,
        skip: int = 0,
        file_progress: bool = False,
        doc_progress: bool = False,
        adapter=None,
        default_metadata: dict = None,
        recursive: bool = True,
        glob_pattern: str = None,
        shuffle_files: bool = False,
        **options,
    ):
        super().__init__(
            data_folder,
            paths_file,
            limit,
            skip,
            file_progress,
            doc_progress,
            adapter,
            "text",
            "id",
            default_metadata,
            recursive,
            glob_pattern,
            shuffle_files,
        )
        self.options = options

    def read_file(self, filepath: str):
        # The raw file: pith recognizes gzip (per record or whole file) itself.
        with self.data_folder.open(filepath, "rb") as f:
            for i, record in enumerate(_read_warc(f, **self.options)):
                if "error" in record:
                    self.stat_update("record_error")
                    continue
                body = record.pop("markdown", None) or record.pop("text", None)
                if not body:
                    continue
                record["text"] = body
                record.pop("bytes_in", None)
                record.pop("algo", None)
                document = self.get_document_from_dict(record, filepath, i)
                if document:
                    yield document
