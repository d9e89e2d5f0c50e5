//! zstd, xz and bzip2 inputs, recognized by their magic bytes and decompressed as a stream.
//!
//! A `.warc.zst` (the Zstandard WARC format, as the Internet Archive writes it) is one zstd
//! frame per record, optionally after a *dictionary frame*: a skippable frame with magic
//! `0x184D2A5D` whose payload is a zstd dictionary, itself possibly zstd-compressed, that the
//! frames after it are compressed with. Other skippable frames (`0x184D2A50..=0x184D2A5F`) are
//! stepped over. xz and bzip2 files may be one stream or one stream per record, concatenated.
//!
//! [`Decoded`] reads *pieces* one after another: zstd frames, xz streams, bzip2 streams and
//! gzip members, of any kind in any order (`cat a.warc.zst b.warc.gz`), each recognized by
//! its magic bytes where the one before it ended.
//!
//! Damage (issue 43): the decompressed bytes of a piece are held back until the piece has
//! ended and passed its checks (zstd's content checksum, xz's block check, gzip's CRC32 and
//! ISIZE; bzip2's blocks are checked each on its own), up to the record limit: a piece larger than that is handed
//! on as it is decompressed. A piece that fails its checksum is dropped whole: none of its
//! bytes is handed on, and the error carries its first bytes ([`dropped_head`]) so that the
//! reader above can name the record it held. A piece that fails to decompress (corrupt, or
//! cut by the end of the input) hands on what decompressed before the damage, then the
//! error. After damage, or bytes that are not compressed data between pieces, the reader
//! looks for the next piece (a magic number that decodes) and gives *one* error for the
//! stretch, saying which bytes of the input it skipped. xz and bzip2 are not resynchronized
//! inside a stream (the crate decodes whole streams): the rest of a damaged xz stream is
//! skipped to the next stream, and the error says how many bytes that was. bzip2 streams are
//! read block by block (each block found by its bit-aligned magic and decoded on its own), so
//! a block that fails costs that block only.
//!
//! Memory is bounded: the decoders hold a window (zstd up to 128 MiB, xz a dictionary within
//! [`XZ_MEM_LIMIT_KIB`], bzip2 a 900 KB block), the held piece is at most the record limit,
//! and the raw bytes of the piece being read are kept (up to [`TAP_MAX`]) to look for the
//! next piece from its start after damage.
//!
//! Each decoder is a Cargo feature (`zstd`, `xz`, `bzip2`; gzip is always built). A build
//! without one still recognizes its magic bytes ([`sniff`] does not depend on the features), so
//! such a piece is never read as a page: it fails to start with an error that names the
//! feature ([`Kind::unbuilt`]), once, and reading goes on at the next piece it can decode.

use std::collections::VecDeque;
use std::io::{self, Read};

#[cfg(feature = "zstd")]
use ruzstd::decoding::{BlockDecodingStrategy, Dictionary, FrameDecoder};

/// A compression format recognized by its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Zstandard (RFC 8878): a frame (`28 B5 2F FD`) or a skippable frame (`5? 2A 4D 18`).
    Zstd,
    /// xz (`FD 37 7A 58 5A 00`).
    Xz,
    /// bzip2 (`BZh` and a block size digit).
    Bzip2,
}

impl Kind {
    /// The format's name, as messages give it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Zstd => "zstd",
            Kind::Xz => "xz",
            Kind::Bzip2 => "bzip2",
        }
    }

    /// Whether this build decompresses the format: each decoder is the Cargo feature of the
    /// format's name.
    pub(crate) fn built(self) -> bool {
        match self {
            Kind::Zstd => cfg!(feature = "zstd"),
            Kind::Xz => cfg!(feature = "xz"),
            Kind::Bzip2 => cfg!(feature = "bzip2"),
        }
    }

    /// The error for an input of this format when this build does not decompress it
    /// ([`Kind::built`]); `None` when it does.
    pub(crate) fn unbuilt(self) -> Option<io::Error> {
        (!self.built()).then(|| without(self.name()))
    }
}

/// The error for input of the format `name` in a build without the feature of that name.
fn without(name: &str) -> io::Error {
    invalid(&format!(
        "{name} input, but this pith was built without the `{name}` feature"
    ))
}

/// The error for a piece this build cannot decompress ([`Kind::unbuilt`]); `None` for one it
/// can (gzip always).
fn unbuilt(form: Form) -> Option<io::Error> {
    match form {
        Form::Zstd => Kind::Zstd.unbuilt(),
        Form::Xz => Kind::Xz.unbuilt(),
        Form::Bzip2 => Kind::Bzip2.unbuilt(),
        Form::Gzip => None,
    }
}

/// zstd frame magic, little-endian 0xFD2FB528.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];
/// xz stream magic.
const XZ_MAGIC: &[u8] = b"\xfd7zXZ\x00";
/// gzip magic and the deflate method byte (RFC 1952 section 2.3.1).
const GZIP_MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];
/// The dictionary frame of the Zstandard WARC format.
const DICT_FRAME: u32 = 0x184d_2a5d;
/// The largest dictionary read from a dictionary frame (IA's are a few hundred KB).
const MAX_DICT: usize = 16 << 20;
/// Memory limit of the xz decoder, KiB: `xz -9` needs 65 MiB; a header asking for a larger
/// dictionary is refused rather than allocated.
#[cfg(feature = "xz")]
pub(crate) const XZ_MEM_LIMIT_KIB: u32 = 256 << 10;
/// Raw bytes of the piece being read kept, so that after damage the next piece is looked for
/// from its start (a decoder may have read past the damage into the next piece).
pub(crate) const TAP_MAX: usize = 4 << 20;
/// Raw bytes read at a time.
const READ: usize = 64 << 10;
/// Decompressed bytes produced at a time (bzip2, gzip; xz: [`XZ_OUT`]).
const STEP: usize = 64 << 10;
/// Decompressed bytes the xz decoder produces at a time: a call that fails gives none of
/// what it decoded, so this bounds what is lost before the damage.
#[cfg(feature = "xz")]
const XZ_OUT: usize = 1 << 10;
/// A hunt for the next piece reads bytes again (after a false magic number) at most this many
/// times the bytes it has advanced, plus [`RESCAN_MIN`].
const RESCAN: u64 = 16;
const RESCAN_MIN: u64 = 4 << 20;
/// Bytes looked at ahead to judge a zstd magic number found while hunting.
const PLAUSIBLE: usize = 1 << 20;
/// Compressed bytes given to the xz decoder at a time.
#[cfg(feature = "xz")]
const XZ_IN: usize = 512;
/// Decompressed bytes of a dropped piece carried by its error ([`dropped_head`]).
const HEAD: usize = 64 << 10;
/// The largest gzip header field (file name, comment) looked through.
const GZIP_FIELD_MAX: usize = 64 << 10;
/// An empty raw zstd block that ends its frame, and room for a checksum: fed to a frame
/// decoder that failed, so that it hands out the window it holds (ruzstd keeps the last
/// window of a frame until the frame ends).
#[cfg(feature = "zstd")]
const ZSTD_END: [u8; 7] = [1, 0, 0, 0, 0, 0, 0];

/// True for the first bytes of a zstd skippable frame (magic `0x184D2A5?`).
fn skippable(head: &[u8]) -> bool {
    head.len() >= 4 && head[0] & 0xf0 == 0x50 && head[1..4] == [0x2a, 0x4d, 0x18]
}

/// The compression format `head` (the first bytes of an input) starts with, if any.
pub(crate) fn sniff(head: &[u8]) -> Option<Kind> {
    if head.starts_with(&ZSTD_MAGIC) || skippable(head) {
        Some(Kind::Zstd)
    } else if head.starts_with(XZ_MAGIC) {
        Some(Kind::Xz)
    } else if head.len() >= 4
        && head.starts_with(b"BZh")
        && (b'1'..=b'9').contains(&head[3])
        // A block (pi) or the end of the stream (sqrt(pi)): "BZh9 and some text" is text.
        && (head[4..].starts_with(b"1AY&SY") || head[4..].starts_with(b"\x17\x72\x45\x38\x50\x90"))
    {
        Some(Kind::Bzip2)
    } else {
        None
    }
}

