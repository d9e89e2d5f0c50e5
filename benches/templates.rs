//! FastCE against `auto`, per page, in one run (ratios, since the machine is shared): every page
//! of `../shared/data/msv_big9` (override with `PITH_SITES_DIR`) is extracted by `auto` and by
//! FastCE with the template learned from the other pages of its site-year (leave-one-out, as
//! `just eval-sites` scores them), through the same library call from page bytes to text
//! (`extract` and `extract_with`). Passes alternate between the two; medians are reported.
//! Also the same with template families (one template per TEXT-MDL cluster of the other pages,
//! picked by signature: what `pith learn` writes now), learning from 30 pages of each site as
//! `pith learn` does (parsing and clustering included), and the file sizes.
//!
//! Targets: FastCE per page <= 1.2x auto; learning 30 pages < 1 s; template < 64 KiB.

use std::time::{Duration, Instant};

use pith::Options;
use pith::lab::site::learn::{self, PageSummary};
use pith::site::Family;

const PASSES: usize = 9;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

fn sorted_dirs(d: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(d)
        .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.sort();
    v
}

fn main() {
    let dir =
        std::env::var("PITH_SITES_DIR").unwrap_or_else(|_| "../shared/data/msv_big9".to_string());
    let root = std::path::Path::new(&dir);
    if !root.is_dir() {
        println!("skipping templates bench: {dir} not found (needs ../shared)");
        return;
    }
    // (site, pages of each year)
    let mut sites: Vec<(String, Vec<Vec<Vec<u8>>>)> = Vec::new();
    for site in sorted_dirs(root).into_iter().filter(|p| p.is_dir()) {
        let years: Vec<Vec<Vec<u8>>> = sorted_dirs(&site)
            .into_iter()
            .map(|y| {
                sorted_dirs(&y.join("html"))
                    .iter()
                    .filter_map(|f| std::fs::read(f).ok())
                    .collect::<Vec<_>>()
            })
            .filter(|p: &Vec<Vec<u8>>| p.len() >= 2)
            .collect();
        let name = site.file_name().map(|s| s.to_string_lossy().into_owned());
        sites.push((name.unwrap_or_default(), years));
    }
    // Leave-one-out templates, one per page.
    let mut work: Vec<(&[u8], Family)> = Vec::new();
    let mut families: Vec<Family> = Vec::new();
    for (site, years) in &sites {
        for pages in years {
            let sums: Vec<PageSummary> = pages
                .iter()
                .map(|p| learn::summarize(p, None).unwrap_or_default())
                .collect();
            for (i, page) in pages.iter().enumerate() {
                let others = learn::leave_out(&sums, i);
                let t = learn::learn(&others, site, Default::default());
                work.push((page.as_slice(), Family::single(t)));
                families.push(learn::learn_family(
                    &others,
                    &learn::names_of(&others),
                    site,
                    Default::default(),
                    pith::lab::site::cluster::DEFAULT_SIGNATURE,
                ));
            }
        }
    }
    let opts = Options::default();
    let mut auto = Vec::new();
    let mut fast = Vec::new();
    let mut fam = Vec::new();
    let mut fell_back = 0;
    let mut fam_fell_back = 0;
    for pass in 0..PASSES {
        let t = Instant::now();
        for (page, _) in &work {
            std::hint::black_box(pith::extract(page, None, &opts).ok());
        }
        auto.push(t.elapsed());
        let t = Instant::now();
        let mut fb = 0;
        for (page, tpl) in &work {
            let r = pith::lab::page::extract_with(
                page,
                &pith::lab::page::Context {
                    family: Some(tpl),
                    ..Default::default()
                },
                &opts,
            );
            fb += usize::from(r.map(|e| !e.algo.starts_with("fastce")).unwrap_or(true));
        }
        fast.push(t.elapsed());
        if pass == 0 {
            fell_back = fb;
        }
        let t = Instant::now();
        let mut fb = 0;
        for ((page, _), f) in work.iter().zip(&families) {
            let r = pith::lab::page::extract_with(
                page,
                &pith::lab::page::Context {
                    family: Some(f),
                    ..Default::default()
                },
                &opts,
            );
            fb += usize::from(r.map(|e| !e.algo.starts_with("fastce")).unwrap_or(true));
        }
        fam.push(t.elapsed());
        if pass == 0 {
            fam_fell_back = fb;
        }
    }
    let (a, f, g) = (median(auto), median(fast), median(fam));
    let n = work.len().max(1) as f64;
    println!(
        "{} pages ({} fell back to auto), {PASSES} passes, median per page:",
        work.len(),
        fell_back
    );
    println!("  auto    {:8.3} ms", a.as_secs_f64() * 1e3 / n);
    println!(
        "  fastce+auto {:8.3} ms (as --templates runs it)",
        f.as_secs_f64() * 1e3 / n
    );
    println!(
        "  fastce+auto / auto = {:.2} (target <= 1.2)",
        f.as_secs_f64() / a.as_secs_f64().max(1e-12)
    );
    let multi = families.iter().filter(|f| f.members.len() > 1).count();
    println!(
        "  with families ({multi} of {} hosts with several templates, {fam_fell_back} fell back): \
         {:8.3} ms, / auto = {:.2}\n",
        families.len(),
        g.as_secs_f64() * 1e3 / n,
        g.as_secs_f64() / a.as_secs_f64().max(1e-12)
    );
    println!(
        "learning from 30 pages of a site as `pith learn` does (parse, cluster, CE per cluster), median of {PASSES}; file size:"
    );
    for (site, years) in &sites {
        let pages: Vec<&Vec<u8>> = years.iter().rev().flatten().take(30).collect();
        let mut times = Vec::new();
        let mut size = 0;
        for _ in 0..PASSES {
            let t = Instant::now();
            let sums: Vec<PageSummary> = pages
                .iter()
                .filter_map(|p| learn::summarize(p, None).ok())
                .collect();
            let names = learn::names_of(&sums);
            let tpl = learn::learn_family(
                &sums,
                &names,
                site,
                Default::default(),
                pith::lab::site::cluster::DEFAULT_SIGNATURE,
            );
            times.push(t.elapsed());
            size = tpl.to_bytes().len();
        }
        println!(
            "  {site:24} {:6.0} ms  {size:6} bytes",
            median(times).as_secs_f64() * 1e3
        );
    }
}
