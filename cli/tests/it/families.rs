//! Template families: TEXT-MDL clustering of pages of known layouts
//! generated here, the MinHash estimate of the MDL cost against the exact cost, `pith cluster`,
//! and several templates per host: `pith learn` writes one per cluster, detection picks the
//! template whose known block paths are nearest the page's, and a page of no learned layout
//! falls back to the chosen algorithm (the block model by default, or the rules).

use crate::run_util;
use run_util::pith_args as pith;

use std::path::PathBuf;

use pith::lab::site::cluster::{self, MinHasher};
use pith::lab::site::learn::{self, PageSummary};
use pith::lab::site::paths;

fn tmp(name: &str) -> PathBuf {
    run_util::fresh_dir("families", name)
}

/// xorshift64: the pages differ from run to run of the generator only through this seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn words(&mut self, n: usize) -> String {
        const W: &[&str] = &[
            "river", "council", "budget", "station", "harbour", "winter", "museum", "school",
            "market", "bridge", "garden", "festival", "doctor", "village", "engine", "island",
            "letter", "summer", "theatre", "farmer", "window", "silver", "forest", "signal",
        ];
        (0..n)
            .map(|_| W[self.below(W.len() as u64) as usize])
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The article layout's menu and footer links: a real template has dozens of fixed paths.
const NAV: &[&str] = &[
    "Home", "World", "Politics", "Business", "Science", "Health", "Sport", "Arts", "Travel",
    "Opinion",
];
const FOOT: &[&str] = &["About", "Contact", "Careers", "Privacy", "Terms", "Archive"];

/// A page of layout `layout` (0: a news article with a nav bar and a sidebar, 1: a photo
/// gallery built of tables, 2: a forum thread), its story text marked with `STORY`. Each page
/// varies: its story, the number of paragraphs and list items, optional boxes.
fn page(layout: usize, rng: &mut Rng) -> String {
    let story = format!("STORY {}.", rng.words(30));
    match layout {
        0 => {
            let mut s = String::from(
                "<html><head><title>Daily News</title></head><body><div id=top><ul class=nav>",
            );
            for label in NAV {
                s.push_str(&format!("<li><a href=/{label}>{label}</a></li>"));
            }
            s.push_str("</ul></div><div class=main><div class=article><h1>");
            s.push_str(&rng.words(6));
            s.push_str("</h1><p class=byline>By staff</p><p>");
            s.push_str(&story);
            s.push_str("</p>");
            for _ in 0..2 + rng.below(6) {
                s.push_str(&format!("<p>{}.</p>", rng.words(25)));
            }
            if rng.below(4) == 0 {
                s.push_str("<blockquote><p>A quote from a witness.</p></blockquote>");
            }
            s.push_str("</div><div class=side><h3>Most read</h3><ol>");
            for _ in 0..3 + rng.below(4) {
                s.push_str(&format!("<li><a href=/x>{}</a></li>", rng.words(5)));
            }
            s.push_str(
                "</ol><p>Sign up to our newsletter for the morning briefing.</p></div></div>\
                 <div class=foot><ul>",
            );
            for label in FOOT {
                s.push_str(&format!("<li><a href=/{label}>{label}</a></li>"));
            }
            s.push_str("</ul><p>Copyright Daily News.</p></div></body></html>");
            s
        }
        1 => {
            let mut s = String::from(
                "<html><head><title>Photo Gallery</title></head><body><table class=frame>\
                 <tr><td class=logo><img src=/logo.png></td><td><span>Galleries</span> \
                 <span>Popular</span> <span>Upload</span></td></tr><tr><td><form><input name=q>\
                 </form></td><td><h2>",
            );
            s.push_str(&rng.words(4));
            s.push_str("</h2><table class=grid>");
            for _ in 0..2 + rng.below(4) {
                s.push_str("<tr>");
                for _ in 0..4 {
                    s.push_str(&format!(
                        "<td><a href=/p><img src=/t.jpg></a><br><span>{}</span></td>",
                        rng.words(2)
                    ));
                }
                s.push_str("</tr>");
            }
            s.push_str("</table><div class=caption><p>");
            s.push_str(&story);
            s.push_str(
                "</p></div></td></tr><tr><td colspan=2><small>All photos reserved. \
                        Terms of use.</small></td></tr></table></body></html>",
            );
            s
        }
        _ => {
            let mut s = String::from(
                "<html><head><title>Forum</title></head><body><header><nav><a href=/f>Forums</a> \
                 <a href=/m>Members</a> <a href=/s>Search</a></nav></header><main><section \
                 class=thread><h2>Thread</h2>",
            );
            for i in 0..3 + rng.below(5) {
                s.push_str(&format!(
                    "<article class=post><header><b>user{}</b> <i>posted</i></header><div \
                     class=body><p>{}</p></div><footer><a href=/r>Reply</a> <a \
                     href=/q>Quote</a></footer></article>",
                    rng.below(50),
                    if i == 0 { story.clone() } else { rng.words(20) }
                ));
            }
            s.push_str("</section></main><footer><p>Forum rules. Powered by boards.</p></footer></body></html>");
            s
        }
    }
}

