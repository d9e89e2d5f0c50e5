//! WARC records (ISO 28500: WARC/1.0 and 1.1, and the 0.17 / 0.18 drafts Heritrix 1.x and
//! ClueWeb09 wrote, which use the same named-header layout): a version line, header fields, a
//! blank line, `Content-Length` bytes of block, then CRLF CRLF (some writers put one CRLF).
//!
//! The reader streams: a block is held only up to `--max-record-bytes`; in a file with one gzip
//! member per record, a record over the limit or a large skipped one is dropped with the rest
//! of its member without inflating it (a gzip bomb costs no more than its compressed size).
//!
//! Damage (`docs/robustness.md`): a `Content-Length` is trusted only when the bytes after
//! the block end the record (white space with two line ends, or the next `WARC/` version line,
//! a new gzip member or the end of input). A length that runs past the next record gives one
//! [`Fault`] and that record is read again from inside the block (a pushback buffer in front of
//! the stream); a length too small, over the limit, or a header that does not parse gives one
//! fault and the reader looks for the next version line (at a line start, or inside a line when
//! a whole header follows), passing silently over whatever else fails on the way. A record that
//! starts its own gzip member is read within that member, whose CRC32 and ISIZE are checked
//! before the record is used.
//!
//! Header lines end in CRLF, LF or a CR alone. A header is damage, one fault for its record,
//! never a skip: no `WARC-Type`, a line that is not a field (the blank line after the header
//! missing, so the HTTP head follows the fields), no `Content-Length`, a damaged or missing
//! version line in front of a whole header (read as a record, then reported). A page record
//! that is one segment of a segmented record is a fault too (segments are not joined).

use std::io::{self, BufRead, Read};

use super::gzip::{Ahead, read_buffered};
use super::{Fault, FaultKind, Item, Place, Record, SkipReason, Source, http};

/// Skipped blocks at least this long are dropped with their gzip member instead of inflated
/// (smaller ones are mostly buffered already, and inflating them keeps offsets exact). The
/// split reader checks skipped members under this size, as this reader does.
pub(crate) const RAW_SKIP_MIN: u64 = 64 << 10;

/// Decompressed bytes of a gzip member's start that decide what its record is: a WARC header
/// and most HTTP heads fit (a response whose HTTP head does not is classified once inflated).
/// The split reader inflates this much of each member; this reader decides a large response
/// from the same bytes, so both readers skip the same records.
pub(crate) const MEMBER_HEAD: u64 = 4 << 10;

/// Header lines longer than this, or more of them than this, are not a WARC header.
const MAX_HEADER_BYTES: usize = 64 << 10;

/// How many `WARC/` version lines inside a block are tried as a record start when its
/// Content-Length proved wrong: enough for real lies, few enough that a block of such lines
/// stays linear.
const RESCUE_CANDIDATES: usize = 8;

/// What a record whose header has no `WARC-Type` is reported as.
pub(crate) const UNTYPED: &str = "WARC header without WARC-Type";

/// Bytes looked at for a whole header after a version line found inside a line.
const MID_LINE_PEEK: usize = 8 << 10;

/// Bytes pushed back in front of the stream: a record found inside a block whose length was
/// wrong, or after junk on its version line, is read again from there.
struct Pushback<R> {
    inner: R,
    back: Ahead,
    /// The gzip member of the pushed-back bytes, as `inner` said when they were read.
    member: Option<(u64, u64)>,
}

impl<R: Source> Pushback<R> {
    fn pending(&self) -> bool {
        self.back.pending()
    }

    /// Puts `bytes` back in front of what is left to read.
    fn push(&mut self, bytes: Vec<u8>) {
        if !self.pending() {
            self.member = self.inner.member();
        }
        self.back.push_front(bytes);
    }

    /// At least `n` bytes from here when the input has them, without consuming any (the bytes
    /// come into the pushback buffer).
    fn peek(&mut self, n: usize) -> io::Result<&[u8]> {
        if !self.pending() {
            self.member = self.inner.member();
            self.back.clear();
        }
        self.back.fill(&mut self.inner, n)
    }
}

impl<R: Source> Read for Pushback<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_buffered(self, buf)
    }
}

impl<R: Source> BufRead for Pushback<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pending() {
            return Ok(self.back.waiting());
        }
        self.inner.fill_buf()
    }
    fn consume(&mut self, n: usize) {
        if self.pending() {
            self.back.consume(n);
        } else {
            self.inner.consume(n);
        }
    }
}

impl<R: Source> Source for Pushback<R> {
    fn member(&self) -> Option<(u64, u64)> {
        if self.pending() {
            self.member
        } else {
            self.inner.member()
        }
    }
    fn skip_member(&mut self, resume_out: u64) -> bool {
        // Bytes looked at ahead are of the member being skipped.
        if self.inner.skip_member(resume_out) {
            self.back.clear();
            return true;
        }
        false
    }
    fn stop_at_member_end(&mut self, on: bool) {
        self.inner.stop_at_member_end(on);
    }
    fn at_member_end(&self) -> bool {
        !self.pending() && self.inner.at_member_end()
    }
    fn skip_frame(&mut self, start: u64, end: u64) -> bool {
        // As for a member: bytes looked at ahead are of the frame being skipped.
        if self.inner.skip_frame(start, end) {
            self.back.clear();
            return true;
        }
        false
    }
}

