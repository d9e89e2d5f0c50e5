//! How TEXT-MDL clustering (`pith cluster`, `src/template/cluster.rs`) scales with the number of
//! pages of one host: generates pages of several layouts, then times reading their template
//! paths (parse and walk) and clustering 1,250, 2,500, 5,000 and 10,000 of them, in one run.
//!
//! ```sh
//! cargo run --release --example cluster_scale              # 10,000 pages, 8 layouts
//! cargo run --release --example cluster_scale -- 20000 12  # pages, layouts
//! cargo run --release --example cluster_scale -- 10000 8 only  # only the largest size, no
//!                                                             # real pages (for callgrind)
//! ```
//!
//! A layout is a sequence of 20-40 sections, each a chain of wrapper elements around a list of
//! items (a menu of fixed labels, or content items whose text changes per page); sections are
//! optional with their own probability and lists change length, so no two pages need have the
//! same paths. Also reports the agreement of the clusters with the layouts (purity, NMI, ARI)
//! and the work counts (merges, nearest-cluster searches) per page, which near-linear means
//! stay flat.

use std::time::Instant;

use pith::lab::site::cluster;
use pith::lab::site::paths;
use pith_lab::sites::agreement;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        pith::lab::extract::sample::xorshift64(&mut self.0)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn pick<'a>(&mut self, v: &[&'a str]) -> &'a str {
        v[self.below(v.len() as u64) as usize]
    }
}

const WRAP: &[&str] = &[
    "div", "section", "aside", "header", "footer", "nav", "main", "article", "table", "td", "span",
    "form", "center", "font",
];
const LIST: &[&str] = &["ul", "ol", "div", "table", "dl", "p"];
const ITEM: &[&str] = &["li", "div", "tr", "dt", "span", "p", "a", "b", "em"];
const WORDS: &[&str] = &[
    "river", "council", "budget", "station", "harbour", "winter", "museum", "school", "market",
    "bridge", "garden", "festival", "doctor", "village", "engine", "island", "letter", "summer",
    "theatre", "farmer", "window", "silver", "forest", "signal", "planet", "record", "ticket",
];

struct Section {
    wrap: Vec<&'static str>,
    list: &'static str,
    item: Vec<&'static str>,
    /// Fixed labels (a menu, a footer) or none (content that changes per page).
    labels: Vec<String>,
    present: u64, // percent
    reps: (u64, u64),
}

fn layout(rng: &mut Rng) -> Vec<Section> {
    let n = 20 + rng.below(21);
    (0..n)
        .map(|_| {
            let wrap = (0..1 + rng.below(4)).map(|_| rng.pick(WRAP)).collect();
            let item = (0..1 + rng.below(3)).map(|_| rng.pick(ITEM)).collect();
            let fixed = rng.below(3) > 0;
            let labels = if fixed {
                (0..3 + rng.below(10))
                    .map(|_| format!("{} {}", rng.pick(WORDS), rng.pick(WORDS)))
                    .collect()
            } else {
                Vec::new()
            };
            let present = if rng.below(3) == 0 {
                30 + rng.below(60)
            } else {
                100
            };
            let lo = 1 + rng.below(4);
            Section {
                wrap,
                list: rng.pick(LIST),
                item,
                reps: (lo, lo + rng.below(6)),
                labels,
                present,
            }
        })
        .collect()
}