fn template_paths(html: &str) -> Vec<u64> {
    let arena = bumpalo::Bump::new();
    let doc = pith::lab::html::Document::parse(html, &arena);
    paths::page_paths(&doc)
}

/// A page's distinct block paths, what a family picks its template by.
fn block_layout(html: &str) -> Vec<u64> {
    let arena = bumpalo::Bump::new();
    let doc = pith::lab::html::Document::parse(html, &arena);
    pith::lab::extract::blocks::layout(&pith::lab::extract::blocks::blocks(&doc.tree))
}

#[test]
fn pages_of_two_layouts_form_two_clusters() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    // 40 pages, the two layouts interleaved irregularly.
    let mut layouts = Vec::new();
    let mut pages = Vec::new();
    for i in 0..40 {
        let l = usize::from(i % 3 == 0 || i % 7 == 0);
        layouts.push(l);
        pages.push(template_paths(&page(l, &mut rng)));
    }
    for k in [32, 128] {
        let c = cluster::cluster(&pages, k);
        assert_eq!(c.clusters.len(), 2, "k={k}: {:?}", c.assign);
        // Each cluster holds exactly the pages of one layout.
        for (i, &l) in layouts.iter().enumerate() {
            for (j, &m) in layouts.iter().enumerate() {
                assert_eq!(
                    c.assign[i] == c.assign[j],
                    l == m,
                    "k={k}: pages {i} and {j}"
                );
            }
        }
        // The template paths of the article cluster hold the nav labels, not any story.
        let a = c.assign[1] as usize;
        let t = &c.clusters[a].template;
        let home = pith::lab::extract::blocks::path_of("html.body.div.ul.li.a.#text:Health");
        assert!(t.binary_search(&home).is_ok());
        // The clustering found costs less than putting all pages in one cluster or leaving
        // each alone, under the exact cost.
        let essential = paths::essential(&pages);
        let one = cluster::exact_cost(&essential, &vec![0; pages.len()]);
        let alone: Vec<u32> = (0..pages.len() as u32).collect();
        let each = cluster::exact_cost(&essential, &alone);
        assert!(c.cost < one && c.cost < each, "{} {one} {each}", c.cost);
        assert!(c.merges >= pages.len() - 2);
        // The same search with the exact cost finds the same clusters.
        let e = cluster::cluster_exact(&pages, k);
        assert_eq!(e.assign, c.assign, "k={k}");
    }
}

#[test]
fn three_layouts_and_duplicates() {
    let mut rng = Rng(42);
    let mut pages = Vec::new();
    let mut layouts = Vec::new();
    for i in 0..45 {
        layouts.push(i % 3);
        pages.push(template_paths(&page(i % 3, &mut rng)));
    }
    // Exact duplicates join their cluster at once (the same signature).
    pages.push(pages[0].clone());
    layouts.push(0);
    let c = cluster::cluster(&pages, 64);
    assert_eq!(c.clusters.len(), 3, "{:?}", c.assign);
    for (i, &l) in layouts.iter().enumerate() {
        assert_eq!(c.assign[i], c.assign[l], "page {i}");
    }
}

