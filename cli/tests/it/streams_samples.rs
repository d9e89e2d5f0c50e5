//! The real WARC samples of `../shared/data/warc_samples` (ignored when absent: tests/common):
//! output identical under `-j 1` and `-j 4` (JSON and text, all files in one run), the same
//! records from the plain and the gzip copy of the Common Crawl excerpt, charsets given only in
//! the HTTP header decoded, the truncated and the 411 MiB files handled, and a Common Crawl
//! sample giving exactly its MANIFEST's count of HTML responses as JSON lines.

use crate::common;
use crate::run_util;

use std::time::Duration;

use run_util::*;
use serde_json::Value;

fn files(dir: &std::path::Path) -> Vec<String> {
    common::sorted_files(&dir.join("files"))
}

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn all_samples_in_one_run_are_identical_with_one_and_four_workers() {
    let dir = common::warc_samples();
    let files = files(&dir);
    assert!(files.len() >= 20);
    let args = |fmt: &'static str, j: &'static str| {
        let mut a: Vec<&str> = vec!["--format", fmt, "-j", j];
        a.extend(files.iter().map(String::as_str));
        a
    };
    let one = pith(&args("json", "1"), b"");
    let four = pith(&args("json", "4"), b"");
    assert!(one.status.success(), "{}", stderr(&one));
    assert_eq!(one.stdout, four.stdout);
    assert_eq!(stderr(&one), stderr(&four));
    // 299 HTML 200 responses (MANIFEST), the truncated record among them as an error line.
    assert_eq!(json_lines(&one).len(), 299);
    let one = pith(&args("text", "1"), b"");
    let four = pith(&args("text", "4"), b"");
    assert_eq!(one.stdout, four.stdout);
    assert!(String::from_utf8(one.stdout).is_ok());
}

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn common_crawl_excerpt_plain_and_gzip_give_the_same_lines() {
    let dir = common::warc_samples();
    let f = dir.join("files/cc-main-2020-34-excerpt.warc");
    let plain = pith(&["--format", "json", &f.to_string_lossy()], b"");
    let gz = dir.join("files/cc-main-2020-34-excerpt.warc.gz");
    let gzip = pith(&["--format", "json", &gz.to_string_lossy()], b"");
    assert_eq!(plain.stdout, gzip.stdout);
    // Piped through stdin, framing is recognized from the bytes alone.
    let bytes = std::fs::read(&gz).expect("sample");
    assert_eq!(pith(&["--format", "json"], &bytes).stdout, gzip.stdout);
    let docs = json_lines(&gzip);
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.join("MANIFEST.json")).expect("manifest"))
            .expect("manifest JSON");
    let expected = manifest
        .as_array()
        .and_then(|a| {
            a.iter().find(|e| {
                e["file"]
                    .as_str()
                    .is_some_and(|f| f.ends_with("cc-main-2020-34-excerpt.warc.gz"))
            })
        })
        .and_then(|e| e["html_responses"].as_u64())
        .expect("count");
    assert_eq!(docs.len() as u64, expected);
    for d in &docs {
        assert!(
            d["id"]
                .as_str()
                .is_some_and(|i| i.starts_with("<urn:uuid:"))
        );
        assert!(d["url"].as_str().is_some_and(|u| u.starts_with("http")));
        assert!(
            d["warc_date"]
                .as_str()
                .is_some_and(|u| u.starts_with("2020-08-"))
        );
        assert!(d["error"].is_null(), "{d}");
        assert!(!text(d).contains('\u{fffd}'), "{d}");
    }
    let by_url = |u: &str| docs.iter().find(|d| d["url"] == u).expect("page");
    // windows-1251 and gb2312, declared only in the HTTP Content-Type.
    assert!(text(by_url("http://01spb.ru/company/")).contains("пожарной безопасности"));
    assert!(
        by_url("http://0760.jxtdw.com/area/sanxiang/")["title"]
            .as_str()
            .is_some_and(|t| t.contains("三乡招聘"))
    );
    // Content-Language when the page has no <html lang>, as a lower-case BCP 47 tag.
    assert!(docs.iter().any(|d| d["lang"] == "zh-cn"));
}

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn clueweb_euc_jp_brotli_and_chunked_bodies_decode() {
    let dir = common::warc_samples();
    let run = |name: &str| {
        json_lines(&pith(
            &[
                "--format",
                "json",
                &dir.join("files").join(name).to_string_lossy(),
            ],
            b"",
        ))
    };
    let ja = run("clueweb09-ja-quirk.warc.gz");
    assert_eq!(ja.len(), 29);
    let japanese = ja
        .iter()
        .filter(|d| {
            text(d)
                .chars()
                .any(|c| ('\u{3040}'..='\u{30ff}').contains(&c))
        })
        .count();
    assert!(japanese >= 20, "{japanese} of 29 pages with kana");
    for name in [
        "wget-1.20-content-encoding-br.warc.gz",
        "wget-1.20-content-encoding-gzip.warc.gz",
        "warcprox-iana.org-chunked.warc",
    ] {
        let docs = run(name);
        assert_eq!(docs.len(), 1, "{name}");
        assert!(
            text(&docs[0]).len() > 40 && !text(&docs[0]).contains('\u{fffd}'),
            "{name}: {}",
            docs[0]
        );
    }
}

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn clipped_and_giant_samples_fail_one_record_each_quickly() {
    let dir = common::warc_samples();
    let clipped = dir.join("files/news-2016-clipped.warc.gz");
    let o = pith(&["--format", "json", &clipped.to_string_lossy()], b"");
    // Its one record failed: no page, exit 1 (README, "Exit status").
    assert_eq!(o.status.code(), Some(1));
    let docs = json_lines(&o);
    assert_eq!(docs.len(), 1);
    assert_error(&docs[0], "cut short");
    assert!(
        !pith(&["--strict", &clipped.to_string_lossy()], b"")
            .status
            .success()
    );
    // 431,216,083 bytes in one gzip member of 1.8 MB: over the default 64 MiB, skipped without
    // inflating (a debug build takes about a minute to inflate it).
    let giant = dir.join("files/heritrix-wide-2012-giant-html.warc.gz");
    let o = pith_within(
        &["--format", "json", &giant.to_string_lossy()],
        b"",
        Duration::from_secs(20),
    );
    let docs = json_lines(&o);
    assert_eq!(docs.len(), 1);
    assert_error(&docs[0], "431216083 bytes over the record limit");
    assert_eq!(docs[0]["member_offset"], 0);
}
