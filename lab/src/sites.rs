//! `pith template eval-sites DIR` (`just eval-sites`): CE, FastCE, `auto` and `danag` on many
//! pages per site, reported as Nguyen et al.'s Tables II-IV are.
//!
//! DIR holds `<site>/<year>/html/<id>.html` and `<site>/<year>/gold/<id>.txt` (msv_big9).
//! Protocols:
//!
//! - same-year leave-one-out: for each site-year and each page, FastCE learns from the other
//!   pages of that site-year and extracts the held-out page; CE is given the site-year's pages
//!   together (it needs no training, only the set); `auto` and `danag` see the page alone;
//! - cross-year drift: FastCE learns from all pages of one year and extracts every page of the
//!   next year of the same site.
//!
//! Word-level scores are pith's own ([`pith::eval::metrics`]: bag-of-words and LCS F1, the
//! paper's W_Fmeasure being the former). Times are measured in this one run, each page's
//! extraction repeated [`REPEAT`] times and the fastest kept, so FastCE/auto ratios compare
//! like with like under the same load.

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use pith::lab::eval::metrics;
use pith::lab::extract::Algo;
use pith::lab::extract::ce::Params;
use pith::lab::page::Options;
use pith::lab::site::cluster::DEFAULT_SIGNATURE;
use pith::lab::site::learn::{self, PageSummary};
use pith::site::Family;

/// Timed extractions are repeated this many times; the fastest counts.
pub const REPEAT: usize = 3;

/// One page with its gold.
struct Page {
    html: Vec<u8>,
    gold: Vec<String>,
    summary: PageSummary,
}

/// The pages of one site-year.
struct SiteYear {
    site: String,
    year: String,
    pages: Vec<Page>,
}

/// The paths of the entries of folder `dir`, sorted (an entry that cannot be read is passed
/// over).
pub fn sorted_paths(dir: &Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    let mut v: Vec<_> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    v.sort();
    Ok(v)
}

fn read_site_years(dir: &Path) -> Result<Vec<SiteYear>, String> {
    let mut out = Vec::new();
    let sorted = |d: &Path| sorted_paths(d).map_err(|e| format!("{}: {e}", d.display()));
    for site in sorted(dir)? {
        if !site.is_dir() {
            continue;
        }
        for year in sorted(&site)? {
            let html_dir = year.join("html");
            if !html_dir.is_dir() {
                continue;
            }
            let mut pages = Vec::new();
            for f in sorted(&html_dir)? {
                let Some(id) = f.file_stem().and_then(|s| s.to_str()) else {
                    continue;
                };
                let gold_file = year.join("gold").join(format!("{id}.txt"));
                let (Ok(html), Ok(gold)) = (std::fs::read(&f), std::fs::read_to_string(&gold_file))
                else {
                    continue;
                };
                let summary = learn::summarize(&html, None).unwrap_or_default();
                pages.push(Page {
                    html,
                    gold: metrics::tokens(&gold),
                    summary,
                });
            }
            let name = |p: &Path| {
                p.file_name()
                    .and_then(|s| s.to_str())
                    .unwrap_or("")
                    .to_string()
            };
            if pages.len() >= 2 {
                out.push(SiteYear {
                    site: name(&site),
                    year: name(&year),
                    pages,
                });
            }
        }
    }
    Ok(out)
}

/// The site-years of `dir` for `pith template WHO`; the failure, said on stderr, when it cannot
/// be read or holds none.
fn site_years(dir: &Path, who: &str) -> Result<Vec<SiteYear>, ExitCode> {
    match read_site_years(dir) {
        Ok(s) if !s.is_empty() => Ok(s),
        Ok(_) => {
            eprintln!(
                "pith template {who}: no <site>/<year>/html pages in {}",
                dir.display()
            );
            Err(ExitCode::FAILURE)
        }
        Err(e) => {
            eprintln!("pith template {who}: {e}");
            Err(ExitCode::FAILURE)
        }
    }
}

/// Scores of one system on one page.
#[derive(Clone, Copy, Default)]
struct Score {
    bow: f64,
    lcs: f64,
    /// Bag-of-words precision and recall (an empty output has precision 0 here).
    p: f64,
    r: f64,
}

fn score(text: &str, gold: &[String]) -> Score {
    let pred = metrics::tokens(text);
    let bow = metrics::bow(&pred, gold);
    Score {
        bow: bow.f1,
        lcs: metrics::lcs(&pred, gold).f1,
        p: bow.precision.unwrap_or(0.0),
        r: bow.recall.unwrap_or(0.0),
    }
}

/// Runs `f` [`REPEAT`] times; its last result and the fastest time.
fn timed<R>(mut f: impl FnMut() -> R) -> (R, Duration) {
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..REPEAT {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed());
        last = Some(r);
    }
    match last {
        Some(r) => (r, best),
        None => (f(), best),
    }
}

/// Sums for one site (or all).
#[derive(Default, Clone)]
struct Acc {
    pages: usize,
    ce: (f64, f64),
    fast: (f64, f64),
    fast_pr: (f64, f64),
    alone: (f64, f64),
    alone_pr: (f64, f64),
    auto: (f64, f64),
    auto_pr: (f64, f64),
    danag: (f64, f64),
    fallbacks: usize,
    ce_time: Duration,
    fast_time: Duration,
    auto_time: Duration,
    ce_distinct: usize,
    ce_atomic: usize,
    ce_sets: usize,
    fast_blocks: usize,
    fast_compared: usize,
    tpl_bytes: usize,
    tpl_max: usize,
    templates: usize,
    // cross-year
    x_pages: usize,
    x_fast: f64,
    x_alone: f64,
    x_auto: f64,
    x_fallbacks: usize,
    // template families: same-year (FastCE+auto as --templates runs it, bow and lcs)
    fam: (f64, f64),
    fam_fallbacks: usize,
    fam_templates: usize,
    x_fam: f64,
    x_fam_fallbacks: usize,
    // pooled years: learn from the site's other years together, test on the held-out year
    p_pages: usize,
    p_single: f64,
    p_fam: f64,
    p_auto: f64,
    p_single_fallbacks: usize,
    p_fam_fallbacks: usize,
    p_fam_templates: usize,
    p_sets: usize,
}

/// `into.f += from.f` for every field named, and for both halves of every `pairs:` field (a
/// function cannot be given a list of fields to sum).
macro_rules! add_fields {
    ($into:expr, $from:expr; $($f:ident),*; pairs: $($p:ident),*) => {
        $($into.$f += $from.$f;)*
        $($into.$p.0 += $from.$p.0; $into.$p.1 += $from.$p.1;)*
    };
}

