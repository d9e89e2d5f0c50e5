//! A plain WARC or JSON lines file handed to the workers as byte ranges.
//!
//! JSON lines: the reader cuts after the first line end (LF or CR) past [`BATCH_BYTES`] (it reads
//! nothing else); a worker reads its range with [`jsonl::Reader`], numbering its records
//! from 1, and the pipeline's writer, which sees the ranges in order, adds the records
//! before the range ([`Range::numbered`]). Every line is read on its own, so any cut at a
//! line end gives what a sequential read gives.
//!
//! WARC: the reader reads only each
//! record's header and the bytes right after its block, never the block, and cuts the file
//! into ranges of whole records ([`BATCH_RECORDS`] records or [`BATCH_BYTES`] bytes); a
//! worker reads its range from the file itself (positioned reads, no shared cursor) with the
//! sequential reader ([`warc::Reader`]), resumed at the range's first record number and
//! offset, so each record gives exactly the item a sequential read of the whole file gives.
//!
//! The reader cuts only where that holds for certain: a record whose header is a version line
//! and fields with a Content-Length within the record limit, no other version line in the
//! header, and a block followed by exactly CRLF CRLF and then the next version line or the
//! end of the file. At the first record that is not so (damage, junk, another record end, a
//! record over the limit, gzip members further on) the sequential reader takes over the rest
//! of the file from that record on, and reports what is wrong as `-j 1` does.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::warc::{self, Headers};
use super::{Item, Pool, Stream};
use super::{compress, jsonl};

/// Records a range holds at most...
pub(crate) const BATCH_RECORDS: u64 = 64;
/// ...and bytes at most, whichever comes first (a larger record is a range of its own).
pub(crate) const BATCH_BYTES: u64 = 4 << 20;
/// Bytes read at a record start: a header and the end of the block before it mostly fit.
const WINDOW: usize = 4 << 10;
/// The longest header the sequential reader takes.
const MAX_HEADER: usize = 64 << 10;
/// What ends a record here.
const RECORD_END: &[u8] = b"\r\n\r\n";

/// What a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Warc,
    Jsonl,
}

/// Records of a file, read by a worker: [`Range::read`].
#[derive(Debug)]
pub struct Range {
    kind: Kind,
    /// The range's number in its run of ranges.
    id: u64,
    file: Arc<File>,
    source: Arc<str>,
    /// File offsets of the first record and of the end of the last one (its record end
    /// included).
    start: u64,
    end: u64,
    /// Records before the range (WARC; JSON lines ranges number from 1).
    index: u64,
    /// Records in it (WARC; 0 for JSON lines, whose lines the reader does not count).
    records: u64,
    max: usize,
}

impl Range {
    /// Records it holds, when the reader counted them (WARC); 0 for JSON lines.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// True when its records carry their number in the input; false when they are numbered
    /// from 1 within the range (JSON lines), and the caller adds the records of the ranges
    /// before it, of the same input.
    pub fn numbered(&self) -> bool {
        self.kind == Kind::Warc
    }

    /// The range's number among the ranges of its reader (from 0).
    pub fn id(&self) -> u64 {
        self.id
    }

    /// True when it starts its input.
    pub fn first(&self) -> bool {
        self.start == 0
    }

    /// Bytes it spans.
    pub fn len(&self) -> u64 {
        self.end - self.start
    }

    /// True when it spans no bytes.
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    /// Reads its records, handing each item to `each` in order.
    pub fn read(self, pool: &Pool, mut each: impl FnMut(Item)) {
        let len = self.len();
        let part = Part {
            file: self.file,
            at: self.start,
            end: self.end,
        };
        let capacity = usize::try_from(len).unwrap_or(super::BUF).min(super::BUF);
        let stream = Stream::Plain(BufReader::with_capacity(capacity, Box::new(part)));
        if self.kind == Kind::Jsonl {
            let mut r = jsonl::Reader::new(stream, self.source, self.max);
            r.resume(self.start);
            while let Some(item) = r.next_item() {
                each(item);
            }
            return;
        }
        let mut r = warc::Reader::new(stream, self.source, self.max);
        r.resume(self.index, self.start);
        r.pool = pool.clone();
        while let Some(item) = r.next_item() {
            each(item);
        }
    }
}

