//! Site templates end to end: `pith learn` from files and from streams grouped by host,
//! `pith template show`, FastCE with `--templates` in every input format and with -j, the
//! fallback to the chosen algorithm (the rules, or the block model by default), `--algo ce`
//! over pages given together, and real sites of msv_big9, same year and across years (in
//! ../shared: ignored without it, see tests/common). FastCE alone and its judging, in-process:
//! the library's `tests/it/fastce.rs`.

use crate::common;
use crate::common::sites::div_site_page;
use crate::common::sorted_files as html_files;

use std::path::PathBuf;
use std::process::Output;

use crate::run_util;
use run_util::{assert_in, assert_out, pith_args as pith, with_templates};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pith-templates-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn site_page(n: usize) -> String {
    format!("../tests/pages/site-news/page{n}.html")
}

const REDESIGN: &str = "../tests/pages/site-news-redesign/page1.html";
/// The site's layout with hardly any story in it (a gallery page).
const THIN: &str = "../tests/pages/site-news-thin/page1.html";

/// Learns news.example from pages 1-5 into a fresh store.
fn learned_store(name: &str) -> PathBuf {
    let store = tmp(name);
    let pages: Vec<String> = (1..=5).map(site_page).collect();
    let mut args = vec!["learn", "--host", "news.example", "--min-pages", "3", "-o"];
    let s = store.to_str().expect("utf-8 path").to_string();
    args.push(&s);
    args.extend(pages.iter().map(String::as_str));
    let o = pith(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    store
}

fn text(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 output")
}

fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    text(o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn learn_writes_a_small_template_and_show_prints_it() {
    let store = learned_store("show");
    let file = store.join("news.example.tpl");
    let size = std::fs::metadata(&file).expect("template written").len();
    assert!(size < 64 * 1024, "{size} bytes");
    let o = pith(&["template", "show", file.to_str().expect("path")]);
    assert!(o.status.success());
    let f: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(f["host"], "news.example");
    assert_eq!(f["format_version"], 2);
    // The five pages share one layout: one cluster, one template, with its signature.
    assert_eq!(f["templates"].as_array().map(Vec::len), Some(1), "{f}");
    let v = &f["templates"][0];
    assert_eq!(v["algo"], "fastce+auto");
    assert_eq!(v["signature_length"], 128);
    assert!(v["template_paths"].as_u64().unwrap_or(0) > 20, "{v}");
    assert_eq!(v["pages"], 5);
    assert_eq!(v["parameters"]["similarity"], 0.9);
    let paths: Vec<&str> = v["content_paths"]
        .as_array()
        .expect("paths")
        .iter()
        .filter_map(|p| p.as_str())
        .collect();
    // The story's paragraphs and headline are content paths; the nav list and footer are not.
    assert!(paths.contains(&"html.body.div.div.div.p"), "{paths:?}");
    assert!(paths.contains(&"html.body.div.div.div.h1"), "{paths:?}");
    assert!(!paths.iter().any(|p| p.ends_with(".li")), "{paths:?}");
    // The sidebar's newsletter paragraph shares the story's path: stored as non-content.
    assert!(
        v["noncontent_blocks"]
            .as_array()
            .expect("blocks")
            .iter()
            .any(|b| b["path"] == "html.body.div.div.div.p")
    );
}

#[test]
fn fastce_extracts_a_new_page_of_the_site_in_order() {
    let store = learned_store("apply");
    let s = store.to_str().expect("path");
    let o = with_templates(
        s,
        "https://news.example/travel/night-trains",
        &[&site_page(6)],
    );
    assert!(o.status.success());
    let v = &json_lines(&o)[0];
    assert_eq!(v["algo"], "fastce+auto");
    let t = v["text"].as_str().expect("text");
    // The byline is a content block for the template, but `auto` drops class="byline" and
    // the combination keeps what both select.
    assert!(
        t.starts_with("Night trains return to the coast line\nSleeper trains"),
        "{t}"
    );
    assert!(t.contains("The rail company bought twenty refurbished carriages"));
    assert!(t.trim_end().ends_with("book a month ahead."), "{t}");
    assert_out(
        t,
        &[
            "Weather",
            "Most read",
            "newsletter",
            "Copyright",
            "Privacy policy",
        ],
    );
    // Plain text output too, and the www. form of the host finds the same template.
    let o = pith(&[
        "--templates",
        s,
        "--url",
        "http://www.news.example/",
        &site_page(6),
    ]);
    assert!(text(&o).contains("Sleeper trains will run again"));
    assert!(!text(&o).contains("Ferry strike called off"));
}

/// A page the template does not fit falls back to the algorithm `--algo` chose: the rules with
/// `--algo rules` (JSON `algo` `rules`), the block model by default (`model`).
#[test]
fn another_layout_falls_back_to_the_chosen_algorithm() {
    let store = learned_store("fallback");
    let s = store.to_str().expect("path");
    for (algo, want) in [(&["--algo", "rules"][..], "rules"), (&[][..], "model")] {
        let o = with_templates(
            s,
            "https://news.example/local/library",
            &[algo, &[REDESIGN]].concat(),
        );
        let v = &json_lines(&o)[0];
        assert_eq!(v["algo"], want);
        assert!(
            v["text"]
                .as_str()
                .expect("text")
                .contains("The central library will stay open until ten in the evening"),
            "{want}: {v}"
        );
        // The learned layout with almost no content where the stories are: FastCE finds far
        // less than any training page had, so the chosen algorithm runs.
        let o = with_templates(s, "https://news.example/g", &[algo, &[THIN]].concat());
        assert_eq!(json_lines(&o)[0]["algo"], want, "thin page");
        // A host without a template, and a page without a URL, run it as well.
        for url in ["https://elsewhere.example/a", ""] {
            let mut args = algo.to_vec();
            args.extend(["--templates", s, "--format", "json"]);
            if !url.is_empty() {
                args.extend(["--url", url]);
            }
            let page = site_page(6);
            args.push(&page);
            let v = &json_lines(&pith(&args))[0];
            assert_eq!(v["algo"], want, "{url}");
        }
    }
}

fn jsonl(pages: &[(String, String)]) -> Vec<u8> {
    run_util::jsonl(pages.iter().map(|(url, file)| {
        let html = std::fs::read_to_string(file).expect("fixture");
        serde_json::json!({"url": url, "html": html})
    }))
}

/// The pages as WARC `response` records, each with its URL and an HTTP head.
fn warc(pages: &[(String, String)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (n, (url, file)) in pages.iter().enumerate() {
        let http = [
            run_util::HTML_HEAD.as_bytes(),
            &std::fs::read(file).expect("fixture"),
        ]
        .concat();
        let ctype = "application/http; msgtype=response";
        out.extend(run_util::record("response", url, n, ctype, &http));
    }
    out
}

#[test]
fn templates_work_in_jsonl_and_warc_and_with_workers() {
    let store = learned_store("formats");
    let s = store.to_str().expect("path");
    let pages = vec![
        ("https://news.example/a".to_string(), site_page(6)),
        ("https://other.example/b".to_string(), site_page(6)),
        ("https://news.example/c".to_string(), REDESIGN.to_string()),
        ("https://news.example/d".to_string(), site_page(1)),
    ];
    // Pages the template does not fit fall back to the default algorithm, the block model.
    let want = ["fastce+auto", "model", "model", "fastce+auto"];
    for j in ["1", "2"] {
        let o = run_util::pith(
            &["--templates", s, "--format", "json", "-j", j],
            &jsonl(&pages),
        );
        let algos: Vec<String> = json_lines(&o)
            .iter()
            .map(|v| v["algo"].as_str().unwrap_or("").to_string())
            .collect();
        assert_eq!(algos, want, "jsonl -j {j}");
        let o = run_util::pith(
            &["--templates", s, "--format", "json", "-j", j],
            &warc(&pages),
        );
        let lines = json_lines(&o);
        let algos: Vec<&str> = lines
            .iter()
            .map(|v| v["algo"].as_str().unwrap_or(""))
            .collect();
        assert_eq!(
            algos,
            want,
            "warc -j {j}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            lines[0]["text"]
                .as_str()
                .unwrap_or("")
                .contains("Tickets go on sale next week")
        );
    }
}

#[test]
fn learn_groups_a_stream_by_host_with_min_and_max_pages() {
    let store = tmp("stream");
    let mut pages: Vec<(String, String)> = (1..=6)
        .map(|n| (format!("https://news.example/{n}"), site_page(n)))
        .collect();
    pages.push(("https://tiny.example/1".into(), REDESIGN.into()));
    let input = tmp("stream-in");
    std::fs::create_dir_all(&input).expect("dir");
    let file = input.join("crawl.jsonl");
    std::fs::write(&file, jsonl(&pages)).expect("write");
    let o = pith(&[
        "learn",
        "-o",
        store.to_str().expect("path"),
        "--min-pages",
        "3",
        "--max-pages",
        "4",
        file.to_str().expect("path"),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("news.example: 4 pages (of 6 seen)"), "{err}");
    assert!(
        err.contains("tiny.example: 1 pages, fewer than --min-pages 3"),
        "{err}"
    );
    assert!(!store.join("tiny.example.tpl").exists());
    // Names of paths are kept once per host, and still shown.
    let tpl = store.join("news.example.tpl");
    let o = pith(&["template", "show", tpl.to_str().expect("path")]);
    let f: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let v = &f["templates"][0];
    assert_eq!(v["pages"], 4);
    assert!(
        v["content_paths"]
            .as_array()
            .expect("paths")
            .iter()
            .any(|p| p == "html.body.div.div.div.p")
    );
    // The same from a WARC.
    let store2 = tmp("stream-warc");
    std::fs::write(input.join("crawl.warc"), warc(&pages)).expect("write");
    let o = pith(&[
        "learn",
        "-o",
        store2.to_str().expect("path"),
        "--min-pages",
        "3",
        input.join("crawl.warc").to_str().expect("path"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(store2.join("news.example.tpl").exists());
    // Plain files without --host have no host to group by.
    let o = pith(&["learn", "-o", store2.to_str().expect("path"), &site_page(1)]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("give --host HOST"));
}

#[test]
fn content_extractor_over_pages_given_together() {
    let pages: Vec<String> = (1..=6).map(site_page).collect();
    let mut args = vec!["--algo", "ce"];
    args.extend(pages.iter().map(String::as_str));
    let o = pith(&args);
    assert!(o.status.success());
    let out = text(&o);
    let per_page: Vec<&str> = out.split("\x0c\n").collect();
    assert_eq!(per_page.len(), 6);
    assert!(per_page[0].contains("The city council approved the new river bridge on Tuesday"));
    assert!(per_page[5].contains("Sleeper trains will run again"));
    for boiler in [
        "Business",
        "Most read",
        "Storm warning",
        "newsletter",
        "All rights reserved",
    ] {
        assert!(!out.contains(boiler), "{boiler}");
    }
    // One page is no site; JSON is not what CE writes.
    let o = pith(&["--algo", "ce", &site_page(1)]);
    assert!(!o.status.success());
    let o = pith(&[
        "--algo",
        "ce",
        "--format",
        "json",
        &site_page(1),
        &site_page(2),
    ]);
    assert_eq!(o.status.code(), Some(2));
}

/// msv_big9, of ../shared.
fn msv() -> PathBuf {
    common::shared("data/msv_big9")
}

/// Leave-one-out on a site-year of msv_big9 (`SITE/YEAR`): `pith learn` on its pages but page
/// `id`, into a fresh store; the store's path and the held-out page's file.
fn learn_site_year(site_year: &str, id: &str) -> (String, String) {
    let pages = html_files(&msv().join(site_year).join("html"));
    let held_out = pages
        .iter()
        .find(|f| f.ends_with(&format!("{id}.html")))
        .unwrap_or_else(|| panic!("{site_year} {id} not found"))
        .clone();
    let host = site_year.split('/').next().unwrap_or("");
    let s = tmp(&format!("loo-{id}"))
        .to_str()
        .expect("path")
        .to_string();
    let mut args = vec!["learn", "--host", host, "--min-pages", "9", "-o", &s];
    args.extend(pages.iter().filter(|f| **f != held_out).map(String::as_str));
    let o = pith(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    (s, held_out)
}

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn real_site_same_year_and_across_years() {
    let (s, held_out) = learn_site_year("news.bbc.co.uk/2005", "000fe1561ca2");
    let url = "http://news.bbc.co.uk/2/hi/americas/4399571.stm";
    let v = &json_lines(&with_templates(&s, url, &[&held_out]))[0];
    assert_eq!(v["algo"], "fastce+auto");
    let t = v["text"].as_str().expect("text");
    assert!(t.contains("He is a Falklands war veteran who tried to commit suicide."));
    assert!(t.contains("Around 650 Argentines were killed in the Falklands war."));
    for boiler in [
        "Printable version",
        "News Front Page",
        "Privacy and Cookies Policy",
        "Back to top",
    ] {
        assert!(!t.contains(boiler), "{boiler}");
    }
    // Across years: the 2005 template does not fit the 2015 redesign; those pages fall back
    // to the chosen algorithm, here the rules, and still give their article.
    let y2015 = html_files(&msv().join("news.bbc.co.uk/2015/html"));
    for page in &y2015 {
        let v = &json_lines(&with_templates(&s, url, &["--algo", "rules", page]))[0];
        assert_eq!(v["algo"], "rules", "{page}");
        assert!(v["text"].as_str().unwrap_or("").len() > 500, "{page}");
    }
}

#[test]
fn hostile_pages_learn_and_apply_without_blowing_up() {
    // A wide page of 40,000 distinct paragraphs and a page nested 90,000 deep (both under
    // the element budget, 96 Ki units of markup): CE compares at most a bounded number of
    // blocks per page and nothing walks the tree recursively.
    let dir = tmp("hostile");
    std::fs::create_dir_all(&dir).expect("dir");
    let mut wide = String::from("<html><body>");
    for i in 0..40_000u32 {
        wide.push_str(&format!(
            "<p>alpha{i} beta{} gamma</p>",
            i.wrapping_mul(7919)
        ));
    }
    let mut deep = String::from("<html><body>");
    deep.push_str(&"<div>".repeat(90_000));
    deep.push_str("deep words at the bottom");
    let (w, d) = (dir.join("wide.html"), dir.join("deep.html"));
    std::fs::write(&w, &wide).expect("write");
    std::fs::write(&d, &deep).expect("write");
    let store = dir.join("store");
    let (ws, ds, ss) = (
        w.to_str().expect("path"),
        d.to_str().expect("path"),
        store.to_str().expect("path"),
    );
    let o = pith(&[
        "learn",
        "--host",
        "h.example",
        "--min-pages",
        "2",
        "-o",
        ss,
        ws,
        ds,
        ws,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = with_templates(ss, "http://h.example/", &[ws, ds]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(json_lines(&o).len(), 2);
    let o = pith(&["--algo", "ce", ws, ds]);
    assert!(o.status.success());
}

/// What combining the template with `auto` fixes, on a real page (msv_big9, foxnews 2010,
/// learned from the site-year's other nine pages): the template alone keeps the "Latest
/// Politics Video" headline list and the poll table beside the article, because they sit at
/// content paths and change from page to page; `auto` drops them, and the article stays.
#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn template_and_auto_together_drop_page_varying_link_lists() {
    let (s, held_out) = learn_site_year("www.foxnews.com/2010", "461a55ef5e0a");
    let url = "http://www.foxnews.com/politics/2010/01/05/obama-meets-agency-heads/";
    let v = &json_lines(&with_templates(&s, url, &[&held_out]))[0];
    // The nine pages form more than one cluster: the label names the template that ran.
    let algo = v["algo"].as_str().unwrap_or("");
    assert!(algo.starts_with("fastce+auto"), "{algo}");
    let t = v["text"].as_str().expect("text");
    assert_in(
        t,
        &[
            "He said the government will quickly make changes to ensure future attempts are thwarted.",
            "\"The system has failed in a potentially disastrous way,\" Obama said.",
        ],
    );
    assert_out(
        t,
        &[
            "Latest Politics Video",
            "Hannity, Malkin debate full body scans",
            "Are Democrats running scared?",
            "Real Clear Politics Poll",
        ],
    );
}

/// A quotation inside the article block sits at a path no training page had: the paper's
/// sub-block rules leave it out (it is not in P and holds nothing in P), but the template has
/// no evidence against it, so `pith --templates` extracts it with the article block around it.
/// A block at an unseen path outside every extracted block (a new widget) stays out. FastCE
/// alone on the same page: the library's `tests/it/fastce.rs`.
#[test]
fn a_sub_block_at_a_path_no_training_page_had_goes_with_its_block() {
    let quote = "We waited years for this, said a commuter from the coast.";
    let widget = "Win a weekend by the sea in our summer quiz.";
    // The site's template, learned by `pith learn` from six of its pages.
    let dir = tmp("unknown-path");
    std::fs::create_dir_all(&dir).expect("dir");
    let files: Vec<String> = (0..6)
        .map(|n| {
            let f = dir.join(format!("page{n}.html"));
            std::fs::write(&f, div_site_page(n, "", "")).expect("page");
            f.to_str().expect("path").to_string()
        })
        .collect();
    let store = dir.join("store");
    let st = store.to_str().expect("path").to_string();
    let mut args = vec![
        "learn",
        "--host",
        "div.example",
        "--min-pages",
        "3",
        "-o",
        &st,
    ];
    args.extend(files.iter().map(String::as_str));
    let o = pith(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let page = div_site_page(
        6,
        &format!("<blockquote>{quote}</blockquote>"),
        &format!("<aside><p>{widget}</p></aside>"),
    );
    let o = run_util::pith(
        &[
            "--templates",
            &st,
            "--url",
            "https://div.example/x",
            "--format",
            "json",
        ],
        page.as_bytes(),
    );
    let v = &json_lines(&o)[0];
    assert_eq!(v["algo"], "fastce+auto");
    let text = v["text"].as_str().expect("text");
    assert!(text.contains("Night buses return"), "{text}");
    assert!(text.contains(quote), "{text}");
    for boiler in [widget, "Copyright", "Home"] {
        assert!(!text.contains(boiler), "{boiler} in {text}");
    }
}

/// The same on real pages (msv_big9, learned with `pith learn` from the site-year's other
/// nine pages): a bbc 2010 story's bullet list between its paragraphs, at a path no training
/// page had, and an esquire 2015 post whose paragraphs are `<div>`s where the training pages
/// had only other `<div>`s (non-content) and `<p>` paragraphs. Both were lost before blocks
/// between blocks in P were judged (bag-of-words F1 0.901 and 0.895 against `auto`'s 0.979
/// and 0.990).
#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn real_article_text_between_content_blocks_is_kept() {
    for (site_year, id, url, sentence) in [
        (
            "news.bbc.co.uk/2010",
            "2cf44e3f6fd9",
            "http://news.bbc.co.uk/2/hi/americas/story.stm",
            "The third tower was occupied by the Secret Service, the CIA,",
        ),
        (
            "www.esquire.com/2015",
            "351b22d287c9",
            "http://www.esquire.com/blogs/news/ron-johnson-ferguson",
            "to two different groups of gang members.",
        ),
    ] {
        let (s, held_out) = learn_site_year(site_year, id);
        let o = with_templates(&s, url, &[&held_out]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v = &json_lines(&o)[0];
        let algo = v["algo"].as_str().unwrap_or("");
        assert!(algo.starts_with("fastce+auto"), "{site_year} {id}: {algo}");
        let t = v["text"].as_str().expect("text");
        assert!(
            t.contains(sentence),
            "{site_year} {id}: {sentence} missing from {t}"
        );
    }
}
