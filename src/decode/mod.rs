//! Charset: turns page bytes into UTF-8 text, in the WHATWG encoding-sniffing order.
//!
//! 1. A byte order mark (UTF-8, UTF-16LE/BE) wins and is stripped.
//! 2. The user's `--charset`.
//! 3. The transport charset (HTTP `Content-Type` of a WARC record).
//! 4. The `<meta>` prescan of the first 1024 bytes (WHATWG HTML 13.2.3.2, "prescan a byte
//!    stream to determine its encoding": `<meta charset>` and `<meta http-equiv=content-type
//!    content="...charset=...">`), or an XML declaration's `encoding`.
//! 5. chardetng on a bounded prefix.
//!
//! Declarations lie: pages that declare a legacy encoding (iso-8859-1, windows-1252, and the
//! multi-byte shift_jis, gbk, euc-kr...) but are valid UTF-8 with non-ASCII bytes are read as
//! UTF-8. Such bytes are
//! next to impossible in real legacy text (a UTF-8 multi-byte sequence spells mojibake like
//! `Ã©` in windows-1252), while mislabelled UTF-8 pages are common (see the charset notes in
//! `shared/data/README.md`: four wcxb_dev pages declare iso-8859-1 but are UTF-8).

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};
use memchr::memmem;

/// A decoded page.
pub struct Decoded<'a> {
    /// The page as UTF-8; borrowed from the input when it already was valid UTF-8.
    pub text: Cow<'a, str>,
    /// The encoding it was read in.
    pub encoding: &'static Encoding,
}

/// chardetng reads the words that hold non-ASCII bytes only: ASCII markup says nothing about
/// a legacy encoding and chardetng spends its time per byte. At most this much is fed, so
/// detection costs the same on a 100 MB page as on a 100 KB one...
const DETECT_BUDGET: usize = 8 << 10;
/// ...taken from this many leading bytes of the page...
const DETECT_SCAN: usize = 256 << 10;
/// ...as the word around each non-ASCII byte, reaching at most this far to each side (a long
/// run of letters is cut; chardetng scores pairs of neighbouring bytes, so a word's letters
/// next to its non-ASCII bytes are what it reads).
const DETECT_CONTEXT: usize = 24;

/// Whether `c` continues a word for detection: a letter or digit, or any non-ASCII byte.
fn word_byte(c: u8) -> bool {
    c >= 0x80 || c.is_ascii_alphanumeric()
}

/// Feeds chardetng the words that hold non-ASCII bytes, each with the byte that ends it on
/// either side (a space, a `<`), merged into runs: fed together, the runs read as words
/// between delimiters, as the page does.
fn feed_non_ascii_context(det: &mut chardetng::EncodingDetector, bytes: &[u8]) {
    let scan = &bytes[..bytes.len().min(DETECT_SCAN)];
    let mut fed = 0;
    let mut run: Option<(usize, usize)> = None;
    let mut from = 0;
    while let Some(i) = next_non_ascii(scan, from) {
        let floor = i.saturating_sub(DETECT_CONTEXT);
        let mut s = i;
        while s > floor && word_byte(scan[s - 1]) {
            s -= 1;
        }
        // The delimiter before the word.
        s = s.saturating_sub(1).max(floor);
        let mut e = i + 1;
        // Non-ASCII bytes are word bytes: a word of several is walked once, not found again
        // for each byte (the reach is counted from the last non-ASCII byte seen).
        let mut reach = (i + 1 + DETECT_CONTEXT).min(scan.len());
        while e < reach && word_byte(scan[e]) {
            if scan[e] >= 0x80 {
                reach = (e + 1 + DETECT_CONTEXT).min(scan.len());
            }
            e += 1;
        }
        // The delimiter after it.
        e = (e + 1).min(scan.len());
        from = e;
        match run {
            Some((rs, re)) if s <= re => run = Some((rs, e.max(re))),
            Some((rs, re)) => {
                det.feed(&scan[rs..re], false);
                fed += re - rs;
                if fed >= DETECT_BUDGET {
                    run = None;
                    break;
                }
                run = Some((s, e));
            }
            None => run = Some((s, e)),
        }
    }
    if let Some((rs, re)) = run {
        det.feed(&scan[rs..re], false);
    }
    det.feed(&[], true);
}

