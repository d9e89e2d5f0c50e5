//! Step 1: statistics per element ([`Stats`]: visible text, link text, commas, DANAg's share),
//! gathered bottom-up in one reverse pass over the arena, and kept for elements only
//! ([`NodeStats`]).

use super::marks::{Bits, BlockChild};
use super::rules;
use crate::html::tags::flags;
use crate::html::tree::{Kind, NodeId, context};
use crate::html::{Document, Node};

/// Per-element statistics over its subtree.
#[derive(Clone, Copy, Default, Debug)]
pub struct Stats {
    /// Visible text characters (bytes, without the blanks around each text run).
    pub text: u32,
    /// Of those, inside links.
    pub link: u32,
    /// Commas (Latin and CJK), a sign of prose.
    pub commas: u32,
    /// Characters of text that DANAg selected.
    pub danag: u32,
}

// 16 bytes, one per element (text nodes' statistics are recomputed from their span, see
// [`NodeStats`]): the largest of `auto`'s arrays, so its size bounds memory.
const _: () = assert!(std::mem::size_of::<Stats>() == 16);

impl Stats {
    /// Share of the text inside links, 0 to 1.
    pub fn link_density(&self) -> f32 {
        if self.text == 0 {
            0.0
        } else {
            self.link as f32 / self.text as f32
        }
    }
}

/// The position of each element (and the document) among the elements, for arrays that only
/// elements need: a bit per node and a running count per 8 nodes (a rank directory, 0.6 bytes
/// a node), so that a page whose nodes are mostly text (a node every 12 bytes, two thirds of
/// them text) keeps 16 bytes of statistics for a third of its nodes only. Per 8 nodes, not
/// 64: a byte's count is one table load, where a word's needs POPCNT, which the default x86-64
/// target does not assume (its software count cost `auto` 10% more instructions).
pub(super) struct ElementRanks {
    is_element: Vec<u8>,
    /// Elements before each block of 8 nodes.
    before: Vec<u32>,
    pub(super) count: usize,
}

/// Set bits of each byte.
const ONES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u8).count_ones() as u8;
        i += 1;
    }
    t
};

impl ElementRanks {
    pub(super) fn new(nodes: &[Node]) -> ElementRanks {
        let blocks = nodes.len().div_ceil(8);
        let (mut is_element, mut before) = (Vec::with_capacity(blocks), Vec::with_capacity(blocks));
        let mut count = 0u32;
        for chunk in nodes.chunks(8) {
            before.push(count);
            let mut byte = 0u8;
            for (b, node) in chunk.iter().enumerate() {
                byte |= u8::from(node.kind != Kind::Text) << b;
            }
            is_element.push(byte);
            count += u32::from(ONES[byte as usize]);
        }
        ElementRanks {
            is_element,
            before,
            count: count as usize,
        }
    }

    /// The bits of nodes `64 * w..64 * w + 64`, set for elements and the document (bits
    /// past the last node clear).
    #[inline(always)]
    fn word(&self, w: usize) -> u64 {
        let mut bytes = [0u8; 8];
        if let Some(chunk) = self.is_element.get(8 * w..) {
            let k = chunk.len().min(8);
            bytes[..k].copy_from_slice(&chunk[..k]);
        }
        u64::from_le_bytes(bytes)
    }

    /// Words of 64 nodes in the directory.
    #[inline(always)]
    fn words(&self) -> usize {
        self.is_element.len().div_ceil(8)
    }

    /// The index of element `i` among the elements (meaningless for a text node).
    #[inline(always)]
    pub(super) fn rank(&self, i: usize) -> usize {
        let below = self.is_element[i >> 3] & ((1u8 << (i & 7)) - 1);
        self.before[i >> 3] as usize + ONES[below as usize] as usize
    }
}

/// [`Stats`] of every node: kept for elements (and the document), recomputed for text from
/// its span (text nodes are most nodes on pages of paragraphs, and their statistics are their
/// own text). A text node's commas and DANAg characters are summed into its parent and not
/// kept: only elements' are read.
pub(super) struct NodeStats<'d, 'a> {
    doc: &'d Document<'a>,
    pub(super) ranks: ElementRanks,
    elements: Vec<Stats>,
}

