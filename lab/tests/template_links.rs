//! Site-level templates from links: link selection with and without a complete subdigraph,
//! the node-level scores on generated sites (the thesis' Table 5.1 measures; target F1 ≥ 0.95),
//! `pith template extract` over a WARC crawl, and the WARC samples of ../shared (ignored without
//! it: see tests/common).

#[path = "../../tests/common/mod.rs"]
mod common;

use std::process::{Command, Output};

use pith::site::links::{self, Params, Site};
use pith_lab::sites::{NodeCounts, SYNTH_SEEDS, synthetic_site};
use pith_lab::synth::{self, Layout};

/// The `pith` binary beside `pith-lab` (the lab's tests drive it through `pith template` and
/// `pith learn`; `cargo test --workspace` builds it before any test runs).
fn pith(args: &[&str]) -> Output {
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_pith-lab")).with_file_name("pith");
    assert!(
        bin.is_file(),
        "{} not built: run the lab's tests with `cargo test --workspace`",
        bin.display()
    );
    Command::new(bin).args(args).output().expect("run pith")
}

fn pith_lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pith-lab"))
        .args(args)
        .output()
        .expect("run pith-lab")
}

fn crawl(site: &synth::Site) -> Site {
    let mut c = Site::default();
    for p in &site.pages {
        c.insert(&p.url, p.html.clone().into_bytes());
    }
    c
}

#[test]
fn an_article_finds_a_complete_subdigraph_of_its_section() {
    let site = synth::site(2, Layout::Semantic);
    let c = crawl(&site);
    let key = site.pages.iter().find(|p| p.article).expect("an article");
    let s = links::select(&c, &key.url, &Params::default()).expect("selection");
    assert!(s.complete && !s.fallback, "{s:?}");
    assert_eq!((s.cs, s.pages.len()), (3, 3));
    // Same-directory links come first (hyperlink distance 0): the CS is the key's siblings in
    // its section, which its submenu links and which link one another.
    let dir = key.url.rsplit_once('/').map(|(d, _)| d).expect("dir");
    assert!(s.pages.iter().all(|u| u.starts_with(dir)), "{:?}", s.pages);
    assert!(!s.pages.contains(&key.url));
    // Only the pages needed were loaded.
    assert!(s.loaded < s.links, "{} of {}", s.loaded, s.links);
}

#[test]
fn without_a_complete_subdigraph_it_says_so_and_samples() {
    // A hub whose links lead to pages that link back only to the hub.
    let mut c = Site::default();
    let leaf = |i: usize| {
        format!(
            "<html><body><div class=top><a href=/>Hub</a></div><p>Leaf page number {i} with its own words.</p>\
             <div class=foot>Footer of the site</div></body></html>"
        )
    };
    let mut hub = String::from("<html><body><div class=top>Hub</div><ul>");
    for i in 0..5 {
        hub.push_str(&format!("<li><a href=/leaf{i}.html>Leaf {i}</a></li>"));
        c.insert(
            &format!("http://hub.example/leaf{i}.html"),
            leaf(i).into_bytes(),
        );
    }
    hub.push_str("</ul><div class=foot>Footer of the site</div></body></html>");
    c.insert("http://hub.example/", hub.into_bytes());
    let s = links::select(&c, "http://hub.example/", &Params::default()).expect("selection");
    assert!(s.fallback && !s.complete && s.cs == 0, "{s:?}");
    assert_eq!(s.pages.len(), 3);
    assert!(s.pages.iter().all(|u| u.contains("leaf")));
    // Two leaves linking each other form a 2-CS: smaller than n, used, not a fallback.
    let mut c2 = Site::default();
    c2.insert(
        "http://two.example/",
        b"<a href=/a.html>a</a><a href=/b.html>b</a>".to_vec(),
    );
    c2.insert(
        "http://two.example/a.html",
        b"<a href=/b.html>b</a> page a".to_vec(),
    );
    c2.insert(
        "http://two.example/b.html",
        b"<a href=/a.html>a</a> page b".to_vec(),
    );
    let s = links::select(&c2, "http://two.example/", &Params::default()).expect("selection");
    assert!(!s.fallback && !s.complete && s.cs == 2, "{s:?}");
    // A key page that is not in the input is an error naming it; so is a lone page.
    let e = links::select(&c2, "http://two.example/missing", &Params::default());
    assert!(e.is_err_and(
        |e| e.key == "http://two.example/missing" && e.kind == links::LinkErrorKind::NotInSite
    ));
    let mut lone = Site::default();
    lone.insert("http://lone.example/", b"<p>alone</p>".to_vec());
    assert!(links::select(&lone, "http://lone.example/", &Params::default()).is_err());
}

#[test]
fn link_templates_reach_the_target_f1_on_generated_sites() {
    let mut total = NodeCounts::default();
    for layout in Layout::ALL {
        for seed in 1..=SYNTH_SEEDS {
            let c = synthetic_site(&synth::site(seed, layout), &Params::default());
            assert!(
                c.keys > 10 && c.complete == c.keys,
                "{layout:?} {seed}: {c:?}"
            );
            // Every site on its own stays above 0.9.
            assert!(c.f1() > 0.9, "{layout:?} {seed}: {c:?}");
            total.keys += c.keys;
            total.gold += c.gold;
            total.retrieved += c.retrieved;
            total.correct += c.correct;
        }
    }
    assert!(total.f1() >= 0.95, "{total:?} F1 {}", total.f1());
}

