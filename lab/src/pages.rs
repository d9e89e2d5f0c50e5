//! `pith-lab pages SET_DIR...`: the page table the page models train on (`just train`).
//!
//! One TSV row per page with a text gold: its set, id, host, page type (WCXB's `types`, else
//! the set's name), URL (`-` when unknown), the bag-of-words F1 of `auto`'s output against
//! the gold (`pith eval`'s scorer and gold clean-up), then the page features of
//! `pith::lab::page::model::features`, as the library computes them for JSON output with the URL
//! given (`pith --url URL --format json`), and last a `word_buckets` column: the page's hashed words
//! (`pith::lab::page::model::words`) as `bucket:count` pairs separated by spaces. Numbers are
//! written in Rust's shortest round-trip form, so the trainer reads exactly the values the
//! library's evaluator sees.
//!
//! With `--candidates`, one row per page and candidate extraction ([`CANDIDATES`]: `auto`,
//! `auto --recall`, `danag`), a `candidate` column after `url`, each row's F1 and features
//! those of that candidate's output: the table `lab/train/arbitrate.py` trains a chooser on.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use pith::lab::eval::metrics;
use pith::lab::page::{Context, Options, model};

use crate::blocks::GoldSet;

/// The candidate extractions of `--candidates`: name and options.
pub fn candidates() -> Vec<(&'static str, Options)> {
    let base = options();
    let mut recall = base.clone();
    recall.extract.mode = pith::lab::extract::auto::Mode::Recall;
    let mut danag = base.clone();
    danag.extract.algo = pith::lab::extract::Algo::Danag;
    vec![("auto", base), ("recall", recall), ("danag", danag)]
}

/// The table's header line.
pub fn header(with_candidates: bool) -> String {
    let mut cols: Vec<String> = ["set", "page", "host", "type", "url"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    if with_candidates {
        cols.push("candidate".into());
    }
    cols.push("f1".into());
    cols.extend(model::feature_names());
    cols.push("word_buckets".into());
    cols.join("\t")
}

/// The options the table is computed with: the rules (`--algo rules`: the confidence model
/// estimates their output's F1, and the block model reads their selection), their defaults
/// otherwise, metadata on (JSON output's).
pub fn options() -> Options {
    let mut o = Options {
        metadata: true,
        ..Options::default()
    };
    o.extract.algo = pith::lab::extract::Algo::Rules;
    o
}

/// The gold set in `dir` for `pith-lab TOOL`; the failure, said on stderr, when it cannot be
/// opened.
pub(crate) fn open_set(dir: &Path, tool: &str) -> Result<GoldSet, ExitCode> {
    GoldSet::open(dir).map_err(|e| {
        eprintln!("pith-lab {tool}: {e}");
        ExitCode::FAILURE
    })
}

/// Writes the table to stdout.
pub fn main(dirs: &[PathBuf], with_candidates: bool) -> ExitCode {
    // The table is what the page models are trained on: it never needs them, and after a
    // feature is added the compiled-in ones do not fit it yet.
    model::skip_models();
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let _ = writeln!(out, "{}", header(with_candidates));
    let runs = if with_candidates {
        candidates()
    } else {
        vec![("", options())]
    };
    for dir in dirs {
        let gs = match open_set(dir, "pages") {
            Ok(g) => g,
            Err(code) => return code,
        };
        let set = &gs.set;
        let mut n = 0usize;
        for id in &gs.ds.ids {
            let Some(gold) = gs.ds.gold(id).text else {
                continue;
            };
            let Some((bytes, url)) = gs.page_and_url(id, "pages") else {
                continue;
            };
            let host = gs.host(id, url.as_deref());
            let ptype = gs.page_type(id);
            let cx = Context {
                url: url.as_deref(),
                ..Context::default()
            };
            let url_col = url
                .as_deref()
                .filter(|u| !u.contains(['\t', '\n', '\r']))
                .unwrap_or("-");
            let gold_tokens = metrics::tokens(&gold);
            for (name, opts) in &runs {
                let Ok(e) = pith::lab::page::extract_with(&bytes, &cx, opts) else {
                    eprintln!("pith-lab pages: {}/html/{id}: not readable", dir.display());
                    continue;
                };
                let f1 = metrics::bow(&metrics::tokens(&e.text), &gold_tokens).f1;
                let _ = write!(out, "{set}\t{id}\t{host}\t{ptype}\t{url_col}");
                if with_candidates {
                    let _ = write!(out, "\t{name}");
                }
                let _ = write!(out, "\t{f1}");
                for v in &e.features.values {
                    let _ = write!(out, "\t{v}");
                }
                let _ = writeln!(out, "\t{}", e.features.words.to_column());
            }
            n += 1;
        }
        eprintln!("{set}: {n} pages");
    }
    if out.flush().is_err() {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
