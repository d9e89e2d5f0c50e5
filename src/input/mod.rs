//! Input framing: files, stdin, WARC and JSON lines (plain, gzip, zstd, xz or bzip2) become
//! records.
//!
//! [`Input::open`] recognizes what a stream holds from its first bytes (a compression magic,
//! see `compress`, then the gzip magic, then a
//! `WARC/` version line, then `{` for JSON lines (after a UTF-8 BOM), then a WARC record or
//! JSON lines after a first line that is neither (`warc::record_after_junk`,
//! `jsonl::looks_like`), else one HTML page) unless the user said, and
//! [`Input::next_item`] yields [`Item`]s: a page to extract, a record skipped (and why), or a
//! fault with the record's number, offset and id. Nothing is read whole: WARC and JSON lines
//! stream record by record, and no record grows past `--max-record-bytes`. One case is read
//! at once: a gzip page of one member that was whole in the read buffer is inflated in one
//! call ([`Inflated`]; any other input, or a head that is not a page, goes through the
//! members).

pub(crate) mod compress;
#[doc(hidden)]
pub(crate) mod gzip;
pub(crate) mod http;
pub(crate) mod jsonl;
pub(crate) mod ranges;
pub(crate) mod split;
pub(crate) mod warc;

use std::io::{self, BufRead, BufReader, Read};
use std::sync::Arc;

/// Where a record sits in its input, and what names it: what a [`Record`] and a [`Fault`]
/// both say.
#[derive(Clone, Debug, Default)]
pub struct Place {
    /// The input it came from (file name, or `-` for standard input).
    pub source: Arc<str>,
    /// 1-based record number in its input.
    pub index: u64,
    /// Byte offset of the record (in the decompressed stream for compressed inputs).
    pub offset: u64,
    /// gzip input: file offset of the gzip member the record starts in (what CDX indexes give).
    pub member_offset: Option<u64>,
    /// `WARC-Record-ID`, the JSON line's `id`, or the file name of a plain HTML page (for a
    /// fault: when the record got that far).
    pub id: Option<String>,
    /// `WARC-Target-URI`, the JSON line's `url`, or `--url` (for a fault: when the record got
    /// that far).
    pub url: Option<String>,
}

/// One page to extract, with what travels with it.
#[derive(Debug, Default)]
pub struct Record {
    /// Where it sits in its input, its id and URL.
    pub place: Place,
    /// `WARC-Date`: when the page was captured (not when it was written).
    pub warc_date: Option<String>,
    /// The page bytes are `html[html_start..]` (see [`Record::page`]): a WARC record's HTTP
    /// head stays in front of the body rather than the body being moved.
    pub html: Vec<u8>,
    /// Where the page starts in [`Record::html`].
    pub html_start: usize,
    /// Charset from the transport (HTTP `Content-Type`).
    pub charset: Option<String>,
    /// HTTP `Content-Language`.
    pub content_language: Option<String>,
    /// JSON lines input: the other fields of the object, passed through.
    pub extra: Option<serde_json::Map<String, serde_json::Value>>,
}

impl Record {
    /// The page bytes.
    pub fn page(&self) -> &[u8] {
        self.html.get(self.html_start..).unwrap_or(&[])
    }
}

/// Page buffers handed back after extraction, so the reader refills memory that is already
/// mapped instead of faulting in fresh pages for every record (the kernel's page zeroing took
/// 11% of a `-j 2` run when every record got a new buffer and was freed on another thread).
#[derive(Clone, Default)]
pub struct Pool(Arc<std::sync::Mutex<Vec<Vec<u8>>>>);

impl Pool {
    /// Buffers kept at most (the pipeline has at most 4 records per worker in flight)...
    const KEEP: usize = 256;
    /// ...and only those of at most this capacity, so one huge page does not stay resident.
    const MAX_CAPACITY: usize = 8 << 20;

    /// An empty buffer, reused when one is there.
    pub fn get(&self) -> Vec<u8> {
        self.0
            .lock()
            .ok()
            .and_then(|mut v| v.pop())
            .unwrap_or_default()
    }

    /// Gives a buffer back.
    pub fn put(&self, mut buf: Vec<u8>) {
        if buf.capacity() == 0 || buf.capacity() > Self::MAX_CAPACITY {
            return;
        }
        buf.clear();
        if let Ok(mut v) = self.0.lock()
            && v.len() < Self::KEEP
        {
            v.push(buf);
        }
    }
}

/// A record that could not be read.
#[derive(Debug, Clone)]
pub struct Fault {
    /// Where it sits in its input.
    pub place: Place,
    /// What kind of damage it is.
    pub kind: FaultKind,
    /// What is wrong with it, in words.
    pub message: String,
}

