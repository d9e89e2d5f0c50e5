//! Parallel inflate for WARC files with one gzip member per record (WARC 1.1 Annex D.2).
//!
//! Inflating is most of the cost of reading a `.warc.gz` (zlib-rs gives about 400 MB/s of
//! output per core, a few times less than extraction needs to be fed at `-j 8`), so the reader
//! does not inflate records. It inflates only the first bytes of each member (the WARC header,
//! and the HTTP head of a response) to number, classify and skip records, finds where the
//! member ends in the compressed bytes, and hands the compressed member of each wanted record
//! to a worker ([`Member::finish`]), which inflates it. The first 1 KiB is inflated once, by
//! the boundary check that finds the member; when it holds the WARC header and HTTP head of a
//! wanted record larger than 4 KiB, that decides it, and the rest of the 4 KiB head is left to
//! the worker; otherwise the 4 KiB head decides, as the sequential reader does.
//!
//! Where a member ends is found without inflating it: at the next gzip header (`1f 8b 08`,
//! reserved flag bits clear) whose four preceding bytes, the trailer's ISIZE (RFC 1952 section
//! 2.3.1: the input size modulo 2^32), equal the record's size as its header states it: header
//! length + Content-Length + 4 (the CRLF CRLF that ends a record, WARC 1.1 section 4). Three
//! bytes of compressed data can look like a gzip header; with the size, a false boundary needs
//! seven bytes to match at once. The last member ends at the end of input, checked the same way.
//!
//! Whenever the layout is not that (whole-file gzip, several records in a member, bytes
//! between members, a header that does not parse, a member that does not end where its record
//! says, a member larger than the record limit), the rest of the input, from the member at
//! hand on, goes to the sequential reader ([`warc::Reader`] over [`gzip::Members`]), which
//! handles every fault; the split only ever acts on what it has checked (a member corrupt within
//! its head goes there too). A worker that finds a member damaged (CRC32, ISIZE, a record that
//! does not fill it) has the sequential reader read that member alone, so that `-j 1` and `-j N`
//! report the same damage the same way. Skipped records under
//! [`warc::RAW_SKIP_MIN`] are inflated by a worker too, to check their member as `-j 1` does.

use std::io::{self, BufReader, Cursor, Read};
use std::sync::Arc;

use flate2::bufread::GzDecoder;

use super::warc::{self, Headers};
use super::{BUF, Item, Pool, Stream, gzip, jsonl};
use super::{FaultKind, Place};

/// Raw bytes read at a time.
const READ: u64 = 1 << 20;
/// Decompressed bytes of a member's start inflated by the reader ([`warc::MEMBER_HEAD`])...
const HEAD: u64 = warc::MEMBER_HEAD;
/// ...and when the WARC header does not, this much (the sequential reader's header limit).
const HEAD_MAX: u64 = 64 << 10;
/// Decompressed bytes inflated first: a WARC header and HTTP head mostly fit, and when they
/// decide what [`HEAD`] bytes would ([`Splitter::quick_ship`]), the rest of the head is not
/// inflated.
const FIRST: u64 = 1 << 10;
/// Raw bytes wanted in hand before inflating a head (a head rarely needs more).
const HEAD_RAW: usize = 64 << 10;
/// Raw bytes wanted in hand after a boundary candidate, to check that a record starts there.
const PEEK: usize = 4 << 10;
/// The smallest gzip member: 10 bytes of header, 2 of deflate, 8 of trailer.
const MIN_MEMBER: usize = 20;

/// A record handed out unread, for a worker to read ([`Member::finish`]): a gzip member of a
/// WARC with one member per record, or a JSON line not yet parsed.
#[derive(Debug)]
pub struct Member(Deferred);

#[derive(Debug)]
enum Deferred {
    Gzip(Box<Compressed>),
    Line(jsonl::Line),
}

