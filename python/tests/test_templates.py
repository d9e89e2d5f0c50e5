"""Site templates: pith.Templates and templates= give what `pith --templates STORE --url URL`
prints, byte for byte, on msv_big9 pages (a store learned by the CLI from one site-year)."""

import json
import shutil
import subprocess

import pith
import pytest
from conftest import shared_dir

SITE = "www.cnn.com"
URL = "http://www.cnn.com/2005/page.html"


def run(pith_bin, *args):
    r = subprocess.run([pith_bin, *map(str, args)], capture_output=True)
    return r.stdout, r.stderr.decode("utf-8", "replace")


@pytest.fixture(scope="module")
def site():
    """The site's pages by year (the store is learned from 2005; other years fall back)."""
    d = shared_dir("msv_big9", SITE)
    return {y: sorted((d / y / "html").iterdir()) for y in ["2005", "2015"]}


@pytest.fixture(scope="module")
def store(pith_bin, site, tmp_path_factory):
    """A store learned by `pith learn` from the site's 2005 pages."""
    dir = tmp_path_factory.mktemp("templates") / "store"
    _, err = run(pith_bin, "learn", "--host", SITE, "-o", dir, *site["2005"])
    assert (dir / f"{SITE}.tpl").is_file(), err
    return dir


def cli_json(pith_bin, store, url, files):
    """The CLI's JSON line for each file, from one run (`--url` applies to every plain page)."""
    out, err = run(pith_bin, "-j", "2", "--templates", store, "--url", url, "--format", "json", *files)
    lines = out.decode("utf-8").splitlines(keepends=True)
    assert len(lines) == len(files), err
    return lines


def test_templates_equal_the_cli(pith_bin, site, store):
    t = pith.Templates(store)
    files = site["2005"] + site["2015"]
    algos = set()
    for url in [URL, "http://news.bbc.co.uk/x"]:  # a learned host, and one the store lacks
        want = cli_json(pith_bin, store, url, files)
        for path, line in zip(files, want):
            got = list(pith.read_warc(path, templates=t, url=url, raw=True))
            assert got == [line], f"{path}: read_warc with templates differs from the CLI"
            record = json.loads(line)
            algos.add(record["algo"])
            text = pith.extract(path.read_bytes(), url=url, templates=t)
            assert text == record["text"], f"{path}: extract with templates differs"
        # Text output too (several pages come out separated by a form-feed line).
        out, _ = run(pith_bin, "-j", "2", "--templates", store, "--url", url, *files)
        texts = [pith.extract(p.read_bytes(), url=url, templates=t) for p in files]
        assert out.decode("utf-8") == "\x0c\n".join(x for x in texts if x), url
    # Both ways ran: FastCE on the learned layout, the fallback (the default, model) elsewhere.
    assert algos == {"fastce+auto", "model"}, algos


def test_the_template_is_used(site, store):
    t = pith.Templates(store)
    pages = [p.read_bytes() for p in site["2005"]]
    with_t = [pith.extract(p, url=URL, templates=t) for p in pages]
    assert with_t != [pith.extract(p) for p in pages], "FastCE gave what auto gives everywhere"
    # No URL, no template (as the CLI without --url).
    assert [pith.extract(p, templates=t) for p in pages] == [pith.extract(p) for p in pages]
    # extract_many: the same, one URL per page, on threads.
    urls = [URL] * len(pages)
    assert pith.extract_many(pages, threads=2, templates=t, urls=urls) == with_t
    assert pith.extract_many(pages, threads=1, templates=t, urls=urls) == with_t
    with pytest.raises(ValueError, match="urls for"):
        pith.extract_many(pages, templates=t, urls=urls[1:])


def test_a_bad_template_dir_is_the_clis_error(pith_bin, tmp_path):
    for bad in [tmp_path / "missing", tmp_path / "a-file"]:
        if bad.name == "a-file":
            bad.write_text("not a store")
        _, err = run(pith_bin, "--templates", bad, "--url", URL, bad)
        with pytest.raises(pith.PithError) as e:
            pith.Templates(bad)
        # The library's message; the CLI adds the flag it came from.
        assert str(e.value) in err.strip(), (e.value, err)
        assert err.startswith("pith: --templates ")
        assert "not a directory" in str(e.value)
    with pytest.raises(TypeError):
        pith.extract(b"<p>x</p>", templates=str(tmp_path))


def test_a_corrupt_template_falls_back_as_the_cli_does(pith_bin, site, store, tmp_path):
    bad = tmp_path / "store"
    shutil.copytree(store, bad)
    tpl = bad / f"{SITE}.tpl"
    tpl.write_bytes(tpl.read_bytes()[:100])  # truncated
    want = cli_json(pith_bin, bad, URL, site["2005"])
    t = pith.Templates(bad)
    for path, line in zip(site["2005"], want):
        assert list(pith.read_warc(path, templates=t, url=URL, raw=True)) == [line]
        assert json.loads(line)["algo"] == "model"
