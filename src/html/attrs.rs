//! Attributes, read lazily from a start tag's bytes when someone asks.
//!
//! The tokenizer records only where a start tag begins and ends; most elements' attributes are
//! never looked at, and the few that are (class, id, style, href, meta content) are read here
//! by one forward scan of the tag, following WHATWG 13.2.5.32-38 (before attribute name,
//! attribute name, before/after attribute value, quoted and unquoted values). Nothing is
//! allocated; names and values are slices of the page, values as written (entities are not
//! decoded: no attribute pith reads needs them). A tag with 1,000,000 attributes costs one
//! linear scan per lookup, never more.

use std::ops::Range;

/// The attributes of one start tag, in source order. Duplicates are all listed; HTML keeps
/// the first, and so does [`Attrs::get`].
#[derive(Clone, Debug)]
pub struct Attrs<'a> {
    tag: &'a str,
    pos: usize,
}

impl<'a> Attrs<'a> {
    /// The attributes of the start tag `tag` (from its `<` to its `>` or the end of input).
    pub fn new(tag: &'a str) -> Attrs<'a> {
        let b = tag.as_bytes();
        // Skip `<` and the tag name (13.2.5.8: the name runs to white space, `/` or `>`).
        let mut pos = 1.min(b.len());
        while pos < b.len() && !is(b[pos], BLANK | SLASH | GT) {
            pos += 1;
        }
        Attrs { tag, pos }
    }

    /// No attributes (for text nodes and the document).
    pub fn empty() -> Attrs<'a> {
        Attrs { tag: "", pos: 0 }
    }

    /// The value of the first attribute named `name` (ASCII case-insensitive); `Some("")` for
    /// an attribute written without a value.
    pub fn get(self, name: &str) -> Option<&'a str> {
        self.into_iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
    }
}

/// HTML's ASCII white space (13.2.5.32: tab, LF, FF, CR, space).
#[inline]
fn is_blank(b: u8) -> bool {
    CLASS[b as usize] & BLANK != 0
}

/// Byte classes of the scan below: one table load per byte says which of the bytes that end
/// a name or a value it is, where a chain of compares cost several (`auto` reads the class, id
/// and style of every element with text: callgrind, the scan was 6% of its instructions).
const BLANK: u8 = 1;
const SLASH: u8 = 2;
const GT: u8 = 4;
const EQ: u8 = 8;
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'\t' as usize] = BLANK;
    t[b'\n' as usize] = BLANK;
    t[0x0c] = BLANK;
    t[b'\r' as usize] = BLANK;
    t[b' ' as usize] = BLANK;
    t[b'/' as usize] = SLASH;
    t[b'>' as usize] = GT;
    t[b'=' as usize] = EQ;
    t
};

/// Whether `b` is of one of the classes in `mask`.
#[inline(always)]
fn is(b: u8, mask: u8) -> bool {
    CLASS[b as usize] & mask != 0
}

impl<'a> Attrs<'a> {
    /// The next attribute's name and value as bytes of the page ([`Iterator::next`] without
    /// making them `str`s, for callers that only compare bytes).
    #[inline(always)]
    pub fn next_bytes(&mut self) -> Option<(&'a [u8], &'a [u8])> {
        let (name, value) = self.next_spans()?;
        let b = self.tag.as_bytes();
        Some((
            b.get(name).unwrap_or_default(),
            b.get(value).unwrap_or_default(),
        ))
    }

    /// Where the next attribute's name and value lie in the tag.
    #[inline(always)]
    fn next_spans(&mut self) -> Option<(Range<usize>, Range<usize>)> {
        let b = self.tag.as_bytes();
        let len = b.len();
        let mut p = self.pos;
        // Before attribute name: white space and stray `/` are skipped; `>` ends the tag.
        while p < len && is(b[p], BLANK | SLASH) {
            p += 1;
        }
        if p >= len || b[p] == b'>' {
            self.pos = len;
            return None;
        }
        // Attribute name: a leading `=` belongs to the name (13.2.5.32).
        let name_start = p;
        p += 1;
        while p < len && !is(b[p], BLANK | SLASH | GT | EQ) {
            p += 1;
        }
        let name_end = p;
        // After attribute name: optional blanks, then `=` starts a value.
        let mut q = p;
        while q < len && is_blank(b[q]) {
            q += 1;
        }
        let (value_start, value_end) = if q < len && b[q] == b'=' {
            q += 1;
            while q < len && is_blank(b[q]) {
                q += 1;
            }
            match b.get(q) {
                Some(&quote @ (b'"' | b'\'')) => {
                    let start = q + 1;
                    let end = memchr::memchr(quote, &b[start..]).map_or(len, |i| start + i);
                    p = (end + 1).min(len);
                    (start, end)
                }
                _ => {
                    let start = q;
                    while q < len && !is(b[q], BLANK | GT) {
                        q += 1;
                    }
                    p = q;
                    (start, q)
                }
            }
        } else {
            (p, p)
        };
        self.pos = p;
        Some((name_start..name_end, value_start..value_end))
    }
}

impl<'a> Iterator for Attrs<'a> {
    /// Name as written, and value (empty when the attribute has none).
    type Item = (&'a str, &'a str);

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        let (name, value) = self.next_spans()?;
        // Every boundary is at an ASCII byte, so these slices are whole characters; `get`
        // keeps that an invariant checked rather than a panic.
        Some((
            self.tag.get(name).unwrap_or(""),
            self.tag.get(value).unwrap_or(""),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(tag: &str) -> Vec<(&str, &str)> {
        Attrs::new(tag).collect()
    }

    #[test]
    fn quoted_unquoted_and_bare() {
        assert_eq!(
            all(r#"<a href="x y" class='c' id=i hidden data-x = "1">"#),
            [
                ("href", "x y"),
                ("class", "c"),
                ("id", "i"),
                ("hidden", ""),
                ("data-x", "1")
            ]
        );
    }

    #[test]
    fn self_closing_and_slashes() {
        assert_eq!(all("<img src=a.png/>"), [("src", "a.png/")]);
        assert_eq!(all("<br/>"), []);
        assert_eq!(all("<x a / b>"), [("a", ""), ("b", "")]);
    }

    #[test]
    fn lookups_are_case_insensitive_and_first_wins() {
        let a = Attrs::new("<div CLASS=one class=two>");
        assert_eq!(a.clone().get("class"), Some("one"));
        assert_eq!(a.get("id"), None);
    }

    #[test]
    fn broken_tags_end_cleanly() {
        assert_eq!(all("<a href=\"open"), [("href", "open")]);
        assert_eq!(all("<a ="), [("=", "")]);
        assert_eq!(all("<a b="), [("b", "")]);
        assert_eq!(all("<"), []);
        assert_eq!(all(""), []);
        assert_eq!(all("<p é=ü>"), [("é", "ü")]);
    }
}