/// The sums of `site`'s row: the last row, or a new one where the site-years reach a new site.
fn site_acc<'a, A: Default>(sites: &'a mut Vec<(String, A)>, site: &str) -> &'a mut A {
    if sites.last().is_none_or(|s| s.0 != site) {
        sites.push((site.to_string(), A::default()));
    }
    let last = sites.len() - 1;
    &mut sites[last].1
}

fn add(a: &mut (f64, f64), s: Score) {
    a.0 += s.bow;
    a.1 += s.lcs;
}

/// A Markdown table's header row and the separator row under it, one `---` a column.
fn table_head(s: &mut String, header: &str) {
    let columns = header.matches('|').count() - 1;
    let _ = writeln!(s, "{header}\n|{}", "---|".repeat(columns));
}

/// The text of an extraction; empty when it failed.
fn text_of<E>(extracted: Result<pith::Extracted, E>) -> String {
    extracted.map(|e| e.text).unwrap_or_default()
}

/// The score of the page's text as `opts` extract it.
fn extract_score(page: &Page, opts: &Options) -> Score {
    score(
        &text_of(pith::lab::page::extract(&page.html, None, opts)),
        &page.gold,
    )
}

/// A score's bag-of-words and LCS F1 into `sum`, its precision and recall into `pr`.
fn add_pr(sum: &mut (f64, f64), pr: &mut (f64, f64), s: Score) {
    add(sum, s);
    pr.0 += s.p;
    pr.1 += s.r;
}

/// The family of templates `pith learn` makes of the pages: one per TEXT-MDL cluster.
pub fn family(pages: &[PageSummary], site: &str, params: Params) -> Family {
    learn::learn_family(
        pages,
        &learn::names_of(pages),
        site,
        params,
        DEFAULT_SIGNATURE,
    )
}

fn ms(d: Duration, n: usize) -> f64 {
    d.as_secs_f64() * 1000.0 / n.max(1) as f64
}

/// The template path on one page.
struct FastRun {
    /// What `--templates` gives (`fastce+auto`, or `auto` when it falls back).
    text: String,
    /// FastCE alone, as the paper runs it (with the same fallback to `auto`).
    alone: String,
    fell_back: bool,
    blocks: usize,
    compared: usize,
    /// The time of the extraction as pith runs it.
    time: Duration,
}

fn fastce_page(html: &[u8], f: &Family, opts: &Options) -> FastRun {
    let (r, time) = timed(|| {
        pith::lab::page::extract_with(
            html,
            &pith::lab::page::Context {
                family: Some(f),
                ..Default::default()
            },
            opts,
        )
    });
    let (text, fell_back) = match r {
        Ok(e) => (e.text, !e.algo.starts_with("fastce")),
        Err(_) => (String::new(), true),
    };
    // FastCE alone and the counts, from a separate (untimed) detection with the template
    // `extract_with` picks.
    let text_src = pith::lab::decode::decode(html, None, None).text;
    let arena = bumpalo::Bump::new();
    let doc = pith::lab::html::Document::parse(&text_src, &arena);
    let picked = f
        .pick(|| pith::lab::extract::blocks::layout(&pith::lab::extract::blocks::blocks(&doc.tree)))
        .and_then(|i| f.members.get(i));
    let d = match picked {
        Some(m) => pith::lab::extract::fastce::detect(&doc, &m.template),
        None => Default::default(),
    };
    let alone = match &d.selection {
        Some(sel) => pith::lab::output::render(&doc, sel, &opts.output),
        None => text.clone(),
    };
    FastRun {
        text,
        alone,
        fell_back,
        blocks: d.blocks,
        compared: d.compared,
        time,
    }
}

