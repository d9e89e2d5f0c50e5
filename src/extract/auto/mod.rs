//! `auto`, the default: DANAg's line profile as the backbone, decisions made on the tree.
//!
//! 1. Statistics per element, gathered bottom-up in one reverse pass over the arena (children
//!    have larger ids than their parents, so no recursion): visible text characters, characters
//!    inside links, commas, and how much of the text DANAg selected.
//! 2. Hints per element, top-down in one forward pass: an element is boilerplate when its tag
//!    says so (nav, aside, footer) or its class/id names a page part that is never main content
//!    (navigation, comments, sharing, related links, adverts); it is hidden when the page hides
//!    it (`hidden`, `display:none`, `aria-hidden`). Comment sections go even when they are
//!    longer than the article, unless nothing else is an article (a forum thread).
//!    Teaser summaries (a linked headline and its blurb, repeated: "more stories", listings)
//!    are found in one document-order pass; beside an article they are neither recovered nor
//!    counted as the page's content.
//! 3. The main container: paragraph-like blocks with enough text vote for their parent (fully)
//!    and grandparent (half), by their length and commas, the way Readability scores candidates
//!    (Mozilla Readability, `_grabArticle`); the container's score is scaled by its share of
//!    non-link text and by how much of its text DANAg's densest region covers. Siblings of the
//!    winner that score close to it, or that are plain paragraphs, join it.
//! 4. Inside the chosen containers, text comes out in document order minus boilerplate subtrees,
//!    hidden ones and link-dense blocks (menus and link lists inside the article).
//!
//! When no container wins (a page of short texts), DANAg's own selection is the answer.

use crate::extract::Selection;
use crate::extract::danag::{self, Segments};
use crate::html::Document;
use crate::html::tags::{Tag, flags};
use crate::html::tree::{Kind, NONE, NodeId, context};

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
// [`NodeStats`]): the largest of `auto`'s arrays (issue #7).
const _: () = assert!(std::mem::size_of::<Stats>() == 16);

/// One bit per node, for a set of nodes held while other steps run (DANAg's selection, the
/// chosen text while the whole page is collected): an eighth of a `Vec<bool>`, and its set
/// bits, in order, are the nodes in document order.
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }

    #[inline]
    fn set(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }

    #[inline]
    fn get(&self, i: usize) -> bool {
        (self.0[i >> 6] >> (i & 63)) & 1 != 0
    }

    /// The set positions, ascending.
    fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    w * 64 + bit
                })
            })
        })
    }
}

/// The flags of one reading of the page ([`select`]), a bit each in one byte per node:
/// separate `Vec<bool>`s took a byte per node per flag (on a page of a node every 12 bytes,
/// each a twelfth of the page in memory; issue #7), and a bit per node per flag ([`Bits`])
/// cost `auto` 5% more instructions in shifts. Cells, so that a step can write one flag while
/// it reads others.
struct Marks(Vec<std::cell::Cell<u8>>);

impl Marks {
    fn new(n: usize) -> Marks {
        Marks(vec![std::cell::Cell::new(0); n])
    }

    /// The flag kept in bit `bit` (one of the `mark` constants).
    fn flag(&self, bit: u8) -> Flags<'_> {
        Flags {
            cells: &self.0,
            bit,
        }
    }
}

/// The bits of [`Marks`].
mod mark {
    pub const BLOCK_CHILD: u8 = 1;
    pub const HIDDEN: u8 = 1 << 1;
    pub const REMOVED: u8 = 1 << 2;
    pub const TEASER: u8 = 1 << 3;
    pub const PARAGRAPH: u8 = 1 << 4;
    pub const ROOT: u8 = 1 << 5;
    pub const UNDER: u8 = 1 << 6;
    pub const INSIDE: u8 = 1 << 7;
}

/// One flag of [`Marks`], a `bool` per node.
#[derive(Clone, Copy)]
struct Flags<'m> {
    cells: &'m [std::cell::Cell<u8>],
    bit: u8,
}

impl Flags<'_> {
    #[inline(always)]
    fn get(&self, i: usize) -> bool {
        self.cells[i].get() & self.bit != 0
    }

    #[inline(always)]
    fn set(&self, i: usize) {
        let c = &self.cells[i];
        c.set(c.get() | self.bit);
    }

    #[inline(always)]
    fn assign(&self, i: usize, on: bool) {
        let c = &self.cells[i];
        c.set(if on {
            c.get() | self.bit
        } else {
            c.get() & !self.bit
        });
    }

    fn clear(&self) {
        for c in self.cells {
            c.set(c.get() & !self.bit);
        }
    }

    /// The flags as booleans (for [`Trace`]).
    fn bools(self) -> Vec<bool> {
        (0..self.cells.len()).map(|i| self.get(i)).collect()
    }
}

/// Per node: has a block-level element child with text (so it is a container, not a
/// paragraph).
type BlockChild<'m> = Flags<'m>;