/// Reads WARC records from a (decompressed) stream.
pub struct Reader<R: Source> {
    r: Pushback<R>,
    source: std::sync::Arc<str>,
    /// Bytes consumed so far (offsets in messages are into the decompressed stream).
    offset: u64,
    index: u64,
    max_record_bytes: usize,
    done: bool,
    /// Resynchronise before reading the next header.
    lost: bool,
    /// Resynchronising after a fault already reported: headers that do not parse on the way
    /// are passed over silently (one damage, one message).
    resyncing: bool,
    /// A read error met after a record was complete (in the next gzip member), reported
    /// before the next record.
    deferred: Option<io::Error>,
    /// gzip input where every record so far started its own member (WARC 1.1 Annex D.2): the
    /// rest of a record can be skipped by skipping its member.
    per_record: bool,
    /// A record after the first started its own member: the layout is one member per
    /// record, not one member for the whole file whose first record starts it, so dropping
    /// the rest of a member drops one record only.
    confirmed: bool,
    /// A record header was read.
    started: bool,
    /// The record being read has a damaged or missing version line (what to report once it
    /// is read: it is not passed on as good).
    bad_version: Option<String>,
    /// Where the record being read starts: its gzip member's file offset, and whether the
    /// record is that member's first byte.
    member: Option<(u64, bool)>,
    /// Where block buffers come from.
    pub pool: super::Pool,
}

impl Source for io::Cursor<Vec<u8>> {}

/// True when `line` is a WARC version line: `WARC/`, digits, `.`, digits, then the line end
/// (or the end of what is there).
pub(crate) fn version_line(line: &[u8]) -> bool {
    let Some(rest) = line.strip_prefix(b"WARC/") else {
        return false;
    };
    let major = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let Some(rest) = rest.get(major..).filter(|_| major > 0 && major < 4) else {
        return false;
    };
    let Some(rest) = rest.strip_prefix(b".") else {
        return false;
    };
    let minor = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    if minor == 0 || minor > 3 {
        return false;
    }
    // CR-only line ends are line ends too (see [`Reader::line`]).
    matches!(rest.get(minor..), Some([] | [b'\n' | b'\r', ..]))
}

/// The end of the line that starts `bytes[from..]`: the index of its first byte and of the
/// byte after it (the line end is LF, CRLF, or a CR alone); `None` when no line end is there.
/// A CR that is the last byte of `bytes` ends a line only when `eof`: a LF may follow it.
fn line_end(bytes: &[u8], from: usize, eof: bool) -> Option<(usize, usize)> {
    let i = memchr::memchr2(b'\n', b'\r', bytes.get(from..)?)? + from;
    match (bytes[i], bytes.get(i + 1)) {
        (b'\n', _) => Some((i, i + 1)),
        (_, Some(b'\n')) => Some((i, i + 2)),
        (_, Some(_)) => Some((i, i + 1)),
        (_, None) => eof.then_some((i, i + 1)),
    }
}

/// True when a blank line (two line ends in a row: LF LF, LF CR LF, CR CR) is in `bytes`, or
/// across `last` (the two bytes before them) and them.
fn has_blank_line(last: [u8; 2], bytes: &[u8]) -> bool {
    let mut joint = [last[0], last[1], 0, 0];
    let m = bytes.len().min(2);
    joint[2..2 + m].copy_from_slice(&bytes[..m]);
    [&b"\n\n"[..], b"\n\r\n", b"\r\r"].iter().any(|blank| {
        memchr::memmem::find(&joint[..2 + m], blank).is_some()
            || memchr::memmem::find(bytes, blank).is_some()
    })
}

