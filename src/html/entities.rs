//! Character references in text: all HTML5 named entities and numeric references.
//!
//! PLACEHOLDER: the decoding helper replaces this with the full table. The API is fixed.

/// Appends `raw` to `out` with every character reference decoded.
pub fn decode_into(raw: &str, out: &mut String) {
    out.push_str(raw);
}
