//! Plain text: one paragraph per line, white space collapsed, entities decoded, no markup.
//!
//! A line ends at every block-level boundary (start or end tag of a block element, `br`) that
//! lies between two selected text runs; inline boundaries join text as written, so
//! `foo<b>bar</b>` stays `foobar` and `foo <b>bar</b>` stays `foo bar`. Preformatted text keeps
//! its line breaks.

use crate::html::Selection;
use crate::html::entities;
use crate::html::tags::{Tag, flags};
use crate::html::tree::{NONE, context};
use crate::html::{Document, TokenKind};

/// Renders the selection as text. Every line, the last included, ends with `\n`.
pub fn render(doc: &Document<'_>, sel: &Selection) -> String {
    render_marked(doc, sel).0
}

/// [`render`], and whether the text may hold a C0 control character other than tab and
/// newline (false: it holds none). The writer sees every such byte as it goes, so the output
/// stage does not scan the whole text again for them (cleaneval, `auto`: 1.8 M instructions).
pub(super) fn render_marked(doc: &Document<'_>, sel: &Selection) -> (String, bool) {
    // The selected text, before collapsing, bounds the output closely: reserving it once
    // saves the copies (and the momentary double size) of a growing string on large pages.
    let raw_len: usize = sel
        .nodes
        .iter()
        .map(|&id| {
            let n = doc.tree.node(id);
            (n.end - n.start) as usize
        })
        .sum();
    let mut w = LineWriter {
        out: String::with_capacity(raw_len + raw_len / 16),
        ..LineWriter::default()
    };
    let mut next = 0usize; // cursor into sel.nodes (both are in document order)
    let mut decoded = String::new();
    // The walk starts at the first selected text: what comes before it only marks
    // boundaries and spaces pending, which the first text, at the start of the first line,
    // drops.
    let first = sel.nodes.first().copied().unwrap_or(NONE);
    for tok in doc.tokens_from(first) {
        if next >= sel.nodes.len() {
            break;
        }
        match tok.kind {
            TokenKind::StartTag | TokenKind::EndTag => {
                if tok.node == NONE {
                    continue;
                }
                let tag = tok.tag;
                if matches!(tag, Tag::Td | Tag::Th) {
                    // A table row is one line, its cells separated by tabs.
                    w.cell_boundary();
                } else if tag.is(flags::BLOCK) {
                    w.block_boundary();
                }
            }
            TokenKind::Text => {
                if sel.nodes[next] != tok.node {
                    // Visible text left out between two selected runs (DANAg's regions have
                    // gaps) still separates them: joined, `a">` and `Menu` would make one
                    // word the page does not have. Hidden text (scripts) separates nothing.
                    if next > 0 && tok.context & context::HIDDEN == 0 {
                        w.pending_space = true;
                    }
                    continue;
                }
                next += 1;
                let text = entities::decode_with(doc.raw_text(tok.node), &mut decoded);
                if tok.context & context::PRE != 0 {
                    w.preformatted(text);
                } else {
                    w.inline(text);
                }
            }
        }
    }
    let controls = w.controls;
    (w.finish(), controls)
}

/// Bytes that may start a blank: ASCII white space, and 0xC2 (the no-break space is C2 A0;
/// the soft hyphen, C2 AD, is dropped on the same path).
const BLANK_LEAD: [bool; 256] = {
    let mut t = [false; 256];
    t[b' ' as usize] = true;
    t[b'\n' as usize] = true;
    t[b'\t' as usize] = true;
    t[b'\r' as usize] = true;
    t[0x0c] = true;
    t[0xC2] = true;
    t
};

/// The length of the blank at `i`, if one starts there.
#[inline]
fn blank_at(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b' ' | b'\n' | b'\t' | b'\r' | b'\x0c' => Some(1),
        0xC2 if b.get(i + 1) == Some(&0xA0) => Some(2),
        _ => None,
    }
}