/// True when `line` (without its line end) can be a line of a WARC header after the version
/// line: `Name: value` with a token for a name (RFC 9110 section 5.6.2; white space before
/// the colon is let pass), or a continuation line (starting with a space or a tab). Anything
/// else (an HTTP status line, markup) means the header has no blank line after it or is
/// damaged.
pub(crate) fn field_line(line: &[u8]) -> bool {
    if matches!(line.first(), Some(b' ' | b'\t')) {
        return true;
    }
    let Some(colon) = memchr::memchr(b':', line) else {
        return false;
    };
    let name = line[..colon].trim_ascii_end();
    !name.is_empty()
        && name
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// Where a WARC version line starts inside `bytes` (not at its first byte), if one does.
fn version_inside(bytes: &[u8]) -> Option<usize> {
    memchr::memmem::find_iter(bytes, b"WARC/")
        .filter(|&i| i > 0)
        .take(RESCUE_CANDIDATES)
        .find(|&i| version_line(&bytes[i..]))
}

/// Where the first record inside `block` starts, if one does: a version line (at a line start
/// or not: a record cut mid-line runs straight into the next) followed by fields with a
/// Content-Length, or by fields up to the end of the block (the header goes on after it).
fn embedded_record(block: &[u8]) -> Option<usize> {
    memchr::memmem::find_iter(block, b"WARC/")
        .filter(|&i| i > 0)
        .filter(|&i| version_line(&block[i..]))
        .take(RESCUE_CANDIDATES)
        .find(|&at| {
            let head = &block[at..block.len().min(at + MAX_HEADER_BYTES)];
            match Headers::parse(head) {
                Some((h, _)) => h.content_length.is_some(),
                None => {
                    at + MAX_HEADER_BYTES >= block.len()
                        && [&b"\n\r\n"[..], b"\n\n", b"\r\r"]
                            .iter()
                            .all(|blank| memchr::memmem::find(head, blank).is_none())
                }
            }
        })
}

/// True when `head`, the start of an input that does not start with a WARC record, holds one
/// after some junk: a version line and a whole header with a WARC-Type and a Content-Length
/// within the first 64 KiB, and the input does not start as markup does (an HTML page that
/// quotes a WARC header stays a page).
pub(crate) fn record_after_junk(head: &[u8]) -> bool {
    let head = &head[..head.len().min(MAX_HEADER_BYTES)];
    let Some(at) = memchr::memmem::find_iter(head, b"WARC/")
        .take(RESCUE_CANDIDATES)
        .find(|&i| {
            version_line(&head[i..])
                && Headers::parse(&head[i..])
                    .is_some_and(|(h, _)| h.content_length.is_some() && !h.kind.is_empty())
        })
    else {
        return false;
    };
    // A markup document (a page that quotes a WARC header) starts with `<` (the same test
    // lets a gzip page skip this search: `Input::gzip_or_plain`).
    !super::starts_as_markup(&head[..at])
}

/// What follows a block.
enum End {
    /// The end of the record: two line ends, or white space then the next record, a new gzip
    /// member or the end of input.
    Record,
    /// Two line ends, then something else: the end of the record, unless the block holds
    /// the start of another record (then the length was too large).
    Loose,
    /// Something else: the Content-Length does not end the record.
    Junk,
}

/// A step of reading a record: go on with what it found, or stop with the item (`None`: the
/// end, or a header passed over while resynchronising).
enum Step<T> {
    Go(T),
    Done(Option<Item>),
}

impl<R: Source> Reader<R> {
    /// A reader of the WARC `r`, named `source` in records and faults; records over
    /// `max_record_bytes` are faults (and reading resynchronizes after them).
    pub fn new(r: R, source: std::sync::Arc<str>, max_record_bytes: usize) -> Self {
        Reader {
            r: Pushback {
                inner: r,
                back: Ahead::default(),
                member: None,
            },
            source,
            offset: 0,
            index: 0,
            max_record_bytes,
            done: false,
            lost: false,
            resyncing: false,
            deferred: None,
            per_record: true,
            confirmed: false,
            started: false,
            bad_version: None,
            member: None,
            pool: super::Pool::default(),
        }
    }

    /// An error met before the first record (by the caller, looking at the input's start):
    /// reported first.
    pub(crate) fn defer(&mut self, e: io::Error) {
        self.deferred = Some(e);
    }

    /// Goes on from another reader: the next record is number `index + 1`, at decompressed
    /// offset `offset`.
    pub fn resume(&mut self, index: u64, offset: u64) {
        self.index = index;
        self.offset = offset;
    }

    /// Takes the layout as one gzip member per record from the start (the split reader has
    /// seen it so far).
    pub fn assume_per_record(&mut self) {
        self.confirmed = true;
        self.started = true;
    }

    fn fault(&self, offset: u64, id: Option<String>, kind: FaultKind, message: String) -> Item {
        self.place(offset).fault(id, kind, message)
    }

    /// Where the record at `offset` sits.
    fn place(&self, offset: u64) -> Place {
        Place {
            source: self.source.clone(),
            index: self.index,
            offset,
            member_offset: self.member.map(|m| m.0),
            ..Place::default()
        }
    }

    /// Puts `bytes` (just read) back in front of the stream.
    fn push_back(&mut self, bytes: Vec<u8>) {
        self.offset -= bytes.len() as u64;
        self.r.push(bytes);
    }

    /// Reads one line with its line end into `line`, at most `MAX_HEADER_BYTES`. A line
    /// ends at LF, CRLF or a CR alone: a header written with CR-only line ends (by a tool that
    /// turned CRLF into CR) is read as the header it is, not as one long first line that takes
    /// the HTTP head for its fields.
    fn line(&mut self, line: &mut Vec<u8>) -> io::Result<usize> {
        line.clear();
        let read = self.line_into(line);
        // Bytes taken before an error are consumed too: offsets stay right.
        self.offset += line.len() as u64;
        read.map(|()| line.len())
    }

    fn line_into(&mut self, line: &mut Vec<u8>) -> io::Result<()> {
        loop {
            let buf = self.r.fill_buf()?;
            let room = MAX_HEADER_BYTES - line.len();
            let look = &buf[..buf.len().min(room)];
            if look.is_empty() {
                // The end of the input, or a line at the limit.
                return Ok(());
            }
            let Some(i) = memchr::memchr2(b'\n', b'\r', look) else {
                let n = look.len();
                line.extend_from_slice(look);
                self.r.consume(n);
                continue;
            };
            let cr = look[i] == b'\r';
            line.extend_from_slice(&look[..=i]);
            self.r.consume(i + 1);
            // The LF of a CRLF belongs to the same line end.
            if cr && line.len() < MAX_HEADER_BYTES && self.r.fill_buf()?.first() == Some(&b'\n') {
                line.push(b'\n');
                self.r.consume(1);
            }
            return Ok(());
        }
    }

    fn consume(&mut self, n: usize) {
        self.r.consume(n);
        self.offset += n as u64;
    }

    /// True when the bytes buffered now are the first of a gzip member.
    fn at_member_start(&self) -> bool {
        self.r.member().is_some_and(|(out, _)| out == self.offset)
    }

    /// Skips to the next `WARC/` version line at a line start (or at the start of a gzip
    /// member), or to one inside a line that is followed by a whole header with a
    /// Content-Length (a few such tries per search), leaving it unread; false at the end.
    /// Once a blank line is behind (the damaged record's header is), a line start
    /// `WARC-Type:` that begins a whole header with a Content-Length is a record too, whose
    /// version line is damaged or missing: two damaged records in a row are two records, not
    /// one stretch.
    fn resync(&mut self) -> io::Result<bool> {
        let mut at_line_start = true;
        let mut tries = 0;
        let mut blank = false;
        let mut field_tries = 0;
        // The last two bytes passed over, for a blank line across two reads.
        let mut last = [0u8; 2];
        loop {
            match self.r.fill_buf() {
                Ok([]) => return Ok(false),
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                    // A corrupt gzip member on the way: the member reader has moved on.
                    at_line_start = true;
                    continue;
                }
                Err(e) => return Err(e),
            }
            // A new gzip member starts a line: records get their own member, and junk that
            // ends without a newline (a member inflating to zeros past its record) must not
            // hide the record in the next one.
            if self.at_member_start() {
                at_line_start = true;
            }
            if at_line_start {
                let head = self.r.peek(16)?;
                if version_line(head) {
                    return Ok(true);
                }
                if blank && head.starts_with(b"WARC-Type:") && field_tries < RESCUE_CANDIDATES {
                    // (A few tries per search: a block of such lines stays linear.)
                    field_tries += 1;
                    let mut whole = b"WARC/1.0\r\n".to_vec();
                    whole.extend_from_slice(self.r.peek(MID_LINE_PEEK)?);
                    if Headers::parse(&whole).is_some_and(|(h, _)| h.content_length.is_some()) {
                        return Ok(true);
                    }
                }
            }
            let buf = self.r.fill_buf()?;
            let n = buf.len();
            if n < 5 {
                // Too few bytes to see a version line: look further, or end.
                if self.r.peek(16)?.len() < 5 {
                    let n = self.r.fill_buf()?.len();
                    self.consume(n);
                }
                at_line_start = false;
                continue;
            }
            // (`WARC` finds both a version line and a `WARC-Type:` field.)
            let (k, line_start) = match memchr::memmem::find(buf, b"WARC") {
                Some(0) => {
                    // At a line start it was not a version line; inside one, try it whole.
                    if !at_line_start && tries < RESCUE_CANDIDATES {
                        tries += 1;
                        let head = self.r.peek(MID_LINE_PEEK)?;
                        if version_line(head)
                            && Headers::parse(head).is_some_and(|(h, _)| h.content_length.is_some())
                        {
                            return Ok(true);
                        }
                    }
                    (1, false)
                }
                Some(i) => (i, matches!(buf[i - 1], b'\n' | b'\r')),
                // Keep the last four bytes: a `WARC/` may go on in the next read.
                None => (n - 4, matches!(buf[n - 5], b'\n' | b'\r')),
            };
            let buf = self.r.fill_buf()?;
            let passed = &buf[..k.min(buf.len())];
            blank |= has_blank_line(last, passed);
            if let [.., a, b] = passed {
                last = [*a, *b];
            } else if let [b] = passed {
                last = [last[1], *b];
            }
            let k = passed.len();
            self.consume(k);
            at_line_start = line_start;
        }
    }

    /// The next record, skip or fault; `None` at the end.
    pub fn next_item(&mut self) -> Option<Item> {
        if self.done {
            return None;
        }
        if let Some(e) = self.deferred.take() {
            return Some(self.read_error(e));
        }
        loop {
            let item = self.read_record();
            self.r.stop_at_member_end(false);
            return match item {
                Ok(Some(item)) => Some(item),
                Ok(None) => {
                    self.done = true;
                    None
                }
                // A corrupt gzip member met while looking for the next record after a fault
                // already reported: the same damage, no second message.
                Err(e) if self.resyncing && e.kind() == io::ErrorKind::InvalidData => {
                    self.lost = true;
                    continue;
                }
                Err(e) => Some(self.read_error(e)),
            };
        }
    }

    /// The fault for a read error outside any record that could be named.
    fn read_error(&mut self, e: io::Error) -> Item {
        if e.kind() == io::ErrorKind::InvalidData {
            // A corrupt gzip member where a record starts: that record is lost.
            self.index += 1;
        }
        self.lost = true;
        self.resyncing = true;
        // The member the failure is in (not the last record's).
        if let Some((_, raw)) = self.r.member() {
            self.member = Some((raw, false));
        }
        let at = self.offset;
        // A compressed piece dropped whole (its checksum failed): the record it held.
        let id = super::compress::dropped_head(&e)
            .and_then(Headers::parse)
            .and_then(|(h, _)| h.id);
        self.fault(at, id, FaultKind::of_read(&e), format!("read error: {e}"))
    }

    /// A fault for the record being read; when `lost`, the reader looks for the next record
    /// and says nothing more until it has found one.
    fn damaged(
        &mut self,
        start: u64,
        id: Option<String>,
        kind: FaultKind,
        message: String,
        lost: bool,
    ) -> Item {
        if lost {
            self.lost = true;
            self.resyncing = true;
        }
        self.fault(start, id, kind, message)
    }

    fn read_record(&mut self) -> io::Result<Option<Item>> {
        loop {
            if self.lost {
                self.lost = false;
                if !self.resync()? {
                    return Ok(None);
                }
            }
            match self.read_one()? {
                // A header passed over while resynchronising: look further.
                None if self.lost => continue,
                other => return Ok(other),
            }
        }
    }

    /// One record; `None` at the end, or (with `lost` set) a header passed over silently.
    fn read_one(&mut self) -> io::Result<Option<Item>> {
        let mut line = Vec::new();
        let start = match self.record_start(&mut line)? {
            Step::Go(start) => start,
            Step::Done(item) => return Ok(item),
        };
        let own = self.member.is_some_and(|m| m.1);
        let h = match self.read_headers(start, &mut line)? {
            Step::Go(h) => h,
            Step::Done(item) => return Ok(item),
        };
        let Some(len) = h.content_length else {
            return Ok(Some(self.damaged(
                start,
                h.id.clone(),
                FaultKind::Header,
                "WARC header without Content-Length".into(),
                true,
            )));
        };
        self.resyncing = false;
        let wanted = matches!(h.kind.as_str(), "response" | "resource");
        let over = len > self.max_record_bytes as u64;
        let mut skip = (!wanted).then(|| skip_reason(&h.kind));
        let by_member = own && self.per_record && self.confirmed;
        if by_member && !over && h.kind == "response" && len >= RAW_SKIP_MIN {
            // A large response that is not a page is dropped with its member, decided from
            // the same first bytes of the member as the split reader decides.
            let header_len = (self.offset - start) as usize;
            let n = (MEMBER_HEAD as usize)
                .saturating_sub(header_len)
                .min(len as usize);
            skip = response_skip(self.r.peek(n)?);
        }
        if by_member && (over || (skip.is_some() && len >= RAW_SKIP_MIN)) {
            // The record's own member is dropped without inflating the rest (a gzip bomb
            // stops here). The decompressed length of what is skipped is taken from the
            // header, as the split reader does.
            let resume = self.offset + len + 4;
            if self.r.skip_member(resume) {
                self.offset = resume;
                return Ok(Some(match skip {
                    Some(reason) => self.not_page(start, &h, reason),
                    None => self.over_limit(start, &h, len),
                }));
            }
        }
        if over {
            return Ok(Some(self.skip_over(start, &h, len, wanted)));
        }
        let mut block = self.pool.get();
        block.reserve(len as usize);
        let mut ws = Vec::new();
        // The block, then (when it is whole) what follows it; a read error in either cuts the
        // record short.
        let end = match self.read_block(len, &mut block).and_then(|()| {
            if (block.len() as u64) < len {
                Ok(None)
            } else {
                self.record_end(own, &mut ws).map(Some)
            }
        }) {
            Ok(end) => end,
            Err(e) => {
                self.pool.put(block);
                return Ok(Some(self.damaged(
                    start,
                    h.id.clone(),
                    cut_kind(&e),
                    format!("record cut short: {e}"),
                    true,
                )));
            }
        };
        let got = block.len() as u64;
        let end = match end {
            Some(End::Loose) if embedded_record(&block).is_none() => Some(End::Record),
            other => other,
        };
        if matches!(end, Some(End::Record)) {
            if !wanted {
                self.pool.put(block);
                return Ok(Some(self.not_page(start, &h, skip_reason(&h.kind))));
            }
            return Ok(Some(self.page_item(h, block, start)));
        }
        // The Content-Length is wrong: too large (the input or the record's member ends
        // inside the block, or the block holds the next record) or too small (the block is
        // followed by more than a record end). A record inside the block is read from there.
        if !ws.is_empty() {
            // White space taken for a record end is read again with what follows the block.
            self.push_back(ws);
        }
        let block_start = self.offset - got;
        if let Some(at) = embedded_record(&block) {
            let rest = block.split_off(at);
            self.pool.put(block);
            self.push_back(rest);
            let msg = format!(
                "Content-Length {len} runs past the next record (at byte {})",
                block_start + at as u64
            );
            return Ok(Some(self.damaged(
                start,
                h.id.clone(),
                FaultKind::Framing,
                msg,
                false,
            )));
        }
        let msg = match end {
            None if self.r.at_member_end() => {
                format!("record cut short: its gzip member ends after {got} of {len} bytes")
            }
            None => format!("record cut short ({got} of {len} bytes)"),
            _ => format!("Content-Length {len} does not end the record"),
        };
        // Cut short at a member end, the next record is next: no search.
        let lost = !(end.is_none() && (self.r.at_member_end() || self.at_member_start()));
        if lost && !block.is_empty() {
            // The search for the next record starts inside the block: its end may hold the
            // start of the next record's version line.
            self.push_back(block);
        } else {
            self.pool.put(block);
        }
        Ok(Some(self.damaged(
            start,
            h.id.clone(),
            FaultKind::Framing,
            msg,
            lost,
        )))
    }

    /// A record over the record limit (`len` bytes, not read): its fault, or its skip when it
    /// is not `wanted`.
    fn skip_over(&mut self, start: u64, h: &Headers, len: u64, wanted: bool) -> Item {
        // A zstd frame that holds this record alone (its header states the record's size) is
        // dropped without decompressing it, as a gzip member is.
        let resume = self.offset + len + 4;
        if self.r.skip_frame(start, resume) {
            self.offset = resume;
        } else {
            // Too long to hold, or a lie: either way, the next record is found by looking for
            // it (a record inside this one's block would be read as one).
            self.lost = true;
            self.resyncing = true;
        }
        if wanted {
            self.over_limit(start, h, len)
        } else {
            self.not_page(start, h, skip_reason(&h.kind))
        }
    }

    /// The start of a record: blank lines skipped, its version line read (`line`), its
    /// number and gzip member noted; junk before it or a damaged version line reported.
    /// `Go(start)`: the header's fields follow, the record starts at byte `start`.
    fn record_start(&mut self, line: &mut Vec<u8>) -> io::Result<Step<u64>> {
        self.bad_version = None;
        if self.r.member().is_none() && !self.r.pending() {
            // Uncompressed input that goes on in gzip members (`cat a.warc b.warc.gz`).
            let head = self.r.fill_buf()?;
            if head.starts_with(&[0x1f, 0x8b, 0x08]) || super::compress::sniff(head).is_some() {
                self.r.inner.gzip_from_here(self.offset);
            }
        }
        // Skip blank lines between records.
        loop {
            if self.line(line)? == 0 {
                return Ok(Step::Done(None));
            }
            if !line.trim_ascii().is_empty() {
                break;
            }
        }
        let start = self.offset - line.len() as u64;
        self.index += 1;
        self.member = self.r.member().map(|(out, raw)| (raw, out == start));
        if self.member.is_some_and(|m| !m.1) {
            self.per_record = false;
        }
        // A version line with another one inside it: a record cut right after its version.
        let cut_version = line.starts_with(b"WARC/") && version_inside(line).is_some();
        if !line.starts_with(b"WARC/") || cut_version {
            // Junk before a record on its version line: report the junk, read the record.
            if let Some(at) = version_inside(line) {
                let rest = line.split_off(at);
                self.push_back(rest);
                if self.resyncing {
                    self.index -= 1;
                    self.lost = true;
                    return Ok(Step::Done(None));
                }
                return Ok(Step::Done(Some(self.fault(
                    start,
                    None,
                    FaultKind::Framing,
                    format!("{at} bytes that are not a WARC record before the next record"),
                ))));
            }
            let shown = String::from_utf8_lossy(&line[..line.len().min(40)])
                .trim()
                .to_string();
            // (A header is looked for while resynchronising too: the search stops at a line
            // start `WARC-Type:` that begins one.)
            let header = self.header_follows(line)?;
            if !header && self.resyncing {
                self.index -= 1;
                self.lost = true;
                return Ok(Step::Done(None));
            }
            if !header {
                return Ok(Step::Done(Some(self.damaged(
                    start,
                    None,
                    FaultKind::Header,
                    format!("not a WARC record header: {shown:?}"),
                    true,
                ))));
            }
            // The record is read as any other, and reported when it would come out.
            self.bad_version = Some(format!(
                "WARC version line damaged or missing (the record starts {shown:?})"
            ));
        }
        Ok(Step::Go(start))
    }

    /// The header's fields of the record starting at `start`, up to its blank line (read
    /// into `line`); a header cut short, too long, interrupted by the next record or with a
    /// line that is not a field is reported (`Done`).
    fn read_headers(&mut self, start: u64, line: &mut Vec<u8>) -> io::Result<Step<Headers>> {
        let own = self.member.is_some_and(|m| m.1);
        self.confirmed |= own && self.started;
        self.started = true;
        if own {
            // The record is read within its member, whose CRC32 and ISIZE are checked
            // before the record is used.
            self.r.stop_at_member_end(true);
        }
        let mut h = Headers::default();
        let mut header_bytes = 0;
        loop {
            let n = match self.line(line) {
                Ok(n) => n,
                Err(e) => {
                    let msg = format!("record cut short: {e}");
                    return Ok(Step::Done(Some(self.damaged(
                        start,
                        h.id.clone(),
                        cut_kind(&e),
                        msg,
                        true,
                    ))));
                }
            };
            if n == 0 {
                let lost = !self.r.at_member_end();
                return Ok(Step::Done(Some(self.damaged(
                    start,
                    h.id.clone(),
                    FaultKind::Header,
                    "record cut short in its header".into(),
                    lost,
                ))));
            }
            header_bytes += n;
            if header_bytes > MAX_HEADER_BYTES {
                return Ok(Step::Done(Some(self.damaged(
                    start,
                    h.id.clone(),
                    FaultKind::Header,
                    "WARC header too long".into(),
                    true,
                ))));
            }
            // A record starting inside this header: this one was cut there.
            let inside = if line.starts_with(b"WARC/") && version_line(line) {
                Some(0)
            } else {
                version_inside(line)
            };
            if let Some(at) = inside {
                let rest = line.split_off(at);
                self.push_back(rest);
                return Ok(Step::Done(Some(self.damaged(
                    start,
                    h.id.clone(),
                    FaultKind::Header,
                    "record cut short in its header (the next record starts there)".into(),
                    false,
                ))));
            }
            let l = line.trim_ascii_end();
            if l.is_empty() {
                break;
            }
            if !field_line(l) {
                // The header's blank line is missing (the HTTP head or the page follows the
                // fields straight away), or the header is damaged: its Content-Length cannot
                // be trusted to say where the record ends, so the next one is looked for.
                let shown = String::from_utf8_lossy(&l[..l.len().min(40)]).to_string();
                let msg = format!(
                    "WARC header line is not a field: {shown:?} (the header's blank line is missing, or the header is damaged)"
                );
                return Ok(Step::Done(Some(self.damaged(
                    start,
                    h.id.clone(),
                    FaultKind::Header,
                    msg,
                    true,
                ))));
            }
            h.add(l);
        }
        Ok(Step::Go(h))
    }

    /// True when `line`, just read where a record should start and not a version line, is a
    /// damaged or missing version line: a WARC header (fields with a Content-Length and a
    /// WARC-Type or a WARC-Record-ID, then the blank line) follows it, or starts with it (then
    /// it is put back, to be read as the header's first field).
    fn header_follows(&mut self, line: &mut Vec<u8>) -> io::Result<bool> {
        let field = field_line(line.trim_ascii_end());
        let own = self.member.is_some_and(|m| m.1);
        if own {
            // Only this record's member is looked at (see `read_one`).
            self.r.stop_at_member_end(true);
        }
        let mut head = b"WARC/1.0\r\n".to_vec();
        if field {
            head.extend_from_slice(line);
        }
        head.extend_from_slice(self.r.peek(MID_LINE_PEEK)?);
        let found = Headers::parse(&head).is_some_and(|(h, _)| {
            h.content_length.is_some() && (!h.kind.is_empty() || h.id.is_some())
        });
        if found && field {
            self.push_back(std::mem::take(line));
        }
        if own && !found {
            // The search for the next record goes on past this member.
            self.r.stop_at_member_end(false);
        }
        Ok(found)
    }

    /// A record that is not a page: skipped for `reason`, or a fault when its header has no
    /// `WARC-Type` (WARC 1.1 section 5.5: every record has one; a header without it is
    /// damaged, and what the record is cannot be told).
    fn not_page(&mut self, start: u64, h: &Headers, reason: SkipReason) -> Item {
        if let Some(msg) = self.bad_version.take() {
            self.fault(start, h.id.clone(), FaultKind::Header, msg)
        } else if h.kind.is_empty() {
            self.fault(start, h.id.clone(), FaultKind::Header, UNTYPED.into())
        } else {
            Item::Skip(reason)
        }
    }

    fn over_limit(&self, start: u64, h: &Headers, len: u64) -> Item {
        let msg = format!(
            "record of {len} bytes over the record limit of {} bytes",
            self.max_record_bytes
        );
        self.fault(start, h.id.clone(), FaultKind::Limit, msg)
    }

    /// Reads up to `len` bytes of block into `block`: fewer when the input ends, when the
    /// record's own gzip member ends and the next member starts a record, or when a gzip
    /// member that starts with `WARC/` comes (no block runs into the next record's member).
    fn read_block(&mut self, len: u64, block: &mut Vec<u8>) -> io::Result<()> {
        let mut left = len;
        while left > 0 {
            let empty = self.r.fill_buf()?.is_empty();
            if empty {
                if !self.r.at_member_end() {
                    return Ok(());
                }
                // The record's own member ended inside the block: the record goes on in the
                // next member only when that member does not start a record.
                self.r.stop_at_member_end(false);
                let next = self.r.fill_buf()?;
                if next.is_empty() || b"WARC/".starts_with(&next[..next.len().min(5)]) {
                    self.r.stop_at_member_end(true);
                    return Ok(());
                }
                continue;
            }
            if self.at_member_start() && self.r.fill_buf()?.starts_with(b"WARC/") {
                return Ok(());
            }
            let buf = self.r.fill_buf()?;
            let n = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
            block.extend_from_slice(&buf[..n]);
            self.consume(n);
            left -= n as u64;
        }
        Ok(())
    }

    /// What follows a complete block. White space after it is consumed (the CRLF CRLF that
    /// ends a record). A record in its own gzip member ends with the member, whose trailer is
    /// checked here: a CRC32 or ISIZE that does not match is the error.
    fn record_end(&mut self, own: bool, ws_seen: &mut Vec<u8>) -> io::Result<End> {
        let mut newlines = 0;
        loop {
            let buf = match self.r.fill_buf() {
                Ok(b) => b,
                Err(e) if own => return Err(e),
                Err(e) => {
                    // In the next gzip member: its record's error, not this one's.
                    self.deferred = Some(e);
                    return Ok(End::Record);
                }
            };
            let ws = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
            let empty = buf.is_empty();
            let nl = bytecount::count(&buf[..ws], b'\n');
            let white = buf[..ws].to_vec();
            if empty || (!own && self.at_member_start()) {
                return Ok(End::Record);
            }
            if ws > 0 {
                newlines += nl;
                ws_seen.extend_from_slice(&white);
                self.consume(ws);
                continue;
            }
            // CRLF CRLF ends a record (WARC 1.1 section 4); what comes after it is the next
            // record's business (junk there is reported as junk).
            if newlines >= 2 || ws_seen.len() > MAX_HEADER_BYTES {
                // (Not `peek`: bytes it takes would hide a gzip member from `read_one`.)
                if self.r.fill_buf()?.starts_with(b"WARC/") {
                    return Ok(End::Record);
                }
                return Ok(End::Loose);
            }
            let head = self.r.peek(5)?;
            return Ok(
                if b"WARC/".starts_with(head) || head.starts_with(b"WARC/") {
                    End::Record
                } else {
                    End::Junk
                },
            );
        }
    }

    fn page_item(&mut self, h: Headers, block: Vec<u8>, start: u64) -> Item {
        if let Some(msg) = self.bad_version.take() {
            self.pool.put(block);
            return self.fault(start, h.id, FaultKind::Header, msg);
        }
        let place = self.place(start);
        record_item(&place, h, block, 0, self.max_record_bytes, &self.pool)
    }
}

