//! The token stream: start tags, end tags and text runs, in document order, as byte spans of
//! the page, fed to the tree builder as they are found.
//!
//! One forward scan. memchr finds each `<`; the bytes after it say what it opens (WHATWG
//! 13.2.5.6, tag open state): a letter, a start tag (read to its `>` by
//! [`prepass::start_tag_end`], quoted values skipped); `/` and a letter, an end tag; `!` or `?`,
//! a comment, DOCTYPE or processing instruction, which gives no token (the [`prepass`] finds
//! where it ends); anything else, text (`a < b`). A raw-text element's content (script, style,
//! title...) is one text token up to its own end tag, so a `<` in a script is never a tag.
//! Text is whatever lies between markup. Attributes are not read here at all: they are parsed
//! from the tag's span only when asked for ([`super::attrs`]).
//!
//! Nothing of the stream is stored but the end tags that closed nothing: the tree is the
//! stream. Its nodes are in document order, so a start tag or text token is the next node
//! (an element the builder implied, such as a `<tr>` around a bare `<td>`, has a zero-width
//! span and no token), and an end tag is an element that the builder closed with a tag of
//! its own ([`tree::Tree::has_end_tag`]), met when the walk leaves it: before the next node
//! that is not inside it, innermost first ([`Tokens`]). Every element is appended under the
//! innermost open one, so the walk's chain of open elements is the builder's. An end tag that
//! closed nothing (a stray) is only in the page; its offset is kept ([`Tokenizer::strays`])
//! and merged in by position. On a page that is mostly tags the stream cost 4 bytes a token
//! beside the tree (memory stays under 4x the record). The start and end tags of elements
//! nested beyond [`tree::MAX_DEPTH`] are in no token: those elements have no node, and their
//! end tags closed something, so they are no strays either (DANAg, which counts the code
//! characters of each line from the tokens, does not count them; their text it counts). A
//! block's tag there that follows text is the exception: it leaves a leaf element spanning it
//! (`tree::Builder::mark_boundary`), whose start tag token keeps the paragraph break.
//!
//! The scan is linear: every byte is passed over a bounded number of times (once by memchr,
//! once more inside a tag), and the one search that could repeat (for the end tag of an
//! unclosed `<title>`, tried again at each later `<title>`) is remembered.

use bumpalo::collections::Vec as BumpVec;
use memchr::memchr;

use super::prepass;
use super::tags::{Tag, ends_name, flags};
use super::tree::{self, NodeId, Tree};

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// A start tag, `<` to its `>` (attributes included).
    StartTag,
    /// An end tag, `</` to its `>`.
    EndTag,
    /// A run of text between markup (a raw-text element's whole content is one).
    Text,
}

/// One token of the stream, with its byte span and the node it opened, closed or is (made by
/// [`Tokens`] from the tree), and that node's kind and context bits, which every pass over the
/// tokens asks of each (carried here, in the struct's padding, so none loads the node again).
#[derive(Clone, Copy, Debug)]
pub struct Token {
    /// Start tag, end tag or text.
    pub kind: TokenKind,
    /// The node's element kind ([`Tag::Other`] for text and for an end tag that closed
    /// nothing).
    pub tag: Tag,
    /// The node's context bits ([`tree::context`]; 0 for an end tag that closed nothing).
    pub context: u8,
    /// Byte offset in the page text where the token starts.
    pub start: u32,
    /// Byte offset in the page text just past the token's end.
    pub end: u32,
    /// The element (start/end tag) or text node; [`tree::NONE`] for an end tag that closed
    /// nothing.
    pub node: NodeId,
}

/// Where the end tag starting at `lt` (`</` and a letter) ends: after its `>`, or at the end
/// of input (13.2.5.7: the name and anything after it run to the `>`).
fn end_tag_end(bytes: &[u8], lt: usize) -> usize {
    past_gt(bytes, lt + 2)
}

