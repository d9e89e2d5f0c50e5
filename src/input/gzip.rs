//! gzip members, one after another, as one buffered stream that survives a corrupt member and
//! can drop the rest of the member it is in.
//!
//! A `.warc.gz` is one gzip member per record (RFC 1952 section 2.2 allows concatenated
//! members; WARC 1.1 Annex D.2 recommends one per record), sometimes one member for the whole
//! file, sometimes with empty members between records. [`Members`] decodes them in turn
//! (flate2's `bufread::GzDecoder` stops at the end of one member, so member boundaries stay
//! visible, unlike `MultiGzDecoder`) and knows, for the bytes it hands out, where their member
//! starts both in the decompressed stream and in the file: the file offset is what CDX indexes
//! and `dd`/warcio seek to, so messages give it.
//!
//! Faults: when a member is corrupt or cut short, the read that meets it fails once with
//! [`CORRUPT`] in the message, and the stream resumes at the next gzip header found in the raw
//! bytes. [`Members::skip_member`] drops the rest of the current member without inflating it
//! (a record over `--max-record-bytes` in a gzip-per-record file: a gzip bomb stops at the
//! limit instead of being inflated to its end).
//!
//! After a failure or a skip the reader is *hunting*: a header candidate (`1f 8b 08`, reserved
//! flag bits clear, RFC 1952 section 2.3.1) counts only when its member decodes and its first
//! bytes start like a record (`WARC/` for WARC inputs, see [`Members::expect_records`]).
//! Candidates that fail are stepped over silently: three bytes of compressed data can look like
//! a gzip header, and a record split over several members must not be entered in the middle.
//! The raw bytes of the member being inflated are kept (up to 4 MiB), so that after a corrupt
//! member the hunt starts right after its header, not where the decoder stopped reading.
//!
//! Outside the hunt, for WARC input, raw bytes between members that are not a member are
//! handed up as they are (`member()` is `None` for them): the WARC reader reports junk and
//! reads uncompressed records that follow compressed ones.
//!
//! Beside the members' reader: [`inflated_size`] (what a whole input's trailer says it
//! inflates to) and [`inflate_whole`] (a one-member input inflated in one call, or nothing).

use std::io::{self, BufRead, Read};

use flate2::bufread::GzDecoder;

/// Marker in the message of the error a corrupt member gives.
pub(crate) const CORRUPT: &str = "corrupt gzip member";

/// gzip magic (ID1, ID2) and the deflate method byte (CM = 8), RFC 1952 section 2.3.1.
const MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];

/// Reserved FLG bits (5 to 7): "must be zero" (RFC 1952 section 2.3.1).
const FLG_RESERVED: u8 = 0xe0;

/// Raw bytes of a member kept to search again from its start when it proves corrupt.
const TAP_MAX: usize = 4 << 20;

/// Raw bytes looked at to decide whether a member header inside raw bytes starts a record.
const PEEK: usize = 4 << 10;

/// Decompressed bytes held at a time. Every fill holds bytes of one member only, so the
/// member of any byte handed out is known. Small, because a read that meets corrupt data
/// fails with nothing to show for the bytes it did inflate (flate2 returns only the error):
/// at most this much good data before a fault is lost.
const OUT_BUF: usize = 32 << 10;

/// Bytes read ahead of a reader, handed out before its own: the look-ahead of [`Raw`] and the
/// pushback buffer of the WARC reader.
#[derive(Default)]
pub(crate) struct Ahead {
    bytes: Vec<u8>,
    at: usize,
}

impl Ahead {
    /// Whether bytes are waiting.
    pub(crate) fn pending(&self) -> bool {
        self.at < self.bytes.len()
    }

    /// The bytes waiting.
    pub(crate) fn waiting(&self) -> &[u8] {
        self.bytes.get(self.at..).unwrap_or(&[])
    }

    /// Puts `bytes` in front of the bytes waiting.
    pub(crate) fn push_front(&mut self, mut bytes: Vec<u8>) {
        bytes.extend_from_slice(self.waiting());
        self.bytes = bytes;
        self.at = 0;
    }

