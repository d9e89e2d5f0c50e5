//! Throughput of the stages of pith against `tl::parse` alone, in one run (ratios, since
//! machines are noisy). Pages: `../shared/data/cleaneval_final/html` (override with
//! `PITH_BENCH_DIR`), each parsed on its own, single-threaded. For each stage the median of
//! several passes over all pages is reported.
//!
//! Stages: `tl::parse` (the tokenizer alone, on already-decoded text); `prepass+tl`;
//! `tree` (prepass, tl and the arena tree: `Document::parse`); `extract <algo>` (the whole
//! library call from page bytes: decoding, tree, algorithm, text output).

use std::time::Instant;

use pith::extract::{Algo, Options};

const PASSES: usize = 7;

fn main() {
    let dir = std::env::var("PITH_BENCH_DIR")
        .unwrap_or_else(|_| "../shared/data/cleaneval_final/html".to_string());
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!("skipping throughput bench: {dir} not found (needs ../shared)");
        return;
    };
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    let pages: Vec<Vec<u8>> = paths.iter().filter_map(|p| std::fs::read(p).ok()).collect();
    let texts: Vec<String> = pages
        .iter()
        .map(|b| pith::decode::decode(b, None, None).text.into_owned())
        .collect();
    let bytes: usize = pages.iter().map(Vec::len).sum();
    println!(
        "{} pages, {:.1} MB, {PASSES} passes, median\n",
        pages.len(),
        bytes as f64 / 1e6
    );

    let tl = median_secs(|| {
        for t in &texts {
            let dom = tl::parse(t, tl::ParserOptions::default());
            std::hint::black_box(&dom);
        }
    });
    let mut rows = vec![("tl::parse", tl)];
    rows.push((
        "prepass+tl",
        median_secs(|| {
            let mut buf = Vec::new();
            for t in &texts {
                buf.clear();
                buf.extend_from_slice(t.as_bytes());
                pith::html::prepass::neutralize_in_place(&mut buf);
                if let Ok(s) = std::str::from_utf8(&buf) {
                    std::hint::black_box(tl::parse(s, tl::ParserOptions::default()).ok());
                }
            }
        }),
    ));
    rows.push((
        "tree (Document::parse)",
        median_secs(|| {
            let mut arena = bumpalo::Bump::new();
            for t in &texts {
                arena.reset();
                let doc = pith::html::Document::parse(t, &arena);
                std::hint::black_box(doc.tree.nodes.len());
            }
        }),
    ));
    for &algo in Algo::ALL {
        let opts = Options {
            algo,
            ..Options::default()
        };
        let name: &'static str = Box::leak(format!("extract {}", algo.name()).into_boxed_str());
        rows.push((
            name,
            median_secs(|| {
                for p in &pages {
                    std::hint::black_box(pith::extract::extract(p, None, &opts).ok());
                }
            }),
        ));
    }
    println!("{:<26} {:>10} {:>10}", "stage", "MB/s", "x tl");
    for (name, secs) in rows {
        println!(
            "{:<26} {:>10.1} {:>10.2}",
            name,
            bytes as f64 / 1e6 / secs,
            tl / secs
        );
    }
}

/// Median wall time of `PASSES` runs of `f`, after one warm-up run.
fn median_secs(mut f: impl FnMut()) -> f64 {
    f();
    let mut times: Vec<f64> = (0..PASSES)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[PASSES / 2]
}
