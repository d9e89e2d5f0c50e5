//! Evaluation: scores pith's algorithms, or another tool's saved outputs, against a gold set,
//! with the field's measures (`metrics`) and the reference scorer's aggregation rules
//! (`shared/peers/README.md`: precision averaged over pages with output, recall over pages with
//! gold, F1 over all pages; medians as Python's `statistics.median`).
//!
//! A gold set is a directory with `html/<id>.html` and `gold/<id>.txt` (text gold, scored with
//! bag of words and LCS) and/or `gold/<id>.json` (`{"with": [...], "without": [...]}` snippets).
//! Gold quirks are undone as the reference scorer does, keyed by the set's `MANIFEST.json` name
//! (or its folder name): CleanEval's `URL:` line and `<p>`/`<h>`/`<l>` markers, Dragnet's comment
//! separator line.

pub(crate) mod metrics;

pub use metrics::{Prf, snippets};

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use crate::extract::Algo;
use crate::files::FileError;
use crate::page::Options;
use metrics::SnippetCounts;

/// A gold set that cannot be scored.
#[derive(Debug)]
pub enum Error {
    /// Its `html/` folder could not be read.
    File(FileError),
    /// Its `html/` folder holds no `.html` page.
    NoPages(PathBuf),
}

impl From<FileError> for Error {
    fn from(e: FileError) -> Error {
        Error::File(e)
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::File(e) => e.fmt(f),
            Error::NoPages(html) => write!(f, "{}: no .html pages", html.display()),
        }
    }
}

impl std::error::Error for Error {}

/// The gold of one page.
#[derive(Debug, Default)]
pub struct Gold {
    /// Text gold, cleaned; `None` when the set has only snippets.
    pub text: Option<String>,
    /// Snippet gold.
    pub with: Vec<String>,
    /// `without` snippets: text that must not appear in the output.
    pub without: Vec<String>,
    /// Whether the set has a `gold/<id>.json` with a `with` or `without` list for this page.
    pub has_snippets: bool,
    /// Where the comments begin in `text`, for a gold that keeps them after Dragnet's
    /// separator line (`is_comments_line`): `text[..comments_at]` is the article alone.
    pub comments_at: Option<usize>,
}

/// A gold set on disk.
pub struct Dataset {
    /// The set's name: `MANIFEST.json`'s `name`, else the folder name; picks the gold clean-up.
    pub name: String,
    /// The set's directory, holding `html/` and `gold/`.
    pub dir: PathBuf,
    /// Page ids, sorted.
    pub ids: Vec<String>,
}

