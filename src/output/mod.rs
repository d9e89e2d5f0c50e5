//! Output: renders a [`Selection`] of a [`Document`] as text or markdown.
//!
//! JSON lines framing of whole records lives in [`json`]; this module only turns selected text
//! nodes into a body string.

pub mod json;
pub mod markdown;
pub mod text;

use crate::extract::Selection;
use crate::html::Document;

/// The body format of an extraction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// Plain text: one paragraph per line, white space collapsed, no markup.
    #[default]
    Text,
    /// Markdown: headings, lists, emphasis, links (with `--links`) and tables.
    Markdown,
}

/// Renders the selected nodes of `doc`, composed to NFC (see [`nfc`]).
pub fn render(doc: &Document<'_>, selection: &Selection, format: Format, links: bool) -> String {
    no_controls(nfc(match format {
        Format::Text => text::render(doc, selection),
        Format::Markdown => markdown::render(doc, selection, links),
    }))
}

/// True for the C0 control characters output never holds: all but tab and newline.
fn is_banned_control(b: u8) -> bool {
    b < 0x20 && b != b'\t' && b != b'\n'
}

/// `text` without C0 control characters other than tab and newline (NUL, CR, form feed...):
/// a page's stray control bytes are not text, and a consumer of text, Markdown or JSON output
/// must not meet them (issue 21). Text without any is returned as it is.
pub fn no_controls(mut text: String) -> String {
    if text.bytes().any(is_banned_control) {
        // Only ASCII bytes are removed, so the rest stays valid UTF-8.
        text.retain(|c| !(c.is_ascii() && is_banned_control(c as u8)));
    }
    text
}

/// Composes combining diacritical marks (U+0300-U+036F) with their letters (Unicode NFC), as
/// trafilatura normalizes its output: a page written `u` + U+0308 gives the same words as one
/// written `ü`, for search, dedup and the reader. Only text holding such a mark is normalized
/// (their UTF-8 lead bytes 0xCC/0xCD are found by one SIMD scan): composing the rest of the
/// repertoire (Hangul jamo, other scripts' marks) would cost a per-character check on every
/// page for text that web pages almost never decompose.
pub fn nfc(text: String) -> String {
    use unicode_normalization::UnicodeNormalization;
    if memchr::memchr2(0xCC, 0xCD, text.as_bytes()).is_none() {
        return text;
    }
    text.nfc().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_other_than_tab_and_newline_go() {
        assert_eq!(no_controls("a\0b\tc\r\nd\x0ce\x1b".into()), "ab\tc\nde");
        let owned = "clean\ttext\n".to_string();
        let ptr = owned.as_ptr();
        let out = no_controls(owned);
        assert_eq!(out.as_ptr(), ptr);
    }

    #[test]
    fn nfc_composes_combining_marks_and_leaves_other_text_as_is() {
        assert_eq!(nfc("gepru\u{308}ft, Jane\u{301}".into()), "geprüft, Jané");
        // Already composed, or no mark at all: the same string, not a copy.
        for s in ["geprüft", "plain ASCII", "日本語 — “quotes”"] {
            let owned = s.to_string();
            let ptr = owned.as_ptr();
            let out = nfc(owned);
            assert_eq!(out, s);
            assert_eq!(out.as_ptr(), ptr);
        }
        // A mark with no letter before it stays (nothing to compose with).
        assert_eq!(nfc("\u{301}x".into()), "\u{301}x");
    }
}