impl Place {
    /// The fault of the record here, named `id` when its head got that far.
    pub(crate) fn fault(&self, id: Option<String>, kind: FaultKind, message: String) -> Item {
        Item::Fault(Fault {
            place: Place { id, ..self.clone() },
            kind,
            message,
        })
    }
}

/// The kind of a record cut short by a read error: the decoder's damage, else the framing
/// (the input ended inside the record).
fn cut_kind(e: &io::Error) -> FaultKind {
    super::compress::damage_kind(e).unwrap_or(FaultKind::Framing)
}

/// True for the media types pith extracts: HTML and XHTML (parameters ignored).
fn is_html_type(t: &str) -> bool {
    let t = t.split(';').next().unwrap_or("").trim();
    t.eq_ignore_ascii_case("text/html") || t.eq_ignore_ascii_case("application/xhtml+xml")
}

/// The item for a wanted record (`response` or `resource`) whose block is `buf[at..]`.
pub(crate) fn record_item(
    place: &Place,
    h: Headers,
    buf: Vec<u8>,
    at: usize,
    max: usize,
    pool: &super::Pool,
) -> Item {
    let mut rec = Record {
        place: Place {
            id: h.id.clone(),
            url: h.url,
            ..place.clone()
        },
        warc_date: h.date,
        ..Record::default()
    };
    let block = buf.get(at..).unwrap_or(&[]);
    if h.kind == "resource" {
        if !h.content_type.as_deref().is_some_and(is_html_type) {
            pool.put(buf);
            return Item::Skip(SkipReason::ResourceNotHtml);
        }
        if let Some(n) = &h.segment {
            pool.put(buf);
            return place.fault(h.id.clone(), FaultKind::Framing, segmented(n));
        }
        rec.html = buf;
        rec.html_start = at;
        return Item::Page(Box::new(rec));
    }
    let Some(resp) = http::parse(block) else {
        pool.put(buf);
        return Item::Skip(SkipReason::ResponseWithoutHttp);
    };
    if let Some(reason) = resp.skip_reason() {
        pool.put(buf);
        return Item::Skip(reason);
    }
    if let Some(n) = &h.segment {
        pool.put(buf);
        return place.fault(h.id.clone(), FaultKind::Framing, segmented(n));
    }
    let decoded = resp.payload(max);
    let head_len = block.len() - resp.body.len();
    rec.charset = resp.charset;
    rec.content_language = resp.content_language;
    match decoded {
        Ok(Some(p)) => {
            rec.html = p;
            pool.put(buf);
        }
        Ok(None) => {
            // The body as stored: it stays where it is, behind the HTTP head.
            rec.html = buf;
            rec.html_start = at + head_len;
        }
        Err(msg) => {
            pool.put(buf);
            return place.fault(h.id, msg.kind(), msg.to_string());
        }
    }
    Item::Page(Box::new(rec))
}

