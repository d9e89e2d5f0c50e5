"""python/examples/spark_warc.py in Spark local[2] mode, both ways, over every WARC sample: the
documents equal the CLI's, sorted by record id."""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

pytest.importorskip("pyspark", reason="pyspark is not installed (pip install pyspark)")
if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    pytest.skip("Spark needs Java: no java on PATH and no JAVA_HOME", allow_module_level=True)

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "spark_warc.py"


@pytest.fixture(scope="module")
def example(load_example):
    return load_example("spark_warc")


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    # The executors' Python is this one, which has the wheel installed.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    s = (
        SparkSession.builder.master("local[2]")
        .appName("pith-test")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", "1g")
        .getOrCreate()
    )
    # The example's functions travel by reference to its module: ship the file with the tasks.
    s.sparkContext.addPyFile(str(EXAMPLE))
    yield s
    s.stop()


def by_id(lines):
    import json

    return sorted(lines, key=lambda line: (json.loads(line).get("id") or "", line))


@pytest.mark.parametrize("mode", ["module", "pipe"])
def test_spark_documents_equal_the_cli(example, spark, pith_bin, warc_files, mode):
    paths = [str(p) for p in warc_files]
    cli = subprocess.run(
        [pith_bin, "-j", "1", "--format", "json", *paths], capture_output=True, check=True
    ).stdout.decode("utf-8")
    expected = by_id(cli.splitlines())
    got = example.documents(spark.sparkContext, paths, mode=mode, pith_bin=pith_bin).collect()
    assert len(got) == len(expected) >= 290
    assert by_id(got) == expected


def test_spark_main_writes_json_lines(tmp_path, example, pith_bin, warc_files):
    """The script as spark-submit runs it (here with python and local[2])."""
    out = tmp_path / "docs"
    paths = [str(p) for p in warc_files if p.name.startswith("cc-main-2020-34")]
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYSPARK_SUBMIT_ARGS="--master local[2] pyspark-shell")
    subprocess.run(
        [sys.executable, str(EXAMPLE), "--mode", "pipe", "--pith", pith_bin, "--out", str(out), *paths],
        check=True,
        env=env,
        capture_output=True,
    )
    lines = [line for f in sorted(out.glob("part-*")) for line in f.read_text().splitlines()]
    assert len(lines) == 32  # 16 HTML responses in each of the two copies of the excerpt


def test_spark_module_reads_urls_through_fsspec(example, spark, pith_bin, warc_files):
    pytest.importorskip("fsspec", reason="fsspec opens URLs (pip install fsspec)")
    paths = [p for p in warc_files if p.name.startswith(("cc-main-2020-34", "clueweb09"))]
    cli = subprocess.run(
        [pith_bin, "-j", "1", "--format", "json", *map(str, paths)], capture_output=True, check=True
    ).stdout.decode("utf-8")
    urls = [p.as_uri() for p in paths]
    got = example.documents(spark.sparkContext, urls, mode="module").collect()
    assert len(got) == 16 + 16 + 29
    assert by_id(got) == by_id(cli.splitlines())