    /// Drops the bytes waiting.
    pub(crate) fn clear(&mut self) {
        self.bytes.clear();
        self.at = 0;
    }

    /// At least `n` bytes, the waiting ones then `inner`'s, when `inner` has them (fewer at its
    /// end); what is taken from `inner` waits here, so nothing is consumed.
    pub(crate) fn fill(&mut self, inner: &mut impl BufRead, n: usize) -> io::Result<&[u8]> {
        if self.at > 0 {
            self.bytes.drain(..self.at);
            self.at = 0;
        }
        while self.bytes.len() < n {
            let b = inner.fill_buf()?;
            if b.is_empty() {
                break;
            }
            let k = b.len().min(n - self.bytes.len());
            self.bytes.extend_from_slice(&b[..k]);
            inner.consume(k);
        }
        Ok(&self.bytes)
    }

    /// Hands out `n` of the waiting bytes (all of them, when fewer wait).
    pub(crate) fn consume(&mut self, n: usize) {
        self.at = (self.at + n).min(self.bytes.len());
        if !self.pending() {
            self.clear();
        }
    }
}

/// [`Read::read`] through a reader's buffer, for a [`BufRead`] whose reads are its `fill_buf`
/// and `consume`.
pub(crate) fn read_buffered(r: &mut impl BufRead, out: &mut [u8]) -> io::Result<usize> {
    let avail = r.fill_buf()?;
    let n = avail.len().min(out.len());
    out[..n].copy_from_slice(&avail[..n]);
    r.consume(n);
    Ok(n)
}

/// Counts the raw bytes consumed from the inner reader: member offsets in the file. Bytes
/// looked at ahead ([`Raw::peek`]) wait in `ahead` and are handed out first.
struct Raw<R> {
    inner: R,
    pos: u64,
    ahead: Ahead,
    /// The raw bytes of the member being inflated, kept (up to [`TAP_MAX`]) so that when it
    /// proves corrupt the search for the next member starts right after its header, not
    /// where the decoder stopped reading (it may have read into the next member).
    tap: Tap,
}

/// Raw bytes kept while `on` (at most [`TAP_MAX`]: past it, none).
#[derive(Default)]
struct Tap {
    bytes: Vec<u8>,
    on: bool,
}

impl Tap {
    fn start(&mut self) {
        self.bytes.clear();
        self.on = true;
    }

    fn stop(&mut self) {
        self.bytes.clear();
        self.on = false;
    }

    fn record(&mut self, bytes: &[u8]) {
        if !self.on {
            return;
        }
        if self.bytes.len() + bytes.len() > TAP_MAX {
            self.stop();
        } else {
            self.bytes.extend_from_slice(bytes);
        }
    }
}

impl<R: BufRead> Raw<R> {
    fn new(inner: R, pos: u64) -> Self {
        Raw {
            inner,
            pos,
            ahead: Ahead::default(),
            tap: Tap::default(),
        }
    }

    /// After a corrupt member that started at file offset `start`: goes back to the byte
    /// after its first, when its bytes were kept.
    fn rewind(&mut self, start: u64) {
        let kept = &self.tap.bytes;
        if !self.tap.on || kept.len() < 2 || self.pos != start + kept.len() as u64 {
            self.tap.stop();
            return;
        }
        let back = self.tap.bytes.split_off(1);
        self.ahead.push_front(back);
        self.pos = start + 1;
        self.tap.stop();
    }

    /// At least `n` bytes from the current position when the input has them (fewer at its
    /// end), without consuming any.
    fn peek(&mut self, n: usize) -> io::Result<&[u8]> {
        self.ahead.fill(&mut self.inner, n)
    }
}

impl<R: BufRead> Read for Raw<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = if self.ahead.pending() {
            let waiting = self.ahead.waiting();
            let n = buf.len().min(waiting.len());
            buf[..n].copy_from_slice(&waiting[..n]);
            self.ahead.consume(n);
            n
        } else {
            self.inner.read(buf)?
        };
        self.tap.record(&buf[..n]);
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Raw<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.ahead.pending() {
            return Ok(self.ahead.waiting());
        }
        self.inner.fill_buf()
    }
    fn consume(&mut self, n: usize) {
        if self.ahead.pending() {
            let n = n.min(self.ahead.waiting().len());
            self.tap.record(&self.ahead.waiting()[..n]);
            self.ahead.consume(n);
            self.pos += n as u64;
            return;
        }
        if self.tap.on
            && let Ok(b) = self.inner.fill_buf()
        {
            self.tap.record(&b[..n.min(b.len())]);
        }
        self.inner.consume(n);
        self.pos += n as u64;
    }
}

