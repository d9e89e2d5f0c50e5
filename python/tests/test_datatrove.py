"""PithExtractor in a real datatrove pipeline (WarcReader -> PithExtractor -> JsonlWriter)."""

import json

import pith
import pytest

pytest.importorskip("datatrove", reason="datatrove is not installed (pip install datatrove)")
for dep in ("warcio", "cchardet", "magic"):
    pytest.importorskip(dep, reason=f"datatrove's WarcReader needs {dep}")

from datatrove.executor import LocalPipelineExecutor  # noqa: E402
from datatrove.pipeline.readers import WarcReader  # noqa: E402

from pith.datatrove import PithExtractor  # noqa: E402

SAMPLES = ["cc-main-2020-34-excerpt.warc.gz", "clueweb09-ja-quirk.warc.gz", "archiveit-2698-sample-1.warc.gz"]


@pytest.fixture
def crawl(tmp_path, warc_files):
    d = tmp_path / "crawl"
    d.mkdir()
    by_name = {p.name: p for p in warc_files}
    for name in SAMPLES:
        (d / name).symlink_to(by_name[name])
    return d


def test_example_pipeline_writes_what_pith_extracts(tmp_path, crawl, load_example):
    out = tmp_path / "out"
    example = load_example("datatrove_pipeline")
    LocalPipelineExecutor(
        pipeline=example.pipeline(str(crawl), str(out)),
        tasks=2,
        workers=1,
        logging_dir=str(tmp_path / "logs"),
    ).run()
    docs = [json.loads(line) for f in sorted(out.glob("*.jsonl")) for line in f.open()]
    # The HTML datatrove's reader gave each document, to extract again with the module.
    html = {d.id: d.text for d in WarcReader(str(crawl)).run()}
    assert len(docs) >= 80, f"only {len(docs)} documents written"
    for d in docs:
        assert d["text"] == pith.extract(html[d["id"]]), d["id"]
        assert d["text"].strip()
    # Pages without main text were dropped, not written empty.
    assert len(docs) == sum(1 for h in html.values() if pith.extract(h))


def test_extractor_options_and_sandbox(crawl):
    docs = list(WarcReader(str(crawl)).run())[:10]
    pages = [d.text for d in docs]
    precise = list(PithExtractor(favour_precision=True).run(iter(docs)))
    assert [d.text for d in precise] == [
        t for t in (pith.extract(p, favor="precision") for p in pages) if t
    ]
    docs = list(WarcReader(str(crawl)).run())[:10]
    sandboxed = list(PithExtractor(sandbox=True, timeout=30).run(iter(docs)))
    assert [d.text for d in sandboxed] == [t for t in (pith.extract(p) for p in pages) if t]
    with pytest.raises(ValueError, match="unknown algorithm"):
        PithExtractor(algo="nope")
    with pytest.raises(ValueError, match="exclude each other"):
        PithExtractor(favour_precision=True, favour_recall=True)


def test_pith_warc_reader_gives_read_warc_documents(warc_files, tmp_path):
    """PithWarcReader over every sample, the clipped and over-limit ones included (warcio's
    reader stops there): the documents are read_warc's records with text, in file order."""
    from pith.datatrove import PithWarcReader

    d = tmp_path / "all"
    d.mkdir()
    for p in warc_files:
        (d / p.name).symlink_to(p)
    docs = list(PithWarcReader(str(d)).run())
    expected = [r for p in sorted(d.iterdir()) for r in pith.read_warc(p) if r.get("text")]
    assert len(docs) == len(expected) >= 250
    for doc, r in zip(docs, expected):
        assert doc.id == r["id"] and doc.text == r["text"]
        assert doc.metadata["url"] == r["url"] and doc.metadata["title"] == r["title"]
        assert doc.metadata["warc_date"] == r["warc_date"]
