//! The command line: parses flags into a [`pipeline::Config`] and dispatches subcommands.
//!
//! `pith eval ...` goes to [`crate::eval`], `pith explain ...` to [`crate::explain`], `pith
//! learn` and `pith template` to [`crate::learn`], `pith cluster` to [`crate::cluster`],
//! `pith site` to [`crate::site`], `pith help [COMMAND]` to the command's help; everything
//! else is the extraction filter, run by [`pith::pipeline::run`] with [`crate::report`]
//! writing its messages, progress and summary to stderr. Every command's flags go through
//! [`crate::cmdline::parse`] (the conventions argh lacks, and the one error style).

use std::process::ExitCode;

use argh::{ArgsInfo, FromArgs};
use pith::Charset;
use pith::input::Framing;
use pith::pipeline::{self, OutputFormat};
use pith::{AnyAlgo, Mode, SiteParams};

// The flags `pith explain`, `pith eval` and `pith site` share with this command are declared
// again in their structs: argh cannot flatten one struct of flags into another, and a field's
// doc comment is its help, worded for its command. Their values are read by the same
// functions: `ModelFlags`, `charset_arg`, `jobs_arg`.
/// Reads web pages and writes their main content.
///
/// With no FILE, or with `-`, reads standard input. Input may be HTML, WARC or JSON lines with
/// an `html` field, plain or compressed (gzip, zstd, xz, bzip2); output is plain text unless --format says otherwise.
/// pith reads pages, it does not fetch them: `curl -sL URL | pith --url URL`.
#[derive(FromArgs, ArgsInfo, Debug)]
#[argh(help_triggers("--help"))]
struct Args {
    /// extraction algorithm: model (the default: a learned model keeps each text block it
    /// judges content, over the rules' signals: docs/model.md), rules (DANAg's profile plus
    /// tree signals: faster, ahead on news, behind on other pages; `auto` is its old name),
    /// danag (DANAg on block-normalized lines), danag-lines (DANAg on the source's physical
    /// lines, as the paper) or, over the HTML files given as pages of one site: ce
    /// (ContentExtractor), tmpl-dom (DOM template-hash detector) or tmpl-text (text
    /// sliding-window detector), with their default parameters (`pith site --help` lists them)
    #[argh(option, default = "AnyAlgo::default()")]
    algo: AnyAlgo,

    /// favour precision: model keeps only blocks it is surer of, rules only the main container
    /// (fewer boilerplate lines, some content lost)
    #[argh(switch)]
    precision: bool,

    /// favour recall: model keeps blocks it is less sure of, rules recover shorter paragraphs
    /// (more content, some boilerplate kept)
    #[argh(switch)]
    recall: bool,

    /// model and rules: keep user comments (after the article, in page order); by default they
    /// are dropped
    #[argh(switch)]
    comments: bool,

    /// model and rules: keep every copy of a text the page repeats; by default a copy that
    /// renders a region again (a quoted post, a layout printed twice) is dropped, as most
    /// readers and gold sets count it, and the content's own repeats (a refrain) stay
    #[argh(switch)]
    keep_repeats: bool,

    /// DANAg gap: positive regions at most N lines apart join the main content (default 20, the paper's)
    #[argh(option, default = "pith::algo::danag::PAPER_GAP", arg_name = "N")]
    gap: usize,

    /// charset of the input pages, overriding their <meta> declaration and HTTP header (a BOM still wins);
    /// any WHATWG label, e.g. utf-8, windows-1252, gbk, shift_jis
    #[argh(option)]
    charset: Option<String>,

    /// output format: text (default; one paragraph per line), markdown (headings, lists,
    /// emphasis, tables), html (a whole HTML document per page: headings, paragraphs, lists,
    /// tables, quotes, code as clean elements, the title, author, date, description, canonical
    /// URL and language in its <head>), xml (trafilatura's <doc> with the metadata as
    /// attributes, the content in <main>), json (one object per record per line, body in
    /// "text"), or json-markdown (the same with the body as Markdown in "markdown"). Records of
    /// text, markdown, html and xml output are separated by a line holding a form feed
    #[argh(option, default = "String::from(\"text\")")]
    format: String,