/// A wanted record still compressed: inflated and turned into an [`Item`] by a worker.
#[derive(Debug)]
struct Compressed {
    place: Place,
    /// A record skipped by its header, inflated only to check its member (as the sequential
    /// reader does for skipped records under [`warc::RAW_SKIP_MIN`]): the reason it is skipped.
    skip: Option<super::SkipReason>,
    headers: Headers,
    header_len: usize,
    len: usize,
    raw: Vec<u8>,
    max: usize,
}

impl Member {
    /// A JSON line to be parsed by a worker.
    pub(crate) fn line(line: jsonl::Line) -> Member {
        Member(Deferred::Line(line))
    }

    /// Bytes it holds (compressed, or the line's).
    pub fn raw_len(&self) -> usize {
        match &self.0 {
            Deferred::Gzip(c) => c.raw.len(),
            Deferred::Line(l) => l.len(),
        }
    }

    /// Reads the record: a page, a skip or a fault.
    pub fn finish(self, pool: &Pool) -> Item {
        match self.0 {
            Deferred::Gzip(c) => c.finish(pool),
            Deferred::Line(l) => l.parse(),
        }
    }
}

impl Compressed {
    /// Inflates the member and reads the record in it: a page, a skip or a fault.
    fn finish(self, pool: &Pool) -> Item {
        let want = self.header_len + self.len + 4;
        let mut out = pool.get();
        out.reserve(want);
        let read = GzDecoder::new(&self.raw[..])
            .take(want as u64 + 1)
            .read_to_end(&mut out);
        let end_ok = out
            .get(self.header_len + self.len..)
            .is_some_and(|end| end.iter().all(u8::is_ascii_whitespace));
        if read.is_err() || out.len() != want || !end_ok {
            // Damaged: the sequential reader reads the member, so that the same damage gives
            // the same message whichever reader met it.
            pool.put(out);
            return self.reread(pool);
        }
        if let Some(reason) = self.skip {
            pool.put(out);
            return Item::Skip(reason);
        }
        out.truncate(self.header_len + self.len);
        warc::record_item(
            &self.place,
            self.headers,
            out,
            self.header_len,
            self.max,
            pool,
        )
    }

    /// The item the sequential reader gives for this member, read on its own from where it
    /// is in the input.
    fn reread(self, pool: &Pool) -> Item {
        let place = self.place;
        let out = place.offset;
        let raw_at = place.member_offset.unwrap_or(0);
        let bytes: Box<dyn Read + Send> = Box::new(Cursor::new(self.raw));
        let mut members = gzip::Members::starting_at(BufReader::new(bytes), raw_at, out);
        members.expect_records(b"WARC/");
        let mut r = warc::Reader::new(
            Stream::Gzip(Box::new(members)),
            place.source.clone(),
            self.max,
        );
        r.resume(place.index.saturating_sub(1), out);
        if place.index > 1 {
            r.assume_per_record();
        }
        r.pool = pool.clone();
        r.next_item().unwrap_or_else(|| {
            place.fault(
                self.headers.id,
                FaultKind::Framing,
                "record cut short".into(),
            )
        })
    }
}

/// What the reader does with a record it has classified from its head.
enum Action {
    Skip(super::SkipReason),
    Fault(FaultKind, String),
    Ship,
}

/// Reads a gzip-per-record WARC member by member without inflating the records.
pub struct Splitter {
    raw: Option<Box<dyn Read + Send>>,
    /// Raw bytes read and not yet handed out are `data[start..]`...
    data: Vec<u8>,
    start: usize,
    /// ...and `data[0]` is at this file offset.
    data_pos: u64,
    eof: bool,
    source: Arc<str>,
    /// Records so far, and the decompressed offset of the next one.
    index: u64,
    out_pos: u64,
    max: usize,
    /// Where the workers' buffers come from.
    pub pool: Pool,
    /// The sequential reader, once the layout was not one record per member.
    fallback: Option<warc::Reader<Stream>>,
    /// The next member's head, when the check of the boundary before it inflated it.
    peeked: Option<Peeked>,
}

