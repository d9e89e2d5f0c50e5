//! The run loop: one reader, N workers, one writer; records come out in input order.
//!
//! The reader (the calling thread) opens each input in turn and hands out its records in
//! batches (64 records or 4 MB, whichever comes first; a partial batch is sent by the writer
//! once it has waited 5 ms, so a slow stream shows each document at once). The reader does as
//! little as it can: a plain WARC or JSON lines file goes out as byte ranges of whole records
//! that the workers read themselves (`crate::input::ranges`), a gzip-per-record WARC as
//! compressed members, JSON lines from a stream unparsed; workers read, extract and render; the
//! writer puts batches back in order and numbers the records of JSON lines ranges. At most two
//! batches per worker, plus two, are in flight (a token per batch, taken by the reader and
//! given back by the writer), so the channels and the reorder buffer stay small however long
//! the input is, even when one huge page holds up the batches behind it. One HTML page, and
//! every input at `-j 1`, is read and extracted on the calling thread with no other thread.
//! When standard output closes (`pith ... | head`), the run ends at once: reading stops, the
//! workers drop the records they still hold, and [`Summary::stopped`] says so; any other
//! write error ends it the same way, with the error in [`Summary::stopped`].
//!
//! Memory has a ceiling ([`Config::max_memory`]): the reader reserves an estimate of what
//! each record will cost ([`MEMORY_FACTOR`] times its bytes) before handing it on, and waits
//! while the records in flight hold the whole budget; a worker gives the reservation back
//! once the record is extracted. A page whose estimate alone is over the budget is reported
//! and skipped ([`OverBudget`]).
//!
//! Faults never stop the run: each gives one [`Event::Message`] (input, record number, offset,
//! id) and, with JSON output, an object with `error`. Nothing is printed here: documents go to
//! the writer the caller gives, everything else to its event handler, and [`run`] returns the
//! [`Summary`] the caller turns into a summary line and an exit status. `json` frames records
//! as JSON lines.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TryRecvError, sync_channel};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

pub(crate) mod dedup;
pub(crate) mod documents;
pub(crate) mod json;

pub use documents::{Origin, document};

use crate::input::ranges::Range;
use crate::input::split::Member;
use crate::input::{Fault, Framing, Input, Item, Pool, Record, SkipReason};
use crate::names::UnknownName;
use crate::output::Format;
use crate::page::Options;
use crate::page::metadata::{DateSource, LangSource};
use crate::site::Store;

/// What a run writes per record: the body alone, or one JSON object per line around it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OutputFormat {
    /// One JSON object per record per line instead of the bare body.
    pub json: bool,
    /// The body's format.
    pub body: Format,
}

impl std::str::FromStr for OutputFormat {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (json, body) = match s {
            "json" | "jsonl" => (true, Format::Text),
            "json-markdown" => (true, Format::Markdown),
            other => match other.parse::<Format>() {
                Ok(body) => (false, body),
                Err(_) => {
                    let all = ["text", "markdown", "html", "xml", "json", "json-markdown"];
                    return Err(UnknownName::new("format", s, &all));
                }
            },
        };
        Ok(OutputFormat { json, body })
    }
}

/// Everything a run needs to know.
#[derive(Clone, Debug)]
pub struct Config {
    /// How each page is extracted and rendered.
    pub options: Options,
    /// One JSON object per record per line instead of text.
    pub json: bool,
    /// How input bytes are framed into records.
    pub input: Framing,
    /// Worker threads (1: everything on the calling thread).
    pub jobs: usize,
    /// Records larger than this are faults, not pages.
    pub max_record_bytes: usize,
    /// The memory budget of the run's records in flight, in bytes ([`MEMORY_FACTOR`] times
    /// each record's size counts against it); `u64::MAX` for none.
    pub max_memory: u64,
    /// A page whose main text has fewer words (white-space separated) than this is skipped,
    /// counted under [`SkipReason::MinWords`]; 0 keeps every page.
    pub min_words: usize,
    /// Keep only pages in these languages: primary subtags, lower case (`en`, `de`), compared
    /// with the primary subtag of the page's `lang` as JSON output gives it (declared, else
    /// detected: `record_lang`). A page of another language is skipped under
    /// [`SkipReason::TargetLanguage`], one whose language is unknown under
    /// [`SkipReason::NoLanguage`]. Empty keeps
    /// every page.
    pub target_language: Vec<String>,
    /// Drop a page whose main text repeats an earlier page of the run, exactly or nearly
    /// (`dedup`: the threshold, the memory), counted under [`SkipReason::Duplicate`]; decided in
    /// input order, so the same pages are kept at every `-j`.
    pub dedup: bool,
    /// The records of WARC and JSON lines inputs are JSON lines whatever the format (`-o
    /// DIR`: a stream's file is one JSON object per record, its body in `text`, `markdown`,
    /// `html` or `xml` as the format says); a page given as a file keeps the format.
    pub json_streams: bool,
    /// Input paths; `-` is standard input.
    pub files: Vec<String>,
    /// The URL of a page given as a plain HTML file or on stdin (for JSON output).
    pub url: Option<String>,
    /// Site templates by host; pages of a learned host go through FastCE.
    pub templates: Option<Arc<Store>>,
    /// For measuring the pipeline alone: workers drop each record unread (no inflating, no
    /// parsing, no extraction) and give an empty document, so a run times the reader, the
    /// hand-offs and the writer.
    pub(crate) skip_extraction: bool,
}

impl Config {
    /// A run over `files` (`-` is standard input) with `options`: text out, framing found from
    /// the bytes, one worker, the default record limit, no memory budget, no filter; set the
    /// other fields as needed.
    pub fn new(files: Vec<String>, options: Options) -> Config {
        Config {
            options,
            json: false,
            input: Framing::Auto,
            jobs: 1,
            max_record_bytes: crate::input::DEFAULT_MAX_RECORD,
            max_memory: u64::MAX,
            min_words: 0,
            target_language: Vec::new(),
            dedup: false,
            json_streams: false,
            files,
            url: None,
            templates: None,
            skip_extraction: false,
        }
    }
}

