//! JSON lines out (and in), through the real binary: charset from the HTTP header only (gbk),
//! `date` only when the page states one and `warc_date` for the capture, output always valid
//! UTF-8 with one line per record whatever the page holds, `--url` for a page on stdin, and
//! pass-through fields of JSON lines input that never replace pith's own.

use crate::run_util;

use run_util::*;
use serde_json::{Value, json};

#[test]
fn gbk_page_with_charset_only_in_the_http_header() {
    let page = article(1, "这是一篇关于中文编码的新闻文章，内容足够长。");
    let (bytes, _, bad) = encoding_rs::GBK.encode(&page);
    assert!(!bad);
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "the body really is not UTF-8"
    );
    let warc = response(
        1,
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=GBK\r\n\r\n",
        &bytes,
    );
    let docs = json_lines(&pith(&["--format", "json"], &gz(&warc)));
    assert_eq!(docs.len(), 1);
    assert!(
        text(&docs[0]).contains("关于中文编码的新闻文章"),
        "{}",
        docs[0]
    );
}

#[test]
fn date_is_the_pages_and_warc_date_the_captures() {
    let dated = "<html><head><title>Dated</title>\
        <meta property=\"article:published_time\" content=\"2021-03-04T05:06:07Z\"></head>\
        <body><article><p>A dated story with a long enough first paragraph to be the article text.</p>\
        <p>And a second paragraph, also long enough to count as main content here.</p></article></body></html>";
    let warc = [
        response(1, HTML_HEAD, dated.as_bytes()),
        response(2, HTML_HEAD, article(2, "").as_bytes()),
    ]
    .concat();
    let docs = json_lines(&pith(&["--format", "json"], &warc));
    assert_eq!(docs[0]["date"], "2021-03-04T05:06:07Z");
    assert_eq!(docs[0]["warc_date"], "2024-01-02T00:00:00Z");
    assert_eq!(docs[1]["date"], Value::Null);
    assert_eq!(docs[1]["warc_date"], "2024-01-03T00:00:00Z");
}

#[test]
fn output_is_valid_utf8_one_line_per_record_whatever_the_page_holds() {
    // Invalid UTF-8 under a UTF-8 label, CR, form feeds, U+2028 and a BOM in the middle.
    let mut body = article(1, "line\rbreak\u{2028}sep\u{0c}feed \u{feff}bom").into_bytes();
    body.extend_from_slice(b"<p>bad \xff\xfe bytes \xc3 here</p>");
    let warc = [
        response(1, HTML_HEAD, &body),
        response(2, HTML_HEAD, article(2, "").as_bytes()),
    ]
    .concat();
    for args in [["--format", "json"], ["--format", "json-markdown"]] {
        let o = pith(&args, &warc);
        let out = String::from_utf8(o.stdout.clone()).expect("valid UTF-8");
        assert_eq!(out.matches('\n').count(), 2, "{out}");
        let docs = json_lines(&o);
        assert_eq!(docs.len(), 2);
        let body = docs[0]["text"]
            .as_str()
            .or(docs[0]["markdown"].as_str())
            .unwrap_or("");
        assert!(body.contains("Story number 1 begins"), "{}", docs[0]);
    }
}

#[test]
fn url_flag_names_a_page_read_from_stdin_or_a_file() {
    let o = pith(
        &["--format", "json", "--url", "https://example.org/a"],
        article(1, "").as_bytes(),
    );
    let docs = json_lines(&o);
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0]["url"], "https://example.org/a");
    assert_eq!(docs[0]["id"], "-");
    assert_eq!(docs[0]["title"], "Story 1");
    assert!(docs[0]["bytes_in"].as_u64().is_some_and(|n| n > 100));
    // WARC records keep their own URLs.
    let warc = response(7, HTML_HEAD, article(7, "").as_bytes());
    let docs = json_lines(&pith(
        &["--format", "json", "--url", "https://ignored/"],
        &warc,
    ));
    assert_eq!(docs[0]["url"], "http://example.org/7");
}

#[test]
fn json_lines_pass_through_never_replaces_pith_fields() {
    let input = [
        json!({"id": 17, "url": "http://x/1", "html": article(1, ""), "text": "not mine", "crawl": {"depth": 2}}),
        json!({"html": 42}),
        json!({"id": "big", "html": article(3, &"long words ".repeat(12_000))}),
        json!({"id": "last", "html": article(4, "")}),
    ]
    .iter()
    .map(|v| v.to_string() + "\n")
    .collect::<String>()
        + "[1, 2]\n";
    let o = pith(
        &[
            "--format",
            "json",
            "-j",
            "3",
            "--max-record-bytes",
            "100000",
        ],
        input.as_bytes(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let docs = json_lines(&o);
    assert_eq!(docs.len(), 5);
    assert_eq!(docs[0]["id"], json!(17)); // its JSON type kept
    assert_eq!(docs[0]["crawl"], json!({"depth": 2}));
    assert!(text(&docs[0]).contains("Story number 1 begins"));
    assert_error(&docs[1], "html");
    assert_eq!(docs[2]["id"], "big");
    assert_error(&docs[2], "record limit");
    assert!(text(&docs[3]).contains("Story number 4 begins"));
    assert_error(&docs[4], "not an object");
    let err = stderr(&o);
    assert!(err.contains("record 3 big at byte"), "{err}");
    assert!(
        err.contains("5 records read, 2 extracted, 0 skipped, 3 failed"),
        "{err}"
    );
}

/// JSON lines: an `id` keeps its JSON type, and every error line, whatever failed (a page that
/// is empty, a line without `html`), has the same location fields and keeps the line's `url`.
#[test]
fn ids_keep_their_type_and_error_lines_have_one_shape() {
    let page = "<html><body><article><p>The council approved the new bridge on Tuesday, \
                after a debate of four hours, and building starts in May.</p></article></body></html>";
    let input = [
        serde_json::json!({"id": 7, "url": "http://a.example/1", "html": page}),
        serde_json::json!({"id": "s", "url": "http://a.example/2", "html": ""}),
        serde_json::json!({"id": 9, "url": "http://a.example/3", "text": "no html"}),
        serde_json::json!({"id": [1, 2], "html": page}),
    ]
    .iter()
    .map(|v| format!("{v}\n"))
    .collect::<String>();
    let o = pith(&["--format", "json", "--input", "jsonl"], input.as_bytes());
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 4, "{}", stderr(&o));
    assert_eq!(lines[0]["id"], serde_json::json!(7));
    assert!(lines[0]["error"].is_null());
    assert_eq!(lines[3]["id"], serde_json::json!([1, 2]));
    for (l, url, record) in [
        (&lines[1], "http://a.example/2", 2),
        (&lines[2], "http://a.example/3", 3),
    ] {
        assert!(l["error"].is_string(), "{l}");
        assert_eq!(l["url"], url, "{l}");
        assert_eq!(l["source"], "-", "{l}");
        assert_eq!(l["record"], record, "{l}");
        assert!(l["offset"].as_u64().is_some_and(|o| o > 0), "{l}");
    }
    assert_eq!(lines[2]["id"], "9");
}
