//! Template families in the library: TEXT-MDL clustering of generated pages of known layouts
//! (`tests/common/sites.rs`), the MinHash estimate of the MDL cost against the exact cost, and
//! several templates per host: learning gives one per cluster, detection picks the template
//! whose known block paths are nearest the page's, and a page of no learned layout falls back
//! to the chosen algorithm (the block model by default, or the rules). `pith cluster` and
//! `pith learn` on such pages: `cli/tests/it/families.rs`.

use crate::common::Rng;
use crate::common::sites::layout_page;

use pith::lab::site::cluster::{self, MinHasher};
use pith::lab::site::learn::{self, PageSummary};
use pith::lab::site::paths;

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
        pages.push(template_paths(&layout_page(l, &mut rng)));
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
        pages.push(template_paths(&layout_page(i % 3, &mut rng)));
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
        .map(|_| learn::summarize(layout_page(layout, rng).as_bytes(), None).expect("a page"))
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
        let html = layout_page(layout, &mut rng);
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
    let html = layout_page(2, &mut rng);
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