/// What a run reports besides its documents, in the order it happens.
#[derive(Debug)]
pub enum Event<'a> {
    /// One line about a record or an input: a fault, a page with no main text, a template
    /// that could not be used. Written in order with the documents.
    Message(&'a str),
    /// An input is opened and about to be read; `bytes` counts the bytes read from it.
    Opened {
        /// The input's name (`-` is standard input).
        name: &'a str,
        /// Raw bytes read so far (updated as reading goes).
        bytes: Arc<std::sync::atomic::AtomicU64>,
    },
    /// A record is done (written, skipped or failed, in input order, at every `-j` and for
    /// every kind of input); `records` is the count over the run so far.
    Read {
        /// Records done so far.
        records: u64,
    },
    /// The current input is done.
    Closed,
}

/// Counts of a finished run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Records read (pages, faults; skipped records only in streams).
    pub read: u64,
    /// Records that gave a document.
    pub extracted: u64,
    /// Records that could not be read or extracted.
    pub failed: u64,
    /// Records that are not pages, by reason.
    pub skipped: BTreeMap<SkipReason, u64>,
    /// Inputs that opened.
    pub opened: usize,
    /// Some input was a WARC or JSON lines stream.
    pub streams: bool,
    /// Inputs that could not be opened (missing, unreadable).
    pub unopened: usize,
    /// Why output stopped before the end of the input, if it did: the counts then cover what
    /// was done until then.
    pub stopped: Option<Stop>,
}

/// Why a run stopped writing before the end of its input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The output's reader went away (a broken pipe: `pith ... | head`): a normal end.
    Closed,
    /// Writing failed (a full disk, an I/O error).
    Failed {
        /// The kind of error.
        kind: std::io::ErrorKind,
        /// The system's message.
        message: String,
    },
}

impl From<std::io::Error> for Stop {
    fn from(e: std::io::Error) -> Stop {
        match e.kind() {
            std::io::ErrorKind::BrokenPipe => Stop::Closed,
            kind => Stop::Failed {
                kind,
                message: e.to_string(),
            },
        }
    }
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Closed => f.write_str("output closed"),
            Stop::Failed { message, .. } => write!(f, "cannot write the output: {message}"),
        }
    }
}

/// What the memory budget counts per byte of a record: the record itself, its tree and
/// statistics, and its output, which a page at the element budget keeps under 4x its size
/// (`crate::page::element_budget`).
pub const MEMORY_FACTOR: u64 = 4;

/// A page whose estimated memory ([`MEMORY_FACTOR`] times its bytes) alone is over the run's
/// memory budget ([`Config::max_memory`]): reported and skipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverBudget {
    /// The page's bytes.
    pub bytes: u64,
    /// The budget.
    pub budget: u64,
}

impl std::fmt::Display for OverBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "page of {} bytes would take about {} bytes of memory, over the memory budget of {} bytes",
            self.bytes,
            self.bytes.saturating_mul(MEMORY_FACTOR),
            self.budget
        )
    }
}

impl std::error::Error for OverBudget {}

/// The memory budget of a run's records in flight: bytes reserved, and a wait for them to
/// come back.
struct Budget {
    limit: u64,
    used: Mutex<u64>,
    freed: Condvar,
}

/// Bytes of a [`Budget`] held until dropped.
struct Reservation<'b> {
    budget: &'b Budget,
    bytes: u64,
}

impl Budget {
    fn new(limit: u64) -> Budget {
        Budget {
            limit,
            used: Mutex::new(0),
            freed: Condvar::new(),
        }
    }

    /// Reserves `bytes` (at most the whole budget), waiting while that would go over the
    /// budget and something else holds part of it (so a record larger than the budget waits
    /// until it is alone, and then goes on).
    fn reserve(&self, bytes: u64) -> Reservation<'_> {
        let bytes = bytes.min(self.limit);
        let Ok(mut used) = self.used.lock() else {
            return Reservation {
                budget: self,
                bytes: 0,
            };
        };
        while *used > 0 && used.saturating_add(bytes) > self.limit {
            used = match self.freed.wait(used) {
                Ok(u) => u,
                Err(_) => {
                    return Reservation {
                        budget: self,
                        bytes: 0,
                    };
                }
            };
        }
        *used += bytes;
        Reservation {
            budget: self,
            bytes,
        }
    }
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        if self.bytes == 0 {
            return;
        }
        if let Ok(mut used) = self.budget.used.lock() {
            *used = used.saturating_sub(self.bytes);
        }
        self.budget.freed.notify_all();
    }
}

impl Summary {
    /// Records skipped, all reasons together.
    pub fn skipped_total(&self) -> u64 {
        self.skipped.values().sum()
    }

    /// Whether the run gave nothing: no input opened, or no input gave a page (every record
    /// failed or was skipped).
    pub fn nothing(&self) -> bool {
        self.opened == 0 || self.extracted == 0
    }
}

/// What one numbered item became.
struct Done {
    /// Bytes for stdout (already framed: a JSON line, or the page text).
    out: String,
    /// A line for stderr.
    message: Option<String>,
    /// Text output of a page (gets a form-feed separator line before it when not the first).
    is_text_page: bool,
    outcome: Outcome,
    /// A page that failed: the error and the template note, to say it again under another
    /// record number ([`Renumber`]).
    failure: Option<(String, Option<String>)>,
    /// A record of a range whose numbers start at 1 ([`Local`]).
    local: Option<Local>,
    /// With `--dedup`, the keys of a page's text ([`dedup::keys`]), for the writer to decide.
    bands: Option<Box<dedup::Keys>>,
    /// The input it came from.
    at: At,
}

/// Which input a record came from, and whether that input is a stream (WARC, JSON lines).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct At {
    /// The input's index in [`Config::files`].
    pub input: usize,
    /// The input is a WARC or JSON lines stream (not one HTML page).
    pub stream: bool,
}