/// Inflates up to `n` bytes of the gzip member at the start of `all`: the bytes, the member's
/// compressed length when it ended within them, and whether inflating failed. A head cut by a
/// corrupt member keeps what was inflated; parsing decides. A member inflated whole (shorter
/// than the head) says exactly where it ends: its length.
fn inflate_head(all: &[u8], n: u64) -> (Vec<u8>, Option<usize>, bool) {
    // Room for all of it at once: `read_to_end` into an empty vector reads in small probes,
    // each too short for zlib's fast loop.
    let mut head = Vec::with_capacity(n as usize + 1);
    let mut d = GzDecoder::new(all);
    let read = (&mut d).take(n).read_to_end(&mut head);
    let whole = match read {
        Ok(got) if (got as u64) < n => Some(all.len() - d.into_inner().len()),
        _ => None,
    };
    (head, whole, read.is_err())
}

/// A member's head inflated ahead by the boundary check ([`Splitter::starts_record`]).
struct Peeked {
    /// The member's raw offset in the input.
    at: u64,
    head: Vec<u8>,
    whole: Option<usize>,
}

/// Finds `pattern` in `hay` from `from` on.
fn find(hay: &[u8], from: usize, pattern: &[u8]) -> Option<usize> {
    memchr::memmem::find(hay.get(from..)?, pattern).map(|i| i + from)
}

impl Splitter {
    /// A splitter of the gzip WARC `raw`, named `source`; records over `max` bytes are faults.
    pub fn new(raw: Box<dyn Read + Send>, source: Arc<str>, max: usize) -> Self {
        Splitter {
            raw: Some(raw),
            data: Vec::new(),
            start: 0,
            data_pos: 0,
            eof: false,
            source,
            index: 0,
            out_pos: 0,
            max,
            pool: Pool::default(),
            fallback: None,
            peeked: None,
        }
    }

    /// True once the sequential reader has taken over (the layout was not one record per
    /// member somewhere).
    pub fn fell_back(&self) -> bool {
        self.fallback.is_some()
    }

    /// Reads more raw bytes; false at the end of input.
    fn more(&mut self) -> io::Result<bool> {
        if self.start > 0 && self.start >= self.data.len() / 2 {
            self.data.drain(..self.start);
            self.data_pos += self.start as u64;
            self.start = 0;
        }
        let Some(raw) = self.raw.as_mut() else {
            self.eof = true;
            return Ok(false);
        };
        let n = raw.take(READ).read_to_end(&mut self.data)?;
        self.eof = n == 0;
        Ok(n > 0)
    }

    /// The next record, skip or fault; `None` at the end.
    pub fn next_item(&mut self) -> Option<Item> {
        loop {
            if let Some(f) = self.fallback.as_mut() {
                return f.next_item();
            }
            match self.split_one() {
                Ok(Some(Some(item))) => return Some(item),
                // An empty member: nothing to say.
                Ok(Some(None)) => continue,
                Ok(None) => return None,
                // Not one record per member here, or a read error: the sequential reader
                // takes over from this member and reports what is wrong.
                Err(()) => self.fall_back(),
            }
        }
    }

    /// Hands the rest of the input, from the member at `start`, to the sequential reader.
    fn fall_back(&mut self) {
        let rest = self.data.split_off(self.start.min(self.data.len()));
        let raw_at = self.data_pos + self.start as u64;
        let raw = self.raw.take().unwrap_or_else(|| Box::new(io::empty()));
        let chain: Box<dyn Read + Send> = Box::new(Cursor::new(rest).chain(raw));
        let mut members =
            gzip::Members::starting_at(BufReader::with_capacity(BUF, chain), raw_at, self.out_pos);
        members.expect_records(b"WARC/");
        let mut r = warc::Reader::new(
            Stream::Gzip(Box::new(members)),
            self.source.clone(),
            self.max,
        );
        r.resume(self.index, self.out_pos);
        if self.index > 0 {
            r.assume_per_record();
        }
        r.pool = self.pool.clone();
        self.fallback = Some(r);
    }

