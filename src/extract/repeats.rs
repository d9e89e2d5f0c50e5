//! Text the page repeats is kept once.
//!
//! Pages print the same text twice more often than a reader sees it twice: a post quoted in
//! every reply, a product description in a desktop and a mobile layout, a call to action after
//! each section, "Quick shop" under every card. A person copying the main content writes each
//! piece once, and so do the golds of most sets; a multiset of words (the bag-of-words score,
//! or a model trained on the text) counts a second copy as text that is not there. Removing
//! repeated text is also how template detectors find boilerplate across a site's pages (the
//! text-shingle detector of [`super::tmpl_text`]); [`keep_once`] applies the same idea inside
//! one page.
//!
//! A *line* is what the text renderer prints as one: the selected text between two block-level
//! boundaries, a table row's cells together. A line is dropped when its words (lower-cased
//! letter and digit runs, as the scorer counts them) are those of an earlier selected line
//! and its text nodes are copies of other selected nodes (the same source text, white space
//! around it aside), as copies printed by one template are: that second condition lets
//! [`keep_once`] skip the lines that cannot repeat without reading their text. Some lines
//! stay:
//! - lines without a word (a rule, a bullet): nothing to count twice;
//! - lines inside a `<table>`: a value repeated down a column (`Yes`, a room, a fee) is data
//!   in each row, not the page repeating itself;
//! - preformatted lines (`<pre>`): code and logs repeat lines by nature, and documentation
//!   shows one snippet in several places;
//! - lines inside a `<figure>` or `<figcaption>`: each photo's caption and credit
//!   (`Credit: Getty`) belong to that photo.
//!
//! Measured on the held-out protocol of `docs/model.md` (every set, `auto` and the block
//! model): docs/model.md's "Repeated text" section.

use ahash::{AHashMap, AHashSet};

use crate::extract::blocks::{FNV_OFFSET, fnv1a};
use crate::html::entities;
use crate::html::tags::{Tag, flags};
use crate::html::tree::{Kind, NONE, NodeId, context};
use crate::html::{Document, Selection, Tree};
use crate::text::is_word_char;

/// The selection without the lines that repeat an earlier selected line (see the module doc).
///
/// Most selections repeat nothing, so the work is done only where a repeat can be. Copies of
/// a text printed by one template are made of the same text nodes, so a line is compared with
/// the others only when each of its text nodes that holds a word has the source text of
/// another selected node (white space around it aside). Finding those nodes reads each
/// node's length and its first and last eight bytes (`node_key`), not its text; a selection
/// without them is returned as it is. Only such lines, grown from their nodes to where the
/// renderer would cut them (`same_line`), have their words hashed (`Line::add`) and
/// compared. (Hashing every line's words took `auto` from 386 to 143 MB/s on cleaneval in
/// `just bench`.)
pub fn keep_once(doc: &Document<'_>, mut sel: Selection) -> Selection {
    let mut first_at: AHashMap<u64, usize> = AHashMap::with_capacity(sel.nodes.len());
    // Per selected node: no word (None), or whether another node shares its key.
    let mut twice: Vec<Option<bool>> = vec![None; sel.nodes.len()];
    let mut any = false;
    for (i, &id) in sel.nodes.iter().enumerate() {
        let Some(key) = node_key(doc.raw_text(id).as_bytes()) else {
            continue;
        };
        let j = *first_at.entry(key).or_insert(i);
        if j == i {
            twice[i] = Some(false);
        } else {
            twice[i] = Some(true);
            twice[j] = Some(true);
            any = true;
        }
    }
    if !any {
        return sel;
    }
    let mut seen: AHashSet<u64> = AHashSet::new();
    let mut keep = vec![true; sel.nodes.len()];
    let mut dropped = false;
    let mut decoded = String::new();
    let tree = &doc.tree;
    let joined = |k: usize| match (sel.nodes.get(k.wrapping_sub(1)), sel.nodes.get(k)) {
        (Some(&a), Some(&b)) => same_line(tree, a, b),
        _ => false,
    };
    // The lines holding a node of `twice`, in document order: each grown from that node over
    // its neighbours while no block boundary separates them.
    let mut i = 0;
    let mut done = 0; // where the last line ended
    while i < sel.nodes.len() {
        if twice[i] != Some(true) {
            i += 1;
            continue;
        }
        let (mut start, mut end) = (i, i + 1);
        while start > done && joined(start) {
            start -= 1;
        }
        while end < sel.nodes.len() && joined(end) {
            end += 1;
        }
        done = end;
        i = end;
        // A node of its own text makes the line its own.
        if twice
            .get(start..end)
            .unwrap_or_default()
            .contains(&Some(false))
        {
            continue;
        }
        let nodes = sel.nodes.get(start..end).unwrap_or_default();
        let mut line = Line::default();
        for &id in nodes {
            let raw = doc.raw_text(id);
            if memchr::memchr(b'&', raw.as_bytes()).is_some() {
                decoded.clear();
                entities::decode_into(raw, &mut decoded);
                line.add(&decoded);
            } else {
                line.add(raw);
            }
        }
        let first = nodes.first().copied().unwrap_or(NONE);
        let pre = first != NONE && tree.node(first).context() & context::PRE != 0;
        if line.words > 0
            && !seen.insert(line.key)
            && !pre
            && !in_exempt(doc, first)
            && let Some(k) = keep.get_mut(start..end)
        {
            k.iter_mut().for_each(|k| *k = false);
            dropped = true;
        }
    }
    if dropped {
        let mut flags = keep.iter();
        sel.nodes.retain(|_| flags.next().copied().unwrap_or(true));
    }
    sel
}