/// The kinds of damage a record can have, by the layer that found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FaultKind {
    /// A WARC record's head: no version line, no `WARC-Type`, a bad `Content-Length`, no
    /// blank line after the head.
    Header,
    /// The records' framing: a record cut short, junk where a record should start, a
    /// segmented record, a JSON line that is not an object with an `html` string.
    Framing,
    /// A compressed stream (gzip, zstd, xz, bzip2) that does not decode.
    Decompression,
    /// A compressed record whose checksum fails: none of its bytes are passed on.
    Checksum,
    /// An HTTP body whose `Transfer-Encoding` or `Content-Encoding` (chunked, gzip, deflate,
    /// br) does not decode whole.
    BodyEncoding,
    /// A record over the record size limit or the memory budget.
    Limit,
    /// The input could not be read.
    Io,
}

impl FaultKind {
    /// The kind of an error met reading an input: the decoder's damage (a failed checksum,
    /// bytes that do not decompress), else I/O.
    pub(crate) fn of_read(e: &io::Error) -> FaultKind {
        compress::damage_kind(e).unwrap_or(match e.kind() {
            io::ErrorKind::InvalidData | io::ErrorKind::UnexpectedEof => FaultKind::Decompression,
            _ => FaultKind::Io,
        })
    }

    /// The kind's name, as JSON error lines give it (`"fault": "checksum"`).
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Header => "header",
            FaultKind::Framing => "framing",
            FaultKind::Decompression => "decompression",
            FaultKind::Checksum => "checksum",
            FaultKind::BodyEncoding => "body-encoding",
            FaultKind::Limit => "limit",
            FaultKind::Io => "io",
        }
    }
}

/// Why a record gives no document: counted under its name in a run's summary (`N skipped
/// (reason N, ...)`), and ordered by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SkipReason {
    /// A WARC `request` record.
    Request,
    /// A WARC `metadata` record.
    Metadata,
    /// A WARC `warcinfo` record.
    Warcinfo,
    /// A WARC `revisit` record (a duplicate of an earlier capture).
    Revisit,
    /// A WARC `conversion` record.
    Conversion,
    /// A WARC `continuation` record.
    Continuation,
    /// A record of another or no WARC type.
    OtherRecordType,
    /// A `resource` record that is not HTML.
    ResourceNotHtml,
    /// A `response` record whose block is not an HTTP response.
    ResponseWithoutHttp,
    /// An HTTP response that is not HTML or XHTML.
    NotHtml,
    /// An HTTP response whose status is not 2xx (error pages and redirects).
    HttpStatus,
    /// A page whose main text has fewer words than `--min-words`.
    MinWords,
    /// A page in a language `--target-language` does not list.
    TargetLanguage,
    /// A page of unknown language, under `--target-language`.
    NoLanguage,
    /// A page whose main text repeats an earlier one of the run (`--dedup`).
    Duplicate,
}

impl SkipReason {
    /// The reason as the summary names it.
    pub fn name(self) -> &'static str {
        match self {
            SkipReason::Request => "request",
            SkipReason::Metadata => "metadata",
            SkipReason::Warcinfo => "warcinfo",
            SkipReason::Revisit => "revisit",
            SkipReason::Conversion => "conversion",
            SkipReason::Continuation => "continuation",
            SkipReason::OtherRecordType => "other record type",
            SkipReason::ResourceNotHtml => "resource not HTML",
            SkipReason::ResponseWithoutHttp => "response without HTTP",
            SkipReason::NotHtml => "not HTML",
            SkipReason::HttpStatus => "HTTP status not 2xx",
            SkipReason::MinWords => "fewer words than --min-words",
            SkipReason::TargetLanguage => "not in --target-language",
            SkipReason::NoLanguage => "language unknown (--target-language)",
            SkipReason::Duplicate => "duplicate (--dedup)",
        }
    }
}

impl std::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// By name, as the summary lists them.
impl Ord for SkipReason {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.name().cmp(other.name())
    }
}

impl PartialOrd for SkipReason {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = &self.place;
        write!(f, "{}: record {}", p.source, p.index)?;
        if let Some(id) = &p.id {
            write!(f, " {id}")?;
        }
        write!(f, " at byte {}", p.offset)?;
        if let Some(m) = p.member_offset {
            write!(f, " (gzip member at byte {m})")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// What an input yields.
#[derive(Debug)]
pub enum Item {
    /// A page, read.
    Page(Box<Record>),
    /// A record still in its gzip member, or a JSON line not yet parsed, to be read by
    /// `split::Member::finish` (on a worker).
    Member(Box<split::Member>),
    /// Whole records of a plain WARC file, to be read by `ranges::Range::read` (on a
    /// worker); only [`Input::open_for_workers`] gives them.
    Range(Box<ranges::Range>),
    /// A record that is not an HTML page, with the reason.
    Skip(SkipReason),
    /// A record that could not be read, with its place.
    Fault(Fault),
}

/// How input bytes are framed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    /// Recognize compression (gzip, zstd, xz, bzip2), WARC and JSON lines by their first
    /// bytes; else one HTML page.
    Auto,
    /// The whole input is one HTML page.
    Html,
    /// WARC records (plain, gzip per record or whole-file gzip).
    Warc,
    /// One JSON object per line with an `html` field.
    Jsonl,
}

/// The default largest record (`--max-record-bytes`): far above any real page (the largest
/// of the gold sets is under 4 MB), small enough that a worker's page, tree and output stay
/// within a few hundred MB.
pub const DEFAULT_MAX_RECORD: usize = 64 << 20;

impl std::str::FromStr for Framing {
    type Err = crate::names::UnknownName;
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        match name {
            "auto" => Ok(Framing::Auto),
            "html" => Ok(Framing::Html),
            "warc" => Ok(Framing::Warc),
            "jsonl" | "json" => Ok(Framing::Jsonl),
            _ => Err(crate::names::UnknownName::new(
                "framing",
                name,
                &["auto", "html", "warc", "jsonl"],
            )),
        }
    }
}

