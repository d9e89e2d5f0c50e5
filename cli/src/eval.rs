//! `pith eval`: scores pith's algorithms or another tool's outputs on a gold set
//! ([`pith::eval`]), prints the table or JSON, writes the per-page CSV and the HTML report.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use argh::{ArgsInfo, FromArgs};
use pith::eval::Prf;
use pith::eval::{Dataset, PageScore, System, report, score_set, to_json, to_table};
use pith::{Algo, Options};

// The flags shared with `pith` are declared again here (argh cannot flatten them from a shared
// struct) and read by the same functions: `crate::args::ModelFlags`, `jobs_arg`.
/// Scores extractors on a gold set: pith's algorithms in-process, or files another tool wrote.
///
/// Prints a summary table (or JSON with --json). Metrics: bow (bag-of-words, ScrapingHub),
/// lcs (longest common subsequence of words, Gottron), snippet (trafilatura's with/without
/// snippets, counted over the set).
#[derive(FromArgs, ArgsInfo, Debug)]
#[argh(help_triggers("--help"))]
pub struct EvalArgs {
    /// algorithm to score (repeatable; default: model). One of: model (scored on pages it was
    /// trained on, the gold sets' figures flatter it: docs/model.md), rules, danag, danag-lines
    #[argh(option)]
    algo: Vec<Algo>,

    /// score the files DIR/<id>.txt another tool wrote, instead of running pith (repeatable)
    #[argh(option, arg_name = "DIR")]
    pred: Vec<PathBuf>,

    /// run pith's model and rules with --precision
    #[argh(switch)]
    precision: bool,

    /// run pith's model and rules with --recall
    #[argh(switch)]
    recall: bool,

    /// run pith's model and rules with --comments
    #[argh(switch)]
    comments: bool,

    /// run pith's model and rules with --keep-repeats
    #[argh(switch)]
    keep_repeats: bool,

    /// print the summary as one JSON object (shape documented in eval/METRICS.md)
    #[argh(switch)]
    json: bool,

    /// write one CSV row per page and algorithm to this file
    #[argh(option, arg_name = "FILE")]
    per_page: Option<PathBuf>,

    /// worker threads (default: all cores)
    #[argh(option, short = 'j', arg_name = "N")]
    jobs: Option<usize>,

    /// also write an HTML report to this file: summary, sorted F1 per page, precision against
    /// recall, the worst 20 pages per system with their `pith explain` views (written beside
    /// it, in REPORT.explain/)
    #[argh(option, arg_name = "FILE")]
    html: Option<PathBuf>,

    /// the gold set directory (with html/ and gold/)
    #[argh(positional)]
    dataset: PathBuf,
}

/// `pith eval ...`: `args` is what follows `eval`.
pub fn cli_main(args: &[String]) -> ExitCode {
    let args: EvalArgs = match crate::cmdline::parse(&["pith", "eval"], args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let flags = crate::args::ModelFlags {
        precision: args.precision,
        recall: args.recall,
        comments: args.comments,
        keep_repeats: args.keep_repeats,
    };
    let (base, jobs) = match flags
        .apply(Options::default())
        .and_then(|base| Ok((base, crate::args::jobs_arg(args.jobs)?)))
    {
        Ok(checked) => checked,
        Err(msg) => return crate::cmdline::usage_error(msg),
    };
    match run(&args, &base, jobs) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("pith: {msg}");
            ExitCode::FAILURE
        }
    }
}

/// Scores the systems `args` names; `base` holds the flags' options for pith's algorithms.
fn run(args: &EvalArgs, base: &Options, jobs: usize) -> Result<(), String> {
    let ds = Dataset::open(&args.dataset).map_err(|e| e.to_string())?;
    let mut systems: Vec<System> = args.pred.iter().cloned().map(System::Pred).collect();
    let mut algos = args.algo.clone();
    if algos.is_empty() && args.pred.is_empty() {
        algos.push(Algo::default());
    }
    for algo in algos {
        systems.push(System::Pith(base.clone().with_algo(algo)));
    }
    for sys in &systems {
        if let System::Pred(dir) = sys
            && !dir.is_dir()
        {
            return Err(format!("{}: not a directory", dir.display()));
        }
    }
    let mut csv = match &args.per_page {
        Some(path) => {
            let f = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut w = std::io::BufWriter::new(f);
            writeln!(w, "system,id,empty,error,bow_p,bow_r,bow_f1,lcs_p,lcs_r,lcs_f1,snip_tp,snip_fp,snip_fn,snip_tn")
                .map_err(|e| e.to_string())?;
            Some(w)
        }
        None => None,
    };
    let mut reports = Vec::new();
    let mut runs = Vec::new();
    for sys in &systems {
        let pages = score_set(&ds, sys, jobs);
        if let Some(w) = csv.as_mut() {
            for p in &pages {
                write_csv_row(w, &sys.name(), p).map_err(|e| e.to_string())?;
            }
        }
        reports.push(report(sys.name(), &pages));
        runs.push((sys.clone(), pages));
    }
    if let Some(path) = &args.html {
        pith::explain::write(&ds, &runs, &reports, path).map_err(|e| e.to_string())?;
    }
    if let Some(mut w) = csv {
        w.flush().map_err(|e| e.to_string())?;
    }
    let out = if args.json {
        to_json(&ds, &reports)
    } else {
        to_table(&ds, &reports)
    };
    print!("{out}");
    Ok(())
}

fn write_csv_row(w: &mut impl Write, sys: &str, p: &PageScore) -> std::io::Result<()> {
    let f = |x: Option<f64>| x.map_or(String::new(), |v| format!("{v:.4}"));
    let prf = |m: Option<Prf>| match m {
        Some(m) => format!("{},{},{:.4}", f(m.precision), f(m.recall), m.f1),
        None => ",,".to_string(),
    };
    let snip = match p.snippet {
        Some(c) => format!("{},{},{},{}", c.tp, c.fp, c.fn_, c.tn),
        None => ",,,".to_string(),
    };
    writeln!(
        w,
        "{sys},{},{},{},{},{},{snip}",
        p.id,
        p.empty,
        p.error,
        prf(p.bow),
        prf(p.lcs)
    )
}