/// The offset just past the first `>` at or after `from`, or the end of input.
fn past_gt(bytes: &[u8], from: usize) -> usize {
    bytes
        .get(from..)
        .and_then(|rest| memchr(b'>', rest))
        .map_or(bytes.len(), |i| from + i + 1)
}

/// The tokens of a parsed page, in document order, walked from the tree (see the module's
/// doc).
pub struct Tokens<'d, 'a> {
    nodes: &'d [tree::Node],
    tree: &'d Tree<'a>,
    bytes: &'a [u8],
    /// The next node to emit.
    next: usize,
    /// The innermost element entered and not yet left ([`tree::ROOT`] when none is).
    open: NodeId,
    /// Offsets of the end tags that closed nothing, not yet emitted.
    strays: std::slice::Iter<'d, u32>,
    /// The offset of the first of them ([`u32::MAX`] when none is left), which every token
    /// is compared with.
    next_stray: u32,
}

impl<'d, 'a> Tokens<'d, 'a> {
    /// The tokens of `tree`, with `strays` the sorted offsets of end tags that closed nothing and
    /// `bytes` the page the spans index.
    pub fn new(tree: &'d Tree<'a>, strays: &'d [u32], bytes: &'a [u8]) -> Self {
        Tokens {
            nodes: &tree.nodes,
            tree,
            bytes,
            next: 1,
            open: tree::ROOT,
            strays: strays.iter(),
            next_stray: strays.first().copied().unwrap_or(u32::MAX),
        }
    }

    /// [`Tokens::new`] from node `first` on: the walk starts inside its parent, whose
    /// ancestors it leaves through their parent links as [`Tokens::new`]'s walk does, and the
    /// stray end tags before it are passed over. From the start when there is no such node.
    pub fn from_node(
        tree: &'d Tree<'a>,
        strays: &'d [u32],
        bytes: &'a [u8],
        first: NodeId,
    ) -> Self {
        let mut t = Tokens::new(tree, strays, bytes);
        let Some(node) = tree
            .nodes
            .get(first as usize)
            .filter(|_| first > tree::ROOT)
        else {
            return t;
        };
        let skip = strays.partition_point(|&s| s < node.start);
        t.strays = strays.get(skip..).unwrap_or_default().iter();
        t.next_stray = t.strays.as_slice().first().copied().unwrap_or(u32::MAX);
        t.next = first as usize;
        t.open = node.parent;
        t
    }

    /// The stray end tag at the head of the list, taken when it starts before `at`.
    #[inline]
    fn stray_before(&mut self, at: u32) -> Option<Token> {
        if self.next_stray >= at {
            return None;
        }
        let start = self.next_stray;
        self.strays.next();
        self.next_stray = self.strays.as_slice().first().copied().unwrap_or(u32::MAX);
        Some(Token {
            kind: TokenKind::EndTag,
            tag: Tag::Other,
            context: 0,
            start,
            end: end_tag_end(self.bytes, start as usize) as u32,
            node: tree::NONE,
        })
    }
}

impl Iterator for Tokens<'_, '_> {
    type Item = Token;

    // Every pass over the page reads the tokens through this: inlined into each, the span is
    // computed where it is used (callgrind: a call per token cost 4% of a page's instructions).
    #[inline(always)]
    fn next(&mut self) -> Option<Token> {
        loop {
            // The element the next node goes into (the document after the last node).
            let into = match self.nodes.get(self.next) {
                Some(n) => n.parent,
                None => tree::NONE,
            };
            if self.open != into && self.open != tree::ROOT {
                // Leave the innermost open element: the next node is not inside it.
                let id = self.open;
                let n = &self.nodes[id as usize];
                if !self.tree.has_end_tag(id) {
                    self.open = n.parent;
                    continue;
                }
                let start = self.tree.inner_end(id);
                if let Some(stray) = self.stray_before(start) {
                    return Some(stray);
                }
                self.open = n.parent;
                return Some(Token {
                    kind: TokenKind::EndTag,
                    tag: n.tag,
                    context: n.context(),
                    start,
                    end: n.end,
                    node: id,
                });
            }
            let Some(n) = self.nodes.get(self.next) else {
                return self.stray_before(u32::MAX);
            };
            if let Some(stray) = self.stray_before(n.start) {
                return Some(stray);
            }
            let id = self.next as NodeId;
            self.next += 1;
            if n.kind == tree::Kind::Text {
                return Some(Token {
                    kind: TokenKind::Text,
                    tag: Tag::Other,
                    context: n.context(),
                    start: n.start,
                    end: n.end,
                    node: id,
                });
            }
            self.open = id;
            // An implied element (zero-width start tag) has no token of its own.
            if !n.is_implied() {
                return Some(Token {
                    kind: TokenKind::StartTag,
                    tag: n.tag,
                    context: n.context(),
                    start: n.start,
                    end: self.tree.inner_start(id),
                    node: id,
                });
            }
        }
    }
}

