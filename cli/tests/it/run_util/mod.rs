//! Shared helpers of the CLI tests: running the real binary (fed on stdin, killed after a time
//! limit), reading its JSON lines, and building WARC records, gzip members and pages by hand (no
//! test data is stored for these).
#![allow(dead_code)]

use std::io::{Read, Write};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use flate2::Compression;
use flate2::write::GzEncoder;
use serde_json::Value;

/// Runs `pith` with `args`, feeding `stdin`; killed (and the test failed) after `limit`.
pub fn pith_within(args: &[&str], stdin: &[u8], limit: Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pith"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn pith");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("pith {args:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let _ = feeder.join();
    Output {
        status,
        stdout: reader.join().expect("stdout reader"),
        stderr: err_reader.join().expect("stderr reader"),
    }
}

pub fn pith(args: &[&str], stdin: &[u8]) -> Output {
    pith_within(args, stdin, Duration::from_secs(300))
}

/// Runs `pith` with `args` and no standard input (`Command::output`'s null stdin).
pub fn pith_args(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pith"))
        .args(args)
        .output()
        .expect("run pith")
}

/// `pith --templates STORE --url URL --format json ARGS...` (ARGS: more options, then the
/// pages): a run of the template tests.
pub fn with_templates(store: &str, url: &str, args: &[&str]) -> Output {
    pith_args(
        &[
            &["--templates", store, "--url", url, "--format", "json"],
            args,
        ]
        .concat(),
    )
}

/// The bytes of `tests/pages/NAME`, the repository's sample pages.
#[track_caller]
pub fn test_page(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/pages")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `tests/pages/NAME` as a string (the pages are UTF-8).
#[track_caller]
pub fn test_page_text(name: &str) -> String {
    String::from_utf8(test_page(name)).expect("a UTF-8 page")
}

/// The records as JSON lines, one a line.
pub fn jsonl(records: impl IntoIterator<Item = Value>) -> Vec<u8> {
    let mut out = Vec::new();
    for r in records {
        out.extend(r.to_string().into_bytes());
        out.push(b'\n');
    }
    out
}

/// An empty directory `<temp>/pith-<prefix>-<pid>-<name>` (emptied when it was there).
pub fn fresh_dir(prefix: &str, name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("pith-{prefix}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("tmp dir");
    d
}

/// `bytes` written to `<temp>/pith-<prefix>-<pid>-<k>-<name>/<name>`, `k` counting the calls
/// (tests side by side may write files of one name: damage_streams' two `clean.warc`s of other
/// records raced); the file's path.
pub fn temp_file(prefix: &str, name: &str, bytes: &[u8]) -> String {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("pith-{prefix}-{}-{k}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write");
    path.to_string_lossy().into_owned()
}

/// Removes the folder [`temp_file`] made for `path`.
pub fn remove_temp_file(path: &str) {
    if let Some(dir) = std::path::Path::new(path).parent() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// Every stdout line parsed as JSON; fails on invalid UTF-8 or a line that is not JSON.
pub fn json_lines(o: &Output) -> Vec<Value> {
    String::from_utf8(o.stdout.clone())
        .expect("UTF-8 output")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON line {l:?}: {e}")))
        .collect()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The string at `key` of a JSON line ("" when it is absent or not a string).
pub fn field<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key].as_str().unwrap_or("")
}

pub fn text(v: &Value) -> &str {
    field(v, "text")
}

/// Asserts that `text` holds every one of `wanted`.
#[track_caller]
pub fn assert_in(text: &str, wanted: &[&str]) {
    for w in wanted {
        assert!(text.contains(w), "lost {w:?} from\n{text}");
    }
}

/// Asserts that `text` holds none of `unwanted`.
#[track_caller]
pub fn assert_out(text: &str, unwanted: &[&str]) {
    for u in unwanted {
        assert!(!text.contains(u), "kept {u:?} in\n{text}");
    }
}

/// Asserts that a JSON line is an error line whose message holds `needle`.
#[track_caller]
pub fn assert_error(doc: &Value, needle: &str) {
    assert!(
        field(doc, "error").contains(needle),
        "{needle:?} not in {doc}"
    );
}

/// An article page: a nav, two paragraphs (with `extra` in the second), a footer.
pub fn article(n: usize, extra: &str) -> String {
    format!(
        "<html lang=en><head><title>Story {n}</title></head><body><nav><a href=/>Home</a> <a href=/n>News</a></nav>\
         <article><p>Story number {n} begins with a sentence long enough to be the article, and it goes on.</p>\
         <p>{extra} A second paragraph of story {n} adds more words, commas, and detail to the text.</p></article>\
         <footer>Copyright footer</footer></body></html>"
    )
}

/// One WARC/1.0 record (WARC 1.1 section 4 layout: version, fields, CRLF, block, CRLF CRLF).
pub fn record(kind: &str, url: &str, n: usize, ctype: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {url}\r\nWARC-Date: 2024-01-0{}T00:00:00Z\r\n\
         WARC-Record-ID: <urn:uuid:{n:08}>\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\n\r\n",
        n % 9 + 1,
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

/// A `response` record with an HTTP head and body.
pub fn response(n: usize, http_head: &str, body: &[u8]) -> Vec<u8> {
    let mut block = http_head.as_bytes().to_vec();
    block.extend_from_slice(body);
    record(
        "response",
        &format!("http://example.org/{n}"),
        n,
        "application/http; msgtype=response",
        &block,
    )
}

pub const HTML_HEAD: &str = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n";

/// One gzip member.
pub fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::fast());
    e.write_all(data).expect("gzip");
    e.finish().expect("gzip")
}

/// `data` as one zstd frame (ruzstd's encoder, its fastest level).
pub fn zst(data: &[u8]) -> Vec<u8> {
    ruzstd::encoding::compress_to_vec(data, ruzstd::encoding::CompressionLevel::Fastest)
}

/// `data` as one xz stream at `preset` (0-9).
pub fn xz(data: &[u8], preset: u32) -> Vec<u8> {
    let mut w = lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(preset))
        .expect("xz");
    w.write_all(data).expect("xz");
    w.finish().expect("xz")
}

/// `data` as one bzip2 stream (fast compression).
pub fn bz2(data: &[u8]) -> Vec<u8> {
    let mut w = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    w.write_all(data).expect("bzip2");
    w.finish().expect("bzip2")
}
