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
pub struct Response<'a> {
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
pub fn header_field(line: &[u8]) -> Option<(String, String)> {
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
pub fn parse(block: &[u8]) -> Option<Response<'_>> {
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
    pub fn is_html(&self) -> bool {
        matches!(
            self.media_type.as_str(),
            "text/html" | "application/xhtml+xml"
        )
    }

    /// Why this response is not extracted (counted by reason), or `None` for an HTML or XHTML
    /// page with a 2xx status (error pages and redirects are boilerplate, not documents).
    pub fn skip_reason(&self) -> Option<&'static str> {
        if !self.is_html() {
            Some("not HTML")
        } else if !(200..300).contains(&self.status) {
            Some("HTTP status not 2xx")
        } else {
            None
        }
    }

    /// The page bytes when they differ from [`Response::body`]: de-chunked and decoded where
    /// the bytes are in that form; `Ok(None)` when the body is the page as it stands. Never
    /// more than `max` bytes of decoded output (`Err` past it: a decompression bomb or a page
    /// over the limit).
    pub fn payload(&self, max: usize) -> Result<Option<Vec<u8>>, String> {
        let dechunked = if self.chunked {
            dechunk_checked(self.body)?
        } else {
            None
        };
        let body = dechunked.as_deref().unwrap_or(self.body);
        let decoded = match self.content_encoding.as_deref() {
            Some("gzip" | "x-gzip") if body.starts_with(&[0x1f, 0x8b]) => {
                bounded(flate2::read::MultiGzDecoder::new(body), max)?
            }
            Some("deflate") => {
                // Servers send zlib-wrapped or raw deflate under this name.
                let z = bounded(flate2::read::ZlibDecoder::new(body), max);
                match z {
                    Ok(Some(v)) if !v.is_empty() => Some(v),
                    Err(e) => return Err(e),
                    _ => bounded(flate2::read::DeflateDecoder::new(body), max)?,
                }
            }
            Some("br") => bounded(brotli_decompressor::Decompressor::new(body, 4096), max)?,
            _ => None,
        };
        let out = decoded.or(dechunked);
        let len = out.as_ref().map_or(self.body.len(), Vec::len);
        if len > max {
            return Err(format!(
                "page of {len} bytes over the record limit of {max} bytes"
            ));
        }
        Ok(out)
    }
}

/// Reads at most `max` bytes; `Ok(None)` when the stream does not decode (the body was stored
/// decoded after all), `Err` when it decodes to more than `max`.
fn bounded(r: impl Read, max: usize) -> Result<Option<Vec<u8>>, String> {
    let mut out = Vec::new();
    match r.take(max as u64 + 1).read_to_end(&mut out) {
        Ok(_) if out.len() > max => Err(format!(
            "body decompresses past the record limit of {max} bytes"
        )),
        Ok(_) => Ok(Some(out)),
        Err(_) if !out.is_empty() => Ok(Some(out)),
        Err(_) => Ok(None),
    }
}

/// [`dechunk`], with a body that starts chunked but breaks off (a chunk size line that is not
/// one where the previous chunk's size says the next begins) an error: passing the raw body on
/// would put chunk sizes into the text and split characters.
pub fn dechunk_checked(body: &[u8]) -> Result<Option<Vec<u8>>, String> {
    match dechunk(body) {
        Some(out) => Ok(Some(out)),
        None if chunk_size_line(body).is_some() => {
            Err("chunked body with a wrong chunk size (transfer coding broken)".into())
        }
        None => Ok(None),
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

/// Undoes chunked transfer coding; `None` when the body is not chunked (already de-chunked).
pub fn dechunk(body: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(body.len());
    let mut pos = 0;
    loop {
        let nl = memchr::memchr(b'\n', &body[pos..])? + pos;
        let line = std::str::from_utf8(&body[pos..nl]).ok()?.trim();
        let size_hex = line.split(';').next()?.trim();
        let size = usize::from_str_radix(size_hex, 16).ok()?;
        pos = nl + 1;
        if size == 0 {
            return Some(out);
        }
        let end = pos.checked_add(size)?;
        if end > body.len() {
            // Cut short: keep what is there.
            out.extend_from_slice(&body[pos..]);
            return Some(out);
        }
        out.extend_from_slice(&body[pos..end]);
        pos = end;
        // CRLF after the chunk data.
        while pos < body.len() && matches!(body[pos], b'\r' | b'\n') {
            pos += 1;
            if body.get(pos - 1) == Some(&b'\n') {
                break;
            }
        }
        if pos >= body.len() {
            return Some(out);
        }
    }
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
}