#[test]
fn the_minhash_estimate_is_close_to_the_exact_cost() {
    // Small inputs: random path sets drawn around a few template cores, several clusterings
    // (the right one, everything together, each alone, a random one).
    let hasher = MinHasher::new(256);
    let mut rng = Rng(7);
    let mut pages: Vec<Vec<u64>> = Vec::new();
    let mut truth = Vec::new();
    for i in 0..24u64 {
        let t = i % 3;
        let mut set: Vec<u64> = (0..200)
            .filter(|_| rng.below(10) < 8)
            .map(|p| t * 1000 + p)
            .collect();
        set.extend((0..20).map(|_| 10_000 + rng.below(60)));
        set.sort_unstable();
        set.dedup();
        pages.push(set);
        truth.push(t as u32);
    }
    let random: Vec<u32> = (0..pages.len()).map(|_| rng.below(4) as u32).collect();
    let alone: Vec<u32> = (0..pages.len() as u32).collect();
    for (name, assign) in [
        ("truth", truth.clone()),
        ("one", vec![0; pages.len()]),
        ("alone", alone),
        ("random", random),
    ] {
        let exact = cluster::exact_cost(&pages, &assign);
        let est = cluster::estimated_cost(&pages, &assign, &hasher);
        let err = (est - exact).abs() / exact;
        assert!(err < 0.1, "{name}: exact {exact:.0}, estimate {est:.0}");
    }
    // And the estimate ranks them as the exact cost does: the true clustering is cheapest.
    let est = |a: &[u32]| cluster::estimated_cost(&pages, a, &hasher);
    assert!(est(&truth) < est(&vec![0; pages.len()]));
    // Singletons are estimated exactly (every position has support 1, |U| is known).
    let one = vec![pages[0].clone()];
    let e = cluster::exact_cost(&one, &[0]);
    assert!((cluster::estimated_cost(&one, &[0], &hasher) - e).abs() < 1e-6);
}

#[test]
fn the_exact_cost_of_a_small_hand_made_input() {
    // Four pages (their essential paths), eight distinct paths: 3 bits an entry.
    let pages: Vec<Vec<u64>> = vec![
        vec![1, 2, 3, 4],
        vec![1, 2, 3, 5],
        vec![1, 6, 7],
        vec![1, 6, 7, 8],
    ];
    // {0, 1} and {2, 3}: templates {1,2,3} and {1,6,7}; Δ holds 4, 5 and 8: 3 + 3 + 3 entries;
    // 2 + 4 headers; membership 2 log2(4/2) twice = 4 bits. 3 * (2 + 9 + 4) + 4 = 49.
    let two = cluster::exact_parts(&pages, &[0, 0, 1, 1]);
    assert_eq!(two.bits, 3.0);
    assert_eq!((two.clusters, two.entries, two.pages), (2.0, 9.0, 4.0));
    assert_eq!(two.membership, 4.0);
    assert_eq!(cluster::exact_cost(&pages, &[0, 0, 1, 1]), 49.0);
    // One cluster: template {1} (support 4 of 4), and 2, 3, 6, 7 (2 of 4) are cheaper as
    // differences (2 entries each) than as template paths (1 + 2 missing); 4, 5, 8 one each:
    // 1 + 8 + 3 = 12 entries, 1 + 4 headers, no membership bits: 3 * 17 = 51.
    assert_eq!(cluster::exact_cost(&pages, &[0, 0, 0, 0]), 51.0);
    // Each alone: 15 entries, 4 + 4 headers, 4 log2 4 = 8 bits: 3 * 23 + 8 = 77.
    assert_eq!(cluster::exact_cost(&pages, &[0, 1, 2, 3]), 77.0);

    // A redesign: two layouts of three pages each, ten template paths each, two shared.
    // Apart: 10 + 10 entries. Together: the 2 shared paths 1 entry each, the 16 others
    // (3 of 6 pages) 3 each: 50 entries, to save 6 bits of membership (3 log2 2 a cluster).
    let a: Vec<u64> = (0..10).collect();
    let b: Vec<u64> = (8..18).collect();
    let pages = vec![a.clone(), a.clone(), a, b.clone(), b.clone(), b];
    let apart = cluster::exact_parts(&pages, &[0, 0, 0, 1, 1, 1]);
    let together = cluster::exact_parts(&pages, &[0; 6]);
    assert_eq!((apart.entries, together.entries), (20.0, 50.0));
    assert_eq!(apart.membership - together.membership, 6.0);
    assert!(apart.total() < together.total());
    // And the search keeps them apart.
    assert_eq!(cluster::cluster(&pages, 64).clusters.len(), 2);
}

