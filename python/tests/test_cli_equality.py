"""The module's output equals the pith command line's, byte for byte, on real pages and WARCs."""

import io
import json
import subprocess

import pith
import pytest


def cli(pith_bin, *args, stdin=None):
    """stdout and stderr of one CLI run (stderr as text)."""
    r = subprocess.run([pith_bin, *map(str, args)], input=stdin, capture_output=True)
    return r.stdout, r.stderr.decode("utf-8", "replace")


def cli_texts(pith_bin, files, *flags):
    """What `pith FILE` prints for each file, from one run over many files.

    Several pages come out separated by a form-feed line, and a page with no main text prints
    nothing (only a stderr line naming it), so those are put back as b"".
    """
    out, err = cli(pith_bin, "-j", "2", *flags, *files)
    empty = {
        line[len("pith: ") : -len(": no main text found")]
        for line in err.splitlines()
        if line.endswith(": no main text found")
    }
    chunks = out.split(b"\x0c\n") if out else []
    expected = len([f for f in files if str(f) not in empty])
    assert len(chunks) == expected, f"{len(chunks)} outputs for {expected} pages: {err[:500]}"
    it = iter(chunks)
    return [b"" if str(f) in empty else next(it) for f in files]


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_extract_equals_cli_on_every_gold_page(pith_bin, gold_pages, fmt):
    checked = 0
    for name, files in gold_pages.items():
        want = cli_texts(pith_bin, files, "--format", fmt)
        for path, expected in zip(files, want):
            got = pith.extract(path.read_bytes(), format=fmt).encode("utf-8")
            assert got == expected, f"{name}/{path.name} differs from `pith --format {fmt}`"
            checked += 1
    assert checked >= 800, f"only {checked} pages checked"


@pytest.mark.parametrize(
    "kwargs,flags",
    [
        ({"algo": "danag"}, ["--algo", "danag"]),
        ({"algo": "danag-lines"}, ["--algo", "danag-lines"]),
        ({"algo": "model"}, ["--algo", "model"]),
        ({"algo": "model", "favor": "precision"}, ["--algo", "model", "--precision"]),
        ({"comments": True}, ["--comments"]),
        ({"algo": "model", "comments": True}, ["--algo", "model", "--comments"]),
        ({"favor": "precision"}, ["--precision"]),
        ({"favor": "recall"}, ["--recall"]),
        ({"format": "markdown", "links": True}, ["--format", "markdown", "--links"]),
        ({"format": "markdown", "images": True}, ["--format", "markdown", "--images"]),
        ({"charset": "windows-1252"}, ["--charset", "windows-1252"]),
        ({"format": "html", "links": True, "images": True}, ["--format", "html", "--links", "--images"]),
        ({"format": "xml", "links": True}, ["--format", "xml", "--links"]),
    ],
)
def test_options_mean_what_the_flags_mean(pith_bin, gold_pages, kwargs, flags):
    files = [f for fs in gold_pages.values() for f in fs[:8]]
    want = cli_texts(pith_bin, files, *flags)
    for path, expected in zip(files, want):
        got = pith.extract(path.read_bytes(), **kwargs).encode("utf-8")
        assert got == expected, f"{path} with {kwargs} differs from `pith {' '.join(flags)}`"


def test_read_warc_equals_cli_json_on_every_sample(pith_bin, warc_files):
    records = 0
    for path in warc_files:
        out, _ = cli(pith_bin, "--format", "json", path)
        lines = list(pith.read_warc(path, raw=True))
        assert "".join(lines).encode("utf-8") == out, f"{path.name}: read_warc differs"
        # The dicts are exactly the CLI's objects, fields in the CLI's order.
        dicts = list(pith.read_warc(str(path)))
        parsed = [json.loads(x) for x in out.decode("utf-8").splitlines()]
        assert [list(d.items()) for d in dicts] == [list(d.items()) for d in parsed], path.name
        records += len(dicts)
    assert records >= 100, f"only {records} records in the samples"


def test_read_warc_markdown_equals_cli_json_markdown(pith_bin, warc_files):
    for path in warc_files[:8]:
        out, _ = cli(pith_bin, "--format", "json-markdown", "--comments", path)
        got = "".join(pith.read_warc(path, format="markdown", comments=True, raw=True))
        assert got.encode("utf-8") == out, f"{path.name}: markdown records differ"


def test_read_warc_from_a_file_object_equals_the_path(warc_files):
    for path in warc_files:
        from_path = list(pith.read_warc(str(path), raw=True))
        with open(str(path), "rb") as f:
            from_file = list(pith.read_warc(f, raw=True))
        assert from_file == from_path, path.name
        # An in-memory stream without a name reads the same records.
        from_bytes = list(pith.read_warc(io.BytesIO(path.read_bytes())))
        assert [d.get("text") for d in from_bytes] == [
            json.loads(x).get("text") for x in from_path
        ], path.name


def test_read_warc_gives_one_record_per_manifest_html_response(warc_files):
    """One record per HTML 200 response, as MANIFEST.json counts them (faults included: the
    431 MB record over --max-record-bytes and the clipped one are records with an error)."""
    manifest = json.loads((warc_files[0].parent.parent / "MANIFEST.json").read_text())
    by_name = {m["file"].rsplit("/", 1)[-1]: m for m in manifest}
    for path in warc_files:
        records = list(pith.read_warc(path))
        assert len(records) == by_name[path.name]["html_responses"], path.name
        for r in records:
            assert r["id"] is None or r["id"].startswith("<"), r["id"]
