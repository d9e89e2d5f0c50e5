"""WARC files to JSON lines of main text with datatrove, pith in place of its Trafilatura step.

    pip install target/wheels/pith-*.whl datatrove warcio faust-cchardet python-magic
    python python/examples/datatrove_pipeline.py CRAWL_DIR OUT_DIR --tasks 4 --workers 2

Every `*.warc*` file under CRAWL_DIR (or --glob) is read by datatrove's WarcReader (warcio), each HTML
response goes through `pith.datatrove.PithExtractor`, and the documents with text are written
by JsonlWriter to OUT_DIR/<rank>.jsonl. The same pipeline runs on Slurm by swapping
LocalPipelineExecutor for SlurmPipelineExecutor.
"""

import argparse

from datatrove.executor import LocalPipelineExecutor
from datatrove.pipeline.readers import WarcReader
from datatrove.pipeline.writers import JsonlWriter

from pith.datatrove import PithExtractor, PithWarcReader


def pipeline(crawl_dir, out_dir, glob="*.warc*", reader="warcio", **extractor):
    """Read WARC records, extract with pith, write JSON lines. reader="pith" reads and extracts
    in one step with PithWarcReader (no warcio, and broken records do not stop the task)."""
    writer = JsonlWriter(out_dir, output_filename="${rank}.jsonl", compression=None)
    if reader == "pith":
        return [PithWarcReader(crawl_dir, glob_pattern=glob, **extractor), writer]
    return [WarcReader(crawl_dir, glob_pattern=glob), PithExtractor(**extractor), writer]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("crawl_dir")
    ap.add_argument("out_dir")
    ap.add_argument("--glob", default="*.warc*", help="which files of CRAWL_DIR (default *.warc*)")
    ap.add_argument("--reader", choices=["warcio", "pith"], default="warcio",
                    help="warcio: datatrove's WarcReader then PithExtractor; pith: PithWarcReader")
    ap.add_argument("--tasks", type=int, default=1, help="shards of the input files")
    ap.add_argument("--workers", type=int, default=-1, help="processes at once (-1: tasks)")
    ap.add_argument("--logs", default="datatrove-logs", help="datatrove's logging folder")
    args = ap.parse_args()
    LocalPipelineExecutor(
        pipeline=pipeline(args.crawl_dir, args.out_dir, args.glob, args.reader),
        tasks=args.tasks,
        workers=args.workers,
        logging_dir=args.logs,
    ).run()


if __name__ == "__main__":
    main()
