//! zstd, xz and bzip2 inputs, recognized by their magic bytes and decompressed as a stream.
//!
//! A `.warc.zst` (the Zstandard WARC format, as the Internet Archive writes it) is one zstd
//! frame per record, optionally after a *dictionary frame*: a skippable frame with magic
//! `0x184D2A5D` whose payload is a zstd dictionary, itself possibly zstd-compressed, that the
//! frames after it are compressed with. Other skippable frames (`0x184D2A50..=0x184D2A5F`) are
//! stepped over. xz and bzip2 files may be one stream or one stream per record, concatenated.
//!
//! Memory is bounded: the decoders hold a window (zstd up to 128 MiB, xz a dictionary within
//! [`XZ_MEM_LIMIT_KIB`], bzip2 a 900 KB block), never the file; the readers above bound every
//! record by `--max-record-bytes`. A corrupt or cut stream fails one read with
//! `InvalidData` naming the format, and the stream ends there: the records before it are
//! kept, the damage is reported, nothing after it is made up.

use std::io::{self, BufRead, Read};

use ruzstd::decoding::{Dictionary, FrameDecoder};

/// A compression format recognized by its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Zstandard (RFC 8878): a frame (`28 B5 2F FD`) or a skippable frame (`5? 2A 4D 18`).
    Zstd,
    /// xz (`FD 37 7A 58 5A 00`).
    Xz,
    /// bzip2 (`BZh` and a block size digit).
    Bzip2,
}

impl Kind {
    /// The format's name, as messages give it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Zstd => "zstd",
            Kind::Xz => "xz",
            Kind::Bzip2 => "bzip2",
        }
    }
}

/// zstd frame magic, little-endian 0xFD2FB528.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];
/// The dictionary frame of the Zstandard WARC format.
const DICT_FRAME: u32 = 0x184d_2a5d;
/// The largest dictionary read from a dictionary frame (IA's are a few hundred KB).
const MAX_DICT: usize = 16 << 20;
/// Memory limit of the xz decoder, KiB: `xz -9` needs 65 MiB; a header asking for a larger
/// dictionary is refused rather than allocated.
pub const XZ_MEM_LIMIT_KIB: u32 = 256 << 10;

/// True for the first bytes of a zstd skippable frame (magic `0x184D2A5?`).
fn skippable(head: &[u8]) -> bool {
    head.len() >= 4 && head[0] & 0xf0 == 0x50 && head[1..4] == [0x2a, 0x4d, 0x18]
}

/// The compression format `head` (the first bytes of an input) starts with, if any.
pub fn sniff(head: &[u8]) -> Option<Kind> {
    if head.starts_with(&ZSTD_MAGIC) || skippable(head) {
        Some(Kind::Zstd)
    } else if head.starts_with(b"\xfd7zXZ\x00") {
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

/// The decompressed bytes of `raw`, which starts with `kind`'s magic.
pub fn decoder(kind: Kind, raw: Box<dyn BufRead + Send>) -> Decoded {
    let inner: Box<dyn Read + Send> = match kind {
        Kind::Zstd => {
            return Decoded {
                kind,
                inner: Inner::Zstd(Box::new(Zstd::new(raw))),
                failed: false,
                pending: None,
            };
        }
        Kind::Xz => Box::new(lzma_rust2::XzReader::new_mem_limit(
            raw,
            true,
            XZ_MEM_LIMIT_KIB,
        )),
        Kind::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(raw)),
    };
    Decoded {
        kind,
        inner: Inner::Other(inner),
        failed: false,
        pending: None,
    }
}

enum Inner {
    Zstd(Box<Zstd<Box<dyn BufRead + Send>>>),
    Other(Box<dyn Read + Send>),
}

/// A decompressed stream that fails once, with `InvalidData` naming the format, at the first
/// damage, and ends there.
pub struct Decoded {
    kind: Kind,
    inner: Inner,
    failed: bool,
    /// An error met while skipping a frame, given by the next read.
    pending: Option<io::Error>,
}

impl Decoded {
    fn fail(&mut self, e: io::Error) -> io::Error {
        self.failed = true;
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("corrupt or truncated {} stream: {e}", self.kind.name()),
        )
    }

    /// A zstd record over the limit, decompressed bytes `start..end`, that is the whole of the
    /// zstd frame being read (the frame starts at `start` and its header states `end - start`
    /// bytes): drops the rest of the frame without decompressing it, so that reading goes on
    /// at `end` (a bomb costs its compressed size); false, and nothing done, otherwise. The
    /// caller drops the bytes it has buffered.
    pub fn skip_frame(&mut self, start: u64, end: u64) -> bool {
        let Inner::Zstd(z) = &mut self.inner else {
            return false;
        };
        if self.failed || !z.frame_is(start, end) {
            return false;
        }
        if let Err(e) = z.skip_rest() {
            let e = self.fail(e);
            self.pending = Some(e);
        }
        true
    }
}

