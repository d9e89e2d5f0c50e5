# pith's recipes. `just --list` shows them. Everything reads ../shared when present and
# skips cleanly otherwise.

# Run the tests (the same command .ci/run uses).
test:
    cargo test

# Every test of the workspace, the lab's too (as CI runs them).
test-all:
    cargo test --workspace

# Extract the main text of the sample page in tests/.
run page="tests/pages/article.html":
    cargo run --release -p pith-cli -- {{page}}

# Throughput of tl::parse, the tree and every algorithm, as ratios in one run; then WARC in,
# JSON out at -j 1 and -j 2, and the pipeline's serial part alone.
bench:
    cargo bench --bench throughput
    cargo bench -p pith-cli --bench warc
    cargo bench --bench pipeline

# WARC in, JSON out through the binary at -j 1 and -j 2 (cli/benches/warc.rs), then the
# pipeline's serial part (reader, hand-offs, writer) and one worker in-process, and the core
# count where the serial part saturates (benches/pipeline.rs); each builds its WARCs and JSON
# lines from ../shared/data into target/tmp/.
bench-warc:
    cargo bench -p pith-cli --bench warc
    cargo bench --bench pipeline

# Formatting and lints, as CI wants them.
lint:
    cargo fmt --all --check
    cargo clippy --workspace --all-targets -- -D warnings

# Accuracy of every algorithm on every gold set in ../shared/data, beside the peers;
# writes eval/RESULTS.md.
eval:
    cargo build --release --workspace
    python3 eval/report.py target/release/pith

# HTML evaluation reports (pith explain views of the worst pages included), one per gold set
# in ../shared/data, pith's algorithms beside the peers' saved outputs; into target/eval-html/.
eval-html:
    cargo build --release --workspace
    mkdir -p target/eval-html
    for d in ../shared/data/*/; do s=$(basename "$d"); [ -d "$d/gold" ] || continue; preds=""; for p in ../shared/peers/"$s"/*/; do [ -d "$p" ] && [ "$(basename "$p")" != runs ] && preds="$preds --pred $p"; done; target/release/pith eval "$d" --algo auto --algo danag $preds --html "target/eval-html/$s.html" > /dev/null && echo "target/eval-html/$s.html"; done

# Site templates on ../shared/data/msv_big9: CE, FastCE, auto and danag, same-year
# leave-one-out and cross-year (the README's Tables II-IV); then FastCE's speed against auto.
eval-sites:
    cargo build --release --workspace
    ./target/release/pith-lab eval-sites ../shared/data/msv_big9 --markdown eval/SITES.md
    cargo bench --bench templates

# Template families: TEXT-MDL clustering of all msv_big9 pages mixed (purity, NMI,
# ARI against sites and site-years, time; eval/CLUSTERS.md), FastCE with one template against
# one per cluster (same-year, cross-year, pooled years: the last table of eval/SITES.md), then
# clustering 1,250-10,000 generated pages of one host (time, near-linear); then the paper's two
# detectors (`just eval-detectors`) and link-based templates (`just eval-links`).
eval-templates: && eval-detectors eval-links
    cargo build --release --workspace
    if [ -d ../shared/data/msv_big9 ]; then ./target/release/pith-lab eval-clusters ../shared/data/msv_big9 --markdown eval/CLUSTERS.md && ./target/release/pith-lab eval-sites ../shared/data/msv_big9 --markdown eval/SITES.md; else echo "skipping msv_big9: ../shared/data/msv_big9 is absent"; fi
    cargo run --release -p pith-lab --example cluster_scale

# Pages/s from one Python process: pith.extract vs trafilatura and Resiliparse on one core,
# extract_many at 1 and 2 threads (builds the wheel and the CLI in release; a venv in
# target/bench-venv with the peers from PyPI).
bench-python:
    cargo build --release -p pith-cli
    test -x target/bench-venv/bin/python || python3 -m venv target/bench-venv
    target/bench-venv/bin/pip install -q maturin==1.16.0 trafilatura==2.3.1 lxml_html_clean==0.4.6 resiliparse==2.0.1
    target/bench-venv/bin/maturin build --release -m python/Cargo.toml -o target/wheels
    target/bench-venv/bin/pip install -q --force-reinstall --no-deps target/wheels/pith-*.whl
    target/bench-venv/bin/python python/bench/bench.py --pith-bin target/release/pith

