//! Every fault names its kind (`input::FaultKind`, the `fault` field of a JSON error line), one
//! damaged record of each kind among intact ones: the intact records all come out, and the
//! damaged one is reported once, with the kind of the layer that found it.

use std::io::Write as _;

use pith::input::Framing;
use pith::pipeline::{Config, run};

/// One WARC response record: its id `n`, the body `body` under the extra HTTP head lines
/// `http`, and its WARC head lines `warc` (`WARC-Type: response` unless given otherwise).
fn record(n: u32, warc: &str, http: &str, body: &[u8]) -> Vec<u8> {
    let mut block = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n{http}Content-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    block.extend_from_slice(body);
    let mut r = format!(
        "WARC/1.0\r\n{warc}WARC-Record-ID: <urn:{n}>\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(&block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn page(n: u32) -> Vec<u8> {
    format!("<p>REC{n} The council said the bridge opens in spring.</p>").into_bytes()
}

fn intact(n: u32) -> Vec<u8> {
    record(n, "WARC-Type: response\r\n", "", &page(n))
}

/// One zstd frame of `data` as a single raw block; `checksum` is written as the frame's
/// content checksum when given (a wrong one makes the frame fail its check).
fn zstd_raw(data: &[u8], checksum: Option<[u8; 4]>) -> Vec<u8> {
    let mut f = vec![0x28, 0xb5, 0x2f, 0xfd];
    // Frame header: a 4-byte content size, single segment, the checksum flag.
    f.push(if checksum.is_some() { 0xa4 } else { 0xa0 });
    f.extend_from_slice(&(data.len() as u32).to_le_bytes());
    let head = ((data.len() as u32) << 3) | 1; // last block, raw
    f.extend_from_slice(&head.to_le_bytes()[..3]);
    f.extend_from_slice(data);
    if let Some(c) = checksum {
        f.extend_from_slice(&c);
    }
    f
}

/// Runs `bytes` as the file `name` to JSON lines at `jobs` workers: the ids of the pages, and
/// the `(id, fault)` of each error line.
fn run_json(name: &str, bytes: &[u8], jobs: usize) -> (Vec<String>, Vec<(String, String)>) {
    let path = std::env::temp_dir().join(format!("pith-fault-kinds-{}-{name}", std::process::id()));
    let mut f = std::fs::File::create(&path).expect("temp file");
    f.write_all(bytes).expect("write temp file");
    drop(f);
    let mut config = Config::new(
        vec![path.to_string_lossy().into_owned()],
        pith::Options::default().with_metadata(true),
    );
    config.json = true;
    config.input = Framing::Auto;
    config.jobs = jobs;
    let mut out = Vec::new();
    run(&config, &mut out, &|_| {});
    std::fs::remove_file(&path).expect("remove temp file");
    let (mut pages, mut faults) = (Vec::new(), Vec::new());
    for line in String::from_utf8(out).expect("UTF-8 output").lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let id = v["id"].as_str().unwrap_or("null").to_string();
        match v.get("fault") {
            Some(k) => faults.push((id, k.as_str().expect("a kind name").to_string())),
            None => pages.push(id),
        }
    }
    (pages, faults)
}

fn check(name: &str, bytes: &[u8], pages: &[&str], fault: (&str, &str)) {
    for jobs in [1, 2] {
        let (got, faults) = run_json(name, bytes, jobs);
        assert_eq!(got, pages, "{name} -j {jobs}: pages");
        assert_eq!(
            faults,
            [(fault.0.to_string(), fault.1.to_string())],
            "{name} -j {jobs}: faults"
        );
    }
}

#[test]
fn a_record_without_warc_type_is_a_header_fault() {
    let mut w = intact(1);
    w.extend(record(2, "", "", &page(2)));
    w.extend(intact(3));
    check(
        "untyped.warc",
        &w,
        &["<urn:1>", "<urn:3>"],
        ("<urn:2>", "header"),
    );
}

#[test]
fn a_gzip_body_that_does_not_decode_is_a_body_encoding_fault() {
    let mut body = Vec::new();
    let mut gz = flate2::write::GzEncoder::new(&mut body, flate2::Compression::default());
    for k in 0..40 {
        write!(
            gz,
            "<p>REC2 part {k}: the council said the bridge opens.</p>"
        )
        .expect("gzip");
    }
    gz.finish().expect("gzip");
    let mid = body.len() / 2;
    body[mid..mid + 10].fill(0);
    let mut w = intact(1);
    w.extend(record(
        2,
        "WARC-Type: response\r\n",
        "Content-Encoding: gzip\r\n",
        &body,
    ));
    w.extend(intact(3));
    check(
        "body.warc",
        &w,
        &["<urn:1>", "<urn:3>"],
        ("<urn:2>", "body-encoding"),
    );
}

#[test]
fn a_segmented_record_is_a_framing_fault() {
    let mut w = intact(1);
    w.extend(record(
        2,
        "WARC-Type: response\r\nWARC-Segment-Number: 1\r\n",
        "",
        &page(2),
    ));
    w.extend(intact(3));
    check(
        "segment.warc",
        &w,
        &["<urn:1>", "<urn:3>"],
        ("<urn:2>", "framing"),
    );
}

#[test]
fn a_zstd_frame_that_fails_its_checksum_is_a_checksum_fault_and_only_its_record_is_lost() {
    let mut z = zstd_raw(&intact(1), None);
    z.extend(zstd_raw(&intact(2), Some([0xde, 0xad, 0xbe, 0xef])));
    z.extend(zstd_raw(&intact(3), None));
    check(
        "sum.warc.zst",
        &z,
        &["<urn:1>", "<urn:3>"],
        ("<urn:2>", "checksum"),
    );
}