impl Read for Decoded {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(e) = self.pending.take() {
            return Err(e);
        }
        if self.failed {
            return Ok(0);
        }
        let got = match &mut self.inner {
            Inner::Zstd(z) => z.read(buf),
            Inner::Other(r) => r.read(buf),
        };
        match got {
            Ok(n) => Ok(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => Err(e),
            Err(e) => Err(self.fail(e)),
        }
    }
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

/// zstd frames one after another, skippable frames stepped over and a dictionary frame's
/// dictionary used for the frames after it (ruzstd decodes one frame at a time).
struct Zstd<R> {
    raw: R,
    decoder: FrameDecoder,
    /// Inside a frame (its header read).
    in_frame: bool,
    /// The dictionary of the dictionary frame, used by frames that do not name theirs.
    dict: Option<u32>,
    /// Decompressed bytes handed out so far...
    out: u64,
    /// ...and their count where the current frame started.
    frame_start: u64,
    /// The current frame ends with a checksum.
    checksum: bool,
}

impl<R: BufRead> Zstd<R> {
    fn new(raw: R) -> Self {
        Zstd {
            raw,
            decoder: FrameDecoder::new(),
            in_frame: false,
            dict: None,
            out: 0,
            frame_start: 0,
            checksum: false,
        }
    }

    /// True inside a frame that started at decompressed offset `start` and whose header
    /// states its size, `end - start`.
    fn frame_is(&self, start: u64, end: u64) -> bool {
        self.in_frame
            && self.frame_start == start
            && self.out <= end
            && end > start
            && self.decoder.content_size() == end - start
    }

    /// Drops the rest of the current frame by its block headers, without decoding it.
    fn skip_rest(&mut self) -> io::Result<()> {
        self.in_frame = false;
        self.out = self.frame_start + self.decoder.content_size();
        if self.decoder.is_finished() {
            return Ok(());
        }
        loop {
            let mut h = [0; 3];
            self.raw.read_exact(&mut h)?;
            let h = u32::from_le_bytes([h[0], h[1], h[2], 0]);
            let size = u64::from(h >> 3);
            let skip = match (h >> 1) & 3 {
                0 | 2 => size,
                1 => 1,
                _ => return Err(invalid("reserved block type".into())),
            };
            let n = io::copy(&mut (&mut self.raw).take(skip), &mut io::sink())?;
            if n < skip {
                return Err(invalid("frame cut short".into()));
            }
            if h & 1 == 1 {
                break;
            }
        }
        if self.checksum {
            let mut c = [0; 4];
            self.raw.read_exact(&mut c)?;
        }
        Ok(())
    }