# Builds the CLI in release and a venv in target/bench-venv with resiliparse from PyPI; then the
# pith CLI (its default, `--algo auto` and `--algo model`), a whole process on one core, against
# Resiliparse in-process on the same core over wcxb_dev and wcxb_train, best of interleaved passes
# (tools/speed_vs_resiliparse.py says how and why; ARGS go to it, e.g. `--passes 5`).
# Issue 42's check: the default's pages/s against Resiliparse's, on one core.
bench-resiliparse *args:
    cargo build --release -p pith-cli
    test -x target/bench-venv/bin/python || python3 -m venv target/bench-venv
    target/bench-venv/bin/pip install -q resiliparse==2.0.1
    target/bench-venv/bin/python tools/speed_vs_resiliparse.py --pith-bin target/release/pith {{args}}

# Run one fuzz target for SECONDS (targets: parse, extract, differential, warc, compressed, jsonl, damage,
# charset, template) on the stable toolchain with AddressSanitizer; needs `cargo install cargo-fuzz`
# once. Builds the seed corpus from ../shared/data first if there is none. Crashes land in
# fuzz/artifacts/TARGET/; each becomes a regression test under tests/ before its fix.
fuzz target="parse" seconds="60":
    test -d fuzz/corpus/{{target}} || python3 fuzz/seeds.py
    mkdir -p fuzz/corpus/{{target}}
    cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run --sanitizer address {{target}} corpus/{{target}} -- -max_total_time={{seconds}} -dict=html_warc.dict -max_len=65536 -timeout=10 -rss_limit_mb=4096 -print_final_stats=1

# (Re)build every fuzz seed corpus from ../shared/data (fuzz/corpus/, not committed).
fuzz-seeds:
    python3 fuzz/seeds.py

# The hostile-input limits at full size (a million-deep nesting, 200 MB pages, 100 MB lines,
# gzip bombs, lying lengths), three sizes each: CPU time, its ratio per doubling, peak RSS.
hostile *cases:
    cargo build --release --workspace
    cargo run --release -p pith-lab --example hostile -- {{cases}}

# The paper's two template detectors (tmpl-dom, tmpl-text) on ../shared/data/msv_big9, same-year
# leave-one-out and across years, beside auto (writes eval/DETECTORS.md).
eval-detectors:
    cargo build --release --workspace
    if [ -d ../shared/data/msv_big9 ]; then ./target/release/pith-lab eval-detectors ../shared/data/msv_big9 --markdown eval/DETECTORS.md; else echo "skipping: ../shared/data/msv_big9 is absent"; fi

