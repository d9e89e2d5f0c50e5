//! The prepass: makes a copy of the page that tl cannot misread.
//!
//! tl reads every `<` as the start of a tag, also inside `<script>` (y21/tl issue 62), inside
//! comments and inside the other raw-text elements, where HTML has no tags at all. The prepass
//! finds those regions with memchr and overwrites them in a copy of the page of the same length:
//!
//! - a comment (`<!-- ... -->`) becomes spaces, whole: it carries no content and no markup that
//!   DANAg should count (the paper's preprocessing removes comments); so do DOCTYPEs, CDATA
//!   sections and processing instructions;
//! - inside a raw-text element (script, style, textarea, title, xmp, iframe, noembed,
//!   noframes, plaintext), every `<` becomes a space, so tl sees one text run. The element and
//!   its byte span stay; its text is read from the original page, not from the copy.
//!
//! Because the copy has the same length and only ASCII bytes are replaced at ASCII boundaries,
//! every byte offset into it is an offset into the original, and it stays valid UTF-8.

use memchr::{memchr, memmem};

use super::tags::{Tag, flags};

/// Neutralizes a copy of the page in place. Every write lands behind the scan position, so
/// what is still to be read is the original.
pub fn neutralize_in_place(bytes: &mut [u8]) {
    let mut pos = 0;
    while let Some(off) = memchr(b'<', &bytes[pos..]) {
        let lt = pos + off;
        pos = lt + 1;
        let rest = &bytes[lt + 1..];
        if rest.starts_with(b"!--") {
            let end = comment_end(bytes, lt);
            bytes[lt..end].fill(b' ');
            pos = end;
            continue;
        }
        // Other markup declarations and processing instructions (`<!DOCTYPE ...>`,
        // `<![CDATA[...]]>`, `<?xml ...?>`) carry no content; tl stops reading a DOCTYPE after
        // its second word and would turn the rest into text. They end at the next `>` (WHATWG
        // "bogus comment" and DOCTYPE states).
        if matches!(rest.first(), Some(b'!' | b'?')) {
            let end = memchr(b'>', rest).map_or(bytes.len(), |i| lt + 1 + i + 1);
            bytes[lt..end].fill(b' ');
            pos = end;
            continue;
        }
        // Raw-text element names all start with one of these letters; anything else is an
        // ordinary tag and tl handles it.
        let Some(&first) = rest.first() else { break };
        if !matches!(first | 0x20, b's' | b't' | b'x' | b'n' | b'i' | b'p') {
            continue;
        }
        let name_len = rest
            .iter()
            .take(11)
            .position(|&b| !b.is_ascii_alphanumeric())
            .unwrap_or(rest.len().min(11));
        let tag = Tag::lookup(&rest[..name_len]);
        if !tag.is(flags::RAW_TEXT) {
            continue;
        }
        let content_start = start_tag_end(bytes, lt);
        let content_end = if tag == Tag::Plaintext {
            bytes.len()
        } else {
            raw_text_end(bytes, content_start, tag.name().as_bytes())
        };
        // An unclosed <title> or <textarea> would swallow the page as text (a browser shows an
        // empty page); broken pages in the wild mean markup, so their content stays markup and
        // the tree closes them at the next tag.
        if content_end == bytes.len() && matches!(tag, Tag::Title | Tag::Textarea) {
            pos = content_start;
            continue;
        }
        for b in &mut bytes[content_start..content_end] {
            if *b == b'<' {
                *b = b' ';
            }
        }
        pos = content_end;
    }
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
    match memmem::find(&bytes[body..], b"-->") {
        Some(i) => body + i + 3,
        None => bytes.len(),
    }
}

/// The offset just past the `>` that ends the start tag at `lt`, skipping quoted attribute
/// values the way tl reads them (a quote opens a value only right after `=`). The end of input
/// when there is none.
pub fn start_tag_end(bytes: &[u8], lt: usize) -> usize {
    // Jump from `>` or quote to the next with memchr3; a quote opens a value only when the
    // last non-blank byte before it is `=`.
    let mut i = lt + 1;
    while let Some(off) = memchr::memchr3(b'>', b'"', b'\'', &bytes[i.min(bytes.len())..]) {
        let at = i + off;
        let q = bytes[at];
        if q == b'>' {
            return at + 1;
        }
        let before = bytes[lt + 1..at]
            .iter()
            .rev()
            .find(|b| !matches!(b, b' ' | b'\n' | b'\t' | b'\r'));
        if before == Some(&b'=') {
            match memchr(q, &bytes[at + 1..]) {
                Some(j) => i = at + 1 + j + 1,
                None => return bytes.len(),
            }
        } else {
            i = at + 1;
        }
    }
    bytes.len()
}

/// The offset of the `</name` that closes a raw-text element whose content starts at `from`
/// (case-insensitive, followed by white space, `/` or `>`), or the end of input.
fn raw_text_end(bytes: &[u8], from: usize, name: &[u8]) -> usize {
    let mut pos = from;
    let finder = memmem::Finder::new(b"</");
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

    fn run(src: &str) -> String {
        let mut out = src.as_bytes().to_vec();
        neutralize_in_place(&mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn script_lt_is_neutralized() {
        let src = "<p>a</p><script>if (a<b) x='<div>';</script><p>b</p>";
        let out = run(src);
        assert!(out.contains("if (a b) x=' div>';</script>"), "{out}");
        assert!(out.starts_with("<p>a</p><script>"));
    }

    #[test]
    fn comments_become_spaces() {
        let out = run("x<!-- <p>hidden</p> -->y<!-->z");
        let blank = |n| " ".repeat(n);
        assert_eq!(out, format!("x{}y{}z", blank(22), blank(5)));
    }

    #[test]
    fn unclosed_raw_text_runs_to_the_end() {
        let out = run("<style>a<b");
        assert_eq!(out, "<style>a b");
    }

    #[test]
    fn closing_tag_is_case_insensitive_and_needs_a_boundary() {
        let out = run("<SCRIPT>a</scriptx><b></Script ><i>");
        assert_eq!(out, "<SCRIPT>a /scriptx> b></Script ><i>");
    }

    #[test]
    fn quoted_gt_in_attribute_does_not_end_the_tag() {
        let src = "<title data-x=\"a>b\">T<i></title>";
        let out = run(src);
        assert_eq!(out, "<title data-x=\"a>b\">T i></title>");
    }

    #[test]
    fn multibyte_text_stays_valid() {
        let out = run("<title>é<ü</title><!-- ö -->");
        assert!(out.starts_with("<title>é ü</title>"));
    }
}
