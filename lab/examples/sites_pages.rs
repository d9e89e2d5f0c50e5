//! Per-page scores on msv_big9, same-year leave-one-out (as `pith template eval-sites`): the
//! template path as `--templates` runs it against `auto`, bag-of-words P / R / F1, for finding
//! the pages where the template loses words, with FastCE alone, the layout match, and what
//! `--templates` gives with the templates `pith learn` writes (one per cluster, `fam`).
//! Usage: sites_pages [DIR] > pages.tsv (`ONLY=<page id>` runs one page).
use pith::lab::eval::metrics;
use pith::lab::page::Options;
use pith::lab::site::learn::{self, PageSummary};

/// The paths in folder `d`, sorted; none when it cannot be read.
fn sorted(d: &std::path::Path) -> Vec<std::path::PathBuf> {
    pith_lab::sites::sorted_paths(d).unwrap_or_default()
}

/// What `--templates` gives for the page with `family`: the `algo` label and the text
/// (`error` and none when it fails).
fn with_family(
    page: &[u8],
    family: &pith::site::Family,
    opts: &Options,
) -> (std::borrow::Cow<'static, str>, String) {
    let cx = pith::lab::page::Context {
        family: Some(family),
        ..Default::default()
    };
    pith::lab::page::extract_with(page, &cx, opts)
        .map(|e| (e.algo, e.text))
        .unwrap_or(("error".into(), String::new()))
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../shared/data/msv_big9".to_string());
    let opts = Options::default();
    println!(
        "site\tyear\tid\talgo\tbow\tp\tr\tauto_bow\tauto_p\tauto_r\talone\tmatched\tfam_algo\tfam_bow"
    );
    for site in sorted(std::path::Path::new(&dir))
        .into_iter()
        .filter(|p| p.is_dir())
    {
        for year in sorted(&site) {
            let files = sorted(&year.join("html"));
            let pages: Vec<Vec<u8>> = files.iter().filter_map(|f| std::fs::read(f).ok()).collect();
            let sums: Vec<PageSummary> = pages
                .iter()
                .map(|p| learn::summarize(p, None).unwrap_or_default())
                .collect();
            for (i, (page, file)) in pages.iter().zip(&files).enumerate() {
                let id = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
                if std::env::var("ONLY").is_ok_and(|o| o != id) {
                    continue;
                }
                let gold = std::fs::read_to_string(year.join("gold").join(format!("{id}.txt")))
                    .unwrap_or_default();
                let gold = metrics::tokens(&gold);
                let others = learn::leave_out(&sums, i);
                let t =
                    pith::site::Family::single(learn::learn(&others, "site", Default::default()));
                let (algo, text) = with_family(page, &t, &opts);
                let fam = pith_lab::sites::family(&others, "site", Default::default());
                let (fam_algo, fam_text) = with_family(page, &fam, &opts);
                let fam_bow = metrics::bow(&metrics::tokens(&fam_text), &gold).f1;
                let auto = pith::extract(page, None, &opts)
                    .map(|e| e.text)
                    .unwrap_or_default();
                let src = String::from_utf8_lossy(page);
                let arena = bumpalo::Bump::new();
                let doc = pith::lab::html::Document::parse(&src, &arena);
                let d = pith::lab::extract::fastce::detect(&doc, &t.members[0].template);
                let alone = d
                    .selection
                    .as_ref()
                    .map(|sel| pith::lab::output::render(&doc, sel, &opts.output));
                let al = alone
                    .as_deref()
                    .map_or(-1.0, |a| metrics::bow(&metrics::tokens(a), &gold).f1);
                let s = metrics::bow(&metrics::tokens(&text), &gold);
                let a = metrics::bow(&metrics::tokens(&auto), &gold);
                println!(
                    "{}\t{}\t{id}\t{algo}\t{:.3}\t{:.3}\t{:.3}\t{:.3}\t{:.3}\t{:.3}\t{al:.3}\t{:.2}\t{fam_algo}\t{fam_bow:.3}",
                    site.file_name().and_then(|s| s.to_str()).unwrap_or(""),
                    year.file_name().and_then(|s| s.to_str()).unwrap_or(""),
                    s.f1,
                    s.precision.unwrap_or(0.0),
                    s.recall.unwrap_or(0.0),
                    a.f1,
                    a.precision.unwrap_or(0.0),
                    a.recall.unwrap_or(0.0),
                    d.matched,
                );
            }
        }
    }
}