/// Every page record of the inputs `names` (`-` is stdin) in order, handed to `each` with the
/// input's name: gzip members are inflated here, and an input that does not open or a record
/// that is broken is handed to `fault` (as `input: error` or the record's location and error)
/// and skipped. For the commands that read
/// a whole input set before acting on it (`pith learn`, `pith cluster`, `pith template
/// extract`), not for the streaming pipeline, which inflates on its workers.
pub fn for_each_page<S: AsRef<str>>(
    names: impl IntoIterator<Item = S>,
    framing: Framing,
    mut each: impl FnMut(&str, Box<Record>),
    mut fault: impl FnMut(String),
) {
    let pool = Pool::default();
    for name in names {
        let name = name.as_ref();
        let (mut input, _) = match Input::open(name, framing, DEFAULT_MAX_RECORD) {
            Ok(i) => i,
            Err(e) => {
                fault(format!("{name}: {e}"));
                continue;
            }
        };
        let mut one = |item: Item| match item {
            Item::Page(rec) => each(name, rec),
            Item::Member(m) => match m.finish(&pool) {
                Item::Page(rec) => each(name, rec),
                Item::Fault(f) => fault(f.to_string()),
                _ => {}
            },
            Item::Fault(f) => fault(f.to_string()),
            Item::Range(r) => r.read(&pool, |item| match item {
                Item::Page(rec) => each(name, rec),
                Item::Fault(f) => fault(f.to_string()),
                _ => {}
            }),
            Item::Skip(_) => {}
        };
        while let Some(item) = input.next_item() {
            one(item);
        }
    }
}

/// An opened input.
pub enum Input {
    /// One page, given out once.
    Html(Option<Box<Record>>),
    /// A WARC read record by record (plain, or gzip inflated on the reading thread).
    Warc(warc::Reader<Stream>),
    /// A WARC with one gzip member per record, whose records are inflated by the workers.
    Split(split::Splitter),
    /// JSON lines.
    Jsonl(jsonl::Reader<Stream>),
    /// A plain WARC or JSON lines file cut into ranges of records for the workers to read.
    Ranges(ranges::Ranges),
}

/// A raw input, read as it is or through gzip members.
pub enum Stream {
    /// The bytes as they come.
    Plain(BufReader<Box<dyn Read + Send>>),
    /// The concatenated contents of gzip members, each member checked (CRC32, size).
    Gzip(Box<gzip::Members<BufReader<Box<dyn Read + Send>>>>),
    /// A zstd, xz or bzip2 input, decompressed.
    Decoded(BufReader<Box<compress::Decoded>>),
    /// A gzip page inflated at once ([`Inflated`]).
    Inflated(Box<Inflated>),
}

/// A one-member gzip input that was whole in the read buffer, inflated in one call
/// (`gzip::inflate_whole`: no window copied, no buffer between the inflater and the page),
/// with the raw input kept unread: an input that is not a page after all is read through its
/// members as before (`Stream::into_members`).
pub struct Inflated {
    data: io::Cursor<Vec<u8>>,
    raw: BufReader<Box<dyn Read + Send>>,
}

impl Stream {
    /// A stream of gzip [`Inflated`] at once as the members' stream it stands for, from the
    /// raw input's start; any other stream as it is.
    fn into_members(self) -> Stream {
        match self {
            Stream::Inflated(i) => Stream::Gzip(Box::new(gzip::Members::new(i.raw))),
            s => s,
        }
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(r) => r.read(buf),
            Stream::Gzip(r) => r.read(buf),
            Stream::Decoded(r) => r.read(buf),
            Stream::Inflated(i) => i.data.read(buf),
        }
    }
}

