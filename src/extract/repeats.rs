//! A region the page prints twice is kept once; text the content itself repeats stays.
//!
//! Pages print the same region twice more often than a reader sees it twice: a post quoted in
//! a reply, an article or a product description in a desktop and a mobile layout, a summary
//! above a description tab that says it again. A person copying the main content writes it
//! once, and so do the golds of most sets; a multiset of words (the bag-of-words score, or a
//! model trained on the text) counts a second copy as text that is not there. But the content
//! repeats itself too: a refrain between verses, a notice printed above and below an article,
//! a paragraph pasted twice, a label in every card of a listing. Those copies are the
//! content's, and a person copying it writes each (issue 42: on Mozilla's held-back
//! Readability pages, dropping every repeat scored 0.903, keeping every copy 0.941). The same
//! sentence can be either, so [`keep_once`] decides from where the copies sit, not from their
//! words.
//!
//! A *line* is what the text renderer prints as one: the selected text between two block-level
//! boundaries, a table row's cells together; its *block* is the nearest element that starts
//! and ends lines around it. A line is a *repeat* when its words (lower-cased letter and digit
//! runs, as the scorer counts them) are those of an earlier selected line and its text nodes
//! are copies of other selected nodes (the same source text, white space around it aside), as
//! copies printed by one template are: that second condition lets [`keep_once`] skip the
//! lines that cannot repeat without reading their text. A text of the selection's *own* is a
//! text node whose source text no other selected node has, or a line whose words no other
//! line gives. A repeat is judged against its nearest earlier copy, and dropped when
//! - it lies in a `<blockquote>` that the earlier copy lies outside of: a quotation of what the
//!   page printed before (a reply quoting a post);
//! - or the two copies lie in two blocks, and
//!   - nothing of the selection's own lies between them: the page printed the line, or a
//!     region line after line, twice in a row (a card's title in its image link and again in
//!     its heading; the second of two layouts);
//!   - or the later copy lies in a copied region. Under the lowest common ancestor of the two
//!     copies, take its child that holds the earlier copy and its child that holds the later
//!     one: two parallel branches. The later branch is a copy when fewer of its texts are its
//!     own than its lines are repeats, and it follows the earlier branch closely: nothing of
//!     the selection's own between the two, or, when the later branch holds more than the
//!     line's block (a section of several blocks), less than the branch has repeats (a
//!     "Subscribe" button between a description and its second rendering; an own line in one
//!     layout and not in the other is no hindrance either, as only the later branch is read).
//!
//! Every other repeat stays. Two lines of one block are that block's words (a chant of three
//! equal `<br>` lines). A block repeated among blocks of its own is the content repeating
//! itself: its branch is the block itself, and the verses, the article, the other paragraphs
//! lie between the copies (a refrain, a notice at the top and the bottom, a filler paragraph
//! twice). A line of a card among the card's own lines (`Quick shop` under each product's
//! name and price, a meal plan's "Eat every 2-3 hours" each day) lies in a branch that is
//! mostly its own. A card most of whose lines repeat the card before it (a list of colours
//! longer than the card's name and price) does read as a copy.
//!
//! Some repeats always stay:
//! - lines without a word (a rule, a bullet): nothing to count twice;
//! - lines inside a `<table>`: a value repeated down a column (`Yes`, a room, a fee) is data
//!   in each row, not the page repeating itself;
//! - preformatted lines (`<pre>`): code and logs repeat lines by nature, and documentation
//!   shows one snippet in several places;
//! - lines inside a `<figure>` or `<figcaption>`: each photo's caption and credit
//!   (`Credit: Getty`) belong to that photo.
//!
//! The work is linear in the selection: prefix counts judge each repeat in constant time
//! (plus binary searches), and its two climbs to the ancestors are bounded by the tree's depth
//! limit. Measured on every gold set, `auto` and the block model, against the rule it
//! replaced (every repeat outside the exemptions dropped) and `--keep-repeats`, with the
//! variants not adopted: docs/research-log.md, "A text the page repeats kept once" and "Repeats the
//! content makes".