/// bzip2's block magic (the digits of pi) and end-of-stream magic (of sqrt(pi)), 48 bits each;
/// both are bit-aligned.
const BZ_BLOCK: u64 = 0x3141_5926_5359;
const BZ_END: u64 = 0x1772_4538_5090;
/// Compressed bytes looked through for the end of one bzip2 block (a block holds at most
/// 900 kB before compression, and compresses to less but for a few bytes).
const BZ_BLOCK_MAX: usize = 1200 << 10;

/// A bzip2 stream read block by block: each block is decoded on its own (as a stream of one
/// block made around it), so that a block failing its CRC costs that block only and reading
/// goes on at the next block.
struct Bzip2 {
    /// The block size digit of the stream header.
    level: u8,
    /// The bit (0-7, from the most significant) of the window's next byte where the next
    /// block or the end of the stream starts.
    bit: u8,
}

/// The 48 bits of `buf` from bit `at` (most significant first); `None` past its end.
fn bits48(buf: &[u8], at: u64) -> Option<u64> {
    let byte = usize::try_from(at / 8).ok()?;
    let shift = (at % 8) as u32;
    let b = buf.get(byte..byte.checked_add(7)?)?;
    let mut v = 0u64;
    for &x in b {
        v = (v << 8) | u64::from(x);
    }
    // 56 bits read; drop the `shift` leading ones and the trailing 8 - shift.
    Some((v >> (8 - shift)) & 0xffff_ffff_ffff)
}

/// The first bit at or after `from` where a block or end-of-stream magic starts in `buf`.
fn find_bz_magic(buf: &[u8], from: u64) -> Option<u64> {
    let mut reg: u64 = 0;
    for (i, &b) in buf.iter().enumerate() {
        reg = (reg << 8) | u64::from(b);
        let end = (i as u64 + 1) * 8;
        if end < 48 {
            continue;
        }
        // The 48-bit windows ending at bits end-7 ..= end, earliest first.
        for k in (0..8u64).rev() {
            let w = (reg >> k) & 0xffff_ffff_ffff;
            let start = end - k;
            if start < 48 {
                continue;
            }
            let start = start - 48;
            if start >= from && (w == BZ_BLOCK || w == BZ_END) {
                return Some(start);
            }
        }
    }
    None
}

/// Bits written most significant first.
struct BitWriter {
    out: Vec<u8>,
    acc: u64,
    n: u32,
}

impl BitWriter {
    fn new(head: &[u8]) -> Self {
        BitWriter {
            out: head.to_vec(),
            acc: 0,
            n: 0,
        }
    }

    /// The low `bits` bits of `value` (at most 48).
    fn put(&mut self, value: u64, bits: u32) {
        let mask = (1u64 << bits) - 1;
        self.acc = (self.acc << bits) | (value & mask);
        self.n += bits;
        while self.n >= 8 {
            self.n -= 8;
            self.out.push((self.acc >> self.n) as u8);
        }
        self.acc &= (1u64 << self.n) - 1;
    }

    /// Bits `from..to` of `buf`.
    fn copy(&mut self, buf: &[u8], from: u64, to: u64) {
        let mut at = from;
        // Whole bytes when aligned with the output are the common case after the first few.
        while at < to {
            if self.n == 0 && at.is_multiple_of(8) && to - at >= 8 {
                let a = (at / 8) as usize;
                let b = (to / 8) as usize;
                if let Some(s) = buf.get(a..b) {
                    self.out.extend_from_slice(s);
                }
                at = (b as u64) * 8;
                continue;
            }
            // Up to 40 bits at a time from wherever they start.
            let take = (to - at).min(40) as u32;
            let v = bits48(buf, at).unwrap_or_else(|| {
                // Near the end of `buf`: byte by byte.
                let mut v = 0u64;
                for i in 0..6u64 {
                    let byte = buf.get((at / 8 + i) as usize).copied().unwrap_or(0);
                    v = (v << 8) | u64::from(byte);
                }
                (v >> (8 - at % 8)) & 0xffff_ffff_ffff
            });
            self.put(v >> (48 - take), take);
            at += u64::from(take);
        }
    }

    fn finish(mut self) -> Vec<u8> {
        if self.n > 0 {
            let pad = 8 - self.n;
            self.put(0, pad);
        }
        self.out
    }
}

/// What a piece is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    Zstd,
    Xz,
    Bzip2,
    Gzip,
}

impl Form {
    fn name(self) -> &'static str {
        match self {
            Form::Zstd => "zstd frame",
            Form::Xz => "xz stream",
            Form::Bzip2 => "bzip2 stream",
            Form::Gzip => "gzip member",
        }
    }
}

