//! Records in, JSON lines out: records/s and MB/s of the `pith` binary at `-j 1` and `-j 2`
//! for each framing (plain WARC, WARC with one gzip member per record, whole-file gzip WARC,
//! JSON lines), built from every page of `../shared/data/*/html` (`benches/inputs/mod.rs`,
//! written to `target/tmp/`, never committed). Ratios come from one run; MB/s are of HTML.
//! The pipeline's serial cost per record and the core count at which it saturates are the
//! library's bench (`benches/pipeline.rs`, `just bench-warc` runs both).

use std::process::{Command, Stdio};

#[path = "../../benches/inputs/mod.rs"]
mod inputs;

use inputs::median;

fn main() {
    let Some(inputs) = inputs::prepare("../../shared/data", "WARC") else {
        return;
    };
    let records = inputs.records as f64;
    println!("| input | MB | -j 1 records/s | -j 2 records/s | -j 2 / -j 1 | -j 1 MB/s |");
    println!("|---|---|---|---|---|---|");
    for (name, path, file_mb) in &inputs.files {
        let run = |jobs: &str| {
            median(|| {
                let status = Command::new(env!("CARGO_BIN_EXE_pith"))
                    .args(["--format", "json", "-j", jobs])
                    .arg(path)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status();
                assert!(status.is_ok_and(|s| s.success()));
            })
        };
        let j1 = run("1");
        let j2 = run("2");
        println!(
            "| {name} | {file_mb:.1} | {:.0} | {:.0} | {:.2} | {:.0} |",
            records / j1,
            records / j2,
            j1 / j2,
            inputs.mb / j1,
        );
    }
}