/// From `i` (past the start of the current piece), the first byte the loop of
/// [`LineWriter::inline`] must look at, or the end of `b`: bytes that are no blank's lead, and
/// single spaces between words, are skipped sixteen at a time. A block is first tested whole
/// ([`block_may_stop`], SIMD compares), and only a block that holds a stop is searched for it
/// ([`first_stop`]). The last, partial block reads the text's end followed by NUL bytes, which
/// stop the search as the end must (a space before it is looked at), so the loop never walks
/// a text's last bytes one at a time, as it did for every short run (`BBC`, `More articles`)
/// and every long run's end. (Cleaneval, `auto`: [`LineWriter::inline`] took 16.1 M
/// instructions with a word-at-a-time test eight bytes a step, 12.8 M so.)
#[inline(always)]
fn plain_run_end(b: &[u8], i: usize) -> usize {
    let mut at = i;
    while let Some(window) = b.get(at..).and_then(<[u8]>::first_chunk::<17>) {
        if block_may_stop(window) {
            let (block, _) = window.split_first_chunk::<16>().unwrap_or((&[0; 16], &[]));
            if let Some(k) = first_stop(u128::from_le_bytes(*block)) {
                return at + k;
            }
        }
        at += 16;
    }
    let tail = b.get(at..).unwrap_or_default();
    if tail.is_empty() {
        return at;
    }
    // The tail (at most sixteen bytes) in the low bytes, NULs above it.
    let x = match b.last_chunk::<16>() {
        Some(last) => u128::from_le_bytes(*last) >> (8 * (16 - tail.len())),
        None => tail.iter().rev().fold(0, |x, &c| (x << 8) | u128::from(c)),
    };
    at + first_stop(x).map_or(tail.len(), |k| k.min(tail.len()))
}

/// Whether the first sixteen bytes of `w` hold one [`LineWriter::inline`] must look at: a
/// byte that may start a blank (below 0x21, or 0xC2) unless it is a space followed by a byte
/// that starts no blank (the seventeenth byte follows the sixteenth). Written as a fold over
/// the bytes without an early exit, which the compiler turns into SIMD compares and one mask
/// test: about one instruction a byte, a third of the word-at-a-time test's.
#[inline]
fn block_may_stop(w: &[u8; 17]) -> bool {
    let lead = |c: u8| (c <= 0x20) | (c == 0xC2);
    w.windows(2).fold(false, |any, pair| {
        let (c, next) = (pair[0], pair[1]);
        any | (lead(c) & !((c == b' ') & !lead(next)))
    })
}

/// The first of sixteen bytes (little-endian in `x`) that [`plain_run_end`] stops at: one that
/// may start a blank (below 0x21, or 0xC2) unless it is a space followed, within the sixteen,
/// by a byte that starts no blank. The flags may over-report above the first true one
/// (borrows), which only makes the loop look at a byte it would have skipped; they never miss
/// one.
#[inline]
fn first_stop(x: u128) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // High bit of each byte equal to zero (the classic has-zero-byte test).
    let zero = |w: u64| w.wrapping_sub(ONES) & !w & HIGH;
    // Bytes that may start a blank other than a space, and spaces.
    let flags = |w: u64| {
        let below_space = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
        (
            below_space | zero(w ^ (ONES * 0xC2)),
            zero(w ^ (ONES * 0x20)),
        )
    };
    let (other0, space0) = flags(x as u64);
    let (other1, space1) = flags((x >> 64) as u64);
    // A space matters when the next byte may be blank too, or is past the sixteen (the first
    // byte of the second word has no borrow from below: its flag is exact).
    let next0 = ((other0 | space0) >> 8) | ((other1 | space1) << 56);
    let next1 = ((other1 | space1) >> 8) | (HIGH << 56);
    let stop0 = other0 | (space0 & next0);
    let stop1 = other1 | (space1 & next1);
    if stop0 != 0 {
        Some((stop0.trailing_zeros() / 8) as usize)
    } else if stop1 != 0 {
        Some(8 + (stop1.trailing_zeros() / 8) as usize)
    } else {
        None
    }
}

/// Accumulates text into lines with collapsed white space.
#[derive(Default)]
pub(crate) struct LineWriter {
    out: String,
    /// Length of `out` where the current line starts.
    line_start: usize,
    /// A block boundary was seen since the last text.
    pending_break: bool,
    /// White space was seen since the last word.
    pending_space: bool,
    /// A table cell boundary was seen since the last text.
    pending_cell: bool,
    /// Text written may hold a C0 control character other than tab and newline.
    controls: bool,
}

impl LineWriter {
    fn line_is_empty(&self) -> bool {
        self.out.len() == self.line_start
    }

