//! HTTP responses inside WARC records: status, headers, and the payload as the page's bytes.
//!
//! Crawlers store bodies in every state: still chunked or already de-chunked under a
//! `Transfer-Encoding: chunked` header, gzip or brotli compressed or already decoded under a
//! `Content-Encoding` header (Common Crawl renames the original headers to `X-Crawler-*` and
//! stores decoded bodies; ClueWeb09 declares gzip on decoded bodies). So every transformation
//! is attempted only when the bytes look like it, and a body that does not decode is kept as
//! it is (RFC 9112 section 7.1 for chunked; RFC 9110 section 8.4 for content codings).

use std::io::Read;

/// The parsed head of an HTTP response.
#[derive(Debug, Default)]
pub(crate) struct Response<'a> {
    /// The status code (200...).
    pub status: u16,
    /// Lower-cased media type of the first `Content-Type`, parameters dropped.
    pub media_type: String,
    /// The `charset` parameter of that `Content-Type`.
    pub charset: Option<String>,
    /// `Content-Encoding` (gzip, deflate, br...), lower-cased.
    pub content_encoding: Option<String>,
    /// `Transfer-Encoding: chunked`.
    pub chunked: bool,
    /// `Content-Language`.
    pub content_language: Option<String>,
    /// The bytes after the blank line.
    pub body: &'a [u8],
}

/// Splits a `Name: value` header line (HTTP and WARC share the syntax) into the lower-cased
/// name and the trimmed value; `None` without a colon.
pub(crate) fn header_field(line: &[u8]) -> Option<(String, String)> {
    let colon = memchr::memchr(b':', line)?;
    let name = String::from_utf8_lossy(&line[..colon])
        .trim()
        .to_ascii_lowercase();
    let value = String::from_utf8_lossy(&line[colon + 1..])
        .trim()
        .to_string();
    Some((name, value))
}

/// Parses `block` (a WARC response block) as an HTTP response; `None` when it does not start
/// with a status line (`dns:` responses, FTP, garbage).
pub(crate) fn parse(block: &[u8]) -> Option<Response<'_>> {
    if !block.starts_with(b"HTTP/") {
        return None;
    }
    // The head ends at the first empty line, CRLF or bare LF (ClueWeb09 writes LF only).
    let mut pos = 0;
    let mut lines = Vec::new();
    let body_start = loop {
        let nl = memchr::memchr(b'\n', &block[pos..])? + pos;
        let line = block[pos..nl]
            .strip_suffix(b"\r")
            .unwrap_or(&block[pos..nl]);
        pos = nl + 1;
        if line.is_empty() {
            break pos;
        }
        lines.push(line);
        if lines.len() > 1000 {
            return None;
        }
    };
    let status_line = std::str::from_utf8(lines.first()?).ok()?;
    let status = status_line.split_whitespace().nth(1)?.parse().ok()?;
    let mut r = Response {
        status,
        body: &block[body_start..],
        ..Response::default()
    };
    let mut seen_type = false;
    for line in &lines[1..] {
        let Some((name, value)) = header_field(line) else {
            continue;
        };
        match name.as_str() {
            "content-type" if !seen_type => {
                seen_type = true;
                let mut parts = value.split(';');
                r.media_type = parts.next().unwrap_or("").trim().to_ascii_lowercase();
                for p in parts {
                    if let Some((k, v)) = p.split_once('=')
                        && k.trim().eq_ignore_ascii_case("charset")
                    {
                        let v = v.trim().trim_matches(['"', '\'']);
                        if !v.is_empty() {
                            r.charset = Some(v.to_string());
                        }
                    }
                }
            }
            "content-encoding" => r.content_encoding = Some(value.to_ascii_lowercase()),
            "transfer-encoding" => r.chunked |= value.to_ascii_lowercase().contains("chunked"),
            "content-language" if !value.is_empty() => r.content_language = Some(value),
            _ => {}
        }
    }
    Some(r)
}

