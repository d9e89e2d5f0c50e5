//! `pith explain` and `pith eval --html` without a browser: the report says exactly what the
//! extractor did (its output text is `pith`'s, its counts are those of its own block list) on
//! every page of the ScrapingHub set under every algorithm, the commands write their files and
//! fail with one-line messages, and a hostile page stays linear.

use crate::common;

use crate::run_util;
use run_util::pith_args as pith;

use std::path::{Path, PathBuf};
use std::process::Command;

use pith::{Algo, Options};

/// The ScrapingHub set of `../shared/data`.
fn set() -> PathBuf {
    common::shared("data/scrapinghub")
}

fn scrapinghub_pages() -> Vec<PathBuf> {
    let dir = set().join("html");
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    pages.sort();
    assert!(!pages.is_empty(), "no pages in {}", dir.display());
    pages
}

/// The number in `<b id=NAME>N</b>` of a report.
fn shown(html: &str, name: &str) -> usize {
    let key = format!("<b id={name}>");
    let at = html
        .find(&key)
        .unwrap_or_else(|| panic!("{name} not shown"))
        + key.len();
    html[at..]
        .split('<')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{name} is not a number"))
}

/// The report has every part it promises and nothing from outside.
fn check_report(html: &str, ex: &pith::explain::Explained, text: &str) {
    assert!(html.starts_with("<!DOCTYPE html>") && html.ends_with("</body></html>\n"));
    for part in [
        "<path id=t1 class=t1 d=\"M",
        "<path id=t2 class=t2 d=\"M",
        "<path id=diff class=diff d=\"M",
        "<ol id=blocks>",
        "<pre id=output>",
        "<b id=title>",
    ] {
        assert!(html.contains(part), "report lacks {part}");
    }
    // Self-contained: no external script, style sheet, image or frame.
    for external in ["<script src", "<link", "<img", "<iframe", "url("] {
        assert!(!html.contains(external), "report loads {external}");
    }
    assert_eq!(shown(html, "n-kept"), ex.kept);
    assert_eq!(shown(html, "n-dropped"), ex.dropped);
    assert_eq!(shown(html, "n-partial"), ex.partial);
    assert_eq!(shown(html, "n-words"), text.split_whitespace().count());
    assert_eq!(shown(html, "n-lines"), text.lines().count());
    assert_eq!(html.matches("<li class=\"block kept\">").count(), ex.kept);
    assert_eq!(
        html.matches("<li class=\"block dropped\">").count(),
        ex.dropped
    );
    // Some text kept exactly when pith printed something.
    assert_eq!(ex.kept + ex.partial > 0, !text.trim().is_empty());
}

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn explain_agrees_with_extract_on_every_scrapinghub_page() {
    let pages = scrapinghub_pages();
    let mut explained = 0;
    for page in &pages {
        let bytes = std::fs::read(page).expect("read page");
        for &algo in Algo::ALL {
            let opts = pith::Options::new(algo);
            let name = page.display().to_string();
            let ex = pith::explain::explain(&bytes, &name, &opts)
                .unwrap_or_else(|e| panic!("{name} {}: {e}", algo.name()));
            let got = pith::extract(&bytes, None, &opts).expect("extract");
            assert_eq!(ex.text, got.text, "{name} {}: output differs", algo.name());
            assert_eq!(ex.title, got.title);
            assert!(ex.lines > 0, "{name}: empty profile");
            check_report(&ex.html, &ex, &got.text);
            if matches!(algo, Algo::Danag | Algo::DanagLines) {
                // DANAg keeps exactly the text of its selected lines: every kept block starts
                // on a line the plotted profile shades as selected.
                for item in ex.html.split("<li class=\"block ").skip(1) {
                    if item.starts_with("kept\"") {
                        assert!(item.contains("(DANAg region)"), "{name}: {item}");
                    }
                }
            }
            if algo == Algo::Model && !ex.html.contains("auto's selection is the answer") {
                // The model keeps exactly the blocks at or above its threshold.
                for item in ex.html.split("<li class=\"block ").skip(1) {
                    let above = item.contains("(at or above the threshold");
                    let repeat = item.contains("dropped as a repeat");
                    assert_eq!(
                        item.starts_with("kept\""),
                        above && !repeat,
                        "{name}: {item}"
                    );
                }
            }
            explained += 1;
        }
    }
    eprintln!(
        "explained {} pages × {} algorithms = {explained} reports",
        pages.len(),
        Algo::ALL.len()
    );
    assert_eq!(explained, pages.len() * Algo::ALL.len());
}

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn explain_command_on_every_scrapinghub_page() {
    let pages = scrapinghub_pages();
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("explain_every_page.html");
    let out = out.to_str().expect("utf-8 path");
    for page in &pages {
        let page = page.to_str().expect("utf-8 path");
        let o = pith(&["explain", page, "-o", out]);
        assert!(
            o.status.success(),
            "{page}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            o.stderr.is_empty(),
            "{page}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let html = std::fs::read_to_string(out).expect("report written");
        assert!(
            html.contains("<path id=t1 class=t1 d=\"M"),
            "{page}: no profile"
        );
    }
    eprintln!("pith explain: {} pages, all written", pages.len());
}

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn gold_marks_agree_with_the_gold() {
    let pages = scrapinghub_pages();
    let mut noise = 0;
    for page in pages.iter().step_by(9) {
        let bytes = std::fs::read(page).expect("read page");
        let name = page.display().to_string();
        let opts = Options::default();
        // Against pith's own output as gold, no block pith kept whole is noise.
        let own = pith::extract(&bytes, None, &opts).expect("extract").text;
        let ex =
            pith::explain::explain_with_gold(&bytes, &name, &opts, Some(&own)).expect("explain");
        assert_eq!(ex.kept_not_gold, Some(0), "{name}");
        // Against the real gold, the marks shown are the marks counted.
        let gold_path = set()
            .join("gold")
            .join(page.file_name().expect("name"))
            .with_extension("txt");
        let gold = std::fs::read_to_string(&gold_path).expect("gold text");
        let ex =
            pith::explain::explain_with_gold(&bytes, &name, &opts, Some(&gold)).expect("explain");
        let (k, d) = (
            ex.kept_not_gold.expect("judged"),
            ex.dropped_gold.expect("judged"),
        );
        assert_eq!(shown(&ex.html, "n-kept-nogold"), k);
        assert_eq!(shown(&ex.html, "n-dropped-gold"), d);
        assert_eq!(
            ex.html.matches("<li class=\"block kept nogold\">").count(),
            k
        );
        assert_eq!(
            ex.html.matches("<li class=\"block dropped gold\">").count(),
            d
        );
        noise += k;
    }
    // The set's pages do have captions and widgets pith keeps (its precision is 0.91).
    assert!(noise > 0);
}

#[test]
fn explain_modes_follow_the_extractor() {
    let bytes = std::fs::read("../tests/pages/article.html").expect("sample page");
    for mode in [pith::Mode::Precision, pith::Mode::Recall] {
        for comments in [false, true] {
            let opts = pith::Options::default()
                .with_mode(mode)
                .with_comments(comments);
            let ex = pith::explain::explain(&bytes, "article", &opts).expect("explain");
            let got = pith::extract(&bytes, None, &opts).expect("extract");
            assert_eq!(ex.text, got.text);
            check_report(&ex.html, &ex, &got.text);
        }
    }
}

/// Options that run the rules (`--algo rules`), whose deciding rules the report names.
fn rules() -> Options {
    Options::new(Algo::Rules)
}

#[test]
fn explain_names_the_deciding_rules_on_the_sample_page() {
    let bytes = std::fs::read("../tests/pages/article.html").expect("sample page");
    let ex = pith::explain::explain(&bytes, "article", &rules()).expect("explain");
    assert!(
        ex.kept > 0 && ex.dropped > 0,
        "{} kept {} dropped",
        ex.kept,
        ex.dropped
    );
    assert!(ex.html.contains("auto: main container"), "verdict missing");
    assert!(ex.html.contains("in the main container"));
    assert!(ex.html.contains("removed as boilerplate"));
    assert!(ex.html.contains("link density") && ex.html.contains("text density"));
    assert!(ex.html.contains("(T1 ") && ex.html.contains(", smoothed "));
    // The menu's words are struck through (dropped), the article's are not.
    let text = &ex.text;
    assert!(text.contains("shop owners found a line of brown silt"));
}

#[test]
fn a_block_with_an_inline_share_widget_is_partly_kept_and_says_why() {
    let para = "The council approved the new bridge on Tuesday, after a debate of four hours, \
                and building starts in May, the mayor said.";
    let page = format!(
        "<html><body><nav><a href=/>Home</a> <a href=/n>News</a></nav><article>\
         <p>{para}</p><p>{para} <span class=share-buttons>Share this on Facebook</span> \
         It will cost, the council said, less than the old one.</p><p>{para} Again.</p></article>\
         <footer>Contact us</footer></body></html>"
    );
    let ex = pith::explain::explain(page.as_bytes(), "fixture", &rules()).expect("explain");
    assert!(!ex.text.contains("Facebook") && ex.text.contains("less than the old one"));
    assert_eq!((ex.kept, ex.partial, ex.dropped), (2, 1, 2), "{}", ex.html);
    assert!(
        ex.html
            .contains("removed as boilerplate: the class/id of span.share-buttons"),
        "{}",
        ex.html
    );
    assert!(
        ex.html
            .contains("removed as boilerplate: the &lt;nav&gt; element nav")
    );
    assert!(ex.html.contains("in the main container article"));
}

#[test]
fn explain_stays_linear_on_a_flat_page_of_many_blocks() {
    let page = |n: usize| {
        let mut page = String::from("<html><body>");
        for i in 0..n {
            page.push_str(&format!(
                "<p>Paragraph {i} has words, commas, and <a href=/{i}>a link</a>.</p>\n"
            ));
        }
        page
    };
    // 24,000 paragraphs, four units of markup each: under the element budget (96 Ki), over
    // the report's 20,000 blocks.
    let ex = pith::explain::explain(page(24_000).as_bytes(), "flat", &Options::default())
        .expect("explain");
    assert_eq!(ex.kept + ex.dropped + ex.partial, 24_000);
    assert!(ex.html.contains("id=truncated"), "the block list is capped");
    // 100,000 are over it: refused, as `pith` refuses the page.
    assert!(matches!(
        pith::explain::explain(page(100_000).as_bytes(), "flat", &Options::default()),
        Err(pith::Error::TooDense { .. })
    ));
}

#[test]
fn explain_stays_linear_on_a_million_nested_divs() {
    let page = |depth: usize| {
        let mut page = "<div>".repeat(depth);
        page.push_str(
            "<p>The article, at the bottom of a very deep page, still has its words.</p>",
        );
        page
    };
    // 90,000 deep: under the element budget (96 Ki units of markup).
    let ex = pith::explain::explain(page(90_000).as_bytes(), "deep", &Options::default())
        .expect("explain");
    assert!(ex.text.contains("still has its words"));
    assert_eq!(ex.kept, 1);
    // A million deep is over it: refused, as `pith` refuses the page.
    assert!(matches!(
        pith::explain::explain(page(1_000_000).as_bytes(), "deep", &Options::default()),
        Err(pith::Error::TooDense { .. })
    ));
}

/// The report of the sample page under the default algorithm (the block model), from the
/// library.
fn html_default() -> String {
    let bytes = std::fs::read("../tests/pages/article.html").expect("sample page");
    pith::explain::explain(&bytes, "article", &Options::default())
        .expect("explain")
        .html
}

#[test]
fn explain_names_a_repeat_and_keep_repeats_keeps_it() {
    let para = "The council approved the new bridge on Tuesday, after a debate of four hours, \
                and building starts in May, the mayor said.";
    let page = format!(
        "<html><body><article><p>{para}</p><p>It will cost less than the old one, the \
         council said, and take two years.</p><blockquote><p>{para}</p></blockquote>\
         </article></body></html>"
    );
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("explain_repeats");
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let file = dir.join("quoted.html");
    std::fs::write(&file, &page).expect("fixture written");
    let file = file.to_str().expect("utf-8 path");
    let once = String::from_utf8(pith(&[file]).stdout).expect("utf-8");
    let every = String::from_utf8(pith(&["--keep-repeats", file]).stdout).expect("utf-8");
    assert_eq!(once.matches("The council approved").count(), 1, "{once}");
    assert_eq!(every.matches("The council approved").count(), 2, "{every}");
    let report = |args: &[&str]| {
        let o = pith(&[&["explain"], args, &[file]].concat());
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).expect("utf-8")
    };
    assert!(report(&[]).contains("dropped as a repeat"));
    assert!(!report(&["--keep-repeats"]).contains("dropped as a repeat"));
}