fn page(l: &[Section], rng: &mut Rng) -> String {
    let mut s = String::from("<html><head><title>Site</title></head><body>");
    for sec in l {
        if rng.below(100) >= sec.present {
            continue;
        }
        for w in &sec.wrap {
            s.push_str(&format!("<{w}>"));
        }
        s.push_str(&format!("<{}>", sec.list));
        let reps = sec.reps.0 + rng.below(sec.reps.1 - sec.reps.0 + 1);
        for r in 0..reps {
            for t in &sec.item {
                s.push_str(&format!("<{t}>"));
            }
            if sec.labels.is_empty() {
                for _ in 0..5 + rng.below(30) {
                    s.push_str(rng.pick(WORDS));
                    s.push(' ');
                }
            } else {
                s.push_str(&sec.labels[(r as usize) % sec.labels.len()]);
            }
            for t in sec.item.iter().rev() {
                s.push_str(&format!("</{t}>"));
            }
        }
        s.push_str(&format!("</{}>", sec.list));
        for w in sec.wrap.iter().rev() {
            s.push_str(&format!("</{w}>"));
        }
    }
    s.push_str("</body></html>");
    s
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let n = args.first().copied().unwrap_or(10_000);
    let layouts = args.get(1).copied().unwrap_or(8);
    let only = std::env::args().any(|a| a == "only");
    let k = cluster::DEFAULT_SIGNATURE;
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let ls: Vec<Vec<Section>> = (0..layouts).map(|_| layout(&mut rng)).collect();
    let t = Instant::now();
    let mut labels = Vec::with_capacity(n);
    let mut html = Vec::with_capacity(n);
    for _ in 0..n {
        let l = rng.below(layouts as u64) as usize;
        labels.push(l as u32);
        html.push(page(&ls[l], &mut rng));
    }
    let bytes: usize = html.iter().map(String::len).sum();
    println!(
        "generated {n} pages of {layouts} layouts ({:.1} MB) in {:.2} s",
        bytes as f64 / 1e6,
        t.elapsed().as_secs_f64()
    );
    let t = Instant::now();
    let sets: Vec<Vec<u64>> = html
        .iter()
        .map(|h| {
            let arena = bumpalo::Bump::new();
            let doc = pith::lab::html::Document::parse(h, &arena);
            paths::page_paths(&doc)
        })
        .collect();
    let read = t.elapsed().as_secs_f64();
    let mean = sets.iter().map(Vec::len).sum::<usize>() as f64 / n.max(1) as f64;
    println!("template paths: {read:.2} s (parse and walk; {mean:.0} paths a page)");
    println!(
        "| pages | cluster time (s) | ms per 1000 pages | clusters | purity | NMI | ARI | merges / page | searches / page |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut m = if only { n } else { n / 8 };
    while m <= n && m > 0 {
        let t = Instant::now();
        let c = cluster::cluster(&sets[..m], k);
        let secs = t.elapsed().as_secs_f64();
        let a = agreement(&c.assign, &labels[..m]);
        println!(
            "| {m} | {secs:.2} | {:.0} | {} | {:.3} | {:.3} | {:.3} | {:.2} | {:.2} |",
            secs * 1e3 / (m as f64 / 1000.0),
            c.clusters.len(),
            a.purity,
            a.nmi,
            a.ari,
            c.merges as f64 / m as f64,
            c.searches as f64 / m as f64
        );
        m *= 2;
    }
    if !only {
        replicated(n, k, &mut rng);
    }
}

/// Real pages at scale: the pages of ../shared/data/msv_big9, copied until there are `n`, each
/// copy with 0-3 boxes of its own appended (so copies differ in their paths), clustered as
/// one host; the time of decoding, parsing and walking them and of clustering.
fn replicated(n: usize, k: usize, rng: &mut Rng) {
    let dir = std::path::Path::new("../shared/data/msv_big9");
    let Ok(sites) = std::fs::read_dir(dir) else {
        println!(
            "\nskipping replicated real pages: {} is absent",
            dir.display()
        );
        return;
    };
    let mut originals: Vec<(Vec<u8>, u32)> = Vec::new();
    let mut sites: Vec<_> = sites.filter_map(|e| e.ok().map(|e| e.path())).collect();
    sites.sort();
    for (label, site) in sites.iter().filter(|p| p.is_dir()).enumerate() {
        let Ok(years) = std::fs::read_dir(site) else {
            continue;
        };
        for y in years.filter_map(|e| e.ok()) {
            let Ok(files) = std::fs::read_dir(y.path().join("html")) else {
                continue;
            };
            for f in files.filter_map(|e| e.ok()) {
                if let Ok(b) = std::fs::read(f.path()) {
                    originals.push((b, label as u32));
                }
            }
        }
    }
    if originals.is_empty() {
        println!(
            "\nskipping replicated real pages: no pages in {}",
            dir.display()
        );
        return;
    }
    let mut pages = Vec::with_capacity(n);
    let mut labels = Vec::with_capacity(n);
    for i in 0..n {
        let (b, l) = &originals[i % originals.len()];
        let mut p = b.clone();
        for _ in 0..rng.below(4) {
            let w = rng.pick(WORDS);
            p.extend_from_slice(format!("<div class={w}><span>{w} {i}</span></div>").as_bytes());
        }
        pages.push(p);
        labels.push(*l);
    }
    let bytes: usize = pages.iter().map(Vec::len).sum();
    let t = Instant::now();
    let sets: Vec<Vec<u64>> = pages
        .iter()
        .map(|b| {
            let text = pith::lab::decode::decode(b, None, None).text;
            let arena = bumpalo::Bump::new();
            let doc = pith::lab::html::Document::parse(&text, &arena);
            paths::page_paths(&doc)
        })
        .collect();
    let read = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let c = cluster::cluster(&sets, k);
    let secs = t.elapsed().as_secs_f64();
    let a = agreement(&c.assign, &labels);
    println!(
        "\nreplicated real pages: {n} pages ({} originals of msv_big9, {:.0} MB): template paths \
         {read:.2} s (decode, parse, walk), clustering {secs:.2} s, {} clusters, purity {:.3} \
         against the sites; in all {:.2} s",
        originals.len(),
        bytes as f64 / 1e6,
        c.clusters.len(),
        a.purity,
        read + secs
    );
}
