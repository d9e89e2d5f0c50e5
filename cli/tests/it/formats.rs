//! `--format html` and `--format xml`: every document parses (html5ever reports no parse error;
//! roxmltree reads well-formed XML), the structure survives (headings, paragraphs, lists,
//! tables, quotes, code, links resolved against the page's URL), the metadata is in the
//! document, and many records give one document each, separated by a form feed line. On the
//! pages of `tests/pages/`, a page made of misplaced and hostile markup, and, when
//! `../shared/data` is there, the first pages of four gold sets.

use crate::common;

use crate::run_util;

use std::path::PathBuf;

use html5ever::tendril::TendrilSink;
use markup5ever_rcdom::{Handle, NodeData, RcDom};
use run_util::{pith, pith_args};

/// The base of the page URLs given with `--url`.
const URL: &str = "https://news.example.org/2024/05/story.html";

/// A page whose markup puts content where it cannot stand (text in a list and a table, a
/// heading in a link, a list item outside a list, a table in a paragraph's place, blocks in
/// a heading), with characters XML and HTML refuse and markup in attributes.
const MESSY: &str = "<html lang='en-GB'><head><title>A &lt;b&gt; \"title\" &amp; more</title>\
<meta name=author content='Ann \"A\" &lt;Lee&gt;'><meta name=description content='x]]>y'></head>\
<body><article><h1>Messy <i>page</i></h1>\
<p>Lead paragraph with a <a href='/rel?a=1&amp;b=2'>relative link</a> and \u{1}control\u{7f} \u{fffe}characters, \
a <a href='javascript:alert(1)'>script link</a>, and <a href='/a'>outer <a href='/b'>inner</a></a> links.</p>\
<ul>Loose text in a list<li>First item of a list of things</li><ul><li>nested without item</li></ul></ul>\
<table>caption text<tr>bare row text<td>cell one</td><th>head cell</th></tr><td>orphan cell</td></table>\
<li>an item outside any list</li>\
<a href='/card'><h3>A heading inside a link</h3><div>and a block</div></a>\
<h2>Heading <div>with a block</div> inside</h2>\
<blockquote>Quoted text without a paragraph<p>and one with</p></blockquote>\
<pre><code>fn main() {\n    println!(\"&lt;hi&gt;\");\n}</code></pre>\
<dl><dt>Term</dt><dd>Its definition, long enough to be content.</dd></dl>\
</article></body></html>";

/// The HTML pages under `tests/pages/`, in name order.
fn test_pages() -> Vec<PathBuf> {
    let mut pages = Vec::new();
    let mut dirs = vec![PathBuf::from("../tests/pages")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("tests/pages") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "html") {
                pages.push(path);
            }
        }
    }
    pages.sort();
    assert!(pages.len() >= 10, "{} test pages", pages.len());
    pages
}

/// The first `n` pages of each of four gold sets, when `../shared/data` is there (build.rs sets
/// `pith_no_shared` when it is not: the test then runs on the test pages alone).
fn shared_pages(n: usize) -> Vec<PathBuf> {
    let mut pages = Vec::new();
    if cfg!(pith_no_shared) {
        return pages;
    }
    for set in [
        "scrapinghub",
        "wcxb_dev",
        "cleaneval_final",
        "trafilatura_eval",
    ] {
        let dir = common::shared(&format!("data/{set}/html"));
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut names: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
        names.sort();
        pages.extend(names.into_iter().take(n));
    }
    pages
}

