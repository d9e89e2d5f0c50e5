//! The pipeline's serial cost per record (`pith::pipeline::run` in-process, under the binary's
//! allocator) for each framing of `benches/inputs/mod.rs` (every page of `../shared/data/*/html`
//! as a plain WARC, a WARC with one gzip member per record, a whole-file gzip WARC and JSON
//! lines): a run with two workers that drop every record unread (no inflating, parsing or
//! extraction), which times the reader, the hand-offs and the writer; and a run with one
//! worker that extracts, JSON out. One worker's time per record is the `-j 1` time less the
//! serial time, and the core count at which the serial part saturates is `ceiling = serial
//! records/s / one worker's records/s`. Ratios come from one run. The `pith` binary on the same
//! files at `-j 1` and `-j 2` is `cli/benches/warc.rs`.

use std::path::Path;

#[path = "inputs/mod.rs"]
mod inputs;

use inputs::median;

// The binary's allocator (`cli/src/main.rs`), so that a worker costs here what it costs there.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let Some(inputs) = inputs::prepare("../shared/data", "pipeline") else {
        return;
    };
    let records = inputs.records as f64;
    println!("| input | MB | -j 1 records/s | serial records/s | ceiling (workers) |");
    println!("|---|---|---|---|---|");
    for (name, path, file_mb) in &inputs.files {
        let j1 = median(|| run(path, 1, false));
        let serial = median(|| run(path, 2, true));
        // One worker's time per record: a -j 1 run's, less what the serial part takes.
        let worker = (j1 - serial).max(f64::EPSILON);
        println!(
            "| {name} | {file_mb:.1} | {:.0} | {:.0} | {:.1} |",
            records / j1,
            records / serial,
            worker / serial,
        );
    }
}

/// The pipeline over `path` with `jobs` workers, JSON output to nowhere (with its metadata,
/// as `pith --format json` sets it up); with `serial`, the workers drop every record unread.
fn run(path: &Path, jobs: usize, serial: bool) {
    let mut config = pith::pipeline::Config::new(
        vec![path.to_string_lossy().into_owned()],
        pith::Options::default().with_metadata(true),
    );
    config.json = true;
    config.jobs = jobs;
    let config = if serial {
        pith::lab::skip_extraction(config)
    } else {
        config
    };
    let sum = pith::pipeline::run(&config, &mut std::io::sink(), &|_| {});
    assert_eq!(sum.opened, 1);
}