/// `pith template eval-sites DIR`.
pub fn main(dir: &Path, markdown: Option<&Path>) -> ExitCode {
    let sets = match site_years(dir, "eval-sites") {
        Ok(s) => s,
        Err(code) => return code,
    };
    let mut auto = Options::default();
    auto.extract.algo = Algo::Rules;
    let danag = Options::new(Algo::Danag);
    let params = Params::default();
    let mut sites: Vec<(String, Acc)> = Vec::new();
    let mut learn30: Vec<(String, Duration, usize, usize)> = Vec::new();
    for (k, sy) in sets.iter().enumerate() {
        let acc = site_acc(&mut sites, &sy.site);
        eprintln!("pith template eval-sites: {} {}", sy.site, sy.year);
        // CE: the site-year's pages given together.
        let refs: Vec<&[u8]> = sy.pages.iter().map(|p| p.html.as_slice()).collect();
        let ((ce_out, ce_stats), ce_time) = timed(|| learn::ce_site(&refs, &auto));
        acc.ce_time += ce_time;
        acc.ce_distinct += ce_stats.distinct;
        acc.ce_atomic += ce_stats.atomic;
        acc.ce_sets += 1;
        for (i, page) in sy.pages.iter().enumerate() {
            acc.pages += 1;
            let ce_text = ce_out.get(i).and_then(|r| r.as_ref().ok());
            add(&mut acc.ce, score(ce_text.map_or("", |s| s), &page.gold));
            // FastCE: learn from the other pages of the site-year.
            let others: Vec<PageSummary> = sy
                .pages
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, p)| p.summary.clone())
                .collect();
            let t = Family::single(learn::learn(&others, &sy.site, params));
            let bytes = t.to_bytes().len();
            acc.tpl_bytes += bytes;
            acc.tpl_max = acc.tpl_max.max(bytes);
            acc.templates += 1;
            let run = fastce_page(&page.html, &t, &auto);
            // Clustered: one template per cluster of the 9 other pages.
            let fam = family(&others, &sy.site, params);
            acc.fam_templates += fam.members.len();
            let frun = fastce_page(&page.html, &fam, &auto);
            acc.fam_fallbacks += usize::from(frun.fell_back);
            add(&mut acc.fam, score(&frun.text, &page.gold));
            acc.fast_time += run.time;
            acc.fast_blocks += run.blocks;
            acc.fast_compared += run.compared;
            acc.fallbacks += usize::from(run.fell_back);
            add_pr(
                &mut acc.alone,
                &mut acc.alone_pr,
                score(&run.alone, &page.gold),
            );
            add_pr(
                &mut acc.fast,
                &mut acc.fast_pr,
                score(&run.text, &page.gold),
            );
            let (a, time) = timed(|| pith::lab::page::extract(&page.html, None, &auto));
            acc.auto_time += time;
            add_pr(
                &mut acc.auto,
                &mut acc.auto_pr,
                score(&text_of(a), &page.gold),
            );
            add(&mut acc.danag, extract_score(page, &danag));
        }
        // Cross-year: learn from this year, apply to the next year of the same site.
        if let Some(next) = sets.get(k + 1).filter(|n| n.site == sy.site) {
            let all: Vec<PageSummary> = sy.pages.iter().map(|p| p.summary.clone()).collect();
            let t = Family::single(learn::learn(&all, &sy.site, params));
            let fam = family(&all, &sy.site, params);
            for page in &next.pages {
                let frun = fastce_page(&page.html, &fam, &auto);
                acc.x_fam += score(&frun.text, &page.gold).bow;
                acc.x_fam_fallbacks += usize::from(frun.fell_back);
                let run = fastce_page(&page.html, &t, &auto);
                acc.x_pages += 1;
                acc.x_fallbacks += usize::from(run.fell_back);
                acc.x_fast += score(&run.text, &page.gold).bow;
                acc.x_alone += score(&run.alone, &page.gold).bow;
                acc.x_auto += extract_score(page, &auto).bow;
            }
        }
    }
    // Pooled years: a host whose pages come in several layouts, as a crawl sees it. Learn from
    // all pages of the site's other years together (one template, or one per cluster), then
    // extract each page of the held-out year.
    for (site, acc) in sites.iter_mut() {
        let years: Vec<&SiteYear> = sets.iter().filter(|s| &s.site == site).collect();
        for (y, held) in years.iter().enumerate() {
            let train: Vec<PageSummary> = years
                .iter()
                .enumerate()
                .filter(|(z, _)| *z != y)
                .flat_map(|(_, s)| s.pages.iter().map(|p| p.summary.clone()))
                .collect();
            let names = learn::names_of(&train);
            let single = Family::single(learn::learn_named(&train, &names, site, params));
            let fam = learn::learn_family(&train, &names, site, params, DEFAULT_SIGNATURE);
            acc.p_sets += 1;
            acc.p_fam_templates += fam.members.len();
            for page in &held.pages {
                acc.p_pages += 1;
                let r = fastce_page(&page.html, &single, &auto);
                acc.p_single += score(&r.text, &page.gold).bow;
                acc.p_single_fallbacks += usize::from(r.fell_back);
                let r = fastce_page(&page.html, &fam, &auto);
                acc.p_fam += score(&r.text, &page.gold).bow;
                acc.p_fam_fallbacks += usize::from(r.fell_back);
                acc.p_auto += extract_score(page, &auto).bow;
            }
        }
    }
    // Learning from 30 pages of one site (its last three years, as a crawler would pool them),
    // parsing included: what `pith learn` does per host.
    for (site, _) in &sites {
        let pages: Vec<&Page> = sets
            .iter()
            .filter(|s| &s.site == site)
            .rev()
            .flat_map(|s| s.pages.iter())
            .take(30)
            .collect();
        let (f, time) = timed(|| {
            let sums: Vec<PageSummary> = pages
                .iter()
                .filter_map(|p| learn::summarize(&p.html, None).ok())
                .collect();
            let names = learn::names_of(&sums);
            learn::learn_family(&sums, &names, site, params, DEFAULT_SIGNATURE)
        });
        learn30.push((site.clone(), time, f.members.len(), f.to_bytes().len()));
    }
    let md = tables(&sites, &learn30);
    write_out(&md, markdown, "eval-sites")
}

