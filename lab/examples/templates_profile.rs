//! Extracts every page of msv_big9 with the template of its site-year (learned from the other
//! pages of the site-year, as `benches/templates.rs` does), with the template family `pith
//! learn` writes for them (`families`), or with `auto` alone, N times: for
//! `valgrind --tool=callgrind`, to see where `--templates` spends its time (the templates are
//! learned before the extraction; `--toggle-collect=*extract_with*` counts only that).
//! Usage: templates_profile [auto|templates|families] [N] [DIR]
//! With `PITH_HASHES` set, also prints per page (first pass) its index, the `algo` label and a
//! hash of the extracted text: saved before and diffed after a change that must keep the
//! output byte-identical.
use pith::lab::page::Options;
use pith::lab::site::learn::{self, PageSummary};

/// The paths in folder `d`, sorted; none when it cannot be read.
fn sorted(d: &std::path::Path) -> Vec<std::path::PathBuf> {
    pith_lab::sites::sorted_paths(d).unwrap_or_default()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_default();
    let templates = mode != "auto";
    let families = mode == "families";
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let dir = args
        .next()
        .unwrap_or_else(|| "../shared/data/msv_big9".to_string());
    let mut work = Vec::new();
    for site in sorted(std::path::Path::new(&dir))
        .into_iter()
        .filter(|p| p.is_dir())
    {
        for year in sorted(&site) {
            let pages: Vec<Vec<u8>> = sorted(&year.join("html"))
                .iter()
                .filter_map(|f| std::fs::read(f).ok())
                .collect();
            let sums: Vec<PageSummary> = pages
                .iter()
                .map(|p| learn::summarize(p, None).unwrap_or_default())
                .collect();
            for (i, page) in pages.into_iter().enumerate() {
                let others = learn::leave_out(&sums, i);
                let tpl = if families {
                    pith_lab::sites::family(&others, "site", Default::default())
                } else {
                    pith::site::Family::single(learn::learn(&others, "site", Default::default()))
                };
                work.push((page, tpl));
            }
        }
    }
    let opts = Options::default();
    let hashes = std::env::var_os("PITH_HASHES").is_some();
    let mut bytes = 0;
    let start = std::time::Instant::now();
    let mut fastest = std::time::Duration::MAX;
    for pass in 0..n {
        let t = std::time::Instant::now();
        for (i, (page, tpl)) in work.iter().enumerate() {
            let t = templates.then_some(tpl);
            let r = pith::lab::page::extract_with(
                page,
                &pith::lab::page::Context {
                    family: t,
                    ..Default::default()
                },
                &opts,
            );
            if hashes && pass == 0 {
                use std::hash::{Hash, Hasher};
                let mut h = std::hash::DefaultHasher::new();
                let (algo, text) = match &r {
                    Ok(e) => (&*e.algo, &*e.text),
                    Err(_) => ("error", ""),
                };
                text.hash(&mut h);
                println!("{i}\t{algo}\t{}\t{:016x}", text.len(), h.finish());
            }
            bytes += r.map(|e| e.text.len()).unwrap_or(0);
        }
        fastest = fastest.min(t.elapsed());
    }
    let per_page = start.elapsed().as_secs_f64() * 1e3 / (n * work.len().max(1)) as f64;
    // The fastest pass: on a shared machine the mean moves with the other load.
    let best = fastest.as_secs_f64() * 1e3 / work.len().max(1) as f64;
    println!(
        "{} pages, {bytes} bytes of text, {per_page:.3} ms per page, fastest pass {best:.4} ms per page",
        work.len()
    );
}