    /// keep link targets: in markdown as [text](url), in html as <a href>, in xml as <ref target>
    #[argh(switch)]
    links: bool,

    /// keep the images of the main content: in markdown as ![alt](src) on their own line with the
    /// figure's caption in italics on the next; in html as <img src alt>, in xml as <graphic src
    /// alt title>, where they stand; in json an "images" array of {src, alt, caption};
    /// text output is unchanged. Sources are resolved like links (--url, the record's URL, <base href>)
    #[argh(switch)]
    images: bool,

    /// input framing: auto (default; gzip, zstd, xz and bzip2 are undone, WARC and JSON lines recognized), html, warc or jsonl;
    /// JSON lines may start with a BOM, and lines (and WARC header lines) may end in LF, CRLF or CR
    #[argh(option, default = "String::from(\"auto\")")]
    input: String,

    /// worker threads (default: all cores); output stays in input order
    #[argh(option, short = 'j', arg_name = "N")]
    jobs: Option<usize>,

    /// the record limit: largest record accepted, in bytes after decompression (default 64 MiB); larger ones are reported ("over the record limit") and skipped; a page is also held to its element budget (96 Ki units of markup, or one per 256 bytes of a page over 24 MiB), which follows the page's size, not this limit
    #[argh(
        option,
        default = "pith::input::DEFAULT_MAX_RECORD",
        arg_name = "BYTES"
    )]
    max_record_bytes: usize,

    /// the memory budget of the records being worked on, in bytes, or with a suffix K, M, G or
    /// T (powers of 1024): each record counts 4 times its size, a record waits while the
    /// records before it hold the budget, and a page that alone would need more is reported
    /// and skipped (default: half the machine's memory, or of the cgroup's limit when lower)
    #[argh(option, arg_name = "BYTES")]
    max_memory: Option<String>,

    /// skip a page whose main text has fewer than N words (white-space separated), as
    /// preprocessing drops stubs; counted in the summary as skipped ("fewer words than
    /// --min-words"); 0 (the default) keeps every page
    #[argh(option, default = "0", arg_name = "N")]
    min_words: usize,

    /// keep only pages in these languages (`--target-language en,de`, or the flag again): codes
    /// such as en, de, pt (a longer tag counts by its primary subtag: en-gb is en), compared
    /// with the page's language as JSON's `lang` gives it (declared, else detected from the
    /// text); a page in another language is skipped ("not in --target-language"), one whose
    /// language is unknown too ("language unknown (--target-language)"); any --format
    #[argh(option, arg_name = "LANG")]
    target_language: Vec<String>,

    /// drop a page whose main text repeats an earlier page of the run, exactly or nearly
    /// (`pith --dedup --format json crawl/*.warc.gz`): MinHash over 5-word shingles, a page
    /// sharing about 70% or more of its shingles with a kept one is a repeat; the first is
    /// kept, the same at every -j; counted as skipped ("duplicate (--dedup)"); at most 330 bytes
    /// of memory per kept page (3.3 GB for 10 million distinct pages)
    #[argh(switch)]
    dedup: bool,

    /// exit non-zero when any record failed (a damaged or cut stretch of a compressed
    /// input counts as one failed record) or any input could not be read
    #[argh(switch)]
    strict: bool,

    /// write nothing on stderr but what stops the run (a write error): no per-record messages,
    /// no progress, no summary; the exit status and `--format json`'s error lines still say
    /// what failed
    #[argh(switch, short = 'q')]
    quiet: bool,

    /// write a file per input into DIR (created when missing) instead of standard output,
    /// named after the input with the format's extension: `pith -o out/ a.html crawl.warc.gz`
    /// writes out/a.txt and out/crawl.jsonl. A WARC or JSON lines input gives JSON lines
    /// whatever the format (one object per record, the body in "text", "markdown", "html" or
    /// "xml" as --format says), a page its format (.txt, .md, .html, .xml, .json); standard
    /// input is DIR/stdin.EXT. Inputs of the same name are named after their paths
    /// (a/index.html -> a_index.txt, then -2, -3...): no file of the run overwrites another
    #[argh(option, short = 'o', arg_name = "DIR")]
    output_dir: Option<std::path::PathBuf>,

    /// a directory given as FILE is read with its subdirectories (without it, only the files
    /// directly in it); files are read in sorted order either way
    #[argh(switch, short = 'r')]
    recursive: bool,

    /// URL of a page read from a plain HTML file or stdin (`curl -s URL | pith --url URL`):
    /// goes into the `url` field of JSON output; WARC and JSON lines records carry their own
    #[argh(option, arg_name = "URL")]
    url: Option<String>,

    /// site templates learned by `pith learn` (STORE/<host>.tpl): a page whose host has one is
    /// extracted by FastCE and auto together (the text both select), with the host's template
    /// whose block paths are nearest the page's, falling back to --algo when it does not
    /// match (JSON `algo` says which: fastce+auto, fastce+auto:HOST#i when the host has
    /// several templates, or the fallback);
    /// the host comes from WARC-Target-URI, the JSON `url`, or --url
    #[argh(option, arg_name = "STORE")]
    templates: Option<std::path::PathBuf>,

    /// input files or directories: HTML, WARC or JSON lines, plain or compressed (gzip, zstd, xz, bzip2); `-` or none reads standard input
    #[argh(positional)]
    files: Vec<String>,
}