/// Whether the text nodes `a` and `b` (`a` first) print on one line: no block-level element
/// other than a table cell starts between them (an element whose id lies between theirs: ids
/// are in document order) or ends between them (an ancestor of `a` closed before `b`
/// starts), as the text renderer cuts lines. Each element is looked at for one pair of
/// neighbours at most, plus the ancestor that stops the climb: linear over a page.
fn same_line(tree: &Tree<'_>, a: NodeId, b: NodeId) -> bool {
    let cuts = |id: NodeId| {
        let n = tree.node(id);
        n.kind == Kind::Element && !matches!(n.tag, Tag::Td | Tag::Th) && n.tag.is(flags::BLOCK)
    };
    if (a.saturating_add(1)..b).any(cuts) {
        return false;
    }
    let b_start = tree.node(b).start;
    !tree
        .ancestors(a)
        .take_while(|&anc| tree.node(anc).end <= b_start)
        .any(cuts)
}

/// What two text nodes of the same source text share, read without scanning the text: its
/// length and its first and last eight bytes, white space around it trimmed, mixed into one
/// number. Two nodes of one key may still differ (then their lines' words tell); two of one
/// text never differ in it. None for a text under two bytes or whose first and last eight
/// bytes hold no letter or digit (punctuation between inline tags: `, `, `)`): they hold no
/// word, or are too short to tell.
fn node_key(text: &[u8]) -> Option<u64> {
    let t = text.trim_ascii();
    if t.len() < 2 {
        return None;
    }
    let (head, tail) = match (t.first_chunk::<8>(), t.last_chunk::<8>()) {
        (Some(h), Some(l)) => (*h, *l),
        _ => {
            let mut short = [0u8; 8];
            short[..t.len()].copy_from_slice(t);
            (short, short)
        }
    };
    let wordy = |b: &u8| b.is_ascii_alphanumeric() || *b >= 0x80;
    if !head.iter().chain(&tail).any(wordy) {
        return None;
    }
    // Odd multipliers (from splitmix64) spread each part over the whole word.
    let mix = |x: u64, m: u64| x.wrapping_mul(m).rotate_left(29);
    Some(
        mix(t.len() as u64, 0x9E37_79B9_7F4A_7C15)
            ^ mix(u64::from_le_bytes(head), 0xBF58_476D_1CE4_E5B9)
            ^ mix(u64::from_le_bytes(tail), 0x94D0_49BB_1331_11EB),
    )
}

/// A line's words hashed in order, and how many there are.
struct Line {
    key: u64,
    words: u32,
    in_word: bool,
}

impl Default for Line {
    fn default() -> Self {
        Line {
            key: FNV_OFFSET,
            words: 0,
            in_word: false,
        }
    }
}

