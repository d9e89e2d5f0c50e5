//! `pith explain PAGE`: the report of [`pith::explain`] for one page, to a file or stdout.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use argh::{ArgsInfo, FromArgs};
use pith::algo::danag;
use pith::explain::explain_with_gold;
use pith::{AnyAlgo, Options};

// The flags shared with `pith` are declared again here (argh cannot flatten them from a shared
// struct) and read by the same functions: `crate::args::ModelFlags`, `charset_arg`.
/// Writes an HTML report of why a page came out as it did: DANAg's profile, every text block
/// kept or dropped with the rule and signals that decided it, the output text.
///
/// The report is one self-contained file (inline SVG and CSS, no external resource); open it
/// in any browser. Without -o it goes to standard output.
#[derive(FromArgs, ArgsInfo, Debug)]
#[argh(help_triggers("--help"))]
struct ExplainArgs {
    /// algorithm to explain: model (default: each block's probability of content), rules,
    /// danag or danag-lines; ce needs several pages of a site, as in `pith --algo ce`
    #[argh(option, default = "AnyAlgo::default()")]
    algo: AnyAlgo,

    /// model and rules: explain the --precision variant
    #[argh(switch)]
    precision: bool,

    /// model and rules: explain the --recall variant
    #[argh(switch)]
    recall: bool,

    /// model and rules: keep user comments, as `pith --comments`
    #[argh(switch)]
    comments: bool,

    /// model and rules: keep every copy of a text the page repeats, as `pith --keep-repeats`
    #[argh(switch)]
    keep_repeats: bool,

    /// DANAg gap in lines (default 20, the paper's); as `pith --gap`
    #[argh(option, default = "danag::PAPER_GAP", arg_name = "N")]
    gap: usize,

    /// charset of the page, overriding its declaration; as `pith --charset`
    #[argh(option)]
    charset: Option<String>,

    /// the page's gold text (plain text, like a gold set's gold/<id>.txt): every block is also
    /// marked as in it or not, so kept noise and dropped content stand out
    #[argh(option, arg_name = "FILE")]
    gold: Option<PathBuf>,

    /// write the report to this file instead of standard output
    #[argh(option, short = 'o', arg_name = "FILE")]
    output: Option<PathBuf>,

    /// explain record N of a WARC or JSON lines file (plain or compressed: gzip, zstd, xz,
    /// bzip2) instead of a page file: N counts from 1, as `record` in pith's messages and JSON error lines
    #[argh(option, arg_name = "N")]
    record: Option<u64>,

    /// the page (an HTML file, or with --record a WARC or JSON lines file; `-` reads
    /// standard input)
    #[argh(positional)]
    page: String,
}

/// `pith explain ...`: `args` is what follows `explain`.
pub fn cli_main(args: &[String]) -> ExitCode {
    let args: ExplainArgs = match crate::cmdline::parse(&["pith", "explain"], args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let opts = match options(&args) {
        Ok(o) => o,
        Err(msg) => return crate::cmdline::usage_error(msg),
    };
    match run(&args, &opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("pith: {msg}");
            ExitCode::FAILURE
        }
    }
}

/// Record `n` of the WARC or JSON lines input `page`, and the name the report gives it.
fn read_record(page: &str, n: u64) -> Result<(Box<pith::input::Record>, String), String> {
    use pith::input::{DEFAULT_MAX_RECORD, Framing, Input, Item, Pool};
    let file = if page == crate::cmdline::STDIN_ARG {
        "-"
    } else {
        page
    };
    let shown = if file == "-" { "standard input" } else { file };
    let (mut input, _) = Input::open(file, Framing::Auto, DEFAULT_MAX_RECORD)
        .map_err(|e| format!("{shown}: {e}"))?;
    let pool = Pool::default();
    let mut last = 0;
    while let Some(item) = input.next_item() {
        let item = match item {
            Item::Member(m) => m.finish(&pool),
            other => other,
        };
        match item {
            Item::Page(rec) if rec.place.index == n => {
                let what = rec.place.url.clone().or_else(|| rec.place.id.clone());
                let name = match what {
                    Some(w) => format!("{shown} record {n}: {w}"),
                    None => format!("{shown} record {n}"),
                };
                return Ok((rec, name));
            }
            Item::Page(rec) if rec.place.index > n => break,
            Item::Page(rec) => last = rec.place.index,
            Item::Fault(f) if f.place.index == n => return Err(f.to_string()),
            _ => {}
        }
    }
    Err(match last {
        0 => format!("{shown}: no HTML page at record {n}"),
        l => format!("{shown}: no HTML page at record {n} (the last page before it is record {l})"),
    })
}

/// The options the flags ask for, or the usage error.
fn options(args: &ExplainArgs) -> Result<Options, String> {
    let flags = crate::args::ModelFlags {
        precision: args.precision,
        recall: args.recall,
        comments: args.comments,
        keep_repeats: args.keep_repeats,
    };
    let opts = flags.apply(Options::default())?;
    let algo = match args.algo {
        AnyAlgo::Page(a) => a,
        AnyAlgo::Site(a) => {
            return Err(format!(
                "--algo {} compares pages of one site; explain one page with model, rules, danag or danag-lines",
                a.name()
            ));
        }
    };
    let opts = opts
        .with_algo(algo)
        .with_gap(args.gap)
        .with_charset(crate::args::charset_arg(args.charset.as_deref())?);
    if args.record == Some(0) {
        return Err("--record counts from 1 (the first record is --record 1)".into());
    }
    Ok(opts)
}

fn run(args: &ExplainArgs, opts: &Options) -> Result<(), String> {
    let mut record_opts;
    let mut opts = opts;
    let (bytes, name) = if let Some(n) = args.record {
        let (rec, name) = read_record(&args.page, n)?;
        // The record's HTTP charset, as the filter reads it (below a BOM, above `<meta>`).
        if opts.charset.is_none()
            && let Some(c) = rec.charset.as_deref().and_then(|l| l.parse().ok())
        {
            record_opts = opts.clone();
            record_opts.charset = Some(c);
            opts = &record_opts;
        }
        (rec.page().to_vec(), name)
    } else if args.page == crate::cmdline::STDIN_ARG {
        let mut b = Vec::new();
        std::io::stdin()
            .read_to_end(&mut b)
            .map_err(|e| format!("standard input: {e}"))?;
        (b, "standard input".to_string())
    } else {
        let b = std::fs::read(&args.page).map_err(|e| format!("{}: {e}", args.page))?;
        (b, args.page.clone())
    };
    let gold = match &args.gold {
        Some(path) => {
            let b = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            Some(String::from_utf8_lossy(&b).into_owned())
        }
        None => None,
    };
    let ex = explain_with_gold(&bytes, &name, opts, gold.as_deref())
        .map_err(|e| format!("{name}: {e}"))?;
    match &args.output {
        Some(path) => std::fs::write(path, ex.html).map_err(|e| format!("{}: {e}", path.display())),
        // A reader that went away (`pith explain page | head -1`) is a normal end, as for
        // the filter: nothing said, exit 0.
        None => {
            let mut out = std::io::stdout().lock();
            match out.write_all(ex.html.as_bytes()).and_then(|()| out.flush()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    Err(format!("standard output: {e}"))
                }
                _ => Ok(()),
            }
        }
    }
}