/// The first byte at or after `from` that is not ASCII. Eight bytes at a time: legacy pages
/// are mostly ASCII markup, and a byte-by-byte scan of the 256 KB prefix cost more than the
/// detection it feeds.
fn next_non_ascii(b: &[u8], mut from: usize) -> Option<usize> {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = b.get(from..from + 8) {
        let mut w = [0u8; 8];
        w.copy_from_slice(chunk);
        let high = u64::from_le_bytes(w) & HIGH;
        if high != 0 {
            return Some(from + (high.trailing_zeros() / 8) as usize);
        }
        from += 8;
    }
    let tail = b.get(from..)?;
    tail.iter().position(|&c| c >= 0x80).map(|k| from + k)
}

/// A charset the user forces on a page (`--charset`, Python's `charset=`): a label the
/// Encoding Standard knows, kept as given (it is looked up again where it is used, as the
/// page's own labels are).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Charset(String);

impl Charset {
    /// The label as given.
    pub fn label(&self) -> &str {
        &self.0
    }
}

impl std::str::FromStr for Charset {
    type Err = crate::names::UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if encoding_rs::Encoding::for_label(s.trim().as_bytes()).is_some() {
            Ok(Charset(s.to_string()))
        } else {
            Err(crate::names::UnknownName::new("charset", s, &[]))
        }
    }
}

/// Decodes `bytes`. `forced` is the user's `--charset` (wins over everything but a BOM);
/// `transport` the charset of an HTTP header.
pub fn decode<'a>(bytes: &'a [u8], forced: Option<&str>, transport: Option<&str>) -> Decoded<'a> {
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        let rest = &bytes[bom_len..];
        let valid = (enc == UTF_8)
            .then(|| simdutf8::basic::from_utf8(rest).ok())
            .flatten();
        return transcode(rest, enc, valid);
    }
    let label = |l: Option<&str>| l.and_then(|l| Encoding::for_label(l.trim().as_bytes()));
    let declared = label(forced)
        .or_else(|| label(transport))
        .or_else(|| prescan(&bytes[..bytes.len().min(1024)]));
    let valid = simdutf8::basic::from_utf8(bytes).ok();
    let utf8_ok = valid.is_some();
    let enc = match declared {
        // A page cannot be UTF-16 without a BOM once it is parsed as ASCII-compatible bytes
        // (WHATWG: a UTF-16 meta declaration means UTF-8).
        Some(e) if e == UTF_16LE || e == UTF_16BE => UTF_8,
        // A page labelled with a legacy encoding, single-byte or not (shift_jis, gbk,
        // euc-kr...), that is valid UTF-8 with non-ASCII bytes is UTF-8: legacy multi-byte
        // text of any length is next to never valid UTF-8.
        Some(_) if utf8_ok && !bytes.is_ascii() => UTF_8,
        Some(e) => e,
        None if utf8_ok => UTF_8,
        None => {
            let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
            feed_non_ascii_context(&mut det, bytes);
            det.guess(None, chardetng::Utf8Detection::Allow)
        }
    };
    transcode(bytes, enc, valid)
}

/// Transcodes, borrowing when the bytes are already valid UTF-8 and the encoding is UTF-8.
/// `valid` is the caller's validation of `bytes` as UTF-8 (so a page is validated once).
fn transcode<'a>(bytes: &'a [u8], enc: &'static Encoding, valid: Option<&'a str>) -> Decoded<'a> {
    if enc == UTF_8 {
        return Decoded {
            text: valid.map_or_else(|| Cow::Owned(lossy_utf8(bytes)), Cow::Borrowed),
            encoding: UTF_8,
        };
    }
    if enc.is_ascii_compatible() && bytes.is_ascii() {
        // Every ASCII-compatible encoding reads ASCII as itself (what encoding_rs borrows).
        let ascii = simdutf8::basic::from_utf8(bytes).unwrap_or_default();
        return Decoded {
            text: Cow::Borrowed(ascii),
            encoding: enc,
        };
    }
    Decoded {
        text: Cow::Owned(decode_legacy(bytes, enc)),
        encoding: enc,
    }
}

/// Invalid UTF-8 read as `String::from_utf8_lossy` reads it (one U+FFFD per invalid
/// sequence), into a string of exactly its size: growing it by doubling would hold 1.5x the
/// page for a moment beside the page itself.
fn lossy_utf8(bytes: &[u8]) -> String {
    let len: usize = bytes
        .utf8_chunks()
        .map(|c| c.valid().len() + if c.invalid().is_empty() { 0 } else { 3 })
        .sum();
    let mut text = String::with_capacity(len);
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        if !chunk.invalid().is_empty() {
            text.push(char::REPLACEMENT_CHARACTER);
        }
    }
    text
}