/// What starts at `head` (as far as it goes): a piece, a skippable zstd frame, or nothing
/// known. `None` also when `head` is too short to tell and the input goes on.
fn piece_at(head: &[u8]) -> Option<Start> {
    if head.starts_with(&ZSTD_MAGIC) {
        Some(Start::Piece(Form::Zstd))
    } else if skippable(head) {
        Some(Start::Skippable)
    } else if head.starts_with(XZ_MAGIC) {
        Some(Start::Piece(Form::Xz))
    } else if sniff(head) == Some(Kind::Bzip2) {
        Some(Start::Piece(Form::Bzip2))
    } else if head.starts_with(&GZIP_MAGIC) && head.get(3).is_some_and(|f| f & 0xe0 == 0) {
        Some(Start::Piece(Form::Gzip))
    } else {
        None
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Start {
    Piece(Form),
    Skippable,
}

/// Bytes that can start a piece: the first byte of each magic number.
fn may_start(b: u8) -> bool {
    matches!(b, 0x28 | 0xfd | b'B' | 0x1f) || b & 0xf0 == 0x50
}

/// The error of a damaged piece or stretch: its message, and the first decompressed bytes of
/// a piece that was dropped (for the reader above to name the record it held).
#[derive(Debug)]
pub(crate) struct Damage {
    message: String,
    head: Vec<u8>,
    /// A piece or part failed its checksum (dropped whole), rather than failing to decode.
    checksum: bool,
}

impl std::fmt::Display for Damage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Damage {}

/// What kind of damage a [`Decoded`] error is: a checksum that failed, or bytes that do not
/// decompress; `None` for an error that is not the decoder's (an I/O error).
pub(crate) fn damage_kind(e: &io::Error) -> Option<crate::input::FaultKind> {
    let d = e.get_ref()?.downcast_ref::<Damage>()?;
    Some(if d.checksum {
        crate::input::FaultKind::Checksum
    } else {
        crate::input::FaultKind::Decompression
    })
}

/// The first decompressed bytes of the piece a [`Decoded`] error dropped, when it dropped
/// one that had any.
pub(crate) fn dropped_head(e: &io::Error) -> Option<&[u8]> {
    let d = e.get_ref()?.downcast_ref::<Damage>()?;
    (!d.head.is_empty()).then_some(d.head.as_slice())
}

/// Raw bytes read ahead from the input, with their file offsets; the bytes of the piece
/// being read are kept (up to [`TAP_MAX`]) so that reading can go back to its start.
struct Window<R> {
    raw: R,
    buf: Vec<u8>,
    /// The next byte to read is `buf[at]`, at file offset `pos`.
    at: usize,
    pos: u64,
    eof: bool,
    /// `buf[mark]`, the first byte of the piece being read, is kept.
    mark: Option<usize>,
}

impl<R: Read> Window<R> {
    fn new(raw: R, pos: u64) -> Self {
        Window {
            raw,
            buf: Vec::new(),
            at: 0,
            pos,
            eof: false,
            mark: None,
        }
    }

    /// At least `n` bytes from here, fewer only at the end of the input.
    fn peek(&mut self, n: usize) -> io::Result<&[u8]> {
        while self.buf.len() - self.at < n && !self.eof {
            self.more()?;
        }
        let end = (self.at + n).min(self.buf.len());
        Ok(&self.buf[self.at.min(end)..end])
    }

    /// What is buffered (at least a byte unless at the end).
    fn avail(&mut self) -> io::Result<&[u8]> {
        if self.at >= self.buf.len() && !self.eof {
            self.more()?;
        }
        Ok(&self.buf[self.at.min(self.buf.len())..])
    }

    fn more(&mut self) -> io::Result<()> {
        if let Some(m) = self.mark
            && self.at - m > TAP_MAX
        {
            self.mark = None;
        }
        let keep = self.mark.unwrap_or(self.at);
        if keep > 0 && keep >= self.buf.len() / 2 {
            self.buf.drain(..keep);
            self.at -= keep;
            self.mark = self.mark.map(|m| m - keep);
        }
        let old = self.buf.len();
        self.buf.resize(old + READ, 0);
        let n = loop {
            match self.raw.read(&mut self.buf[old..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.buf.truncate(old);
                    return Err(e);
                }
            }
        };
        self.buf.truncate(old + n);
        self.eof = n == 0;
        Ok(())
    }

    fn consume(&mut self, n: usize) {
        let n = n.min(self.buf.len() - self.at);
        self.at += n;
        self.pos += n as u64;
    }

    fn set_mark(&mut self) {
        self.mark = Some(self.at);
    }

    /// How far [`Window::back_after_mark`] would go back.
    fn back_len(&self) -> u64 {
        self.mark
            .map_or(0, |m| (self.at - m).saturating_sub(1) as u64)
    }

    /// Goes back to the byte after the marked one, when it is still kept: true if so.
    fn back_after_mark(&mut self) -> bool {
        match self.mark.take() {
            Some(m) if m < self.at => {
                self.pos -= (self.at - m - 1) as u64;
                self.at = m + 1;
                true
            }
            Some(_) => {
                // Nothing of the piece was consumed: step over its first byte.
                self.consume(1);
                true
            }
            None => false,
        }
    }

    /// Skips up to the next byte that may start a piece (or the end); the bytes skipped.
    fn skip_to_candidate(&mut self) -> io::Result<u64> {
        let mut skipped = 0;
        loop {
            let buf = self.avail()?;
            if buf.is_empty() {
                return Ok(skipped);
            }
            match buf.iter().position(|&b| may_start(b)) {
                Some(i) => {
                    self.consume(i);
                    return Ok(skipped + i as u64);
                }
                None => {
                    let n = buf.len();
                    self.consume(n);
                    skipped += n as u64;
                }
            }
        }
    }
}

impl<R: Read> Read for Window<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let buf = self.avail()?;
        let n = buf.len().min(out.len());
        out[..n].copy_from_slice(&buf[..n]);
        self.consume(n);
        Ok(n)
    }
}

/// The decoder of the piece being read.
enum Decoder {
    /// The frame decoder is [`Decoded::zstd`]; whether the frame has a checksum.
    #[cfg(feature = "zstd")]
    Zstd {
        checksum: bool,
    },
    #[cfg(feature = "xz")]
    Xz(Box<lzma_rust2::XzStream>),
    Bzip2(Box<Bzip2>),
    Gzip(Box<Gzip>),
}

impl Decoder {
    /// Whether the zstd frame being read ends with a checksum; `None` for any other piece.
    fn zstd_checksum(&self) -> Option<bool> {
        match self {
            #[cfg(feature = "zstd")]
            Decoder::Zstd { checksum } => Some(*checksum),
            _ => None,
        }
    }
}

/// A gzip member after its header: the deflate stream, then the trailer.
struct Gzip {
    inflate: flate2::Decompress,
    crc: flate2::Crc,
    ended: bool,
}

/// The piece being read.
struct Piece {
    form: Form,
    /// File offset of its first byte.
    start: u64,
    decoder: Decoder,
    /// Its decompressed bytes not yet handed on...
    held: Vec<u8>,
    /// ...and those handed on already (it grew past the hold).
    passed: u64,
    /// Handed on as it is decompressed (larger than the hold).
    stream: bool,
}

/// How a piece went.
enum Step {
    /// More to come.
    More,
    /// Ended and checked.
    Ended,
    /// Failed its check: dropped whole.
    Mismatch(String),
    /// Failed to decompress: what came before the damage is good.
    Broken(String),
    /// A part failed its check and was dropped (its bytes here); the piece goes on.
    Part(String, Vec<u8>),
}

/// A stretch of the input being skipped after damage, reported when reading resumes.
struct Lost {
    /// What went wrong, where.
    what: String,
    /// File offset of the first byte skipped.
    from: u64,
    /// Decompressed bytes dropped.
    dropped: u64,
    head: Vec<u8>,
    /// The damage is a failed checksum (the piece was dropped whole).
    checksum: bool,
}

/// What the reader hands on, in order.
enum Chunk {
    Data(Vec<u8>, usize),
    Error(io::Error),
}

/// The decompressed bytes of a compressed input (see the module doc): zstd frames, xz and
/// bzip2 streams and gzip members one after another; each damage is one error, and reading
/// goes on at the next piece.
pub struct Decoded<R = Box<dyn io::BufRead + Send>> {
    win: Window<R>,
    /// Decompressed bytes of a piece held back until it is checked.
    hold: usize,
    piece: Option<Piece>,
    out: VecDeque<Chunk>,
    lost: Option<Lost>,
    zstd: FrameDecoder,
    /// The dictionary of the dictionary frame, used by frames that do not name theirs.
    #[cfg(feature = "zstd")]
    dict: Option<u32>,
    /// Decompressed bytes queued so far, and their count where the zstd frame being read
    /// started.
    queued: u64,
    frame_out: u64,
    /// The last piece was an xz stream: stream padding (zero bytes) may follow.
    after_xz: bool,
    /// Bytes read again by the hunt under way (see [`RESCAN`]).
    rescanned: u64,
    done: bool,
}

impl<R: Read> Decoded<R> {
    /// The pieces of `raw`, whose first byte is at file offset `pos`; pieces of up to `hold`
    /// decompressed bytes are checked before any of their bytes is handed on.
    pub fn new(raw: R, pos: u64, hold: usize) -> Self {
        Decoded {
            win: Window::new(raw, pos),
            hold: hold.max(1),
            piece: None,
            out: VecDeque::new(),
            lost: None,
            zstd: FrameDecoder::new(),
            #[cfg(feature = "zstd")]
            dict: None,
            queued: 0,
            frame_out: 0,
            after_xz: false,
            rescanned: 0,
            done: false,
        }
    }

    /// The first decompressed bytes, reading (and keeping the errors met, to be given in
    /// order) until there are some; empty when the input holds none.
    pub fn first_bytes(&mut self) -> io::Result<&[u8]> {
        while !self.done && !self.out.iter().any(|c| matches!(c, Chunk::Data(..))) {
            self.step()?;
        }
        Ok(self
            .out
            .iter()
            .find_map(|c| match c {
                Chunk::Data(d, at) => d.get(*at..),
                Chunk::Error(_) => None,
            })
            .unwrap_or(&[]))
    }

    /// The first error waiting to be given, when no decompressed byte comes before it.
    pub fn first_error(&self) -> Option<String> {
        match self.out.front() {
            Some(Chunk::Error(e)) => Some(e.to_string()),
            _ => None,
        }
    }