enum State<R: BufRead> {
    /// Between members: the raw reader.
    Between(Raw<R>),
    /// Inside a member.
    In(Box<GzDecoder<Raw<R>>>),
    /// zstd, xz or bzip2 after the members (`cat a.warc.gz b.warc.zst`): the rest of the
    /// input, read by [`Decoded`](super::compress::Decoded) (which reads gzip members too).
    Decoded(Box<super::compress::Decoded<Raw<R>>>),
    /// Transient while switching.
    Empty,
}

/// Decodes concatenated gzip members as one [`BufRead`].
pub struct Members<R: BufRead> {
    state: State<R>,
    buf: Vec<u8>,
    pos: usize,
    filled: usize,
    /// Decompressed bytes consumed by the reader above.
    out_pos: u64,
    /// Decompressed offset of the first byte of the member now being read.
    member_out: u64,
    /// File offset of that member's header.
    member_raw: u64,
    /// The member now being read has not given a byte yet.
    fresh: bool,
    /// After a failure or a skip: the next member must start with `expect`.
    hunting: bool,
    expect: &'static [u8],
    /// The bytes now buffered are not in a gzip member: raw bytes between members (junk, or
    /// uncompressed records after compressed ones), handed on as they are when `expect` is
    /// set so that the reader above reports or reads them.
    plain: bool,
    /// Stop at the end of the member being read ([`Members::stop_at_member_end`])...
    stop: bool,
    /// ...and the member has ended there (its trailer checked).
    stopped: bool,
    /// Members started so far (empty ones included).
    pub members: u64,
    /// Bytes inflated so far, skipped members' bytes included (for tests and statistics).
    pub inflated: u64,
}

/// True when `h` (the bytes at a candidate) can be a gzip header, as far as it is visible.
fn plausible_header(h: &[u8]) -> bool {
    let n = h.len().min(3);
    h[..n] == MAGIC[..n] && h.get(3).is_none_or(|flg| flg & FLG_RESERVED == 0)
}

/// Skips raw bytes up to the next plausible gzip header; false at end of input.
fn seek_header<R: BufRead>(r: &mut Raw<R>) -> io::Result<bool> {
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(false);
        }
        let mut from = 0;
        let found = loop {
            match memchr::memchr(MAGIC[0], &buf[from..]) {
                Some(i) if plausible_header(&buf[from + i..]) => break Some(from + i),
                Some(i) => from += i + 1,
                None => break None,
            }
        };
        match found {
            Some(i) => {
                r.consume(i);
                return Ok(true);
            }
            None => {
                let n = buf.len();
                r.consume(n);
            }
        }
    }
}

/// What a gzip input whose `size` bytes are all in `whole` says it inflates to: its last
/// member's ISIZE (RFC 1952 section 2.3.1, the size modulo 2^32), no more than deflate's
/// greatest ratio (1032:1) allows. A hint for sizing a buffer, never trusted further: a
/// member before the last, or a lie, only makes the buffer grow or go unused.
pub(crate) fn inflated_size(whole: &[u8], size: Option<u64>) -> Option<u64> {
    if size != Some(whole.len() as u64) {
        return None;
    }
    let trailer: [u8; 4] = whole.get(whole.len().checked_sub(4)?..)?.try_into().ok()?;
    let isize = u64::from(u32::from_le_bytes(trailer));
    Some(isize.min((whole.len() as u64).saturating_mul(1032)))
}