/// Decodes a legacy or UTF-16 page as `Encoding::decode_without_bom_handling` does.
/// encoding_rs decodes into the spare capacity of a string and touches every page of it
/// first, so the worst case it would reserve (1.5x a UTF-16 page, 3x a single-byte one) would
/// all become resident memory. An ASCII-compatible page is decoded straight into a string
/// reserved for its bytes plus two for each non-ASCII byte, which holds its text (an ASCII
/// byte decodes to at most itself, a non-ASCII one to at most three bytes, the replacement
/// character's); decoding it through a 32 KiB buffer cost a memset of the buffer and a copy
/// of the text, a third of the instructions of decoding (cleaneval, `auto`: 8.0 M -> 5.4 M).
/// UTF-16 and ISO-2022-JP, whose text no byte count bounds that closely (an ASCII page in
/// UTF-16 decodes to half its size), still go through the buffer.
fn decode_legacy(bytes: &[u8], enc: &'static Encoding) -> String {
    if !enc.is_ascii_compatible() {
        return decode_in_pieces(bytes, enc);
    }
    let mut decoder = enc.new_decoder_without_bom_handling();
    let mut text = String::with_capacity(bytes.len().saturating_add(2 * non_ascii(bytes)));
    let mut read = 0;
    loop {
        let rest = bytes.get(read..).unwrap_or_default();
        let (result, n, _) = decoder.decode_to_string(rest, &mut text, true);
        read += n;
        if result == encoding_rs::CoderResult::InputEmpty {
            return text;
        }
        // Output full, which the reserve above rules out; should a decoder write more, room
        // for what is left at worst, 64 KiB of input at a time.
        let left = bytes.len() - read;
        let more = decoder
            .max_utf8_buffer_length(left.min(64 << 10))
            .unwrap_or(64 << 10);
        text.reserve(more);
    }
}

/// [`decode_legacy`] through a small buffer: the string is reserved for the worst case but
/// only what is written is touched (reserved capacity is address space, not memory).
fn decode_in_pieces(bytes: &[u8], enc: &'static Encoding) -> String {
    /// Decoded text moves through this buffer; large enough that the copy costs little.
    const PIECE: usize = 32 << 10;
    let mut decoder = enc.new_decoder_without_bom_handling();
    let mut text = String::with_capacity(
        decoder
            .max_utf8_buffer_length(bytes.len())
            .unwrap_or(bytes.len()),
    );
    let mut piece = [0u8; PIECE];
    // Validated once: encoding_rs keeps a `&mut str` valid UTF-8 through every call.
    let buf = simdutf8::basic::from_utf8_mut(&mut piece[..]).unwrap_or_default();
    let mut read = 0;
    loop {
        let (result, n, written, _) = decoder.decode_to_str(&bytes[read..], buf, true);
        read += n;
        text.push_str(&buf[..written]);
        if result == encoding_rs::CoderResult::InputEmpty {
            return text;
        }
    }
}

/// How many bytes of `b` are not ASCII. Summed in blocks of 128 bytes into a byte each, a
/// loop of fixed length the compiler turns into SIMD adds (blocks of 255 left a remainder of 15
/// bytes each added one at a time: 0.5 M more instructions on cleaneval).
fn non_ascii(b: &[u8]) -> usize {
    let count = |block: &[u8]| block.iter().fold(0u8, |n, &c| n + (c >> 7)) as usize;
    let (blocks, tail) = b.as_chunks::<128>();
    blocks.iter().map(|block| count(block)).sum::<usize>() + count(tail)
}