/// Where a run's documents go: one writer (standard output), or a file per input (`-o DIR`).
/// Documents come in input order; [`Output::start`] is called before the first document of
/// each input that writes one.
pub trait Output: Write + Send {
    /// The documents that follow are of input `at`; `Ok(true)` when they start a new file
    /// (whose first text document then needs no separator before it).
    fn start(&mut self, _at: At) -> std::io::Result<bool> {
        Ok(false)
    }
}

/// One writer for every input.
struct Single<'o>(&'o mut (dyn Write + Send));

impl Write for Single<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.0.write_all(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

impl Output for Single<'_> {}

/// Where a record of a JSON lines range is: its range's records are numbered from 1 by the
/// worker, and the writer, which sees the ranges in order, adds the records before the range.
struct Local {
    /// The range (numbered by the reader).
    range: u64,
    /// The range starts its input (its records are numbered from 1 already).
    first: bool,
    /// The record's number in the range.
    index: u64,
    /// What to say again under the right number when the record failed.
    renumber: Option<Renumber>,
}

/// A failed record, kept to be said again under its number in the input.
enum Renumber {
    Fault(Fault),
    Page(Box<Record>, usize),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Extracted,
    Failed,
    /// A record a worker found not to be a page (only known once its member was inflated).
    Skipped(SkipReason),
}

#[derive(Default)]
struct Counts {
    sum: Summary,
    /// Raw bytes read of the current input.
    bytes: Arc<std::sync::atomic::AtomicU64>,
    /// Page buffers, shared by the reader (which fills them) and the workers (which give them
    /// back).
    pool: Pool,
}

/// The handler of a run's [`Event`]s, shared by its reader and writer threads.
pub type Events<'e> = &'e (dyn Fn(Event<'_>) + Sync);

/// Runs the filter over `config.files`, writing documents to `out` in input order and every
/// other report to `events`; returns the counts. Only a closed `out` stops it early.
pub fn run(config: &Config, out: &mut (dyn Write + Send), events: Events<'_>) -> Summary {
    run_to(config, &mut Single(out), events)
}

/// [`run`], writing to an [`Output`]: with [`Output::start`] told which input the documents
/// that follow are of (a file per input: `-o DIR`).
pub fn run_to(config: &Config, out: &mut dyn Output, events: Events<'_>) -> Summary {
    // JSON, HTML and XML output carry the page's metadata; text output never pays for it.
    let with_metadata;
    // So does `--target-language`: the language is the metadata's, declared or detected.
    let wants = config.json
        || config.json_streams
        || config.options.output.format.is_document()
        || !config.target_language.is_empty();
    let config = if wants && !config.options.metadata {
        let mut c = config.clone();
        c.options.metadata = true;
        with_metadata = c;
        &with_metadata
    } else {
        config
    };
    // The first input is opened here, so that one HTML page runs on this thread with no pool.
    let mut counts = Counts::default();
    let first = config
        .files
        .first()
        .and_then(|name| open(name, config, &mut counts, events));
    let one_page = config.files.len() == 1 && matches!(first, Some((_, Framing::Html)));
    if config.jobs <= 1 || one_page {
        run_serial(config, first, &mut counts, out, events)
    } else {
        run_parallel(config, first, &mut counts, out, events)
    };
    counts.sum
}

/// Extracts one record and gives its buffer back to the reader's pool.
fn process(mut rec: Record, config: &Config, pool: &Pool) -> Done {
    let bytes_in = rec.page().len();
    let html = std::mem::take(&mut rec.html);
    extract_record(&rec, html, bytes_in, config, pool)
}

/// Extracts `rec`, whose page is `html[rec.html_start..]` (taken out of the record, so that
/// extraction can free it once it has a decoded copy: [`crate::extract::extract_buffer`]),
/// and gives the buffer back to the reader's pool as soon as the extraction is done, before
/// the output is formatted.
fn extract_record(
    rec: &Record,
    html: Vec<u8>,
    bytes_in: usize,
    config: &Config,
    pool: &Pool,
) -> Done {
    // A page the memory budget cannot hold even alone is not extracted.
    if (bytes_in as u64).saturating_mul(MEMORY_FACTOR) > config.max_memory {
        pool.put(html);
        let over = OverBudget {
            bytes: bytes_in as u64,
            budget: config.max_memory,
        };
        return failed_done(rec, bytes_in, over.to_string(), None, config);
    }
    let name = rec
        .place
        .id
        .clone()
        .unwrap_or_else(|| rec.place.source.to_string());
    let (template, load_error) = match (&config.templates, rec.place.url.as_deref()) {
        (Some(store), Some(url)) => store.for_url(url),
        _ => (None, None),
    };
    // A template file that could not be used is said once, before the first record it
    // concerned.
    let note = load_error.map(|(e, host)| format!("{e}; extracting {host} without it"));
    let with_note = |m: Option<String>| match (&note, m) {
        (Some(n), Some(m)) => Some(format!("{n}\n{m}")),
        (Some(n), None) => Some(n.clone()),
        (None, m) => m,
    };
    let opts = &config.options;
    let cx = crate::page::Context {
        charset: rec.charset.as_deref(),
        url: rec.place.url.as_deref(),
        family: template.as_deref(),
    };
    let (got, html) = crate::page::extract_buffer(html, rec.html_start, &cx, opts);
    if let Some(html) = html {
        pool.put(html);
    }
    match got {
        Ok(e) if config.min_words > 0 && !has_words(&e.text, config.min_words) => {
            skipped(SkipReason::MinWords)
        }
        Ok(e) => {
            if let Some(reason) = language_skip(rec, &e, config) {
                return skipped(reason);
            }
            // In a stream an empty page is a normal record (its JSON says so); for a page given
            // as a file it is worth a word.
            let message = (e.text.is_empty() && plain_page(rec))
                .then(|| format!("{name}: no main text found"));
            let bands = if config.dedup {
                dedup::keys(&e.text)
            } else {
                None
            };
            let format = config.options.output.format;
            let json = as_json(config, rec);
            let out = if json {
                json::page(rec, bytes_in, e, format)
            } else if format.is_document() {
                documents::record(format, &e, rec, plain_page(rec))
            } else {
                e.text
            };
            Done {
                out,
                message: with_note(message),
                is_text_page: !json,
                outcome: Outcome::Extracted,
                failure: None,
                local: None,
                bands,
                at: At::default(),
            }
        }
        Err(err) => failed_done(rec, bytes_in, err.to_string(), note, config),
    }
}

/// Whether `rec` is written as a JSON line: with `--format json`, or as a stream's record
/// under [`Config::json_streams`] (faults only come from streams).
fn as_json(config: &Config, rec: &Record) -> bool {
    config.json || (config.json_streams && !plain_page(rec))
}

/// A page whose extraction failed with `error` (after the template `note`, if any).
fn failed_done(
    rec: &Record,
    bytes_in: usize,
    error: String,
    note: Option<String>,
    config: &Config,
) -> Done {
    let where_ = if plain_page(rec) {
        rec.place.source.to_string()
    } else {
        location(rec)
    };
    let out = if as_json(config, rec) {
        json::failed(rec, bytes_in, config.options.extract.algo.name(), &error)
    } else {
        String::new()
    };
    let line = format!("{where_}: {error}");
    Done {
        out,
        message: Some(match &note {
            Some(n) => format!("{n}\n{line}"),
            None => line,
        }),
        is_text_page: false,
        outcome: Outcome::Failed,
        failure: Some((error, note)),
        local: None,
        bands: None,
        at: At::default(),
    }
}

/// Where a record is, as fault messages say it: input, number, id, offset (and gzip member).
fn location(rec: &Record) -> String {
    let mut s = format!("{}: record {}", rec.place.source, rec.place.index);
    if let Some(id) = &rec.place.id {
        s.push(' ');
        s.push_str(id);
    }
    s.push_str(&format!(" at byte {}", rec.place.offset));
    if let Some(m) = rec.place.member_offset {
        s.push_str(&format!(" (gzip member at byte {m})"));
    }
    s
}

/// A record that is a whole input read as one HTML page (not a WARC or JSON lines record).
fn plain_page(rec: &Record) -> bool {
    rec.place.index == 1
        && rec.place.offset == 0
        && rec.place.id.as_deref() == Some(&*rec.place.source)
}

/// Inflates and reads a record handed over still compressed, then extracts it.
fn finish_member(m: Member, config: &Config, pool: &Pool) -> Done {
    match m.finish(pool) {
        Item::Page(rec) => process(*rec, config, pool),
        Item::Fault(f) => fault_done(&f, config),
        Item::Skip(reason) => skipped(reason),
        // `finish` reads a record; it never hands one on again.
        Item::Member(_) | Item::Range(_) => skipped(SkipReason::OtherRecordType),
    }
}

/// What a record of a range numbered from 1 became, with what the writer needs to number it
/// in its input.
fn local_done(item: Item, range: u64, first: bool, config: &Config, pool: &Pool) -> Done {
    let (index, mut d, renumber) = match item {
        Item::Page(mut rec) => {
            let bytes_in = rec.page().len();
            let html = std::mem::take(&mut rec.html);
            let d = extract_record(&rec, html, bytes_in, config, pool);
            let index = rec.place.index;
            let again = d.failure.is_some().then_some(Renumber::Page(rec, bytes_in));
            (index, d, again)
        }
        Item::Fault(f) => (
            f.place.index,
            fault_done(&f, config),
            Some(Renumber::Fault(f)),
        ),
        // JSON lines give pages and faults only.
        Item::Member(_) | Item::Range(_) | Item::Skip(_) => {
            (0, skipped(SkipReason::OtherRecordType), None)
        }
    };
    d.local = Some(Local {
        range,
        first,
        index,
        renumber,
    });
    d
}

/// Whether `text` has at least `n` white-space separated words (counting stops at `n`).
fn has_words(text: &str, n: usize) -> bool {
    text.split_whitespace().nth(n.saturating_sub(1)).is_some()
}

/// The page's language as JSON output's `lang` gives it, and where it came from: the page's
/// declaration, else the record's `Content-Language` (normalized as the page's: `Japanese` ->
/// `ja`), else the language detected from the text. The one source of `lang` for JSON output
/// and `--target-language`.
pub(crate) fn record_lang(
    rec: &Record,
    e: &crate::page::Extracted,
) -> (Option<String>, Option<LangSource>) {
    transport_lang(rec.content_language.as_deref(), e)
}

/// [`record_lang`] from a transport `Content-Language` (`content_language`, as sent: it is
/// normalized here).
fn transport_lang(
    content_language: Option<&str>,
    e: &crate::page::Extracted,
) -> (Option<String>, Option<LangSource>) {
    use crate::page::metadata::lang_tag;
    // A transport Content-Language is a declaration, worth more than a detected language; one
    // that names no language is dropped.
    let content_language = content_language.and_then(lang_tag);
    match (content_language, e.lang_source) {
        (Some(cl), None | Some(LangSource::Detected)) => (Some(cl), Some(LangSource::Declared)),
        _ => (e.lang.clone(), e.lang_source),
    }
}

/// What a record's metadata is, from the page's own completed by what the record knows
/// (the one place JSON lines and HTML/XML documents complete it): the language
/// ([`record_lang`]), a date in the path of the record's URL when the page gives none, the
/// URL's host as the site name when the page names none.
pub(crate) struct Completed {
    /// `lang` and `lang_source`.
    pub(crate) lang: (Option<String>, Option<LangSource>),
    /// `date` and `date_source`.
    pub(crate) date: (Option<String>, Option<DateSource>),
    /// `sitename`.
    pub(crate) sitename: Option<String>,
}

/// [`Completed`] for a page `e` of a record with `url` and a transport `content_language`.
pub(crate) fn completed(
    url: Option<&str>,
    content_language: Option<&str>,
    e: &crate::page::Extracted,
) -> Completed {
    use crate::page::metadata::{host_name, url_date};
    let date = match &e.date {
        Some(d) => (Some(d.clone()), e.date_source),
        None => match url.and_then(url_date) {
            Some(d) => (Some(d), Some(DateSource::Url)),
            None => (None, None),
        },
    };
    Completed {
        lang: transport_lang(content_language, e),
        date,
        sitename: e.sitename.clone().or_else(|| url.and_then(host_name)),
    }
}

/// The primary subtag of a BCP 47 tag (`en-gb` -> `en`).
pub fn primary_subtag(tag: &str) -> &str {
    tag.split(['-', '_']).next().unwrap_or(tag)
}

/// Why `--target-language` ([`Config::target_language`]) skips the page, if it does: its
/// language ([`record_lang`]) has no primary subtag the list holds, or it has none.
fn language_skip(rec: &Record, e: &crate::page::Extracted, config: &Config) -> Option<SkipReason> {
    if config.target_language.is_empty() {
        return None;
    }
    match record_lang(rec, e).0 {
        Some(lang) => {
            let primary = primary_subtag(&lang);
            (!config.target_language.iter().any(|t| t == primary))
                .then_some(SkipReason::TargetLanguage)
        }
        None => Some(SkipReason::NoLanguage),
    }
}

/// A record that is not a page, for the count by reason.
fn skipped(reason: SkipReason) -> Done {
    Done {
        out: String::new(),
        message: None,
        is_text_page: false,
        outcome: Outcome::Skipped(reason),
        failure: None,
        local: None,
        bands: None,
        at: At::default(),
    }
}

fn fault_done(f: &Fault, config: &Config) -> Done {
    Done {
        out: if config.json || config.json_streams {
            json::fault(f)
        } else {
            String::new()
        },
        message: Some(f.to_string()),
        is_text_page: false,
        outcome: Outcome::Failed,
        failure: None,
        local: None,
        bands: None,
        at: At::default(),
    }
}

/// Writes results in order; the first write error stops it ([`Stop`]).
struct Writer<'o, 'e> {
    out: &'o mut dyn Output,
    events: Events<'e>,
    wrote_text_page: bool,
    stopped: Option<Stop>,
    /// With `--dedup`, the keys of the pages written so far.
    seen: Option<dedup::Seen>,
    /// The input whose documents are being written.
    input: Option<usize>,
    /// Records done ([`Event::Read`]).
    done: u64,
}

impl<'o, 'e> Writer<'o, 'e> {
    /// A writer to `out` that has written nothing yet, with `--dedup`'s keys when `config`
    /// asks for it.
    fn new(out: &'o mut dyn Output, events: Events<'e>, config: &Config) -> Self {
        Writer {
            out,
            events,
            wrote_text_page: false,
            stopped: None,
            seen: config.dedup.then(dedup::Seen::default),
            input: None,
            done: 0,
        }
    }
}

impl Writer<'_, '_> {
    /// Writes `d` and counts it; once output has stopped, nothing more is written or said.
    fn write(&mut self, d: &Done, counts: &mut Summary) {
        if self.stopped.is_some() {
            return;
        }
        if let Some(m) = &d.message {
            for line in m.split('\n') {
                (self.events)(Event::Message(line));
            }
        }
        // A repeat of an earlier page is dropped here, in input order (the same at every -j).
        let repeat = match (&mut self.seen, &d.bands, d.outcome) {
            (Some(seen), Some(keys), Outcome::Extracted) => seen.repeats(keys),
            _ => false,
        };
        let outcome = if repeat {
            Outcome::Skipped(SkipReason::Duplicate)
        } else {
            d.outcome
        };
        match outcome {
            Outcome::Extracted => counts.extracted += 1,
            Outcome::Failed => counts.failed += 1,
            Outcome::Skipped(reason) => *counts.skipped.entry(reason).or_insert(0) += 1,
        }
        self.done += 1;
        (self.events)(Event::Read { records: self.done });
        if d.out.is_empty() || repeat {
            return;
        }
        if self.input != Some(d.at.input) {
            self.input = Some(d.at.input);
            match self.out.start(d.at) {
                Ok(new_file) => self.wrote_text_page &= !new_file,
                Err(e) => {
                    self.check(Err(e));
                    return;
                }
            }
        }
        if d.is_text_page && self.wrote_text_page {
            let r = self.out.write_all(b"\x0c\n");
            self.check(r);
        }
        self.wrote_text_page |= d.is_text_page;
        let r = self.out.write_all(d.out.as_bytes());
        self.check(r);
    }

    /// Sends what is buffered on (unless output has stopped).
    fn flush(&mut self) {
        if self.stopped.is_none() {
            let r = self.out.flush();
            self.check(r);
        }
    }

    /// Keeps the first write error.
    fn check(&mut self, r: std::io::Result<()>) {
        if let Err(e) = r
            && self.stopped.is_none()
        {
            self.stopped = Some(Stop::from(e));
        }
    }
}

/// Opens one input, reporting a failure.
fn open(
    name: &str,
    config: &Config,
    counts: &mut Counts,
    events: Events<'_>,
) -> Option<(Input, Framing)> {
    counts.bytes = Arc::default();
    let counter = counts.bytes.clone();
    // With workers, a gzip WARC's records are inflated by them; alone, reading sequentially
    // inflates each byte once (the split reader inflates the start of each member twice).
    let opened = if config.jobs > 1 {
        Input::open_for_workers(name, config.input, config.max_record_bytes, counter)
    } else {
        Input::open_with(name, config.input, config.max_record_bytes, counter, false)
    };
    match opened {
        Ok((mut input, framing)) => {
            match &mut input {
                Input::Warc(r) => r.pool = counts.pool.clone(),
                Input::Split(r) => r.pool = counts.pool.clone(),
                Input::Ranges(r) => r.pool = counts.pool.clone(),
                _ => {}
            }
            counts.sum.opened += 1;
            counts.sum.streams |= matches!(framing, Framing::Warc | Framing::Jsonl);
            events(Event::Opened {
                name,
                bytes: counts.bytes.clone(),
            });
            Some((input, framing))
        }
        Err(e) => {
            counts.sum.unopened += 1;
            events(Event::Message(&format!("{name}: {e}")));
            None
        }
    }
}

/// Hands the items of every input to `sink` in order; `first` is the first input, already
/// opened (or not, when it failed to open). Stops when `sink` says false (output closed).
fn read_all(
    config: &Config,
    first: Option<(Input, Framing)>,
    counts: &mut Counts,
    events: Events<'_>,
    mut sink: impl FnMut(Item, &mut Counts, At) -> bool,
) {
    let mut first = Some(first);
    for (index, name) in config.files.iter().enumerate() {
        let opened = match first.take() {
            Some(f) => f,
            None => open(name, config, counts, events),
        };
        let Some((mut input, framing)) = opened else {
            continue;
        };
        let at = At {
            input: index,
            stream: matches!(framing, Framing::Warc | Framing::Jsonl),
        };
        while let Some(item) = input.next_item() {
            match &item {
                Item::Range(r) => counts.sum.read += r.records(),
                Item::Skip(_) if !counts.sum.streams => {}
                _ => counts.sum.read += 1,
            }
            let item = match item {
                Item::Skip(reason) => {
                    *counts.sum.skipped.entry(reason).or_insert(0) += 1;
                    continue;
                }
                other => with_url(other, config),
            };
            if !sink(item, counts, at) {
                events(Event::Closed);
                return;
            }
        }
        events(Event::Closed);
    }
}

/// A plain HTML page gets `--url` as its URL (for JSON output and its site template).
fn with_url(item: Item, config: &Config) -> Item {
    match item {
        Item::Page(mut rec) if plain_page(&rec) && config.url.is_some() => {
            rec.place.url.clone_from(&config.url);
            Item::Page(rec)
        }
        other => other,
    }
}

fn run_serial(
    config: &Config,
    first: Option<(Input, Framing)>,
    counts: &mut Counts,
    out: &mut dyn Output,
    events: Events<'_>,
) {
    let mut w = Writer::new(out, events, config);
    let pool = counts.pool.clone();
    read_all(config, first, counts, events, |item, counts, at| {
        let Some(mut done) = handle(item, config, &pool) else {
            return true;
        };
        done.at = at;
        w.write(&done, &mut counts.sum);
        // The next read may wait on a slow stream: what is done goes out first.
        w.flush();
        w.stopped.is_none()
    });
    w.flush();
    counts.sum.stopped = w.stopped;
}

/// What one item of an input becomes on this thread (`None` for a skipped record): the serial
/// run and [`JsonLines`] share it, so the library gives what the command line writes.
fn handle(item: Item, config: &Config, pool: &Pool) -> Option<Done> {
    Some(match item {
        Item::Page(rec) => process(*rec, config, pool),
        Item::Member(m) => finish_member(*m, config, pool),
        Item::Fault(f) => fault_done(&f, config),
        // Only inputs opened for workers give ranges, and those runs do not come here.
        Item::Range(_) | Item::Skip(_) => return None,
    })
}

/// The records of one opened input as `pith --format json` writes them (each line ends in
/// `\n`), read and extracted one at a time on the calling thread. This is the library's way to
/// get exactly the command line's JSON output, record by record (the Python module's
/// `read_warc` is built on it).
pub struct JsonLines {
    input: Input,
    config: Config,
    pool: Pool,
}

impl JsonLines {
    /// Reads `input` (from [`Input::open`] or [`Input::from_reader`]) with `options` (and
    /// [`Options::metadata`] on); the body is Markdown when `options.output.format` says so,
    /// as with `--format json-markdown`.
    pub fn new(mut input: Input, mut options: Options) -> JsonLines {
        // JSON lines carry the page's metadata, as `run` gives them with `--format json`.
        options.metadata = true;
        let pool = Pool::default();
        match &mut input {
            Input::Warc(r) => r.pool = pool.clone(),
            Input::Split(r) => r.pool = pool.clone(),
            _ => {}
        }
        // Only `options` and `json` matter past opening (and `templates` and `url`, set by the
        // methods below): the input is already open.
        let config = Config {
            options,
            json: true,
            input: Framing::Auto,
            jobs: 1,
            max_record_bytes: 0,
            max_memory: u64::MAX,
            min_words: 0,
            target_language: Vec::new(),
            dedup: false,
            json_streams: false,
            files: Vec::new(),
            url: None,
            templates: None,
            skip_extraction: false,
        };
        JsonLines {
            input,
            config,
            pool,
        }
    }

    /// With site templates, as `--templates STORE/` (pages of a learned host go through FastCE).
    pub fn templates(mut self, store: Option<Arc<Store>>) -> JsonLines {
        self.config.templates = store;
        self
    }

    /// With the URL of a plain HTML page, as `--url URL` (WARC and JSON lines records keep theirs).
    pub fn url(mut self, url: Option<String>) -> JsonLines {
        self.config.url = url;
        self
    }
}

impl Iterator for JsonLines {
    type Item = String;

    fn next(&mut self) -> Option<String> {
        loop {
            let item = with_url(self.input.next_item()?, &self.config);
            if let Some(done) = handle(item, &self.config, &self.pool)
                && !done.out.is_empty()
            {
                return Some(done.out);
            }
        }
    }
}

/// One record on its way to a worker.
enum Job {
    Page(Box<Record>),
    Member(Box<Member>),
    Range(Box<Range>),
    Fault(Fault),
}

impl Job {
    /// Bytes the job holds (what a batch's byte bound counts).
    fn bytes(&self) -> usize {
        match self {
            Job::Page(rec) => rec.html.len(),
            Job::Member(m) => m.raw_len(),
            Job::Range(r) => usize::try_from(r.len()).unwrap_or(usize::MAX),
            Job::Fault(_) => 0,
        }
    }
}

/// Records a batch holds at most...
const BATCH_RECORDS: usize = 64;
/// ...and bytes at most (pages, or compressed members), whichever comes first: a hand-off per
/// batch instead of per record keeps the reader's and the writer's share per record small,
/// and the bytes bound keeps a batch of large pages from holding much memory.
const BATCH_BYTES: usize = 4 << 20;
/// A partial batch waits at most about this long for more records before it goes out, so
/// that a slow stream (`tail -f crawl.jsonl | pith`) shows each document at once.
const BATCH_WAIT: Duration = Duration::from_millis(5);
/// Batches in flight per worker (being read, queued, extracted or waiting to be written).
const BATCHES_PER_WORKER: usize = 2;

/// A job and the memory reserved for it, given back once it is done.
struct Held<'b> {
    job: Job,
    _memory: Reservation<'b>,
    at: At,
}

/// A numbered batch of records.
type Batch<'b> = (u64, Vec<Held<'b>>);

/// The batch being filled, shared by the reader (which fills it and sends it when full) and
/// the writer (which sends it when it has waited [`BATCH_WAIT`]).
struct Filling<'b> {
    jobs: Vec<Held<'b>>,
    bytes: usize,
    /// When its first record came.
    since: Instant,
    /// The number the next batch sent gets.
    seq: u64,
    /// To the workers; `None` once the reader is done (so the workers see the end).
    tx: Option<SyncSender<Batch<'b>>>,
}