fn tables(sites: &[(String, Acc)], learn30: &[(String, Duration, usize, usize)]) -> String {
    let mut total = Acc::default();
    for (_, a) in sites {
        add_fields!(total, a;
            pages, fallbacks, ce_time, fast_time, auto_time, ce_distinct, ce_atomic, ce_sets,
            fast_blocks, fast_compared, tpl_bytes, templates, x_pages, x_fast, x_alone, x_auto,
            x_fallbacks, fam_fallbacks, fam_templates, x_fam, x_fam_fallbacks, p_pages, p_single,
            p_fam, p_auto, p_single_fallbacks, p_fam_fallbacks, p_fam_templates, p_sets;
            pairs: ce, fast, fast_pr, alone, alone_pr, auto, auto_pr, danag, fam);
        total.tpl_max = total.tpl_max.max(a.tpl_max);
    }
    let all = [("**all**".to_string(), total.clone())];
    let rows = sites.iter().chain(all.iter());
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Table II. Per-page time (ms) and blocks, same-year leave-one-out. NBT: blocks each block is \
         compared against (CE: distinct blocks of the site-year; FastCE: stored non-content \
         blocks at the page's paths); NB: atomic blocks per page (CE) or blocks extracted by P's \
         paths (FastCE). PerTime of FastCE is the template path as `--templates` runs it \
         (FastCE+auto: detection, then `auto` on the same parsed page).\n"
    );
    table_head(
        &mut s,
        "| site | CE NBT / NB / PerTime | FastCE NBT / NB / PerTime | auto PerTime | FastCE+auto / auto time |",
    );
    for (name, a) in rows.clone() {
        let n = a.pages.max(1) as f64;
        let sets = a.ce_sets.max(1) as f64;
        let _ = writeln!(
            s,
            "| {name} | {:.0} / {:.0} / {:.2} | {:.0} / {:.0} / {:.2} | {:.2} | {:.2} |",
            a.ce_distinct as f64 / sets,
            a.ce_atomic as f64 / n,
            ms(a.ce_time, a.pages),
            a.fast_compared as f64 / n,
            a.fast_blocks as f64 / n,
            ms(a.fast_time, a.pages),
            ms(a.auto_time, a.pages),
            a.fast_time.as_secs_f64() / a.auto_time.as_secs_f64().max(1e-12),
        );
    }
    for (title, lcs) in [
        (
            "Table III. Word-level LCS F1 (mean over pages), same-year leave-one-out.",
            true,
        ),
        (
            "Table IV. Word-level bag-of-words F1 (mean over pages), same-year leave-one-out. \
             FastCE: the paper's detection alone; FastCE+auto: what `--templates` runs (text \
             both select); fallbacks: held-out pages the template path handed to auto.",
            false,
        ),
    ] {
        let _ = writeln!(s, "\n{title}\n");
        table_head(
            &mut s,
            "| site | pages | CE | FastCE | FastCE+auto | auto | danag | fallbacks | FastCE P / R | FastCE+auto P / R | auto P / R |",
        );
        for (name, a) in rows.clone() {
            let n = a.pages.max(1) as f64;
            let pick = |x: (f64, f64)| if lcs { x.1 / n } else { x.0 / n };
            let _ = writeln!(
                s,
                "| {name} | {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {} | {:.3} / {:.3} | {:.3} / {:.3} | {:.3} / {:.3} |",
                a.pages,
                pick(a.ce),
                pick(a.alone),
                pick(a.fast),
                pick(a.auto),
                pick(a.danag),
                a.fallbacks,
                a.alone_pr.0 / n,
                a.alone_pr.1 / n,
                a.fast_pr.0 / n,
                a.fast_pr.1 / n,
                a.auto_pr.0 / n,
                a.auto_pr.1 / n,
            );
        }
    }
    let _ = writeln!(
        s,
        "\nTemplate drift: FastCE learned from all pages of one year, applied to the next year \
         of the same site (2000→2005, 2005→2010, 2010→2015); bag-of-words F1, with the pages \
         that fell back to auto.\n"
    );
    table_head(
        &mut s,
        "| site | pages | FastCE | FastCE+auto | auto | fallbacks |",
    );
    for (name, a) in rows.clone() {
        let n = a.x_pages.max(1) as f64;
        let _ = writeln!(
            s,
            "| {name} | {} | {:.3} | {:.3} | {:.3} | {} |",
            a.x_pages,
            a.x_alone / n,
            a.x_fast / n,
            a.x_auto / n,
            a.x_fallbacks
        );
    }
    let _ = writeln!(
        s,
        "\nTemplate families (bag-of-words F1 of what `--templates` runs; single: one FastCE \
         template per training set, clustered: one per TEXT-MDL cluster of at least 3 pages, \
         picked by MinHash signature, {DEFAULT_SIGNATURE} positions; fb: pages that fell back to \
         auto). Same-year: leave-one-out as above. Cross-year: learn one year, extract the next. \
         Pooled: learn from the site's other three years together, extract the held-out year.\n"
    );
    table_head(
        &mut s,
        "| site | same-year single / clustered / auto | templates | fb single / clustered | cross-year single / clustered / auto | fb single / clustered | pooled single / clustered / auto | templates | fb single / clustered |",
    );
    for (name, a) in rows.clone() {
        let n = a.pages.max(1) as f64;
        let xn = a.x_pages.max(1) as f64;
        let pn = a.p_pages.max(1) as f64;
        let _ = writeln!(
            s,
            "| {name} | {:.3} / {:.3} / {:.3} | {:.1} | {} / {} | {:.3} / {:.3} / {:.3} | {} / {} | {:.3} / {:.3} / {:.3} | {:.1} | {} / {} |",
            a.fast.0 / n,
            a.fam.0 / n,
            a.auto.0 / n,
            a.fam_templates as f64 / a.templates.max(1) as f64,
            a.fallbacks,
            a.fam_fallbacks,
            a.x_fast / xn,
            a.x_fam / xn,
            a.x_auto / xn,
            a.x_fallbacks,
            a.x_fam_fallbacks,
            a.p_single / pn,
            a.p_fam / pn,
            a.p_auto / pn,
            a.p_fam_templates as f64 / a.p_sets.max(1) as f64,
            a.p_single_fallbacks,
            a.p_fam_fallbacks,
        );
    }
    // The targets are stated to two decimals; the means to four, so that a rounded 0.950 is
    // not read as one.
    let n = total.pages.max(1) as f64;
    let _ = writeln!(
        s,
        "\nAll pages, same-year, four decimals: single {:.4}, clustered {:.4}, auto {:.4}.",
        total.fast.0 / n,
        total.fam.0 / n,
        total.auto.0 / n
    );
    let _ = writeln!(
        s,
        "\nTemplates: leave-one-out templates (9 pages) {:.0} bytes on average, {} at most. \
         Learning from 30 pages of a site as `pith learn` does (parsing, clustering, CE per \
         cluster), fastest of {REPEAT}, and the file written:\n",
        total.tpl_bytes as f64 / total.templates.max(1) as f64,
        total.tpl_max
    );
    table_head(
        &mut s,
        "| site | learn 30 pages (ms) | templates | file bytes |",
    );
    for (site, t, n, bytes) in learn30 {
        let _ = writeln!(
            s,
            "| {site} | {:.0} | {n} | {bytes} |",
            t.as_secs_f64() * 1000.0
        );
    }
    s
}

/// Sums of one detector on one site.
#[derive(Default, Clone, Copy)]
struct DetAcc {
    pages: usize,
    dom: (f64, f64),
    text: (f64, f64),
    auto: (f64, f64),
    x_pages: usize,
    x_dom: (f64, f64),
    x_text: (f64, f64),
    x_auto: (f64, f64),
    dom_time: Duration,
    text_time: Duration,
}

/// The parsed pages of one site-year, kept while its detectors run.
struct Parsed<'a> {
    docs: Vec<pith::lab::html::Document<'a>>,
}

/// The sample of at most `n` of the items that tmpl-text learns from.
fn sampled<'a, T>(items: &[&'a T], n: usize) -> Vec<&'a T> {
    pith::lab::extract::sample::sample_indices(items.len(), n)
        .into_iter()
        .filter_map(|j| items.get(j).copied())
        .collect()
}

fn render_sel(doc: &pith::lab::html::Document<'_>, sel: &pith::lab::extract::Selection) -> String {
    pith::lab::output::render(doc, sel, &Default::default())
}