impl Response<'_> {
    /// True for HTML and XHTML.
    pub(crate) fn is_html(&self) -> bool {
        matches!(
            self.media_type.as_str(),
            "text/html" | "application/xhtml+xml"
        )
    }

    /// Why this response is not extracted (counted by reason), or `None` for an HTML or XHTML
    /// page with a 2xx status (error pages and redirects are boilerplate, not documents).
    pub(crate) fn skip_reason(&self) -> Option<super::SkipReason> {
        if !self.is_html() {
            Some(super::SkipReason::NotHtml)
        } else if !(200..300).contains(&self.status) {
            Some(super::SkipReason::HttpStatus)
        } else {
            None
        }
    }

    /// The page bytes when they differ from [`Response::body`]: de-chunked and decoded where
    /// the bytes are in that form; `Ok(None)` when the body is the page as it stands. Never
    /// more than `max` bytes of decoded output (`Err` past it: a decompression bomb or a page
    /// over the limit).
    ///
    /// A body that is in a coding and does not decode whole is an `Err`, never part of a page:
    /// a chunked body cut short or without its last chunk, a gzip body cut short or failing its
    /// CRC32, a deflate body that does not reach its end (or fails its Adler-32), a brotli body
    /// that does not finish. A body declared in a coding but stored decoded (it does not decode,
    /// and it reads as markup or text: [`stored_decoded`]) is the page as it stands.
    pub(crate) fn payload(&self, max: usize) -> Result<Option<Vec<u8>>, BodyError> {
        let dechunked = if self.chunked {
            dechunk_checked(self.body).map_err(BodyError::Chunked)?
        } else {
            None
        };
        let body = dechunked.as_deref().unwrap_or(self.body);
        let decoded = match self.content_encoding.as_deref() {
            Some(name @ ("gzip" | "x-gzip" | "deflate" | "br")) => {
                let attempt = match name {
                    // The magic number says gzip: whatever fails then is damage.
                    "gzip" | "x-gzip" if body.starts_with(&[0x1f, 0x8b]) => Some(gunzip(body, max)),
                    "gzip" | "x-gzip" => None,
                    // Servers send zlib-wrapped or raw deflate under this name.
                    "deflate" => Some(inflate(body, true, max).or_else(|zlib| match zlib {
                        Fail::TooLarge => Err(zlib),
                        Fail::Broken(_) => inflate(body, false, max).map_err(|raw| match raw {
                            // What failed is what the first bytes say the body is.
                            Fail::Broken(_) if zlib_header(body) => zlib,
                            _ => raw,
                        }),
                    })),
                    _ => Some(unbrotli(body, max)),
                };
                match attempt {
                    Some(Ok(out)) => Some(out),
                    Some(Err(Fail::TooLarge)) => return Err(BodyError::Inflated { max }),
                    _ if stored_decoded(body) => None,
                    Some(Err(Fail::Broken(why))) => {
                        return Err(BodyError::Broken {
                            coding: name.to_string(),
                            why,
                        });
                    }
                    None => {
                        return Err(BodyError::NotCoded {
                            coding: name.to_string(),
                        });
                    }
                }
            }
            _ => None,
        };
        let out = decoded.or(dechunked);
        let len = out.as_ref().map_or(self.body.len(), Vec::len);
        if len > max {
            return Err(BodyError::TooLarge { len, max });
        }
        Ok(out)
    }
}

/// Why a body did not decode.
#[derive(Debug)]
enum Fail {
    /// It decodes to more than the record limit.
    TooLarge,
    /// It is cut short or damaged (why).
    Broken(String),
}

/// Why an HTTP body is not a page ([`Response::payload`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub(crate) enum BodyError {
    /// Its chunked transfer coding does not decode whole.
    Chunked(ChunkError),
    /// Its content coding (`gzip`, `deflate`, `br`) is cut short or damaged: why.
    Broken {
        /// The coding its header names.
        coding: String,
        /// What failed, where.
        why: String,
    },
    /// Declared in a coding, it is neither in that coding nor text.
    NotCoded {
        /// The coding its header names.
        coding: String,
    },
    /// It decodes to more than the record limit (`max` bytes): a decompression bomb, or a
    /// page over the limit.
    Inflated {
        /// The record limit.
        max: usize,
    },
    /// The page is larger than the record limit.
    TooLarge {
        /// The page's bytes.
        len: usize,
        /// The record limit.
        max: usize,
    },
}

impl BodyError {
    /// What kind of fault the body is: over the limit, or a coding that does not decode.
    pub(crate) fn kind(&self) -> super::FaultKind {
        match self {
            BodyError::Inflated { .. } | BodyError::TooLarge { .. } => super::FaultKind::Limit,
            _ => super::FaultKind::BodyEncoding,
        }
    }
}

