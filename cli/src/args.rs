//! The command line: parses flags into a [`pipeline::Config`] and dispatches subcommands.
//!
//! `pith eval ...` goes to [`crate::eval`], `pith explain ...` to [`crate::explain`], `pith
//! learn` and `pith template` to [`crate::learn`], `pith cluster` to [`crate::cluster`];
//! everything else is the extraction filter, run by [`pith::pipeline::run`] with
//! [`crate::report`] writing its messages, progress and summary to stderr.

use std::process::ExitCode;

use argh::FromArgs;
use pith::decode::Charset;
use pith::extract::{self, AnyAlgo, SiteParams, auto, tmpl_dom, tmpl_text};
use pith::input::Framing;
use pith::pipeline::{self, OutputFormat};
use pith::{output, page};

/// Reads web pages and writes their main content.
///
/// With no FILE, or with `-`, reads standard input. Input may be HTML, WARC (plain or gzip),
/// or JSON lines with an `html` field; output is plain text unless --format says otherwise.
/// Subcommands: `pith eval DATASET_DIR` scores extractors against a gold set (see `pith eval --help`);
/// `pith learn -o STORE/ ...` learns site templates for --templates (see `pith learn --help`);
/// `pith template show FILE` prints one as JSON;
/// `pith cluster ...` groups a host's pages by template (see `pith cluster --help`);
/// `pith explain PAGE` writes an HTML report of why the page came out as it did.
#[derive(FromArgs, Debug)]
struct Args {
    /// extraction algorithm: auto (the default: DANAg's profile plus tree signals), danag (DANAg
    /// on block-normalized lines), danag-lines (DANAg on the source's physical lines, as the paper)
    /// or, over the HTML files given as pages of one site: ce (ContentExtractor), tmpl-dom (DOM
    /// template-hash detector) or tmpl-text (text sliding-window detector)
    #[argh(option, default = "AnyAlgo::default()")]
    algo: AnyAlgo,

    /// auto: favour precision (only the main container; fewer boilerplate lines, some content lost)
    #[argh(switch)]
    precision: bool,

    /// auto: favour recall (recover shorter paragraphs; more content, some boilerplate kept)
    #[argh(switch)]
    recall: bool,

    /// auto: keep user comments (after the article, in page order); by default they are dropped
    #[argh(switch)]
    comments: bool,

    /// DANAg gap: positive regions at most N lines apart join the main content (default 20, the paper's)
    #[argh(option, default = "extract::danag::PAPER_GAP")]
    gap: usize,

    /// charset of the input pages, overriding their <meta> declaration and HTTP header (a BOM still wins);
    /// any WHATWG label, e.g. utf-8, windows-1252, gbk, shift_jis
    #[argh(option)]
    charset: Option<String>,

    /// output format: text (default; one paragraph per line), markdown (headings, lists,
    /// emphasis, tables), json (one object per record per line, body in "text"), or
    /// json-markdown (the same with the body as Markdown in "markdown")
    #[argh(option, default = "String::from(\"text\")")]
    format: String,

    /// in markdown output, keep link targets as [text](url)
    #[argh(switch)]
    links: bool,

    /// input framing: auto (default; gzip, WARC and JSON lines are recognized), html, warc or jsonl
    #[argh(option, default = "String::from(\"auto\")")]
    input: String,

    /// worker threads (default: all cores); output stays in input order
    #[argh(option, short = 'j')]
    jobs: Option<usize>,

    /// largest record accepted, in bytes after decompression (default 64 MiB); larger ones are reported and skipped
    #[argh(option, default = "pith::input::DEFAULT_MAX_RECORD")]
    max_record_bytes: usize,

    /// exit non-zero when any record failed
    #[argh(switch)]
    strict: bool,

    /// URL of a page read from a plain HTML file or stdin (`curl -s URL | pith --url URL`):
    /// goes into the `url` field of JSON output; WARC and JSON lines records carry their own
    #[argh(option)]
    url: Option<String>,

    /// site templates learned by `pith learn` (STORE/<host>.tpl): a page whose host has one is
    /// extracted by FastCE and auto together (the text both select), with the host's template
    /// whose block paths are nearest the page's, falling back to --algo when it does not
    /// match (JSON `algo` says which: fastce+auto, fastce+auto:HOST#i when the host has
    /// several templates, or the fallback);
    /// the host comes from WARC-Target-URI, the JSON `url`, or --url
    #[argh(option)]
    templates: Option<std::path::PathBuf>,

    /// tmpl-dom: lower threshold, occurrences per page of the set (default 0.5: half the pages)
    #[argh(option, default = "extract::tmpl_dom::Params::default().lower")]
    dom_lower: f32,

    /// tmpl-dom: upper threshold, occurrences per page of the set (default 3)
    #[argh(option, default = "extract::tmpl_dom::Params::default().upper")]
    dom_upper: f32,

    /// tmpl-dom: sibling coalescing joins template siblings across at most N words (default 10)
    #[argh(option, default = "extract::tmpl_dom::Params::default().gap_words")]
    dom_gap: usize,

    /// tmpl-text: window size W in bytes of detagged text (default 32)
    #[argh(option, default = "extract::tmpl_text::Params::default().window")]
    window: usize,

    /// tmpl-text: fragment frequency F (default 0: the majority of the sampled pages)
    #[argh(option, default = "0")]
    freq: usize,

    /// tmpl-text: sampling density D (default 0: every fragment is counted)
    #[argh(option, default = "0")]
    density: u64,