    /// One member: `Ok(None)` at the end, `Ok(Some(None))` for an empty member, `Err` when
    /// the sequential reader must take over.
    fn split_one(&mut self) -> Result<Option<Option<Item>>, ()> {
        while !self.eof && self.data.len() - self.start < HEAD_RAW {
            self.more().map_err(|_| ())?;
        }
        let s = self.start;
        if s >= self.data.len() {
            return Ok(None);
        }
        if !self.data[s..].starts_with(&[0x1f, 0x8b, 0x08]) {
            return Err(());
        }
        let at = self.data_pos + s as u64;
        let (first, first_whole, first_corrupt) = match self.peeked.take() {
            // The boundary check that found this member inflated its first bytes already.
            Some(p) if p.at == at => (p.head, p.whole, false),
            _ => inflate_head(&self.data[s..], FIRST),
        };
        let quick = if first_corrupt || first_whole.is_some() {
            None
        } else {
            self.quick_ship(&first)
        };
        let (headers, header_len, expected, action, whole, empty) = match quick {
            Some((h, header_len, expected)) => (h, header_len, expected, Action::Ship, None, false),
            None => {
                let (mut head, mut whole, mut corrupt) = inflate_head(&self.data[s..], HEAD);
                if head.len() as u64 == HEAD && Headers::parse(&head).is_none() {
                    (head, whole, corrupt) = inflate_head(&self.data[s..], HEAD_MAX);
                }
                if corrupt {
                    // A member corrupt within its head: the sequential reader reads it, so
                    // that what is reported does not depend on how much of it each reader
                    // inflated.
                    return Err(());
                }
                if head.is_empty() {
                    (
                        Headers::default(),
                        0,
                        0u64,
                        Action::Skip(super::SkipReason::OtherRecordType),
                        whole,
                        true,
                    )
                } else {
                    let (h, header_len) = Headers::parse(&head).ok_or(())?;
                    let len = h.content_length.ok_or(())?;
                    let expected = header_len as u64 + len + 4;
                    let action = self.classify(&h, &head[header_len..], len);
                    (h, header_len, expected, action, whole, false)
                }
            }
        };
        let e = self.member_end(expected)?;
        // Re-read: `more` may have moved the bytes left.
        let s = self.start;
        if whole.is_some_and(|len| len != e - s) {
            // Bytes after the member that are not a member (a damaged one, junk) whose last
            // four happen to equal the record's size: the sequential reader reports them.
            return Err(());
        }
        self.start = e;
        if empty {
            return Ok(Some(None));
        }
        self.index += 1;
        let place = Place {
            source: self.source.clone(),
            index: self.index,
            offset: self.out_pos,
            member_offset: Some(self.data_pos + s as u64),
            ..Place::default()
        };
        self.out_pos += expected;
        let len = expected as usize - header_len - 4;
        let ship = |skip| {
            Item::Member(Box::new(Member(Deferred::Gzip(Box::new(Compressed {
                place: place.clone(),
                skip,
                len,
                headers: headers.clone(),
                header_len,
                raw: self.data[s..e].to_vec(),
                max: self.max,
            })))))
        };
        Ok(Some(Some(match action {
            // Small skipped records are checked as the sequential reader checks them.
            Action::Skip(reason) if (len as u64) < warc::RAW_SKIP_MIN => ship(Some(reason)),
            Action::Skip(reason) => Item::Skip(reason),
            Action::Fault(kind, msg) => place.fault(headers.id, kind, msg),
            Action::Ship => ship(None),
        })))
    }