impl BufRead for Stream {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match self {
            Stream::Plain(r) => r.fill_buf(),
            Stream::Gzip(r) => r.fill_buf(),
            Stream::Decoded(r) => r.fill_buf(),
            Stream::Inflated(i) => i.data.fill_buf(),
        }
    }
    fn consume(&mut self, n: usize) {
        match self {
            Stream::Plain(r) => r.consume(n),
            Stream::Gzip(r) => r.consume(n),
            Stream::Decoded(r) => r.consume(n),
            Stream::Inflated(i) => i.data.consume(n),
        }
    }
}

/// A byte stream that may be gzip members: what the WARC reader needs beyond [`BufRead`].
pub trait Source: BufRead {
    /// For gzip input, where the member of the bytes now buffered starts: (decompressed
    /// offset, file offset). `None` for uncompressed input.
    fn member(&self) -> Option<(u64, u64)> {
        None
    }
    /// Drops the rest of the current gzip member without inflating it; false (and nothing
    /// done) for uncompressed input. `resume_out` is the decompressed offset of what follows.
    fn skip_member(&mut self, resume_out: u64) -> bool {
        let _ = resume_out;
        false
    }
    /// gzip input: while on, reads end where the current member ends (its CRC32 and ISIZE
    /// checked), so that a record that starts its own member is read within it.
    fn stop_at_member_end(&mut self, on: bool) {
        let _ = on;
    }
    /// True when reads stopped at the end of a member (see [`Source::stop_at_member_end`]).
    fn at_member_end(&self) -> bool {
        false
    }
    /// Uncompressed input at a gzip member, or at a zstd, xz or bzip2 magic (decompressed
    /// offset `offset`, also the file offset): reads gzip members (or, for the others,
    /// [`compress::Decoded`] pieces) from here on; false when it cannot.
    fn gzip_from_here(&mut self, offset: u64) -> bool {
        let _ = offset;
        false
    }
    /// zstd input: when the record at decompressed bytes `start..end` is the whole of the
    /// frame being read, drops the rest of the frame without decompressing it and reads on at
    /// `end`; false (and nothing done) otherwise. See [`compress::Decoded::skip_frame`].
    fn skip_frame(&mut self, start: u64, end: u64) -> bool {
        let _ = (start, end);
        false
    }
}

impl Source for Stream {
    fn member(&self) -> Option<(u64, u64)> {
        match self {
            Stream::Plain(_) | Stream::Decoded(_) | Stream::Inflated(_) => None,
            Stream::Gzip(m) => m.member(),
        }
    }
    fn skip_frame(&mut self, start: u64, end: u64) -> bool {
        let Stream::Decoded(r) = self else {
            return false;
        };
        if !r.get_mut().skip_frame(start, end) {
            return false;
        }
        let buffered = r.buffer().len();
        r.consume(buffered);
        true
    }
    fn stop_at_member_end(&mut self, on: bool) {
        if let Stream::Gzip(m) = self {
            m.stop_at_member_end(on);
        }
    }
    fn at_member_end(&self) -> bool {
        matches!(self, Stream::Gzip(m) if m.at_member_end())
    }
    fn gzip_from_here(&mut self, offset: u64) -> bool {
        if !matches!(self, Stream::Plain(_)) {
            return false;
        }
        let empty: Box<dyn Read + Send> = Box::new(io::empty());
        let old = std::mem::replace(self, Stream::Plain(BufReader::with_capacity(0, empty)));
        if let Stream::Plain(mut r) = old {
            // zstd, xz or bzip2 after plain records (`cat a.warc b.warc.zst`).
            if r.fill_buf().is_ok_and(|h| compress::sniff(h).is_some()) {
                let d = compress::Decoded::new(Box::new(r) as _, offset, DEFAULT_MAX_RECORD);
                *self = Stream::Decoded(BufReader::with_capacity(DECODED_BUF, Box::new(d)));
                return true;
            }
            let mut m = gzip::Members::starting_at(r, offset, offset);
            m.expect_records(b"WARC/");
            *self = Stream::Gzip(Box::new(m));
        }
        true
    }
    fn skip_member(&mut self, resume_out: u64) -> bool {
        match self {
            Stream::Plain(_) | Stream::Decoded(_) | Stream::Inflated(_) => false,
            Stream::Gzip(m) => {
                m.skip_member(resume_out);
                true
            }
        }
    }
}

impl Source for &[u8] {}

/// Counts the raw bytes read from an input (for the progress line).
pub struct Counting<R> {
    inner: R,
    /// Bytes read so far.
    pub count: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count
            .fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
        Ok(n)
    }
}

/// Buffer for reading inputs: large enough that gzip and WARC parsing rarely wait on reads.
const BUF: usize = 1 << 20;

/// Buffer for the decompressed bytes of a zstd, xz or bzip2 input: the decoders hand out a
/// block at a time, so a larger one would rarely fill.
const DECODED_BUF: usize = 256 << 10;

/// Inflated bytes of a gzip input looked at first: enough for a BOM and the blanks before a
/// page's first `<` (`starts_as_markup`).
const PEEK_BYTES: u64 = 512;

