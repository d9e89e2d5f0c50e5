//! WARC in, JSON lines out: records/s and MB/s of the `pith` binary at `-j 1` and `-j 2`, and
//! of the WARC reading and framing alone (gzip members, headers, HTTP, no extraction), on a
//! WARC built from every page of `../shared/data/*/html` (written to `target/tmp/`, gzip per
//! record and uncompressed, never committed). Ratios come from one run; MB/s are of HTML.

use std::io::Write;
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
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-pages.warc.gz");
    let mut warc = Vec::new();
    let mut plain = Vec::new();
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
        let mut e = GzEncoder::new(Vec::new(), Compression::default());
        let _ = e.write_all(&rec);
        if let Ok(member) = e.finish() {
            warc.extend(member);
        }
    }
    let plain_path = path.with_extension("");
    if std::fs::write(&path, &warc).is_err() || std::fs::write(&plain_path, &plain).is_err() {
        println!("skipping WARC bench: cannot write {}", path.display());
        return;
    }
    let mb: f64 = pages.iter().map(Vec::len).sum::<usize>() as f64 / 1e6;
    let records = pages.len() as f64;
    println!(
        "{} records, {:.1} MB of HTML, {:.1} MB gzip; median of {PASSES}\n",
        pages.len(),
        mb,
        warc.len() as f64 / 1e6
    );

    // What the reader thread does: with `split`, gzip members are found and classified but
    // inflated by the workers; without, the reader inflates everything itself.
    let frame = |p: &std::path::Path, split: bool| {
        median(|| {
            let name = p.to_string_lossy();
            let auto = pith::input::Framing::Auto;
            if let Ok((mut input, _)) =
                pith::input::Input::open_with(&name, auto, 64 << 20, Default::default(), split)
            {
                while let Some(item) = input.next_item() {
                    std::hint::black_box(&item);
                }
            }
        })
    };
    let framing = frame(&path, true);
    let framing_seq = frame(&path, false);
    let framing_plain = frame(&plain_path, true);
    // The workers' share of reading: inflating every member.
    let inflate = median(|| {
        let pool = pith::input::Pool::default();
        let name = path.to_string_lossy();
        let auto = pith::input::Framing::Auto;
        if let Ok((mut input, _)) =
            pith::input::Input::open_with(&name, auto, 64 << 20, Default::default(), true)
        {
            while let Some(item) = input.next_item() {
                if let pith::input::Item::Member(m) = item {
                    std::hint::black_box(m.finish(&pool));
                }
            }
        }
    });
    let run = |jobs: &str| {
        median(|| {
            let status = Command::new(env!("CARGO_BIN_EXE_pith"))
                .args(["--format", "json", "-j", jobs])
                .arg(&path)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
            assert!(status.is_ok_and(|s| s.success()));
        })
    };
    let j1 = run("1");
    let j2 = run("2");
    println!("{:<36} {:>10} {:>9}", "stage", "records/s", "MB/s");
    for (name, secs) in [
        ("reader thread, .warc.gz (split)", framing),
        ("reader + inflate, .warc.gz", inflate),
        ("reader inflating, .warc.gz (seq.)", framing_seq),
        ("reader thread, .warc", framing_plain),
        ("pith --format json -j 1", j1),
        ("pith --format json -j 2", j2),
    ] {
        println!("{name:<36} {:>10.0} {:>9.1}", records / secs, mb / secs);
    }
    println!(
        "\n-j 2 / -j 1: {:.2}x\nextraction behind the reader (-j 1 time less reading) / reader thread: \
         {:.1}x .warc.gz split, {:.1}x .warc.gz sequential, {:.1}x .warc",
        j1 / j2,
        (j1 - inflate) / framing,
        (j1 - framing_seq) / framing_seq,
        (j1 - framing_plain) / framing_plain
    );
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