fn summaries(layout: usize, n: usize, rng: &mut Rng) -> Vec<PageSummary> {
    (0..n)
        .map(|_| learn::summarize(page(layout, rng).as_bytes(), None).expect("a page"))
        .collect()
}

#[test]
fn learning_writes_one_template_per_layout_and_detection_picks_the_right_one() {
    let mut rng = Rng(1234);
    let mut pages = summaries(0, 12, &mut rng);
    pages.extend(summaries(1, 8, &mut rng));
    let names = learn::names_of(&pages);
    let f = learn::learn_family(&pages, &names, "mixed.example", Default::default(), 128);
    assert_eq!(f.members.len(), 2);
    assert_eq!(f.members[0].template.pages, 12);
    assert_eq!(f.members[1].template.pages, 8);
    for (layout, want) in [(0, 0), (1, 1)] {
        let html = page(layout, &mut rng);
        let got = f.pick(|| block_layout(&html));
        assert_eq!(got, Some(want), "layout {layout}");
        let e = pith::lab::page::extract_with(
            html.as_bytes(),
            &pith::lab::page::Context {
                family: Some(&f),
                ..Default::default()
            },
            &Default::default(),
        )
        .expect("extracts");
        assert_eq!(e.algo, format!("fastce+auto:mixed.example#{want}"));
        assert!(e.text.contains("STORY"), "{}", e.text);
    }
    // A page of a layout never learned: the nearest template shares too little of its
    // layout, the chosen algorithm runs (the block model by default, the rules with
    // `Algo::Rules`).
    let html = page(2, &mut rng);
    for (algo, want) in [
        (pith::lab::extract::Algo::default(), "model"),
        (pith::lab::extract::Algo::Rules, "rules"),
    ] {
        let mut opts = pith::Options::default();
        opts.extract.algo = algo;
        let e = pith::lab::page::extract_with(
            html.as_bytes(),
            &pith::lab::page::Context {
                family: Some(&f),
                ..Default::default()
            },
            &opts,
        )
        .expect("extracts");
        assert_eq!(e.algo, want);
        assert!(e.text.contains("STORY"), "{want}: {}", e.text);
    }
    // A page with no path at all: no template.
    assert_eq!(f.pick(Vec::new), None);
}