impl Dataset {
    /// Opens `dir`: lists `html/*.html` (and `*.html.gz`), reads the name from `MANIFEST.json`
    /// if present.
    pub fn open(dir: &Path) -> Result<Dataset, Error> {
        let html = dir.join("html");
        let entries = std::fs::read_dir(&html).map_err(FileError::at(&html))?;
        let mut ids: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                name.strip_suffix(".html")
                    .or_else(|| name.strip_suffix(".html.gz"))
                    .map(str::to_string)
            })
            .collect();
        ids.sort();
        if ids.is_empty() {
            return Err(Error::NoPages(html));
        }
        let manifest_name = std::fs::read(dir.join("MANIFEST.json"))
            .ok()
            .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
            .and_then(|v| v.get("name").and_then(|n| n.as_str()).map(str::to_string));
        let folder = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok(Dataset {
            name: manifest_name.unwrap_or(folder),
            dir: dir.to_path_buf(),
            ids,
        })
    }

    /// The bytes of page `id`: `html/<id>.html`, or `html/<id>.html.gz` inflated (as WCXB
    /// ships its pages).
    pub fn page(&self, id: &str) -> std::io::Result<Vec<u8>> {
        let html = self.dir.join("html");
        match std::fs::read(html.join(format!("{id}.html"))) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                use std::io::Read;
                let gz = std::fs::File::open(html.join(format!("{id}.html.gz")))?;
                let mut out = Vec::new();
                flate2::read::MultiGzDecoder::new(gz).read_to_end(&mut out)?;
                Ok(out)
            }
            other => other,
        }
    }

    /// The gold of page `id`, with the set's quirks undone.
    pub fn gold(&self, id: &str) -> Gold {
        let mut gold = Gold::default();
        let gold_dir = self.dir.join("gold");
        if let Ok(b) = std::fs::read(gold_dir.join(format!("{id}.txt"))) {
            let (text, comments_at) = clean_gold_parts(&self.name, &String::from_utf8_lossy(&b));
            gold.text = Some(text);
            gold.comments_at = comments_at;
        }
        if let Some(v) = std::fs::read(gold_dir.join(format!("{id}.json")))
            .ok()
            .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        {
            let list = |k: &str| -> Vec<String> {
                v.get(k)
                    .and_then(|a| a.as_array())
                    .map(|a| {
                        a.iter()
                            .filter_map(|s| s.as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default()
            };
            gold.with = list("with");
            gold.without = list("without");
            gold.has_snippets = v.get("with").is_some() || v.get("without").is_some();
        }
        gold
    }
}

/// Undoes the gold quirks the reference scorer undoes (peers/README.md, "Gold clean-up").
#[cfg(test)]
pub(crate) fn clean_gold(set: &str, gold: &str) -> String {
    clean_gold_parts(set, gold).0
}

/// [`clean_gold`], and where the comments begin in the cleaned text when the gold keeps them
/// after Dragnet's separator line ([`Gold::comments_at`]; the text before it is unchanged).
fn clean_gold_parts(set: &str, gold: &str) -> (String, Option<usize>) {
    if set.starts_with("cleaneval") {
        // A leading `URL:` line, then the block markers <p>, <h>, <l> (either case) as newlines.
        let trimmed = gold.trim_start();
        let body = match trimmed.strip_prefix("URL:") {
            Some(rest) => rest.split_once('\n').map_or("", |(_, after)| after),
            None => gold,
        };
        let mut out = String::with_capacity(body.len());
        let mut rest = body;
        while let Some(i) = rest.find('<') {
            out.push_str(&rest[..i]);
            let tail = &rest[i..];
            let marker = tail.len() >= 3
                && matches!(tail.as_bytes()[1].to_ascii_lowercase(), b'p' | b'h' | b'l')
                && tail.as_bytes()[2] == b'>';
            if marker {
                out.push('\n');
                rest = &tail[3..];
            } else {
                out.push('<');
                rest = &tail[1..];
            }
        }
        out.push_str(rest);
        return (out, None);
    }
    if set.starts_with("dragnet") {
        // The line separating article and comments becomes an empty line; the comments stay
        // gold.
        let mut out = String::with_capacity(gold.len());
        let mut comments_at = None;
        for (i, line) in gold.split('\n').enumerate() {
            if i > 0 {
                out.push('\n');
            }
            if is_comments_line(line) {
                comments_at.get_or_insert(out.len());
            } else {
                out.push_str(line);
            }
        }
        return (out, comments_at);
    }
    (gold.to_string(), None)
}

/// Whether `line` is the line Dragnet's gold puts between a page's article and its comments
/// (`!@#$%^&*()  COMMENTS`), white space and line ends around it aside.
pub(crate) fn is_comments_line(line: &str) -> bool {
    let t = line
        .trim_end_matches(['\r', '\n'])
        .trim_matches([' ', '\t']);
    t.strip_prefix("!@#$%^&*()")
        .is_some_and(|rest| rest.trim() == "COMMENTS")
}

/// One page's scores under one system.
#[derive(Clone, Debug)]
pub struct PageScore {
    /// The page id.
    pub id: String,
    /// Whether the output had no tokens.
    pub empty: bool,
    /// Whether the page could not be read or extracted (scored as an empty output).
    pub error: bool,
    /// Bag-of-words scores; `None` without text gold.
    pub bow: Option<Prf>,
    /// LCS scores; `None` without text gold.
    pub lcs: Option<Prf>,
    /// Snippet counts; `None` without snippet gold.
    pub snippet: Option<SnippetCounts>,
    /// Wall-clock time to produce the output, in seconds.
    pub seconds: f64,
}

/// A system under test: pith with some options, or a directory of predictions.
#[derive(Clone, Debug)]
pub enum System {
    /// pith itself, run with these options.
    Pith(Options),
    /// Saved outputs of another tool: `<dir>/<id>.txt` per page (missing file = empty output).
    Pred(PathBuf),
}

impl System {
    /// The row name: the algorithm and the switches that change it, or the folder name.
    pub fn name(&self) -> String {
        match self {
            System::Pith(o) => {
                let mut n = o.extract.algo.name().to_string();
                if matches!(o.extract.algo, Algo::Rules | Algo::Model) {
                    match o.extract.mode {
                        crate::extract::auto::Mode::Precision => n.push_str(" --precision"),
                        crate::extract::auto::Mode::Recall => n.push_str(" --recall"),
                        crate::extract::auto::Mode::Balanced => {}
                    }
                    if o.extract.comments {
                        n.push_str(" --comments");
                    }
                    if o.extract.keep_repeats {
                        n.push_str(" --keep-repeats");
                    }
                }
                n
            }
            System::Pred(dir) => dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| dir.display().to_string()),
        }
    }
}

/// Scores every page of `ds` under `sys`, on `jobs` threads; results in id order.
pub fn score_set(ds: &Dataset, sys: &System, jobs: usize) -> Vec<PageScore> {
    let next = AtomicUsize::new(0);
    let mut results: Vec<Option<PageScore>> = vec![None; ds.ids.len()];
    let chunks: Vec<Vec<(usize, PageScore)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..jobs.max(1))
            .map(|_| {
                s.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(id) = ds.ids.get(i) else { break };
                        done.push((i, score_page(ds, sys, id)));
                    }
                    done
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    for (i, p) in chunks.into_iter().flatten() {
        results[i] = Some(p);
    }
    results.into_iter().flatten().collect()
}

fn score_page(ds: &Dataset, sys: &System, id: &str) -> PageScore {
    let gold = ds.gold(id);
    let started = Instant::now();
    let (output, error) = match sys {
        System::Pith(opts) => match ds.page(id) {
            Ok(bytes) => match crate::page::extract(&bytes, None, opts) {
                Ok(e) => (e.text, false),
                Err(_) => (String::new(), true),
            },
            Err(_) => (String::new(), true),
        },
        // A missing prediction file is an empty prediction (reference scorer rule).
        System::Pred(dir) => match std::fs::read(dir.join(format!("{id}.txt"))) {
            Ok(b) => (String::from_utf8_lossy(&b).into_owned(), false),
            Err(_) => (String::new(), false),
        },
    };
    // Reading another tool's saved output says nothing of that tool's speed: no time for it.
    let seconds = match sys {
        System::Pith(_) => started.elapsed().as_secs_f64(),
        System::Pred(_) => 0.0,
    };
    let pred_tokens = metrics::tokens(&output);
    let (bow, lcs) = match &gold.text {
        Some(g) => {
            let gold_tokens = metrics::tokens(g);
            (
                Some(metrics::bow(&pred_tokens, &gold_tokens)),
                Some(metrics::lcs(&pred_tokens, &gold_tokens)),
            )
        }
        None => (None, None),
    };
    let snippet = gold
        .has_snippets
        .then(|| metrics::snippets(&output, &gold.with, &gold.without));
    PageScore {
        id: id.to_string(),
        empty: pred_tokens.is_empty(),
        error,
        bow,
        lcs,
        snippet,
        seconds,
    }
}

/// Mean and median of a list (Python's `statistics` conventions; empty gives 0).
fn mean_median(mut v: Vec<f64>) -> (f64, f64) {
    if v.is_empty() {
        return (0.0, 0.0);
    }
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let median = if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    };
    (mean, median)
}