/// What a page record that is one segment of a larger record (WARC 1.1 section 5.15) is
/// reported as: its block holds only part of the page, and segments are not joined.
fn segmented(number: &str) -> String {
    format!(
        "segmented record (WARC-Segment-Number {number}): it holds only part of its page, and segments are not joined"
    )
}

/// Why a response is skipped, decided from the start of its block (`block_head`) when the
/// whole HTTP head is there or the block is not HTTP; `None` when it is a page or it cannot be
/// told yet. The split reader and this one decide the same from the same bytes.
pub(crate) fn response_skip(block_head: &[u8]) -> Option<SkipReason> {
    let find = |p: &[u8]| memchr::memmem::find(block_head, p);
    let head_end = find(b"\n\r\n").or_else(|| find(b"\n\n"));
    if head_end.is_some() || !block_head.starts_with(b"HTTP/") {
        match http::parse(block_head) {
            None => return Some(SkipReason::ResponseWithoutHttp),
            Some(resp) => return resp.skip_reason(),
        }
    }
    None
}

pub(crate) fn skip_reason(kind: &str) -> SkipReason {
    match kind {
        "request" => SkipReason::Request,
        "metadata" => SkipReason::Metadata,
        "warcinfo" => SkipReason::Warcinfo,
        "revisit" => SkipReason::Revisit,
        "conversion" => SkipReason::Conversion,
        "continuation" => SkipReason::Continuation,
        _ => SkipReason::OtherRecordType,
    }
}