/// Whether `head` starts as markup does: `<` after a UTF-8 BOM and ASCII blanks.
fn starts_as_markup(head: &[u8]) -> bool {
    let text = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    text.trim_ascii_start().first() == Some(&b'<')
}

/// Appends what `r` gives to `out`, at most `limit` bytes in all (`Read::take` and
/// `read_to_end` without zeroing each piece of the vector before it is written: the bytes
/// are copied from `r`'s buffer); the bytes appended.
fn read_up_to(r: &mut impl BufRead, limit: usize, out: &mut Vec<u8>) -> io::Result<usize> {
    let start = out.len();
    loop {
        let room = limit - (out.len() - start);
        if room == 0 {
            break;
        }
        let got = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if got.is_empty() {
            break;
        }
        let n = got.len().min(room);
        out.extend_from_slice(&got[..n]);
        r.consume(n);
    }
    Ok(out.len() - start)
}

impl Input {
    /// Opens `name` (`-` is stdin) and recognizes its framing.
    pub fn open(
        name: &str,
        framing: Framing,
        max_record_bytes: usize,
    ) -> io::Result<(Input, Framing)> {
        Self::open_counted(name, framing, max_record_bytes, Default::default())
    }

    /// [`Input::open`], adding the raw bytes read to `count` (for a progress line).
    pub fn open_counted(
        name: &str,
        framing: Framing,
        max_record_bytes: usize,
        count: std::sync::Arc<std::sync::atomic::AtomicU64>,
    ) -> io::Result<(Input, Framing)> {
        Self::open_with(name, framing, max_record_bytes, count, true)
    }

    /// [`Input::open_with`] with `split`, and a plain WARC or JSON lines file (not standard
    /// input) cut into
    /// [`Item::Range`]s of whole records that workers read from the file themselves
    /// (`ranges`): the reading thread reads only record headers.
    pub fn open_for_workers(
        name: &str,
        framing: Framing,
        max_record_bytes: usize,
        count: std::sync::Arc<std::sync::atomic::AtomicU64>,
    ) -> io::Result<(Input, Framing)> {
        if name != "-" && framing != Framing::Html {
            let file = std::fs::File::open(name)?;
            if file.metadata().is_ok_and(|m| m.is_file())
                && let Some(r) = ranges::Ranges::new(
                    file,
                    Arc::from(name),
                    framing,
                    max_record_bytes,
                    count.clone(),
                )
            {
                let framing = r.framing();
                return Ok((Input::Ranges(r), framing));
            }
        }
        Self::open_with(name, framing, max_record_bytes, count, true)
    }

    /// [`Input::open_counted`]; `split` says whether records may be handed out unread for
    /// workers to read ([`Item::Member`]): a gzip WARC member by member with the inflating
    /// left to them (`split`), JSON lines unparsed. Else every record is read here.
    pub fn open_with(
        name: &str,
        framing: Framing,
        max_record_bytes: usize,
        count: std::sync::Arc<std::sync::atomic::AtomicU64>,
        split: bool,
    ) -> io::Result<(Input, Framing)> {
        let (raw, size): (Box<dyn Read + Send>, Option<u64>) = if name == "-" {
            let stdin = Counting {
                inner: io::stdin(),
                count,
            };
            (Box::new(stdin), None)
        } else {
            let file = std::fs::File::open(name)?;
            let size = file.metadata().ok().map(|m| m.len());
            (Box::new(Counting { inner: file, count }), size)
        };
        Self::from_sized_reader(raw, size, name, framing, max_record_bytes, split)
    }

    /// Reads an input from any byte stream (a Python file object, say); `name` is what records
    /// and messages call it. Otherwise as [`Input::open_with`].
    pub fn from_reader(
        raw: Box<dyn Read + Send>,
        name: &str,
        framing: Framing,
        max_record_bytes: usize,
        split: bool,
    ) -> io::Result<(Input, Framing)> {
        Self::from_sized_reader(raw, None, name, framing, max_record_bytes, split)
    }