impl std::fmt::Display for BodyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BodyError::Chunked(e) => write!(f, "{e}"),
            BodyError::Broken { coding, why } => write!(f, "{coding} body does not decode: {why}"),
            BodyError::NotCoded { coding } => {
                write!(f, "{coding} body is neither {coding} nor text")
            }
            BodyError::Inflated { max } => {
                write!(f, "body decompresses past the record limit of {max} bytes")
            }
            BodyError::TooLarge { len, max } => {
                write!(
                    f,
                    "page of {len} bytes over the record limit of {max} bytes"
                )
            }
        }
    }
}

impl std::error::Error for BodyError {}

/// Why a chunked body does not decode whole ([`dechunk_checked`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub(crate) enum ChunkError {
    /// It ends inside its first chunk size line.
    FirstLine,
    /// A chunk size line is not where the previous chunk's size says (at this byte).
    WrongSize(usize),
    /// A chunk of this size, at this byte, has only the bytes left.
    CutShort {
        /// The chunk's size.
        size: usize,
        /// Where its data starts.
        at: usize,
        /// The bytes left in the body.
        left: usize,
    },
    /// It ends without its last (zero-size) chunk.
    NoLastChunk,
}

impl std::fmt::Display for ChunkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChunkError::FirstLine => {
                write!(f, "chunked body cut short in its first chunk size line")
            }
            ChunkError::WrongSize(pos) => write!(
                f,
                "chunked body with a wrong chunk size (transfer coding broken at byte {pos})"
            ),
            ChunkError::CutShort { size, at, left } => write!(
                f,
                "chunked body cut short: a chunk of {size} bytes at byte {at} has {left}"
            ),
            ChunkError::NoLastChunk => write!(
                f,
                "chunked body cut short: it ends without its last (zero-size) chunk"
            ),
        }
    }
}

impl std::error::Error for ChunkError {}

/// True when a body that does not decode in its declared coding is the page stored decoded
/// (crawlers that decode bodies and keep the header): empty, markup (`<` first, after a BOM
/// and white space), or at least 64 bytes without a control byte in the first 1 KiB. The
/// first bytes of compressed data are neither (a gzip header holds NULs; deflate and brotli
/// bytes are as good as random, and 64 of them without a control byte are rare).
fn stored_decoded(body: &[u8]) -> bool {
    let text = body.strip_prefix(b"\xef\xbb\xbf").unwrap_or(body);
    let text = text.trim_ascii_start();
    if text.is_empty() || text.first() == Some(&b'<') {
        return true;
    }
    let head = &body[..body.len().min(1024)];
    head.len() >= 64
        && !head
            .iter()
            .any(|&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c)) || b == 0x7f)
}

/// Inflates the gzip member(s) at the start of `body`, each checked (CRC32, ISIZE); bytes after
/// a member that do not start another one are left (padding some servers send). At most `max`
/// bytes out.
fn gunzip(body: &[u8], max: usize) -> Result<Vec<u8>, Fail> {
    let mut out = Vec::new();
    let mut rest = body;
    while rest.starts_with(&[0x1f, 0x8b]) {
        let mut d = flate2::bufread::GzDecoder::new(rest);
        let room = (max - out.len().min(max)) as u64 + 1;
        let before = out.len();
        match (&mut d).take(room).read_to_end(&mut out) {
            Ok(_) if out.len() > max => return Err(Fail::TooLarge),
            Ok(_) => {}
            Err(e) => {
                let at = body.len() - rest.len();
                let got = out.len() - before;
                return Err(Fail::Broken(
                    if e.kind() == std::io::ErrorKind::UnexpectedEof {
                        format!("gzip data cut short (member at byte {at}, {got} bytes decoded)")
                    } else {
                        format!("{e} (member at byte {at}, {got} bytes decoded)")
                    },
                ));
            }
        }
        let left = d.into_inner();
        if left.len() == rest.len() {
            break;
        }
        rest = left;
    }
    Ok(out)
}

/// True when `body` starts with a zlib header (RFC 1950: deflate, a window of at most 32 KiB,
/// the check bits right).
fn zlib_header(body: &[u8]) -> bool {
    match body {
        [cmf, flg, ..] => {
            cmf & 0x0f == 8 && cmf >> 4 <= 7 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0
        }
        _ => false,
    }
}

