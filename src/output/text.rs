//! Plain text: one paragraph per line, white space collapsed, entities decoded, no markup.
//!
//! A line ends at every block-level boundary (start or end tag of a block element, `br`) that
//! lies between two selected text runs; inline boundaries join text as written, so
//! `foo<b>bar</b>` stays `foobar` and `foo <b>bar</b>` stays `foo bar`. Preformatted text keeps
//! its line breaks.

use crate::extract::Selection;
use crate::html::entities;
use crate::html::tags::flags;
use crate::html::tree::{NONE, context};
use crate::html::{Document, TokenKind};

/// Renders the selection as text. Every line, the last included, ends with `\n`.
pub fn render(doc: &Document<'_>, sel: &Selection) -> String {
    let mut w = LineWriter::default();
    let mut next = 0usize; // cursor into sel.nodes (both are in document order)
    let mut decoded = String::new();
    for tok in doc.tokens.iter() {
        if next >= sel.nodes.len() {
            break;
        }
        match tok.kind {
            TokenKind::StartTag | TokenKind::EndTag => {
                if tok.node != NONE && doc.tree.node(tok.node).tag.is(flags::BLOCK) {
                    w.block_boundary();
                }
            }
            TokenKind::Text => {
                if sel.nodes[next] != tok.node {
                    continue;
                }
                next += 1;
                decoded.clear();
                entities::decode_into(doc.raw_text(tok.node), &mut decoded);
                if doc.tree.node(tok.node).context & context::PRE != 0 {
                    w.preformatted(&decoded);
                } else {
                    w.inline(&decoded);
                }
            }
        }
    }
    w.finish()
}

/// Accumulates text into lines with collapsed white space.
#[derive(Default)]
pub struct LineWriter {
    out: String,
    /// Length of `out` where the current line starts.
    line_start: usize,
    /// A block boundary was seen since the last text.
    pending_break: bool,
    /// White space was seen since the last word.
    pending_space: bool,
}

impl LineWriter {
    fn line_is_empty(&self) -> bool {
        self.out.len() == self.line_start
    }

    /// Ends the current line before the next text, if it has any.
    pub fn block_boundary(&mut self) {
        self.pending_break = true;
    }

    fn break_if_pending(&mut self) {
        if self.pending_break && !self.line_is_empty() {
            self.out.push('\n');
            self.line_start = self.out.len();
            self.pending_space = false;
        }
        self.pending_break = false;
    }

    /// Inline text: words joined by single spaces. Blanks are ASCII white space and the
    /// no-break space (`&nbsp;` is the most common way pages space words); the scan is over
    /// bytes, and both kinds of blank end at character boundaries, so slicing stays valid.
    pub fn inline(&mut self, text: &str) {
        let b = text.as_bytes();
        let blank_len = |i: usize| -> usize {
            match b[i] {
                b' ' | b'\n' | b'\t' | b'\r' | b'\x0c' => 1,
                0xC2 if b.get(i + 1) == Some(&0xA0) => 2,
                _ => 0,
            }
        };
        let mut i = 0;
        while i < b.len() {
            let blank_start = i;
            while i < b.len() {
                match blank_len(i) {
                    0 => break,
                    n => i += n,
                }
            }
            if i > blank_start {
                self.pending_space = true;
            }
            if i == b.len() {
                break;
            }
            let word_start = i;
            while i < b.len() && blank_len(i) == 0 {
                i += 1;
            }
            self.break_if_pending();
            if self.pending_space && !self.line_is_empty() {
                self.out.push(' ');
            }
            self.out.push_str(&text[word_start..i]);
            self.pending_space = false;
        }
    }

    /// Preformatted text: its own line breaks, trailing blanks of each line dropped.
    pub fn preformatted(&mut self, text: &str) {
        if text.trim().is_empty() {
            return;
        }
        self.break_if_pending();
        let mut lines = text.split('\n').peekable();
        while let Some(l) = lines.next() {
            self.out.push_str(l.trim_end());
            if lines.peek().is_some() && !self.line_is_empty() {
                self.out.push('\n');
                self.line_start = self.out.len();
            }
        }
        self.pending_space = false;
    }

    /// The text, ending with a newline when not empty.
    pub fn finish(mut self) -> String {
        if !self.line_is_empty() {
            self.out.push('\n');
        }
        self.out
    }
}