/// `pith template eval-detectors DIR` (`just eval-detectors`): tmpl-dom and tmpl-text on
/// msv_big9, same-year leave-one-out (the model learns from the other pages of the site-year,
/// the held-out page is detected) and across years (learned from one year, applied to every page
/// of the next year of the site), bag-of-words and LCS F1, `auto` beside them.
pub fn detectors_main(dir: &Path, markdown: Option<&Path>) -> ExitCode {
    use pith::lab::extract::{tmpl_dom, tmpl_text};
    let sets = match site_years(dir, "eval-detectors") {
        Ok(s) => s,
        Err(code) => return code,
    };
    let (dp, tp) = (tmpl_dom::Params::default(), tmpl_text::Params::default());
    let mut auto = Options::default();
    auto.extract.algo = Algo::Rules;
    let mut sites: Vec<(String, DetAcc)> = Vec::new();
    // The decoded text of every page, so the parsed documents can borrow it.
    let texts: Vec<Vec<String>> = sets
        .iter()
        .map(|sy| {
            sy.pages
                .iter()
                .map(|p| {
                    pith::lab::decode::decode(&p.html, None, None)
                        .text
                        .into_owned()
                })
                .collect()
        })
        .collect();
    let arenas: Vec<Vec<bumpalo::Bump>> = texts
        .iter()
        .map(|t| t.iter().map(|_| bumpalo::Bump::new()).collect())
        .collect();
    let parsed: Vec<Parsed<'_>> = texts
        .iter()
        .zip(&arenas)
        .map(|(t, a)| Parsed {
            docs: t
                .iter()
                .zip(a)
                .map(|(t, a)| pith::lab::html::Document::parse(t, a))
                .collect(),
        })
        .collect();
    let hashes: Vec<Vec<Vec<u64>>> = parsed
        .iter()
        .map(|p| p.docs.iter().map(tmpl_dom::hashes).collect())
        .collect();
    let ptexts: Vec<Vec<tmpl_text::PageText>> = parsed
        .iter()
        .map(|p| p.docs.iter().map(tmpl_text::page_text).collect())
        .collect();
    for (k, sy) in sets.iter().enumerate() {
        let acc = site_acc(&mut sites, &sy.site);
        eprintln!("pith template eval-detectors: {} {}", sy.site, sy.year);
        let docs = &parsed[k].docs;
        for (i, page) in sy.pages.iter().enumerate() {
            acc.pages += 1;
            let (dom_text, t) = timed(|| {
                let mut m = tmpl_dom::Model::default();
                for (j, h) in hashes[k].iter().enumerate() {
                    if j != i {
                        m.add(h);
                    }
                }
                let d = tmpl_dom::detect(&docs[i], &hashes[k][i], &m, &dp);
                render_sel(&docs[i], &d.selection)
            });
            acc.dom_time += t;
            add(&mut acc.dom, score(&dom_text, &page.gold));
            let (text_text, t) = timed(|| {
                let others: Vec<&tmpl_text::PageText> = ptexts[k]
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .map(|(_, t)| t)
                    .collect();
                let m = tmpl_text::learn(&sampled(&others, tp.sample), &tp);
                let d = tmpl_text::detect(&docs[i], &ptexts[k][i], &m);
                render_sel(&docs[i], &d.selection)
            });
            acc.text_time += t;
            add(&mut acc.text, score(&text_text, &page.gold));
            add(&mut acc.auto, extract_score(page, &auto));
        }
        // Across years: learned from all pages of this year, applied to the next year's.
        if let Some(next) = sets.get(k + 1).filter(|n| n.site == sy.site) {
            let mut m = tmpl_dom::Model::default();
            for h in &hashes[k] {
                m.add(h);
            }
            let all: Vec<&tmpl_text::PageText> = ptexts[k].iter().collect();
            let tm = tmpl_text::learn(&sampled(&all, tp.sample), &tp);
            let ndocs = &parsed[k + 1].docs;
            for (j, page) in next.pages.iter().enumerate() {
                acc.x_pages += 1;
                let d = tmpl_dom::detect(&ndocs[j], &hashes[k + 1][j], &m, &dp);
                add(
                    &mut acc.x_dom,
                    score(&render_sel(&ndocs[j], &d.selection), &page.gold),
                );
                let d = tmpl_text::detect(&ndocs[j], &ptexts[k + 1][j], &tm);
                add(
                    &mut acc.x_text,
                    score(&render_sel(&ndocs[j], &d.selection), &page.gold),
                );
                add(&mut acc.x_auto, extract_score(page, &auto));
            }
        }
    }
    let mut total = DetAcc::default();
    for (_, a) in &sites {
        add_fields!(total, a; pages, x_pages, dom_time, text_time;
            pairs: dom, text, auto, x_dom, x_text, x_auto);
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Template detectors, bag-of-words / LCS F1 (mean over pages). Same year: learned from the \
         other pages of the site-year, the held-out page detected. Across years: learned from all \
         pages of one year, applied to the next year's. Defaults: tmpl-dom lower {} upper {} per \
         page, gap {} words; tmpl-text W {} F majority D {} P {}. Time: learning and detection of \
         one held-out page (ms, fastest of {REPEAT}).\n",
        dp.lower, dp.upper, dp.gap_words, tp.window, tp.density, tp.sample
    );
    table_head(
        &mut s,
        "| site | pages | tmpl-dom | tmpl-text | auto | across years: pages | tmpl-dom | tmpl-text | auto | tmpl-dom ms | tmpl-text ms |",
    );
    let all = [("**all**".to_string(), total)];
    for (name, a) in sites.iter().chain(all.iter()) {
        let n = a.pages.max(1) as f64;
        let x = a.x_pages.max(1) as f64;
        let f = |v: (f64, f64), n: f64| format!("{:.3} / {:.3}", v.0 / n, v.1 / n);
        let _ = writeln!(
            s,
            "| {name} | {} | {} | {} | {} | {} | {} | {} | {} | {:.2} | {:.2} |",
            a.pages,
            f(a.dom, n),
            f(a.text, n),
            f(a.auto, n),
            a.x_pages,
            f(a.x_dom, x),
            f(a.x_text, x),
            f(a.x_auto, x),
            ms(a.dom_time, a.pages),
            ms(a.text_time, a.pages),
        );
    }
    write_out(&s, markdown, "eval-detectors")
}