    /// A zstd record over the limit, decompressed bytes `start..end`, that is the whole of the
    /// zstd frame being read (the frame starts at `start` and its header states `end - start`
    /// bytes): drops the rest of the frame without decompressing it, so that reading goes on
    /// at `end` (a bomb costs its compressed size); false, and nothing done, otherwise. The
    /// caller drops the bytes it has buffered.
    pub fn skip_frame(&mut self, start: u64, end: u64) -> bool {
        let Some(p) = &self.piece else {
            return false;
        };
        let Some(checksum) = p.decoder.zstd_checksum() else {
            return false;
        };
        if self.frame_out != start
            || end <= start
            || self.queued > end
            || self.zstd.content_size() != end - start
        {
            return false;
        }
        let from = p.start;
        self.piece = None;
        self.win.mark = None;
        self.out.retain(|c| matches!(c, Chunk::Error(_)));
        self.queued = end;
        if !self.zstd.is_finished()
            && let Err(e) = self.skip_blocks(checksum)
        {
            self.rescanned = 0;
            self.lost = Some(Lost {
                what: format!("zstd frame at byte {from}: {e}"),
                from,
                dropped: 0,
                head: Vec::new(),
                checksum: false,
            });
        }
        true
    }

    /// Drops the rest of the zstd frame being read by its block headers, without decoding it.
    fn skip_blocks(&mut self, checksum: bool) -> io::Result<()> {
        loop {
            let mut h = [0; 3];
            self.win.read_exact(&mut h)?;
            let h = u32::from_le_bytes([h[0], h[1], h[2], 0]);
            let size = u64::from(h >> 3);
            let skip = match (h >> 1) & 3 {
                0 | 2 => size,
                1 => 1,
                _ => return Err(invalid("reserved block type")),
            };
            let n = io::copy(&mut (&mut self.win).take(skip), &mut io::sink())?;
            if n < skip {
                return Err(invalid("frame cut short by the end of the input"));
            }
            if h & 1 == 1 {
                break;
            }
        }
        if checksum {
            let mut c = [0; 4];
            self.win.read_exact(&mut c)?;
        }
        Ok(())
    }

    /// Queues decompressed bytes.
    fn queue(&mut self, bytes: Vec<u8>) {
        if !bytes.is_empty() {
            self.queued += bytes.len() as u64;
            self.out.push_back(Chunk::Data(bytes, 0));
        }
    }

    /// Ends a hunt: queues its error.
    fn report(&mut self, resumed: Option<(u64, &str)>) {
        let Some(l) = self.lost.take() else {
            return;
        };
        let mut msg = l.what;
        if l.dropped > 0 {
            msg += &format!("; {} decompressed bytes dropped", l.dropped);
        }
        match resumed {
            Some((at, what)) if at > l.from => {
                msg += &format!(
                    "; {} bytes of input skipped (bytes {}..{}), reading resumes at the {what} at byte {at}",
                    at - l.from,
                    l.from,
                    at
                )
            }
            Some(_) => {}
            None if self.win.pos > l.from => {
                msg += &format!(
                    "; {} bytes of input to its end left unread (from byte {})",
                    self.win.pos - l.from,
                    l.from
                )
            }
            None => {}
        }
        self.out.push_back(Chunk::Error(io::Error::new(
            io::ErrorKind::InvalidData,
            Damage {
                message: one_line(&msg),
                head: l.head,
                checksum: l.checksum,
            },
        )));
    }

    /// One step: a piece started, decompressed a little further, ended, or a stretch skipped.
    fn step(&mut self) -> io::Result<()> {
        if self.piece.is_some() {
            return self.step_piece();
        }
        let head = self.win.peek(16)?;
        if head.is_empty() {
            self.report(None);
            self.done = true;
            return Ok(());
        }
        if self.after_xz && head[0] == 0 {
            // xz stream padding.
            let n = head.iter().take_while(|&&b| b == 0).count();
            self.win.consume(n);
            return Ok(());
        }
        let start = piece_at(head);
        let at = self.win.pos;
        match start {
            Some(Start::Skippable) => {
                self.win.set_mark();
                if let Err(e) = self.skippable_frame() {
                    self.damaged(at, format!("skippable zstd frame at byte {at}: {e}"), None);
                }
                Ok(())
            }
            Some(Start::Piece(form)) => {
                if form == Form::Zstd && self.lost.is_some() && !self.zstd_plausible()? {
                    // A false zstd magic inside a damaged stretch: passed over unread.
                    self.win.consume(1);
                    return Ok(());
                }
                self.after_xz = false;
                self.win.set_mark();
                match self.begin(form) {
                    Ok(decoder) => {
                        self.piece = Some(Piece {
                            form,
                            start: at,
                            decoder,
                            held: Vec::new(),
                            passed: 0,
                            // A zstd frame that says it is larger than the hold.
                            stream: form == Form::Zstd
                                && self.zstd.content_size() > self.hold as u64,
                        });
                        Ok(())
                    }
                    Err(e) => {
                        let what = format!("{} at byte {at}: {e}", form.name());
                        self.damaged(at, what, None);
                        Ok(())
                    }
                }
            }
            None => {
                if self.lost.is_none() {
                    self.rescanned = 0;
                    self.lost = Some(Lost {
                        what: format!("bytes at byte {at} that are not compressed data"),
                        from: at,
                        dropped: 0,
                        head: Vec::new(),
                        checksum: false,
                    });
                }
                self.win.consume(1);
                self.win.skip_to_candidate()?;
                Ok(())
            }
        }
    }

    /// While hunting: true when the zstd frame at hand is well formed as far as its block
    /// headers show within [`PLAUSIBLE`] bytes (each a known type of at most 128 KiB, and a
    /// last block followed by the end of the input or another piece), walked without
    /// decoding: false magic numbers in junk cost no decoding and no reading again.
    fn zstd_plausible(&mut self) -> io::Result<bool> {
        let head = self.win.peek(PLAUSIBLE)?;
        let Some(&d) = head.get(4) else {
            return Ok(false);
        };
        let single = (d >> 5) & 1 == 1;
        let fcs = [usize::from(single), 2, 4, 8][usize::from(d >> 6)];
        let dict = [0, 1, 2, 4][usize::from(d & 3)];
        if d & 0x08 != 0 {
            // The reserved bit.
            return Ok(false);
        }
        let mut at = 5 + usize::from(!single) + dict + fcs;
        for _ in 0..64 {
            let Some(h) = head.get(at..at + 3) else {
                // Beyond what was looked at: plausible so far, unless the input ended.
                return Ok(head.len() >= PLAUSIBLE);
            };
            let h = u32::from_le_bytes([h[0], h[1], h[2], 0]);
            let size = (h >> 3) as usize;
            let body = match (h >> 1) & 3 {
                0 | 2 if size <= 128 << 10 => size,
                1 if size <= 128 << 10 => 1,
                _ => return Ok(false),
            };
            at += 3 + body;
            if h & 1 == 1 {
                at += if d & 4 != 0 { 4 } else { 0 };
                return Ok(match head.get(at..) {
                    Some([]) => head.len() < PLAUSIBLE,
                    Some(rest) => piece_at(rest).is_some(),
                    None => false,
                });
            }
        }
        Ok(true)
    }

    /// Damage at file offset `at`: starts (or goes on with) a hunt for the next piece, from
    /// the byte after the piece's first; `dropped` is the piece's dropped bytes, if any.
    fn damaged(&mut self, at: u64, what: String, dropped: Option<Vec<u8>>) {
        if self.lost.is_none() {
            let checksum = dropped.is_some();
            let (n, head) = match dropped {
                Some(mut d) => {
                    let n = d.len() as u64;
                    d.truncate(HEAD);
                    (n, d)
                }
                None => (0, Vec::new()),
            };
            self.rescanned = 0;
            self.lost = Some(Lost {
                what,
                from: at,
                dropped: n,
                head,
                checksum,
            });
        }
        // When the piece's start is no longer kept (a piece larger than TAP_MAX), the hunt
        // goes on from where its decoder stopped.
        self.win.back_after_mark();
    }