/// `gz`, a whole gzip input of one member, inflated in one call into a vector of `size`
/// bytes (its trailer's [`inflated_size`]): zlib checks the member's header, CRC-32 and size
/// as [`Members`] does, and with all of the input and all of the output at hand it copies
/// nothing through its window. `None` (and nothing lost: the caller reads the input through
/// its members) when `size` is over `limit`, when the member does not end exactly where the
/// input does (another member or junk follows), when its output is not `size` bytes, or on
/// any error.
pub(crate) fn inflate_whole(gz: &[u8], size: u64, limit: usize) -> Option<Vec<u8>> {
    let size = usize::try_from(size).ok().filter(|&n| n <= limit)?;
    let mut out = Vec::with_capacity(size);
    // 15: the largest window, as gzip writers use (the header does not say).
    let mut d = flate2::Decompress::new_gzip(15);
    let status = d
        .decompress_vec(gz, &mut out, flate2::FlushDecompress::Finish)
        .ok()?;
    (status == flate2::Status::StreamEnd && d.total_in() == gz.len() as u64 && out.len() == size)
        .then_some(out)
}

/// True when a gzip member that inflates to a WARC record starts in the first 64 KiB of
/// `raw` after its first byte (at most 64 candidates tried): a gzip WARC whose first member is
/// damaged beyond recognition.
pub(crate) fn warc_member_within(raw: &[u8]) -> bool {
    let raw = &raw[..raw.len().min(64 << 10)];
    memchr::memmem::find_iter(raw, &MAGIC)
        .filter(|&p| p > 0 && plausible_header(&raw[p..]))
        .take(64)
        .any(|p| {
            let mut first = Vec::new();
            let _ = GzDecoder::new(&raw[p..]).take(5).read_to_end(&mut first);
            first == b"WARC/"
        })
}

/// True when `out`, the first bytes of a member, start like `expect` (as far as they go).
fn starts_like(out: &[u8], expect: &[u8]) -> bool {
    let n = out.len().min(expect.len());
    out[..n] == expect[..n]
}

impl<R: BufRead> Members<R> {
    pub fn new(inner: R) -> Self {
        Self::starting_at(inner, 0, 0)
    }

    /// Members read from `inner`, whose first byte is at file offset `raw` and decompressed
    /// offset `out` (when another reader has read the input up to there).
    pub fn starting_at(inner: R, raw: u64, out: u64) -> Self {
        Members {
            state: State::Between(Raw::new(inner, raw)),
            buf: vec![0; OUT_BUF],
            pos: 0,
            filled: 0,
            out_pos: out,
            member_out: out,
            member_raw: raw,
            fresh: false,
            hunting: false,
            expect: b"",
            plain: false,
            stop: false,
            stopped: false,
            members: 0,
            inflated: 0,
        }
    }

    /// After a fault, accept only members whose decompressed bytes start with `prefix` (a
    /// record's first bytes, `WARC/`).
    pub fn expect_records(&mut self, prefix: &'static [u8]) {
        self.expect = prefix;
    }

    /// Where the member of the bytes now buffered starts: (decompressed offset, file offset);
    /// `None` for raw bytes between members (see `plain`).
    pub fn member(&self) -> Option<(u64, u64)> {
        (!self.plain).then_some((self.member_out, self.member_raw))
    }

    /// While on, the stream ends (reads give nothing) when the member being read ends, its
    /// CRC32 and ISIZE checked: a record that starts its own member is read to the end of that
    /// member and no further until the reader says. Turning it off goes on with what follows.
    pub fn stop_at_member_end(&mut self, on: bool) {
        self.stop = on;
        if !on {
            self.stopped = false;
        }
    }

    /// True when reads stopped at the end of a member ([`Members::stop_at_member_end`]).
    pub fn at_member_end(&self) -> bool {
        self.stopped
    }

    /// True when the raw bytes at `r` are a gzip member that decodes to nothing or to bytes
    /// that start like `expect`: a member boundary inside raw bytes handed on as they are.
    fn member_starts_here(r: &mut Raw<R>, expect: &[u8]) -> io::Result<bool> {
        let head = r.peek(PEEK)?;
        let mut first = Vec::new();
        let got = GzDecoder::new(head)
            .take(expect.len() as u64)
            .read_to_end(&mut first);
        Ok(match got {
            Ok(_) => first.is_empty() || starts_like(&first, expect),
            Err(_) => !first.is_empty() && starts_like(&first, expect),
        })
    }