#[derive(Default, Debug, Clone)]
pub(crate) struct Headers {
    pub kind: String,
    pub id: Option<String>,
    pub url: Option<String>,
    pub date: Option<String>,
    pub content_type: Option<String>,
    pub content_length: Option<u64>,
    /// `WARC-Segment-Number`: the record is one segment of a larger one.
    pub segment: Option<String>,
}

impl Headers {
    /// Parses the WARC header at the start of `head` (version line, fields, empty line; CRLF,
    /// LF or CR line ends, as [`Reader`] reads them). `None` when `head` does not start with
    /// one, a line is not a field ([`field_line`]), or it does not end within `head`; else the
    /// fields and the header's length in bytes, empty line included.
    pub(crate) fn parse(head: &[u8]) -> Option<(Headers, usize)> {
        if !head.starts_with(b"WARC/") {
            return None;
        }
        let mut h = Headers::default();
        let (_, mut pos) = line_end(head, 0, false)?;
        loop {
            let (end, next) = line_end(head, pos, false)?;
            let line = head[pos..end].trim_ascii_end();
            pos = next;
            if line.is_empty() {
                return Some((h, pos));
            }
            if !field_line(line) {
                return None;
            }
            h.add(line);
        }
    }

    fn add(&mut self, line: &[u8]) {
        let Some((name, value)) = http::header_field(line) else {
            return;
        };
        match name.as_str() {
            "warc-type" => self.kind = value.to_ascii_lowercase(),
            "warc-record-id" => self.id = Some(value),
            // WARC 1.0 allows `<uri>` in angle brackets (seen in wget output).
            "warc-target-uri" => self.url = Some(value.trim_matches(['<', '>']).to_string()),
            "warc-date" => self.date = Some(value),
            "content-type" => self.content_type = Some(value),
            "content-length" => self.content_length = value.parse().ok(),
            "warc-segment-number" => self.segment = Some(value),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_lines_end_at_lf_crlf_or_cr() {
        for end in ["\r\n", "\n", "\r"] {
            let head = [
                "WARC/1.0",
                "WARC-Type: response",
                "Content-Length: 7",
                "",
                "<p>x",
            ]
            .join(end);
            let (h, len) = Headers::parse(head.as_bytes()).unwrap();
            assert_eq!((h.kind.as_str(), h.content_length), ("response", Some(7)));
            assert_eq!(&head.as_bytes()[len..], b"<p>x", "{end:?}");
        }
        // A CR at the end of what is there may be the first half of a CRLF: not decided.
        assert!(Headers::parse(b"WARC/1.0\r\nContent-Length: 7\r").is_none());
        assert!(version_line(b"WARC/1.0\rWARC-Type: x"));
    }

    #[test]
    fn a_header_line_that_is_not_a_field_is_no_header() {
        assert!(field_line(b"WARC-Type: response"));
        assert!(field_line(b"X-Odd-Name : value"));
        assert!(field_line(b"  continued value"));
        assert!(!field_line(b"HTTP/1.1 200 OK"));
        assert!(!field_line(b"<html><a href=\"http://x\">"));
        assert!(!field_line(b": no name"));
        let no_blank =
            b"WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 5\r\nHTTP/1.1 200 OK\r\n\r\nhello";
        assert!(Headers::parse(no_blank).is_none());
    }

    fn items(bytes: &[u8]) -> Vec<String> {
        let mut r = Reader::new(bytes, "t".into(), 1 << 20);
        let mut out = Vec::new();
        while let Some(item) = r.next_item() {
            out.push(match item {
                Item::Page(p) => format!("page {:?}", p.place.id),
                Item::Skip(why) => format!("skip {why}"),
                Item::Fault(f) => format!("fault {:?} {}", f.place.id, f.message),
                _ => "other".into(),
            });
        }
        out
    }

    fn record(id: &str, head: &str, end: &str) -> Vec<u8> {
        let block = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>page</p>";
        let mut r = format!(
            "WARC/1.0{end}{head}WARC-Record-ID: {id}{end}Content-Length: {}{end}{end}",
            block.len()
        )
        .into_bytes();
        r.extend_from_slice(block.as_bytes());
        r.extend_from_slice(b"\r\n\r\n");
        r
    }

    #[test]
    fn damaged_headers_are_faults_and_the_next_record_is_read() {
        let ok = |id: &str| record(id, "WARC-Type: response\r\n", "\r\n");
        let untyped = record("<b>", "", "\r\n");
        let cr = record("<c>", "WARC-Type: response\r", "\r");
        let mut no_blank = ok("<d>");
        let at = memchr::memmem::find(&no_blank, b"\r\n\r\nHTTP").unwrap();
        no_blank.drain(at..at + 2);
        let file = [ok("<a>"), untyped, cr, no_blank, ok("<e>")].concat();
        assert_eq!(
            items(&file),
            [
                "page Some(\"<a>\")",
                "fault Some(\"<b>\") WARC header without WARC-Type",
                "page Some(\"<c>\")",
                "fault Some(\"<d>\") WARC header line is not a field: \"HTTP/1.1 200 OK\" (the header's blank line is missing, or the header is damaged)",
                "page Some(\"<e>\")",
            ]
        );
    }

    #[test]
    fn a_segmented_record_is_a_fault_its_continuation_a_skip() {
        let first = record(
            "<s>",
            "WARC-Type: response\r\nWARC-Segment-Number: 1\r\n",
            "\r\n",
        );
        let cont = record(
            "<t>",
            "WARC-Type: continuation\r\nWARC-Segment-Number: 2\r\n",
            "\r\n",
        );
        let got = items(&[first, cont].concat());
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(
            got[0].starts_with("fault Some(\"<s>\") segmented record"),
            "{got:?}"
        );
        assert_eq!(got[1], "skip continuation");
    }
}