/// Inflates the zlib (`zlib`) or raw deflate stream at the start of `body` to its end (bytes
/// after it are left); a stream that stops before its end block, or whose Adler-32 fails, is
/// `Broken`. At most `max` bytes out.
fn inflate(body: &[u8], zlib: bool, max: usize) -> Result<Vec<u8>, Fail> {
    let mut d = flate2::Decompress::new(zlib);
    let mut out: Vec<u8> = Vec::with_capacity(body.len().saturating_mul(4).clamp(1024, 1 << 20));
    let what = if zlib { "zlib" } else { "deflate" };
    loop {
        if out.len() == out.capacity() {
            // Doubling; the check after each step keeps it within twice the limit.
            out.reserve(out.capacity().max(1024));
        }
        let used = usize::try_from(d.total_in()).unwrap_or(usize::MAX);
        let input = body.get(used..).unwrap_or(&[]);
        let (in_before, out_before) = (d.total_in(), d.total_out());
        let status = d
            .decompress_vec(input, &mut out, flate2::FlushDecompress::None)
            .map_err(|e| Fail::Broken(format!("{what} data corrupt at byte {used}: {e}")))?;
        if out.len() > max {
            return Err(Fail::TooLarge);
        }
        if status == flate2::Status::StreamEnd {
            return Ok(out);
        }
        let moved = d.total_in() != in_before || d.total_out() != out_before;
        if !moved && out.len() < out.capacity() {
            return Err(Fail::Broken(format!(
                "{what} data cut short ({} bytes decoded)",
                out.len()
            )));
        }
    }
}

/// Decodes the brotli stream `body` to its end; a stream that does not finish within `body`
/// is `Broken`. At most `max` bytes out.
fn unbrotli(body: &[u8], max: usize) -> Result<Vec<u8>, Fail> {
    use brotli_decompressor::{BrotliDecompressStream, BrotliResult, BrotliState, StandardAlloc};
    let mut state = BrotliState::new(
        StandardAlloc::default(),
        StandardAlloc::default(),
        StandardAlloc::default(),
    );
    let mut out = Vec::new();
    let mut chunk = vec![0u8; 64 << 10];
    let (mut avail_in, mut in_at) = (body.len(), 0usize);
    let mut total = 0usize;
    loop {
        let (mut avail_out, mut out_at) = (chunk.len(), 0usize);
        let result = BrotliDecompressStream(
            &mut avail_in,
            &mut in_at,
            body,
            &mut avail_out,
            &mut out_at,
            &mut chunk,
            &mut total,
            &mut state,
        );
        out.extend_from_slice(chunk.get(..out_at).unwrap_or(&[]));
        if out.len() > max {
            return Err(Fail::TooLarge);
        }
        match result {
            BrotliResult::ResultSuccess => return Ok(out),
            BrotliResult::NeedsMoreOutput => {}
            BrotliResult::NeedsMoreInput => {
                return Err(Fail::Broken(format!(
                    "brotli data cut short ({} bytes decoded)",
                    out.len()
                )));
            }
            BrotliResult::ResultFailure => {
                return Err(Fail::Broken(format!(
                    "brotli data corrupt at byte {in_at} ({} bytes decoded)",
                    out.len()
                )));
            }
        }
    }
}

/// [`dechunk`], with a body that starts chunked but does not decode whole an error: a chunk
/// size line that is not one where the previous chunk's size says the next begins, a chunk cut
/// short, or no last (zero-size) chunk. Passing the raw body on would put chunk sizes into the
/// text and split characters; passing what decoded would pass part of a page as a page.
pub(crate) fn dechunk_checked(body: &[u8]) -> Result<Option<Vec<u8>>, ChunkError> {
    if chunk_size_line(body).is_none() {
        // A body cut inside its first size line is all hex digits.
        let first = body
            .split(|&b| b == b';')
            .next()
            .unwrap_or(&[])
            .trim_ascii();
        if memchr::memchr(b'\n', body).is_none()
            && !first.is_empty()
            && first.len() <= 16
            && first.iter().all(u8::is_ascii_hexdigit)
        {
            return Err(ChunkError::FirstLine);
        }
        // Not chunked: stored de-chunked under the header.
        return Ok(None);
    }
    let mut out = Vec::with_capacity(body.len());
    let mut pos = 0;
    loop {
        let Some(size) = body.get(pos..).and_then(chunk_size_line) else {
            return Err(ChunkError::WrongSize(pos));
        };
        // `chunk_size_line` found the line end.
        pos += memchr::memchr(b'\n', &body[pos..]).map_or(body.len() - pos, |i| i + 1);
        if size == 0 {
            return Ok(Some(out));
        }
        let Some(data) = pos.checked_add(size).and_then(|end| body.get(pos..end)) else {
            return Err(ChunkError::CutShort {
                size,
                at: pos,
                left: body.len().saturating_sub(pos),
            });
        };
        out.extend_from_slice(data);
        pos += size;
        // CRLF after the chunk data.
        if body.get(pos) == Some(&b'\r') {
            pos += 1;
        }
        if body.get(pos) == Some(&b'\n') {
            pos += 1;
        }
        if pos >= body.len() {
            return Err(ChunkError::NoLastChunk);
        }
    }
}