impl Line {
    /// Adds a text node's words to the key: the scorer's word characters ([`crate::text`])
    /// lower-cased, every other run one separator. Text nodes join as the renderer joins
    /// them, so a word split by an inline tag (`foo<b>bar</b>`) is one word. ASCII, most of
    /// any page, is read a byte at a time through [`ASCII_WORD`]; only other characters are
    /// decoded and lower-cased as `char`s, which costs several times more per byte.
    fn add(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            if b.is_ascii() {
                match ASCII_WORD[usize::from(b)] {
                    0 => self.in_word = false,
                    lower => self.push(&[lower]),
                }
                i += 1;
                continue;
            }
            let Some(c) = text.get(i..).and_then(|rest| rest.chars().next()) else {
                break;
            };
            i += c.len_utf8();
            let mut buf = [0u8; 4];
            for l in c.to_lowercase() {
                if is_word_char(l) {
                    self.push(l.encode_utf8(&mut buf).as_bytes());
                } else {
                    self.in_word = false;
                }
            }
        }
    }

    /// Adds one word character's bytes, after a separator if a word starts here.
    #[inline]
    fn push(&mut self, bytes: &[u8]) {
        if !self.in_word {
            self.words += 1;
            self.key = fnv1a(self.key, b" ");
            self.in_word = true;
        }
        self.key = fnv1a(self.key, bytes);
    }
}

/// Per ASCII byte, its lower-case form if it is a word character of the scorer (letters,
/// digits, `_`), else 0.
const ASCII_WORD: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() || c == b'_' {
            t[b] = c.to_ascii_lowercase();
        }
        b += 1;
    }
    t
};

/// Whether the text node `id` lies inside a `<table>`, a `<figure>` or a `<figcaption>`.
fn in_exempt(doc: &Document<'_>, id: NodeId) -> bool {
    id != NONE
        && doc.tree.ancestors(id).any(|a| {
            let n = doc.tree.node(a);
            n.kind == Kind::Element && matches!(n.tag, Tag::Table | Tag::Figure | Tag::Figcaption)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(html: &str) -> String {
        let arena = bumpalo::Bump::new();
        let doc = Document::parse(html, &arena);
        let all = crate::extract::blocks::text_nodes(&doc, |_| true);
        let sel = keep_once(&doc, Selection { nodes: all });
        let kept: Vec<String> = sel.nodes.iter().map(|&n| doc.text_of(n)).collect();
        kept.join("|")
    }

    #[test]
    fn a_repeated_line_is_kept_once() {
        let got = text(
            "<p>The staple tee, <b>enduring</b> comfort.</p><p>Sizes</p>\
             <div>\n  The staple tee, <b>enduring</b> comfort.\n</div><p>Sizes</p><p>Care</p>",
        );
        assert_eq!(got, "The staple tee,|enduring|comfort.|Sizes|Care");
    }

    #[test]
    fn a_line_of_other_nodes_is_its_own() {
        // The same words, but other text nodes: not copies of one template's line.
        let got = text("<p>Sizes and care</p><p>Sizes <i>and</i> care</p><p>sizes and CARE</p>");
        assert_eq!(got, "Sizes and care|Sizes|and|care|sizes and CARE");
        // A line only part of which repeats is its own too.
        let got = text("<p>Sizes</p><p>Sizes and care</p><p><b>Sizes</b> and more</p>");
        assert_eq!(got, "Sizes|Sizes and care|Sizes|and more");
    }

    #[test]
    fn table_rows_code_captions_and_lines_without_words_stay() {
        let got = text(
            "<table><tr><td>Room 111</td></tr><tr><td>Room 111</td></tr></table>\
             <p>*</p><p>*</p><p>Room 111</p><pre>npm install</pre><pre>npm install</pre>\
             <figure><figcaption>Credit: Getty</figcaption></figure>\
             <figure><figcaption>Credit: Getty</figcaption></figure><p>Credit: Getty</p>",
        );
        assert_eq!(
            got,
            "Room 111|Room 111|*|*|npm install|npm install|Credit: Getty|Credit: Getty"
        );
    }

    #[test]
    fn words_split_by_inline_tags_are_one_word() {
        // `foo<b>bar</b>` is `foobar`, not `foo bar`: these lines differ.
        assert_eq!(
            text("<p>foo<b>bar</b></p><p>foo bar</p>"),
            "foo|bar|foo bar"
        );
    }
}