/// The set-level summary of one metric.
#[derive(Clone, Copy, Debug, Default)]
pub struct MetricSummary {
    /// Precision `(mean, median)` over pages with a prediction.
    pub precision: (f64, f64),
    /// Recall `(mean, median)` over pages with gold.
    pub recall: (f64, f64),
    /// F1 `(mean, median)` over all pages.
    pub f1: (f64, f64),
}

/// Aggregates per-page scores of one text metric.
pub fn summarize(scores: &[Prf]) -> MetricSummary {
    MetricSummary {
        precision: mean_median(scores.iter().filter_map(|s| s.precision).collect()),
        recall: mean_median(scores.iter().filter_map(|s| s.recall).collect()),
        f1: mean_median(scores.iter().map(|s| s.f1).collect()),
    }
}

/// Everything reported for one system.
pub struct Report {
    /// The system's row name.
    pub name: String,
    /// Bag-of-words summary; `None` when no page has text gold.
    pub bow: Option<MetricSummary>,
    /// LCS summary; `None` when no page has text gold.
    pub lcs: Option<MetricSummary>,
    /// Snippet counts summed over the set; `None` when no page has snippet gold.
    pub snippet: Option<SnippetCounts>,
    /// Pages whose output had no tokens.
    pub empty: usize,
    /// Pages that could not be read or extracted.
    pub errors: usize,
    /// Pages over the summed per-page seconds (0 when no time was measured).
    pub pages_per_s: f64,
}