impl Filling<'_> {
    /// Sends the batch as it is (nothing when empty). Never blocks: the channel holds as
    /// many batches as there are tokens, and every batch holds one.
    fn send(&mut self) -> bool {
        if self.jobs.is_empty() {
            return true;
        }
        let jobs = std::mem::take(&mut self.jobs);
        self.bytes = 0;
        let seq = self.seq;
        self.seq += 1;
        self.tx
            .as_ref()
            .is_some_and(|tx| tx.send((seq, jobs)).is_ok())
    }
}

fn run_parallel(
    config: &Config,
    first: Option<(Input, Framing)>,
    counts: &mut Counts,
    out: &mut dyn Output,
    events: Events<'_>,
) {
    let bound = config.jobs.saturating_mul(BATCHES_PER_WORKER) + 2;
    let budget = Budget::new(config.max_memory);
    let budget = &budget;
    let (job_tx, job_rx) = sync_channel::<Batch<'_>>(bound);
    let (done_tx, done_rx) = sync_channel::<Results>(bound);
    // One token per batch between the reader and the writer, taken when a batch gets its
    // first record and given back when it is written: at most `bound` batches exist, so a
    // slow record holds back at most that many finished ones behind it.
    let (token_tx, token_rx) = sync_channel::<()>(bound);
    let filling = Mutex::new(Filling {
        jobs: Vec::new(),
        bytes: 0,
        since: Instant::now(),
        seq: 0,
        tx: Some(job_tx),
    });
    let broken = AtomicBool::new(false);
    let job_rx = Arc::new(Mutex::new(job_rx));
    std::thread::scope(|s| {
        let broken = &broken;
        for _ in 0..config.jobs {
            let rx = Arc::clone(&job_rx);
            let tx = done_tx.clone();
            let pool = counts.pool.clone();
            s.spawn(move || worker(&rx, &tx, config, &pool, broken));
        }
        drop(done_tx);
        let filling = &filling;
        let writer = s
            .spawn(move || write_in_order(config, done_rx, token_rx, filling, broken, out, events));
        read_all(config, first, counts, events, |item, _, at| {
            let job = match item {
                Item::Page(rec) => Job::Page(rec),
                Item::Member(m) => Job::Member(m),
                Item::Range(r) => Job::Range(r),
                Item::Fault(f) => Job::Fault(f),
                Item::Skip(_) => return true,
            };
            // The record's share of the memory budget, waited for before the batch is locked
            // (the writer sends the batch being filled meanwhile, so what holds the budget
            // gets done).
            let memory = budget.reserve((job.bytes() as u64).saturating_mul(MEMORY_FACTOR));
            if broken.load(Ordering::Relaxed) {
                return false;
            }
            let job = Held {
                job,
                _memory: memory,
                at,
            };
            let Ok(mut f) = filling.lock() else {
                return false;
            };
            if f.jobs.is_empty() {
                // A new batch takes a token; waiting for one, the lock is not held (the
                // writer gives tokens back and may look at the empty batch meanwhile).
                drop(f);
                if token_tx.send(()).is_err() {
                    return false;
                }
                let Ok(again) = filling.lock() else {
                    return false;
                };
                f = again;
                f.since = Instant::now();
            }
            f.bytes += job.job.bytes();
            f.jobs.push(job);
            // Sends fail only when every worker is gone; then stop reading.
            let sent = if f.jobs.len() >= BATCH_RECORDS || f.bytes >= BATCH_BYTES {
                f.send()
            } else {
                true
            };
            sent && !broken.load(Ordering::Relaxed)
        });
        if let Ok(mut f) = filling.lock() {
            f.send();
            f.tx = None;
        }
        drop(token_tx);
        if let Ok(written) = writer.join() {
            counts.sum.read += written.read;
            counts.sum.extracted = written.extracted;
            counts.sum.failed = written.failed;
            counts.sum.stopped = written.stopped;
            for (reason, n) in written.skipped {
                *counts.sum.skipped.entry(reason).or_insert(0) += n;
            }
        }
    });
}