/// An upper bound on the tokens of a page, for sizing the arena vectors once: every token but
/// text starts at a `<`, and text tokens alternate with them. Counting `<` is one SIMD pass
/// (bytecount); on a page of only `<` bytes the bound is far too high, but capacity that is
/// never written is never touched, so it costs address space, not memory.
pub(crate) fn estimate(bytes: &[u8]) -> usize {
    2 * bytecount::count(bytes, b'<') + 1
}

/// Reads the page and feeds the builder, recording the tokens.
pub(crate) struct Tokenizer<'a, 'arena> {
    bytes: &'a [u8],
    /// The tree builder the tokens are fed to; holds the tree once [`Tokenizer::run`] is done.
    pub builder: tree::Builder<'arena>,
    /// Offsets of the end tags that closed nothing, in order (the only part of the token
    /// stream the tree does not hold; see the module's doc).
    pub strays: BumpVec<'arena, u32>,
    /// Offsets from which a search for `</title` or `</textarea` found nothing: a later
    /// search from further on cannot find one either.
    unclosed_title: Option<usize>,
    unclosed_textarea: Option<usize>,
    /// The last token was a block element's start or end tag (or there was none yet): white
    /// space after it can never separate two words on one line, so it gets no token and no
    /// node (on a page of paragraphs that is a third of all nodes).
    after_block: bool,
}

/// The end of a tag name (13.2.5.8): white space, `/` or `>`, or the end of input.
fn name_end(bytes: &[u8], from: usize) -> usize {
    bytes
        .get(from..)
        .and_then(|rest| rest.iter().position(|&b| ends_name(b)))
        .map_or(bytes.len(), |i| from + i)
}

/// Whether `text` is all ASCII white space (`u8::is_ascii_whitespace`). The runs between tags
/// are mostly that, a line break and an indent of up to tens of bytes, so past the first byte
/// they are tested eight bytes at a time ([`blank_word`]; a byte at a time cost 2.4 M
/// instructions over cleaneval's 137 pages).
#[inline(always)]
fn is_blank(text: &[u8]) -> bool {
    match text {
        [first, ..] if !first.is_ascii_whitespace() => false,
        [_, _, _, _, _, _, _, _, ..] => blank_words(text),
        _ => text.iter().all(u8::is_ascii_whitespace),
    }
}

/// [`is_blank`] for eight bytes or more.
#[inline(never)]
fn blank_words(text: &[u8]) -> bool {
    let mut words = text.chunks_exact(8);
    // The last word, overlapping the ones before, covers the rest.
    words.all(blank_word) && text.len() >= 8 && blank_word(&text[text.len() - 8..])
}

/// Whether the eight bytes of `w` are all ASCII white space: tab to carriage return but the
/// vertical tab, or space. Exact for every byte (no borrow crosses a byte: every byte is
/// below 0x80 when the sums are made).
#[inline(always)]
fn blank_word(w: &[u8]) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let mut b = [0u8; 8];
    b.copy_from_slice(w);
    let w = u64::from_le_bytes(b);
    if w & HI != 0 {
        return false;
    }
    // Top bit of each byte: at least a tab; above a carriage return; not a vertical tab; not
    // a space (a byte XOR its target is zero exactly when it adds no top bit to 0x7f).
    let from_tab = w + LO * 0x77;
    let past_cr = w + LO * 0x72;
    let not_vt = (w ^ (LO * 0x0b)) + LO * 0x7f;
    let not_space = (w ^ (LO * 0x20)) + LO * 0x7f;
    ((from_tab & !past_cr & not_vt) | !not_space) & HI == HI
}