    /// Starts a piece at its magic number; one this build cannot decompress fails here.
    fn begin(&mut self, form: Form) -> io::Result<Decoder> {
        if let Some(e) = unbuilt(form) {
            return Err(e);
        }
        match form {
            Form::Zstd => self.begin_zstd(),
            Form::Xz => begin_xz(),
            Form::Bzip2 => {
                // "BZh" and the block size digit (checked by `piece_at`).
                let level = self.win.peek(4)?.get(3).map_or(9, |d| d.wrapping_sub(b'0'));
                self.win.consume(4);
                Ok(Decoder::Bzip2(Box::new(Bzip2 { level, bit: 0 })))
            }
            Form::Gzip => {
                self.gzip_header()?;
                Ok(Decoder::Gzip(Box::new(Gzip {
                    inflate: flate2::Decompress::new(false),
                    crc: flate2::Crc::new(),
                    ended: false,
                })))
            }
        }
    }

    /// Starts a zstd frame at its magic number.
    #[cfg(feature = "zstd")]
    fn begin_zstd(&mut self) -> io::Result<Decoder> {
        let descriptor = self.win.peek(5)?.get(4).copied().unwrap_or(0);
        self.zstd
            .reset(&mut self.win)
            .map_err(|e| invalid(&e.to_string()))?;
        // Frame_Header_Descriptor bits 0-1: no dictionary ID in the header, so a frame
        // after a dictionary frame uses its dictionary.
        if descriptor & 3 == 0
            && let Some(id) = self.dict
        {
            self.zstd
                .force_dict(id)
                .map_err(|e| invalid(&e.to_string()))?;
        }
        self.frame_out = self.queued;
        // Frame_Header_Descriptor bit 2: Content_Checksum_Flag.
        Ok(Decoder::Zstd {
            checksum: descriptor & 4 != 0,
        })
    }

    /// Without the `zstd` feature no zstd frame starts ([`Decoded::begin`] says why).
    #[cfg(not(feature = "zstd"))]
    fn begin_zstd(&mut self) -> io::Result<Decoder> {
        Err(without("zstd"))
    }

    /// Reads a gzip member's header (RFC 1952 section 2.3).
    fn gzip_header(&mut self) -> io::Result<()> {
        let h = self.win.peek(10)?;
        if h.len() < 10 {
            return Err(invalid("header cut short by the end of the input"));
        }
        let flags = h[3];
        let mut len = 10;
        if flags & 4 != 0 {
            let x = self.win.peek(len + 2)?;
            let xlen = match x.get(len..len + 2) {
                Some(b) => u16::from_le_bytes([b[0], b[1]]) as usize,
                None => return Err(invalid("header cut short by the end of the input")),
            };
            len += 2 + xlen;
        }
        for flag in [8u8, 16] {
            if flags & flag != 0 {
                let x = self.win.peek(len + GZIP_FIELD_MAX)?;
                match x.get(len..).and_then(|f| memchr::memchr(0, f)) {
                    Some(i) => len += i + 1,
                    None => return Err(invalid("header field without its end")),
                }
            }
        }
        if flags & 2 != 0 {
            len += 2;
        }
        if self.win.peek(len)?.len() < len {
            return Err(invalid("header cut short by the end of the input"));
        }
        self.win.consume(len);
        Ok(())
    }

    /// Reads a skippable frame (or the dictionary frame) at its magic number.
    fn skippable_frame(&mut self) -> io::Result<()> {
        let mut header = [0; 8];
        self.win.read_exact(&mut header)?;
        let magic = u32::from_le_bytes([header[0], header[1], header[2], header[3]]);
        let len = u64::from(u32::from_le_bytes([
            header[4], header[5], header[6], header[7],
        ]));
        if magic != DICT_FRAME {
            let skipped = io::copy(&mut (&mut self.win).take(len), &mut io::sink())?;
            if skipped < len {
                return Err(invalid("cut short by the end of the input"));
            }
            self.win.mark = None;
            return Ok(());
        }
        if len > MAX_DICT as u64 {
            return Err(invalid(&format!(
                "dictionary frame of {len} bytes (over {MAX_DICT})"
            )));
        }
        let mut payload = Vec::with_capacity(len as usize);
        (&mut self.win).take(len).read_to_end(&mut payload)?;
        if payload.len() as u64 != len {
            return Err(invalid("dictionary frame cut short"));
        }
        self.load_dict(payload)?;
        self.win.mark = None;
        Ok(())
    }

    /// Makes the dictionary of a dictionary frame (its payload) the one of the frames after it.
    #[cfg(feature = "zstd")]
    fn load_dict(&mut self, mut payload: Vec<u8>) -> io::Result<()> {
        if payload.starts_with(&ZSTD_MAGIC) {
            // A compressed dictionary (the format allows either).
            let mut dict = Vec::new();
            let mut frame = ruzstd::decoding::StreamingDecoder::new(payload.as_slice())
                .map_err(|e| invalid(&format!("dictionary frame: {e}")))?;
            (&mut frame)
                .take(MAX_DICT as u64 + 1)
                .read_to_end(&mut dict)?;
            if dict.len() > MAX_DICT {
                return Err(invalid(&format!("dictionary over {MAX_DICT} bytes")));
            }
            payload = dict;
        }
        let dict = Dictionary::decode_dict(&payload)
            .map_err(|e| invalid(&format!("dictionary frame: {e}")))?;
        self.dict = Some(dict.id);
        self.zstd
            .add_dict(dict)
            .map_err(|e| invalid(&format!("dictionary frame: {e}")))
    }

    /// Without the `zstd` feature a dictionary frame is an error, as the frames after it are.
    #[cfg(not(feature = "zstd"))]
    fn load_dict(&mut self, payload: Vec<u8>) -> io::Result<()> {
        let _ = payload;
        Err(without("zstd"))
    }