/// Extracts batches until there are none; once output has stopped (`stop`), drops the jobs
/// it still gets unread. A batch's results go to the writer in parts, one whenever
/// [`BATCH_WAIT`] has passed, so the first documents of a batch of slow pages (or of a range
/// of many records) are written before the batch is done.
fn worker(
    rx: &Mutex<Receiver<Batch<'_>>>,
    tx: &SyncSender<Results>,
    config: &Config,
    pool: &Pool,
    stop: &AtomicBool,
) {
    loop {
        let batch = match rx.lock() {
            Ok(guard) => guard.recv(),
            Err(_) => return,
        };
        let Ok((seq, jobs)) = batch else { return };
        let mut part = Part {
            seq,
            tx,
            done: Vec::with_capacity(jobs.len()),
            since: Instant::now(),
            gone: false,
            at: At::default(),
        };
        for Held { job, _memory, at } in jobs {
            part.at = at;
            if stop.load(Ordering::Relaxed) || part.gone {
                break;
            }
            if config.skip_extraction {
                part.push(Done {
                    out: String::new(),
                    message: None,
                    is_text_page: false,
                    outcome: Outcome::Extracted,
                    failure: None,
                    local: None,
                    bands: None,
                    at: At::default(),
                });
                continue;
            }
            match job {
                Job::Page(rec) => part.push(process(*rec, config, pool)),
                Job::Member(m) => part.push(finish_member(*m, config, pool)),
                // A range's records are read to its end (it is cheap); once output has
                // stopped they are no longer extracted.
                Job::Range(r) if r.numbered() => r.read(pool, |item| {
                    if !stop.load(Ordering::Relaxed) {
                        part.push(match item {
                            Item::Skip(reason) => skipped(reason),
                            other => handle(other, config, pool)
                                .unwrap_or_else(|| skipped(SkipReason::OtherRecordType)),
                        })
                    }
                }),
                Job::Range(r) => {
                    let (range, first) = (r.id(), r.first());
                    r.read(pool, |item| {
                        if !stop.load(Ordering::Relaxed) {
                            part.push(local_done(item, range, first, config, pool))
                        }
                    });
                }
                Job::Fault(f) => part.push(fault_done(&f, config)),
            }
        }
        if !part.finish() {
            return;
        }
    }
}