    /// [`Input::from_reader`] with the stream's size when known (a file's), which sizes the
    /// buffers: the read buffer is zeroed once when first filled (the reader is a plain
    /// `Read`), so a 1 MiB buffer for a 20 KB page costs more than reading it; and a page read
    /// into a vector of its own size is never grown by doubling and copying (which holds 1.5x
    /// the page for a moment).
    fn from_sized_reader(
        raw: Box<dyn Read + Send>,
        size: Option<u64>,
        name: &str,
        framing: Framing,
        max_record_bytes: usize,
        split: bool,
    ) -> io::Result<(Input, Framing)> {
        let capacity = size.map_or(BUF, |len| {
            usize::try_from(len.saturating_add(1))
                .unwrap_or(BUF)
                .clamp(8 << 10, BUF)
        });
        let mut raw = BufReader::with_capacity(capacity, raw);
        if split && matches!(framing, Framing::Auto | Framing::Warc) {
            let head = raw.fill_buf()?;
            let mut first = Vec::new();
            let _ = flate2::bufread::GzDecoder::new(head)
                .take(5)
                .read_to_end(&mut first);
            if head.starts_with(&[0x1f, 0x8b, 0x08]) && first == b"WARC/" {
                let source: Arc<str> = Arc::from(name);
                let s = split::Splitter::new(Box::new(raw), source, max_record_bytes);
                return Ok((Input::Split(s), Framing::Warc));
            }
        }
        // zstd, xz and bzip2 are decompressed here and read as what they hold; a stream that
        // fails at its first bytes is garbage behind a magic number, not an input.
        let requested = framing;
        let compressed = compress::sniff(raw.fill_buf()?);
        let (mut r, gzip, gz_warc, inflated_hint) = match compressed {
            Some(kind) => {
                // Pieces are held until checked up to the record limit (and a little more: a
                // record's own frame holds its header and record end too).
                let hold = max_record_bytes.saturating_add(64 << 10);
                let mut d = compress::Decoded::new(Box::new(raw) as _, 0, hold);
                // Damage before the first good bytes is reported by the reader; an input
                // without any is not an input.
                let nothing = d.first_bytes().map(|b| b.is_empty());
                match (nothing, d.first_error()) {
                    (Err(e), _) => return Err(e),
                    // A format this build has no decoder for says so itself.
                    (Ok(true), Some(e)) if !kind.built() => {
                        return Err(io::Error::new(io::ErrorKind::InvalidData, e));
                    }
                    (Ok(true), Some(e)) => {
                        return Err(io::Error::new(
                            io::ErrorKind::InvalidData,
                            format!("starts like {} but does not decompress: {e}", kind.name()),
                        ));
                    }
                    _ => {}
                }
                let gz_warc = d.first_bytes().is_ok_and(|b| b.starts_with(b"WARC/"));
                let damaged = d.first_error().is_some();
                (
                    Stream::Decoded(BufReader::with_capacity(DECODED_BUF, Box::new(d))),
                    false,
                    damaged && gz_warc,
                    None,
                )
            }
            None => Self::gzip_or_plain(raw, size, max_record_bytes)?,
        };
        let (mut framing, mut first_error) = detect(&mut r, framing, gzip, gz_warc)?;
        // A page inflated at once stays so only as a page (a head that says page says page
        // through the members too: the members' first piece is a prefix of it, and no check
        // but `jsonl::looks_like`, which finds no fewer lines in a longer head, can say other
        // than page of a head that starts as markup); anything else is read and recognized
        // through its members, as before.
        if framing != Framing::Html && matches!(r, Stream::Inflated(_)) {
            r = r.into_members();
            (framing, first_error) = detect(&mut r, requested, gzip, gz_warc)?;
        }
        let source: Arc<str> = Arc::from(name);
        let input = match framing {
            Framing::Warc => {
                if let Stream::Gzip(m) = &mut r {
                    // WARC 1.1 section 4: every record starts with its version line.
                    m.expect_records(b"WARC/");
                }
                let mut reader = warc::Reader::new(r, source, max_record_bytes);
                if let Some(e) = first_error {
                    reader.defer(e);
                }
                Input::Warc(reader)
            }
            Framing::Jsonl => {
                let mut reader = jsonl::Reader::new(r, source, max_record_bytes);
                // With workers, lines are parsed by them; the reader only finds line ends.
                reader.defer = split;
                Input::Jsonl(reader)
            }
            _ => {
                // The page's size, or what its gzip trailer says it inflates to: read into a
                // vector of that size, it is not grown by doubling and copying.
                let expected = inflated_hint
                    .or(size)
                    .map_or(0, |len| len.min(max_record_bytes as u64) as usize);
                let (html, n) = match r {
                    Stream::Inflated(i) if i.data.position() == 0 => {
                        let data = i.data.into_inner();
                        let n = data.len();
                        (data, n)
                    }
                    mut r => {
                        let mut html = Vec::with_capacity(expected.saturating_add(1));
                        let n = read_up_to(&mut r, max_record_bytes.saturating_add(1), &mut html)?;
                        (html, n)
                    }
                };
                if n > max_record_bytes {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("page over the record limit of {max_record_bytes} bytes"),
                    ));
                }
                let rec = Record {
                    place: Place {
                        source: source.clone(),
                        index: 1,
                        id: Some(name.to_string()),
                        ..Place::default()
                    },
                    html,
                    ..Record::default()
                };
                Input::Html(Some(Box::new(rec)))
            }
        };
        Ok((input, framing))
    }

    /// The stream of an input that is not zstd, xz or bzip2: gzip members or plain bytes;
    /// with whether it is gzip, whether its first member(s) inflate to a WARC, and the size
    /// the gzip trailer gives when the whole input is buffered (`gzip::inflated_size`).
    #[allow(clippy::type_complexity)]
    fn gzip_or_plain(
        mut raw: BufReader<Box<dyn Read + Send>>,
        size: Option<u64>,
        max_record_bytes: usize,
    ) -> io::Result<(Stream, bool, bool, Option<u64>)> {
        // The first bytes of a gzip input as inflated (a member corrupt further on still
        // shows them): a WARC whose first member is damaged is still a WARC.
        // The first members are inflated together, so that a first record cut to a few
        // bytes does not hide the records after it.
        let gzip = raw.fill_buf()?.starts_with(&[0x1f, 0x8b]);
        let mut gz_warc = false;
        let mut inflated_hint = None;
        if gzip {
            // A page first: its first bytes say markup (`<` after a BOM and blanks), and an
            // input that starts as markup is neither a WARC nor one after junk
            // (`warc::record_after_junk`), so the 64 KiB below need not be inflated twice.
            let mut peek = Vec::new();
            let peeked = flate2::bufread::MultiGzDecoder::new(raw.fill_buf()?)
                .take(PEEK_BYTES)
                .read_to_end(&mut peek);
            let markup = peeked.is_ok() && peek.len() >= 5 && starts_as_markup(&peek);
            if !markup {
                let mut gz_head = Vec::new();
                let _ = flate2::bufread::MultiGzDecoder::new(raw.fill_buf()?)
                    .take(64 << 10)
                    .read_to_end(&mut gz_head);
                gz_warc = gz_head.starts_with(b"WARC/")
                    || warc::record_after_junk(&gz_head)
                    || (gz_head.len() < 5 && gzip::warc_member_within(raw.fill_buf()?));
            }
            inflated_hint = gzip::inflated_size(raw.buffer(), size);
            // A page whole in the buffer, of one member: inflated at once.
            if markup
                && let Some(n) = inflated_hint
                && let Some(data) = gzip::inflate_whole(raw.buffer(), n, max_record_bytes)
            {
                let i = Inflated {
                    data: io::Cursor::new(data),
                    raw,
                };
                return Ok((Stream::Inflated(Box::new(i)), true, false, inflated_hint));
            }
        }
        let r = if gzip {
            Stream::Gzip(Box::new(gzip::Members::new(raw)))
        } else {
            Stream::Plain(raw)
        };
        Ok((r, gzip, gz_warc, inflated_hint))
    }

    /// The next item; `None` at the end.
    pub fn next_item(&mut self) -> Option<Item> {
        match self {
            Input::Html(rec) => rec.take().map(Item::Page),
            Input::Warc(r) => r.next_item(),
            Input::Split(r) => r.next_item(),
            Input::Jsonl(r) => r.next_item(),
            Input::Ranges(r) => r.next_item(),
        }
    }
}