/// Entry point of the binary.
pub fn main() -> ExitCode {
    let mut argv: Vec<String> = Vec::new();
    for a in std::env::args_os().skip(1) {
        match a.into_string() {
            Ok(a) => argv.push(a),
            Err(a) => {
                return crate::cmdline::usage_error(format!(
                    "argument `{}` is not UTF-8",
                    a.to_string_lossy()
                ));
            }
        }
    }
    let (first, rest) = match argv.split_first() {
        Some((first, rest)) => (first.as_str(), rest),
        None => ("", &[][..]),
    };
    match first {
        "eval" => return crate::eval::cli_main(rest),
        "learn" => return crate::learn::learn_main(rest),
        "template" => return crate::learn::template_main(rest),
        "cluster" => return crate::cluster::cluster_main(rest),
        "explain" => return crate::explain::cli_main(rest),
        "site" => return crate::site::site_main(rest),
        // `pith help [COMMAND]`, as `pith [COMMAND] --help`.
        "help" => {
            let help = ["--help".to_string()];
            return match rest.first().map(String::as_str) {
                None => parse_main(&help).err().unwrap_or(ExitCode::SUCCESS),
                Some(cmd) if crate::cmdline::COMMANDS.iter().any(|(c, _)| *c == cmd) => {
                    let mut argv = vec![cmd.to_string()];
                    argv.extend(help);
                    dispatch_help(&argv)
                }
                Some(other) => {
                    let names: Vec<&str> =
                        crate::cmdline::COMMANDS.iter().map(|(c, _)| *c).collect();
                    crate::cmdline::usage_error(format!(
                        "help: unknown command `{other}` (one of: {})",
                        names.join(", ")
                    ))
                }
            };
        }
        _ => {}
    }
    let args = match parse_main(&argv) {
        Ok(args) => args,
        Err(code) => return code,
    };
    match config_from(args) {
        Ok(run) => match run.algo {
            AnyAlgo::Site(algo) => {
                let config = &run.pipeline;
                if config.json
                    || config.templates.is_some()
                    || config.options.output.format.is_document()
                    || run.output_dir.is_some()
                {
                    return crate::cmdline::usage_error(format!(
                        "--algo {} writes text or markdown from HTML files to standard output; it takes no --format json, html, xml, --templates or -o",
                        algo.name()
                    ));
                }
                crate::learn::run_site(&config.files, &config.options, &run.site, algo)
            }
            AnyAlgo::Page(_) => {
                if let Some(msg) = crate::stdin_url::check(&run.pipeline) {
                    return crate::cmdline::usage_error(msg);
                }
                crate::report::run(
                    &run.pipeline,
                    run.strict,
                    run.quiet,
                    run.output_dir.as_deref(),
                )
            }
        },
        Err(msg) => crate::cmdline::usage_error(msg),
    }
}