/// Results of part of a batch, in order, and whether they end it.
type Results = (u64, Vec<Done>, bool);

/// The results of the batch a worker is on, sent to the writer in parts.
struct Part<'t> {
    seq: u64,
    tx: &'t SyncSender<Results>,
    done: Vec<Done>,
    /// When the last part went out (or the batch began).
    since: Instant,
    /// The writer is gone.
    gone: bool,
    /// The input of the job being done.
    at: At,
}

impl Part<'_> {
    /// Adds a result; sends what the batch has so far when it has waited long enough.
    fn push(&mut self, mut d: Done) {
        d.at = self.at;
        self.done.push(d);
        if self.since.elapsed() >= BATCH_WAIT && !self.gone {
            let done = std::mem::take(&mut self.done);
            self.gone = self.tx.send((self.seq, done, false)).is_err();
            self.since = Instant::now();
        }
    }

    /// Sends the rest and the batch's end; false when the writer is gone.
    fn finish(self) -> bool {
        !self.gone && self.tx.send((self.seq, self.done, true)).is_ok()
    }
}

/// The numbers of records of ranges numbered from 1, in input order.
#[derive(Default)]
struct Numbering {
    /// The range being written, the records of its input before it, and the number of the
    /// last record written.
    range: u64,
    base: u64,
    last: u64,
}

