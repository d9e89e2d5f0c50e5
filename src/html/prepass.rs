//! The prepass part of tokenizing: finding, with memchr, the regions of a page where HTML has no
//! tags, so that a `<` inside them is never read as one.
//!
//! Browsers read `<` inside `<script>` and the other raw-text elements, and inside comments, as
//! text, not as a tag (WHATWG 13.2.5, the RAWTEXT, RCDATA, script data and comment states);
//! generic tokenizers get this wrong (the tl crate reads a tag there). The tokenizer
//! ([`super::tokens`]) asks this module, at each `<`, where such a region ends:
//!
//! - a comment (`<!-- ... -->`) ends after `-->` (or the abrupt `<!-->` forms); DOCTYPEs,
//!   CDATA sections and processing instructions end at the next `>`. They carry no content and
//!   no markup that DANAg should count (the paper's preprocessing removes comments), so they
//!   give no token at all;
//! - a raw-text element (script, style, textarea, title, xmp, iframe, noembed, noframes,
//!   plaintext) runs to its own end tag and its content is one text token.
//!
//! Every function here is one forward scan from the given offset; none looks back further than
//! the tag it is in, so the tokenizer stays linear on any input.

use memchr::{memchr, memmem};

use super::tags::Tag;

/// Where the content of the raw-text element `tag`, whose start tag ends at `content_start`,
/// ends: the offset of its `</name`. `None` when the element should be read as ordinary markup:
/// an unclosed `<title>` or `<textarea>` would swallow the rest of the page as text (a browser
/// shows an empty page), but broken pages in the wild mean markup there, so their content stays
/// markup and the tree closes them at the next tag.
pub(crate) fn raw_text_end_of(bytes: &[u8], tag: Tag, content_start: usize) -> Option<usize> {
    if tag == Tag::Plaintext {
        return Some(bytes.len());
    }
    let end = raw_text_end(bytes, content_start, tag.name().as_bytes());
    if end == bytes.len() && matches!(tag, Tag::Title | Tag::Textarea) {
        return None;
    }
    Some(end)
}

/// The offset just past the markup declaration or processing instruction at `lt` (`<!...` or
/// `<?...`; WHATWG "markup declaration open", "bogus comment" and DOCTYPE states): a comment
/// ends after `-->`, anything else at the next `>`; the end of input when unclosed.
pub(crate) fn declaration_end(bytes: &[u8], lt: usize) -> usize {
    if bytes.get(lt + 1..lt + 4) == Some(b"!--") {
        return comment_end(bytes, lt);
    }
    bogus_comment_end(bytes, lt)
}

/// The offset just past the next `>` after `lt`, or the end of input (WHATWG "bogus comment":
/// `<?...>`, `<!DOCTYPE ...>`, `</ x>`).
pub(crate) fn bogus_comment_end(bytes: &[u8], lt: usize) -> usize {
    let from = (lt + 1).min(bytes.len());
    memchr(b'>', &bytes[from..]).map_or(bytes.len(), |i| from + i + 1)
}

/// A searcher for `-->`, built once: building one per comment (its SIMD set-up) cost more
/// than the search on a page of short comments.
fn comment_close() -> &'static memmem::Finder<'static> {
    static F: std::sync::OnceLock<memmem::Finder<'static>> = std::sync::OnceLock::new();
    F.get_or_init(|| memmem::Finder::new(b"-->"))
}

/// A searcher for `</`, built once (see [`comment_close`]).
fn end_tag_open() -> &'static memmem::Finder<'static> {
    static F: std::sync::OnceLock<memmem::Finder<'static>> = std::sync::OnceLock::new();
    F.get_or_init(|| memmem::Finder::new(b"</"))
}

/// The offset just past the comment that starts at `lt` (`<!--`): after `-->`, or after the
/// abrupt `<!-->` / `<!--->` forms, or the end of input for an unclosed comment (WHATWG
/// comment states).
fn comment_end(bytes: &[u8], lt: usize) -> usize {
    let body = lt + 4;
    if bytes.get(body) == Some(&b'>') {
        return body + 1;
    }
    if bytes.get(body..body + 2) == Some(b"->") {
        return body + 2;
    }
    match comment_close().find(&bytes[body..]) {
        Some(i) => body + i + 3,
        None => bytes.len(),
    }
}