#[test]
fn explain_command_writes_the_report_and_reports_errors_in_one_line() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("explain_cli");
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let out = dir.join("article.html");
    let o = pith(&[
        "explain",
        "../tests/pages/article.html",
        "--algo",
        "danag",
        "-o",
        out.to_str().expect("utf-8 path"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(&out).expect("report written");
    assert!(html.contains("algorithm <b>danag</b>"));
    let text = String::from_utf8(pith(&["--algo", "danag", "../tests/pages/article.html"]).stdout)
        .expect("utf-8");
    assert_eq!(shown(&html, "n-words"), text.split_whitespace().count());
    // Standard output when no -o; standard input as `-`.
    let o = pith(&["explain", "../tests/pages/article.html"]);
    assert!(o.status.success());
    assert!(o.stdout.starts_with(b"<!DOCTYPE html>"));
    let o = Command::new(env!("CARGO_BIN_EXE_pith"))
        .args(["explain", "-"])
        .stdin(std::fs::File::open("../tests/pages/article.html").expect("sample page"))
        .output()
        .expect("run pith");
    assert!(o.status.success());
    let from_stdin = String::from_utf8(o.stdout).expect("utf-8");
    assert!(from_stdin.contains("<small>standard input</small>"));
    assert_eq!(
        shown(&from_stdin, "n-kept"),
        shown(&html_default(), "n-kept")
    );
    for (args, msg) in [
        (
            vec!["explain", "../tests/pages/no-such-page.html"],
            "no-such-page.html",
        ),
        (
            vec!["explain", "--algo", "x", "a.html"],
            "unknown --algo `x` (one of: model, rules, danag",
        ),
        (
            vec!["explain", "--algo", "ce", "../tests/pages/article.html"],
            "pages of one site",
        ),
        (
            vec![
                "explain",
                "--precision",
                "--recall",
                "../tests/pages/article.html",
            ],
            "exclude each other",
        ),
    ] {
        let o = pith(&args);
        assert!(!o.status.success(), "{args:?} succeeded");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(msg), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
    // --gold marks the blocks: the sample page's article sentences as gold.
    let gold = dir.join("gold.txt");
    std::fs::write(
        &gold,
        "shop owners found a line of brown silt half a metre up their walls",
    )
    .expect("write gold");
    let o = pith(&[
        "explain",
        "../tests/pages/article.html",
        "--gold",
        gold.to_str().expect("utf-8"),
    ]);
    let html = String::from_utf8(o.stdout).expect("utf-8");
    assert!(html.contains("id=n-kept-nogold"), "no gold counts");
    assert!(html.contains("in the gold</span>"));
    let o = pith(&[
        "explain",
        "../tests/pages/article.html",
        "--gold",
        "../tests/pages/no-such-gold.txt",
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("no-such-gold.txt"));
    let empty = dir.join("empty.html");
    std::fs::write(&empty, "  \n").expect("write");
    let o = pith(&["explain", empty.to_str().expect("utf-8")]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("empty input"));
    let help = String::from_utf8(pith(&["explain", "--help"]).stdout).expect("utf-8");
    for flag in [
        "--algo",
        "--precision",
        "--recall",
        "--comments",
        "--gap",
        "--charset",
        "--gold",
        "--output",
    ] {
        assert!(help.contains(flag), "--help lacks {flag}");
    }
}

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn eval_html_report_on_scrapinghub_links_working_explain_views() {
    let pages = scrapinghub_pages();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("eval_html");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let out = dir.join("report.html");
    let set = set();
    let o = pith(&[
        "eval",
        set.to_str().expect("utf-8 path"),
        "--algo",
        "rules",
        "--algo",
        "danag",
        "--html",
        out.to_str().expect("utf-8 path"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(&out).expect("report written");
    assert!(html.contains(&format!("({} pages)", pages.len())));
    // One sorted curve per system, one point per page.
    for k in 0..2 {
        let key = format!("<path id=\"curve-{k}\" class=curve d=\"");
        let at = html.find(&key).expect("curve") + key.len();
        let d = html[at..].split('"').next().expect("path data");
        assert_eq!(d.matches(['M', 'L']).count(), pages.len());
    }
    assert_eq!(html.matches("<table class=worst>").count(), 2);
    // Every linked view exists and is a report of that page.
    let mut links = 0;
    for chunk in html.split("<a href=\"").skip(1) {
        let rel = chunk.split('"').next().expect("href");
        let view = std::fs::read_to_string(dir.join(rel)).expect("linked view exists");
        assert!(view.contains("<ol id=blocks>"));
        links += 1;
    }
    assert_eq!(links, 40, "20 worst pages for each of 2 systems");
}

/// `pith explain --record N FILE`: one record of a WARC or JSON lines file, the same report as
/// for the page given alone; a record that is not a page, or past the end, is named.
#[test]
fn explain_record_of_a_warc_and_of_json_lines() {
    let article = std::fs::read("../tests/pages/article.html").expect("sample page");
    let report = std::fs::read("../tests/pages/report.html").expect("sample page");
    let record = |typ: &str, uri: &str, body: &[u8], ctype: &str| {
        let mut r = format!(
            "WARC/1.1\r\nWARC-Type: {typ}\r\nWARC-Target-URI: {uri}\r\nWARC-Record-ID: <urn:uuid:{typ}-{}>\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\n\r\n",
            uri.len(),
            body.len()
        )
        .into_bytes();
        r.extend_from_slice(body);
        r.extend_from_slice(b"\r\n\r\n");
        r
    };
    let http = |page: &[u8]| {
        let mut b = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n".to_vec();
        b.extend_from_slice(page);
        b
    };
    let mut warc = record(
        "warcinfo",
        "",
        b"software: test\r\n",
        "application/warc-fields",
    );
    for (uri, page) in [
        ("https://x.example/a", &article),
        ("https://x.example/r", &report),
    ] {
        warc.extend(record(
            "response",
            uri,
            &http(page),
            "application/http; msgtype=response",
        ));
    }
    let dir = std::env::temp_dir().join(format!("pith-explain-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let warc_path = dir.join("two.warc");
    std::fs::write(&warc_path, &warc).expect("write warc");
    let jsonl_path = dir.join("two.jsonl");
    let line = |id: &str, page: &[u8]| {
        serde_json::json!({"id": id, "html": String::from_utf8_lossy(page)}).to_string()
    };
    std::fs::write(
        &jsonl_path,
        format!("{}\n{}\n", line("a", &article), line("r", &report)),
    )
    .expect("write jsonl");
    let alone =
        String::from_utf8(pith(&["explain", "../tests/pages/report.html"]).stdout).expect("utf-8");
    for (path, n) in [(&warc_path, "3"), (&jsonl_path, "2")] {
        let p = path.to_str().expect("utf-8 path");
        let o = pith(&["explain", "--record", n, p]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let html = String::from_utf8(o.stdout).expect("utf-8");
        assert!(html.contains(&format!("{p} record {n}")), "no record name");
        assert_eq!(shown(&html, "n-kept"), shown(&alone, "n-kept"));
        assert_eq!(shown(&html, "n-words"), shown(&alone, "n-words"));
    }
    let w = warc_path.to_str().expect("utf-8 path");
    for (args, msg) in [
        (vec!["explain", "--record=1", w], "no HTML page at record 1"),
        (vec!["explain", "--record=9", w], "no HTML page at record 9"),
    ] {
        let o = pith(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains(msg), "{args:?}");
    }
    let o = pith(&["explain", "--record", "0", w]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}
