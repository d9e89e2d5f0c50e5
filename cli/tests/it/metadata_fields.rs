//! The JSON metadata a pipeline keys on, through the real binary (issue 44): `url` from the
//! input, else the page's canonical link or `og:url`; `lang` a lower-case BCP 47 tag from
//! every source (the page's declarations, a WARC record's `Content-Language`); `sitename`
//! never a URL or a slug; authors without labels.

use crate::common;
use crate::run_util;

use run_util::*;
use serde_json::Value;

/// The one JSON line `pith --format json` prints for `page` with `args`.
fn one(args: &[&str], page: &[u8]) -> Value {
    let mut a = vec!["--format", "json"];
    a.extend_from_slice(args);
    let docs = json_lines(&pith(&a, page));
    assert_eq!(docs.len(), 1, "{docs:?}");
    docs.into_iter().next().expect("one line")
}

const CANONICAL: &str = "<html lang=en_US><head><title>Bridge</title>\
    <link rel=canonical href='https://www.example.org/news/bridge'>\
    <meta property=og:url content='https://example.org/og/bridge'></head>\
    <body><article><p>The council approved the new bridge on Tuesday, after a debate of four \
    hours, and building starts in May.</p></article></body></html>";

#[test]
fn url_is_the_inputs_else_the_pages_canonical() {
    // A plain page: its canonical link.
    let d = one(&[], CANONICAL.as_bytes());
    assert_eq!(d["url"], "https://www.example.org/news/bridge");
    assert_eq!(d["lang"], "en-us");
    // --url wins.
    let d = one(
        &["--url", "https://example.com/given"],
        CANONICAL.as_bytes(),
    );
    assert_eq!(d["url"], "https://example.com/given");
    // og:url when the canonical is not a web URL; nothing when neither is.
    let og = CANONICAL.replace("https://www.example.org/news/bridge", "javascript:void(0)");
    assert_eq!(
        one(&[], og.as_bytes())["url"],
        "https://example.org/og/bridge"
    );
    let none = og.replace("https://example.org/og/bridge", "about:blank");
    assert!(one(&[], none.as_bytes())["url"].is_null());
    // A relative canonical is resolved against <base href>, else left out.
    let rel = "<html><head><base href='https://example.net/a/'>\
               <link rel=canonical href='../story'></head><body><p>Text</p></body></html>";
    assert_eq!(one(&[], rel.as_bytes())["url"], "https://example.net/story");
    let rel = rel.replace("<base href='https://example.net/a/'>", "");
    assert!(one(&[], rel.as_bytes())["url"].is_null());
}

#[test]
fn jsonl_and_warc_records_keep_their_url_and_others_read_the_page() {
    let html = serde_json::to_string(CANONICAL).expect("json");
    let lines = format!(
        "{{\"id\":1,\"url\":\"https://given.example/1\",\"html\":{html}}}\n\
         {{\"id\":2,\"html\":{html}}}\n"
    );
    let docs = json_lines(&pith(
        &["--format", "json", "--input", "jsonl"],
        lines.as_bytes(),
    ));
    assert_eq!(docs.len(), 2);
    assert_eq!(docs[0]["url"], "https://given.example/1");
    assert_eq!(docs[1]["url"], "https://www.example.org/news/bridge");
    // A WARC record's target URI is its url; a relative canonical resolves against it.
    let page = "<html><head><link rel=canonical href='/canonical/7'></head>\
                <body><p>Text of the page.</p></body></html>";
    let d = one(&[], &response(7, HTML_HEAD, page.as_bytes()));
    assert_eq!(d["url"], "http://example.org/7");
}

#[test]
fn warc_content_language_is_normalized() {
    // The page declares nothing; its text is too short to detect.
    let page = b"<html><head><title>x</title></head><body><p>OK</p></body></html>";
    let head = |cl: &str| {
        format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Language: {cl}\r\n\r\n")
    };
    for (cl, want) in [
        ("Japanese", Some("ja")),
        ("en_US", Some("en-us")),
        ("EN-GB", Some("en-gb")),
        ("de-DE, en;q=0.5", Some("de-de")),
        ("x-default", None),
    ] {
        let d = one(&[], &response(1, &head(cl), page));
        match want {
            Some(l) => {
                assert_eq!(d["lang"], l, "{cl}");
                assert_eq!(d["lang_source"], "declared", "{cl}");
            }
            None => assert!(d["lang"].is_null(), "{cl}: {d}"),
        }
    }
    // The page's own declaration, normalized, comes first.
    let declared = b"<html lang=PT_br><head><title>x</title></head><body><p>OK</p></body></html>";
    let d = one(&[], &response(2, &head("Japanese"), declared));
    assert_eq!(d["lang"], "pt-br");
}

#[test]
fn a_page_of_tests_pages_without_a_canonical() {
    let page = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/pages/article.html"
    ))
    .expect("tests/pages/article.html");
    let d = one(&[], &page);
    assert!(d["url"].is_null(), "{d}");
    assert_eq!(d["lang"], "en");
    assert_eq!(d["author"], "Marta Kowalski");
    let d = one(&["--url", "https://www.example.org/river-towns"], &page);
    assert_eq!(d["url"], "https://www.example.org/river-towns");
    assert_eq!(d["sitename"], "example.org");
}

/// The issue's measure: the first 40 ScrapingHub pages, read as plain files.
#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn scrapinghub_first_40_have_a_url_and_a_bcp47_lang() {
    let dir = common::shared("data/scrapinghub/html");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("html/")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    files.truncate(40);
    let mut args = vec!["--format".to_string(), "json".to_string()];
    args.extend(files.iter().map(|f| f.to_string_lossy().into_owned()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let docs = json_lines(&pith(&args, b""));
    assert_eq!(docs.len(), 40);
    let with_url = docs.iter().filter(|d| d["url"].is_string()).count();
    assert!(with_url >= 37, "url on {with_url} of 40");
    for d in &docs {
        let lang = d["lang"].as_str().unwrap_or("");
        let ok = lang.split('-').enumerate().all(|(i, t)| {
            (if i == 0 { 2..=3 } else { 1..=8 }).contains(&t.len())
                && t.bytes()
                    .all(|b| b.is_ascii_lowercase() || (i > 0 && b.is_ascii_digit()))
        });
        assert!(ok, "lang {lang:?} in {}", d["id"]);
    }
    let by_url = |u: &str| {
        docs.iter()
            .find(|d| d["url"].as_str().is_some_and(|x| x.starts_with(u)))
            .unwrap_or_else(|| panic!("{u}"))
    };
    // The sitename was og:site_name `https://www.newsnation.in`.
    assert_eq!(
        by_url("https://www.newsnation.in/")["sitename"],
        "newsnation.in"
    );
    // twitter:site `@Wday_` is a slug; the author was `Текст: Венера Ерофеева`.
    let wday = by_url("https://www.wday.ru/");
    assert_eq!(wday["sitename"], "wday.ru");
    assert_eq!(wday["author"], "Венера Ерофеева");
    assert_eq!(wday["lang"], "ru");
    // The byline `The Russian and Syrian defense ministries` is no person.
    assert!(by_url("https://www.polygraph.info/")["author"].is_null());
}