impl NodeStats<'_, '_> {
    #[inline(always)]
    pub(super) fn get(&self, i: usize) -> Stats {
        let node = &self.doc.tree.nodes[i];
        if node.kind != Kind::Text {
            return self.elements[self.ranks.rank(i)];
        }
        let chars = text_chars(self.doc, i as NodeId);
        Stats {
            text: chars,
            link: if node.context() & context::LINK != 0 {
                chars
            } else {
                0
            },
            commas: 0,
            danag: 0,
        }
    }

    /// The index of element `i` among the elements, for arrays indexed by element.
    #[inline]
    pub(super) fn rank(&self, i: usize) -> usize {
        self.ranks.rank(i)
    }

    /// The statistics of the element of index `r` (a pass over the nodes in order counts the
    /// elements it meets instead of asking [`NodeStats::rank`] for each).
    #[inline(always)]
    pub(super) fn element(&self, r: usize) -> Stats {
        self.elements[r]
    }

    /// Every node's statistics (for [`super::Trace`]).
    pub(super) fn to_vec(&self) -> Vec<Stats> {
        (0..self.doc.tree.nodes.len())
            .map(|i| self.get(i))
            .collect()
    }
}

impl NodeStats<'_, '_> {
    /// Calls `f(i, r, node)` for every element `i` (the document not included) in document
    /// order, with `r` its index among the elements ([`NodeStats::element`]), counted along
    /// instead of asked of [`NodeStats::rank`]. The elements are read from the rank
    /// directory's bits, 64 nodes a word: a pass that tested every node's kind mispredicted a
    /// branch wherever text and elements alternate (callgrind: 4% of `auto`'s mispredicts).
    #[inline(always)]
    pub(super) fn for_each_element(&self, mut f: impl FnMut(usize, usize, &Node)) {
        let nodes = &self.doc.tree.nodes[..];
        let mut r = 0;
        for w in 0..self.ranks.words() {
            let mut word = self.ranks.word(w);
            if w == 0 {
                // The document is element 0, not passed.
                word &= !1;
            }
            while word != 0 {
                let i = w * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                r += 1;
                if let Some(node) = nodes.get(i) {
                    f(i, r, node);
                }
            }
        }
    }
}

impl NodeStats<'_, '_> {
    /// Calls `f(i, node)` for every text node `i` in document order (read from the rank
    /// directory's bits, as [`NodeStats::for_each_element`] reads the elements).
    #[inline(always)]
    pub(super) fn for_each_text(&self, mut f: impl FnMut(usize, &Node)) {
        let nodes = &self.doc.tree.nodes[..];
        for w in 0..self.ranks.words() {
            let mut text = !self.ranks.word(w);
            while text != 0 {
                let i = w * 64 + text.trailing_zeros() as usize;
                text &= text - 1;
                let Some(node) = nodes.get(i) else {
                    return;
                };
                f(i, node);
            }
        }
    }
}

/// Visible characters of a text node that is not hidden: its bytes without the blanks
/// around them ([`text_chars`] without the node's look-up and hiding test).
#[inline(always)]
pub(super) fn shown_chars(doc: &Document<'_>, node: &Node) -> u32 {
    doc.src
        .as_bytes()
        .get(node.start as usize..node.end as usize)
        .map_or(0, |b| b.trim_ascii().len() as u32)
}