    /// The header, its length and the record's size, when the first bytes of a member
    /// ([`FIRST`], inflated without error and not the whole member) already decide what the
    /// [`HEAD`] bytes would: a record larger than `HEAD`, wanted and within the limit, whose
    /// HTTP head (for a response) ends within them. Such a record goes to a worker, which
    /// inflates all of it and has any damage past these bytes reported as the sequential
    /// reader reports it ([`Compressed::reread`]); every other record is decided from `HEAD`
    /// bytes as before.
    fn quick_ship(&self, first: &[u8]) -> Option<(Headers, usize, u64)> {
        let (h, header_len) = Headers::parse(first)?;
        let len = h.content_length?;
        let expected = header_len as u64 + len + 4;
        if expected <= HEAD {
            return None;
        }
        let block_head = first.get(header_len..)?;
        if h.kind == "response" {
            // The HTTP head must end here, so that more bytes could not change the verdict.
            let find = |p: &[u8]| memchr::memmem::find(block_head, p);
            find(b"\n\r\n").or_else(|| find(b"\n\n"))?;
        }
        match self.classify(&h, block_head, len) {
            Action::Ship => Some((h, header_len, expected)),
            _ => None,
        }
    }

    /// What to do with a record, from its header and the start of its block.
    fn classify(&self, h: &Headers, block_head: &[u8], len: u64) -> Action {
        match h.kind.as_str() {
            "response" | "resource" => {}
            "" => return Action::Fault(FaultKind::Header, warc::UNTYPED.into()),
            other => return Action::Skip(warc::skip_reason(other)),
        }
        if len > self.max as u64 {
            return Action::Fault(
                FaultKind::Limit,
                format!(
                    "record of {len} bytes over the record limit of {} bytes",
                    self.max
                ),
            );
        }
        if h.kind == "response"
            && let Some(reason) = warc::response_skip(block_head)
        {
            return Action::Skip(reason);
        }
        Action::Ship
    }

    /// True when the member at `data[p]` is empty or starts a record: the last check of a
    /// boundary, against a record whose stored bytes hold a gzip file (stored blocks keep it
    /// raw) right after four bytes that happen to equal the record's size.
    fn starts_record(&mut self, p: usize) -> bool {
        // The member's head, inflated as `split_one` will want it when the boundary holds:
        // kept, so that each member's first deflate block is decoded once. Only a head read
        // without error is kept or judged here; any other goes the five-byte way below.
        let (head, whole, corrupt) = inflate_head(&self.data[p..], FIRST);
        if !corrupt {
            let starts = head.is_empty() || head.starts_with(b"WARC/");
            if starts {
                self.peeked = Some(Peeked {
                    at: self.data_pos + p as u64,
                    head,
                    whole,
                });
            }
            return starts;
        }
        let mut first = Vec::new();
        let _ = GzDecoder::new(&self.data[p..])
            .take(5)
            .read_to_end(&mut first);
        first.is_empty() || first == b"WARC/"
    }

