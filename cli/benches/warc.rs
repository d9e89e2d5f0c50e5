//! Records in, JSON lines out: records/s and MB/s of the `pith` binary at `-j 1` and `-j 2`
//! for each framing (plain WARC, WARC with one gzip member per record, whole-file gzip WARC,
//! JSON lines), built from every page of `../shared/data/*/html` (written to `target/tmp/`,
//! never committed), and the pipeline's serial cost per record: a run with two workers that
//! drop every record unread (no inflating, parsing or extraction), which times the reader,
//! the hand-offs and the writer. The core count at which that serial part saturates is
//! `ceiling = serial records/s / one worker's records/s`, one worker's time per record being
//! the `-j 1` time less the serial time. Ratios come from one run; MB/s are of HTML.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use flate2::Compression;
use flate2::write::GzEncoder;

const PASSES: usize = 3;

fn main() {
    let Ok(sets) = std::fs::read_dir("../../shared/data") else {
        println!("skipping WARC bench: ../shared/data not found");
        return;
    };
    let mut pages: Vec<Vec<u8>> = Vec::new();
    for set in sets.filter_map(|e| e.ok()) {
        if let Ok(files) = std::fs::read_dir(set.path().join("html")) {
            let mut paths: Vec<_> = files.filter_map(|e| e.ok().map(|e| e.path())).collect();
            paths.sort();
            // WCXB ships its pages gzipped (`<id>.html.gz`): inflated, they are pages like
            // the rest, not binary records.
            pages.extend(paths.iter().filter_map(|p| {
                let bytes = std::fs::read(p).ok()?;
                if p.extension().is_some_and(|e| e == "gz") {
                    let mut out = Vec::new();
                    std::io::Read::read_to_end(
                        &mut flate2::read::MultiGzDecoder::new(&bytes[..]),
                        &mut out,
                    )
                    .ok()?;
                    return Some(out);
                }
                Some(bytes)
            }));
        }
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let mut per_record = Vec::new();
    let mut plain = Vec::new();
    let mut jsonl = Vec::new();
    for (n, page) in pages.iter().enumerate() {
        let mut block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n".to_vec();
        block.extend_from_slice(page);
        let mut rec = format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://bench.example/{n}\r\n\
             WARC-Record-ID: <urn:uuid:{n:012}>\r\nContent-Type: application/http; msgtype=response\r\n\
             Content-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        rec.extend_from_slice(&block);
        rec.extend_from_slice(b"\r\n\r\n");
        plain.extend_from_slice(&rec);
        per_record.extend(gzip(&rec));
        let line = serde_json::json!({
            "id": format!("{n}"),
            "url": format!("http://bench.example/{n}"),
            "html": String::from_utf8_lossy(page),
        });
        jsonl.extend(line.to_string().into_bytes());
        jsonl.push(b'\n');
    }
    let whole = gzip(&plain);
    let inputs: Vec<(&str, PathBuf, Vec<u8>)> = vec![
        ("WARC", dir.join("bench-pages.warc"), plain),
        (
            "WARC, gzip per record",
            dir.join("bench-pages.warc.gz"),
            per_record,
        ),
        (
            "WARC, whole-file gzip",
            dir.join("bench-whole.warc.gz"),
            whole,
        ),
        ("JSON lines", dir.join("bench-pages.jsonl"), jsonl),
    ];
    for (_, path, bytes) in &inputs {
        if std::fs::write(path, bytes).is_err() {
            println!("skipping WARC bench: cannot write {}", path.display());
            return;
        }
    }
    let mb: f64 = pages.iter().map(Vec::len).sum::<usize>() as f64 / 1e6;
    let records = pages.len() as f64;
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "{} records, {mb:.1} MB of HTML; median of {PASSES}; load average {}\n",
        pages.len(),
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!(
        "| input | MB | -j 1 records/s | -j 2 records/s | -j 2 / -j 1 | -j 1 MB/s | serial records/s | ceiling (workers) |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (name, path, bytes) in &inputs {
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
        let serial = median(|| serial_run(path));
        // One worker's time per record: a -j 1 run's, less what the serial part takes.
        let worker = (j1 - serial).max(f64::EPSILON);
        println!(
            "| {name} | {:.1} | {:.0} | {:.0} | {:.2} | {:.0} | {:.0} | {:.1} |",
            bytes.len() as f64 / 1e6,
            records / j1,
            records / j2,
            j1 / j2,
            mb / j1,
            records / serial,
            worker / serial,
        );
    }
}

/// One gzip member holding `bytes`.
fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::default());
    let _ = e.write_all(bytes);
    e.finish().unwrap_or_default()
}

/// The pipeline with two workers that drop every record unread, JSON output to nowhere.
fn serial_run(path: &Path) {
    let mut config = pith::pipeline::Config::new(
        vec![path.to_string_lossy().into_owned()],
        pith::Options::default(),
    );
    config.json = true;
    config.jobs = 2;
    let config = pith::lab::skip_extraction(config);
    let sum = pith::pipeline::run(&config, &mut std::io::sink(), &|_| {});
    assert_eq!(sum.opened, 1);
}

fn median(mut f: impl FnMut()) -> f64 {
    let mut t: Vec<f64> = (0..PASSES)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[PASSES / 2]
}