/// The framing of an input whose stream is `r` (`requested` unless it is `Auto`), from its
/// first bytes, and the error of a gzip input whose first member is corrupt (read as a WARC,
/// which reports it and goes on with the next member).
fn detect(
    r: &mut Stream,
    requested: Framing,
    gzip: bool,
    gz_warc: bool,
) -> io::Result<(Framing, Option<io::Error>)> {
    let mut first_error = None;
    let framing = match requested {
        Framing::Auto if gz_warc => Framing::Warc,
        Framing::Auto => match r.fill_buf() {
            // gzip whose first member is corrupt: read as WARC, which reports it and
            // goes on with the next member.
            Err(e) if gzip && e.kind() == io::ErrorKind::InvalidData => {
                first_error = Some(e);
                Framing::Warc
            }
            Err(e) => return Err(e),
            Ok(head) => {
                // JSON lines may start with a BOM (which the reader skips).
                let text = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
                let first = text.iter().find(|b| !b.is_ascii_whitespace());
                if head.starts_with(b"WARC/") {
                    Framing::Warc
                } else if first == Some(&b'{') {
                    Framing::Jsonl
                } else if warc::record_after_junk(head) {
                    // Junk before the first record: the reader reports it.
                    Framing::Warc
                } else if jsonl::looks_like(head) {
                    // Junk, or the end of a record cut at its start, before JSON lines:
                    // the reader reports that line.
                    Framing::Jsonl
                } else {
                    Framing::Html
                }
            }
        },
        f => f,
    };
    Ok((framing, first_error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_starts_with_a_tag_after_a_bom_and_blanks() {
        assert!(starts_as_markup(b"<!doctype html>"));
        assert!(starts_as_markup(b"\xef\xbb\xbf \r\n\t<html>"));
        assert!(!starts_as_markup(b"WARC/1.0\r\n"));
        assert!(!starts_as_markup(b"junk <html>"));
        assert!(!starts_as_markup(b"\xef\xbb\xbf{\"html\": \"<p>\"}"));
        assert!(!starts_as_markup(b"   "));
        assert!(!starts_as_markup(b""));
    }

    fn gz(data: &[u8]) -> Vec<u8> {
        use std::io::Write;
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    /// `bytes` opened as a file of their size is: its framing, and its page when it is one.
    fn open_sized(bytes: Vec<u8>, max: usize) -> io::Result<(Framing, Option<Vec<u8>>)> {
        let size = bytes.len() as u64;
        let raw: Box<dyn Read + Send> = Box::new(io::Cursor::new(bytes));
        let (mut input, framing) =
            Input::from_sized_reader(raw, Some(size), "t.gz", Framing::Auto, max, false)?;
        let page = match (&mut input, framing) {
            (Input::Html(_), Framing::Html) => match input.next_item() {
                Some(Item::Page(rec)) => Some(rec.html),
                _ => None,
            },
            _ => None,
        };
        Ok((framing, page))
    }

    #[test]
    fn a_gzip_page_reads_the_same_inflated_at_once_or_by_members() {
        let page = b"<!doctype html><p>words</p>".repeat(4000);
        // One member, whole in the buffer: inflated at once.
        let (framing, got) = open_sized(gz(&page), 1 << 20).unwrap();
        assert_eq!((framing, got.as_deref()), (Framing::Html, Some(&page[..])));
        // Two members of the same bytes: both, through the members.
        let (framing, got) = open_sized([gz(&page), gz(&page)].concat(), 1 << 20).unwrap();
        assert_eq!(framing, Framing::Html);
        assert_eq!(got, Some([page.clone(), page.clone()].concat()));
        // Over the record limit: the members' error, as before.
        let e = open_sized(gz(&page), page.len() - 1).unwrap_err();
        assert!(e.to_string().contains("over the record limit"), "{e}");
        // Markup, then JSON lines: recognized through the members as JSON lines.
        let lines = b"<junk>\n{\"html\": \"<p>a</p>\"}\n{\"html\": \"<p>b</p>\"}\n";
        let (framing, _) = open_sized(gz(lines), 1 << 20).unwrap();
        assert_eq!(framing, Framing::Jsonl);
    }

    #[test]
    fn only_a_page_of_one_member_whole_in_the_buffer_is_inflated_at_once() {
        let stream = |bytes: Vec<u8>, buffer: usize| {
            let size = bytes.len() as u64;
            let raw: Box<dyn Read + Send> = Box::new(io::Cursor::new(bytes));
            let mut raw = BufReader::with_capacity(buffer, raw);
            raw.fill_buf().unwrap();
            Input::gzip_or_plain(raw, Some(size), 1 << 20).unwrap().0
        };
        let page = b"<p>words</p>".repeat(1000);
        let one = gz(&page);
        assert!(matches!(stream(one.clone(), 1 << 20), Stream::Inflated(_)));
        // Not whole in the buffer, two members, not markup: through the members.
        assert!(matches!(stream(one.clone(), 64), Stream::Gzip(_)));
        assert!(matches!(
            stream([one.clone(), one].concat(), 1 << 20),
            Stream::Gzip(_)
        ));
        assert!(matches!(
            stream(gz(b"WARC/1.0\r\n"), 1 << 20),
            Stream::Gzip(_)
        ));
        assert!(matches!(stream(page.clone(), 1 << 20), Stream::Plain(_)));
    }

    #[test]
    fn reading_up_to_a_limit_reads_what_take_and_read_to_end_read() {
        let data: Vec<u8> = (0..50_000u32).map(|i| (i % 251) as u8).collect();
        for limit in [0, 1, 4095, 4096, 4097, 49_999, 50_000, 50_001, 1 << 20] {
            // A small buffer, so that the bytes come in many pieces.
            let mut r = BufReader::with_capacity(4096, &data[..]);
            let mut ours = b"kept".to_vec();
            let n = read_up_to(&mut r, limit, &mut ours).unwrap();
            let mut theirs = b"kept".to_vec();
            let m = (&data[..])
                .take(limit as u64)
                .read_to_end(&mut theirs)
                .unwrap();
            assert_eq!((n, &ours), (m, &theirs), "limit {limit}");
            // What is left over is still there to read.
            let mut rest = Vec::new();
            r.read_to_end(&mut rest).unwrap();
            assert_eq!(rest, data[n..]);
        }
    }

    #[test]
    fn a_read_error_is_passed_on() {
        struct Failing(usize);
        impl Read for Failing {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0 == 0 {
                    return Err(io::Error::new(io::ErrorKind::InvalidData, "broken"));
                }
                self.0 -= 1;
                buf[0] = b'x';
                Ok(1)
            }
        }
        let mut r = BufReader::new(Failing(3));
        let mut out = Vec::new();
        let e = read_up_to(&mut r, 100, &mut out).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert_eq!(out, b"xxx");
    }
}