/// Bytes `at..end` of a file, read by position.
struct Part {
    file: Arc<File>,
    at: u64,
    end: u64,
}

impl Read for Part {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = usize::try_from(self.end - self.at).unwrap_or(usize::MAX);
        let want = buf.len().min(left);
        if want == 0 {
            return Ok(0);
        }
        let n = read_at(&self.file, &mut buf[..want], self.at)?;
        self.at += n as u64;
        Ok(n)
    }
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], at: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, at)
}

#[cfg(windows)]
fn read_at(file: &File, buf: &mut [u8], at: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, at)
}

/// Fills `buf` with up to `n` bytes from `at` (fewer at the end of the file).
fn read_window(file: &File, at: u64, n: usize, buf: &mut Vec<u8>) -> io::Result<()> {
    buf.clear();
    buf.resize(n, 0);
    let mut got = 0;
    while got < n {
        match read_at(file, &mut buf[got..], at + got as u64) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    buf.truncate(got);
    Ok(())
}

/// Cuts a plain WARC file into [`Range`]s, then (at the first record it cannot vouch for)
/// hands the rest to the sequential reader.
pub struct Ranges {
    kind: Kind,
    /// Ranges handed out.
    ranges: u64,
    file: Arc<File>,
    source: Arc<str>,
    max: usize,
    /// File offset of the next record, and records before it.
    pos: u64,
    index: u64,
    /// The bytes at `pos` (a record's header, or nothing at the end).
    window: Vec<u8>,
    /// The record at `pos` is not one to vouch for: the sequential reader goes on from there.
    stop: bool,
    done: bool,
    fallback: Option<warc::Reader<Stream>>,
    count: Arc<AtomicU64>,
    /// Where the sequential reader's buffers come from.
    pub pool: Pool,
}

impl Ranges {
    /// Cuts `file` (named `source`) when it is plain WARC (it starts with a version line) or
    /// JSON lines (`{` after white space, with `jsonl` when forced: not compressed);
    /// `None` otherwise. Bytes handed out are added to `count`.
    pub fn new(
        file: File,
        source: Arc<str>,
        framing: super::Framing,
        max: usize,
        count: Arc<AtomicU64>,
    ) -> Option<Self> {
        let mut window = Vec::new();
        read_window(&file, 0, WINDOW, &mut window).ok()?;
        let compressed = compress::sniff(&window).is_some() || window.starts_with(&[0x1f, 0x8b]);
        let text = window.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&window);
        let first = text.iter().find(|b| !b.is_ascii_whitespace());
        let kind = match framing {
            super::Framing::Auto | super::Framing::Warc if warc::version_line(&window) => {
                Kind::Warc
            }
            // (JSON lines after a first line that is not one are left to `Input::open`, which
            // sees more of the input to tell them from a page or a WARC.)
            super::Framing::Auto if first == Some(&b'{') => Kind::Jsonl,
            super::Framing::Jsonl if !compressed && !window.is_empty() => Kind::Jsonl,
            _ => return None,
        };
        Some(Ranges {
            kind,
            ranges: 0,
            file: Arc::new(file),
            source,
            max,
            pos: 0,
            index: 0,
            window,
            stop: false,
            done: false,
            fallback: None,
            count,
            pool: Pool::default(),
        })
    }

    /// What the file holds.
    pub fn framing(&self) -> super::Framing {
        match self.kind {
            Kind::Warc => super::Framing::Warc,
            Kind::Jsonl => super::Framing::Jsonl,
        }
    }

    /// The range of JSON lines from `pos`: up to the first line end past [`BATCH_BYTES`],
    /// or the end of the file.
    fn lines(&mut self) -> Option<Item> {
        let start = self.pos;
        let mut at = start + BATCH_BYTES - 1;
        let end = loop {
            if read_window(&self.file, at, WINDOW * 16, &mut self.window).is_err() {
                // The rest is one range: the worker reading it meets the error again and
                // reports it where `-j 1` does.
                break u64::MAX;
            }
            if self.window.is_empty() {
                break at;
            }
            // A CR ends a line too (a CRLF cut after its CR leaves an empty line).
            if let Some(i) = memchr::memchr2(b'\n', b'\r', &self.window) {
                break at + i as u64 + 1;
            }
            at += self.window.len() as u64;
        };
        // Past the end of the file, `end` is where the last read began: the file ends first.
        let end = end.min(self.file.metadata().map_or(end, |m| m.len()).max(start));
        if end <= start {
            self.done = true;
            return None;
        }
        self.pos = end;
        self.count.fetch_add(end - start, Ordering::Relaxed);
        Some(self.range(start, end, 0, 0))
    }

    fn range(&mut self, start: u64, end: u64, index: u64, records: u64) -> Item {
        let id = self.ranges;
        self.ranges += 1;
        Item::Range(Box::new(Range {
            kind: self.kind,
            id,
            file: self.file.clone(),
            source: self.source.clone(),
            start,
            end,
            index,
            records,
            max: self.max,
        }))
    }

    /// The next range, or (once the sequential reader has taken over) its next item.
    pub fn next_item(&mut self) -> Option<Item> {
        if let Some(r) = self.fallback.as_mut() {
            return r.next_item();
        }
        if self.done {
            return None;
        }
        if self.kind == Kind::Jsonl {
            return self.lines();
        }
        let start = self.pos;
        let before = self.index;
        while !self.stop
            && !self.window.is_empty()
            && self.index - before < BATCH_RECORDS
            && self.pos - start < BATCH_BYTES
        {
            match self.record() {
                Ok(Some(next)) => {
                    self.pos = next;
                    self.index += 1;
                }
                Ok(None) | Err(_) => self.stop = true,
            }
        }
        if self.index > before {
            self.count.fetch_add(self.pos - start, Ordering::Relaxed);
            return Some(self.range(start, self.pos, before, self.index - before));
        }
        if self.window.is_empty() && !self.stop {
            self.done = true;
            return None;
        }
        self.fall_back();
        self.next_item()
    }

    /// Checks the record at `pos` (its header in `window`) and reads the bytes after its
    /// block into `window`: the offset of the next record, or `None` when the record is not
    /// one to vouch for.
    fn record(&mut self) -> io::Result<Option<u64>> {
        if !warc::version_line(&self.window) {
            return Ok(None);
        }
        let mut parsed = Headers::parse(&self.window);
        if parsed.is_none() && self.window.len() == WINDOW {
            read_window(&self.file, self.pos, MAX_HEADER, &mut self.window)?;
            parsed = Headers::parse(&self.window);
        }
        let Some((h, header_len)) = parsed else {
            return Ok(None);
        };
        // Another version line in the header: the sequential reader takes it as a record cut
        // short there.
        let header = self.window.get(1..header_len).unwrap_or(&[]);
        if header_len > MAX_HEADER || memchr::memmem::find(header, b"WARC/").is_some() {
            return Ok(None);
        }
        let Some(len) = h.content_length.filter(|&l| l <= self.max as u64) else {
            return Ok(None);
        };
        let block_end = self.pos + header_len as u64 + len;
        read_window(
            &self.file,
            block_end,
            RECORD_END.len() + WINDOW,
            &mut self.window,
        )?;
        if !self.window.starts_with(RECORD_END) {
            return Ok(None);
        }
        self.window.drain(..RECORD_END.len());
        if !self.window.is_empty() && !warc::version_line(&self.window) {
            return Ok(None);
        }
        Ok(Some(block_end + RECORD_END.len() as u64))
    }

    /// Hands the file from `pos` on to the sequential reader.
    fn fall_back(&mut self) {
        let rest = Part {
            file: self.file.clone(),
            at: self.pos,
            end: u64::MAX,
        };
        let counted = super::Counting {
            inner: rest,
            count: self.count.clone(),
        };
        let stream = Stream::Plain(BufReader::with_capacity(super::BUF, Box::new(counted)));
        let mut r = warc::Reader::new(stream, self.source.clone(), self.max);
        r.resume(self.index, self.pos);
        r.pool = self.pool.clone();
        self.fallback = Some(r);
    }
}