    /// Drops the rest of the current member, decompressed or not, and goes on at the next
    /// member that starts like a record. `resume_out` becomes the decompressed offset of what
    /// follows (the bytes skipped are never inflated, so their count is the caller's estimate).
    pub fn skip_member(&mut self, resume_out: u64) {
        self.state = match std::mem::replace(&mut self.state, State::Empty) {
            State::In(d) => State::Between(d.into_inner()),
            other => other,
        };
        self.pos = 0;
        self.filled = 0;
        self.hunting = true;
        self.fresh = false;
        self.out_pos = resume_out;
    }

    /// Refills the empty buffer with bytes of one member; leaves it empty at the end.
    fn fill(&mut self) -> io::Result<()> {
        loop {
            match std::mem::replace(&mut self.state, State::Empty) {
                State::Empty => return Ok(()),
                State::Between(mut r) => {
                    if !self.hunting && !self.expect.is_empty() {
                        // Between members of a WARC: a member header that follows its member
                        // directly is taken as it is; raw bytes go up as they are, to the next
                        // header that starts a record (junk is reported by the reader above,
                        // uncompressed records are read).
                        let buf = r.fill_buf()?;
                        if buf.is_empty() {
                            self.state = State::Between(r);
                            return Ok(());
                        }
                        // (Looked at ahead only when the first byte can start a magic, so
                        // that gzip members are read as they always were.)
                        let compressed = match buf.first() {
                            Some(0x28 | 0xfd | b'B') | Some(0x50..=0x5f) if buf.len() < 16 => {
                                super::compress::sniff(r.peek(16)?).is_some()
                            }
                            Some(0x28 | 0xfd | b'B') | Some(0x50..=0x5f) => {
                                super::compress::sniff(buf).is_some()
                            }
                            _ => false,
                        };
                        if compressed {
                            let pos = r.pos;
                            self.plain = true;
                            self.member_out = self.out_pos;
                            self.member_raw = pos;
                            let hold = super::DEFAULT_MAX_RECORD;
                            let d = super::compress::Decoded::new(r, pos, hold);
                            self.state = State::Decoded(Box::new(d));
                            continue;
                        }
                        let buf = r.fill_buf()?;
                        let at_header = plausible_header(buf)
                            && (!self.plain || Self::member_starts_here(&mut r, self.expect)?);
                        if !at_header {
                            let raw_pos = r.pos;
                            let buf = r.fill_buf()?;
                            let mut end = buf.len().min(OUT_BUF);
                            let mut from = 1;
                            while let Some(i) = memchr::memchr(MAGIC[0], &buf[from..end]) {
                                if plausible_header(&buf[from + i..]) {
                                    end = from + i;
                                    break;
                                }
                                from += i + 1;
                            }
                            if !self.plain {
                                self.plain = true;
                                self.member_out = self.out_pos;
                                self.member_raw = raw_pos;
                            }
                            self.buf[..end].copy_from_slice(&buf[..end]);
                            r.consume(end);
                            self.filled = end;
                            self.state = State::Between(r);
                            return Ok(());
                        }
                    } else if !seek_header(&mut r)? {
                        self.state = State::Between(r);
                        return Ok(());
                    }
                    self.plain = false;
                    self.member_raw = r.pos;
                    self.members += 1;
                    self.fresh = true;
                    r.tap.start();
                    self.state = State::In(Box::new(GzDecoder::new(r)));
                }
                State::Decoded(mut d) => {
                    let got = d.read(&mut self.buf);
                    self.state = State::Decoded(d);
                    self.filled = got?;
                    return Ok(());
                }
                State::In(mut d) => match d.read(&mut self.buf) {
                    Ok(0) => {
                        let mut r = d.into_inner();
                        r.tap.stop();
                        self.state = State::Between(r);
                        if self.stop && !self.fresh {
                            self.stopped = true;
                            return Ok(());
                        }
                    }
                    Ok(n) => {
                        self.inflated += n as u64;
                        if self.fresh && self.hunting && !starts_like(&self.buf[..n], self.expect) {
                            // Not a record's start: a false header inside compressed data, or
                            // the continuation of a record split over members. Skip it whole.
                            self.state = State::Between(d.into_inner());
                            continue;
                        }
                        if self.fresh {
                            self.member_out = self.out_pos;
                            self.fresh = false;
                            self.hunting = false;
                        }
                        self.filled = n;
                        self.state = State::In(d);
                        return Ok(());
                    }
                    Err(e) => {
                        let mut r = d.into_inner();
                        r.rewind(self.member_raw);
                        if r.pos == self.member_raw {
                            // Nothing consumed: step over this header so it is not tried again.
                            let step = r.fill_buf()?.len().min(1);
                            r.consume(step);
                        }
                        let silent = self.fresh && self.hunting;
                        self.hunting = true;
                        self.fresh = false;
                        self.state = State::Between(r);
                        if !silent {
                            return Err(io::Error::new(
                                io::ErrorKind::InvalidData,
                                format!("{CORRUPT}: {e}"),
                            ));
                        }
                    }
                },
            }
        }
    }
}

