//! Every fault a template file can have (Deliver 5): missing, truncated, corrupt, from a future
//! format version, hostile counts, wrong checksum. Each gives a clear error naming the file;
//! `pith --templates` reports it once and carries on without the template; nothing panics and
//! loading allocates no more than the file's size justifies.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pith::extract::blocks::{FNV_OFFSET, fnv1a};
use pith::template::{LoadError, Template};

fn pith(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pith"))
        .args(args)
        .output()
        .expect("run pith")
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pith-tfaults-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("tmp dir");
    d
}

/// A real template, learned from the fixture site.
fn good_bytes() -> Vec<u8> {
    let pages: Vec<_> = (1..=5)
        .map(|n| {
            let html = std::fs::read(format!("tests/pages/site-news/page{n}.html")).expect("page");
            pith::template::learn::summarize(&html, None).expect("summary")
        })
        .collect();
    let t = pith::template::learn::learn(&pages, "news.example", Default::default());
    assert!(!t.paths.is_empty() && !t.noncontent.is_empty());
    t.to_bytes()
}

/// Replaces the trailing checksum with the right one for the edited bytes.
fn reseal(mut b: Vec<u8>) -> Vec<u8> {
    let n = b.len() - 8;
    let sum = fnv1a(FNV_OFFSET, &b[..n]);
    b[n..].copy_from_slice(&sum.to_le_bytes());
    b
}

fn load(bytes: &[u8]) -> Result<Template, LoadError> {
    Template::from_bytes(bytes, Path::new("STORE/news.example.tpl"))
}

fn err(bytes: &[u8]) -> String {
    let e = load(bytes).expect_err("a fault");
    let s = e.to_string();
    assert!(s.starts_with("template STORE/news.example.tpl: "), "{s}");
    s
}

#[test]
fn a_good_template_round_trips() {
    let b = good_bytes();
    let t = load(&b).expect("loads");
    assert_eq!(t.to_bytes(), b);
    assert_eq!(t.host, "news.example");
}

#[test]
fn truncated_at_every_length_is_an_error() {
    let b = good_bytes();
    for n in 0..b.len() {
        let s = err(&b[..n]);
        assert!(
            s.contains("magic") || s.contains("truncated") || s.contains("checksum"),
            "{n}: {s}"
        );
    }
}

#[test]
fn every_flipped_byte_is_caught() {
    let b = good_bytes();
    for i in 0..b.len() {
        let mut c = b.clone();
        c[i] ^= 0x40;
        let s = err(&c);
        assert!(
            s.contains("checksum") || s.contains("magic") || s.contains("version"),
            "{i}: {s}"
        );
    }
}

#[test]
fn wrong_checksum() {
    let mut b = good_bytes();
    let n = b.len();
    b[n - 1] ^= 1;
    assert!(err(&b).contains("checksum mismatch"));
}

#[test]
fn future_version_says_so() {
    let mut b = good_bytes();
    b[8..10].copy_from_slice(&7u16.to_le_bytes());
    let s = err(&reseal(b));
    assert!(
        s.contains("version 7 is newer than this pith reads (1)"),
        "{s}"
    );
}

#[test]
fn not_a_template() {
    assert!(err(b"<html>hello</html>").contains("bad magic"));
    assert!(err(b"").contains("bad magic"));
}

/// Offset of the P count: after magic, version, reserved, dims, reserved, three f32, pages,
/// min_words, the host's length and bytes.
fn p_count_offset(b: &[u8]) -> usize {
    let host_len = u16::from_le_bytes([b[36], b[37]]) as usize;
    38 + host_len
}

#[test]
fn huge_counts_are_refused_before_allocating() {
    let b = good_bytes();
    let at = p_count_offset(&b);
    for count in [u32::MAX, 1 << 28, 100_000] {
        let mut c = b.clone();
        c[at..at + 4].copy_from_slice(&count.to_le_bytes());
        let s = err(&reseal(c));
        assert!(
            s.contains(&format!("count {count} at byte {at} needs more bytes")),
            "{s}"
        );
    }
    // A huge entry count inside a block and a hostile host length too.
    let mut c = b.clone();
    c[36..38].copy_from_slice(&u16::MAX.to_le_bytes());
    assert!(err(&reseal(c)).contains("truncated"));
    // Trailing bytes after valid tables.
    let mut c = b.clone();
    let n = c.len() - 8;
    c.insert(n, 0);
    assert!(err(&reseal(c)).contains("trailing data"));
}

#[test]
fn unsorted_or_out_of_range_tables_are_refused() {
    let t = load(&good_bytes()).expect("loads");
    let mut bad = t.clone();
    bad.paths.reverse();
    bad.paths.push((0, "x".into()));
    bad.paths.push((0, "y".into()));
    assert!(err(&bad.to_bytes()).contains("not sorted"));
    let mut bad = t.clone();
    bad.similarity = 7.0;
    assert!(err(&bad.to_bytes()).contains("out of range"));
    let mut bad = t;
    if let Some((_, f)) = bad.noncontent.first_mut() {
        f.entries.reverse();
        f.entries.push((0, 1));
    }
    assert!(err(&bad.to_bytes()).contains("out of order"));
}

#[test]
fn missing_file_and_show_errors_name_the_file() {
    let dir = tmp("missing");
    let f = dir.join("nothere.tpl");
    let o = pith(&["template", "show", f.to_str().expect("path")]);
    assert!(!o.status.success());
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("nothere.tpl") && e.contains("No such file"),
        "{e}"
    );
    let o = pith(&[
        "--templates",
        dir.join("no-dir").to_str().expect("path"),
        "x.html",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a directory"));
}

#[test]
fn a_faulty_template_is_reported_once_and_pith_carries_on() {
    let faults: Vec<(&str, Vec<u8>)> = {
        let b = good_bytes();
        let mut corrupt = b.clone();
        corrupt[40] ^= 0xff;
        let mut future = b.clone();
        future[8..10].copy_from_slice(&2u16.to_le_bytes());
        let mut huge = b.clone();
        let at = p_count_offset(&b);
        huge[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        vec![
            ("truncated", b[..b.len() / 2].to_vec()),
            ("corrupt", corrupt),
            ("future", reseal(future)),
            ("huge", reseal(huge)),
            ("empty", Vec::new()),
        ]
    };
    for (name, bytes) in faults {
        let dir = tmp(name);
        std::fs::write(dir.join("news.example.tpl"), &bytes).expect("write");
        let page = "tests/pages/site-news/page6.html";
        // Two pages of the host: the fault is reported once, both pages come out (by auto).
        let o = pith(&[
            "--templates",
            dir.to_str().expect("path"),
            "--url",
            "https://news.example/x",
            "--format",
            "json",
            "-j",
            "1",
            page,
            page,
        ]);
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{name}: {e}");
        assert_eq!(e.matches("news.example.tpl").count(), 1, "{name}: {e}");
        assert!(
            e.contains("extracting news.example without it"),
            "{name}: {e}"
        );
        let out = String::from_utf8_lossy(&o.stdout);
        let lines: Vec<serde_json::Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).expect("json"))
            .collect();
        assert_eq!(lines.len(), 2, "{name}");
        for v in lines {
            assert_eq!(v["algo"], "auto");
            assert!(
                v["text"]
                    .as_str()
                    .unwrap_or("")
                    .contains("Sleeper trains will run again")
            );
        }
    }
}
