"""Main text of WARC files on Spark, written as JSON lines: pith's records, one per HTML page.

Two ways, the same documents (a test checks both against the CLI):

  --mode module  each task reads its WARC files with the Python module (mapPartitions over
                 pith.read_warc); needs the wheel installed where the executors run.
  --mode pipe    each task pipes its file names to the pith binary (rdd.pipe), which needs
                 only the binary on the executors' PATH (or --pith /path/to/pith).

    spark-submit --master 'local[2]' python/examples/spark_warc.py --mode module --out docs/ *.warc.gz

A WARC file is the unit of work (one task per file), read where it lies: a path every executor
sees (a shared file system) or, in module mode, a URL fsspec opens (s3://, hdfs://, ...).
Every record stays in its file's task, in file order.
"""

import argparse
import shlex


def module_partition(paths):
    """mapPartitions: the JSON lines of every WARC file of this partition (runs on executors)."""
    import pith

    for path in paths:
        if "://" in path:
            # s3://, hdfs://, gs://...: opened with fsspec (and its filesystem package) as a
            # binary file object, which read_warc streams from.
            import fsspec

            with fsspec.open(path, "rb") as f:
                yield from (line.rstrip("\n") for line in pith.read_warc(f, raw=True))
        else:
            yield from (line.rstrip("\n") for line in pith.read_warc(path, raw=True))


def pipe_command(pith_bin="pith"):
    """rdd.pipe's command. pipe() writes each element as one line on the command's stdin, and a
    WARC is bytes, not a line: so the elements are file names, and xargs hands them to pith
    (-r: a partition with no file runs nothing; -j 1: Spark already runs one task per core).
    pith exits 1 when its files gave no page (a WET file, a crawl of PDFs): for a partition that
    is no failure, so status 1 passes and any other fails the task (checkCode)."""
    pith = shlex.quote(pith_bin)
    return f"xargs -r -d '\\n' sh -c '\"$0\" -j 1 --format json \"$@\"; s=$?; [ $s -le 1 ]' {pith}"


def documents(sc, paths, mode="module", pith_bin="pith"):
    """An RDD of JSON lines (str), one per HTML record of `paths`, as `pith --format json`."""
    files = sc.parallelize(list(paths), numSlices=max(1, len(paths)))
    if mode == "module":
        return files.mapPartitions(module_partition)
    if mode == "pipe":
        return files.pipe(pipe_command(pith_bin), checkCode=True)
    raise ValueError(f"unknown mode `{mode}` (one of: module, pipe)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("warcs", nargs="+", help="WARC files (plain or .gz), as paths the executors see")
    ap.add_argument("--out", required=True, help="output folder (Spark writes part-NNNNN files)")
    ap.add_argument("--mode", choices=["module", "pipe"], default="module")
    ap.add_argument("--pith", default="pith", help="the pith binary, for --mode pipe")
    args = ap.parse_args()

    from pyspark.sql import SparkSession

    spark = SparkSession.builder.appName("pith-warc").getOrCreate()
    documents(spark.sparkContext, args.warcs, args.mode, args.pith).saveAsTextFile(args.out)
    spark.stop()


if __name__ == "__main__":
    main()