/// A successful run's standard output.
fn run(args: &[&str], stdin: &[u8]) -> String {
    let o = pith(args, stdin);
    assert!(
        o.status.success(),
        "pith {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("UTF-8 output")
}

/// An element of a parsed document: its name, its attributes, its text content.
type El = (String, Vec<(String, String)>, String);

/// html5ever's tree of `html`, and its parse errors (every error it can report).
fn parse_html(html: &str) -> (RcDom, Vec<String>) {
    let opts = html5ever::ParseOpts {
        tokenizer: html5ever::tokenizer::TokenizerOpts {
            exact_errors: true,
            ..Default::default()
        },
        tree_builder: html5ever::tree_builder::TreeBuilderOpts {
            exact_errors: true,
            scripting_enabled: false,
            ..Default::default()
        },
    };
    let dom = html5ever::parse_document(RcDom::default(), opts).one(html);
    let errors = dom.errors.borrow().iter().map(|e| e.to_string()).collect();
    (dom, errors)
}

/// The elements of a tree, as (name, attributes, text content) in document order.
fn elements(dom: &RcDom) -> Vec<El> {
    fn text_of(h: &Handle, out: &mut String) {
        match &h.data {
            NodeData::Text { contents } => out.push_str(&contents.borrow()),
            // A line break separates words as text output's line end does.
            NodeData::Element { name, .. } if &*name.local == "br" => out.push(' '),
            _ => {
                for c in h.children.borrow().iter() {
                    text_of(c, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut stack = vec![dom.document.clone()];
    while let Some(h) = stack.pop() {
        if let NodeData::Element { name, attrs, .. } = &h.data {
            let attrs = attrs
                .borrow()
                .iter()
                .map(|a| (a.name.local.to_string(), a.value.to_string()))
                .collect();
            let mut text = String::new();
            text_of(&h, &mut text);
            out.push((name.local.to_string(), attrs, text));
        }
        for c in h.children.borrow().iter().rev() {
            stack.push(c.clone());
        }
    }
    out
}

/// Checks one HTML document: no parse error, one `<html>`, the body's text is the text
/// output's words.
fn check_html(doc: &str, what: &str) -> Vec<El> {
    assert!(doc.starts_with("<!DOCTYPE html>\n"), "{what}: {doc:.80}");
    let (dom, errors) = parse_html(doc);
    assert!(errors.is_empty(), "{what}: parse errors {errors:?}\n{doc}");
    elements(&dom)
}

fn has(els: &[El], name: &str, text: &str) -> bool {
    els.iter().any(|(n, _, t)| n == name && t.contains(text))
}

fn attr<'a>(els: &'a [El], name: &str, key: &str) -> Vec<&'a str> {
    els.iter()
        .filter(|(n, _, _)| n == name)
        .filter_map(|(_, attrs, _)| {
            attrs
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
        })
        .collect()
}

/// The words of a text, for comparing the content of two formats.
fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

#[test]
fn html_output_parses_without_errors_and_keeps_the_structure() {
    for page in test_pages() {
        let p = page.to_str().expect("path");
        let doc = run(
            &["--format", "html", "--links", "--images", "--url", URL, p],
            b"",
        );
        if doc.is_empty() {
            continue;
        }
        let els = check_html(&doc, p);
        // The body holds the words text output gives (white space aside).
        let text = run(&["--url", URL, p], b"");
        let body = els
            .iter()
            .find(|(n, _, _)| n == "body")
            .map(|(_, _, t)| t.clone())
            .unwrap_or_default();
        assert_eq!(words(&body).join(" "), words(&text).join(" "), "{p}");
        assert_eq!(attr(&els, "link", "href"), [URL], "{p}");
    }

    // The article: metadata in <head>, headings, a list, a quote, a resolved link.
    let doc = run(
        &[
            "--format",
            "html",
            "--links",
            "--url",
            URL,
            "../tests/pages/article.html",
        ],
        b"",
    );
    let els = check_html(&doc, "article");
    assert_eq!(attr(&els, "html", "lang"), ["en"]);
    assert!(has(
        &els,
        "title",
        "River towns rebuild after the spring flood"
    ));
    let metas: Vec<_> = els
        .iter()
        .filter(|(n, _, _)| n == "meta")
        .map(|(_, a, _)| a.clone())
        .collect();
    let meta = |name: &str| {
        metas
            .iter()
            .find(|a| a.iter().any(|(k, v)| k == "name" && v == name))
            .and_then(|a| {
                a.iter()
                    .find(|(k, _)| k == "content")
                    .map(|(_, v)| v.clone())
            })
    };
    assert_eq!(meta("author").as_deref(), Some("Marta Kowalski"));
    assert_eq!(meta("date").as_deref(), Some("2024-04-12"));
    assert!(has(&els, "h1", "River towns rebuild"));
    assert!(has(&els, "h2", "What the council is paying for"));
    assert!(has(&els, "li", "Emergency grants for households"));
    assert!(has(&els, "ul", "A new gauge on the river"));
    assert!(has(&els, "blockquote", "Recovery is not only about walls"));
    assert_eq!(
        attr(&els, "a", "href"),
        ["https://news.example.org/flood-map"]
    );
    // Without --links the link's text stays, without the link.
    let plain = run(&["--format", "html", "../tests/pages/article.html"], b"");
    assert!(!plain.contains("<a "), "{plain}");
    assert!(plain.contains("the council’s map lists"), "{plain}");

    // The report: its table, rows and cells.
    let doc = run(&["--format", "html", "../tests/pages/report.html"], b"");
    let els = check_html(&doc, "report");
    assert!(els.iter().any(|(n, _, _)| n == "table"), "{doc}");
    assert!(
        els.iter().filter(|(n, _, _)| n == "tr").count() >= 2,
        "{doc}"
    );
    assert!(els.iter().any(|(n, _, _)| n == "td"), "{doc}");
}

#[test]
fn html_output_of_misplaced_and_hostile_markup_is_valid() {
    let doc = run(
        &[
            "--format", "html", "--links", "--algo", "rules", "--url", URL, "-",
        ],
        MESSY.as_bytes(),
    );
    let els = check_html(&doc, "messy");
    // The declared `en-GB`, as a lower-case BCP 47 tag.
    assert_eq!(attr(&els, "html", "lang"), ["en-gb"]);
    assert!(has(&els, "title", "A <b> \"title\" & more"), "{doc}");
    assert!(
        doc.contains("content=\"Ann &quot;A&quot; &lt;Lee&gt;\""),
        "{doc}"
    );
    assert!(has(&els, "h1", "Messy page"));
    assert!(has(&els, "li", "Loose text in a list"), "{doc}");
    assert!(has(&els, "li", "nested without item"), "{doc}");
    assert!(has(&els, "td", "orphan cell"), "{doc}");
    assert!(has(&els, "th", "head cell"), "{doc}");
    assert!(has(&els, "li", "an item outside any list"), "{doc}");
    assert!(has(&els, "pre", "println!(\"<hi>\");"), "{doc}");
    assert!(has(&els, "code", "fn main()"), "{doc}");
    assert!(
        has(&els, "blockquote", "Quoted text without a paragraph"),
        "{doc}"
    );
    assert!(has(&els, "li", "Its definition"), "{doc}");
    assert!(!doc.contains('\u{1}') && !doc.contains('\u{7f}') && !doc.contains('\u{fffe}'));
    assert!(!doc.contains("javascript:"), "{doc}");
    let hrefs = attr(&els, "a", "href");
    assert!(
        hrefs.contains(&"https://news.example.org/rel?a=1&b=2"),
        "{hrefs:?}"
    );
    assert!(has(&els, "p", "script link"), "{doc}");
    assert!(hrefs.contains(&"https://news.example.org/a"), "{hrefs:?}");
}

/// Pages as JSON lines records (`{"url", "html"}`).
fn jsonl(pages: &[PathBuf]) -> Vec<u8> {
    run_util::jsonl(pages.iter().enumerate().map(|(i, p)| {
        let html = String::from_utf8_lossy(&std::fs::read(p).expect("page")).into_owned();
        serde_json::json!({"id": format!("page-{i}"), "url": format!("{URL}?p={i}"), "html": html})
    }))
}

#[test]
fn many_records_give_one_document_each() {
    let mut pages = test_pages();
    pages.extend(shared_pages(25));
    let input = jsonl(&pages);
    for format in ["html", "xml"] {
        let out = run(&["--format", format, "--links", "--images", "-"], &input);
        let docs: Vec<&str> = out.split("\x0c\n").collect();
        // A page without main text writes nothing, so no more documents than pages.
        assert!(
            docs.len() <= pages.len() && docs.len() >= pages.len() * 3 / 4,
            "{format}: {} documents for {} pages",
            docs.len(),
            pages.len()
        );
        for (i, doc) in docs.iter().enumerate() {
            let what = format!("{format} document {i}");
            if format == "html" {
                check_html(doc, &what);
            } else {
                check_xml(doc, &what);
            }
        }
        // The same with -j 2.
        assert_eq!(
            run(
                &["-j", "2", "--format", format, "--links", "--images", "-"],
                &input
            ),
            out
        );
    }
}

/// Checks one XML document: well-formed, `<doc>` holding `<main>` and `<comments>`; gives the
/// document's attributes and its elements' names.
fn check_xml(doc: &str, what: &str) -> (Vec<(String, String)>, Vec<String>) {
    let parsed = roxmltree::Document::parse(doc).unwrap_or_else(|e| panic!("{what}: {e}\n{doc}"));
    let root = parsed.root_element();
    assert_eq!(root.tag_name().name(), "doc", "{what}");
    let children: Vec<_> = root
        .children()
        .filter(|c| c.is_element())
        .map(|c| c.tag_name().name().to_string())
        .collect();
    assert_eq!(children, ["main", "comments"], "{what}");
    let attrs = root
        .attributes()
        .map(|a| (a.name().to_string(), a.value().to_string()))
        .collect();
    let names = parsed
        .descendants()
        .filter(|n| n.is_element())
        .map(|n| {
            let rend = n
                .attribute("rend")
                .map(|r| format!("[{r}]"))
                .unwrap_or_default();
            format!("{}{rend}", n.tag_name().name())
        })
        .collect();
    (attrs, names)
}

#[test]
fn xml_output_is_well_formed_with_trafilaturas_elements() {
    for page in test_pages() {
        let p = page.to_str().expect("path");
        let doc = run(
            &["--format", "xml", "--links", "--images", "--url", URL, p],
            b"",
        );
        if !doc.is_empty() {
            check_xml(&doc, p);
        }
    }
    let doc = run(
        &[
            "--format",
            "xml",
            "--links",
            "--url",
            URL,
            "../tests/pages/article.html",
        ],
        b"",
    );
    let (attrs, names) = check_xml(&doc, "article");
    let get = |k: &str| attrs.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    assert_eq!(
        get("title"),
        Some("River towns rebuild after the spring flood")
    );
    assert_eq!(get("author"), Some("Marta Kowalski"));
    assert_eq!(get("date"), Some("2024-04-12"));
    assert_eq!(get("url"), Some(URL));
    assert_eq!(get("hostname"), Some("news.example.org"));
    assert_eq!(get("language"), Some("en"));
    for name in [
        "head[h1]", "head[h2]", "p", "list[ul]", "item", "quote", "ref", "hi[#i]",
    ] {
        assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
    }
    assert!(
        doc.contains("<ref target=\"https://news.example.org/flood-map\">the council’s map</ref>"),
        "{doc}"
    );

    let doc = run(&["--format", "xml", "../tests/pages/report.html"], b"");
    let (_, names) = check_xml(&doc, "report");
    for name in ["table", "row", "cell"] {
        assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
    }

    let doc = run(
        &["--format", "xml", "--links", "--algo", "rules", "-"],
        MESSY.as_bytes(),
    );
    let (attrs, names) = check_xml(&doc, "messy");
    assert!(
        attrs
            .iter()
            .any(|(k, v)| k == "title" && v == "A <b> \"title\" & more"),
        "{attrs:?}"
    );
    assert!(
        attrs
            .iter()
            .any(|(k, v)| k == "description" && v == "x]]>y"),
        "{attrs:?}"
    );
    for name in ["code", "list[ul]", "cell", "quote"] {
        assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
    }
    assert!(doc.contains("println!(\"&lt;hi&gt;\");"), "{doc}");
}

#[test]
fn the_formats_are_named_in_help_and_errors() {
    let help = pith_args(&["--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains("html (a whole HTML document per page"),
        "{help}"
    );
    assert!(help.contains("xml (trafilatura's <doc>"), "{help}");
    let o = pith_args(&["--format", "htm", "x.html"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("html") && err.contains("xml"), "{err}");
    // A page without main text writes nothing, as text output does.
    let o = pith(
        &["--format", "html", "-"],
        b"<html><head><title>T</title></head><body><div></div></body></html>",
    );
    assert!(
        o.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}