    /// Reads a skippable frame whose magic `magic` has been read.
    fn skippable_frame(&mut self, magic: u32) -> io::Result<()> {
        let mut header = [0; 4];
        self.raw.read_exact(&mut header)?;
        let len = u32::from_le_bytes(header) as u64;
        if magic != DICT_FRAME {
            let skipped = io::copy(&mut (&mut self.raw).take(len), &mut io::sink())?;
            if skipped < len {
                return Err(invalid("skippable frame cut short".into()));
            }
            return Ok(());
        }
        if len as usize > MAX_DICT {
            return Err(invalid(format!(
                "dictionary frame of {len} bytes (over {MAX_DICT})"
            )));
        }
        let mut payload = Vec::with_capacity(len as usize);
        (&mut self.raw).take(len).read_to_end(&mut payload)?;
        if payload.len() as u64 != len {
            return Err(invalid("dictionary frame cut short".into()));
        }
        if payload.starts_with(&ZSTD_MAGIC) {
            // A compressed dictionary (the format allows either).
            let mut dict = Vec::new();
            let mut frame = ruzstd::decoding::StreamingDecoder::new(payload.as_slice())
                .map_err(|e| invalid(format!("dictionary frame: {e}")))?;
            (&mut frame)
                .take(MAX_DICT as u64 + 1)
                .read_to_end(&mut dict)?;
            if dict.len() > MAX_DICT {
                return Err(invalid(format!("dictionary over {MAX_DICT} bytes")));
            }
            payload = dict;
        }
        let dict = Dictionary::decode_dict(&payload)
            .map_err(|e| invalid(format!("dictionary frame: {e}")))?;
        self.dict = Some(dict.id);
        self.decoder
            .add_dict(dict)
            .map_err(|e| invalid(format!("dictionary frame: {e}")))
    }

    /// At a frame boundary: starts the next frame; false at the end of the input.
    fn next_frame(&mut self) -> io::Result<bool> {
        loop {
            if self.raw.fill_buf()?.is_empty() {
                return Ok(false);
            }
            let mut magic = [0; 4];
            self.raw.read_exact(&mut magic)?;
            if skippable(&magic) {
                self.skippable_frame(u32::from_le_bytes(magic))?;
                continue;
            }
            if magic != ZSTD_MAGIC {
                return Err(invalid("bytes that are not a zstd frame".into()));
            }
            let mut descriptor = [0; 1];
            self.raw.read_exact(&mut descriptor)?;
            let head = [magic[0], magic[1], magic[2], magic[3], descriptor[0]];
            self.decoder
                .reset((&head[..]).chain(&mut self.raw))
                .map_err(|e| invalid(e.to_string()))?;
            // Frame_Header_Descriptor bits 0-1: no dictionary ID in the header, so a frame
            // after a dictionary frame uses its dictionary.
            if descriptor[0] & 3 == 0
                && let Some(id) = self.dict
            {
                self.decoder
                    .force_dict(id)
                    .map_err(|e| invalid(e.to_string()))?;
            }
            self.in_frame = true;
            self.frame_start = self.out;
            // Frame_Header_Descriptor bit 2: Content_Checksum_Flag.
            self.checksum = descriptor[0] & 4 != 0;
            return Ok(true);
        }
    }
}

impl<R: BufRead> Read for Zstd<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if !self.in_frame && !self.next_frame()? {
                return Ok(0);
            }
            while self.decoder.can_collect() == 0 && !self.decoder.is_finished() {
                self.decoder
                    .decode_blocks(
                        &mut self.raw,
                        ruzstd::decoding::BlockDecodingStrategy::UptoBlocks(1),
                    )
                    .map_err(|e| invalid(e.to_string()))?;
            }
            if self.decoder.can_collect() > 0 {
                let n = self.decoder.read(buf)?;
                self.out += n as u64;
                return Ok(n);
            }
            // The frame has ended and every byte of it is handed out: check its checksum.
            if let (Some(want), Some(got)) = (
                self.decoder.get_checksum_from_data(),
                self.decoder.get_calculated_checksum(),
            ) && want != got
            {
                return Err(invalid("frame checksum mismatch".into()));
            }
            self.in_frame = false;
        }
    }
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
        let raw: Box<dyn BufRead + Send> = Box::new(io::Cursor::new(bytes.to_vec()));
        decoder(kind, raw).read_to_end(&mut out)?;
        Ok(out)
    }

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
        assert!(
            e.to_string().contains("corrupt or truncated zstd stream"),
            "{e}"
        );
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
            matches!(&items[2], Item::Page(r) if r.url.as_deref() == Some("http://example.org/2")),
            "{:?}",
            items[2]
        );
    }
}