/// The kind and length of the tag name at `from`: a word at a time ([`Tag::scan`]) where 16
/// bytes are left and the name ends within them, else byte by byte.
#[inline(always)]
fn tag_name(bytes: &[u8], from: usize) -> (Tag, usize) {
    if let Some(found) = bytes
        .get(from..from.saturating_add(16))
        .and_then(|w| <&[u8; 16]>::try_from(w).ok())
        .and_then(Tag::scan)
    {
        return found;
    }
    let end = name_end(bytes, from);
    (
        Tag::lookup(bytes.get(from..end).unwrap_or_default()),
        end - from,
    )
}

impl<'a, 'arena> Tokenizer<'a, 'arena> {
    /// A tokenizer over `bytes` feeding `builder`, recording stray end tags into `strays`.
    pub(crate) fn new(
        bytes: &'a [u8],
        builder: tree::Builder<'arena>,
        strays: BumpVec<'arena, u32>,
    ) -> Self {
        Tokenizer {
            bytes,
            builder,
            strays,
            unclosed_title: None,
            unclosed_textarea: None,
            after_block: true,
        }
    }

    /// Tokenizes the whole page.
    pub(crate) fn run(&mut self) {
        let bytes = self.bytes;
        // Text not yet emitted starts here; the scan for the next `<` resumes at `pos`.
        let mut text_start = 0usize;
        let mut pos = 0usize;
        // A third of all tags follow another at once (`</a></li>`, `<div><p>`): one compare
        // finds those `<` without the call of a SIMD search (callgrind: 2% of `auto`).
        while let Some(lt) = if bytes.get(pos) == Some(&b'<') {
            Some(pos)
        } else {
            memchr(b'<', bytes.get(pos..).unwrap_or_default()).map(|off| pos + off)
        } {
            let next = bytes.get(lt + 1).copied().unwrap_or(0);
            // Read only after a `/`, so a start tag does not pay for it.
            let after = || bytes.get(lt + 2).copied().unwrap_or(0);
            let end = if next.is_ascii_alphabetic() {
                self.text(text_start, lt);
                self.start_tag(lt)
            } else if next == b'/' && after().is_ascii_alphabetic() {
                self.text(text_start, lt);
                self.end_tag(lt)
            } else if next == b'!' || next == b'?' {
                self.text(text_start, lt);
                prepass::declaration_end(bytes, lt)
            } else if next == b'/' {
                // `</>` is dropped, `</ x>` and `</3>` are bogus comments (13.2.5.7).
                self.text(text_start, lt);
                prepass::bogus_comment_end(bytes, lt)
            } else {
                // `a < b`, `<3`: text.
                pos = lt + 1;
                continue;
            };
            pos = end;
            text_start = end;
        }
        self.text(text_start, bytes.len());
    }