# Link-based site templates: node-level P/R/F1 on generated sites, then every HTML page of the
# WARC samples as key page (writes eval/LINKS.md).
eval-links:
    cargo build --release --workspace
    ./target/release/pith-lab eval-links ../shared/data/warc_samples/files/*.warc* --markdown eval/LINKS.md

# The shipped models, trained from every text set in ../shared/data with LightGBM
# (target/train-venv, versions pinned in lab/train/requirements.txt); deterministic: a re-run
# writes the same bytes. About 3 minutes on 2 cores after the build.
# - The page models of JSON output (`page_type`, `confidence`): the page table of `pith-lab
#   pages`, host-grouped 5-fold CV on wcxb_train; writes src/page/model/page.model (the forests,
#   a model file), src/page/model/words.bin (the text model's weights),
#   lab/train/page_predictions.tsv (checked by tests/it/page_model.rs) and eval/MODEL.md.
# - The block model of `--algo model` (docs/model.md): the block table of `pith-lab blocks`
#   (the six text sets, and trafilatura_eval's blocks labelled by its snippets),
#   trained on every block with its thresholds from an inner host-grouped CV; writes
#   src/extract/learned/block.model and lab/train/block_predictions.tsv (checked by
#   tests/it/block_model.rs). Its cross-validated figures are `just train-lab`'s.
train:
    cargo build --release -p pith-lab
    mkdir -p target/pages target/blocks
    ./target/release/pith-lab pages ../shared/data/scrapinghub ../shared/data/cleaneval_final ../shared/data/dragnet ../shared/data/l3s_gn1 ../shared/data/wcxb_dev ../shared/data/wcxb_train > target/pages/pages.tsv
    test -x target/train-venv/bin/python || python3 -m venv target/train-venv
    target/train-venv/bin/pip install -q -r lab/train/requirements.txt
    target/train-venv/bin/python lab/train/page_model.py target/pages/pages.tsv --model src/page/model/page.model --words src/page/model/words.bin --predictions lab/train/page_predictions.tsv --report eval/MODEL.md
    ./target/release/pith-lab blocks ../shared/data/scrapinghub ../shared/data/cleaneval_final ../shared/data/dragnet ../shared/data/l3s_gn1 ../shared/data/wcxb_dev ../shared/data/wcxb_train ../shared/data/trafilatura_eval --label-share --pages target/blocks/pages.jsonl --peers ../shared/peers > target/blocks/blocks.tsv
    target/train-venv/bin/python lab/train/train.py target/blocks/blocks.tsv target/blocks/pages.jsonl --model src/extract/learned/block.model --predictions lab/train/block_predictions.tsv

# What each rule of `auto` is worth on pages no rule was written for: every gold page's F1 with
# each rule switched off in turn (target/rules/rules.tsv, 10 s), then the test each rule is held
# to, per set, per fold and per page type (docs/rules.md quotes it).
rules:
    cargo build --release -p pith-lab
    mkdir -p target/rules
    ./target/release/pith-lab rules ../shared/data/scrapinghub ../shared/data/cleaneval_final ../shared/data/dragnet ../shared/data/l3s_gn1 ../shared/data/trafilatura_eval ../shared/data/wcxb_dev ../shared/data/wcxb_train --comments dragnet > target/rules/rules.tsv
    test -x target/train-venv/bin/python || python3 -m venv target/train-venv
    target/train-venv/bin/pip install -q -r lab/train/requirements.txt
    target/train-venv/bin/python lab/train/rules.py target/rules/rules.tsv

# The block model of `--algo model` on pages it was not trained on: the block table of the six
# text sets and trafilatura_eval's snippet-labelled blocks (target/blocks/), then LightGBM
# under host-grouped 5-fold CV on wcxb_train and leave-one-set-out over the six text sets,
# scoring the model (as `--algo model` selects: auto's selection when no block reaches the
# threshold), `auto` and trafilatura with one scorer, the library's (pith-lab blocks counts the
# tokens and scores `auto` and the peers' saved outputs), per set and per page type; writes
# eval/BLOCK_MODEL.md and target/train/per_page.tsv, then the paired model − auto differences
# with host-bootstrap intervals (docs/model.md quotes both). 4 to 17 minutes on 2 cores,
# depending on the machine's load.
train-lab:
    cargo build --release -p pith-lab
    mkdir -p target/blocks
    ./target/release/pith-lab blocks ../shared/data/scrapinghub ../shared/data/cleaneval_final ../shared/data/dragnet ../shared/data/l3s_gn1 ../shared/data/wcxb_dev ../shared/data/wcxb_train ../shared/data/trafilatura_eval --label-share --pages target/blocks/pages.jsonl --peers ../shared/peers > target/blocks/blocks.tsv
    test -x target/train-venv/bin/python || python3 -m venv target/train-venv
    target/train-venv/bin/pip install -q -r lab/train/requirements.txt
    target/train-venv/bin/python lab/train/train.py target/blocks/blocks.tsv target/blocks/pages.jsonl --out target/train --report eval/BLOCK_MODEL.md
    target/train-venv/bin/python lab/train/compare.py target/train/per_page.tsv