impl Numbering {
    /// `d` under its number in its input: said again when that changes what it says.
    fn number(&mut self, d: Done, local: Local, config: &Config) -> Done {
        if local.first {
            self.range = local.range;
            self.base = 0;
        } else if local.range != self.range {
            self.range = local.range;
            self.base = self.last;
        }
        let index = self.base + local.index;
        self.last = index;
        if index == local.index {
            return d;
        }
        match local.renumber {
            Some(Renumber::Fault(mut f)) => {
                f.place.index = index;
                fault_done(&f, config)
            }
            Some(Renumber::Page(mut rec, bytes_in)) => match d.failure {
                Some((error, note)) => {
                    rec.place.index = index;
                    failed_done(&rec, bytes_in, error, note, config)
                }
                None => d,
            },
            None => d,
        }
    }
}

/// Writes batches in order as they complete, holding back the ones that overtook an earlier
/// batch; gives a token back for every batch written, and sends the reader's partial batch
/// on when it has waited long enough.
fn write_in_order(
    config: &Config,
    rx: Receiver<Results>,
    tokens: Receiver<()>,
    filling: &Mutex<Filling>,
    broken: &AtomicBool,
    out: &mut dyn Output,
    events: Events<'_>,
) -> Summary {
    let mut w = Writer::new(out, events, config);
    let mut counts = Summary::default();
    // Results of batches not yet written, and whether each batch's last part came.
    let mut pending: HashMap<u64, (Vec<Done>, bool)> = HashMap::new();
    let mut next = 0u64;
    let mut numbering = Numbering::default();
    let send_stale = || {
        if let Ok(mut f) = filling.lock()
            && !f.jobs.is_empty()
            && f.since.elapsed() >= BATCH_WAIT
        {
            f.send();
        }
    };
    loop {
        // Output waits in the buffer while results keep coming; when none is ready it goes
        // out, so a slow stream (`tail -f | pith`) shows each document as soon as it is done.
        let (seq, done, last) = match rx.try_recv() {
            Ok(got) => got,
            Err(TryRecvError::Empty) => {
                w.flush();
                if w.stopped.is_some() {
                    broken.store(true, Ordering::Relaxed);
                }
                loop {
                    match rx.recv_timeout(BATCH_WAIT) {
                        Ok(got) => break got,
                        Err(RecvTimeoutError::Timeout) => send_stale(),
                        Err(RecvTimeoutError::Disconnected) => {
                            w.flush();
                            counts.stopped = w.stopped;
                            return counts;
                        }
                    }
                }
            }
            Err(TryRecvError::Disconnected) => break,
        };
        send_stale();
        let entry = pending.entry(seq).or_default();
        entry.0.extend(done);
        entry.1 |= last;
        // The batch due is written as far as it came; a batch whose last part came gives its
        // token back and the next one is due.
        while let Some((batch, last)) = pending.get_mut(&next) {
            for mut d in batch.drain(..) {
                if let Some(local) = d.local.take() {
                    d = numbering.number(d, local, config);
                    counts.read += 1;
                }
                w.write(&d, &mut counts);
            }
            if !*last {
                break;
            }
            pending.remove(&next);
            let _ = tokens.try_recv();
            next += 1;
        }
        if w.stopped.is_some() {
            broken.store(true, Ordering::Relaxed);
        }
    }
    w.flush();
    counts.stopped = w.stopped;
    counts
}
