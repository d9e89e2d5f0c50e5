//! A template file's faults through the command (Deliver 5): a missing file or store is an
//! error naming it, and a faulty template (truncated, corrupt, from a future format version,
//! hostile counts, empty) is reported once by `pith --templates`, which carries on without it.
//! Each fault's own error, read by the library: `tests/it/template_file.rs`. Version 1 files
//! (one template per host) still work.

use crate::common::template_file::{p_count_offset, reseal};
use crate::run_util;
use run_util::{pith_args as pith, with_templates};

use std::path::PathBuf;

use pith::site::Family;

fn tmp(name: &str) -> PathBuf {
    run_util::fresh_dir("tfaults", name)
}

/// A real family, learned from the fixture site's pages 1-5 through the public API, with
/// short signatures.
fn good_family() -> Family {
    let pages: Vec<_> = (1..=5)
        .map(|n| {
            let html =
                std::fs::read(format!("../tests/pages/site-news/page{n}.html")).expect("page");
            pith::site::summarize(&html, None).expect("summary")
        })
        .collect();
    let f = pith::site::learn_family(
        &pages,
        &Default::default(),
        "news.example",
        Default::default(),
        16,
    );
    assert!(f.members.iter().all(|m| !m.template.paths.is_empty()));
    f
}

fn good_bytes() -> Vec<u8> {
    good_family().to_bytes()
}

/// A store holding a version 1 file (one template for every page) extracts with it; the
/// file's own reading is the library's `tests/it/template_file.rs`.
#[test]
fn a_store_holding_a_version_1_file_extracts_with_it() {
    let v1 = good_family().members.swap_remove(0).template.to_v1_bytes();
    assert_eq!(&v1[8..10], &1u16.to_le_bytes());
    let dir = tmp("v1");
    std::fs::write(dir.join("news.example.tpl"), &v1).expect("write");
    let o = with_templates(
        dir.to_str().expect("path"),
        "https://news.example/x",
        &["../tests/pages/site-news/page6.html"],
    );
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["algo"], "fastce+auto");
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
        future[8..10].copy_from_slice(&3u16.to_le_bytes());
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
        let page = "../tests/pages/site-news/page6.html";
        // Two pages of the host: the fault is reported once, both pages come out (by the
        // default algorithm, the block model).
        let o = with_templates(
            dir.to_str().expect("path"),
            "https://news.example/x",
            &["-j", "1", page, page],
        );
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
            assert_eq!(v["algo"], "model");
            assert!(
                v["text"]
                    .as_str()
                    .unwrap_or("")
                    .contains("Sleeper trains will run again")
            );
        }
    }
}
