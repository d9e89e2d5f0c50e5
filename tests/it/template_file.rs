//! Every fault a template file can have (Deliver 5), read by the library: truncated, corrupt,
//! from a future format version, hostile counts, wrong checksum. Each gives a clear error
//! naming the file; nothing panics and loading allocates no more than the file's size
//! justifies. Files are version 2 (a family of templates with their cluster signatures);
//! version 1 files still load. What `pith --templates` does with such a file, and a missing
//! one: `cli/tests/it/templates_faults.rs`.

use crate::common::template_file::{HOST_LEN, p_count_offset, reseal};

use std::path::Path;

use pith::site::{Family, LoadError, Member};

/// Signature length of the test family: short, so that flipping every byte stays quick.
const K: usize = 16;

/// A real family of two templates, learned from the fixture site (pages 1-5, and 1-3), each
/// with the signature of its pages' template paths.
fn good_family() -> Family {
    let pages: Vec<_> = (1..=5)
        .map(|n| {
            let html = std::fs::read(format!("tests/pages/site-news/page{n}.html")).expect("page");
            pith::lab::site::learn::summarize(&html, None).expect("summary")
        })
        .collect();
    let member = |pages: &[pith::lab::site::learn::PageSummary]| {
        let t = pith::lab::site::learn::learn(pages, "news.example", Default::default());
        assert!(!t.paths.is_empty() && !t.noncontent.is_empty());
        let tags: Vec<Vec<u64>> = pages.iter().map(|p| p.tags.clone()).collect();
        let c = pith::lab::site::cluster::single(&tags, K);
        Member {
            template: t,
            signature: c.clusters[0].signature.clone(),
            paths: c.clusters[0].template.len() as u32,
        }
    };
    Family {
        host: "news.example".into(),
        members: vec![member(&pages), member(&pages[..3])],
    }
}

fn good_bytes() -> Vec<u8> {
    good_family().to_bytes()
}

fn load(bytes: &[u8]) -> Result<Family, LoadError> {
    Family::from_bytes(bytes, Path::new("STORE/news.example.tpl"))
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
    assert_eq!(t, good_family());
    assert_eq!(t.to_bytes(), b);
    // The tests' own checksum is the library's.
    assert_eq!(reseal(b.clone()), b);
    assert_eq!(t.host, "news.example");
    assert_eq!(t.members.len(), 2);
    assert_eq!(t.members[1].template.pages, 3);
    assert_eq!(t.members[0].signature.len(), K);
}

#[test]
fn a_version_1_file_still_loads_as_one_template_for_every_page() {
    let t = good_family().members.swap_remove(0).template;
    let v1 = t.to_v1_bytes();
    assert_eq!(&v1[8..10], &1u16.to_le_bytes());
    let f = load(&v1).expect("a version 1 file loads");
    assert_eq!(f.members.len(), 1);
    assert_eq!(f.members[0].template, t);
    assert!(f.members[0].signature.is_empty());
    // No signature to compare: every page goes to the one template.
    assert_eq!(f.pick(|| panic!("no page signature is needed")), Some(0));
    // Faults of a version 1 file are caught as before.
    let mut c = v1.clone();
    c[40] ^= 0x40;
    assert!(err(&c).contains("checksum"));
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
        s.contains("version 7 is newer than this pith reads (2)"),
        "{s}"
    );
}

#[test]
fn not_a_template() {
    assert!(err(b"<html>hello</html>").contains("bad magic"));
    assert!(err(b"").contains("bad magic"));
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
    // A huge member count, a signature longer than any pith writes, a hostile host length.
    for count in [u16::MAX, 1000] {
        let mut c = b.clone();
        c[12..14].copy_from_slice(&count.to_le_bytes());
        let s = err(&reseal(c));
        assert!(
            s.contains(&format!("count {count} at byte 12 needs more bytes")),
            "{s}"
        );
    }
    let mut c = b.clone();
    c[14..16].copy_from_slice(&u16::MAX.to_le_bytes());
    assert!(err(&reseal(c)).contains("signature length 65535 is over"));
    let mut c = b.clone();
    c[HOST_LEN..HOST_LEN + 2].copy_from_slice(&u16::MAX.to_le_bytes());
    assert!(err(&reseal(c)).contains("truncated"));
    // Trailing bytes after valid tables.
    let mut c = b.clone();
    let n = c.len() - 8;
    c.insert(n, 0);
    assert!(err(&reseal(c)).contains("trailing data"));
}

#[test]
fn unsorted_or_out_of_range_tables_are_refused() {
    let f = load(&good_bytes()).expect("loads");
    // Faults in the second member's template, so the first parses and the reader goes on.
    let with = |edit: &dyn Fn(&mut pith::site::Template)| {
        let mut bad = f.clone();
        edit(&mut bad.members[1].template);
        bad.to_bytes()
    };
    assert!(
        err(&with(&|t| {
            t.paths.reverse();
            t.paths.push((0, "x".into()));
            t.paths.push((0, "y".into()));
        }))
        .contains("not sorted")
    );
    assert!(err(&with(&|t| t.similarity = 7.0)).contains("out of range"));
    assert!(
        err(&with(&|t| if let Some((_, f)) = t.noncontent.first_mut() {
            f.entries.reverse();
            f.entries.push((0, 1));
        }))
        .contains("out of order")
    );
    // A family of no template.
    let mut none = f.clone();
    none.members.clear();
    assert!(err(&none.to_bytes()).contains("no template"));
}