/// The position of each element (and the document) among the elements, for arrays that only
/// elements need: a bit per node and a running count per 8 nodes (a rank directory, 0.6 bytes
/// a node), so that a page whose nodes are mostly text (a node every 12 bytes, two thirds of
/// them text) keeps 16 bytes of statistics for a third of its nodes only. Per 8 nodes, not
/// 64: a byte's count is one table load, where a word's needs POPCNT, which the default x86-64
/// target does not assume (its software count cost `auto` 10% more instructions).
struct ElementRanks {
    is_element: Vec<u8>,
    /// Elements before each block of 8 nodes.
    before: Vec<u32>,
    count: usize,
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
    fn new(nodes: &[crate::html::Node]) -> ElementRanks {
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

    /// The index of element `i` among the elements (meaningless for a text node).
    #[inline(always)]
    fn rank(&self, i: usize) -> usize {
        let below = self.is_element[i >> 3] & ((1u8 << (i & 7)) - 1);
        self.before[i >> 3] as usize + ONES[below as usize] as usize
    }
}

/// [`Stats`] of every node: kept for elements (and the document), recomputed for text from
/// its span (text nodes are most nodes on pages of paragraphs, and their statistics are their
/// own text). A text node's commas and DANAg characters are summed into its parent and not
/// kept: only elements' are read.
struct NodeStats<'d, 'a> {
    doc: &'d Document<'a>,
    ranks: ElementRanks,
    elements: Vec<Stats>,
}

impl NodeStats<'_, '_> {
    #[inline(always)]
    fn get(&self, i: usize) -> Stats {
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
    fn rank(&self, i: usize) -> usize {
        self.ranks.rank(i)
    }

    /// The statistics of the element of index `r` (a pass over the nodes in order counts the
    /// elements it meets instead of asking [`NodeStats::rank`] for each).
    #[inline(always)]
    fn element(&self, r: usize) -> Stats {
        self.elements[r]
    }

    /// Every node's statistics (for [`Trace`]).
    fn to_vec(&self) -> Vec<Stats> {
        (0..self.doc.tree.nodes.len())
            .map(|i| self.get(i))
            .collect()
    }
}

/// Visible characters of text node `id`: its bytes without the blanks around it; 0 when it
/// is hidden (a script body) or blank (the indentation between tags, most text nodes).
#[inline]
fn text_chars(doc: &Document<'_>, id: NodeId) -> u32 {
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

/// Words in class and id values that name page parts which are not main content. Sources:
/// the boilerplate classes that Readability's and trafilatura's cleaners remove, reduced to
/// words that name a page part rather than a site.
const NEGATIVE: &[&str] = &[
    "comment",
    "footer",
    "sidebar",
    "share",
    "sharing",
    "social",
    "related",
    "advert",
    "sponsor",
    "promo",
    "newsletter",
    "subscribe",
    "breadcrumb",
    "pagination",
    "pager",
    "widget",
    "menu",
    "navbar",
    "masthead",
    "cookie",
    "consent", // cookie-consent banners, beside Readability's "gdpr"
    "gdpr",
    "banner",
    "popup",
    "modal",
    "disqus",
    "outbrain",
    "taboola",
    "recommend",
    "most-popular",
    "trending",
    "signup",
    "login",
    "byline",
    "toolbar",
    "skip",
    // A person's profile box beside what they wrote: an author's bio card under a post, a
    // forum poster's panel (name, join date, post count), a hover card. A profile page's own
    // container says so with a content word (`profile-content`), which cancels this one.
    "profile",
];

/// Words that name the main content; they cancel a negative word on the same element
/// (`main-content comments-open`, `article-footer`, `commentText` are no verdict: a forum's
/// posts are often `comment` + `content`).
const POSITIVE: &[&str] = &[
    "article", "content", "entry", "post", "story", "body", "main", "text", "blog",
];

/// Tags that are boilerplate wherever they stand: HTML's sectioning semantics (navigation,
/// asides, page header and footer), form controls' captions (`label`; `select` holds only
/// options) and figure captions (`figcaption`: a photo's description and credit, not the
/// article's text; trafilatura's cleaner drops whole `figure`s, labels too).
fn boilerplate_tag(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::Nav
            | Tag::Aside
            | Tag::Footer
            | Tag::Header
            | Tag::Menu
            | Tag::Select
            | Tag::Label
            | Tag::Figcaption
    )
}

/// The trade-off knobs of `auto`; [`Tuning::new`] gives them for a [`Mode`].
#[derive(Clone, Copy, Debug)]
pub struct Tuning {
    /// Recover a paragraph outside the main container from this many characters on (0: never).
    pub recover_min_text: u32,
    /// ...when under this share of its text is link text (prose cites, it does not list)...
    pub recover_max_link_density: f32,
    /// ...and its parent is not a teaser card (a linked headline beside a summary).
    pub recover_max_parent_link_density: f32,
    /// Inside the container, a block with more link text than this is a menu or link list.
    pub link_list_density: f32,
    /// Keep comment sections (class/id words about comments are not boilerplate).
    pub comments: bool,
    /// When the chosen text is under this share of the page's non-boilerplate text, the page
    /// is not one article and all of that text is kept (0: never).
    pub spread_share: f32,
}

impl Tuning {
    pub fn new(mode: Mode, comments: bool) -> Tuning {
        match mode {
            // About two sentences: longer than captions, teasers and bylines. A block that is
            // more than half link text is a list of links (trafilatura and jusText use the
            // same 0.5 order of magnitude for link density).
            Mode::Balanced => Tuning {
                recover_min_text: 150,
                recover_max_link_density: 0.2,
                recover_max_parent_link_density: 0.25,
                link_list_density: 0.5,
                comments,
                spread_share: SPREAD_SHARE,
            },
            // Only the main container, and blocks a third links are already link lists.
            Mode::Precision => Tuning {
                recover_min_text: 0,
                recover_max_link_density: 0.0,
                recover_max_parent_link_density: 0.0,
                link_list_density: 0.33,
                comments,
                spread_share: 0.0,
            },
            // One sentence is enough to come back, and only clear link lists go.
            Mode::Recall => Tuning {
                recover_min_text: 80,
                recover_max_link_density: 0.3,
                recover_max_parent_link_density: 0.4,
                link_list_density: 0.66,
                comments,
                spread_share: 0.75,
            },
        }
    }
}

/// An article's container holds most of a page's non-boilerplate text; when it holds less
/// than half, the page is something else (a listing, a product page, a collection).
const SPREAD_SHARE: f32 = 0.5;

/// Which way `--precision` and `--recall` move `auto`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    #[default]
    Balanced,
    /// Less boilerplate, some content lost.
    Precision,
    /// More content, some boilerplate kept.
    Recall,
}

impl Mode {
    /// The mode the `--precision` / `--recall` switches ask for; both at once is an error (the
    /// message every subcommand prints).
    pub fn from_switches(precision: bool, recall: bool) -> Result<Mode, String> {
        match (precision, recall) {
            (true, true) => Err("--precision and --recall exclude each other".into()),
            (true, false) => Ok(Mode::Precision),
            (false, true) => Ok(Mode::Recall),
            (false, false) => Ok(Mode::Balanced),
        }
    }
}

/// Class/id words about user comments (and customers' reviews of a product, its users' comments);
/// with `--comments` they are not boilerplate.
const COMMENT_WORDS: &[&str] = &["comment", "disqus", "review"];

/// The class/id word lists as automata: boilerplate words other than comment words, comment
/// words (boilerplate unless `--comments`), content words. Only whether any word occurs
/// matters, so each is asked `is_match`, which stops at the first hit.
struct HintMatchers {
    /// Every word of [`NEGATIVE`] and [`POSITIVE`], matched in one pass over a class or id
    /// (overlapping, so that no word hides another); pattern ids below `comment` are
    /// boilerplate words, from `comment` comment words, from `content` content words. A DFA
    /// walked a byte at a time by [`hint_words`]: class and id values are a few bytes long, and
    /// the library's search loop cost more per value than the walk (one table load per byte).
    words: aho_corasick::dfa::DFA,
    comment: usize,
    content: usize,
    /// The shortest word: a shorter class or id holds none.
    shortest: usize,
}

fn hint_matchers() -> &'static HintMatchers {
    static M: std::sync::OnceLock<HintMatchers> = std::sync::OnceLock::new();
    M.get_or_init(|| {
        let mut words: Vec<&str> = NEGATIVE
            .iter()
            .copied()
            .filter(|w| !COMMENT_WORDS.contains(w))
            .collect();
        let comment = words.len();
        words.extend_from_slice(COMMENT_WORDS);
        let content = words.len();
        words.extend_from_slice(POSITIVE);
        let shortest = words.iter().map(|w| w.len()).min().unwrap_or(0);
        HintMatchers {
            shortest,
            words: aho_corasick::dfa::DFA::builder()
                .ascii_case_insensitive(true)
                // Standard semantics: every state lists all words ending at it, which is what
                // an overlapping walk reports.
                .match_kind(aho_corasick::MatchKind::Standard)
                .prefilter(false)
                .build(words)
                .unwrap_or_else(|_| unreachable!("fixed ASCII word lists build an automaton")),
            comment,
            content,
        }
    })
}

/// The class/id verdict of a comment section (boilerplate, and never the page's wrapper).
pub(crate) const COMMENT_HINT: i8 = -2;

/// Class/id verdict (-1 boilerplate, [`COMMENT_HINT`] comments, +1 content, 0 no opinion) and whether the page hides the
/// element (`hidden`, `aria-hidden="true"`, `display:none`, `visibility:hidden`, a modal
/// dialog).
// Out of line: `mark_removed` asks it only of elements with text, and its loop over every
// node stays tight.
#[inline(never)]
pub(crate) fn element_hints(doc: &Document<'_>, id: NodeId, comments: bool) -> (i8, bool) {
    // One scan of the start tag collects every attribute this needs.
    let (mut class, mut ident, mut hidden) = ("", "", false);
    for (name, value) in doc.attributes(id) {
        // By length first: most attributes (href, src, width) are none of these.
        match name.len() {
            5 if name.eq_ignore_ascii_case("class") => class = value,
            2 if name.eq_ignore_ascii_case("id") => ident = value,
            6 if name.eq_ignore_ascii_case("hidden") => hidden = true,
            11 if name.eq_ignore_ascii_case("aria-hidden") => {
                hidden |= value.eq_ignore_ascii_case("true");
            }
            5 if name.eq_ignore_ascii_case("style") => hidden |= style_hides(value),
            // A modal dialog (a privacy policy, a size guide, a sign-up form) is out of the
            // page until a click opens it, as `<dialog>` is until `showModal()`. (`role=dialog`
            // alone is no sign: sites give it to drawers and sheets that are shown.)
            10 if name.eq_ignore_ascii_case("aria-modal") => {
                hidden |= value.eq_ignore_ascii_case("true");
            }
            _ => {}
        }
    }
    let m = hint_matchers();
    let (mut boiler, mut comment, mut pos) = (false, false, false);
    // Class and id are two names of the element. A content word cancels a boilerplate word of
    // the same name (`article-footer`, `main-content sidebar-open` are no verdict), but not one
    // of the other name: there it names what the part belongs to (`class="sharedaddy"
    // id="jp-post-flair"` is a post's share bar, `id="like-post-wrapper"` its like button).
    // trafilatura discards on either name alone; Readability adds the two names' weights.
    let mut named_boilerplate = false;
    for hay in [class, ident] {
        if hay.len() < m.shortest {
            continue;
        }
        let (mut b, mut p) = (false, false);
        hint_words(&m.words, hay.as_bytes(), |w, start, end| {
            if w < m.comment {
                b = true;
            } else if w < m.content {
                comment |= !comments && !preview(hay, start, end);
            } else {
                p = true;
            }
        });
        named_boilerplate |= b && !p;
        (boiler, pos) = (boiler | b, pos | p);
    }
    let hint = match (boiler, comment, pos) {
        _ if named_boilerplate => -1,
        (_, _, true) if !boiler && !comment => 1,
        (_, _, true) => 0,
        (false, true, false) => COMMENT_HINT,
        (true, _, false) => -1,
        (false, false, false) => 0,
    };
    (hint, hidden)
}