/// Builds the report of system `name` from its per-page scores.
pub fn report(name: String, pages: &[PageScore]) -> Report {
    let bows: Vec<Prf> = pages.iter().filter_map(|p| p.bow).collect();
    let lcss: Vec<Prf> = pages.iter().filter_map(|p| p.lcs).collect();
    let mut snippet: Option<SnippetCounts> = None;
    for p in pages {
        if let Some(c) = p.snippet {
            snippet.get_or_insert_with(SnippetCounts::default).add(c);
        }
    }
    let secs: f64 = pages.iter().map(|p| p.seconds).sum();
    Report {
        name,
        bow: (!bows.is_empty()).then(|| summarize(&bows)),
        lcs: (!lcss.is_empty()).then(|| summarize(&lcss)),
        snippet,
        empty: pages.iter().filter(|p| p.empty).count(),
        errors: pages.iter().filter(|p| p.error).count(),
        pages_per_s: if secs > 0.0 {
            pages.len() as f64 / secs
        } else {
            0.0
        },
    }
}

/// The JSON summary (shape in eval/METRICS.md).
pub fn to_json(ds: &Dataset, reports: &[Report]) -> String {
    use serde_json::{Map, Value, json};
    let summary = |s: &MetricSummary| {
        json!({
            "precision": {"mean": s.precision.0, "median": s.precision.1},
            "recall": {"mean": s.recall.0, "median": s.recall.1},
            "f1": {"mean": s.f1.0, "median": s.f1.1},
        })
    };
    let mut results = Map::new();
    for r in reports {
        let mut o = Map::new();
        if let Some(s) = &r.bow {
            o.insert("bow".into(), summary(s));
        }
        if let Some(s) = &r.lcs {
            o.insert("lcs".into(), summary(s));
        }
        if let Some(c) = &r.snippet {
            o.insert(
                "snippet".into(),
                json!({"precision": c.precision(), "recall": c.recall(), "f1": c.f1(),
                       "accuracy": c.accuracy(), "tp": c.tp, "fp": c.fp, "fn": c.fn_, "tn": c.tn}),
            );
        }
        o.insert("empty".into(), json!(r.empty));
        o.insert("errors".into(), json!(r.errors));
        // `null` for saved predictions, whose speed was not measured here.
        let pps = (r.pages_per_s > 0.0).then_some(r.pages_per_s);
        o.insert("pages_per_s".into(), json!(pps));
        results.insert(r.name.clone(), Value::Object(o));
    }
    let v = json!({"dataset": ds.name, "pages": ds.ids.len(), "results": results});
    format!("{v}\n")
}