impl<R: BufRead> BufRead for Members<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos >= self.filled && !self.stopped {
            self.pos = 0;
            self.filled = 0;
            self.fill()?;
        }
        Ok(&self.buf[self.pos..self.filled])
    }

    fn consume(&mut self, n: usize) {
        let n = n.min(self.filled - self.pos);
        self.pos += n;
        self.out_pos += n as u64;
    }
}

impl<R: BufRead> Read for Members<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        read_buffered(self, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::Compression;
    use flate2::write::GzEncoder;
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    /// Reads everything, counting the errors met on the way.
    fn drain<R: BufRead>(m: &mut Members<R>) -> (Vec<u8>, usize) {
        let mut out = Vec::new();
        let mut errors = 0;
        let mut buf = [0u8; 4096];
        loop {
            match m.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => {
                    assert!(e.to_string().contains(CORRUPT));
                    errors += 1;
                    assert!(errors < 5);
                }
            }
        }
        (out, errors)
    }

    #[test]
    fn the_trailer_sizes_a_whole_input_only() {
        let page = b"<p>".repeat(5000);
        let packed = gz(&page);
        let len = packed.len() as u64;
        assert_eq!(inflated_size(&packed, Some(len)), Some(page.len() as u64));
        // A buffer that does not hold the whole input has no trailer to read.
        let part = &packed[..packed.len() - 1];
        assert_eq!(inflated_size(part, Some(len)), None);
        assert_eq!(inflated_size(&packed, None), None);
        // Members before the last do not count: the hint is the last one's.
        let two = [gz(b"first member"), gz(b"last")].concat();
        assert_eq!(inflated_size(&two, Some(two.len() as u64)), Some(4));
        // A trailer that lies is held to deflate's greatest ratio.
        let mut lie = gz(b"x");
        let at = lie.len() - 4;
        lie[at..].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(
            inflated_size(&lie, Some(lie.len() as u64)),
            Some(lie.len() as u64 * 1032)
        );
        assert_eq!(inflated_size(b"abc", Some(3)), None);
    }

    #[test]
    fn a_whole_member_inflates_at_once_and_nothing_else_does() {
        let page = b"<p>one page</p>".repeat(3000);
        let packed = gz(&page);
        let size = page.len() as u64;
        assert_eq!(inflate_whole(&packed, size, 1 << 20), Some(page.clone()));
        // Over the record limit: left to the members, which report it.
        assert_eq!(inflate_whole(&packed, size, page.len() - 1), None);
        // A size that is not the member's, larger or smaller.
        assert_eq!(inflate_whole(&packed, size + 1, 1 << 20), None);
        assert_eq!(inflate_whole(&packed, size - 1, 1 << 20), None);
        // Two members, even of the same bytes: the first ends before the input does.
        let twice = [packed.clone(), packed.clone()].concat();
        assert_eq!(inflate_whole(&twice, size, 1 << 20), None);
        // Junk after the member.
        let junk = [packed.clone(), b"junk".to_vec()].concat();
        assert_eq!(inflate_whole(&junk, size, 1 << 20), None);
        // A wrong CRC-32, a byte of the body changed, a member cut short.
        let mut crc = packed.clone();
        let at = crc.len() - 8;
        crc[at] ^= 1;
        assert_eq!(inflate_whole(&crc, size, 1 << 20), None);
        let mut body = packed.clone();
        body[20] ^= 0x40;
        assert_eq!(inflate_whole(&body, size, 1 << 20), None);
        assert_eq!(
            inflate_whole(&packed[..packed.len() - 9], size, 1 << 20),
            None
        );
        assert_eq!(inflate_whole(b"<p>plain</p>", 12, 1 << 20), None);
    }

    #[test]
    fn concatenated_members_and_empty_ones() {
        let mut all = gz(b"");
        all.extend(gz(b"one "));
        all.extend(gz(b""));
        all.extend(gz(b"two"));
        let mut s = String::new();
        Members::new(&all[..]).read_to_string(&mut s).unwrap();
        assert_eq!(s, "one two");
    }

    #[test]
    fn member_offsets_are_known() {
        let a = gz(b"WARC/first");
        let b = gz(b"WARC/second");
        let all = [a.clone(), b].concat();
        let mut m = Members::new(&all[..]);
        let first = m.fill_buf().unwrap().to_vec();
        assert_eq!(first, b"WARC/first");
        assert_eq!(m.member(), Some((0, 0)));
        m.consume(first.len());
        assert_eq!(m.fill_buf().unwrap(), b"WARC/second");
        assert_eq!(m.member(), Some((10, a.len() as u64)));
    }

    #[test]
    fn corrupt_member_fails_once_then_resumes() {
        let mut all = gz(b"first ");
        let mut bad = gz(b"second member with some text in it");
        let mid = bad.len() / 2;
        for b in &mut bad[12..mid] {
            *b ^= 0x5a;
        }
        all.extend(bad);
        all.extend(gz(b"third"));
        let (out, errors) = drain(&mut Members::new(&all[..]));
        assert_eq!(errors, 1);
        let s = String::from_utf8_lossy(&out);
        assert!(s.starts_with("first ") && s.ends_with("third"), "{s}");
    }

    #[test]
    fn skip_member_drops_the_rest_without_inflating_it() {
        // 16 MiB of zeros compress to about 16 KiB: skipping must not inflate them.
        let bomb = gz(&[b"WARC/bomb".as_slice(), &vec![0u8; 16 << 20]].concat());
        let all = [bomb, gz(b"WARC/next")].concat();
        let mut m = Members::new(&all[..]);
        m.expect_records(b"WARC/");
        assert!(m.fill_buf().unwrap().starts_with(b"WARC/bomb"));
        m.skip_member(1000);
        assert_eq!(m.fill_buf().unwrap(), b"WARC/next");
        assert_eq!(m.member().map(|m| m.0), Some(1000));
        assert!(m.inflated <= (OUT_BUF + 9) as u64, "{}", m.inflated);
    }

    #[test]
    fn hunting_skips_members_that_do_not_start_a_record() {
        // After a skip, a member holding the middle of a record and bytes that look like a
        // gzip header are both passed over.
        let mut all = gz(b"WARC/one");
        all.extend([0x1f, 0x8b, 0x08, 0x00, 1, 2, 3]);
        all.extend(gz(b"middle of a split record"));
        all.extend(gz(b"WARC/two"));
        let mut m = Members::new(&all[..]);
        m.expect_records(b"WARC/");
        assert_eq!(m.fill_buf().unwrap(), b"WARC/one");
        m.skip_member(8);
        let (out, errors) = drain(&mut m);
        assert_eq!((out.as_slice(), errors), (&b"WARC/two"[..], 0));
    }

    #[test]
    fn truncated_last_member_fails_once() {
        let mut all = gz(b"WARC/one ");
        let two = gz(&b"WARC/two ".repeat(1000));
        all.extend_from_slice(&two[..two.len() / 2]);
        let (out, errors) = drain(&mut Members::new(&all[..]));
        assert_eq!(errors, 1);
        assert!(out.starts_with(b"WARC/one WARC/two"));
    }
}