use ahash::AHashMap;

use crate::extract::blocks::{FNV_OFFSET, fnv1a};
use crate::html::entities;
use crate::html::tags::{Tag, flags};
use crate::html::tree::{Kind, NONE, NodeId, ROOT, context};
use crate::html::{Document, Selection, Tree};
use crate::text::is_word_char;

/// The selection without the repeats that re-render a region of the page (see the module
/// doc): a later copy of a line is dropped when it is quoted, printed twice in a row, or part
/// of a copied region; other repeats are the content's own and stay.
///
/// Most selections repeat nothing, so the work is done only where a repeat can be. Copies of
/// a text printed by one template are made of the same text nodes, so a line is compared with
/// the others only when each of its text nodes that holds a word has the source text of
/// another selected node (white space around it aside). Finding those nodes reads each
/// node's length and its first and last eight bytes (`node_key`), not its text; a selection
/// without them is returned as it is. Only such lines, grown from their nodes to where the
/// renderer would cut them (`same_line`), have their words hashed (`Line::add`) and
/// compared. (Hashing every line's words took `auto` from 386 to 143 MB/s on cleaneval in
/// `just bench`.) Each repeat is then judged in constant time from prefix counts over the
/// selection, plus climbs to its ancestors, which the tree's depth limit bounds.
pub(crate) fn keep_once(doc: &Document<'_>, mut sel: Selection) -> Selection {
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
    let lines = shared_lines(doc, &sel, &twice);
    if lines.is_empty() {
        return sel;
    }
    let tally = Tally::new(&sel, &lines, &twice);
    let tree = &doc.tree;
    let node_at = |p: usize| sel.nodes.get(p).copied().unwrap_or(NONE);
    let mut last_at: AHashMap<u64, usize> = AHashMap::with_capacity(lines.len());
    let mut keep = vec![true; sel.nodes.len()];
    let mut dropped = false;
    for (k, l) in lines.iter().enumerate() {
        // The nearest earlier copy: a third copy is judged against the second.
        let Some(earlier) = last_at.insert(l.key, k).and_then(|j| lines.get(j)) else {
            continue;
        };
        let (b, a) = (node_at(l.start), node_at(earlier.start));
        if b == NONE || a == NONE || tree.node(b).context() & context::PRE != 0 {
            continue;
        }
        let later = Climb::from(tree, a, b);
        if later.exempt {
            continue;
        }
        let (a_block, ca) = earlier_side(tree, a, later.lca);
        let drop = later.quoted
            || (later.block != a_block
                && (tally.own_in(earlier.end..l.start) == 0
                    || tally.copied_branch(tree, ca, later.cb, later.block)));
        if drop && let Some(k) = keep.get_mut(l.start..l.end) {
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

/// Counts over the selection's prefixes, so that each repeat is judged in constant time
/// (plus binary searches).
struct Tally<'s> {
    /// The selected text nodes, in document order.
    nodes: &'s [NodeId],
    /// The lines of shared nodes ([`shared_lines`]), in document order.
    lines: &'s [Span],
    /// `own[i]`: how many texts of the selection's own start among its first `i` nodes: a
    /// text node whose source text no other selected node has, or a line of shared nodes
    /// whose words no other line gives (counted at its first node).
    own: Vec<u32>,
    /// `copies[k]`: how many of the first `k` lines give words that another line gives too.
    copies: Vec<u32>,
}

impl<'s> Tally<'s> {
    fn new(sel: &'s Selection, lines: &'s [Span], twice: &[Option<bool>]) -> Tally<'s> {
        let mut times: AHashMap<u64, u32> = AHashMap::with_capacity(lines.len());
        for l in lines {
            *times.entry(l.key).or_insert(0) += 1;
        }
        let repeated = |l: &Span| times.get(&l.key).is_some_and(|&n| n > 1);
        let mut own: Vec<bool> = twice.iter().map(|t| *t == Some(false)).collect();
        for l in lines.iter().filter(|l| !repeated(l)) {
            if let Some(o) = own.get_mut(l.start) {
                *o = true;
            }
        }
        Tally {
            nodes: &sel.nodes,
            lines,
            own: prefix_counts(own.into_iter()),
            copies: prefix_counts(lines.iter().map(repeated)),
        }
    }

    /// How many texts of the selection's own start at positions `r` of the selection.
    fn own_in(&self, r: std::ops::Range<usize>) -> u32 {
        between(&self.own, r)
    }

    /// The positions in the selection of the selected nodes of the subtree of `id`.
    fn positions(&self, tree: &Tree<'_>, id: NodeId) -> std::ops::Range<usize> {
        let pos = |id: usize| self.nodes.partition_point(|&n| (n as usize) < id);
        pos(id as usize)..pos(tree.subtree(id).end)
    }

    /// Whether the branch `cb` (holding a repeat whose line's block is `block`) copies the
    /// earlier branch `ca`, its sibling under their lowest common ancestor: fewer texts of its
    /// own than lines it repeats, and close behind `ca` (nothing of the selection's own
    /// between them, or, when `cb` holds more than the line's block, less than `cb`
    /// repeats). See the module doc.
    fn copied_branch(&self, tree: &Tree<'_>, ca: NodeId, cb: NodeId, block: NodeId) -> bool {
        let (ra, rb) = (self.positions(tree, ca), self.positions(tree, cb));
        let first_line = |p: usize| self.lines.partition_point(|l| l.start < p);
        let copies = between(&self.copies, first_line(rb.start)..first_line(rb.end));
        let own = self.own_in(rb.clone());
        let gap = self.own_in(ra.end..rb.start);
        own < copies && (gap == 0 || (cb != block && gap < copies))
    }
}

/// `c[r.end] - c[r.start]` for prefix counts `c`: how many flags are set in `r`.
fn between(c: &[u32], r: std::ops::Range<usize>) -> u32 {
    let at = |i: usize| c.get(i).copied().unwrap_or(0);
    at(r.end).saturating_sub(at(r.start))
}

/// A line of the selection made of shared nodes only: its nodes (`start..end`, positions in
/// the selection) and its words' key.
struct Span {
    start: usize,
    end: usize,
    key: u64,
}

/// The lines of `sel` made of shared nodes only (`twice` is `Some(true)` for each of their
/// nodes that holds a word), with a word, in document order: each grown from a shared node
/// over its neighbours while no block boundary separates them, its words hashed.
fn shared_lines(doc: &Document<'_>, sel: &Selection, twice: &[Option<bool>]) -> Vec<Span> {
    let tree = &doc.tree;
    let joined = |k: usize| match (sel.nodes.get(k.wrapping_sub(1)), sel.nodes.get(k)) {
        (Some(&a), Some(&b)) => same_line(tree, a, b),
        _ => false,
    };
    let mut lines = Vec::new();
    let mut decoded = String::new();
    let mut i = 0;
    let mut done = 0; // where the last line ended
    while i < sel.nodes.len() {
        if twice.get(i) != Some(&Some(true)) {
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
        let mut line = Line::default();
        for &id in sel.nodes.get(start..end).unwrap_or_default() {
            line.add(entities::decode_with(doc.raw_text(id), &mut decoded));
        }
        if line.words > 0 {
            lines.push(Span {
                start,
                end,
                key: line.key,
            });
        }
    }
    lines
}

/// `c[i]`: how many of the first `i` flags are set (one more entry than flags).
fn prefix_counts(flags: impl Iterator<Item = bool>) -> Vec<u32> {
    let mut c = vec![0u32];
    let mut n = 0u32;
    for f in flags {
        n += u32::from(f);
        c.push(n);
    }
    c
}

/// What the ancestors of the later copy's first text node `b` tell, read in one climb to the
/// root (the tree's depth limit, [`crate::html::tree::MAX_DEPTH`], bounds it), given the
/// earlier copy's first text node `a`.
struct Climb {
    /// Inside a `<table>`, a `<figure>` or a `<figcaption>` (kept: see the module doc).
    exempt: bool,
    /// Inside a `<blockquote>` that `a` lies outside of: a quotation of text printed before.
    quoted: bool,
    /// The block of `b`'s line: its nearest ancestor that cuts lines ([`cuts_line`]), [`NONE`]
    /// when there is none.
    block: NodeId,
    /// The lowest common ancestor of `a` and `b` ([`ROOT`] when only the document holds both)
    /// and its child that holds `b` (the branch of the later copy).
    lca: NodeId,
    cb: NodeId,
}

impl Climb {
    fn from(tree: &Tree<'_>, a: NodeId, b: NodeId) -> Climb {
        let mut c = Climb {
            exempt: false,
            quoted: false,
            block: NONE,
            lca: ROOT,
            cb: b,
        };
        let (mut quote, mut common) = (false, false);
        for x in tree.ancestors(b) {
            let n = tree.node(x);
            if n.kind == Kind::Element {
                c.exempt |= matches!(n.tag, Tag::Table | Tag::Figure | Tag::Figcaption);
                if !quote && n.tag == Tag::Blockquote {
                    quote = true;
                    c.quoted = a < x;
                }
            }
            if c.block == NONE && cuts_line(tree, x) {
                c.block = x;
            }
            // Ids are in document order and a subtree's ids are contiguous: the first
            // ancestor of `b` that starts before `a` holds `a` too.
            if !common {
                if x < a {
                    c.lca = x;
                    common = true;
                } else {
                    c.cb = x;
                }
            }
        }
        c
    }
}

/// The block of the earlier copy's line (its first text node `a`) and the child of `lca` that
/// holds `a` (the branch of the earlier copy), in one climb from `a`.
fn earlier_side(tree: &Tree<'_>, a: NodeId, lca: NodeId) -> (NodeId, NodeId) {
    let (mut block, mut ca, mut at_lca) = (NONE, a, false);
    for x in tree.ancestors(a) {
        if x == lca {
            at_lca = true;
        } else if !at_lca {
            ca = x;
        }
        if block == NONE && cuts_line(tree, x) {
            block = x;
        }
        if at_lca && block != NONE {
            break;
        }
    }
    (block, ca)
}

/// Whether node `id` is an element that starts and ends a line of text: block-level and not
/// a table cell (a row's cells print on one line).
fn cuts_line(tree: &Tree<'_>, id: NodeId) -> bool {
    let n = tree.node(id);
    n.kind == Kind::Element && !matches!(n.tag, Tag::Td | Tag::Th) && n.tag.is(flags::BLOCK)
}

/// Whether the text nodes `a` and `b` (`a` first) print on one line: no block-level element
/// other than a table cell starts between them (an element whose id lies between theirs: ids
/// are in document order) or ends between them (an ancestor of `a` closed before `b`
/// starts), as the text renderer cuts lines. Each element is looked at for one pair of
/// neighbours at most, plus the ancestor that stops the climb: linear over a page.
fn same_line(tree: &Tree<'_>, a: NodeId, b: NodeId) -> bool {
    let cuts = |id: NodeId| cuts_line(tree, id);
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
    fn a_refrain_a_notice_and_a_paragraph_the_content_repeats_stay() {
        // Each copy is a block of the article among blocks of its own: content.
        let page = "<article><p>Note: the ferry closed in 1962.</p><p>I took the parson over.</p>\
                    <p>So pull, my lads.</p><p>The water is brown and cold.</p>\
                    <p>So pull, my lads.</p><p>Lorem ipsum dolor sit.</p><p>The rope is frayed.</p>\
                    <p>Lorem ipsum dolor sit.</p><p>Note: the ferry closed in 1962.</p></article>";
        assert_eq!(
            text(page),
            "Note: the ferry closed in 1962.|I took the parson over.|So pull, my lads.|\
             The water is brown and cold.|So pull, my lads.|Lorem ipsum dolor sit.|\
             The rope is frayed.|Lorem ipsum dolor sit.|Note: the ferry closed in 1962."
        );
    }

    #[test]
    fn lines_of_one_block_stay() {
        // A chant: the same line three times in one paragraph, even in a row.
        let got = text(
            "<p>The match.</p><p><b>We love you, we do.</b><br><b>We love you, we do.</b><br>\
             <b>We love you, we do.</b><br><b>Oh we love you!</b></p>",
        );
        assert_eq!(
            got,
            "The match.|We love you, we do.|We love you, we do.|We love you, we do.|Oh we love you!"
        );
    }

    #[test]
    fn a_label_in_every_card_stays() {
        // The label is one line of each card, among the card's own lines.
        let got = text(
            "<ul><li><h3>Linen tee</h3><p>$30</p><a href=\"/a\">Quick shop</a></li>\
             <li><h3>Wool hat</h3><p>$25</p><a href=\"/b\">Quick shop</a></li></ul>",
        );
        assert_eq!(got, "Linen tee|$30|Quick shop|Wool hat|$25|Quick shop");
    }

    #[test]
    fn a_region_printed_twice_or_three_times_is_kept_once() {
        // A desktop and a mobile layout, a button between them; the desktop shows a line the
        // mobile does not.
        let got = text(
            "<div><h1>Sheds</h1><p>Mend the felt roof.</p><p>Only on desktop.</p>\
             <p>Raise the floor.</p></div><button>Subscribe</button>\
             <div><h1>Sheds</h1><p>Mend the felt roof.</p><p>Raise the floor.</p></div>\
             <p>The end.</p>",
        );
        assert_eq!(
            got,
            "Sheds|Mend the felt roof.|Only on desktop.|Raise the floor.|Subscribe|The end."
        );
        // Desktop, tablet and mobile: each copy is judged against the one before it.
        let region = "<div><h2>Care</h2><p>Wash cold.</p><p>Dry flat.</p></div>";
        let got = text(&format!(
            "<p>Intro.</p>{region}{region}{region}<p>Sizes.</p>"
        ));
        assert_eq!(got, "Intro.|Care|Wash cold.|Dry flat.|Sizes.");
    }

    #[test]
    fn a_region_is_a_copy_when_most_of_its_lines_repeat() {
        // Two product cards of the same colours, each with a name and a price of its own.
        let cards = |colours: &str| {
            let card = |name: &str, price: &str| {
                format!("<li><h3>{name}</h3><ul>{colours}</ul><p>{price}</p></li>")
            };
            text(&format!(
                "<ul>{}{}</ul>",
                card("Cup 4oz", "$29"),
                card("Cup 6oz", "$31")
            ))
        };
        // The second card repeats two colours of the first, and has its name and its price
        // of its own: half of it is its own, and its colours stay.
        assert_eq!(
            cards("<li>Amber</li><li>Slate</li>"),
            "Cup 4oz|Amber|Slate|$29|Cup 6oz|Amber|Slate|$31"
        );
        // With three colours most of the card repeats the one before it: read as a copy.
        assert_eq!(
            cards("<li>Amber</li><li>Slate</li><li>Violet</li>"),
            "Cup 4oz|Amber|Slate|Violet|$29|Cup 6oz|$31"
        );
    }

    #[test]
    fn a_quoted_post_is_kept_once() {
        let got = text(
            "<div><p>crumbly, 08:14</p><p>My starter smells of varnish.</p></div>\
             <div><p>oldmill, 09:40</p><blockquote><p>My starter smells of varnish.</p>\
             </blockquote><p>It is hungry.</p></div>",
        );
        assert_eq!(
            got,
            "crumbly, 08:14|My starter smells of varnish.|oldmill, 09:40|It is hungry."
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