/// The human-readable table.
pub fn to_table(ds: &Dataset, reports: &[Report]) -> String {
    let mut s = format!("{} ({} pages)\n", ds.name, ds.ids.len());
    s.push_str(&format!(
        "{:<16} {:<7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>6} {:>6} {:>9}\n",
        "system",
        "metric",
        "P mean",
        "P med",
        "R mean",
        "R med",
        "F1 mean",
        "F1 med",
        "empty",
        "errors",
        "pages/s"
    ));
    for r in reports {
        let mut first = true;
        let mut row =
            |metric: &str, cols: [f64; 6]| {
                let (e, er, pps) = if first {
                    (
                        r.empty.to_string(),
                        r.errors.to_string(),
                        if r.pages_per_s > 0.0 {
                            format!("{:.1}", r.pages_per_s)
                        } else {
                            "-".to_string()
                        },
                    )
                } else {
                    (String::new(), String::new(), String::new())
                };
                s.push_str(&format!(
                "{:<16} {:<7} {:>7.3} {:>7.3} {:>7.3} {:>7.3} {:>7.3} {:>7.3} {:>6} {:>6} {:>9}\n",
                if first { r.name.as_str() } else { "" },
                metric,
                cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], e, er, pps
            ));
                first = false;
            };
        for (metric, sum) in [("bow", &r.bow), ("lcs", &r.lcs)] {
            if let Some(m) = sum {
                row(
                    metric,
                    [
                        m.precision.0,
                        m.precision.1,
                        m.recall.0,
                        m.recall.1,
                        m.f1.0,
                        m.f1.1,
                    ],
                );
            }
        }
        if let Some(c) = &r.snippet {
            row(
                "snippet",
                [
                    c.precision(),
                    c.precision(),
                    c.recall(),
                    c.recall(),
                    c.f1(),
                    c.f1(),
                ],
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_names_the_algorithm_and_every_switch_that_changes_it() {
        let named = |algo, mode, comments, keep_repeats| {
            System::Pith(Options {
                extract: crate::extract::AlgoOptions {
                    algo,
                    mode,
                    comments,
                    keep_repeats,
                    ..Default::default()
                },
                ..Options::default()
            })
            .name()
        };
        use crate::extract::auto::Mode;
        assert_eq!(named(Algo::Rules, Mode::Balanced, false, false), "rules");
        assert_eq!(
            named(Algo::Model, Mode::Precision, true, false),
            "model --precision --comments"
        );
        assert_eq!(
            named(Algo::Rules, Mode::Recall, false, true),
            "rules --recall --keep-repeats"
        );
        assert_eq!(named(Algo::Danag, Mode::Balanced, false, false), "danag");
        assert_eq!(
            System::Pred(PathBuf::from("/x/trafilatura")).name(),
            "trafilatura"
        );
    }

    #[test]
    fn cleaneval_gold_markers_and_url_line() {
        let g = clean_gold(
            "cleaneval_final",
            "URL: http://x\n<p>One para<h>Head<L>item <b>x",
        );
        assert_eq!(g, "\nOne para\nHead\nitem <b>x");
        assert_eq!(clean_gold("cleaneval_final", "<p>no url"), "\nno url");
    }

    #[test]
    fn dragnet_separator_line() {
        let g = clean_gold("dragnet", "Article\r\n!@#$%^&*()  COMMENTS\r\nA comment");
        assert_eq!(g, "Article\r\n\nA comment");
    }

    #[test]
    fn dragnet_gold_says_where_its_comments_begin() {
        let (text, at) = clean_gold_parts(
            "dragnet",
            "The article.\r\nIts second line.\r\n!@#$%^&*()  COMMENTS\r\nA comment.\r\n",
        );
        let at = at.expect("a comments line");
        assert_eq!(&text[..at], "The article.\r\nIts second line.\r\n");
        assert_eq!(&text[at..], "\nA comment.\r\n");
        assert_eq!(clean_gold_parts("dragnet", "No comments here.\n").1, None);
        // Only Dragnet's gold has the line: elsewhere it is text like any other.
        assert_eq!(
            clean_gold_parts("l3s_gn1", "A\n!@#$%^&*()  COMMENTS\nB").1,
            None
        );
    }

    #[test]
    fn medians_follow_python() {
        assert_eq!(mean_median(vec![3.0, 1.0, 2.0]), (2.0, 2.0));
        assert_eq!(mean_median(vec![1.0, 2.0, 3.0, 4.0]), (2.5, 2.5));
        assert_eq!(mean_median(vec![]), (0.0, 0.0));
    }
}
