//! WARC records (ISO 28500: WARC/1.0 and 1.1, and the 0.17 / 0.18 drafts Heritrix 1.x and
//! ClueWeb09 wrote, which use the same named-header layout): a version line, header fields, a
//! blank line, `Content-Length` bytes of block, then CRLF CRLF (some writers put one CRLF).
//!
//! The reader streams: a block is read only when the record is wanted and under the size
//! limit; others are skipped by discarding their bytes, or, in a file with one gzip member per
//! record, by dropping the rest of their member without inflating it (so a record over
//! `--max-record-bytes`, a gzip bomb included, costs no more than its compressed size to skip).
//! A malformed header, a block cut short or a corrupt gzip member is a [`Fault`]; the reader
//! then looks for the next line that starts with `WARC/` (WARC 1.1 section 4: a record is a
//! version line, named fields, CRLF, block, CRLF CRLF) and goes on.

use std::io::{self, BufRead, Read};

use super::{Fault, Item, Record, Source, http};

/// Skipped blocks at least this long are dropped with their gzip member instead of inflated
/// (smaller ones are mostly buffered already, and inflating them keeps offsets exact).
const RAW_SKIP_MIN: u64 = 64 << 10;

/// Header lines longer than this, or more of them than this, are not a WARC header.
const MAX_HEADER_BYTES: usize = 64 << 10;

/// Reads WARC records from a (decompressed) stream.
pub struct Reader<R: Source> {
    r: R,
    source: std::sync::Arc<str>,
    /// Bytes consumed so far (offsets in messages are into the decompressed stream).
    offset: u64,
    index: u64,
    max_record_bytes: usize,
    done: bool,
    /// Resynchronise before reading the next header.
    lost: bool,
    /// gzip input where every record so far started its own member (WARC 1.1 Annex D.2): the
    /// rest of a record can be skipped by skipping its member.
    per_record: bool,
    /// Where the record being read starts: its gzip member's file offset, and whether the
    /// record is that member's first byte.
    member: Option<(u64, bool)>,
    /// Where block buffers come from.
    pub pool: super::Pool,
    /// Records found inside the block of a record whose Content-Length was too large, read
    /// before going on with the stream.
    rescue: Option<Box<Reader<io::Cursor<Vec<u8>>>>>,
}

impl Source for io::Cursor<Vec<u8>> {}

/// How many `WARC/` lines inside a block are tried as a record start when its Content-Length
/// proved too large: enough for real lies, few enough that a block of such lines stays linear.
const RESCUE_CANDIDATES: usize = 8;

/// Where the first record header inside `block` starts, if one does (a line `WARC/...` with
/// fields and a Content-Length, within `MAX_HEADER_BYTES`).
fn embedded_record(block: &[u8]) -> Option<usize> {
    memchr::memmem::find_iter(block, b"\nWARC/")
        .take(RESCUE_CANDIDATES)
        .map(|i| i + 1)
        .find(|&at| {
            let head = &block[at..block.len().min(at + MAX_HEADER_BYTES)];
            Headers::parse(head).is_some_and(|(h, _)| h.content_length.is_some())
        })
}

impl<R: Source> Reader<R> {
    pub fn new(r: R, source: std::sync::Arc<str>, max_record_bytes: usize) -> Self {
        Reader {
            r,
            source,
            offset: 0,
            index: 0,
            max_record_bytes,
            done: false,
            lost: false,
            per_record: true,
            member: None,
            pool: super::Pool::default(),
            rescue: None,
        }
    }

    /// Goes on from another reader: the next record is number `index + 1`, at decompressed
    /// offset `offset`.
    pub fn resume(&mut self, index: u64, offset: u64) {
        self.index = index;
        self.offset = offset;
    }

    fn fault(&self, offset: u64, id: Option<String>, message: String) -> Item {
        Item::Fault(Fault {
            source: self.source.clone(),
            index: self.index,
            offset,
            member_offset: self.member.map(|m| m.0),
            id,
            message,
        })
    }

    /// Skips `len` bytes of block (and, when its member goes, the CRLF CRLF after it); returns
    /// how many were there (fewer when the input ends first).
    fn skip_block(&mut self, len: u64) -> io::Result<u64> {
        let own_member = self.member.is_some_and(|m| m.1);
        if own_member && self.per_record && len >= RAW_SKIP_MIN {
            // The decompressed length of what is skipped is taken from the header, so later
            // offsets stay right as long as the record was whole.
            let resume = self.offset + len + 4;
            if self.r.skip_member(resume) {
                self.offset = resume;
                return Ok(len);
            }
        }
        self.discard(len)
    }