fn parse_main(argv: &[String]) -> Result<Args, ExitCode> {
    crate::cmdline::parse(&["pith"], argv)
}

/// `pith help COMMAND`: `argv` is `COMMAND --help`.
fn dispatch_help(argv: &[String]) -> ExitCode {
    let rest = &argv[1..];
    match argv[0].as_str() {
        "eval" => crate::eval::cli_main(rest),
        "learn" => crate::learn::learn_main(rest),
        "template" => crate::learn::template_main(rest),
        "cluster" => crate::cluster::cluster_main(rest),
        "explain" => crate::explain::cli_main(rest),
        _ => crate::site::site_main(rest),
    }
}

/// What the command line decided.
pub struct Run {
    /// The filter's configuration (its `options.extract.algo` is auto for site algorithms).
    pub pipeline: pipeline::Config,
    /// `--algo` as given: one page at a time, or the pages of one site together.
    pub algo: AnyAlgo,
    /// Parameters of `--algo tmpl-dom` and `--algo tmpl-text` (the defaults: `pith site`
    /// takes others).
    pub site: SiteParams,
    /// `--strict`: exit non-zero when any record failed or any input could not be opened.
    pub strict: bool,
    /// `--quiet`: no messages, progress or summary on stderr.
    pub quiet: bool,
    /// `-o DIR`: a file per input in DIR.
    pub output_dir: Option<std::path::PathBuf>,
}

/// The inputs with every directory replaced by the regular files in it, sorted by name (with
/// `recursive`, those of its subdirectories too, depth first in name order; hidden entries and
/// links to directories are passed over, so a link cannot make a loop). A directory that
/// cannot be read is the message naming it. Without `recursive`, a directory given that has
/// subdirectories gets one note in `notes` saying they were not read.
fn expand_dirs(
    files: Vec<String>,
    recursive: bool,
    notes: &mut Vec<String>,
) -> Result<Vec<String>, String> {
    let mut out = Vec::with_capacity(files.len());
    for f in files {
        let mut passed_over = 0usize;
        let path = std::path::Path::new(&f);
        if f == "-" || !path.is_dir() {
            out.push(f);
            continue;
        }
        // Depth first with an explicit stack: no recursion however deep the tree.
        let mut stack = vec![path.to_path_buf()];
        while let Some(dir) = stack.pop() {
            let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            let mut names: Vec<std::fs::DirEntry> = entries.filter_map(Result::ok).collect();
            names.sort_by_key(|e| e.file_name());
            let mut subdirs = Vec::new();
            for e in names {
                if e.file_name().to_string_lossy().starts_with('.') {
                    continue;
                }
                let Ok(kind) = e.file_type() else { continue };
                let p = e.path();
                if kind.is_dir() {
                    if recursive {
                        subdirs.push(p);
                    } else {
                        passed_over += 1;
                    }
                } else if p.is_file() {
                    out.push(p.to_string_lossy().into_owned());
                }
            }
            // Files of this directory first, then its subdirectories in name order.
            stack.extend(subdirs.into_iter().rev());
        }
        match passed_over {
            0 => {}
            1 => notes.push(format!(
                "{f}: its subdirectory is not read without -r (--recursive)"
            )),
            n => notes.push(format!(
                "{f}: its {n} subdirectories are not read without -r (--recursive)"
            )),
        }
    }
    Ok(out)
}

