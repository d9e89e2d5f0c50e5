"""Shared fixtures: the repository's pith binary (the CLI the module must equal) and ../shared.

The binary is PITH_BIN when set, else `cargo build -p pith-cli` in the repository root (an
incremental no-op when it is built), so the module is always compared with the CLI of the same
source tree. Tests that read ../shared/data (or the `data` of the folder PITH_SHARED_DIR names,
relative to the repository) skip with the reason when it is absent, and fail instead when
PITH_REQUIRE_SHARED=1 (as .ci/run sets): a test never passes without its data.
"""

import importlib.util
import os
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
SHARED = REPO / os.environ.get("PITH_SHARED_DIR", "../shared") / "data"
REQUIRE_SHARED = os.environ.get("PITH_REQUIRE_SHARED") == "1"
GOLD_SETS = ["cleaneval_final", "dragnet", "l3s_gn1", "scrapinghub", "trafilatura_eval", "wcxb_dev"]


@pytest.fixture(scope="session")
def load_example():
    """A loader of python/examples/NAME.py as module NAME, put in sys.modules so that the
    functions a pipeline pickles by reference to their module are found."""

    def load(name):
        spec = importlib.util.spec_from_file_location(name, REPO / "python" / "examples" / f"{name}.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
        return mod

    return load


@pytest.fixture(scope="session")
def pith_bin():
    env = os.environ.get("PITH_BIN")
    if env:
        return env
    subprocess.run(
        ["cargo", "build", "--quiet", "-p", "pith-cli"], cwd=REPO, check=True
    )
    return str(REPO / "target" / "debug" / "pith")


def missing_data(what):
    """Skips the test, or fails it under PITH_REQUIRE_SHARED=1, naming the missing data."""
    reason = f"{what} is absent (the shared data sets live beside the repository)"
    if REQUIRE_SHARED:
        pytest.fail(f"{reason}; PITH_REQUIRE_SHARED=1 requires it", pytrace=False)
    pytest.skip(reason)


def shared_dir(*parts):
    """A folder of ../shared/data, or a skip (a failure under PITH_REQUIRE_SHARED=1) naming what
    is missing."""
    d = SHARED.joinpath(*parts)
    if not d.is_dir():
        missing_data(d)
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
    return {
        name: sorted(p for p in shared_dir(name, "html").iterdir() if p.is_file())
        for name in GOLD_SETS
    }
