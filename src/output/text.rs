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

    /// Inline text: words joined by single spaces.
    pub fn inline(&mut self, text: &str) {
        let starts_blank = text.starts_with(char::is_whitespace);
        let ends_blank = text.ends_with(char::is_whitespace);
        let mut words = text.split_whitespace().peekable();
        if words.peek().is_none() {
            self.pending_space |= !text.is_empty();
            return;
        }
        self.break_if_pending();
        let mut first = true;
        for word in words {
            if !self.line_is_empty() && (!first || starts_blank || self.pending_space) {
                self.out.push(' ');
            }
            self.out.push_str(word);
            first = false;
        }
        self.pending_space = ends_blank;
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
