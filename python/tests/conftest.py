"""Shared fixtures: the repository's pith binary (the CLI the module must equal) and ../shared.

The binary is PITH_BIN when set, else `cargo build -p pith-cli` in the repository root (an
incremental no-op when it is built), so the module is always compared with the CLI of the same
source tree. Tests that read ../shared/data skip with the reason when it is absent.
"""

import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared" / "data"
GOLD_SETS = ["cleaneval_final", "dragnet", "l3s_gn1", "scrapinghub", "trafilatura_eval", "wcxb_dev"]


@pytest.fixture(scope="session")
def pith_bin():
    env = os.environ.get("PITH_BIN")
    if env:
        return env
    subprocess.run(
        ["cargo", "build", "--quiet", "-p", "pith-cli"], cwd=REPO, check=True
    )
    return str(REPO / "target" / "debug" / "pith")


def shared_dir(*parts):
    """A folder of ../shared/data, or a skip naming what is missing."""
    d = SHARED.joinpath(*parts)
    if not d.is_dir():
        pytest.skip(f"{d} is absent (the shared data sets live beside the repository)")
    return d


@pytest.fixture(scope="session")
def warc_files():
    d = shared_dir("warc_samples", "files")
    files = sorted(p for p in d.iterdir() if p.is_file())
    assert len(files) >= 20, f"expected the WARC samples in {d}"
    return files


@pytest.fixture(scope="session")
def gold_pages():
    """Every HTML page of the six gold sets, by set."""
    pages = {}
    for name in GOLD_SETS:
        d = SHARED / name / "html"
        if d.is_dir():
            pages[name] = sorted(p for p in d.iterdir() if p.is_file())
    if not pages:
        pytest.skip(f"no gold sets under {SHARED}")
    return pages