/// The flags of model and rules that every command running them takes: `--precision`,
/// `--recall`, `--comments` and `--keep-repeats`. argh cannot flatten one struct's flags into
/// another's, so each command's argument struct declares these fields itself (with help that
/// names the command) and hands their values here, where they are read one way.
pub struct ModelFlags {
    pub precision: bool,
    pub recall: bool,
    pub comments: bool,
    pub keep_repeats: bool,
}

impl ModelFlags {
    /// `opts` with the flags' mode, comments and repeats, or the message every command gives
    /// when --precision and --recall are both set.
    pub fn apply(&self, opts: pith::Options) -> Result<pith::Options, String> {
        let mode = Mode::leaning(self.precision, self.recall)
            .ok_or_else(|| "--precision and --recall exclude each other".to_string())?;
        Ok(opts
            .with_mode(mode)
            .with_comments(self.comments)
            .with_keep_repeats(self.keep_repeats))
    }
}

/// `--jobs` (`-j`): the number of worker threads, all cores when not given; the message every
/// command gives for 0.
pub fn jobs_arg(jobs: Option<usize>) -> Result<usize, String> {
    match jobs {
        Some(0) => Err("--jobs (-j) must be at least 1".into()),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// `--charset`'s value, checked, or the message naming the flag.
pub fn charset_arg(label: Option<&str>) -> Result<Option<Charset>, String> {
    match label {
        None => Ok(None),
        Some(l) => l.parse().map(Some).map_err(|_| {
            format!("unknown --charset `{l}` (a WHATWG label: utf-8, windows-1252, gbk, ...)")
        }),
    }
}

fn config_from(args: Args) -> Result<Run, String> {
    let format: OutputFormat = crate::cmdline::named("format", &args.format)?;
    let input: Framing = crate::cmdline::named("input", &args.input)?;
    let charset = charset_arg(args.charset.as_deref())?;
    let page_algo = match args.algo {
        AnyAlgo::Page(a) => a,
        AnyAlgo::Site(_) => pith::Algo::default(),
    };
    let flags = ModelFlags {
        precision: args.precision,
        recall: args.recall,
        comments: args.comments,
        keep_repeats: args.keep_repeats,
    };
    let options = flags
        .apply(pith::Options::new(page_algo))?
        .with_gap(args.gap)
        .with_charset(charset)
        .with_format(format.body)
        .with_links(args.links)
        .with_images(args.images)
        .with_metadata(format.json);
    let jobs = jobs_arg(args.jobs)?;
    let max_memory = match args.max_memory.as_deref() {
        Some(v) => memory_arg(v)?,
        None => default_max_memory(),
    };
    let templates = match &args.templates {
        Some(dir) => Some(std::sync::Arc::new(pith::site::Store::open(dir).map_err(
            |e| format!("--templates {e} (create it with `pith learn -o DIR ...`)"),
        )?)),
        None => None,
    };
    let site = SiteParams::default();
    let files = if args.files.is_empty() {
        vec!["-".to_string()]
    } else {
        let mut files = args.files;
        crate::cmdline::dash_for_stdin(&mut files);
        let mut notes = Vec::new();
        let files = expand_dirs(files, args.recursive, &mut notes)?;
        if !args.quiet {
            for n in notes {
                eprintln!("pith: {n}");
            }
        }
        files
    };
    let mut pipeline = pipeline::Config::new(files, options);
    pipeline.json = format.json;
    pipeline.input = input;
    pipeline.jobs = jobs;
    pipeline.max_record_bytes = args.max_record_bytes;
    pipeline.max_memory = max_memory;
    pipeline.min_words = args.min_words;
    pipeline.target_language = target_languages(&args.target_language)?;
    pipeline.dedup = args.dedup;
    pipeline.json_streams = args.output_dir.is_some();
    pipeline.url = args.url;
    pipeline.templates = templates;
    Ok(Run {
        pipeline,
        algo: args.algo,
        site,
        strict: args.strict,
        quiet: args.quiet,
        output_dir: args.output_dir,
    })
}

/// `--target-language`'s values, each a list separated by commas, as the primary subtags
/// they name (`en-GB` -> `en`, `German` -> `de`), without repeats; a value that names no
/// language is the message saying so.
fn target_languages(values: &[String]) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    for v in values.iter().flat_map(|v| v.split(',')) {
        let v = v.trim();
        if v.is_empty() {
            continue;
        }
        let tag = pith::lang_tag(v).ok_or_else(|| {
            format!("--target-language `{v}` names no language (a code such as en, de, pt-br)")
        })?;
        let primary = pipeline::primary_subtag(&tag).to_string();
        if !out.contains(&primary) {
            out.push(primary);
        }
    }
    if out.is_empty() && !values.is_empty() {
        return Err("--target-language needs a language (en, de, ...)".into());
    }
    Ok(out)
}

/// `--max-memory`'s value: bytes, or a number with a suffix K, M, G or T (powers of 1024,
/// with or without a trailing `B` or `iB`); at least 1.
fn memory_arg(value: &str) -> Result<u64, String> {
    let bad = || {
        format!(
            "--max-memory `{value}` is not a size (bytes, or a number with K, M, G or T: 512M, 2G)"
        )
    };
    let v = value.trim();
    let digits = v.bytes().take_while(u8::is_ascii_digit).count();
    let (number, unit) = v.split_at(digits);
    let number: u64 = number.parse().map_err(|_| bad())?;
    let unit = unit.trim().to_ascii_uppercase();
    let unit = unit
        .strip_suffix("IB")
        .or_else(|| unit.strip_suffix('B'))
        .unwrap_or(&unit);
    let shift = match unit {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(bad()),
    };
    let bytes = number.checked_mul(1 << shift).ok_or_else(bad)?;
    if bytes == 0 {
        return Err("--max-memory must be at least 1 byte".into());
    }
    Ok(bytes)
}

/// Half the memory the machine has, or the cgroup (a container's limit) when it has less;
/// no ceiling when neither can be read.
fn default_max_memory() -> u64 {
    #[cfg(unix)]
    let physical = {
        // SAFETY: sysconf only reads system values.
        let (pages, size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        u64::try_from(pages)
            .ok()
            .zip(u64::try_from(size).ok())
            .map(|(p, s)| p.saturating_mul(s))
            .filter(|&b| b > 0)
    };
    #[cfg(not(unix))]
    let physical: Option<u64> = None;
    // cgroup v2, then v1 (whose "no limit" is a huge number, larger than the machine).
    let cgroup = [
        "/sys/fs/cgroup/memory.max",
        "/sys/fs/cgroup/memory/memory.limit_in_bytes",
    ]
    .iter()
    .find_map(|p| std::fs::read_to_string(p).ok()?.trim().parse::<u64>().ok());
    match (physical, cgroup) {
        (Some(p), Some(c)) => p.min(c) / 2,
        (Some(m), None) | (None, Some(m)) => m / 2,
        (None, None) => u64::MAX,
    }
}

#[cfg(test)]
mod tests {
    use super::memory_arg;

    #[test]
    fn memory_sizes_read_with_their_suffixes() {
        assert_eq!(memory_arg("1000"), Ok(1000));
        assert_eq!(memory_arg("512M"), Ok(512 << 20));
        assert_eq!(memory_arg("2g"), Ok(2 << 30));
        assert_eq!(memory_arg("3KiB"), Ok(3 << 10));
        assert_eq!(memory_arg("1TB"), Ok(1 << 40));
        for bad in ["", "M", "12X", "-1", "1.5G", "0", "99999999999T"] {
            assert!(memory_arg(bad).is_err(), "{bad}");
        }
    }
}