    /// A start tag at `lt`, and the raw text after it when it opens a raw-text element.
    /// Returns where scanning goes on.
    fn start_tag(&mut self, lt: usize) -> usize {
        let bytes = self.bytes;
        let (tag, name_len) = tag_name(bytes, lt + 1);
        let name = &bytes[lt + 1..lt + 1 + name_len];
        // A known name (letters and digits: no quote that could open a value) right before
        // `>` ends the tag there, without a scan (`<p>`, `<td>`: half of all start tags).
        let end = match bytes.get(lt + 1 + name_len) {
            Some(b'>') if tag != Tag::Other => lt + name_len + 2,
            _ => prepass::start_tag_end(bytes, lt),
        };
        let t = tree::StartTag {
            tag,
            name_hash: if tag == Tag::Other {
                tree::name_hash(name)
            } else {
                0
            },
            start: lt as u32,
            inner_start: end as u32,
            self_closing: end >= 2 && bytes[end - 2] == b'/',
        };
        let opened = self.builder.start_tag(t);
        // Only a tag the tree took is a boundary (rendering skips the others), or a block's tag
        // beyond the depth limit, where one marker stands for a run of them (see
        // `tree::Builder::mark_boundary`).
        self.after_block = tag.is_boundary() && (opened.is_some() || self.builder.at_depth_limit());
        if !tag.is(flags::RAW_TEXT) {
            return end;
        }
        let memo = match tag {
            Tag::Title => &mut self.unclosed_title,
            Tag::Textarea => &mut self.unclosed_textarea,
            _ => &mut None,
        };
        if memo.is_some_and(|from| from <= end) {
            return end;
        }
        match prepass::raw_text_end_of(bytes, tag, end) {
            Some(content_end) => {
                self.text(end, content_end);
                content_end
            }
            None => {
                *memo = Some(end);
                end
            }
        }
    }

    /// An end tag at `lt` (`</` and a letter), to its `>`.
    fn end_tag(&mut self, lt: usize) -> usize {
        let bytes = self.bytes;
        let name_start = lt + 2;
        let (tag, name_len) = tag_name(bytes, name_start);
        let after_name = name_start + name_len;
        let name = &bytes[name_start..after_name];
        // The name holds no `>`: the search for it starts past the name, where it nearly
        // always is (`</p>`), which one compare settles without a SIMD search's call.
        let end = match bytes.get(after_name) {
            Some(b'>') => after_name + 1,
            _ => past_gt(bytes, after_name),
        };
        let hash = if tag == Tag::Other {
            tree::name_hash(name)
        } else {
            0
        };
        let closed = self.builder.end_tag(tag, hash, lt as u32, end as u32);
        // Only an end tag the tree took is a boundary (rendering skips the others), as a block's
        // end tag beyond the depth limit is (see `start_tag`).
        self.after_block = tag.is_boundary() && closed != tree::Closed::Nothing;
        // An end tag that closed an element beyond the depth limit is in no token, as the
        // element's start tag is not (see `tree::MAX_DEPTH`): it is no stray.
        if closed == tree::Closed::Nothing {
            self.strays.push(lt as u32);
        }
        end
    }

    /// A text run, `start..end` (nothing when empty), or the content of a raw-text element.
    fn text(&mut self, start: usize, end: usize) {
        if start >= end {
            return;
        }
        let blank = is_blank(&self.bytes[start..end]);
        if blank && self.after_block {
            return;
        }
        self.after_block = false;
        self.push_text(start, end, blank);
    }

