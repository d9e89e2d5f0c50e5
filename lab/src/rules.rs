//! `pith-lab rules SET_DIR... [--off RULE,...]`: what each of `auto`'s rules is worth, page by
//! page (`lab/train/rules.py` reads it; docs/rules.md).
//!
//! One TSV row per page with a gold: its set, id, host and page type (as in `pith-lab
//! pages`), then the score against the gold of `auto` with every rule on (column `auto`), and
//! of `auto` with each rule of [`Rule::ALL`] switched off in turn (one column per rule, named
//! as the rule). A page with a text gold is scored by its bag-of-words F1 (`pith eval`'s
//! scorer and gold clean-up); a page with snippets only (trafilatura_eval) by its snippet
//! counts, written `tp:fn:fp:tn`, since that set is scored on the counts summed over its
//! pages (`pith eval`). Text
//! output, default settings otherwise (no comments, balanced mode), the page's URL given.
//! `--off` switches rules off in every column (the base), to measure a rule set chosen by
//! the analysis; `--comments SET` reads that set's pages with comments kept (`pith
//! --comments`), as its gold keeps them (dragnet's: the protocol for it).
//!
//! The pages are read by two threads, each taking every other page; rows come out in the
//! sets' order.

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use pith::lab::eval::metrics;
use pith::lab::extract::auto::{Rule, Rules};
use pith::lab::page::{Context, Options};

/// Parses `--off`'s comma-separated rule names.
pub fn parse_off(list: Option<&str>) -> Result<Rules, String> {
    let mut off = Rules::NONE;
    for name in list.unwrap_or("").split(',').filter(|s| !s.is_empty()) {
        let rule = Rule::from_name(name.trim()).ok_or_else(|| {
            let names: Vec<&str> = Rule::ALL.iter().map(|r| r.name()).collect();
            format!("no rule `{name}` (rules: {})", names.join(", "))
        })?;
        off = off.with(rule);
    }
    Ok(off)
}

/// A page's gold.
enum Gold {
    /// The gold text.
    Text(String),
    /// Snippets the output must hold, and ones it must not.
    Snippets(Vec<String>, Vec<String>),
}

/// One page to score.
struct Job {
    bytes: Vec<u8>,
    comments: bool,
    url: Option<String>,
    gold: Gold,
    head: String,
}

/// The scores of `auto` with `base` off, then with each rule also off, on one page, as
/// written in the table.
fn scores(job: &Job, base: Rules) -> Vec<String> {
    let cx = Context {
        url: job.url.as_deref(),
        ..Context::default()
    };
    let gold_tokens = match &job.gold {
        Gold::Text(t) => metrics::tokens(t),
        Gold::Snippets(..) => Vec::new(),
    };
    let score = |off: Rules| -> String {
        let mut opts = Options::default();
        opts.extract.algo = pith::lab::extract::Algo::Rules;
        opts.extract = pith::lab::without_rules(opts.extract, off);
        opts.extract.comments = job.comments;
        // An unreadable page scores as an empty output.
        let text = pith::lab::page::extract_with(&job.bytes, &cx, &opts)
            .map(|e| e.text)
            .unwrap_or_default();
        match &job.gold {
            Gold::Text(_) => metrics::bow(&metrics::tokens(&text), &gold_tokens)
                .f1
                .to_string(),
            Gold::Snippets(with, without) => {
                let c = metrics::snippets(&text, with, without);
                format!("{}:{}:{}:{}", c.tp, c.fn_, c.fp, c.tn)
            }
        }
    };
    let mut row = vec![score(base)];
    row.extend(Rule::ALL.iter().map(|&r| score(base.with(r))));
    row
}

/// Writes the table to stdout.
pub fn main(dirs: &[PathBuf], off: Option<&str>, comments: &[String]) -> ExitCode {
    let base = match parse_off(off) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("pith-lab rules: {e}");
            return ExitCode::from(2);
        }
    };
    let mut jobs = Vec::new();
    for dir in dirs {
        let gs = match crate::pages::open_set(dir, "rules") {
            Ok(g) => g,
            Err(code) => return code,
        };
        let with_comments = comments.contains(&gs.set);
        for id in &gs.ds.ids {
            let g = gs.ds.gold(id);
            let gold = match g.text {
                Some(t) => Gold::Text(t),
                None if g.has_snippets => Gold::Snippets(g.with, g.without),
                None => continue,
            };
            let Some((bytes, url)) = gs.page_and_url(id, "rules") else {
                continue;
            };
            let head = format!(
                "{}\t{id}\t{}\t{}",
                gs.set,
                gs.host(id, url.as_deref()),
                gs.page_type(id)
            );
            jobs.push(Job {
                bytes,
                comments: with_comments,
                url,
                gold,
                head,
            });
        }
    }
    // Two workers, each every other page.
    let rows: Vec<Vec<String>> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2)
            .map(|w| {
                let jobs = &jobs;
                s.spawn(move || {
                    jobs.iter()
                        .skip(w)
                        .step_by(2)
                        .map(|j| scores(j, base))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut halves: Vec<std::vec::IntoIter<Vec<String>>> = workers
            .into_iter()
            .map(|h| h.join().unwrap_or_default().into_iter())
            .collect();
        (0..jobs.len())
            .map_while(|i| halves[i % 2].next())
            .collect()
    });
    if rows.len() != jobs.len() {
        eprintln!("pith-lab rules: a worker failed");
        return ExitCode::FAILURE;
    }
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut header = String::from("set\tpage\thost\ttype\tauto");
    for r in Rule::ALL {
        header.push('\t');
        header.push_str(r.name());
    }
    let _ = writeln!(out, "{header}");
    for (job, row) in jobs.iter().zip(&rows) {
        let _ = write!(out, "{}", job.head);
        for v in row {
            let _ = write!(out, "\t{v}");
        }
        let _ = writeln!(out);
    }
    if out.flush().is_err() {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