/// The size on the chunk size line at the start of `body`, when it starts with one (hex
/// digits, optional extensions, line end).
fn chunk_size_line(body: &[u8]) -> Option<usize> {
    let nl = memchr::memchr(b'\n', &body[..body.len().min(1024)])?;
    let line = std::str::from_utf8(&body[..nl]).ok()?.trim();
    let size_hex = line.split(';').next()?.trim();
    if size_hex.is_empty() || size_hex.len() > 16 {
        return None;
    }
    usize::from_str_radix(size_hex, 16).ok()
}

/// Undoes chunked transfer coding; `None` when the body is not chunked (already de-chunked)
/// or does not decode whole ([`dechunk_checked`] says why).
#[cfg(test)]
pub(crate) fn dechunk(body: &[u8]) -> Option<Vec<u8>> {
    dechunk_checked(body).ok().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_and_charset() {
        let r = parse(b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=\"windows-1251\"\r\nContent-Type: text/plain\r\nContent-Language: ru\r\n\r\n<p>x").unwrap();
        assert_eq!(
            (r.status, r.media_type.as_str(), r.charset.as_deref()),
            (200, "text/html", Some("windows-1251"))
        );
        assert_eq!(r.content_language.as_deref(), Some("ru"));
        assert_eq!(r.body, b"<p>x");
        assert!(r.is_html());
        assert!(parse(b"0.0.0.0 dns").is_none());
    }

    #[test]
    fn lf_only_heads() {
        let r = parse(b"HTTP/1.0 404 Not Found\nContent-Type: TEXT/HTML\n\nbody").unwrap();
        assert_eq!(
            (r.status, r.media_type.as_str(), r.body),
            (404, "text/html", &b"body"[..])
        );
    }

    #[test]
    fn chunked_only_when_it_is() {
        assert_eq!(
            dechunk(b"4\r\nWiki\r\n5;x=y\r\npedia\r\n0\r\n\r\n").unwrap(),
            b"Wikipedia"
        );
        assert!(dechunk(b"<html>not chunked").is_none());
        assert_eq!(dechunk_checked(b"<html>not chunked"), Ok(None));
        // A chunk size one too small: the next size line is not one.
        assert!(dechunk_checked(b"3\r\nWiki\r\n5\r\npedia\r\n0\r\n\r\n").is_err());
    }

    #[test]
    fn gzip_body_declared_but_stored_decoded() {
        let r = parse(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n<p>plain</p>").unwrap();
        assert_eq!(r.payload(1000).unwrap(), None);
        assert_eq!(r.body, b"<p>plain</p>");
    }

    #[test]
    fn gzip_bomb_stops_at_the_limit() {
        use std::io::Write;
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(&vec![b'a'; 10 << 20]).unwrap();
        let gz = e.finish().unwrap();
        let mut block =
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n"
                .to_vec();
        block.extend(gz);
        let r = parse(&block).unwrap();
        assert!(r.payload(1 << 20).is_err());
        assert_eq!(
            r.payload(20 << 20).unwrap().map(|p| p.len()),
            Some(10 << 20)
        );
    }

    /// A response block with `coding` declared and `body` as stored.
    fn coded(coding: &str, body: &[u8]) -> Vec<u8> {
        let mut block = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: {coding}\r\n\r\n"
        )
        .into_bytes();
        block.extend_from_slice(body);
        block
    }

    fn page_text() -> Vec<u8> {
        (0..40)
            .map(|i| format!("<p>Paragraph {i}: the council said the bridge opens in spring.</p>"))
            .collect::<String>()
            .into_bytes()
    }

    fn compressed(coding: &str, data: &[u8]) -> Vec<u8> {
        use std::io::Write;
        let level = flate2::Compression::default();
        let out = match coding {
            "gzip" => {
                let mut e = flate2::write::GzEncoder::new(Vec::new(), level);
                e.write_all(data).and_then(|()| e.finish())
            }
            "zlib" => {
                let mut e = flate2::write::ZlibEncoder::new(Vec::new(), level);
                e.write_all(data).and_then(|()| e.finish())
            }
            _ => {
                let mut e = flate2::write::DeflateEncoder::new(Vec::new(), level);
                e.write_all(data).and_then(|()| e.finish())
            }
        };
        out.unwrap()
    }

    #[test]
    fn a_body_cut_anywhere_in_its_coding_is_an_error_never_part_of_a_page() {
        let text = page_text();
        for (coding, how) in [("gzip", "gzip"), ("deflate", "zlib"), ("deflate", "raw")] {
            let whole = compressed(how, &text);
            let block = coded(coding, &whole);
            let r = parse(&block).unwrap();
            assert_eq!(
                r.payload(1 << 20).unwrap().as_deref(),
                Some(&text[..]),
                "{how}"
            );
            for cut in 1..whole.len() {
                let block = coded(coding, &whole[..cut]);
                let r = parse(&block).unwrap();
                let got = r.payload(1 << 20);
                assert!(
                    got.is_err(),
                    "{how} cut at {cut} of {}: {got:?}",
                    whole.len()
                );
            }
        }
    }

    #[test]
    fn a_garbled_body_is_an_error() {
        let text = page_text();
        for how in ["gzip", "zlib", "raw"] {
            let coding = if how == "gzip" { "gzip" } else { "deflate" };
            let whole = compressed(how, &text);
            // Ten bytes zeroed in the middle (issue 43's reproducer), then every byte flipped
            // past the header: the checksum (gzip, zlib) or the stream itself fails.
            let mut zeroed = whole.clone();
            let mid = zeroed.len() / 2;
            zeroed[mid..mid + 10].fill(0);
            let block = coded(coding, &zeroed);
            assert!(parse(&block).unwrap().payload(1 << 20).is_err(), "{how}");
            if how == "raw" {
                // Raw deflate has no checksum: a flip can decode to other text.
                continue;
            }
            for p in 10..whole.len() {
                let mut x = whole.clone();
                x[p] ^= 0x20;
                let block = coded(coding, &x);
                let got = parse(&block).unwrap().payload(1 << 20);
                assert!(
                    got.is_err() || got.as_ref().is_ok_and(|g| g.as_deref() == Some(&text[..])),
                    "{how} flip at {p}: {got:?}"
                );
            }
        }
    }

    #[test]
    fn brotli_cut_short_is_an_error_and_decoded_bodies_stay() {
        // "hello\n" in one uncompressed meta-block, then the last (empty) one.
        let whole = b"\x8f\x02\x80hello\n\x03";
        let block = coded("br", whole);
        let r = parse(&block).unwrap();
        assert_eq!(r.payload(100).unwrap().as_deref(), Some(&b"hello\n"[..]));
        for cut in 1..whole.len() {
            let block = coded("br", &whole[..cut]);
            assert!(parse(&block).unwrap().payload(100).is_err(), "cut at {cut}");
        }
        // Declared but stored decoded: the page as it stands.
        for coding in ["br", "deflate", "gzip"] {
            let block = coded(coding, b"  <html><p>stored decoded</p>");
            assert_eq!(parse(&block).unwrap().payload(100), Ok(None), "{coding}");
        }
        // Declared gzip, neither gzip nor text.
        let block = coded("gzip", b"\x00\x8b\x08\x00\x00\x00\x00\x00\x00\x03binary");
        assert!(parse(&block).unwrap().payload(100).is_err());
    }

    #[test]
    fn a_chunked_body_cut_short_or_without_its_last_chunk_is_an_error() {
        let whole = b"4\r\nWiki\r\n5\r\npedia\r\n0\r\n\r\n";
        assert_eq!(dechunk_checked(whole), Ok(Some(b"Wikipedia".to_vec())));
        // Cut anywhere before the last chunk's size line ends: an error.
        let last = whole.len() - 2;
        for cut in 1..last {
            assert!(dechunk_checked(&whole[..cut]).is_err(), "cut at {cut}");
        }
        // The final CRLF (or trailers) may be missing: the data is whole.
        assert_eq!(
            dechunk_checked(&whole[..last]),
            Ok(Some(b"Wikipedia".to_vec()))
        );
        assert!(dechunk(b"4\r\nWiki\r\n").is_none());
    }
}