    fn push_text(&mut self, start: usize, end: usize, blank: bool) {
        self.builder.text(start as u32, end as u32, blank);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stream keeps node ids only; the spans come back from the tree: a stray end tag
    /// (its own offset), an end tag longer than a node's length byte holds (the tree's side
    /// table), an implied `<tr>` (no token), raw text, and the first-child links.
    #[test]
    fn spans_come_back_from_the_tree() {
        let long_end = format!("</div{}>", " ".repeat(300));
        // A start tag past the length a node's byte holds, an end tag past its four bits.
        let long_start = format!("<p class=\"{}\">", "x".repeat(300));
        let page = format!(
            "<div>a</b>{long_end}<table><td>c</td></table><script>x<y</script>\
             {long_start}d</p   ><blockquote>e</blockquote    >"
        );
        let arena = bumpalo::Bump::new();
        let doc = super::super::Document::parse(&page, &arena);
        let spans: Vec<(TokenKind, &str)> = doc
            .tokens()
            .map(|t| (t.kind, &page[t.start as usize..t.end as usize]))
            .collect();
        use TokenKind::*;
        assert_eq!(
            spans,
            [
                (StartTag, "<div>"),
                (Text, "a"),
                (EndTag, "</b>"),
                (EndTag, long_end.as_str()),
                (StartTag, "<table>"),
                (StartTag, "<td>"),
                (Text, "c"),
                (EndTag, "</td>"),
                (EndTag, "</table>"),
                (StartTag, "<script>"),
                (Text, "x<y"),
                (EndTag, "</script>"),
                (StartTag, long_start.as_str()),
                (Text, "d"),
                (EndTag, "</p   >"),
                (StartTag, "<blockquote>"),
                (Text, "e"),
                (EndTag, "</blockquote    >"),
            ]
        );
        let stray = doc.tokens().nth(2).map(|t| t.node);
        assert_eq!(stray, Some(tree::NONE));
        // div, its text, table, the implied tr, td, its text, script, its text.
        let tree = &doc.tree;
        let div = 1;
        assert_eq!(tree.first_child(div), 2);
        assert_eq!(
            tree.inner_end(div) as usize,
            page.find("</div").unwrap_or(0)
        );
        assert_eq!(
            tree.node(div).end as usize,
            page.find("<table>").unwrap_or(0)
        );
        assert_eq!(tree.first_child(2), tree::NONE);
        let table = tree.node(div).next_sibling;
        let tr = tree.first_child(table);
        assert_eq!(tree.node(tr).tag, super::super::Tag::Tr);
        assert_eq!(tree.node(tree.first_child(tr)).tag, super::super::Tag::Td);
        assert_eq!(doc.raw_text(tree.node(table).next_sibling), "x<y");
    }

    /// A walk from a node gives what the whole walk gives from that node's own token on.
    #[test]
    fn a_walk_from_a_node_is_the_rest_of_the_whole_walk() {
        let page = "<div>a</b><p>b<i>c</i></x>d</p><table><td>e</table></div>f</y><ul><li>g";
        let arena = bumpalo::Bump::new();
        let doc = super::super::Document::parse(page, &arena);
        let all: Vec<(TokenKind, u32, u32, NodeId)> = doc
            .tokens()
            .map(|t| (t.kind, t.start, t.end, t.node))
            .collect();
        for first in 1..doc.tree.nodes.len() as NodeId {
            let want: Vec<_> = all
                .iter()
                .copied()
                .skip_while(|&(kind, _, _, node)| node != first || kind == TokenKind::EndTag)
                .collect();
            let got: Vec<_> = doc
                .tokens_from(first)
                .map(|t| (t.kind, t.start, t.end, t.node))
                .collect();
            // An implied element has no token: the walk from it starts at its first child's.
            if doc.tree.node(first).is_implied() {
                assert_eq!(got.first().map(|t| t.3), Some(first + 1), "{first}");
                continue;
            }
            assert_eq!(got, want, "from node {first}");
        }
        assert_eq!(doc.tokens_from(tree::NONE).count(), all.len());
    }

    #[test]
    fn blank_agrees_with_a_byte_loop() {
        let alphabet = b" \t\n\r\x0c\x0b\x1f\x20\x00a\x85\xa0\x89\x8a";
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for len in 0..40 {
            for _ in 0..2000 {
                let text: Vec<u8> = (0..len)
                    .map(|_| {
                        crate::hash::xorshift64(&mut x);
                        // Mostly white space, so that long blank runs occur.
                        match x % 16 {
                            0 => alphabet[(x >> 8) as usize % alphabet.len()],
                            _ => b" \t\n\r\x0c"[(x >> 8) as usize % 5],
                        }
                    })
                    .collect();
                let want = text.iter().all(u8::is_ascii_whitespace);
                assert_eq!(is_blank(&text), want, "{text:?}");
            }
        }
    }

    #[test]
    fn estimate_bounds_the_tokens() {
        for page in ["<p>a</p> a < b", "<<<<", "", "<!-- x --><br>t</>"] {
            let arena = bumpalo::Bump::new();
            let doc = super::super::Document::parse(page, &arena);
            assert!(doc.tokens().count() <= estimate(page.as_bytes()), "{page}");
            assert!(
                doc.tree.nodes.len() <= estimate(page.as_bytes()) + 1,
                "{page}"
            );
        }
    }
}