/// Calls `found(word, start, end)` for every occurrence of a hint word in `hay`, overlapping
/// ones included, in order of their ends.
fn hint_words(
    dfa: &aho_corasick::dfa::DFA,
    hay: &[u8],
    mut found: impl FnMut(usize, usize, usize),
) {
    use aho_corasick::automaton::Automaton;
    let Ok(mut sid) = dfa.start_state(aho_corasick::Anchored::No) else {
        return;
    };
    for (i, &byte) in hay.iter().enumerate() {
        sid = dfa.next_state(aho_corasick::Anchored::No, sid, byte);
        // Unanchored, the DFA has no dead state; special states are the match states (start
        // states are not special without a prefilter).
        if dfa.is_match(sid) {
            for k in 0..dfa.match_len(sid) {
                let w = dfa.match_pattern(sid, k);
                let end = i + 1;
                found(w.as_usize(), end - dfa.pattern_len(w), end);
            }
        }
    }
}

/// Whether the word found at `start..end` of a class/id value is the `review` of `preview` (an
/// image or a content preview), which names no review.
fn preview(hay: &str, start: usize, end: usize) -> bool {
    let b = hay.as_bytes();
    start > 0
        && b[start - 1].eq_ignore_ascii_case(&b'p')
        && b[start..end].eq_ignore_ascii_case(b"review")
}