    /// Reads one line (with its `\n`) into `line`, at most `MAX_HEADER_BYTES`.
    fn line(&mut self, line: &mut Vec<u8>) -> io::Result<usize> {
        line.clear();
        let n = (&mut self.r)
            .take(MAX_HEADER_BYTES as u64)
            .read_until(b'\n', line)?;
        self.offset += n as u64;
        Ok(n)
    }

    /// Skips to the next line that starts with `WARC/`, leaving it unread.
    fn resync(&mut self) -> io::Result<bool> {
        let mut at_line_start = true;
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
            if self.r.member().is_some_and(|(out, _)| out == self.offset) {
                at_line_start = true;
            }
            // Buffered already: this second call reads nothing.
            let buf = self.r.fill_buf()?;
            if at_line_start && buf.len() >= 5 && buf.starts_with(b"WARC/") {
                return Ok(true);
            }
            if at_line_start && buf.len() < 5 && b"WARC/".starts_with(buf) {
                // Too few bytes buffered to decide; consume one to make progress.
                self.r.consume(1);
                self.offset += 1;
                at_line_start = false;
                continue;
            }
            match memchr::memchr(b'\n', buf) {
                Some(i) => {
                    self.r.consume(i + 1);
                    self.offset += i as u64 + 1;
                    at_line_start = true;
                }
                None => {
                    let n = buf.len();
                    self.r.consume(n);
                    self.offset += n as u64;
                    at_line_start = false;
                }
            }
        }
    }

    fn discard(&mut self, n: u64) -> io::Result<u64> {
        let got = io::copy(&mut (&mut self.r).take(n), &mut io::sink())?;
        self.offset += got;
        Ok(got)
    }

    /// The next record, skip or fault; `None` at the end.
    pub fn next_item(&mut self) -> Option<Item> {
        if let Some(r) = self.rescue.as_mut() {
            if let Some(item) = r.next_item() {
                return Some(item);
            }
            self.index = r.index;
            self.rescue = None;
        }
        if self.done {
            return None;
        }
        match self.read_record() {
            Ok(Some(item)) => Some(item),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.lost = true;
                // The member the failure is in (not the last record's).
                if let Some((_, raw)) = self.r.member() {
                    self.member = Some((raw, false));
                }
                let at = self.offset;
                Some(self.fault(at, None, format!("read error: {e}")))
            }
        }
    }

    fn read_record(&mut self) -> io::Result<Option<Item>> {
        if self.lost {
            self.lost = false;
            if !self.resync()? {
                return Ok(None);
            }
        }
        let mut line = Vec::new();
        // Skip blank lines between records.
        loop {
            if self.line(&mut line)? == 0 {
                return Ok(None);
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
        if !line.starts_with(b"WARC/") {
            self.lost = true;
            let shown = String::from_utf8_lossy(&line[..line.len().min(40)])
                .trim()
                .to_string();
            return Ok(Some(self.fault(
                start,
                None,
                format!("not a WARC record header: {shown:?}"),
            )));
        }
        let mut h = Headers::default();
        let mut header_bytes = 0;
        loop {
            let n = self.line(&mut line)?;
            if n == 0 {
                return Ok(Some(self.fault(
                    start,
                    h.id.clone(),
                    "record cut short in its header".into(),
                )));
            }
            header_bytes += n;
            if header_bytes > MAX_HEADER_BYTES {
                self.lost = true;
                return Ok(Some(self.fault(
                    start,
                    h.id.clone(),
                    "WARC header too long".into(),
                )));
            }
            let l = line.trim_ascii_end();
            if l.is_empty() {
                break;
            }
            h.add(l);
        }
        let Some(len) = h.content_length else {
            self.lost = true;
            return Ok(Some(self.fault(
                start,
                h.id.clone(),
                "WARC header without Content-Length".into(),
            )));
        };
        let wanted = matches!(h.kind.as_str(), "response" | "resource");
        if !wanted {
            self.skip_block(len)?;
            return Ok(Some(Item::Skip(skip_reason(&h.kind))));
        }
        if len > self.max_record_bytes as u64 {
            let got = self.skip_block(len)?;
            let msg = format!(
                "record of {len} bytes over --max-record-bytes {}",
                self.max_record_bytes
            );
            if got < len {
                return Ok(Some(self.fault(
                    start,
                    h.id.clone(),
                    "record cut short".into(),
                )));
            }
            return Ok(Some(self.fault(start, h.id.clone(), msg)));
        }
        let mut block = self.pool.get();
        block.reserve(len as usize);
        let got = match (&mut self.r).take(len).read_to_end(&mut block) {
            Ok(n) => n,
            Err(e) => {
                self.offset += block.len() as u64;
                self.lost = true;
                return Ok(Some(self.fault(
                    start,
                    h.id.clone(),
                    format!("record cut short: {e}"),
                )));
            }
        };
        self.offset += got as u64;
        // A Content-Length too large shows as a block the input ends inside, or (plain input)
        // one not followed by the CRLF that ends a record. If such a block holds a record
        // header, the records from there on are read out of it instead of lost with it.
        let cut_short = (got as u64) < len;
        if (cut_short || !self.record_end_follows())
            && let Some(at) = embedded_record(&block)
        {
            let block_start = self.offset - got as u64;
            let rest = block.split_off(at);
            self.pool.put(block);
            let mut r = Reader::new(
                io::Cursor::new(rest),
                self.source.clone(),
                self.max_record_bytes,
            );
            r.resume(self.index, block_start + at as u64);
            r.pool = self.pool.clone();
            self.rescue = Some(Box::new(r));
            let msg = format!(
                "Content-Length {len} runs past the next record (at byte {})",
                block_start + at as u64
            );
            return Ok(Some(self.fault(start, h.id.clone(), msg)));
        }
        if cut_short {
            return Ok(Some(self.fault(
                start,
                h.id.clone(),
                format!("record cut short ({got} of {len} bytes)"),
            )));
        }
        Ok(Some(self.to_item(h, block, start)))
    }

    /// After a block: whether what follows can end a record (CR, LF or the end of input).
    /// Only asked of plain input: peeking into gzip members could take the one error a
    /// corrupt member gives, which must reach the reader that reports it.
    fn record_end_follows(&mut self) -> bool {
        if self.r.member().is_some() {
            return true;
        }
        match self.r.fill_buf() {
            Ok(buf) => buf.first().is_none_or(|&b| b == b'\r' || b == b'\n'),
            Err(_) => true,
        }
    }

    fn to_item(&self, h: Headers, block: Vec<u8>, start: u64) -> Item {
        let place = Place {
            source: self.source.clone(),
            index: self.index,
            offset: start,
            member_offset: self.member.map(|m| m.0),
        };
        record_item(&place, h, block, 0, self.max_record_bytes, &self.pool)
    }
}

/// Where a record sits in its input: what its [`Record`] or [`Fault`] says.
#[derive(Clone, Debug)]
pub(crate) struct Place {
    pub source: std::sync::Arc<str>,
    pub index: u64,
    pub offset: u64,
    pub member_offset: Option<u64>,
}

impl Place {
    pub(crate) fn fault(&self, id: Option<String>, message: String) -> Item {
        Item::Fault(Fault {
            source: self.source.clone(),
            index: self.index,
            offset: self.offset,
            member_offset: self.member_offset,
            id,
            message,
        })
    }
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
        source: place.source.clone(),
        index: place.index,
        offset: place.offset,
        member_offset: place.member_offset,
        id: h.id.clone(),
        url: h.url,
        warc_date: h.date,
        ..Record::default()
    };
    let block = buf.get(at..).unwrap_or(&[]);
    if h.kind == "resource" {
        if !h.content_type.as_deref().is_some_and(is_html_type) {
            pool.put(buf);
            return Item::Skip("resource not HTML");
        }
        rec.html = buf;
        rec.html_start = at;
        return Item::Page(Box::new(rec));
    }
    let Some(resp) = http::parse(block) else {
        pool.put(buf);
        return Item::Skip("response without HTTP");
    };
    if let Some(reason) = resp.skip_reason() {
        pool.put(buf);
        return Item::Skip(reason);
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
            return place.fault(h.id, msg);
        }
    }
    Item::Page(Box::new(rec))
}

pub(crate) fn skip_reason(kind: &str) -> &'static str {
    match kind {
        "request" => "request",
        "metadata" => "metadata",
        "warcinfo" => "warcinfo",
        "revisit" => "revisit",
        "conversion" => "conversion",
        _ => "other record type",
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
}

impl Headers {
    /// Parses the WARC header at the start of `head` (version line, fields, empty line; CRLF
    /// or LF line ends). `None` when `head` does not start with one or it does not end within
    /// `head`; else the fields and the header's length in bytes, empty line included.
    pub fn parse(head: &[u8]) -> Option<(Headers, usize)> {
        if !head.starts_with(b"WARC/") {
            return None;
        }
        let mut h = Headers::default();
        let mut pos = memchr::memchr(b'\n', head)? + 1;
        loop {
            let nl = memchr::memchr(b'\n', head.get(pos..)?)? + pos;
            let line = head[pos..nl].trim_ascii_end();
            pos = nl + 1;
            if line.is_empty() {
                return Some((h, pos));
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
            _ => {}
        }
    }
}