    /// Decompresses the piece being read a little further.
    fn step_piece(&mut self) -> io::Result<()> {
        let Some(mut p) = self.piece.take() else {
            return Ok(());
        };
        let step = match &mut p.decoder {
            #[cfg(feature = "zstd")]
            Decoder::Zstd { checksum } => {
                let checksum = *checksum;
                self.step_zstd(&mut p.held, checksum)
            }
            #[cfg(feature = "xz")]
            Decoder::Xz(x) => step_xz(&mut self.win, x, &mut p.held),
            Decoder::Bzip2(b) => step_bzip2(&mut self.win, b, &mut p.held),
            Decoder::Gzip(g) => step_gzip(&mut self.win, g, &mut p.held),
        };
        let step = match step {
            Ok(s) => s,
            // The input could not be read: not damage, the caller's error.
            Err(e) if e.kind() != io::ErrorKind::InvalidData => return Err(e),
            Err(e) => Step::Broken(e.to_string()),
        };
        let hunting = self.lost.is_some();
        match step {
            Step::More => {
                if (p.stream || p.held.len() >= self.hold) && !hunting {
                    // Too large to hold: handed on as it comes.
                    p.stream = true;
                    p.passed += p.held.len() as u64;
                    let bytes = std::mem::take(&mut p.held);
                    self.queue(bytes);
                }
                if (p.stream || p.held.len() >= self.hold) && hunting {
                    // A piece found by the hunt that decodes this far is a piece.
                    self.report(Some((p.start, p.form.name())));
                }
                self.piece = Some(p);
            }
            Step::Ended => {
                self.win.mark = None;
                if hunting {
                    self.report(Some((p.start, p.form.name())));
                }
                self.after_xz = p.form == Form::Xz;
                let bytes = std::mem::take(&mut p.held);
                self.queue(bytes);
            }
            Step::Part(why, dropped) => {
                if hunting {
                    self.report(Some((p.start, p.form.name())));
                }
                let good = std::mem::take(&mut p.held);
                p.passed += good.len() as u64;
                self.queue(good);
                let n = dropped.len();
                let mut head = dropped;
                head.truncate(HEAD);
                self.out.push_back(Chunk::Error(io::Error::new(
                    io::ErrorKind::InvalidData,
                    Damage {
                        message: one_line(&format!(
                            "{why} (with the {n} bytes they had decompressed), reading resumes at the next block"
                        )),
                        head,
                        checksum: true,
                    },
                )));
                self.piece = Some(p);
            }
            Step::Mismatch(_) | Step::Broken(_) if hunting && p.passed == 0 => {
                // A magic number inside the damaged stretch that is no piece: part of it.
                // The hunt goes on from the byte after it, as long as the bytes read again
                // stay within a budget (so that hostile input of false magic numbers, each
                // decoding a block before it fails, costs linear time); past it, from where
                // the decoder stopped.
                let back = self.win.back_len();
                let from = self.lost.as_ref().map_or(0, |l| l.from);
                let advanced = self.win.pos.saturating_sub(back).saturating_sub(from);
                if back == 0 || self.rescanned + back <= RESCAN * advanced + RESCAN_MIN {
                    self.rescanned += back;
                    self.win.back_after_mark();
                } else {
                    self.win.mark = None;
                }
            }
            Step::Mismatch(why) => {
                let what = if p.passed > 0 {
                    format!(
                        "{} at byte {} fails its check ({why}) after {} of its decompressed bytes were read",
                        p.form.name(),
                        p.start,
                        p.passed
                    )
                } else {
                    format!(
                        "{} at byte {} fails its check: {why}",
                        p.form.name(),
                        p.start
                    )
                };
                let held = std::mem::take(&mut p.held);
                self.damaged(p.start, what, Some(held));
            }
            Step::Broken(why) => {
                let at = self.win.pos;
                let good = p.passed + p.held.len() as u64;
                let bytes = std::mem::take(&mut p.held);
                self.queue(bytes);
                let cut = self.win.eof && self.win.at >= self.win.buf.len();
                let what = format!(
                    "{} at byte {} {} after {good} decompressed bytes: {why}",
                    p.form.name(),
                    p.start,
                    if cut {
                        "is cut short by the end of the input"
                    } else {
                        "is corrupt"
                    }
                );
                // Skipped from where the decoder stopped; the hunt starts after the piece's
                // first byte when it is kept.
                self.damaged(at, what, None);
            }
        }
        Ok(())
    }

    /// A zstd frame a block further.
    #[cfg(feature = "zstd")]
    fn step_zstd(&mut self, held: &mut Vec<u8>, checksum: bool) -> io::Result<Step> {
        let _ = checksum;
        if !self.zstd.is_finished()
            && let Err(e) = self
                .zstd
                .decode_blocks(&mut self.win, BlockDecodingStrategy::UptoBlocks(1))
        {
            // What the frame decoded before the damage is in its window: end the frame there
            // to have it handed out.
            let _ = self
                .zstd
                .decode_blocks(&ZSTD_END[..], BlockDecodingStrategy::UptoBlocks(1));
            drain_zstd(&mut self.zstd, held)?;
            return Ok(Step::Broken(e.to_string()));
        }
        drain_zstd(&mut self.zstd, held)?;
        if !self.zstd.is_finished() {
            return Ok(Step::More);
        }
        // The frame has ended and every byte of it is drained: check its checksum.
        match (
            self.zstd.get_checksum_from_data(),
            self.zstd.get_calculated_checksum(),
        ) {
            (Some(want), Some(got)) if want != got => Ok(Step::Mismatch(format!(
                "content checksum {got:08x}, the frame says {want:08x}"
            ))),
            _ => Ok(Step::Ended),
        }
    }
}

/// Stands in for ruzstd's frame decoder in a build without the `zstd` feature: no frame is
/// ever started, so there is never a frame size to skip by or a frame under way.
#[cfg(not(feature = "zstd"))]
struct FrameDecoder;

#[cfg(not(feature = "zstd"))]
impl FrameDecoder {
    fn new() -> Self {
        FrameDecoder
    }

    fn content_size(&self) -> u64 {
        0
    }

    fn is_finished(&self) -> bool {
        true
    }
}

/// Starts an xz stream at its magic number.
#[cfg(feature = "xz")]
fn begin_xz() -> io::Result<Decoder> {
    Ok(Decoder::Xz(Box::new(lzma_rust2::XzStream::new_mem_limit(
        false,
        XZ_MEM_LIMIT_KIB,
    ))))
}

/// Without the `xz` feature no xz stream starts ([`Decoded::begin`] says why).
#[cfg(not(feature = "xz"))]
fn begin_xz() -> io::Result<Decoder> {
    Err(without("xz"))
}

/// Moves what a zstd frame decoder can hand out into `held`.
#[cfg(feature = "zstd")]
fn drain_zstd(d: &mut FrameDecoder, held: &mut Vec<u8>) -> io::Result<()> {
    loop {
        let n = d.can_collect();
        if n == 0 {
            return Ok(());
        }
        let old = held.len();
        held.resize(old + n, 0);
        let got = d.read(&mut held[old..])?;
        held.truncate(old + got);
        if got == 0 {
            return Ok(());
        }
    }
}

/// An xz stream a step further.
#[cfg(feature = "xz")]
fn step_xz<R: Read>(
    win: &mut Window<R>,
    x: &mut lzma_rust2::XzStream,
    held: &mut Vec<u8>,
) -> io::Result<Step> {
    // A little input at a time: when the stream fails, the bytes it took in that call are
    // not known, so this bounds how far the error's offset can be off.
    let input = win.avail()?;
    let input = &input[..input.len().min(XZ_IN)];
    let old = held.len();
    held.resize(old + XZ_OUT, 0);
    if input.is_empty() {
        // At the end of the input: what the decoder can still give, before it is told the
        // input has ended (a cut stream then fails, and that call gives nothing).
        if let Ok(r) = x.process(&[], &mut held[old..], lzma_rust2::Action::Run)
            && r.bytes_produced > 0
        {
            held.truncate(old + r.bytes_produced);
            return Ok(Step::More);
        }
    }
    let action = if input.is_empty() {
        lzma_rust2::Action::Finish
    } else {
        lzma_rust2::Action::Run
    };
    let r = x.process(input, &mut held[old..], action);
    let r = match r {
        Ok(r) => r,
        Err(e) => {
            held.truncate(old);
            let msg = e.to_string();
            return Ok(if msg.contains("checksum") {
                Step::Mismatch(msg)
            } else {
                Step::Broken(msg)
            });
        }
    };
    held.truncate(old + r.bytes_produced);
    win.consume(r.bytes_consumed);
    if r.status == lzma_rust2::Status::StreamEnd {
        return Ok(Step::Ended);
    }
    if r.bytes_consumed == 0 && r.bytes_produced == 0 {
        return Ok(Step::Broken(if input_empty(win)? {
            "unexpected end of the input".into()
        } else {
            "no progress".into()
        }));
    }
    Ok(Step::More)
}

#[cfg(feature = "xz")]
fn input_empty<R: Read>(win: &mut Window<R>) -> io::Result<bool> {
    Ok(win.avail()?.is_empty())
}

