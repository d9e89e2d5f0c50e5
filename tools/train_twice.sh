#!/usr/bin/env bash
# `just train` is deterministic: the page and block tables written by PITH_LAB (default
# target/debug/pith-lab) from ../shared/data, then lab/train/page_model.py and
# lab/train/train.py --model each run twice on them; every file the two runs write (the model
# files, the text model's weights, the trainers' predictions and the report) must be the
# same bytes. Needs ../shared/data and PyPI (the pinned trainer in target/train-venv).
#
# Usage: tools/train_twice.sh [PITH_LAB] [--sample K]
#
# --sample K trains both runs on one page in K (a page is kept when the SHA-1 of its set and
# name is 0 mod K; its blocks go with it). The trainers run the same code on fewer rows, so a
# source of run-to-run difference (an unseeded draw, an order taken from a hash set, a
# reduction that depends on thread timing) shows there as well. .ci/run uses --sample 4, in
# about a quarter of the full check's 14 minutes on 2 cores; run it without --sample after a
# change to the trainers.
set -euo pipefail
cd "$(dirname "$0")/.."
lab=target/debug/pith-lab
sample=1
while [ $# -gt 0 ]; do
  case $1 in
    --sample) sample=${2:?--sample needs K}; shift 2 ;;
    *) lab=$1; shift ;;
  esac
done
data=../shared/data
sets=(scrapinghub cleaneval_final dragnet l3s_gn1 wcxb_dev wcxb_train)
# The block table also labels trafilatura_eval's blocks by its snippet gold.
block_sets=("${sets[@]}" trafilatura_eval)
for s in "${block_sets[@]}"; do
  [ -d "$data/$s" ] || { echo "train_twice: $data/$s is missing" >&2; exit 1; }
done
out=target/train-twice
rm -rf "$out"
mkdir -p "$out/1" "$out/2"
"$lab" pages "${sets[@]/#/$data/}" > "$out/pages.tsv" 2> "$out/pages.log"
"$lab" blocks "${block_sets[@]/#/$data/}" --label-share --pages "$out/blocks.jsonl" > "$out/blocks.tsv" 2> "$out/blocks.log"
if [ "$sample" != 1 ]; then
  python3 tools/sample_pages.py "$sample" "$out/pages.tsv" "$out/blocks.tsv" "$out/blocks.jsonl"
fi
test -x target/train-venv/bin/python || python3 -m venv target/train-venv
target/train-venv/bin/pip install -q -r lab/train/requirements.txt
for run in 1 2; do
  target/train-venv/bin/python lab/train/page_model.py "$out/pages.tsv" \
    --model "$out/$run/page.model" --words "$out/$run/words.bin" \
    --predictions "$out/$run/page_predictions.tsv" --report "$out/$run/MODEL.md" \
    > /dev/null 2> "$out/$run/log"
  target/train-venv/bin/python lab/train/train.py "$out/blocks.tsv" "$out/blocks.jsonl" \
    --model "$out/$run/block.model" --predictions "$out/$run/block_predictions.tsv" \
    > /dev/null 2> "$out/$run/block_log"
done
for f in page.model words.bin page_predictions.tsv MODEL.md block.model block_predictions.tsv; do
  cmp "$out/1/$f" "$out/2/$f"
done
echo "train_twice: one page in $sample: two runs of each trainer wrote the same bytes ($(wc -c < "$out/1/words.bin") + $(wc -c < "$out/1/page.model") bytes of page models, $(wc -c < "$out/1/block.model") of block model)"