/// The offset just past the `>` that ends the start tag at `lt`, skipping quoted attribute
/// values: a quote opens a value only right after `=` (blanks between allowed), as WHATWG's
/// before-attribute-value state says. The end of input when there is none.
pub(crate) fn start_tag_end(bytes: &[u8], lt: usize) -> usize {
    let len = bytes.len();
    let mut i = lt + 1;
    while let Some(at) = find_tag_special(bytes, i) {
        let q = bytes[at];
        if q == b'>' {
            return at + 1;
        }
        // Does the quote follow `=`? Looking back stops at the first non-blank byte, which is
        // at or after the previous special byte, so every byte is looked at a bounded number
        // of times.
        let before = bytes[lt + 1..at]
            .iter()
            .rev()
            .find(|b| !matches!(b, b' ' | b'\n' | b'\t' | b'\r'));
        if before == Some(&b'=') {
            match memchr(q, &bytes[at + 1..]) {
                Some(j) => i = at + j + 2,
                None => return len,
            }
        } else {
            i = at + 1;
        }
    }
    len
}

/// The first `>`, `"` or `'` at or after `from`. Tags are tens of bytes long, too short for a
/// SIMD search to repay its call, so this tests eight bytes at a time in a register (the
/// "has zero byte" test of Hacker's Delight 6-1 on the word XOR each wanted byte: the lowest
/// flagged byte is exact, which is the one taken).
#[inline]
fn find_tag_special(bytes: &[u8], from: usize) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let zero = |x: u64| x.wrapping_sub(LO) & !x & HI;
    let mut i = from;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let m = zero(w ^ (LO * u64::from(b'>')))
            | zero(w ^ (LO * u64::from(b'"')))
            | zero(w ^ (LO * u64::from(b'\'')));
        if m != 0 {
            return Some(i + (m.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    let rest = bytes.get(i..)?;
    rest.iter()
        .position(|b| matches!(b, b'>' | b'"' | b'\''))
        .map(|p| i + p)
}

/// The offset of the `</name` that closes a raw-text element whose content starts at `from`
/// (case-insensitive, followed by white space, `/` or `>`), or the end of input.
fn raw_text_end(bytes: &[u8], from: usize, name: &[u8]) -> usize {
    let mut pos = from;
    let finder = end_tag_open();
    while let Some(off) = finder.find(&bytes[pos..]) {
        let at = pos + off;
        let after = at + 2 + name.len();
        if let Some(candidate) = bytes.get(at + 2..after) {
            let boundary = bytes
                .get(after)
                .is_none_or(|&b| matches!(b, b'>' | b'/' | b' ' | b'\t' | b'\n' | b'\r' | b'\x0c'));
            if candidate.eq_ignore_ascii_case(name) && boundary {
                return at;
            }
        }
        pos = at + 2;
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_and_declaration_ends() {
        let src = b"x<!-- <p>hidden</p> -->y<!-->z<!DOCTYPE html>w<?xml v?>v<!-- open";
        let at = |needle: &[u8]| memmem::find(src, needle).unwrap();
        assert_eq!(&src[declaration_end(src, at(b"<!-- <p>"))..][..1], b"y");
        assert_eq!(&src[declaration_end(src, at(b"<!-->"))..][..1], b"z");
        assert_eq!(&src[declaration_end(src, at(b"<!DOC"))..][..1], b"w");
        assert_eq!(&src[declaration_end(src, at(b"<?xml"))..][..1], b"v");
        assert_eq!(declaration_end(src, at(b"<!-- open")), src.len());
    }

    #[test]
    fn unclosed_raw_text_runs_to_the_end() {
        let src = b"<style>a<b";
        assert_eq!(raw_text_end_of(src, Tag::Style, 7), Some(src.len()));
        // An unclosed title stays markup.
        assert_eq!(raw_text_end_of(b"<title>a<b>c", Tag::Title, 7), None);
    }

    #[test]
    fn closing_tag_is_case_insensitive_and_needs_a_boundary() {
        let src = b"<SCRIPT>a</scriptx><b></Script ><i>";
        let end = raw_text_end_of(src, Tag::Script, 8).unwrap();
        assert_eq!(&src[end..], b"</Script ><i>");
    }

    #[test]
    fn special_byte_search_agrees_with_a_plain_scan() {
        let text = b"<a href=x title='y' data-z=\"w\"   class=k >tail<b c=\"d>e\">";
        for from in 0..text.len() {
            let plain = text[from..]
                .iter()
                .position(|b| matches!(b, b'>' | b'"' | b'\''))
                .map(|p| from + p);
            assert_eq!(find_tag_special(text, from), plain, "from {from}");
        }
        assert_eq!(find_tag_special(b"", 0), None);
        assert_eq!(find_tag_special(b"abc", 5), None);
    }

    #[test]
    fn quoted_gt_in_attribute_does_not_end_the_tag() {
        let src = b"<title data-x=\"a>b\">T<i></title>";
        let end = start_tag_end(src, 0);
        assert_eq!(&src[end..], b"T<i></title>");
        // A quote not after `=` opens nothing.
        assert_eq!(start_tag_end(b"<a b\"c>d\">", 0), 7);
    }
}
