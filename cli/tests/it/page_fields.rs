//! `page_type` and `confidence` in JSON output, through the real binary: present on every
//! page in `--format json` and `--format json-markdown`, `page_type` one of the allowed types
//! and `confidence` in 0..1, and absent from nothing else (text output has no such fields).
//! Whether a type is right is a question of the model's cross-validation (eval/MODEL.md),
//! not of a test on pages it trained on.

use crate::common;
use crate::run_util;

use pith::PageType;
use run_util::*;
use serde_json::Value;

fn check(doc: &Value) {
    let t = doc["page_type"]
        .as_str()
        .unwrap_or_else(|| panic!("page_type in {doc}"));
    assert!(PageType::ALL.iter().any(|p| p.name() == t), "{t}");
    let c = doc["confidence"]
        .as_f64()
        .unwrap_or_else(|| panic!("confidence in {doc}"));
    assert!((0.0..=1.0).contains(&c), "{c}");
}

#[test]
fn the_sample_page_has_a_type_and_a_confidence() {
    let page = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/pages/article.html"
    ))
    .expect("tests/pages/article.html");
    for format in ["json", "json-markdown"] {
        let docs = json_lines(&pith(&["--format", format], &page));
        assert_eq!(docs.len(), 1);
        check(&docs[0]);
    }
    // A page without visible text is `other`.
    let docs = json_lines(&pith(
        &["--format", "json"],
        b"<html><head><title>x</title></head></html>",
    ));
    assert_eq!(docs[0]["page_type"], "other");
    // The confidence is the block model's own, or the page model's for the rules' output (which
    // it was trained on): another algorithm gets none.
    let docs = json_lines(&pith(&["--format", "json", "--algo", "danag"], &page));
    assert!(docs[0]["confidence"].is_null(), "{}", docs[0]);
    let t = docs[0]["page_type"].as_str().unwrap_or("");
    assert!(PageType::ALL.iter().any(|p| p.name() == t), "{t}");
}

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn every_page_of_the_gold_sets_has_a_valid_type_and_confidence() {
    let mut files = Vec::new();
    for set in ["scrapinghub", "cleaneval_final", "l3s_gn1", "wcxb_dev"] {
        let dir = common::shared(&format!("data/{set}/html"));
        let mut pages: Vec<_> = std::fs::read_dir(dir)
            .expect("html/")
            .map(|e| e.expect("entry").path())
            .collect();
        pages.sort();
        files.extend(pages.into_iter().take(25));
    }
    let args: Vec<String> = ["-j", "1", "--format", "json-markdown", "--images"]
        .iter()
        .map(|s| s.to_string())
        .chain(files.iter().map(|p| p.display().to_string()))
        .collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let docs = json_lines(&pith(&args, b""));
    assert_eq!(docs.len(), files.len());
    let mut types = std::collections::BTreeSet::new();
    for d in &docs {
        check(d);
        types.insert(d["page_type"].as_str().unwrap_or("").to_string());
    }
    // The classifier is not a constant.
    assert!(types.len() >= 2, "{types:?}");
    // The models read the plain text's figures whatever the body's format: `--format json`
    // (text) gives every page the same type and confidence as Markdown with images.
    let mut text_args = args.clone();
    text_args[3] = "json";
    let text_docs = json_lines(&pith(&text_args, b""));
    assert_eq!(text_docs.len(), docs.len());
    for (t, m) in text_docs.iter().zip(&docs) {
        assert_eq!(
            (&t["page_type"], &t["confidence"]),
            (&m["page_type"], &m["confidence"]),
            "{}",
            t["id"]
        );
    }
}

/// `lang` is detected from the plain text whatever the body's format: under `json-markdown`
/// with `--links --images` the link targets and image sources of the Markdown are not read as
/// words. These pages' detected language differed between the two formats when it was read
/// from the Markdown.
#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn lang_is_the_same_in_json_and_json_markdown() {
    let pages = [
        "cleaneval_final/html/606.html",
        "l3s_gn1/html/08ba0529-e9b2-4cbb-b780-470055603d9e.html",
        "l3s_gn1/html/a9bf9ce6-08c8-437d-8656-6c3ceb291be8.html",
        "wcxb_dev/html/2917.html",
        "wcxb_train/html/0285.html.gz",
        "wcxb_train/html/2843.html.gz",
        "wcxb_train/html/2850.html.gz",
        "scrapinghub/html",
        "dragnet/html",
    ];
    let mut files: Vec<String> = Vec::new();
    for p in pages {
        let path = common::shared(&format!("data/{p}"));
        if path.is_dir() {
            // The first twenty pages of the set too, as they come.
            let mut more: Vec<_> = std::fs::read_dir(&path)
                .expect("html/")
                .map(|e| e.expect("entry").path().display().to_string())
                .collect();
            more.sort();
            files.extend(more.into_iter().take(20));
        } else {
            files.push(path.display().to_string());
        }
    }
    let run = |format: &str| {
        let mut args = vec!["-j", "1", "--format", format, "--links", "--images"];
        args.extend(files.iter().map(String::as_str));
        json_lines(&pith(&args, b""))
    };
    let (text, markdown) = (run("json"), run("json-markdown"));
    assert_eq!(text.len(), files.len());
    assert_eq!(markdown.len(), files.len());
    let mut detected = 0;
    for (t, m) in text.iter().zip(&markdown) {
        assert_eq!(
            (&t["lang"], &t["lang_source"]),
            (&m["lang"], &m["lang_source"]),
            "{}",
            t["id"]
        );
        detected += usize::from(t["lang_source"] == "detected");
    }
    // The pages above are mostly undeclared: the test compares detections.
    assert!(detected >= 7, "{detected}");
}
