//! The member-by-member reader (records inflated by the workers) against the sequential one,
//! item by item, on every real WARC sample and on built ones: same records, numbers, offsets,
//! gzip member offsets, ids, page bytes, skip reasons and faults. Also that it really splits
//! (no fallback) on gzip-per-record files, and falls back cleanly where the layout differs.

use crate::common;
use crate::run_util;

use pith::input::{Framing, Input, Item, Pool};
use run_util::*;

/// Every item of `path`, members finished, as comparable text.
fn items(path: &str, split: bool, max: usize) -> (Vec<String>, Option<bool>) {
    let (mut input, _) =
        Input::open_with(path, Framing::Auto, max, Default::default(), split).expect("open");
    let pool = Pool::default();
    let mut out = Vec::new();
    while let Some(item) = input.next_item() {
        let item = match item {
            Item::Member(m) => m.finish(&pool),
            other => other,
        };
        out.push(match item {
            Item::Page(r) => format!(
                "page {} {} {:?} {:?} {:?} {:?} {:?} {:x}",
                r.place.index,
                r.place.offset,
                r.place.member_offset,
                r.place.id,
                r.place.url,
                r.charset,
                r.warc_date,
                common::fnv1a64(r.page())
            ),
            Item::Skip(reason) => format!("skip {reason}"),
            Item::Fault(f) => format!("fault {f}"),
            Item::Member(_) => "member".into(),
            Item::Range(_) => "range".into(),
        });
    }
    let fell_back = match &input {
        Input::Split(s) => Some(s.fell_back()),
        _ => None,
    };
    (out, fell_back)
}

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn split_and_sequential_readers_agree_on_every_sample() {
    let dir = common::warc_samples();
    let mut split_files = 0;
    for p in common::sorted_files(&dir.join("files")) {
        let path = std::path::Path::new(&p);
        let (a, fell_back) = items(&p, true, 64 << 20);
        let (b, _) = items(&p, false, 64 << 20);
        assert_eq!(a, b, "{p}");
        if fell_back == Some(false) {
            split_files += 1;
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.starts_with("cc-main-2020") && name.ends_with(".gz") {
            assert_eq!(
                fell_back,
                Some(false),
                "Common Crawl is one record per member"
            );
        }
        if name.starts_with("webrecorder-wholefile") {
            assert_eq!(
                fell_back,
                Some(true),
                "whole-file gzip goes to the sequential reader"
            );
        }
    }
    assert!(
        split_files >= 15,
        "{split_files} files read member by member"
    );
}

#[test]
fn split_reader_agrees_on_built_warcs_with_faults() {
    let dir = std::env::temp_dir().join(format!("pith-split-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let records: Vec<Vec<u8>> = (0..40)
        .map(|n| match n % 5 {
            0 => record(
                "request",
                "http://x/",
                n,
                "application/http; msgtype=request",
                b"GET / HTTP/1.1\r\n\r\n",
            ),
            1 => response(
                n,
                "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n",
                &vec![7u8; 5000 + n],
            ),
            2 => response(
                n,
                "HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n\r\n",
                b"<p>gone</p>",
            ),
            _ => response(
                n,
                HTML_HEAD,
                article(n, &"words and more words ".repeat(n * 40)).as_bytes(),
            ),
        })
        .collect();
    let members: Vec<Vec<u8>> = records.iter().map(|r| gz(r)).collect();
    let mut cases: Vec<(&str, Vec<u8>)> = vec![("clean", members.concat())];
    // A corrupt member in the middle.
    let mut corrupt = members.clone();
    let m = &mut corrupt[18];
    let mid = m.len() / 2;
    for b in &mut m[12..mid] {
        *b ^= 0x55;
    }
    cases.push(("corrupt", corrupt.concat()));
    // Empty members between records, and garbage between two members.
    let mut odd = Vec::new();
    for (i, m) in members.iter().enumerate() {
        odd.extend(gz(b""));
        if i == 25 {
            odd.extend_from_slice(b"garbage between members\r\n");
        }
        odd.extend_from_slice(m);
    }
    cases.push(("odd", odd));
    // Truncated in the last member.
    let mut cut = members.concat();
    cut.truncate(cut.len() - 30);
    cases.push(("cut", cut));
    // A record over the limit in its own member.
    cases.push(("limit", members.concat()));
    for (name, bytes) in cases {
        let path = dir.join(format!("{name}.warc.gz"));
        std::fs::write(&path, &bytes).expect("write");
        let p = path.to_string_lossy();
        let max = if name == "limit" { 20_000 } else { 1 << 20 };
        let (a, fell_back) = items(&p, true, max);
        let (b, _) = items(&p, false, max);
        assert_eq!(a, b, "{name}");
        // The garbage between members is reported, once, by both readers.
        let expected = if name == "odd" { 41 } else { 40 };
        assert_eq!(a.len(), expected, "{name}: {a:#?}");
        if name == "clean" || name == "limit" {
            assert_eq!(fell_back, Some(false), "{name}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