    /// Ends the current line before the next text, if it has any.
    pub(crate) fn block_boundary(&mut self) {
        self.pending_break = true;
    }

    /// Separates the next text from this line's text by a tab (table cells).
    pub(crate) fn cell_boundary(&mut self) {
        self.pending_cell = true;
    }

    fn break_if_pending(&mut self) {
        if self.pending_break && !self.line_is_empty() {
            self.out.push('\n');
            self.line_start = self.out.len();
            self.pending_space = false;
        } else if self.pending_cell && !self.line_is_empty() {
            self.out.push('\t');
            self.pending_space = false;
        }
        self.pending_break = false;
        self.pending_cell = false;
    }

    /// Inline text: words joined by single spaces. Blanks are ASCII white space and the
    /// no-break space (`&nbsp;` is the most common way pages space words); the scan is over
    /// bytes, and both kinds of blank end at character boundaries, so slicing stays valid.
    pub(crate) fn inline(&mut self, text: &str) {
        // One pass with a byte table: words are a few bytes long, so a SIMD search per blank
        // costs more in call overhead than a plain loop. Runs of non-blank bytes joined by
        // single spaces are copied in one piece; only other blank runs (newlines, indentation,
        // doubled spaces, no-break spaces) end a piece. Text that needs no rewriting at all is
        // found by the same pass: proving it first by four SIMD searches, on long runs, cost
        // more than it saved once the pass skipped sixteen bytes a step (cleaneval, wcxb_dev
        // and scrapinghub alike).
        let b = text.as_bytes();
        let n = b.len();
        let mut i = 0;
        let mut piece = 0;
        while i < n {
            let c = b[i];
            if !BLANK_LEAD[c as usize] {
                // Every byte below 0x20 that is no blank stops the skip and passes here.
                self.controls |= c < 0x20;
                i = plain_run_end(b, i + 1);
                continue;
            }
            let Some(width) = blank_at(b, i) else {
                if c == 0xC2 && b.get(i + 1) == Some(&0xAD) {
                    // A soft hyphen (U+00AD, `&shy;`) is invisible unless the line breaks
                    // there: readers see `autonome`, not `auto\u{ad}nome`, and a search for
                    // the word must find it. Dropped, joining the pieces around it.
                    if i > piece {
                        self.word(&text[piece..i]);
                    }
                    i += 2;
                    piece = i;
                    continue;
                }
                // 0xC2 that starts another character.
                i += 1;
                continue;
            };
            if c == b' ' && i > piece && blank_at(b, i + 1).is_none() && i + 1 < n {
                i = plain_run_end(b, i + 1);
                continue;
            }
            if i > piece {
                self.word(&text[piece..i]);
            }
            i += width;
            while let Some(w) = blank_at(b, i) {
                i += w;
            }
            self.pending_space = true;
            piece = i;
        }
        if piece < n {
            self.word(&text[piece..]);
        }
    }

    /// Appends words (no blank at either end), after the pending break or space. Inlined into
    /// [`Self::inline`]'s loop, which calls it for every piece (the calls cost 0.56 M
    /// instructions on cleaneval with `auto`).
    #[inline(always)]
    fn word(&mut self, words: &str) {
        self.break_if_pending();
        if self.pending_space && !self.line_is_empty() {
            self.out.push(' ');
        }
        self.out.push_str(words);
        self.pending_space = false;
    }

    /// Preformatted text: its own line breaks, trailing blanks of each line dropped. A run
    /// often ends inside a line (`<pre>let <b>x</b>`, or highlighted code whose words and
    /// blanks are separate runs): blanks there are kept as one pending space, so the next
    /// run's word does not join this one.
    pub(crate) fn preformatted(&mut self, text: &str) {
        // Soft hyphens are invisible here too (see `inline`).
        let owned;
        let text = if text.contains('\u{ad}') {
            owned = text.replace('\u{ad}', "");
            owned.as_str()
        } else {
            text
        };
        if text.trim().is_empty() {
            self.pending_space |= !text.is_empty();
            return;
        }
        self.break_if_pending();
        self.controls |= super::has_banned_control(text.as_bytes());
        if self.pending_space
            && !self.line_is_empty()
            && !text.starts_with(|c: char| c.is_ascii_whitespace())
        {
            self.out.push(' ');
        }
        // Line by line; most runs (a highlighted token) are one line. A loop over `split_once`
        // rather than a peekable `split` (wcxb_dev, `auto`: 813.1 M -> 812.6 M instructions).
        let mut rest = text;
        while let Some((line, after)) = rest.split_once('\n') {
            self.out.push_str(line.trim_end());
            if !self.line_is_empty() {
                self.out.push('\n');
                self.line_start = self.out.len();
            }
            rest = after;
        }
        let trimmed = rest.trim_end();
        self.out.push_str(trimmed);
        self.pending_space = trimmed.len() < rest.len();
    }