/// Step 1, bottom-up statistics: each visible text's into its parent, then each element's into
/// its parent, children before parents (ids descend). `in_danag` is DANAg's selection;
/// elements with a block child that has text are flagged in `block_child`.
pub(super) fn gather<'d, 'a>(
    doc: &'d Document<'a>,
    in_danag: &Bits,
    block_child: &BlockChild<'_>,
) -> NodeStats<'d, 'a> {
    let nodes = &doc.tree.nodes;
    let ranks = ElementRanks::new(nodes);
    let mut elements = vec![Stats::default(); ranks.count];
    let bytes = doc.src.as_bytes();
    // Both passes read the nodes of one kind from the rank directory's bits, 64 nodes a
    // word, rather than test every node's kind (a mispredicted branch wherever text and
    // elements alternate). First the text nodes, in order.
    for w in 0..ranks.words() {
        let mut text = !ranks.word(w);
        while text != 0 {
            let i = w * 64 + text.trailing_zeros() as usize;
            text &= text - 1;
            let Some(node) = nodes.get(i) else {
                break;
            };
            // Hidden text counts nothing; its visible characters are its bytes without the
            // blanks around them ([`text_chars`]), and blank runs (the indentation between
            // tags, most text nodes) count nothing either: their statistics stay zero
            // without counting commas.
            if node.context() & context::HIDDEN != 0 {
                continue;
            }
            let run = bytes
                .get(node.start as usize..node.end as usize)
                .map_or(&[][..], <[u8]>::trim_ascii);
            let chars = run.len() as u32;
            if chars == 0 {
                continue;
            }
            let p = &mut elements[ranks.rank(node.parent as usize)];
            p.text += chars;
            if node.context() & context::LINK != 0 {
                p.link += chars;
            }
            // The blanks trimmed off hold no comma.
            p.commas += commas(run);
            if in_danag.get(i) {
                p.danag += chars;
            }
        }
    }
    // Then the elements, children before parents (ids descend); `r` is element `i`'s index,
    // counted down.
    let mut r = ranks.count;
    for w in (0..ranks.words()).rev() {
        let mut word = ranks.word(w);
        if w == 0 {
            // The document has no parent.
            word &= !1;
        }
        while word != 0 {
            let top = 63 - word.leading_zeros() as usize;
            word &= !(1u64 << top);
            let i = w * 64 + top;
            r -= 1;
            let Some(node) = nodes.get(i) else {
                continue;
            };
            let parent = node.parent as usize;
            let s = elements[r];
            let p = &mut elements[ranks.rank(parent)];
            p.text += s.text;
            p.link += s.link;
            p.commas += s.commas;
            p.danag += s.danag;
            // A line break does not make a container: `text<br>text` is one paragraph; nor
            // does a block without text (an empty `<div>` standing in for a break, a spacer,
            // an ad slot).
            let tag = node.tag;
            if tag.is(flags::BLOCK) && !rules::separator_tag(tag) && s.text > 0 {
                block_child.set(parent);
            }
        }
    }
    NodeStats {
        doc,
        ranks,
        elements,
    }
}

/// Visible characters of text node `id`: its bytes without the blanks around it; 0 when it
/// is hidden (a script body) or blank (the indentation between tags, most text nodes).
#[inline]
pub(super) fn text_chars(doc: &Document<'_>, id: NodeId) -> u32 {
    let n = doc.tree.node(id);
    if n.context() & context::HIDDEN != 0 {
        return 0;
    }
    // The bytes, not the `str`: a text span lies on character boundaries, and slicing bytes
    // skips checking so (this runs for every text node of every selection).
    doc.src
        .as_bytes()
        .get(n.start as usize..n.end as usize)
        .map_or(0, |b| b.trim_ascii().len() as u32)
}

/// Commas, Latin and CJK (`，` U+FF0C and `、` U+3001): a sign of prose in any script.
fn commas(raw: &[u8]) -> u32 {
    const CJK: [&str; 2] = ["，", "、"];
    // One plain loop counts the commas and ORs the bytes (non-ASCII when the high bit shows):
    // text runs are short (tens of bytes), where a SIMD search's set-up per call cost more
    // than the count. Counted in a byte per block of 128, which the compiler vectorizes (a
    // `usize` count a byte it did not: callgrind, 1.3% of `auto`).
    let (mut latin, mut high) = (0usize, 0u8);
    for block in raw.chunks(128) {
        let mut n = 0u8;
        for &c in block {
            n += u8::from(c == b',');
            high |= c;
        }
        latin += usize::from(n);
    }
    if high < 0x80 {
        return latin as u32;
    }
    // Both are three bytes; find their lead bytes (EF, E3) with memchr and check the rest,
    // rather than comparing a window at every byte of the text.
    let cjk = memchr::memchr2_iter(CJK[0].as_bytes()[0], CJK[1].as_bytes()[0], raw)
        .filter(|&k| {
            raw.get(k..k + CJK[0].len())
                .is_some_and(|w| w == CJK[0].as_bytes() || w == CJK[1].as_bytes())
        })
        .count();
    (latin + cjk) as u32
}