/// A bzip2 stream a block further: the block is found by its magic and the next one, and
/// decoded on its own; a block that fails (its CRC, or its data) is dropped alone.
fn step_bzip2<R: Read>(
    win: &mut Window<R>,
    bz: &mut Bzip2,
    held: &mut Vec<u8>,
) -> io::Result<Step> {
    let file_at = win.pos;
    let buf = win.peek(BZ_BLOCK_MAX + 16)?;
    let at = u64::from(bz.bit);
    let cut = || Step::Broken("cut short by the end of the input".into());
    let Some(magic) = bits48(buf, at) else {
        return Ok(cut());
    };
    if magic == BZ_END {
        // The magic, the stream's CRC (its blocks were checked one by one), then padding.
        let n = (at + 80).div_ceil(8) as usize;
        if buf.len() < n {
            return Ok(cut());
        }
        win.consume(n);
        bz.bit = 0;
        return Ok(Step::Ended);
    }
    if magic != BZ_BLOCK {
        return Ok(Step::Broken(
            "no block where the next one should start".into(),
        ));
    }
    let Some(end) = find_bz_magic(buf, at + 48) else {
        return Ok(if buf.len() < BZ_BLOCK_MAX {
            cut()
        } else {
            Step::Broken(format!(
                "a block without its end within {BZ_BLOCK_MAX} bytes"
            ))
        });
    };
    let crc = bits48(buf, at + 48).map_or(0, |v| v >> 16);
    let mut w = BitWriter::new(&[b'B', b'Z', b'h', b'0' + bz.level]);
    w.copy(buf, at, end);
    w.put(BZ_END, 48);
    w.put(crc, 32);
    let stream = w.finish();
    let old = held.len();
    let failed = bunzip(&stream, held);
    let Some(failed) = failed else {
        win.consume((end / 8) as usize);
        bz.bit = (end % 8) as u8;
        return Ok(Step::More);
    };
    let dropped = held.split_off(old);
    // A block that fails and runs over the start of another piece (a zstd frame, a gzip
    // member...) lost its end: the stream is damaged, not one block of it.
    let (from, to) = ((at / 8 + 1) as usize, (end / 8) as usize);
    let over = buf.get(from..to).is_some_and(|span| {
        span.iter()
            .enumerate()
            .any(|(i, &b)| may_start(b) && buf.get(from + i..).and_then(piece_at).is_some())
    });
    if over {
        return Ok(Step::Broken(format!(
            "block fails ({failed}) and runs into another piece"
        )));
    }
    win.consume((end / 8) as usize);
    bz.bit = (end % 8) as u8;
    Ok(Step::Part(
        format!(
            "bzip2 block at byte {} (bit {}) fails its check ({failed}): input bytes {}..{} dropped",
            file_at + at / 8,
            at % 8,
            file_at + at / 8,
            file_at + end.div_ceil(8)
        ),
        dropped,
    ))
}

/// Decompresses `stream` (one bzip2 block made a stream of its own) onto `held`: `None` when
/// it ends well, else why it failed (what it decompressed before is left on `held`).
#[cfg(feature = "bzip2")]
fn bunzip(stream: &[u8], held: &mut Vec<u8>) -> Option<String> {
    let mut d = bzip2::Decompress::new(false);
    let mut input = stream;
    loop {
        let len = held.len();
        held.resize(len + STEP, 0);
        let (in0, out0) = (d.total_in(), d.total_out());
        let r = d.decompress(input, &mut held[len..]);
        let consumed = (d.total_in() - in0) as usize;
        let produced = (d.total_out() - out0) as usize;
        held.truncate(len + produced);
        input = input.get(consumed..).unwrap_or(&[]);
        match r {
            Ok(bzip2::Status::StreamEnd) => break None,
            Ok(_) if consumed == 0 && produced == 0 => break Some("no progress".to_string()),
            Ok(_) => {}
            Err(e) => break Some(format!("{e}")),
        }
    }
}

/// Without the `bzip2` feature no bzip2 stream starts ([`Decoded::begin`] says why), so no
/// block is decompressed.
#[cfg(not(feature = "bzip2"))]
fn bunzip(stream: &[u8], held: &mut Vec<u8>) -> Option<String> {
    let _ = (stream, held);
    Some(without("bzip2").to_string())
}

/// A gzip member a step further, its trailer (CRC32, ISIZE) checked at its end.
fn step_gzip<R: Read>(win: &mut Window<R>, g: &mut Gzip, held: &mut Vec<u8>) -> io::Result<Step> {
    if g.ended {
        let t = win.peek(8)?;
        if t.len() < 8 {
            return Ok(Step::Broken(
                "trailer cut short by the end of the input".into(),
            ));
        }
        let crc = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
        let size = u32::from_le_bytes([t[4], t[5], t[6], t[7]]);
        win.consume(8);
        if crc != g.crc.sum() || size != g.crc.amount() {
            return Ok(Step::Mismatch("CRC32 or ISIZE does not match".into()));
        }
        return Ok(Step::Ended);
    }
    let input = win.avail()?;
    if input.is_empty() {
        return Ok(Step::Broken("unexpected end of the input".into()));
    }
    let (in0, out0) = (g.inflate.total_in(), g.inflate.total_out());
    let old = held.len();
    held.resize(old + STEP, 0);
    let r = g
        .inflate
        .decompress(input, &mut held[old..], flate2::FlushDecompress::None);
    let consumed = (g.inflate.total_in() - in0) as usize;
    let produced = (g.inflate.total_out() - out0) as usize;
    held.truncate(old + produced);
    g.crc.update(&held[old..]);
    win.consume(consumed);
    match r {
        Ok(flate2::Status::StreamEnd) => {
            g.ended = true;
            Ok(Step::More)
        }
        Ok(_) if consumed == 0 && produced == 0 => Ok(Step::Broken("no progress".into())),
        Ok(_) => Ok(Step::More),
        Err(e) => Ok(Step::Broken(e.to_string())),
    }
}

impl<R: Read> Read for Decoded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            match self.out.front_mut() {
                Some(Chunk::Data(d, at)) => {
                    let rest = d.get(*at..).unwrap_or(&[]);
                    let n = rest.len().min(buf.len());
                    buf[..n].copy_from_slice(&rest[..n]);
                    *at += n;
                    if *at >= d.len() {
                        self.out.pop_front();
                    }
                    if n > 0 {
                        return Ok(n);
                    }
                }
                Some(Chunk::Error(_)) => {
                    if let Some(Chunk::Error(e)) = self.out.pop_front() {
                        return Err(e);
                    }
                }
                None if self.done => return Ok(0),
                None => self.step()?,
            }
        }
    }
}