    /// The text, ending with a newline when not empty.
    pub(crate) fn finish(mut self) -> String {
        if !self.line_is_empty() {
            self.out.push('\n');
        }
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::tree::{self, Kind, NodeId};
    use bumpalo::Bump;

    /// The skip never passes a byte the loop must look at: a blank's lead, unless a space
    /// followed by a byte that starts no blank. Every text of up to 40 bytes over an alphabet
    /// of blanks, words and lookalikes, from every start.
    #[test]
    fn the_skip_stops_at_every_byte_the_loop_must_see() {
        let alphabet: [&[u8]; 9] = [
            b" ",
            b"\n",
            b"\t",
            b"\r",
            b"ab",
            b"\xc2\xa0",
            b"\xc2\xad",
            b"\xc3\xa9",
            b"\x01",
        ];
        let lead = |c: u8| c <= 0x20 || c == 0xC2;
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            let mut b = Vec::new();
            while b.len() < 40 {
                crate::hash::xorshift64(&mut x);
                if x.is_multiple_of(23) {
                    break;
                }
                b.extend_from_slice(alphabet[(x >> 32) as usize % alphabet.len()]);
            }
            for i in 0..=b.len() {
                let must = (i..b.len())
                    .find(|&j| {
                        lead(b[j]) && !(b[j] == b' ' && b.get(j + 1).is_some_and(|&d| !lead(d)))
                    })
                    .unwrap_or(b.len());
                let end = plain_run_end(&b, i);
                assert!(i <= end && end <= must, "{b:?} from {i}: {end} > {must}");
            }
        }
    }

    /// The writer marks text that may hold a control character whenever it holds one (for
    /// preformatted text, whenever its input holds one: the `\r` of a `\r\n` is dropped).
    #[test]
    fn the_writer_marks_every_control_character() {
        let cases: [(&str, bool, bool); 7] = [
            (
                "plain words, \tindented\r\n and\u{a0}spaced \u{c}",
                false,
                false,
            ),
            ("a\u{1}b", true, false),
            ("\u{0}", true, false),
            (
                "word \u{1b}[0m and more words than sixteen bytes",
                true,
                false,
            ),
            ("let x = 1;\r\n", true, true),
            ("let x = 1;\n", false, true),
            ("bell\u{7}\n", true, true),
        ];
        for (text, controls, pre) in cases {
            let mut w = LineWriter::default();
            if pre {
                w.preformatted(text);
            } else {
                w.inline(text);
            }
            assert_eq!(w.controls, controls, "{text:?}");
            assert!(w.controls || !super::super::has_banned_control(w.out.as_bytes()));
        }
    }

    /// Paragraphs nested beyond the tree's depth limit stay lines of their own: the tree
    /// leaves a boundary marker where their block tags were.
    #[test]
    fn paragraphs_beyond_the_depth_limit_stay_lines() {
        let n = 100_000;
        let html = format!(
            "<body>{}<article><p>The article.</p><p>Its <a href=/x>link text</a>.</p>\
             <script>var s = '<p>no</p>';</script></article>{}After the nest.",
            "<div>".repeat(n),
            "</div>".repeat(n)
        );
        let arena = Bump::new();
        let doc = Document::parse(&html, &arena);
        let visible = Selection {
            nodes: (0..doc.tree.nodes.len() as NodeId)
                .filter(|&i| {
                    let n = doc.tree.node(i);
                    n.kind == Kind::Text && n.context() & tree::context::HIDDEN == 0
                })
                .collect(),
        };
        let text = render(&doc, &visible);
        assert!(text.contains("The article.\nIts link text.\n"), "{text}");
    }
}