    /// tmpl-text: page sample size P for the first pass (default 30)
    #[argh(option, default = "extract::tmpl_text::Params::default().sample")]
    sample: usize,

    /// input files (HTML, WARC, WARC.gz or JSON lines); `-` or none reads standard input
    #[argh(positional)]
    files: Vec<String>,
}

/// Stands for `-` while argh parses.
pub(crate) const STDIN_ARG: &str = "\0stdin";

/// Entry point of the binary.
pub fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().collect();
    let cmd = argv.first().map(String::as_str).unwrap_or("pith");
    let rest: Vec<&str> = argv.iter().skip(1).map(String::as_str).collect();
    match rest.first() {
        Some(&"eval") => return crate::eval::cli_main(&[cmd, "eval"], &rest[1..]),
        Some(&"learn") => return crate::learn::learn_main(&[cmd, "learn"], &rest[1..]),
        Some(&"template") => {
            return crate::learn::template_main(&[cmd, "template"], &rest[1..]);
        }
        Some(&"cluster") => {
            return crate::cluster::cluster_main(&[cmd, "cluster"], &rest[1..]);
        }
        Some(&"explain") => return crate::explain::cli_main(&[cmd, "explain"], &rest[1..]),
        _ => {}
    }
    // argh reads a lone `-` as an unknown flag; it is the usual name of standard input, so it
    // travels through parsing under a name no file can have.
    let rest: Vec<&str> = rest
        .into_iter()
        .map(|a| if a == "-" { STDIN_ARG } else { a })
        .collect();
    let args = match Args::from_args(&[cmd], &rest) {
        Ok(args) => args,
        Err(early) => return early_exit(early),
    };
    match config_from(args) {
        Ok(run) => match run.algo {
            AnyAlgo::Site(algo) => crate::learn::run_site(&run, algo),
            AnyAlgo::Page(_) => crate::report::run(&run.pipeline, run.strict),
        },
        Err(msg) => {
            eprintln!("pith: {msg}");
            ExitCode::from(2)
        }
    }
}

/// `--help` (to stdout, success) or a usage error (to stderr, status 2).
pub fn early_exit(early: argh::EarlyExit) -> ExitCode {
    match early.status {
        Ok(()) => {
            print!("{}", early.output);
            ExitCode::SUCCESS
        }
        Err(()) => {
            eprint!("{}", early.output);
            ExitCode::from(2)
        }
    }
}

/// What the command line decided.
pub struct Run {
    /// The filter's configuration (its `options.extract.algo` is auto for site algorithms).
    pub pipeline: pipeline::Config,
    /// `--algo` as given: one page at a time, or the pages of one site together.
    pub algo: AnyAlgo,
    /// Parameters of `--algo tmpl-dom` and `--algo tmpl-text`.
    pub site: SiteParams,
    /// `--strict`: exit non-zero when any record failed.
    pub strict: bool,
}

/// `--charset`'s value, checked, or the message naming the flag.
pub fn charset_arg(label: Option<&str>) -> Result<Option<Charset>, String> {
    match label {
        None => Ok(None),
        Some(l) => l
            .parse()
            .map(Some)
            .map_err(|_| format!("unknown --charset `{l}`")),
    }
}

fn config_from(args: Args) -> Result<Run, String> {
    let format: OutputFormat = args.format.parse().map_err(|e: pith::names::UnknownName| {
        format!("unknown --format `{}`{}", e.name, e.one_of())
    })?;
    let input: Framing = args.input.parse().map_err(|e: pith::names::UnknownName| {
        format!("unknown --input `{}`{}", e.name, e.one_of())
    })?;
    let charset = charset_arg(args.charset.as_deref())?;
    let mode = auto::Mode::from_switches(args.precision, args.recall)?;
    if args.jobs == Some(0) {
        return Err("-j must be at least 1".into());
    }
    let templates = match &args.templates {
        Some(dir) => Some(std::sync::Arc::new(pith::site::Store::open(dir).map_err(
            |e| format!("--templates {e} (create it with `pith learn -o DIR ...`)"),
        )?)),
        None => None,
    };
    if !(args.dom_lower > 0.0 && args.dom_upper >= args.dom_lower) {
        return Err("need 0 < --dom-lower <= --dom-upper".into());
    }
    if args.window == 0 || args.sample < 2 {
        return Err("need --window >= 1 and --sample >= 2".into());
    }
    let site = SiteParams {
        dom: tmpl_dom::Params {
            lower: args.dom_lower,
            upper: args.dom_upper,
            gap_words: args.dom_gap,
        },
        text: tmpl_text::Params {
            window: args.window,
            freq: args.freq,
            density: args.density,
            sample: args.sample,
        },
    };
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let page_algo = match args.algo {
        AnyAlgo::Page(a) => a,
        AnyAlgo::Site(_) => extract::Algo::default(),
    };
    let pipeline = pipeline::Config {
        options: page::Options {
            extract: extract::Options {
                algo: page_algo,
                gap: args.gap,
                mode,
                comments: args.comments,
            },
            charset,
            output: output::Options {
                format: format.body,
                links: args.links,
            },
            metadata: format.json,
        },
        json: format.json,
        input,
        jobs,
        max_record_bytes: args.max_record_bytes,
        url: args.url,
        templates,
        files: if args.files.is_empty() {
            vec!["-".to_string()]
        } else {
            let stdin = |f: String| if f == STDIN_ARG { "-".to_string() } else { f };
            args.files.into_iter().map(stdin).collect()
        },
    };
    Ok(Run {
        pipeline,
        algo: args.algo,
        site,
        strict: args.strict,
    })
}