/// `message` on one line: the decoders' errors may be multi-line debug dumps, and each
/// damage is one line of stderr.
fn one_line(message: &str) -> String {
    message.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn invalid(message: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_numbers() {
        assert_eq!(sniff(&[0x28, 0xb5, 0x2f, 0xfd, 0x04]), Some(Kind::Zstd));
        assert_eq!(sniff(&[0x5d, 0x2a, 0x4d, 0x18, 0, 0]), Some(Kind::Zstd));
        assert_eq!(sniff(&[0x50, 0x2a, 0x4d, 0x18]), Some(Kind::Zstd));
        assert_eq!(sniff(b"\xfd7zXZ\x00\x00\x04"), Some(Kind::Xz));
        assert_eq!(sniff(b"BZh91AY&SY\x00"), Some(Kind::Bzip2));
        assert_eq!(sniff(b"BZh9\x17\x72\x45\x38\x50\x90"), Some(Kind::Bzip2));
        // Text that starts like a magic is text.
        assert_eq!(sniff(b"BZh9 and some text"), None);
        assert_eq!(sniff(b"<html>"), None);
        assert_eq!(sniff(b"WARC/1.0\r\n"), None);
        assert_eq!(sniff(&[0x1f, 0x8b, 0x08]), None);
    }

    fn read_all(kind: Kind, bytes: &[u8]) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        let _ = kind;
        Decoded::new(io::Cursor::new(bytes.to_vec()), 0, 1 << 20).read_to_end(&mut out)?;
        Ok(out)
    }

    #[cfg(feature = "zstd")]
    #[test]
    fn zstd_frames_and_skippable_frames() {
        use ruzstd::encoding::{CompressionLevel, compress_to_vec};
        let mut bytes = compress_to_vec(&b"first "[..], CompressionLevel::Fastest);
        bytes.extend_from_slice(&[0x53, 0x2a, 0x4d, 0x18, 2, 0, 0, 0, 9, 9]);
        bytes.extend(compress_to_vec(&b"second"[..], CompressionLevel::Fastest));
        assert_eq!(read_all(Kind::Zstd, &bytes).unwrap(), b"first second");
        // Cut inside the last frame, or junk after the frames: an error.
        let cut = &bytes[..bytes.len() - 1];
        let e = read_all(Kind::Zstd, cut).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert!(e.to_string().contains("zstd frame at byte"), "{e}");
        let mut junk = bytes.clone();
        junk.extend_from_slice(b"junk");
        assert!(read_all(Kind::Zstd, &junk).is_err());
        // A dictionary frame that holds no dictionary.
        let mut bad = vec![0x5d, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 1, 2, 3, 4];
        bad.extend(compress_to_vec(&b"x"[..], CompressionLevel::Fastest));
        assert!(read_all(Kind::Zstd, &bad).is_err());
    }

    fn warc_record(n: usize) -> Vec<u8> {
        let body = format!("<html><title>{n}</title><p>Page {n} of the test.</p></html>");
        format!(
            "WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://example.org/{n}\r\n\
             WARC-Record-ID: <urn:uuid:{n}>\r\nContent-Type: text/html\r\n\
             Content-Length: {}\r\n\r\n{body}\r\n\r\n",
            body.len()
        )
        .into_bytes()
    }

    /// A zstd frame by hand: `head` and `tail` as raw blocks around `zeros` bytes of zeros as
    /// RLE blocks of 128 KiB (4 bytes each), its content size in the header.
    fn rle_frame(head: &[u8], zeros: u64, tail: &[u8]) -> Vec<u8> {
        const BLOCK: u64 = 128 << 10;
        let block = |size: u64, kind: u64, last: bool| {
            let h = (size << 3) | (kind << 1) | u64::from(last);
            [h as u8, (h >> 8) as u8, (h >> 16) as u8]
        };
        let size = head.len() as u64 + zeros + tail.len() as u64;
        // Frame_Header_Descriptor 0xC0: an 8-byte content size, a window descriptor (1 MiB).
        let mut f = vec![0x28, 0xb5, 0x2f, 0xfd, 0xc0, 0x50];
        f.extend_from_slice(&size.to_le_bytes());
        f.extend_from_slice(&block(head.len() as u64, 0, false));
        f.extend_from_slice(head);
        let mut left = zeros;
        while left > 0 {
            let n = left.min(BLOCK);
            f.extend_from_slice(&block(n, 1, false));
            f.push(0);
            left -= n;
        }
        f.extend_from_slice(&block(tail.len() as u64, 0, true));
        f.extend_from_slice(tail);
        f
    }

    /// A build without a format's decoder still knows the format by its magic bytes: an input
    /// of it is an error naming the missing feature, and a piece of it among others is one
    /// fault with that message; neither is read as a page or dropped without a word.
    #[cfg(not(all(feature = "zstd", feature = "xz", feature = "bzip2")))]
    #[test]
    fn a_format_built_without_is_an_error_that_names_its_feature() {
        use crate::input::{Framing, Input, Item};
        use std::io::Write;
        let open = |file: Vec<u8>| {
            Input::from_reader(
                Box::new(io::Cursor::new(file)),
                "slim",
                Framing::Auto,
                1 << 20,
                false,
            )
        };
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&warc_record(2)).unwrap();
        let gz = gz.finish().unwrap();
        let mut xz = XZ_MAGIC.to_vec();
        xz.extend_from_slice(&[0, 4, 0xe6, 0xd6, 0xb4, 0x46, 2, 0, 0x21, 1]);
        let mut bz = b"BZh91AY&SY".to_vec();
        bz.extend_from_slice(&[0x5a, 0x1c, 0x7b, 0x3e, 0, 0, 1, 2, 3]);
        let cases = [
            (Kind::Zstd, rle_frame(&warc_record(1), 0, b"")),
            (Kind::Xz, xz),
            (Kind::Bzip2, bz),
        ];
        let mut seen = 0;
        for (kind, piece) in cases {
            if kind.built() {
                continue;
            }
            seen += 1;
            let name = kind.name();
            let want =
                format!("{name} input, but this pith was built without the `{name}` feature");
            assert_eq!(sniff(&piece), Some(kind));
            // The whole input.
            let Err(e) = open(piece.clone()) else {
                panic!("{name}: read as an input");
            };
            assert_eq!(e.kind(), io::ErrorKind::InvalidData);
            assert!(e.to_string().contains(&want), "{name}: {e}");
            // Before a gzip member: one fault, then the member's record.
            let mut file = piece.clone();
            file.extend_from_slice(&gz);
            let (mut input, framing) = open(file).unwrap();
            assert_eq!(framing, Framing::Warc, "{name}");
            let items: Vec<Item> = std::iter::from_fn(|| input.next_item()).collect();
            assert_eq!(items.len(), 2, "{name}: {items:?}");
            assert!(
                matches!(&items[0], Item::Fault(f) if f.message.contains(&want)),
                "{name}: {:?}",
                items[0]
            );
            assert!(
                matches!(&items[1], Item::Page(r) if r.place.url.as_deref() == Some("http://example.org/2")),
                "{name}: {:?}",
                items[1]
            );
            // After a plain record: the record, then one fault.
            let mut file = warc_record(1);
            file.extend_from_slice(&piece);
            let (mut input, _) = open(file).unwrap();
            let items: Vec<Item> = std::iter::from_fn(|| input.next_item()).collect();
            assert_eq!(items.len(), 2, "{name}: {items:?}");
            assert!(matches!(&items[0], Item::Page(_)), "{name}: {:?}", items[0]);
            assert!(
                matches!(&items[1], Item::Fault(f) if f.message.contains(&want)),
                "{name}: {:?}",
                items[1]
            );
            // The decoder alone: the error, and no byte.
            let e = read_all(kind, &piece).unwrap_err();
            assert!(e.to_string().contains(&want), "{name}: {e}");
        }
        assert!(seen > 0);
    }

    #[cfg(feature = "zstd")]
    #[test]
    fn a_zstd_bomb_record_is_skipped_by_its_frame_not_decompressed() {
        use crate::input::{Framing, Input, Item};
        use ruzstd::encoding::{CompressionLevel, compress_to_vec};
        // 8 GiB of zeros claimed by one record in 256 KB of RLE blocks: decompressing it would
        // take minutes; its frame is stepped over by its block headers.
        let zeros: u64 = 8 << 30;
        let head = format!(
            "WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://example.org/bomb\r\n\
             WARC-Record-ID: <urn:uuid:bomb>\r\nContent-Type: text/html\r\n\
             Content-Length: {zeros}\r\n\r\n"
        );
        let mut file = compress_to_vec(&warc_record(1)[..], CompressionLevel::Fastest);
        file.extend(rle_frame(head.as_bytes(), zeros, b"\r\n\r\n"));
        file.extend(compress_to_vec(
            &warc_record(2)[..],
            CompressionLevel::Fastest,
        ));
        let (mut input, framing) = Input::from_reader(
            Box::new(io::Cursor::new(file)),
            "bomb",
            Framing::Auto,
            1 << 20,
            false,
        )
        .unwrap();
        assert_eq!(framing, Framing::Warc);
        let mut items = Vec::new();
        while let Some(item) = input.next_item() {
            items.push(item);
        }
        assert_eq!(items.len(), 3, "{items:?}");
        assert!(
            matches!(&items[0], Item::Page(r) if r.page().ends_with(b"Page 1 of the test.</p></html>"))
        );
        assert!(
            matches!(&items[1], Item::Fault(f) if f.message.contains("over the record limit")),
            "{:?}",
            items[1]
        );
        assert!(
            matches!(&items[2], Item::Page(r) if r.place.url.as_deref() == Some("http://example.org/2")),
            "{:?}",
            items[2]
        );
    }
}