#[test]
fn learn_and_cluster_from_the_command_line() {
    let dir = tmp("cli");
    let mut rng = Rng(99);
    let mut files = Vec::new();
    let mut layouts = Vec::new();
    for i in 0..18 {
        let l = i % 2;
        let f = dir.join(format!("p{i:02}.html"));
        std::fs::write(&f, page(l, &mut rng)).expect("write");
        files.push(f.to_str().expect("path").to_string());
        layouts.push(l);
    }
    // pith cluster: one JSON line per page in input order, the summary in a file.
    let summary = dir.join("summary.jsonl");
    let mut args = vec![
        "cluster",
        "--host",
        "mixed.example",
        "--signature",
        "64",
        "--summary",
        summary.to_str().expect("path"),
    ];
    args.extend(files.iter().map(String::as_str));
    let o = pith(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(lines.len(), 18);
    for (v, (f, l)) in lines.iter().zip(files.iter().zip(&layouts)) {
        assert_eq!(v["id"], f.as_str());
        assert_eq!(v["host"], "mixed.example");
        assert_eq!(v["cluster"], lines[*l]["cluster"], "{v}");
        assert!(v["template_paths"].as_u64().unwrap_or(0) > 10);
    }
    assert_ne!(lines[0]["cluster"], lines[1]["cluster"]);
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).expect("summary")).expect("json");
    assert_eq!(s["pages"], 18);
    assert_eq!(s["clusters"], 2);
    assert_eq!(s["sizes"], serde_json::json!([9, 9]));
    // pith learn: two templates in one file; --templates labels the one that ran.
    let store = dir.join("store");
    let mut args = vec!["learn", "--host", "mixed.example", "--min-pages", "5", "-o"];
    let st = store.to_str().expect("path").to_string();
    args.push(&st);
    args.extend(files.iter().map(String::as_str));
    let o = pith(&args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("2 template(s)"), "{err}");
    let show = pith(&[
        "template",
        "show",
        store.join("mixed.example.tpl").to_str().expect("path"),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&show.stdout).expect("json");
    assert_eq!(v["templates"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["templates"][1]["algo"], "fastce+auto:mixed.example#1");
    let fresh = dir.join("fresh.html");
    // A page of a layout never learned falls back to the default algorithm, the block model.
    for (layout, want) in [(1, "fastce+auto:mixed.example#"), (2, "model")] {
        std::fs::write(&fresh, page(layout, &mut rng)).expect("write");
        let o = pith(&[
            "--templates",
            &st,
            "--url",
            "https://mixed.example/new",
            "--format",
            "json",
            fresh.to_str().expect("path"),
        ]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        let algo = v["algo"].as_str().unwrap_or("");
        assert!(algo.starts_with(want), "layout {layout}: {algo}");
        assert!(v["text"].as_str().unwrap_or("").contains("STORY"));
    }
}

#[test]
fn cluster_groups_json_lines_by_host() {
    let dir = tmp("jsonl");
    let mut rng = Rng(5);
    let mut lines = String::new();
    // Host a: two layouts; host b: one. Records interleaved.
    for i in 0..24 {
        let (host, layout) = match i % 3 {
            0 => ("a.example", 0),
            1 => ("a.example", 1),
            _ => ("b.example", 2),
        };
        let rec = serde_json::json!({
            "id": format!("r{i}"),
            "url": format!("https://{host}/p{i}"),
            "html": page(layout, &mut rng),
        });
        lines.push_str(&rec.to_string());
        lines.push('\n');
    }
    let file = dir.join("pages.jsonl");
    std::fs::write(&file, lines).expect("write");
    let o = pith(&["cluster", file.to_str().expect("path")]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let out: Vec<serde_json::Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(out.len(), 24);
    // Host by host, in order of first appearance; input order within a host.
    let hosts: Vec<&str> = out
        .iter()
        .map(|v| v["host"].as_str().unwrap_or(""))
        .collect();
    assert!(hosts[..16].iter().all(|h| *h == "a.example"), "{hosts:?}");
    assert!(hosts[16..].iter().all(|h| *h == "b.example"), "{hosts:?}");
    assert_eq!(out[0]["id"], "r0");
    assert_eq!(out[0]["url"], "https://a.example/p0");
    assert_eq!(out[16]["id"], "r2");
    let a: std::collections::BTreeSet<u64> = out[..16]
        .iter()
        .map(|v| v["cluster"].as_u64().unwrap_or(99))
        .collect();
    let b: std::collections::BTreeSet<u64> = out[16..]
        .iter()
        .map(|v| v["cluster"].as_u64().unwrap_or(99))
        .collect();
    assert_eq!(a.len(), 2, "{a:?}");
    assert_eq!(b.len(), 1, "{b:?}");
    // The summary, one JSON line per host on stderr without --summary.
    let summaries: Vec<serde_json::Value> = err
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(summaries.len(), 2, "{err}");
    assert_eq!(summaries[0]["host"], "a.example");
    assert_eq!(summaries[0]["clusters"], 2);
    assert_eq!(summaries[1]["pages"], 8);
}