/// The WHATWG `<meta>` prescan, simplified to the cases that occur: `<meta charset=x>` and
/// `<meta http-equiv="content-type" content="text/html; charset=x">`, plus `<?xml encoding=x?>`.
/// Comments are skipped. x-user-defined means windows-1252 here.
fn prescan(head: &[u8]) -> Option<&'static Encoding> {
    let mut pos = 0;
    while let Some(off) = memchr::memchr(b'<', &head[pos..]) {
        let lt = pos + off;
        let rest = &head[lt..];
        if rest.starts_with(b"<!--") {
            pos = memmem::find(&rest[4..], b"-->").map_or(head.len(), |i| lt + 4 + i + 3);
            continue;
        }
        let end = memchr::memchr(b'>', rest).map_or(head.len(), |i| lt + i);
        let tag = &head[lt..end];
        pos = end.max(lt + 1);
        let lower = tag.to_ascii_lowercase();
        let is_meta =
            lower.starts_with(b"<meta") && lower.get(5).is_some_and(|b| !b.is_ascii_alphanumeric());
        let is_xml = lower.starts_with(b"<?xml");
        if !(is_meta || is_xml) {
            continue;
        }
        let key: &[u8] = if is_xml { b"encoding" } else { b"charset" };
        if let Some(found) = attr_value_after(&lower, key) {
            let enc = Encoding::for_label(found)?;
            return Some(if enc.name() == "x-user-defined" {
                WINDOWS_1252
            } else {
                enc
            });
        }
    }
    None
}

/// The value following `key` and `=` (quoted or not) anywhere in a lower-cased tag; this covers
/// both `charset=x` and `content="text/html; charset=x"`.
fn attr_value_after<'t>(tag: &'t [u8], key: &[u8]) -> Option<&'t [u8]> {
    let at = memmem::find(tag, key)? + key.len();
    let rest = &tag[at..];
    let rest = rest
        .trim_ascii_start()
        .strip_prefix(b"=")?
        .trim_ascii_start();
    let rest = rest
        .strip_prefix(b"\"")
        .or_else(|| rest.strip_prefix(b"'"))
        .unwrap_or(rest);
    let len = rest
        .iter()
        .position(|&b| {
            matches!(
                b,
                b'"' | b'\'' | b';' | b' ' | b'/' | b'>' | b'?' | b'\t' | b'\n'
            )
        })
        .unwrap_or(rest.len());
    (len > 0).then(|| &rest[..len])
}

/// True when `bytes` are clearly not an HTML page: a binary signature that no text starts
/// with, a signature made of letters (`BM`, `GIF8`, `ID3`...) followed by control bytes in the
/// first 64 bytes (a BMP or MP3 header has them; "BMW unveils..." has none), or a first KiB
/// of which more than a tenth is NUL bytes or more than a twentieth other control bytes (random
/// or compressed data: about a tenth of its bytes are C0 controls), without a UTF-16 byte order
/// mark. Stray NULs or junk before a page are not enough: a crawl holds pages behind garbage,
/// and dropping their article would be a silent loss.
pub fn looks_binary(bytes: &[u8]) -> bool {
    const MAGIC: &[&[u8]] = &[
        b"%PDF-",
        b"\x89PNG",
        b"\xff\xd8\xff",
        b"PK\x03\x04",
        b"\x1f\x8b",
        b"\x00\x00\x01\x00",
        b"\x7fELF",
    ];
    const LETTERS: &[&[u8]] = &[b"GIF8", b"RIFF", b"BM", b"OggS", b"fLaC", b"ID3"];
    // C0 controls that text does not hold (tab, line ends, form feed and the escape of
    // ISO-2022 encodings are text).
    let control = |b: &u8| *b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | b'\x0c' | b'\x1b');
    if MAGIC.iter().any(|m| bytes.starts_with(m)) || crate::input::compress::sniff(bytes).is_some()
    {
        return true;
    }
    if LETTERS.iter().any(|m| bytes.starts_with(m)) && bytes.iter().take(64).any(control) {
        return true;
    }
    if Encoding::for_bom(bytes).is_some() {
        return false;
    }
    let head = &bytes[..bytes.len().min(1024)];
    if bytecount::count(head, 0) * 10 > head.len() {
        return true;
    }
    // Control bytes alone are not enough when markup follows: junk in front of a page keeps
    // the page (the scan for it runs only on such inputs).
    head.iter().filter(|b| control(b)).count() * 20 > head.len() && !has_markup(bytes)
}