#[test]
fn the_template_holds_menus_and_footer_and_not_the_story() {
    let site = synth::site(1, Layout::Divs);
    let c = crawl(&site);
    let key = site.pages.iter().find(|p| p.article).expect("article");
    let x = links::extract(&c, &key.url, &Params::default()).expect("template");
    assert!(x.template_text.contains("Most read") && x.template_text.contains("Privacy"));
    assert!(x.template_text.contains("Home") && x.template_text.contains("Newsletter"));
    // The headline (the page's title) is content.
    let arena = bumpalo::Bump::new();
    let doc = pith::lab::html::Document::parse(&key.html, &arena);
    let h1 = doc
        .tree
        .nodes
        .iter()
        .position(|n| n.tag == pith::lab::html::Tag::H1)
        .expect("h1");
    let headline = doc.text_of(h1 as u32);
    assert!(x.content.contains(&headline) && !x.template_text.contains(&headline));
    assert!(!x.content.contains("Most read"));
    assert!(x.template_nodes > 50 && x.template_nodes < x.dom_nodes);
}

fn warc(pages: &[(&str, &str)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, (url, html)) in pages.iter().enumerate() {
        let mut http =
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n".to_vec();
        http.extend_from_slice(html.as_bytes());
        out.extend_from_slice(
            format!(
                "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {url}\r\n\
                 WARC-Record-ID: <urn:uuid:{i}>\r\nContent-Type: application/http; msgtype=response\r\n\
                 Content-Length: {}\r\n\r\n",
                http.len()
            )
            .as_bytes(),
        );
        out.extend_from_slice(&http);
        out.extend_from_slice(b"\r\n\r\n");
    }
    out
}

#[test]
fn template_extract_reads_a_warc_crawl() {
    let site = synth::site(3, Layout::Tables);
    let pages: Vec<(&str, &str)> = site
        .pages
        .iter()
        .map(|p| (p.url.as_str(), p.html.as_str()))
        .collect();
    let dir = std::env::temp_dir().join(format!("pith-links-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let file = dir.join("crawl.warc");
    std::fs::write(&file, warc(&pages)).expect("write");
    let f = file.to_str().expect("path");
    let key = site.pages.iter().find(|p| p.article).expect("article");
    let o = pith(&["template", "extract", "--key", &key.url, f]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["complete"], true);
    assert_eq!(v["cs_size"], 3);
    assert!(
        v["template"]
            .as_str()
            .is_some_and(|t| t.contains("About us"))
    );
    assert!(v["template_nodes"].as_u64() < v["dom_nodes"].as_u64());
    // A key page not in the crawl: an error naming it.
    let o = pith(&[
        "template",
        "extract",
        "--key",
        "http://elsewhere.example/",
        f,
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("elsewhere.example"));
    // `pith learn --select links` learns the host's FastCE template from its home page and the
    // complete subdigraph its menu leads to; `--templates` then uses it.
    let store = dir.join("store");
    let s = store.to_str().expect("path");
    let o = pith(&["learn", "--select", "links", "--min-pages", "5", "-o", s, f]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("learning from links: key http://site3-tables.example/, a 3-CS"),
        "{err}"
    );
    assert!(err.contains("4 pages (of"), "{err}");
    let o = pith(&["--templates", s, "--format", "json", f]);
    let docs: Vec<serde_json::Value> = o
        .stdout
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).expect("json"))
        .collect();
    assert_eq!(docs.len(), site.pages.len());
    assert!(docs.iter().any(|d| d["algo"] == "fastce+auto"));
    let o = pith(&["learn", "--select", "nearby", "-o", s, f]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn warc_samples_as_crawls() {
    let d = common::shared("data/warc_samples/files/node-warc-books.toscrape.warc");
    let o = pith_lab(&["eval-links", d.to_str().expect("path")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    let row = out
        .lines()
        .find(|l| l.starts_with("| node-warc-books.toscrape.warc"))
        .expect("a row for the crawl");
    // Columns: crawl, pages, hosts, n-CS, smaller, fallback, none, ...
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    let num = |i: usize| cells[i].parse::<usize>().expect("number");
    assert!(num(2) > 0, "{row}");
    assert_eq!(num(4) + num(5) + num(6) + num(7), num(2), "{row}");
}

#[test]
fn hostile_key_pages_stay_bounded() {
    // A key page of 30,000 links, nested 400 deep after a nesting 20,000 deep, whose targets
    // all link back to it and to each other: the search considers at most max_links of them.
    // (Elements beyond the parser's depth limit have no node, links included: the links sit
    // where the 20,000 `<div>`s, mostly closed again, leave 400 open, past `MAX_WALK`.) The
    // page's 80,001 units of markup are under its element budget (96 Ki).
    let mut key = String::from("<body>");
    for _ in 0..20_000 {
        key.push_str("<div>");
    }
    for _ in 0..20_000 - 400 {
        key.push_str("</div>");
    }
    for i in 0..30_000 {
        key.push_str(&format!("<a href=/p{i}.html>p{i}</a>"));
    }
    let mut c = Site::default();
    c.insert("http://big.example/", key.into_bytes());
    let menu = "<a href=/p0.html>0</a><a href=/p1.html>1</a><a href=/p2.html>2</a>";
    for i in 0..3 {
        c.insert(
            &format!("http://big.example/p{i}.html"),
            format!("<body>{menu}<p>page {i}</p></body>").into_bytes(),
        );
    }
    let s = links::select(&c, "http://big.example/", &Params::default()).expect("selection");
    assert_eq!(s.links, Params::default().max_links);
    assert!(s.complete, "{s:?}");
}