fn write_out(md: &str, markdown: Option<&Path>, who: &str) -> ExitCode {
    {
        use std::io::Write;
        let _ = std::io::stdout().write_all(md.as_bytes());
    }
    if let Some(out) = markdown
        && let Err(e) = std::fs::write(out, md)
    {
        eprintln!("pith template {who}: {}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// Agreement of a clustering with labels, as clustering papers report it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Agreement {
    /// Share of pages whose cluster's most common label is theirs.
    pub purity: f64,
    /// Normalized mutual information, I(C;L) / ((H(C) + H(L)) / 2) (the arithmetic-mean
    /// normalization, scikit-learn's default; 1 when clusters and labels are the same partition).
    pub nmi: f64,
    /// Adjusted Rand index (Hubert and Arabie 1985): pair agreement corrected for chance, 0
    /// for a random clustering, 1 for the labels' partition.
    pub ari: f64,
}

/// Purity, NMI and ARI of `clusters` against `labels` (one of each per page).
pub fn agreement(clusters: &[u32], labels: &[u32]) -> Agreement {
    use std::collections::HashMap;
    let n = clusters.len().min(labels.len());
    if n == 0 {
        return Agreement::default();
    }
    let mut joint: HashMap<(u32, u32), u64> = HashMap::new();
    let mut by_c: HashMap<u32, u64> = HashMap::new();
    let mut by_l: HashMap<u32, u64> = HashMap::new();
    for (&c, &l) in clusters.iter().zip(labels) {
        *joint.entry((c, l)).or_insert(0) += 1;
        *by_c.entry(c).or_insert(0) += 1;
        *by_l.entry(l).or_insert(0) += 1;
    }
    let nf = n as f64;
    let mut best: HashMap<u32, u64> = HashMap::new();
    for (&(c, _), &v) in &joint {
        let b = best.entry(c).or_insert(0);
        *b = (*b).max(v);
    }
    let purity = best.values().sum::<u64>() as f64 / nf;
    let h = |m: &HashMap<u32, u64>| -> f64 {
        m.values()
            .map(|&v| {
                let p = v as f64 / nf;
                -p * p.ln()
            })
            .sum()
    };
    let (hc, hl) = (h(&by_c), h(&by_l));
    let mut mi = 0.0;
    for (&(c, l), &v) in &joint {
        let pcl = v as f64 / nf;
        let pc = by_c.get(&c).copied().unwrap_or(1) as f64 / nf;
        let pl = by_l.get(&l).copied().unwrap_or(1) as f64 / nf;
        mi += pcl * (pcl / (pc * pl)).ln();
    }
    let nmi = if hc + hl > 0.0 {
        2.0 * mi / (hc + hl)
    } else {
        1.0
    };
    let pairs = |x: u64| (x as f64) * (x as f64 - 1.0) / 2.0;
    let index: f64 = joint.values().map(|&v| pairs(v)).sum();
    let sum_c: f64 = by_c.values().map(|&v| pairs(v)).sum();
    let sum_l: f64 = by_l.values().map(|&v| pairs(v)).sum();
    let expected = sum_c * sum_l / pairs(n as u64).max(1.0);
    let max = (sum_c + sum_l) / 2.0;
    let ari = if (max - expected).abs() < f64::EPSILON {
        1.0
    } else {
        (index - expected) / (max - expected)
    };
    Agreement { purity, nmi, ari }
}

/// Where pages' paths occur, as the mean over pages of three shares of each page's paths: those
/// on pages of its own site-year only, those on pages of its own site only but in two
/// site-years or more, and those on pages of several sites. (One pass over the paths to
/// record, per path, its first site and site-year and whether another was seen; one to count.)
fn path_spread(pages: &[Vec<u64>], site: &[u32], site_year: &[u32]) -> (f64, f64, f64) {
    use std::collections::HashMap;
    // Per path: (site, site-year, several sites, several site-years).
    let mut seen: HashMap<u64, (u32, u32, bool, bool)> = HashMap::new();
    for ((p, &st), &sy) in pages.iter().zip(site).zip(site_year) {
        for &h in p {
            let e = seen.entry(h).or_insert((st, sy, false, false));
            e.2 |= e.0 != st;
            e.3 |= e.1 != sy;
        }
    }
    let (mut a, mut b, mut c, mut n) = (0.0, 0.0, 0.0, 0.0);
    for p in pages {
        if p.is_empty() {
            continue;
        }
        let (mut x, mut y, mut z) = (0usize, 0usize, 0usize);
        for h in p {
            match seen.get(h) {
                Some(&(_, _, true, _)) => z += 1,
                Some(&(_, _, false, true)) => y += 1,
                Some(_) => x += 1,
                None => {}
            }
        }
        let len = p.len() as f64;
        a += x as f64 / len;
        b += y as f64 / len;
        c += z as f64 / len;
        n += 1.0;
    }
    if n == 0.0 {
        return (0.0, 0.0, 0.0);
    }
    (a / n, b / n, c / n)
}

/// The paths `walk` reads from each page (decoded and parsed as `pith cluster` does); none for a
/// page that cannot be decoded.
fn paths_of(
    pages: &[&[u8]],
    walk: fn(&pith::lab::html::Document<'_>) -> Vec<u64>,
) -> Vec<Vec<u64>> {
    pages
        .iter()
        .map(
            |b| match pith::lab::page::decode_page(b, None, None).map(|d| d.text) {
                Ok(text) => {
                    let arena = bumpalo::Bump::new();
                    walk(&pith::lab::html::Document::parse(&text, &arena))
                }
                Err(_) => Vec::new(),
            },
        )
        .collect()
}

/// `pith template eval-clusters DIR`: every page of msv_big9-style data mixed into one set,
/// clustered by TEXT-MDL with several signature lengths; purity, NMI and ARI against the site
/// and the site-year labels, and the time of each step.
pub fn clusters_main(dir: &Path, markdown: Option<&Path>) -> ExitCode {
    // Each site-year has pages, so `pages` below is never empty.
    let sets = match site_years(dir, "eval-clusters") {
        Ok(s) => s,
        Err(code) => return code,
    };
    let mut site_of: Vec<u32> = Vec::new();
    let mut year_of: Vec<u32> = Vec::new();
    let mut pages: Vec<&[u8]> = Vec::new();
    let mut sites: Vec<&str> = Vec::new();
    for (k, sy) in sets.iter().enumerate() {
        if sites.last() != Some(&sy.site.as_str()) {
            sites.push(&sy.site);
        }
        for p in &sy.pages {
            site_of.push(sites.len() as u32 - 1);
            year_of.push(k as u32);
            pages.push(&p.html);
        }
    }
    // Reading the template paths: decode, parse, walk (what `pith cluster` does per page).
    let t = Instant::now();
    let paths: Vec<Vec<u64>> = paths_of(&pages, pith::lab::site::paths::page_paths);
    let read = t.elapsed();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Clustering all {} pages of {} sites ({} site-years) mixed, as one host (TEXT-MDL, MinHash). \
         Template paths read in {:.0} ms (decode, parse, walk).\n",
        pages.len(),
        sites.len(),
        sets.len(),
        read.as_secs_f64() * 1000.0
    );
    table_head(
        &mut s,
        "| signature | clusters | vs site: purity / NMI / ARI | vs site-year: purity / NMI / ARI | MDL bits | cluster time (ms) |",
    );
    let row = |name: &str, c: &pith::lab::site::cluster::Clustering, time: std::time::Duration| {
        let a = agreement(&c.assign, &site_of);
        let b = agreement(&c.assign, &year_of);
        format!(
            "| {name} | {} | {:.3} / {:.3} / {:.3} | {:.3} / {:.3} / {:.3} | {:.0} | {:.0} |",
            c.clusters.len(),
            a.purity,
            a.nmi,
            a.ari,
            b.purity,
            b.nmi,
            b.ari,
            c.cost,
            time.as_secs_f64() * 1000.0
        )
    };
    for k in [32usize, 64, 128, 256] {
        let t = Instant::now();
        let c = pith::lab::site::cluster::cluster(&paths, k);
        let time = t.elapsed();
        let _ = writeln!(s, "{}", row(&k.to_string(), &c, time));
    }
    // What the estimate loses: the same search with the exact cost.
    let t = Instant::now();
    let c = pith::lab::site::cluster::cluster_exact(
        &paths,
        pith::lab::site::cluster::DEFAULT_SIGNATURE,
    );
    let time = t.elapsed();
    let _ = writeln!(
        s,
        "{}",
        row(
            &format!("{} exact", pith::lab::site::cluster::DEFAULT_SIGNATURE),
            &c,
            time
        )
    );
    // The paper's per-document minimum support thresholds (paths::Threshold): the pages'
    // essential paths chosen first, then the same clustering (whose own support-2 filter then
    // drops only paths left on one page, which cost one entry in any clustering).
    use pith::lab::site::paths::Threshold;
    for (name, rule) in [("mode", Threshold::Mode), ("median", Threshold::Median)] {
        let chosen = pith::lab::site::paths::essential_by(&paths, rule);
        let t = Instant::now();
        let c =
            pith::lab::site::cluster::cluster(&chosen, pith::lab::site::cluster::DEFAULT_SIGNATURE);
        let time = t.elapsed();
        let _ = writeln!(
            s,
            "{}",
            row(
                &format!(
                    "{}, t_d = {name}",
                    pith::lab::site::cluster::DEFAULT_SIGNATURE
                ),
                &c,
                time
            )
        );
    }
    // The ceiling of NMI against sites for any clustering that keeps the years apart.
    let l = agreement(&year_of, &site_of);
    let _ = writeln!(
        s,
        "| site-year labels | {} | {:.3} / {:.3} / {:.3} | 1.000 / 1.000 / 1.000 | | |",
        sets.len(),
        l.purity,
        l.nmi,
        l.ari
    );
    let _ = writeln!(
        s,
        "\n(\"exact\": the same search, candidates found by the signatures, with each merge's cost \
         computed exactly instead of estimated. \"t_d = mode / median\": each page's minimum \
         support threshold is the most common / the median support of its paths on two pages or \
         more, instead of 2 for every page; their MDL bits describe fewer paths, so they compare \
         only with each other's labels below. \"site-year labels\": the labels as a clustering.)"
    );
    // Why the model keeps years apart: the cost of the clustering found and of the label
    // partitions, term by term (entries of M_T and Δ dominate; membership and headers are
    // small), and where the pages' essential paths occur.
    let essential = pith::lab::site::paths::essential(&paths);
    let found =
        pith::lab::site::cluster::cluster(&paths, pith::lab::site::cluster::DEFAULT_SIGNATURE);
    let _ = writeln!(
        s,
        "\nMDL cost term by term (essential paths: support >= 2; bits per entry log2|P|):\n\n\
         | partition | clusters | M_T + Δ entries | bits / entry | M_D bits | total bits |\n\
         |---|---|---|---|---|---|"
    );
    for (name, assign) in [
        ("found (signature 128)", &found.assign),
        ("site-years", &year_of),
        ("sites", &site_of),
    ] {
        let p = pith::lab::site::cluster::exact_parts(&essential, assign);
        let _ = writeln!(
            s,
            "| {name} | {} | {:.0} | {:.2} | {:.0} | {:.0} |",
            p.clusters,
            p.entries,
            p.bits,
            p.membership,
            p.total()
        );
    }
    let (one_sy, site_years, sites_many) = path_spread(&essential, &site_of, &year_of);
    let _ = writeln!(
        s,
        "\nA page's essential paths, mean share over pages: on pages of its site-year only {:.3}; \
         of its site only, in two years or more {:.3}; on pages of several sites {:.3}.",
        one_sy, site_years, sites_many
    );
    for (name, rule) in [("mode", Threshold::Mode), ("median", Threshold::Median)] {
        let chosen = pith::lab::site::paths::essential_by(&paths, rule);
        let _ = writeln!(
            s,
            "With t_d = {name}: MDL bits of the labels: sites {:.0}, site-years {:.0}.",
            pith::lab::site::cluster::exact_cost(&chosen, &site_of),
            pith::lab::site::cluster::exact_cost(&chosen, &year_of)
        );
    }
    // The same with text paths that leave the words out (tag structure only).
    let tags: Vec<Vec<u64>> = paths_of(&pages, pith::lab::site::paths::page_tag_paths);
    let c = pith::lab::site::cluster::cluster(&tags, pith::lab::site::cluster::DEFAULT_SIGNATURE);
    let (a, b) = (
        agreement(&c.assign, &site_of),
        agreement(&c.assign, &year_of),
    );
    let chosen = pith::lab::site::paths::essential(&tags);
    let _ = writeln!(
        s,
        "With tag paths only (text paths without their words): {} clusters, NMI {:.3} against \
         sites and {:.3} against site-years; MDL bits of the labels: sites {:.0}, site-years {:.0}.",
        c.clusters.len(),
        a.nmi,
        b.nmi,
        pith::lab::site::cluster::exact_cost(&chosen, &site_of),
        pith::lab::site::cluster::exact_cost(&chosen, &year_of)
    );
    write_out(&s, markdown, "eval-clusters")
}

/// Node-level counts of link-based templates against a gold template.
#[derive(Default, Clone, Copy, Debug)]
pub struct NodeCounts {
    pub keys: usize,
    pub dom: usize,
    pub gold: usize,
    pub retrieved: usize,
    pub correct: usize,
    pub complete: usize,
    pub fallback: usize,
}

impl NodeCounts {
    pub fn recall(&self) -> f64 {
        self.correct as f64 / self.gold.max(1) as f64
    }
    pub fn precision(&self) -> f64 {
        self.correct as f64 / self.retrieved.max(1) as f64
    }
    pub fn f1(&self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        }
    }
    /// The counts and scores as the table's last ten cells.
    fn cells(&self) -> String {
        format!(
            "{} | {} | {} | {} | {} | {} | {} | {:.3} | {:.3} | {:.3}",
            self.keys,
            self.complete,
            self.fallback,
            self.dom,
            self.gold,
            self.retrieved,
            self.correct,
            self.recall(),
            self.precision(),
            self.f1()
        )
    }
    fn add(&mut self, o: &NodeCounts) {
        add_fields!(self, o; keys, dom, gold, retrieved, correct, complete, fallback; pairs:);
    }
}

/// Link-based templates of every article of a generated site as key page, against the gold
/// template ([`crate::synth::gold`]).
pub fn synthetic_site(site: &crate::synth::Site, params: &pith::site::links::Params) -> NodeCounts {
    let mut crawl = pith::site::links::Site::default();
    for p in &site.pages {
        crawl.insert(&p.url, p.html.clone().into_bytes());
    }
    let mut c = NodeCounts::default();
    for p in site.pages.iter().filter(|p| p.article) {
        let Ok(x) = pith::site::links::extract(&crawl, &p.url, params) else {
            continue;
        };
        let arena = bumpalo::Bump::new();
        let doc = pith::lab::html::Document::parse(&p.html, &arena);
        let gold = crate::synth::gold(&doc);
        c.keys += 1;
        c.dom += x.dom_nodes;
        c.complete += usize::from(x.selected.complete);
        c.fallback += usize::from(x.selected.fallback);
        for (g, t) in gold.iter().zip(&x.in_template) {
            c.gold += usize::from(*g);
            c.retrieved += usize::from(*t);
            c.correct += usize::from(*g && *t);
        }
    }
    c
}

/// Seeds of the generated sites per layout in `eval-links`.
pub const SYNTH_SEEDS: u64 = 3;

/// `pith template eval-links [INPUT...]` (`just eval-links`): node-level precision, recall
/// and F1 of link-based templates on generated sites (the thesis' Table 5.1), then, for every
/// crawl given, what each of its HTML pages finds as key page.
pub fn links_main(
    files: &[std::path::PathBuf],
    framing: pith::input::Framing,
    params: &pith::site::links::Params,
    markdown: Option<&Path>,
) -> ExitCode {
    use crate::synth::{Layout, site};
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Link-based site templates on generated sites (n = {}, t = {}): every article is a key \
         page; node counts are sums over the key pages (elements and non-blank text nodes), \
         recall, precision and F1 over those sums, as the thesis' Table 5.1.\n",
        params.n, params.t
    );
    table_head(
        &mut s,
        "| site | layout | key pages | n-CS found | fallback | DOM nodes | template nodes | retrieved | correct | recall | precision | F1 |",
    );
    let mut total = NodeCounts::default();
    let started = Instant::now();
    for layout in Layout::ALL {
        for seed in 1..=SYNTH_SEEDS {
            let site = site(seed, layout);
            let c = synthetic_site(&site, params);
            total.add(&c);
            let _ = writeln!(s, "| {} | {} | {} |", site.host, layout.name(), c.cells());
        }
    }
    let _ = writeln!(s, "| **all** | | {} |", total.cells());
    let _ = writeln!(
        s,
        "\n{} key pages in {:.2} s.",
        total.keys,
        started.elapsed().as_secs_f64()
    );
    if !files.is_empty() {
        let _ = writeln!(
            s,
            "\nCrawls: every HTML page with a URL as key page. n-CS: an n-CS was found; smaller: \
             a 2..n-1 CS; fallback: no two linked pages link each other, a sample was used; none: \
             no other page of the host in the crawl. Sizes are means over the key pages with a \
             template.\n"
        );
        table_head(
            &mut s,
            "| crawl | pages | hosts | n-CS | smaller CS | fallback | none | mean pages loaded | mean DOM nodes | mean template nodes |",
        );
        for f in files {
            let crawl =
                pith::lab::site::learn::read_site(std::slice::from_ref(f), framing, None, |m| {
                    eprintln!("pith-lab eval-links: {m}")
                });
            let mut hosts: std::collections::HashSet<String> = std::collections::HashSet::new();
            let (mut full, mut smaller, mut fallback, mut none) = (0, 0, 0, 0);
            let (mut loaded, mut dom, mut tpl, mut with) = (0usize, 0usize, 0usize, 0usize);
            let urls: Vec<String> = crawl.order.clone();
            for key in &urls {
                let url = format!("http://{key}");
                if let Some(h) = pith::site::host_of(&url) {
                    hosts.insert(h);
                }
                match pith::site::links::extract(&crawl, &url, params) {
                    Ok(x) => {
                        with += 1;
                        loaded += x.selected.loaded;
                        dom += x.dom_nodes;
                        tpl += x.template_nodes;
                        if x.selected.fallback {
                            fallback += 1;
                        } else if x.selected.complete {
                            full += 1;
                        } else {
                            smaller += 1;
                        }
                    }
                    Err(_) => none += 1,
                }
            }
            let w = with.max(1) as f64;
            let _ = writeln!(
                s,
                "| {} | {} | {} | {full} | {smaller} | {fallback} | {none} | {:.1} | {:.0} | {:.0} |",
                f.file_name().and_then(|n| n.to_str()).unwrap_or("?"),
                urls.len(),
                hosts.len(),
                loaded as f64 / w,
                dom as f64 / w,
                tpl as f64 / w,
            );
        }
    }
    write_out(&s, markdown, "eval-links")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agreement_of_equal_renamed_and_random_partitions() {
        let labels = [0, 0, 0, 1, 1, 1, 2, 2, 2];
        let same = agreement(&[5, 5, 5, 7, 7, 7, 9, 9, 9], &labels);
        assert!((same.nmi - 1.0).abs() < 1e-9 && (same.ari - 1.0).abs() < 1e-9);
        assert_eq!(same.purity, 1.0);
        // Everything in one cluster: purity 1/3, no information, ARI 0.
        let one = agreement(&[0; 9], &labels);
        assert!((one.purity - 1.0 / 3.0).abs() < 1e-9);
        assert!(one.nmi.abs() < 1e-9 && one.ari.abs() < 1e-9);
        // Each label split in two: purity 1, NMI under 1, ARI under 1.
        let split = agreement(&[0, 0, 1, 2, 2, 3, 4, 4, 5], &labels);
        assert_eq!(split.purity, 1.0);
        assert!(split.nmi < 1.0 && split.nmi > 0.5, "{split:?}");
        assert!(split.ari < 1.0 && split.ari > 0.0, "{split:?}");
        // scikit-learn's adjusted_rand_score([0,0,1,1],[0,0,1,2]) = 0.5714...
        let a = agreement(&[0, 0, 1, 2], &[0, 0, 1, 1]);
        assert!((a.ari - 0.571_428_571).abs() < 1e-6, "{a:?}");
        // normalized_mutual_info_score([0,0,1,1],[0,0,1,2]) = 0.8 (arithmetic).
        assert!((a.nmi - 0.8).abs() < 1e-6, "{a:?}");
    }
}