    /// Where the member starting at `data[start]` ends (an index into `data`, which `more`
    /// may compact), checked by its trailer's ISIZE; `Err` when it does not end within the
    /// record limit or at all.
    fn member_end(&mut self, expected: u64) -> Result<usize, ()> {
        let isize = (expected as u32).to_le_bytes();
        let mut from = self.start + MIN_MEMBER;
        let limit = self.max.max(1 << 20) + (1 << 20);
        loop {
            let s = self.start;
            let mut unread_candidate = None;
            while let Some(p) = find(&self.data, from, &[0x1f, 0x8b, 0x08]) {
                if p + PEEK > self.data.len() && !self.eof {
                    // Too little of the candidate is read to check it.
                    unread_candidate = Some(p);
                    break;
                }
                let flg_ok = self.data.get(p + 3).is_none_or(|f| f & 0xe0 == 0);
                if flg_ok && p >= s + MIN_MEMBER && self.starts_record(p) {
                    if self.data[p - 4..p] == isize {
                        return Ok(p);
                    }
                    // A member that starts a record, after a trailer of another size: the
                    // member at hand holds more (or less) than its record. Looking further
                    // would swallow that record into this member (and, when the last
                    // member's size matches, every record up to the end), so the sequential
                    // reader takes over here.
                    return Err(());
                }
                from = p + 1;
            }
            if self.eof {
                let n = self.data.len();
                return if n >= s + MIN_MEMBER && self.data[n - 4..] == isize {
                    Ok(n)
                } else {
                    Err(())
                };
            }
            if self.data.len() - s > limit {
                return Err(());
            }
            let before = self.data_pos;
            from = unread_candidate
                .unwrap_or_else(|| self.data.len().saturating_sub(3).max(s + MIN_MEMBER));
            self.more().map_err(|_| ())?;
            // Compaction moved everything left by what it dropped.
            let moved = (self.data_pos - before) as usize;
            from -= moved;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::Compression;
    use flate2::write::GzEncoder;
    use std::io::Write;

    fn member(data: &[u8], level: Compression) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), level);
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn warc_record(id: &str, body: &[u8]) -> Vec<u8> {
        let mut r = format!(
            "WARC/1.0\r\nWARC-Type: resource\r\nWARC-Record-ID: <{id}>\r\n\
             Content-Type: text/html\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes();
        r.extend_from_slice(body);
        r.extend_from_slice(b"\r\n\r\n");
        r
    }

    fn ids(bytes: Vec<u8>) -> (Vec<String>, bool) {
        let mut s = Splitter::new(Box::new(Cursor::new(bytes)), Arc::from("t"), 1 << 20);
        let pool = Pool::default();
        let mut out = Vec::new();
        while let Some(item) = s.next_item() {
            let item = match item {
                Item::Member(m) => m.finish(&pool),
                other => other,
            };
            out.push(match item {
                Item::Page(r) => format!("{:?} {}", r.place.id, r.page().len()),
                Item::Skip(r) => format!("skip {r}"),
                Item::Fault(f) => format!("fault {f}"),
                Item::Member(_) => "member".into(),
                Item::Range(_) => "range".into(),
            });
        }
        (out, s.fell_back())
    }

    #[test]
    fn members_split_at_checked_boundaries() {
        let a = warc_record("a", b"<p>first page</p>");
        let b = warc_record("b", b"<p>second</p>");
        let bytes = [
            member(&a, Compression::fast()),
            member(&b, Compression::fast()),
        ]
        .concat();
        let (out, fell_back) = ids(bytes);
        assert_eq!(out, ["Some(\"<a>\") 17", "Some(\"<b>\") 13"]);
        assert!(!fell_back);
    }

    #[test]
    fn a_stored_gzip_file_after_the_records_size_is_no_boundary() {
        // The first record's body holds, raw (stored deflate blocks), four bytes equal to the
        // record's size followed by a gzip file: a boundary candidate that passes the size
        // check. It must not split the member.
        let total: u32 = 4000;
        let head_len = warc_record("a", &vec![b'x'; 3000]).len() - 3000 - 4;
        let body_len = total as usize - head_len - 4;
        let mut body = b"<p>page with a gzip file in it</p>".to_vec();
        body.extend_from_slice(&total.to_le_bytes());
        body.extend(member(b"not a WARC record", Compression::fast()));
        body.resize(body_len, b' ');
        let a = warc_record("a", &body);
        assert_eq!(a.len(), total as usize);
        let b = warc_record("b", b"<p>second</p>");
        let bytes = [
            member(&a, Compression::none()),
            member(&b, Compression::fast()),
        ]
        .concat();
        let (out, fell_back) = ids(bytes);
        assert_eq!(
            out,
            [
                format!("Some(\"<a>\") {body_len}"),
                "Some(\"<b>\") 13".into()
            ]
        );
        assert!(!fell_back);
    }
}