/// Whether an inline style hides the element (`display:none`, `visibility:hidden`, blanks and
/// case ignored).
fn style_hides(style: &str) -> bool {
    // One pass over the style without copying it: a matcher per phrase, on the non-blank
    // lower-cased bytes. Neither phrase repeats its first letter, so after a mismatch the
    // phrase can only start again at the current byte (no earlier partial match survives).
    const PHRASES: [&[u8]; 2] = [b"display:none", b"visibility:hidden"];
    let mut matched = [0usize; 2];
    for c in style.bytes().filter(|c| !c.is_ascii_whitespace()) {
        let c = c.to_ascii_lowercase();
        for (m, phrase) in matched.iter_mut().zip(PHRASES) {
            *m = if phrase[*m] == c {
                *m + 1
            } else {
                usize::from(phrase[0] == c)
            };
            if *m == phrase.len() {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod style_hides_tests {
    use super::style_hides;

    #[test]
    fn blanks_and_case_are_ignored_and_restarts_are_found() {
        for hides in [
            "display:none",
            "DISPLAY : None;",
            "color:red;display:\n none",
            "ddisplay:none",
            "display:nodisplay:none",
            "visibility: Hidden",
            "vvisibility:visibility:hidden",
        ] {
            assert!(style_hides(hides), "{hides:?}");
        }
        for shows in [
            "",
            "display:block",
            "display:non",
            "display-none",
            "visibility:visible",
            "isplay:none",
        ] {
            assert!(!style_hides(shows), "{shows:?}");
        }
    }
}

/// Commas, Latin and CJK (`，` U+FF0C and `、` U+3001): a sign of prose in any script.
fn commas(raw: &[u8]) -> u32 {
    // One plain loop counts the commas and ORs the bytes (non-ASCII when the high bit shows):
    // text runs are short (tens of bytes), where a SIMD search's set-up per call cost more
    // than the count; the compiler vectorizes this loop itself.
    let (mut latin, mut high) = (0usize, 0u8);
    for &c in raw {
        latin += usize::from(c == b',');
        high |= c;
    }
    if high < 0x80 {
        return latin as u32;
    }
    // Both are three bytes; find their lead bytes (EF, E3) with memchr and check the rest,
    // rather than comparing a window at every byte of the text.
    let cjk = memchr::memchr2_iter(0xEF, 0xE3, raw)
        .filter(|&k| {
            raw.get(k..k + 3)
                .is_some_and(|w| w == "，".as_bytes() || w == "、".as_bytes())
        })
        .count();
    (latin + cjk) as u32
}

/// Runs `auto`. A page where nothing stands out (a few short lines, a fragment) gives all its
/// visible text: a filter that answers nothing for `<p>a<li>b` is of no use.
pub fn extract(doc: &Document<'_>, tuning: &Tuning) -> Selection {
    extract_traced(doc, tuning, None)
}

/// [`extract`], recording its decisions in `trace` (`pith explain`).
pub fn extract_traced(
    doc: &Document<'_>,
    tuning: &Tuning,
    mut trace: Option<&mut Trace>,
) -> Selection {
    let first = select(doc, tuning, Retry::None, trace.as_deref_mut());
    let (mut sel, class_prose) = (first.sel, first.class_prose);
    // The characters of `sel`, kept up to date as a retry replaces it.
    let mut kept = first.chars;
    // Like Readability, which runs `_grabArticle` again with fewer removal rules when the text
    // is under its 500-character threshold: a page that hides its main text in the markup and
    // shows it from a script (`display:none` until an age gate, a lock or a tab script runs)
    // is read again with the `hidden`, `aria-hidden` and style hiding ignored, and a text at
    // least twice as long wins.
    for retry in [Retry::Hidden, Retry::HiddenAndClasses, Retry::Listing] {
        let wanted = match retry {
            Retry::None => false,
            Retry::Hidden => kept < ARTICLE_MIN_CHARS,
            // Under trafilatura's `MIN_EXTRACTED_SIZE` (250 characters, where it falls back to
            // other extractors), the page's class names are not trusted either: a wrapper
            // named like boilerplate (`sidebar-layout`, `promo-article`) must not leave a page
            // empty. Nor are they when they removed most of the page's prose, piecewise, and
            // more than the extraction keeps: then they name the site's layout (see `select`).
            Retry::HiddenAndClasses => kept < EXTRACTED_MIN_CHARS || class_prose > kept,
            // Still under `MIN_EXTRACTED_SIZE`, on a page whose content is its links (a job
            // board, a catalogue of linked cards: `TEASER_REPEAT` links that each hold a card,
            // as for teasers): the link-density rules took it. Like trafilatura's baseline
            // fallback, take the page minus its boilerplate with the link lists kept. (A
            // menu's links hold one word each: a short post beside menus stays short.)
            Retry::Listing => kept < EXTRACTED_MIN_CHARS && linked_cards(doc) >= TEASER_REPEAT,
        };
        if !wanted {
            continue;
        }
        let mut again = trace.as_ref().map(|_| Trace::default());
        let revealed = select(doc, tuning, retry, again.as_mut());
        // At least twice the text: the retry must find what the rules hid, not another part
        // of the page of about the same size (a footer beside a three-sentence story).
        let revealed_chars = revealed.chars;
        if revealed_chars >= 2 * kept.max(1) {
            (sel, kept) = (revealed.sel, revealed_chars);
            if let (Some(t), Some(a)) = (trace.as_deref_mut(), again) {
                *t = a;
            }
        }
    }
    if let Some(t) = trace.filter(|_| sel.nodes.is_empty()) {
        t.outcome = Outcome::Everything;
    }
    if !sel.nodes.is_empty() {
        return sel;
    }
    let mut all = Selection {
        nodes: Vec::with_capacity(doc.tree.nodes.len()),
    };
    for (i, node) in doc.tree.nodes.iter().enumerate() {
        if node.kind == Kind::Text && node.context() & context::HIDDEN == 0 {
            all.nodes.push(i as NodeId);
        }
    }
    all
}

/// Whether two subtrees show the same text, byte for byte, compared as they are read (no copy:
/// two halves of a huge page may be compared).
fn same_text(doc: &Document<'_>, a: NodeId, b: NodeId) -> bool {
    let text = |id: NodeId| {
        doc.tree
            .subtree(id)
            .filter(|&i| {
                let n = &doc.tree.nodes[i];
                n.kind == Kind::Text && n.context() & context::HIDDEN == 0
            })
            .flat_map(|i| doc.raw_text(i as NodeId).bytes())
    };
    text(a).eq(text(b))
}

/// Links that hold a card: two or more pieces of text (a title and its details, a name and
/// its price) inside one `<a>`. Counted in one forward pass: each node knows its link.
fn linked_cards(doc: &Document<'_>) -> usize {
    let nodes = &doc.tree.nodes;
    let mut link_of = vec![NONE; nodes.len()];
    let mut pieces = vec![0u8; nodes.len()];
    let mut cards = 0;
    for i in 1..nodes.len() {
        let node = &nodes[i];
        let inherited = link_of[node.parent as usize];
        link_of[i] = if node.kind == Kind::Element && node.tag == Tag::A {
            i as NodeId
        } else {
            inherited
        };
        if node.kind == Kind::Text
            && inherited != NONE
            && node.context() & context::HIDDEN == 0
            && !doc.raw_text(i as NodeId).trim_ascii().is_empty()
        {
            let p = &mut pieces[inherited as usize];
            *p = p.saturating_add(1);
            if *p == 2 {
                cards += 1;
            }
        }
    }
    cards
}

/// Which removal rules a retry of [`extract_traced`] drops.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Retry {
    /// The first reading: every rule.
    None,
    /// Elements hidden by their attributes (`hidden`, `aria-hidden`, style) count as shown.
    Hidden,
    /// ...and class/id words no longer make boilerplate (tags still do).
    HiddenAndClasses,
    /// Every rule, and the answer is the page minus its boilerplate with link lists kept
    /// (a page whose content is its links).
    Listing,
}

/// trafilatura's `MIN_EXTRACTED_SIZE`: less text than this is a failed extraction.
const EXTRACTED_MIN_CHARS: u64 = 250;

/// What one reading of the page ([`select`]) chose.
struct Reading {
    sel: Selection,
    /// Visible characters of `sel` (its text nodes without the blanks around each).
    chars: u64,
    /// Prose (non-link text) that class/id words removed, when it is most of the page's
    /// prose and no one region of it (0 otherwise); see [`extract_traced`].
    class_prose: u64,
}

fn select(
    doc: &Document<'_>,
    tuning: &Tuning,
    retry: Retry,
    mut trace: Option<&mut Trace>,
) -> Reading {
    let nodes = &doc.tree.nodes;
    let n = nodes.len();
    // DANAg's selection, kept as one bit per node: its text nodes in document order are the
    // set bits in ascending order, which is all the answer needs when no container wins.
    let mut in_danag = Bits::new(n);
    for &id in &danag::extract(doc, Segments::Normalized, danag::PAPER_GAP).nodes {
        in_danag.set(id as usize);
    }
    let danag_sel = |in_danag: Bits, class_prose: u64| {
        let sel = Selection {
            nodes: in_danag.ones().map(|i| i as NodeId).collect(),
        };
        // DANAg selects visible text only, whose characters `text_chars` counts.
        Reading {
            chars: sel
                .nodes
                .iter()
                .map(|&id| u64::from(text_chars(doc, id)))
                .sum(),
            sel,
            class_prose,
        }
    };

    // 1. Bottom-up statistics: each visible text's into its parent, then each element's into
    // its parent, children before parents (ids descend).
    let ranks = ElementRanks::new(nodes);
    let mut elements = vec![Stats::default(); ranks.count];
    // Every flag of this reading, a bit each (see [`Marks`]).
    let marks = Marks::new(n);
    let block_child = marks.flag(mark::BLOCK_CHILD);
    for (i, node) in nodes.iter().enumerate() {
        if node.kind != Kind::Text {
            continue;
        }
        let chars = text_chars(doc, i as NodeId);
        // Blank runs (the indentation between tags, most text nodes) count nothing: their
        // statistics stay zero without counting commas.
        if chars == 0 {
            continue;
        }
        let p = &mut elements[ranks.rank(node.parent as usize)];
        p.text += chars;
        if node.context() & context::LINK != 0 {
            p.link += chars;
        }
        p.commas += commas(doc.raw_text(i as NodeId).as_bytes());
        if in_danag.get(i) {
            p.danag += chars;
        }
    }
    // Then the elements, children before parents; `r` is element `i`'s index, counted down.
    let mut r = ranks.count;
    for i in (1..n).rev() {
        if nodes[i].kind == Kind::Text {
            continue;
        }
        r -= 1;
        let parent = nodes[i].parent as usize;
        let s = elements[r];
        let p = &mut elements[ranks.rank(parent)];
        p.text += s.text;
        p.link += s.link;
        p.commas += s.commas;
        p.danag += s.danag;
        // A line break does not make a container: `text<br>text` is one paragraph; nor does a
        // block without text (an empty `<div>` standing in for a break, a spacer, an ad slot).
        let tag = nodes[i].tag;
        if tag.is(flags::BLOCK) && !matches!(tag, Tag::Br | Tag::Hr) && s.text > 0 {
            block_child.set(parent);
        }
    }
    let stats = NodeStats {
        doc,
        ranks,
        elements,
    };

    // 2. Top-down hints: removed = boilerplate or hidden, inherited. A comment section is
    // removed even when it holds most of DANAg's region (comments longer than the article),
    // unless that leaves no article: then the page is a thread (a forum, a Q&A) and its
    // comments are the content.
    let total_danag = stats.get(0).danag;
    let mut hint = vec![HINT_UNREAD; stats.ranks.count];
    let hidden = marks.flag(mark::HIDDEN);
    let removed = marks.flag(mark::REMOVED);
    mark_removed(
        doc,
        tuning,
        &stats,
        total_danag,
        false,
        retry,
        &mut hint,
        &hidden,
        &removed,
    );
    if article_text(doc, &stats, &block_child, &removed) < ARTICLE_MIN_CHARS {
        mark_removed(
            doc,
            tuning,
            &stats,
            total_danag,
            true,
            retry,
            &mut hint,
            &hidden,
            &removed,
        );
    }
    for h in hint.iter_mut().filter(|h| **h == HINT_UNREAD) {
        *h = 0;
    }
    // Prose removed by class/id words alone: the outermost removed elements that neither
    // their tag, nor hiding, nor a comment word removed. Boilerplate is the minority of a
    // page's prose and stands in a few regions (a sidebar, a footer); class words that took
    // most of the prose, and took it piecewise (no one region holds half of it), name the
    // site's layout (a builder that calls every module a `widget`), and the page is read
    // again without them (see `extract_traced`).
    let (mut class_prose, mut largest) = (0u64, 0u64);
    for i in 1..n {
        if removed.get(i)
            && !removed.get(nodes[i].parent as usize)
            && nodes[i].kind == Kind::Element
            && hint[stats.rank(i)] < 0
            && hint[stats.rank(i)] != COMMENT_HINT
            && !hidden.get(i)
            && !boilerplate_tag(nodes[i].tag)
        {
            let prose = u64::from(stats.get(i).text - stats.get(i).link);
            class_prose += prose;
            largest = largest.max(prose);
        }
    }
    let page_prose = u64::from(stats.get(0).text - stats.get(0).link);
    if class_prose * 2 <= page_prose || largest * 2 > class_prose {
        class_prose = 0;
    }
    if retry == Retry::Listing {
        let roots = marks.flag(mark::ROOT);
        mark_body(doc, &roots);
        let links_kept = Tuning {
            link_list_density: f32::INFINITY,
            ..*tuning
        };
        if let Some(t) = trace.as_deref_mut() {
            t.stats = stats.to_vec();
            t.removed = removed.bools();
            t.outcome = Outcome::Spread;
        }
        let (sel, chars) = collect(doc, &roots, &removed, &stats, &links_kept, &marks);
        return Reading {
            sel,
            chars,
            class_prose,
        };
    }

    // Teaser summaries (see `teasers`), found before the container so that they do not
    // count as its prose when it climbs.
    let teaser = marks.flag(mark::TEASER);
    if !tuning.comments {
        teasers(doc, &stats, &block_child, &removed, &teaser);
    }

    // 3. Candidate containers scored by their paragraphs (scores indexed by element: only
    // elements and the document get votes).
    let mut score = vec![0f32; stats.ranks.count];
    let is_paragraph = marks.flag(mark::PARAGRAPH);
    // The element index of node `i`, counted along (the document is element 0).
    let mut r = 0;
    for i in 1..n {
        let node = &nodes[i];
        if node.kind != Kind::Element {
            continue;
        }
        r += 1;
        if removed.get(i) {
            continue;
        }
        let paragraph_like = matches!(node.tag, Tag::P | Tag::Pre | Tag::Td | Tag::Blockquote)
            || (matches!(
                node.tag,
                Tag::Div | Tag::Section | Tag::Article | Tag::Span | Tag::Font
            ) && !block_child.get(i));
        is_paragraph.assign(i, paragraph_like);
        let s = stats.element(r);
        // Readability's 25-character floor on a paragraph, here in non-blank bytes.
        if !paragraph_like || s.text < 25 {
            continue;
        }
        let vote = 1.0 + s.commas as f32 + (s.text / 100).min(3) as f32;
        let parent = node.parent as usize;
        score[stats.rank(parent)] += vote;
        let grand = nodes[parent].parent;
        if grand != crate::html::tree::NONE {
            score[stats.rank(grand as usize)] += vote / 2.0;
        }
    }
    let mut best: Option<(usize, f32)> = None;
    let mut best_readability = 0f32;
    let mut leaders: Vec<(usize, f32)> = Vec::with_capacity(LEADERS + 1);
    let mut r = 0;
    for i in 1..n {
        if nodes[i].kind != Kind::Element {
            continue;
        }
        r += 1;
        if score[r] <= 0.0 || removed.get(i) {
            continue;
        }
        let s = &stats.element(r);
        let tag_prior = match nodes[i].tag {
            Tag::Div | Tag::Article | Tag::Main | Tag::Section => 5.0,
            Tag::Pre | Tag::Td | Tag::Blockquote => 3.0,
            Tag::Ol | Tag::Ul | Tag::Dl | Tag::Li | Tag::Form => -3.0,
            t if t.is(flags::HEADING) => -5.0,
            _ => 0.0,
        };
        let class_prior = f32::from(hint[r]) * 25.0;
        let danag_cover = if s.text == 0 {
            0.0
        } else {
            s.danag as f32 / s.text as f32
        };
        let readability = (score[r] + tag_prior + class_prior) * (1.0 - s.link_density());
        let total = readability * (0.5 + danag_cover);
        score[r] = total;
        if best.is_none_or(|(_, b)| total > b) {
            best = Some((i, total));
            best_readability = readability;
        }
        // The runners-up, for the common-ancestor rule below: the best few, kept sorted.
        if readability > 0.0
            && (leaders.len() < LEADERS || leaders.last().is_some_and(|&(_, b)| readability > b))
        {
            let at = leaders.partition_point(|&(_, b)| b >= readability);
            leaders.insert(at, (i, readability));
            leaders.truncate(LEADERS);
        }
    }
    drop(hint);
    if let Some(t) = trace.as_deref_mut() {
        t.stats = stats.to_vec();
        t.removed = removed.bools();
        t.score = (0..n)
            .map(|i| match nodes[i].kind {
                Kind::Text => 0.0,
                _ => score[stats.rank(i)],
            })
            .collect();
        t.best = best.map(|b| b.0);
        t.outcome = Outcome::Danag;
    }
    let Some((top, top_score)) = best else {
        return danag_sel(in_danag, class_prose);
    };
    if stats.get(top).text < 50 {
        return danag_sel(in_danag, class_prose);
    }
    drop(in_danag);

    // Several candidates that score nearly as well as the winner and share an ancestor with it
    // are pieces of one content area (captions of a photo story, a post's sections, each with its
    // own wrapper): the nearest ancestor holding at least three of them is the container
    // (Readability's alternative top candidates: the top five, at 0.75 of the winner's score,
    // three sharing an ancestor).
    let mut top = top;
    // A runner-up apart from the winner with its very text is another copy of the same widget
    // (a rating form under every photo), not another piece of the content.
    let top_span = doc.tree.subtree(top as NodeId);
    let copy_of_top = |i: usize| {
        let span = doc.tree.subtree(i as NodeId);
        let nested = top_span.contains(&i) || span.contains(&top);
        !nested
            && stats.get(i).text == stats.get(top).text
            && same_text(doc, i as NodeId, top as NodeId)
    };
    let rivals: Vec<usize> = leaders
        .iter()
        .filter(|&&(i, s)| i != top && s >= best_readability * RIVAL_SHARE && !copy_of_top(i))
        .map(|&(i, _)| i)
        .collect();
    if best_readability > 0.0 && rivals.len() >= RIVALS_SHARING {
        // Up from the winner, each ancestor's subtree (a range of ids) is tested against the
        // few runners-up: no per-node memory, linear in the depth.
        let mut a = nodes[top].parent as usize;
        while a != 0 && !matches!(nodes[a].tag, Tag::Body | Tag::Html) && !removed.get(a) {
            let span = doc.tree.subtree(a as NodeId);
            if rivals.iter().filter(|r| span.contains(r)).count() >= RIVALS_SHARING {
                top = a;
                break;
            }
            a = nodes[a].parent as usize;
        }
    }

    // An article cut into sections (around figures, adverts, pull quotes) scores section by
    // section; climb while the parent holds clearly more prose than the winner, so the other
    // sections come along. Body and html are never the container.
    // An element's prose is the text of the voting paragraphs in its subtree, which is a
    // run of the arena: summed along the climb (each node once, the run growing with each
    // parent) rather than kept for every node.
    let voting_prose = |range: std::ops::Range<usize>| -> u64 {
        range
            .filter(|&j| is_paragraph.get(j) && !teaser.get(j))
            .map(|j| stats.get(j))
            .filter(|s| s.text >= 25 && s.link_density() < 0.5)
            .map(|s| u64::from(s.text))
            .sum()
    };
    let mut run = doc.tree.subtree(top as NodeId);
    let mut prose_top = voting_prose(run.clone());
    loop {
        let p = nodes[top].parent as usize;
        if p == 0 || matches!(nodes[p].tag, Tag::Body | Tag::Html) || removed.get(p) {
            break;
        }
        let parent_run = doc.tree.subtree(p as NodeId);
        let prose_parent = prose_top
            + voting_prose(parent_run.start..run.start)
            + voting_prose(run.end..parent_run.end);
        if prose_parent * 2 >= prose_top * 3 && stats.get(p).link_density() < 0.35 {
            (top, run, prose_top) = (p, parent_run, prose_parent);
        } else {
            break;
        }
    }
    // Teasers stay out only beside an article; on a listing, where the container is one card,
    // they are the content (Readability's floor for an article, see [`ARTICLE_MIN_CHARS`]).
    // A container that is mostly teasers itself is a listing too.
    // The text of teaser summaries in a subtree, summed over its run of the arena (as the
    // prose above) for the container and its siblings only.
    let teaser_text = |id: usize, teaser: &Flags<'_>| -> u64 {
        doc.tree
            .subtree(id as NodeId)
            .filter(|&j| teaser.get(j) && nodes[j].kind == Kind::Text)
            .map(|j| u64::from(stats.get(j).text))
            .sum()
    };
    let article = u64::from(stats.get(top).text) >= ARTICLE_MIN_CHARS
        && teaser_text(top, &teaser) * 2 < u64::from(stats.get(top).text);
    if !article {
        teaser.clear();
    }

    // Siblings that belong with the winner (Readability's sibling rule), but not a list of
    // teasers beside an article.
    let parent = nodes[top].parent;
    let threshold = (top_score * 0.2).max(10.0);
    let mut roots: Vec<NodeId> = Vec::new();
    for sib in doc.tree.children(parent) {
        let i = sib as usize;
        if sib as usize == top {
            roots.push(sib);
            continue;
        }
        if removed.get(i) || nodes[i].kind != Kind::Element {
            continue;
        }
        let s = &stats.get(i);
        let mostly_teasers = || {
            let t = teaser_text(i, &teaser);
            t > 0 && t * 2 >= u64::from(s.text)
        };
        if article && mostly_teasers() {
            continue;
        }
        let keep = score[stats.rank(i)] >= threshold
            || (nodes[i].tag == Tag::P && s.text > 80 && s.link_density() < 0.25)
            || (nodes[i].tag == Tag::P && s.text > 0 && s.link == 0 && ends_sentence(doc, sib));
        if keep {
            roots.push(sib);
        }
    }
    drop(score);

    // 4. Prose outside the chosen container: a paragraph of real sentences with hardly any
    // links is content wherever it stands (a lead paragraph above a figure, a section the
    // markup split off), unless a boilerplate ancestor removed it.
    let is_root = marks.flag(mark::ROOT);
    for &r in &roots {
        is_root.set(r as usize);
    }
    // Inside the chosen roots (collected anyway: no paragraph there needs recovering).
    let under = marks.flag(mark::UNDER);
    let mut in_order = roots.clone();
    in_order.sort_unstable();
    mark_subtrees(doc, &in_order, &under);
    for i in 1..n {
        if is_paragraph.get(i)
            && !under.get(i)
            && !removed.get(i)
            && !teaser.get(i)
            && tuning.recover_min_text > 0
            && stats.get(i).text >= tuning.recover_min_text
            && stats.get(i).link_density() < tuning.recover_max_link_density
            && stats.get(nodes[i].parent as usize).link_density()
                < tuning.recover_max_parent_link_density
            && !legal_notice(doc, i as NodeId)
        {
            is_root.set(i);
        }
    }

    // 5. Text of the chosen subtrees, in document order, minus boilerplate, hidden and
    // link-dense blocks.
    let (sel, sel_chars) = collect(doc, &is_root, &removed, &stats, tuning, &marks);
    if let Some(t) = trace.as_deref_mut() {
        (t.top, t.roots, t.outcome) = (Some(top), roots.clone(), Outcome::Container);
        t.is_root = is_root.bools();
        t.teaser = teaser.bools();
    }

    // 6. A page that is not one article (a listing, a product or service page, a collection)
    // spreads its content over many blocks: when the chosen text is less than a share of the
    // text that no boilerplate rule removed, the page minus its boilerplate is the answer
    // (the approach of Resiliparse and of jusText's paragraph filter).
    // The chosen roots stay roots: a container kept for its own merits must not vanish from
    // the whole page because an ancestor of it is link-dense (the whole page holds the chosen
    // text).
    // While the whole page is collected, the chosen text is held as one bit per node (its
    // nodes in document order are the set bits), not as a second list of nodes.
    let mut in_sel = Bits::new(n);
    for &id in &sel.nodes {
        in_sel.set(id as usize);
    }
    drop(sel);
    let whole_root = is_root;
    mark_body(doc, &whole_root);
    let (whole, whole_chars_all) = collect(doc, &whole_root, &removed, &stats, tuning, &marks);
    // Teaser summaries outside the chosen text (a linked headline and its blurb, repeated)
    // are other pages' content: a page beside a list of them is still one article.
    let in_teaser = teaser;
    let teaser_chars: u64 = whole
        .nodes
        .iter()
        .filter(|&&id| in_teaser.get(id as usize) && !in_sel.get(id as usize))
        .map(|&id| u64::from(stats.get(id as usize).text))
        .sum();
    let whole_chars = whole_chars_all - teaser_chars;
    let spread =
        tuning.spread_share > 0.0 && (sel_chars as f32) < tuning.spread_share * whole_chars as f32;
    if let Some(t) = trace {
        t.spread = (sel_chars, whole_chars);
        if spread {
            t.outcome = Outcome::Spread;
        }
    }
    // The reading's arrays go before the answer's list of nodes is made (the largest pages
    // peak here: two lists of nodes would be held at once).
    drop((marks, stats));
    let sel = if spread {
        whole
    } else {
        drop(whole);
        Selection {
            nodes: in_sel.ones().map(|i| i as NodeId).collect(),
        }
    };
    Reading {
        sel,
        chars: if spread { whole_chars_all } else { sel_chars },
        class_prose,
    }
}

/// Marks the page's body (or, without one, the document's top-level nodes) in `roots`.
fn mark_body(doc: &Document<'_>, roots: &Flags<'_>) {
    let nodes = &doc.tree.nodes;
    match nodes.iter().position(|n| n.tag == Tag::Body) {
        Some(body) if body > 0 => roots.set(body),
        _ => {
            for i in doc.tree.children(0) {
                roots.set(i as usize);
            }
        }
    }
}

/// A site's legal footer (a copyright line, a data-provider notice): it reads as prose but
/// names its owner with `©` or "all rights reserved". Asked only of paragraphs outside the
/// container, where a lead paragraph would otherwise be recovered. (Not of the container's
/// siblings: an agency's notice under its story, "© Reuters 2008. All rights reserved...",
/// is part of what it sent, and gold sets count it.)
fn legal_notice(doc: &Document<'_>, id: NodeId) -> bool {
    let signs = |b: &[u8]| owner_sign(b) || rights_reserved(b);
    // The text runs of the subtree are slices of the source from the paragraph's start to the
    // end of its last node (runs do not overlap the nodes after them): when that span shows no
    // sign (two scans, not two per run), no run does.
    let nodes = &doc.tree.nodes;
    let range = doc.tree.subtree(id);
    let (first, last) = (&nodes[range.start], &nodes[range.end - 1]);
    let span = first.start as usize..first.end.max(last.end) as usize;
    if doc.src.as_bytes().get(span).is_some_and(|b| !signs(b)) {
        return false;
    }
    range
        .filter(|&d| nodes[d].kind == Kind::Text)
        .any(|d| signs(doc.raw_text(d as NodeId).as_bytes()))
}

/// Whether `b` holds a copyright sign: `©`, `&copy;` or `&#169;`. One SIMD scan for the bytes
/// these start with (`©` is C2 A9 in UTF-8); `&` and C2 are rare in prose, so few are checked.
fn owner_sign(b: &[u8]) -> bool {
    memchr::memchr2_iter(0xC2, b'&', b).any(|k| {
        let rest = &b[k..];
        rest.starts_with("©".as_bytes())
            || rest.starts_with(b"&copy;")
            || rest.starts_with(b"&#169;")
    })
}

/// Whether `b` says "all rights reserved" (any case). One SIMD scan for the phrase's rarest
/// letter, the `v` of "reserved" (about 1% of English letters), each confirmed by a look at
/// the bytes around it.
fn rights_reserved(b: &[u8]) -> bool {
    const PHRASE: &[u8] = b"all rights reserved";
    // Where the `v` sits in the phrase.
    const V: usize = PHRASE.len() - 3;
    memchr::memchr2_iter(b'v', b'V', b).any(|k| {
        k >= V
            && b.get(k - V..k - V + PHRASE.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(PHRASE))
    })
}

#[cfg(test)]
mod legal_notice_tests {
    use super::{owner_sign, rights_reserved};

    #[test]
    fn copyright_signs_in_every_spelling() {
        assert!(owner_sign("Photo © Reuters".as_bytes()));
        assert!(owner_sign(b"&copy; 2008 Example Ltd"));
        assert!(owner_sign(b"&#169; 2008"));
        // Other C2 characters (a no-break space, a pound sign) and other entities are not it.
        assert!(!owner_sign("costs £5\u{a0}now &amp; later".as_bytes()));
        assert!(!owner_sign(b"&cop"));
    }

    #[test]
    fn all_rights_reserved_in_any_case() {
        assert!(rights_reserved(b"Example Inc. All Rights Reserved."));
        assert!(rights_reserved(b"ALL RIGHTS RESERVED"));
        assert!(rights_reserved(b"all rights reserved"));
        // The phrase at the very start and end of the text.
        assert!(rights_reserved(b"All rights reserved"));
        assert!(!rights_reserved(b"rights reserved"));
        assert!(!rights_reserved(
            b"We reserved all rights to the venue, very vivid."
        ));
        assert!(!rights_reserved(b"v"));
    }
}

/// A class/id hint not read yet (the element lay inside a removed subtree).
const HINT_UNREAD: i8 = i8::MIN;

/// Marks boilerplate and hidden subtrees in `removed` (one forward pass, inherited), reading
/// each element's class/id hints into `hint` and `hidden` the first time they are needed.
/// `thread`: comment sections that hold most of DANAg's region stay (see step 2).
#[allow(clippy::too_many_arguments)]
fn mark_removed(
    doc: &Document<'_>,
    tuning: &Tuning,
    stats: &NodeStats,
    total_danag: u32,
    thread: bool,
    retry: Retry,
    hint: &mut [i8],
    hidden: &Flags<'_>,
    removed: &Flags<'_>,
) {
    let nodes = &doc.tree.nodes;
    // The element index of node `i`, counted along (the document is element 0).
    let mut r = 0;
    for i in 1..nodes.len() {
        let node = &nodes[i];
        // Elements only: a text node's flag stays clear, and `collect`, which alone reads it,
        // reaches a text node only through its parent, which is then not removed.
        if node.kind != Kind::Element {
            continue;
        }
        r += 1;
        let parent_removed = removed.get(node.parent as usize);
        if parent_removed {
            removed.set(i);
            continue;
        }
        let s = stats.element(r);
        // An element without visible text cannot change what is selected: skip its attributes.
        if hint[r] == HINT_UNREAD {
            let (class_hint, is_hidden) = if s.text == 0 {
                (0, false)
            } else {
                element_hints(doc, i as NodeId, tuning.comments)
            };
            // The document's own containers are never boilerplate, whatever their class says.
            hint[r] = if matches!(node.tag, Tag::Html | Tag::Body | Tag::Main | Tag::Article) {
                0
            } else {
                class_hint
            };
            hidden.assign(i, is_hidden);
        }
        // A boilerplate-looking element that holds most of DANAg's densest region is a page
        // wrapper with an unlucky class (`container penci_sidebar`), not a boilerplate block.
        let wraps_main = || s.danag * 2 > total_danag && (thread || hint[r] != COMMENT_HINT);
        let class_boiler = hint[r] < 0 && retry != Retry::HiddenAndClasses;
        // A footer or a menu is never the page's wrapper, however dense its text (a market
        // data notice longer than the story); an `<aside>` or a `<header>` may be (sites
        // build product sheets and hero sections with them).
        let never_main = matches!(
            node.tag,
            Tag::Footer | Tag::Nav | Tag::Menu | Tag::Select | Tag::Label
        );
        // HTML's `<header>` in an `<article>` is that article's own header (its title, its
        // standfirst; on a listing, a card's headline and summary), not the page's.
        let article_header =
            || node.tag == Tag::Header && nodes[node.parent as usize].tag == Tag::Article;
        let tag_boiler = boilerplate_tag(node.tag) && !article_header();
        let boiler = never_main || ((tag_boiler || class_boiler) && !wraps_main());
        removed.assign(
            i,
            boiler || (hidden.get(i) && matches!(retry, Retry::None | Retry::Listing)),
        );
    }
}

/// Non-link text of the paragraphs (leaf blocks of at least Readability's 25 characters) that
/// `removed` leaves: how much article the page has outside its boilerplate.
fn article_text(
    doc: &Document<'_>,
    stats: &NodeStats,
    block_child: &BlockChild,
    removed: &Flags<'_>,
) -> u64 {
    let nodes = &doc.tree.nodes;
    // The element index of node `i`, counted along (the document is element 0).
    let mut r = 0;
    let mut sum = 0;
    for i in 1..nodes.len() {
        if nodes[i].kind != Kind::Element {
            continue;
        }
        r += 1;
        if removed.get(i) || !nodes[i].tag.is(flags::BLOCK) || block_child.get(i) {
            continue;
        }
        let s = stats.element(r);
        if s.text >= 25 {
            sum += u64::from(s.text - s.link);
        }
    }
    sum
}

/// Nodes inside teaser summaries: a block of prose that follows a linked headline (a
/// block that is nearly all link text) in document order, at most two short blocks (a byline,
/// a date) between them, both in one small subtree (the card), where the same shape of card
/// occurs at least [`TEASER_REPEAT`] times on the page. That is how listings, "related" and
/// "more stories" widgets and headline lists present other pages (`<li><h3><a>` title, `<p>`
/// summary; `<dt><a>` / `<dd>`), whatever their class names say. One forward pass; the card
/// test walks at most [`CARD_DEPTH`] parents.
fn teasers(
    doc: &Document<'_>,
    stats: &NodeStats,
    block_child: &BlockChild,
    removed: &Flags<'_>,
    teaser: &Flags<'_>,
) {
    let nodes = &doc.tree.nodes;
    let n = nodes.len();
    let mut shapes: Vec<(u64, NodeId)> = Vec::new();
    let mut headline: Option<usize> = None;
    let mut between = 0u32;
    // A heading without a link, for cards whose link is a "read more" at the end of the
    // summary (see [`ends_in_link_elsewhere`]), and the short blocks after it.
    let mut plain: Option<usize> = None;
    let mut plain_between = 0u32;
    // The element index of node `i`, counted along (the document is element 0).
    let mut r = 0;
    for i in 1..n {
        let node = &nodes[i];
        if node.kind != Kind::Element {
            continue;
        }
        r += 1;
        let s = &stats.element(r);
        if !node.tag.is(flags::BLOCK) || block_child.get(i) || s.text == 0 {
            continue;
        }
        // A headline may stand in a removed block (cards wrap it in `<header>`); a summary
        // that is removed anyway needs no mark.
        if removed.get(i) && s.link_density() < HEADLINE_LINK_DENSITY {
            continue;
        }
        // A card in one paragraph: `<p><a href=story>Headline</a><br>Summary...</p>`.
        if !removed.get(i) && s.text >= TEASER_MIN_TEXT && inline_card(doc, stats, i as NodeId) {
            let shape = card_shape(doc, INLINE_CARD | ((node.tag as u64) << 8), i as NodeId);
            shapes.push((shape, i as NodeId));
            headline = None;
            continue;
        }
        // A headline is a heading (or a definition term) that is a link, or a linked line
        // of a title's length: a linked byline ("Dallas Robinson") is neither.
        let title_tag = node.tag.is(flags::HEADING) || node.tag == Tag::Dt;
        let plain_heading = title_tag && s.link == 0 && s.text >= TITLE_MIN_TEXT;
        if s.link_density() >= HEADLINE_LINK_DENSITY
            && s.text
                >= if title_tag {
                    TITLE_MIN_TEXT
                } else {
                    HEADLINE_MIN_TEXT
                }
            && links_elsewhere(doc, i as NodeId)
        {
            (headline, between) = (Some(i), 0);
        } else if s.text < TEASER_MIN_TEXT {
            between += 1;
        } else {
            // A linked headline, or a plain heading over a summary ending in its link.
            let card = headline
                .filter(|_| between <= 2)
                .and_then(|h| Some((h, card_height(doc, h as NodeId, i as NodeId)?, 0)))
                .or_else(|| {
                    let h = plain.filter(|&h| plain_between <= 2 && h != i)?;
                    if !ends_in_link_elsewhere(doc, stats, i as NodeId) {
                        return None;
                    }
                    Some((
                        h,
                        card_height(doc, h as NodeId, i as NodeId)?,
                        READ_MORE_CARD,
                    ))
                });
            if let Some((h, up, kind)) = card {
                // The summary is the card's child that holds this block: a blurb of
                // several paragraphs is one summary.
                let mut unit = i as NodeId;
                for _ in 1..up {
                    unit = nodes[unit as usize].parent;
                }
                let tags = kind | ((nodes[h].tag as u64) << 16) | ((node.tag as u64) << 8) | up;
                shapes.push((card_shape(doc, tags, unit), unit));
            }
            headline = None;
        }
        if plain_heading {
            (plain, plain_between) = (Some(i), 0);
        } else if s.text < TEASER_MIN_TEXT {
            plain_between += 1;
        } else {
            plain = None;
        }
    }
    shapes.sort_unstable();
    let mut units: Vec<NodeId> = shapes
        .chunk_by(|a, b| a.0 == b.0)
        .filter(|run| run.len() >= TEASER_REPEAT)
        .flat_map(|run| run.iter().map(|&(_, id)| id))
        .collect();
    units.sort_unstable();
    mark_subtrees(doc, &units, teaser);
}

/// Flags every node of the subtrees of `ids` (in ascending order), each node once: a subtree
/// is a run of the arena, and one inside a run already flagged is skipped (not a pass over
/// the whole page that inherits the flag from each parent).
fn mark_subtrees(doc: &Document<'_>, ids: &[NodeId], flag: &Flags<'_>) {
    let mut covered = 0;
    for &id in ids {
        let run = doc.tree.subtree(id);
        if run.start < covered {
            continue;
        }
        for j in run.clone() {
            flag.set(j);
        }
        covered = run.end;
    }
}

/// The shortest text that is an article on its own (Mozilla Readability's
/// `DEFAULT_CHAR_THRESHOLD`).
const ARTICLE_MIN_CHARS: u64 = 500;
/// Candidates kept for the common-ancestor rule, the winner included (Readability's
/// `nbTopCandidates`, 5).
const LEADERS: usize = 5;
/// A runner-up counts when it scores this share of the winner (Readability, 0.75).
const RIVAL_SHARE: f32 = 0.75;
/// Runners-up that must share an ancestor (Readability's `MINIMUM_TOPCANDIDATES`, 3).
const RIVALS_SHARING: usize = 3;
/// A block of at least this much link text is a linked headline (a title that is the link).
const HEADLINE_LINK_DENSITY: f32 = 0.8;
/// A heading is a card's title from this length on: a few words, past a label ("News").
const TITLE_MIN_TEXT: u32 = 10;
/// A linked line outside a heading is a headline from this length on: five or six words, past
/// a name or a category label.
const HEADLINE_MIN_TEXT: u32 = 30;
/// Text under this many characters between a headline and its summary is a byline, a date or
/// a category label, not the summary (about half a sentence).
const TEASER_MIN_TEXT: u32 = 60;
/// Three cards make a list; one or two linked headlines before a paragraph are an article's
/// own title link or byline.
const TEASER_REPEAT: usize = 3;
/// A card is small: the headline and the summary meet at most this many levels above the
/// summary.
const CARD_DEPTH: u64 = 3;

/// A card's shape: `tags` (its tags and depth) and the class of its summary `unit`. Cards of
/// one list share their tags, depth and classes.
fn card_shape(doc: &Document<'_>, tags: u64, unit: NodeId) -> u64 {
    let class = doc.attr(unit, "class").unwrap_or("");
    crate::extract::blocks::fnv1a(tags, class.as_bytes())
}

/// Marks the shape of a card held in one paragraph apart from headline-and-summary shapes.
const INLINE_CARD: u64 = 1 << 40;
/// Marks the shape of a card whose link ends its summary apart from linked-headline shapes.
const READ_MORE_CARD: u64 = 1 << 41;
/// A card's summary is mostly its own words: under half of it is link text (more, and it is
/// a list of links).
const SUMMARY_MAX_LINK_DENSITY: f32 = 0.5;
/// A "read more" link is short: a few words ("Read more...", "Weiterlesen", "→"), not a
/// sentence that happens to end in a link.
const READ_MORE_MAX_TEXT: u32 = 25;

/// Whether the summary block `summary` ends in a short link to another page, the way a card
/// with an unlinked heading points at its story (`<h3>Title</h3><p>Summary... <a
/// href=story>Read more</a></p>`), in any language: the last text of the block is inside a
/// link of at most [`READ_MORE_MAX_TEXT`] characters, and the block is mostly not link text
/// (a summary, not a list of links).
fn ends_in_link_elsewhere(doc: &Document<'_>, stats: &NodeStats, summary: NodeId) -> bool {
    let nodes = &doc.tree.nodes;
    if stats.get(summary as usize).link_density() >= SUMMARY_MAX_LINK_DENSITY {
        return false;
    }
    let range = doc.tree.subtree(summary);
    let Some(last) = range
        .rev()
        .find(|&d| nodes[d].kind == Kind::Text && stats.get(d).text > 0)
    else {
        return false;
    };
    if nodes[last].context() & context::LINK == 0 {
        return false;
    }
    // The link holding it: a few levels up at most (`<a><span>Read more</span></a>`).
    let Some(a) = doc
        .tree
        .ancestors(last as NodeId)
        .take(4)
        .take_while(|&a| a != summary)
        .find(|&a| nodes[a as usize].tag == Tag::A)
    else {
        return false;
    };
    stats.get(a as usize).text <= READ_MORE_MAX_TEXT
        && doc.attr(a, "href").is_some_and(links_to_another_page)
}

/// A paragraph that is a whole card: its first content is a link of a title's length to
/// another page, then a line break and the summary (`<p><a>Headline</a><br>Summary</p>`), or
/// the summary in an element of its own ([`summary_element`]). Looks at the paragraph's
/// children only.
fn inline_card(doc: &Document<'_>, stats: &NodeStats, p: NodeId) -> bool {
    let nodes = &doc.tree.nodes;
    let mut kids = doc.tree.children(p).filter(|&c| {
        let c = c as usize;
        nodes[c].kind == Kind::Element || stats.get(c).text > 0
    });
    let (Some(a), Some(after)) = (kids.next(), kids.next()) else {
        return false;
    };
    let (a, after) = (a as usize, after as usize);
    nodes[a].kind == Kind::Element
        && nodes[a].tag == Tag::A
        && stats.get(a).text >= HEADLINE_MIN_TEXT
        && (nodes[after].tag == Tag::Br || summary_element(nodes, stats, after))
        && stats.get(p as usize).text >= stats.get(a).text + TEASER_MIN_TEXT
        && doc
            .attr(a as NodeId, "href")
            .is_some_and(links_to_another_page)
}

/// Whether the element `e`, right after a card's headline link, is the card's summary in an
/// element of its own (`<li><a>Headline</a><span>Summary...</span></li>`): an inline element
/// (a block would make its parent no leaf) of at least a summary's length that is not links.
/// Text right after the link is prose that starts with a link ("<a>Smith</a> said..."), so
/// the summary must stand apart, in an element or after a line break.
fn summary_element(nodes: &[crate::html::tree::Node], stats: &NodeStats, e: usize) -> bool {
    nodes[e].kind == Kind::Element
        && nodes[e].tag != Tag::A
        && stats.get(e).text >= TEASER_MIN_TEXT
        && stats.get(e).link_density() < SUMMARY_MAX_LINK_DENSITY
}

/// Whether a linked headline's link leads to another page: an `href` that is not an in-page
/// anchor (`#faq-2`) or a script, as on an accordion's or a tab's toggle, whose panel is this
/// page's content. The link is the headline's ancestor (`<a><h3>`) or its first descendant
/// link (`<h3><a>`), looked for among at most [`HEADLINE_SCAN`] nodes.
fn links_elsewhere(doc: &Document<'_>, headline: NodeId) -> bool {
    let nodes = &doc.tree.nodes;
    let h = &nodes[headline as usize];
    let link = if h.context() & context::LINK != 0 {
        doc.tree
            .ancestors(headline)
            .take(HEADLINE_SCAN)
            .find(|&a| nodes[a as usize].tag == Tag::A)
    } else {
        let first = headline as usize + 1;
        let last = (first + HEADLINE_SCAN).min(nodes.len());
        (first..last)
            .take_while(|&d| nodes[d].start < h.end)
            .find(|&d| nodes[d].kind == Kind::Element && nodes[d].tag == Tag::A)
            .map(|d| d as NodeId)
    };
    link.and_then(|a| doc.attr(a, "href"))
        .is_some_and(links_to_another_page)
}

/// An `href` that is not an in-page anchor (`#faq-2`), a script or empty.
fn links_to_another_page(href: &str) -> bool {
    let href = href.trim_ascii_start();
    !(href.is_empty()
        || href.starts_with('#')
        || href
            .get(..11)
            .is_some_and(|p| p.eq_ignore_ascii_case("javascript:")))
}

/// Nodes looked through for a headline's link (a headline is a leaf block of a few nodes).
const HEADLINE_SCAN: usize = 64;

/// How many levels above `summary` it meets `headline` (their lowest common ancestor), if at
/// most [`CARD_DEPTH`].
fn card_height(doc: &Document<'_>, headline: NodeId, summary: NodeId) -> Option<u64> {
    let mut up = [crate::html::tree::NONE; CARD_DEPTH as usize];
    let mut cur = summary;
    for slot in up.iter_mut() {
        cur = doc.tree.node(cur).parent;
        if cur == crate::html::tree::NONE {
            break;
        }
        *slot = cur;
    }
    let mut cur = headline;
    for _ in 0..=CARD_DEPTH + 2 {
        cur = doc.tree.node(cur).parent;
        if cur == crate::html::tree::NONE {
            return None;
        }
        if let Some(k) = up.iter().position(|&a| a == cur) {
            return Some(k as u64 + 1);
        }
    }
    None
}

/// The text under `roots`, in document order, minus removed (boilerplate, hidden) subtrees and
/// link-dense blocks, and its visible characters. One forward pass: `inside` is inherited
/// from the parent.
fn collect(
    doc: &Document<'_>,
    is_root: &Flags<'_>,
    removed: &Flags<'_>,
    stats: &NodeStats,
    tuning: &Tuning,
    marks: &Marks,
) -> (Selection, u64) {
    let nodes = &doc.tree.nodes;
    let n = nodes.len();
    // Every element's flag is written as the pass meets it (before its children read it), so
    // what an earlier pass left there is never read.
    let inside = marks.flag(mark::INSIDE);
    let mut chars = 0u64;
    let mut sel = Selection {
        nodes: Vec::with_capacity(doc.tree.nodes.len()),
    };
    // The element index of node `i`, counted along (the document is element 0).
    let mut r = 0;
    for i in 1..n {
        let node = &nodes[i];
        let parent_inside = inside.get(node.parent as usize);
        let taken = (parent_inside || is_root.get(i)) && !removed.get(i);
        match node.kind {
            Kind::Element => {
                r += 1;
                // A block that is mostly link text is a menu or a link list; a chosen root was
                // judged with its link density already.
                let keep = taken && {
                    let starts_here = is_root.get(i) && !parent_inside;
                    let s = &stats.element(r);
                    let link_list = node.tag.is(flags::BLOCK)
                        && s.text > 0
                        && s.link_density() > tuning.link_list_density;
                    starts_here || !link_list
                };
                inside.assign(i, keep);
            }
            Kind::Text => {
                if taken && node.context() & context::HIDDEN == 0 {
                    sel.nodes.push(i as NodeId);
                    chars += u64::from(text_chars(doc, i as NodeId));
                }
            }
            Kind::Document => {}
        }
    }
    (sel, chars)
}

/// The element's text ends like a sentence (`.`, `!`, `?`, `。`, `"`).
fn ends_sentence(doc: &Document<'_>, id: NodeId) -> bool {
    let text = doc.text_of(id);
    text.ends_with(['.', '!', '?', '。', '"', '”'])
}

/// What `auto` decided on one page, recorded by [`extract_traced`] for `pith explain`.
/// Vectors are indexed by node id; empty when the step that fills them was not reached.
#[derive(Debug, Default)]
pub struct Trace {
    pub stats: Vec<Stats>,
    /// Boilerplate or hidden, inherited from the ancestors (step 2).
    pub removed: Vec<bool>,
    /// Container scores (step 3), after the tag, class, link and DANAg factors.
    pub score: Vec<f32>,
    /// The best-scoring container, and the one chosen after climbing to parents.
    pub best: Option<usize>,
    pub top: Option<usize>,
    /// The chosen container and the siblings that joined it.
    pub roots: Vec<NodeId>,
    /// Roots of the collected text: `roots` plus recovered prose paragraphs.
    pub is_root: Vec<bool>,
    /// Inside a teaser summary that stayed out (beside an article; see `teasers`).
    pub teaser: Vec<bool>,
    /// Characters chosen and characters of the whole page minus boilerplate and teasers beside
    /// the article (step 6), whatever the outcome.
    pub spread: (u64, u64),
    pub outcome: Outcome,
}

/// Which rule gave the final selection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Outcome {
    /// The chosen container, its siblings and recovered paragraphs.
    Container,
    /// Too little of the page in the container: the page minus boilerplate.
    Spread,
    /// No container with enough text: DANAg's selection.
    #[default]
    Danag,
    /// Nothing selected at all: every visible text.
    Everything,
}