/// True when `bytes` hold an HTML landmark (`<html`, `<body`, `<p>`, `</p>`, `<div`, any case).
fn has_markup(bytes: &[u8]) -> bool {
    const TAGS: [&[u8]; 5] = [b"<html", b"<body", b"<p>", b"</p>", b"<div"];
    memchr::memchr_iter(b'<', bytes).any(|i| {
        TAGS.iter().any(|t| {
            bytes
                .get(i..i + t.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(t))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compressed_bytes_inside_a_record_are_binary() {
        for magic in [
            &[0x28, 0xb5, 0x2f, 0xfd, 0x04][..],
            &[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0x00],
        ] {
            assert!(looks_binary(magic), "{magic:?}");
        }
    }

    /// Text of several 32 KiB pieces' length whose multi-byte characters fall across the
    /// pieces' borders, in `enc`, with bytes `enc` cannot read appended.
    fn long_page(enc: &'static Encoding) -> Vec<u8> {
        let text = "<p>Grüße, café; 日本語のテキスト — “quoted” 한국어 文字 Ω</p>\n".repeat(3000);
        let mut bytes = if enc == UTF_16LE || enc == UTF_16BE {
            text.encode_utf16()
                .flat_map(|u| {
                    if enc == UTF_16LE {
                        u.to_le_bytes()
                    } else {
                        u.to_be_bytes()
                    }
                })
                .collect()
        } else {
            enc.encode(&text).0.into_owned()
        };
        // An unpaired surrogate (UTF-16), a truncated sequence (multi-byte encodings).
        bytes.extend_from_slice(&[0xD8, 0x00, 0x81, 0xFF, 0xA4]);
        bytes
    }

    #[test]
    fn decoding_gives_what_encoding_rs_gives_at_once() {
        for enc in [
            UTF_16LE,
            UTF_16BE,
            encoding_rs::SHIFT_JIS,
            encoding_rs::GBK,
            encoding_rs::EUC_KR,
            encoding_rs::ISO_2022_JP,
            WINDOWS_1252,
        ] {
            let bytes = long_page(enc);
            let (whole, _) = enc.decode_without_bom_handling(&bytes);
            let decoded = decode_legacy(&bytes, enc);
            assert!(decoded.len() > 4 * (32 << 10), "{}", enc.name());
            assert!(decoded == whole, "{}: decoded text differs", enc.name());
            if enc.is_ascii_compatible() {
                // Reserved once, never grown.
                let bound = bytes.len() + 2 * non_ascii(&bytes);
                assert!(decoded.capacity() == bound, "{}", enc.name());
            }
            assert_eq!(transcode(&bytes, enc, None).text, whole, "{}", enc.name());
        }
        // ASCII under an ASCII-compatible label is read as itself, without a copy.
        let ascii = b"<p>plain</p>";
        let d = transcode(ascii, encoding_rs::SHIFT_JIS, None);
        assert!(matches!(d.text, Cow::Borrowed("<p>plain</p>")));
    }

    #[test]
    fn invalid_utf8_is_read_as_from_utf8_lossy_reads_it_into_a_string_of_its_size() {
        let cases: [&[u8]; 6] = [
            b"<p>a\xffb</p>",
            b"\xe6\x97\xa5\xe6\x97<p>",  // a truncated character
            b"\x80\x80\xbf caf\xc3\xa9", // lone continuation bytes
            b"\xc0\xaf \xed\xa0\x80 \xf4\x90\x80\x80", // overlong, surrogate, > U+10FFFF
            b"\xf0\x9f\x98",             // cut at the end
            b"valid \xe2\x80\x9cquotes\xe2\x80\x9d",
        ];
        for bytes in cases {
            let text = lossy_utf8(bytes);
            assert_eq!(text, String::from_utf8_lossy(bytes), "{bytes:?}");
            assert_eq!(text.capacity(), text.len(), "{bytes:?}");
        }
    }

    #[test]
    fn bom_wins_over_everything() {
        let mut b = vec![0xFF, 0xFE];
        for c in "<p>é</p>".encode_utf16() {
            b.extend_from_slice(&c.to_le_bytes());
        }
        let d = decode(&b, Some("windows-1252"), None);
        assert_eq!(d.text, "<p>é</p>");
        assert_eq!(d.encoding, UTF_16LE);
    }

    #[test]
    fn forced_then_transport_then_meta() {
        let page = b"<meta charset=iso-8859-5><p>\xe0</p>";
        assert_eq!(
            decode(page, None, None).text,
            "<meta charset=iso-8859-5><p>р</p>"
        );
        assert_eq!(
            decode(page, None, Some("windows-1251")).text,
            "<meta charset=iso-8859-5><p>а</p>"
        );
        assert_eq!(
            decode(page, Some("windows-1252"), Some("windows-1251")).text,
            "<meta charset=iso-8859-5><p>à</p>"
        );
    }

    #[test]
    fn http_equiv_content_and_xml_declaration() {
        let page = b"<!-- <meta charset=utf-8> --><meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1252\"><p>\x93q\x94</p>";
        assert_eq!(decode(page, None, None).encoding, WINDOWS_1252);
        assert!(decode(page, None, None).text.contains("\u{201c}q\u{201d}"));
        let xml = b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><p>caf\xe9</p>";
        assert!(decode(xml, None, None).text.contains("café"));
    }

    #[test]
    fn lying_latin1_label_on_utf8() {
        let page = "<meta charset=iso-8859-1><p>café</p>".as_bytes();
        let d = decode(page, None, None);
        assert_eq!(d.encoding, UTF_8);
        assert!(matches!(d.text, Cow::Borrowed(_)));
    }

    #[test]
    fn lying_multi_byte_labels_on_utf8_and_real_shift_jis() {
        for label in ["shift_jis", "gbk", "euc-kr", "euc-jp", "big5"] {
            let page = format!("<meta charset={label}><p>日本語のテキストと café</p>");
            let d = decode(page.as_bytes(), None, None);
            assert_eq!(d.encoding, UTF_8, "{label}");
            assert!(d.text.contains("日本語"), "{label}");
        }
        // Real Shift_JIS stays Shift_JIS.
        let (bytes, _, _) =
            encoding_rs::SHIFT_JIS.encode("<meta charset=shift_jis><p>日本語のテキスト</p>");
        let d = decode(&bytes, None, None);
        assert!(d.text.contains("日本語"), "{}", d.text);
    }

    #[test]
    fn undeclared_gbk_is_detected() {
        let (bytes, _, _) = encoding_rs::GBK
            .encode("<p>中华人民共和国的首都是北京，这是一个很长的句子，用于检测编码。</p>");
        let d = decode(&bytes, None, None);
        assert!(d.text.contains("北京"), "{}", d.text);
    }

    /// Undeclared legacy pages whose non-ASCII words sit in long ASCII markup: only the words
    /// are fed to chardetng, and it still names each encoding.
    #[test]
    fn undeclared_legacy_pages_are_detected_from_their_words() {
        let markup =
            "<div class=\"navigation-bar\"><a href=\"/index.html\">x</a></div>\n".repeat(40);
        let cases: [(&'static Encoding, &str); 4] = [
            (
                encoding_rs::WINDOWS_1251,
                "<p>Москва — столица России, крупнейший по численности населения город страны.</p>",
            ),
            (
                encoding_rs::WINDOWS_1252,
                "<p>Le café élégant où l'on déjeune à côté de la forêt était fermé ce théâtral été.</p>",
            ),
            (
                encoding_rs::SHIFT_JIS,
                "<p>東京は日本の首都であり、世界有数の大都市です。多くの人々が暮らしています。</p>",
            ),
            (
                encoding_rs::WINDOWS_1250,
                "<p>Příliš žluťoučký kůň úpěl ďábelské ódy; čeština používá háčky a čárky.</p>",
            ),
        ];
        for (enc, text) in cases {
            let page = format!("{markup}{text}{markup}");
            let (bytes, _, unmappable) = enc.encode(&page);
            assert!(!unmappable, "{}", enc.name());
            let d = decode(&bytes, None, None);
            assert_eq!(d.encoding, enc, "{text}");
            assert!(d.text.contains(text), "{}", d.text);
        }
    }

    #[test]
    fn letter_signatures_need_control_bytes_and_random_bytes_are_binary() {
        assert!(!looks_binary(
            b"BMW unveils a new electric car, the company said on Monday."
        ));
        assert!(!looks_binary(
            b"ID3 tags and GIF89a images are described below."
        ));
        assert!(looks_binary(
            b"BM\x36\x00\x0c\x00\x00\x00\x00\x00\x36\x00\x00\x00"
        ));
        assert!(looks_binary(b"ID3\x04\x00\x00\x00\x00\x00\x23TSSE"));
        // Random bytes: about a tenth are C0 controls, NULs rare.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let random: Vec<u8> = (0..4096)
            .map(|_| {
                crate::hash::xorshift64(&mut x);
                (x >> 24) as u8
            })
            .collect();
        assert!(looks_binary(&random));
    }

    #[test]
    fn binary_signatures() {
        assert!(looks_binary(b"\x89PNG\r\n\x1a\n...."));
        assert!(looks_binary(b"abc\x00def"));
        assert!(!looks_binary(b"<html>"));
    }
}
