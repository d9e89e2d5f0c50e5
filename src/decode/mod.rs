//! Charset: turns page bytes into UTF-8 text.
//!
//! PLACEHOLDER: the decoding helper replaces this with the WHATWG order (BOM, forced charset,
//! transport charset, `<meta>` prescan, chardetng). The API below is fixed.

use std::borrow::Cow;

use encoding_rs::Encoding;

/// A decoded page.
pub struct Decoded<'a> {
    /// The page as UTF-8; borrowed from the input when it already was valid UTF-8.
    pub text: Cow<'a, str>,
    /// The encoding it was read in.
    pub encoding: &'static Encoding,
}

/// Decodes `bytes`. `forced` is the user's `--charset` (wins over everything but a BOM);
/// `transport` the charset of an HTTP header.
pub fn decode<'a>(bytes: &'a [u8], forced: Option<&str>, transport: Option<&str>) -> Decoded<'a> {
    let _ = (forced, transport);
    Decoded {
        text: String::from_utf8_lossy(bytes),
        encoding: encoding_rs::UTF_8,
    }
}

/// True when `bytes` are clearly not an HTML page (NUL-heavy, or a known binary signature).
pub fn looks_binary(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(1024)];
    bytecount::count(head, 0) * 10 > head.len().max(1)
}
