//! The inputs of the stream benches, shared (`#[path]`) by the library's
//! (`benches/pipeline.rs`) and the binary's (`cli/benches/warc.rs`): every page of
//! `DATA/*/html` (WCXB's `.html.gz` pages inflated) written to the bench's temporary folder
//! (never committed) four ways: a plain WARC, a WARC with one gzip member per record, the plain
//! WARC gzipped whole, and JSON lines (`id`, `url`, `html`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use flate2::Compression;
use flate2::write::GzEncoder;

/// Passes of each timing; the median is reported.
pub const PASSES: usize = 3;

/// The four files and what they hold.
pub struct Inputs {
    /// Records in each file.
    pub records: usize,
    /// MB of HTML in the records.
    pub mb: f64,
    /// Each framing's name, its file and the file's size in MB.
    pub files: Vec<(&'static str, PathBuf, f64)>,
}

/// The four files under the bench's temporary folder, from the pages of `data`, and the
/// bench's first line printed; `None`, with a line saying why `bench` is skipped, when they
/// cannot be made (no data, a file that cannot be written).
pub fn prepare(data: &str, bench: &str) -> Option<Inputs> {
    match build(Path::new(data), Path::new(env!("CARGO_TARGET_TMPDIR"))) {
        Ok(inputs) => {
            println!("{}", describe(&inputs));
            Some(inputs)
        }
        Err(e) => {
            println!("skipping {bench} bench: {e}");
            None
        }
    }
}

/// Writes the four files under `dir` from the pages of `data`; `Err` says why the bench
/// cannot run (no data, a file that cannot be written).
fn build(data: &Path, dir: &Path) -> Result<Inputs, String> {
    let pages = read_pages(data)?;
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
    let mut files = Vec::new();
    for (name, file, bytes) in [
        ("WARC", "bench-pages.warc", plain),
        ("WARC, gzip per record", "bench-pages.warc.gz", per_record),
        ("WARC, whole-file gzip", "bench-whole.warc.gz", whole),
        ("JSON lines", "bench-pages.jsonl", jsonl),
    ] {
        let path = dir.join(file);
        std::fs::write(&path, &bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        files.push((name, path, bytes.len() as f64 / 1e6));
    }
    Ok(Inputs {
        records: pages.len(),
        mb: pages.iter().map(Vec::len).sum::<usize>() as f64 / 1e6,
        files,
    })
}

/// Every page of `data/*/html`, sets and pages in name order.
fn read_pages(data: &Path) -> Result<Vec<Vec<u8>>, String> {
    let sets = std::fs::read_dir(data).map_err(|_| format!("{} not found", data.display()))?;
    let mut sets: Vec<PathBuf> = sets.filter_map(|e| e.ok().map(|e| e.path())).collect();
    sets.sort();
    let mut pages: Vec<Vec<u8>> = Vec::new();
    for set in sets {
        if let Ok(files) = std::fs::read_dir(set.join("html")) {
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
    Ok(pages)
}

/// The first line of a bench's output: records, MB of HTML, passes and the load average.
fn describe(inputs: &Inputs) -> String {
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    format!(
        "{} records, {:.1} MB of HTML; median of {PASSES}; load average {}\n",
        inputs.records,
        inputs.mb,
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    )
}

/// One gzip member holding `bytes`.
fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::default());
    let _ = e.write_all(bytes);
    e.finish().unwrap_or_default()
}

/// The median of [`PASSES`] timings of `f`, in seconds.
pub fn median(mut f: impl FnMut()) -> f64 {
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
