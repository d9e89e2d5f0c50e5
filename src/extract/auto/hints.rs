//! Step 2: hints per element, top-down in one forward pass. An element is removed when its tag
//! says boilerplate, its class/id names a page part that is never main content
//! ([`element_hints`] against the word lists of [`super::rules`]), or the page hides it; the
//! mark is inherited. Comment sections go even when they are longer than the article, unless
//! nothing else is an article (a thread). Also measures the prose that class/id words alone
//! removed, for the retry that distrusts them.

use super::marks::{BlockChild, Flags, Marks, mark};
use super::rules::{
    self, ARTICLE_MIN_CHARS, CLASS_PROSE_REGION_SHARE, CLASS_PROSE_SHARE, COMMENT_WORDS,
    HIDING_STYLES, NEGATIVE, PARAGRAPH_MIN_TEXT, POSITIVE, WRAPPER_DANAG_SHARE,
};
use super::stats::NodeStats;
use super::{Retry, Rule, Tuning};
use crate::html::Document;
use crate::html::tags::{Tag, flags};
use crate::html::tree::{Kind, NodeId};

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
    let (mut class, mut ident, mut hidden): (&[u8], &[u8], bool) = (b"", b"", false);
    // The `hidden` attribute alone, apart from the other ways of hiding (see below).
    let mut hidden_attr = false;
    // Bytes, not `str`s: every test below compares bytes.
    let mut attrs = doc.attributes(id);
    while let Some((name, value)) = attrs.next_bytes() {
        // By length first: most attributes (href, src, width) are none of these.
        match name.len() {
            5 if name.eq_ignore_ascii_case(b"class") => class = value,
            2 if name.eq_ignore_ascii_case(b"id") => ident = value,
            6 if name.eq_ignore_ascii_case(b"hidden") => hidden_attr = true,
            11 if name.eq_ignore_ascii_case(b"aria-hidden") => {
                hidden |= value.eq_ignore_ascii_case(b"true");
            }
            5 if name.eq_ignore_ascii_case(b"style") => hidden |= style_hides(value),
            // A modal dialog (a privacy policy, a size guide, a sign-up form) is out of the
            // page until a click opens it, as `<dialog>` is until `showModal()`. (`role=dialog`
            // alone is no sign: sites give it to drawers and sheets that are shown.)
            10 if name.eq_ignore_ascii_case(b"aria-modal") => {
                hidden |= value.eq_ignore_ascii_case(b"true");
            }
            _ => {}
        }
    }
    // React's streaming server rendering sends a suspended part of the page (often the whole
    // article) late, as `<div hidden id="S:0">`, and a script of the same response moves it
    // into its placeholder at once: shown content, not hidden content.
    hidden |= hidden_attr && !react_segment(ident);
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
        hint_words(&m.words, hay, |w, start, end| {
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

/// Whether `id` names a segment of React's streaming server rendering (`S:` and the segment's
/// number in hexadecimal, as React DOM's `renderToPipeableStream` writes it).
fn react_segment(id: &[u8]) -> bool {
    id.strip_prefix(b"S:")
        .is_some_and(|n| !n.is_empty() && n.iter().all(u8::is_ascii_hexdigit))
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
fn preview(b: &[u8], start: usize, end: usize) -> bool {
    start > 0
        && b[start - 1].eq_ignore_ascii_case(&b'p')
        && b[start..end].eq_ignore_ascii_case(b"review")
}

/// Whether an inline style hides the element (one of [`HIDING_STYLES`], blanks and case
/// ignored).
fn style_hides(style: &[u8]) -> bool {
    // One pass over the style without copying it: a matcher per phrase, on the non-blank
    // lower-cased bytes. No phrase repeats its first letter, so after a mismatch the phrase
    // can only start again at the current byte (no earlier partial match survives).
    let mut matched = [0usize; HIDING_STYLES.len()];
    for &c in style.iter().filter(|c| !c.is_ascii_whitespace()) {
        let c = c.to_ascii_lowercase();
        for (m, phrase) in matched.iter_mut().zip(HIDING_STYLES) {
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

/// A class/id hint not read yet (the element lay inside a removed subtree).
const HINT_UNREAD: i8 = i8::MIN;

/// What step 2 found besides the `REMOVED` and `HIDDEN` marks.
pub(super) struct Hints {
    /// Each element's class/id verdict, indexed by element (see [`element_hints`]; 0 for
    /// elements never asked).
    pub(super) by_element: Vec<i8>,
    /// Prose (non-link text) that class/id words removed, when it is most of the page's
    /// prose and no one region of it (0 otherwise); see [`super::extract_traced`].
    pub(super) class_prose: u64,
}

/// Step 2, top-down hints: removed = boilerplate or hidden, inherited. A comment section is
/// removed even when it holds most of DANAg's region (comments longer than the article),
/// unless that leaves no article: then the page is a thread (a forum, a Q&A) and its
/// comments are the content.
pub(super) fn judge(
    doc: &Document<'_>,
    tuning: &Tuning,
    stats: &NodeStats,
    retry: Retry,
    marks: &Marks,
) -> Hints {
    let nodes = &doc.tree.nodes;
    let n = nodes.len();
    let block_child = marks.flag(mark::BLOCK_CHILD);
    let total_danag = stats.get(0).danag;
    let mut hint = vec![HINT_UNREAD; stats.ranks.count];
    let hidden = marks.flag(mark::HIDDEN);
    let removed = marks.flag(mark::REMOVED);
    mark_removed(
        doc,
        tuning,
        stats,
        total_danag,
        false,
        retry,
        &mut hint,
        &hidden,
        &removed,
    );
    if !tuning.off.has(Rule::Thread)
        && article_text(stats, &block_child, &removed) < ARTICLE_MIN_CHARS
    {
        mark_removed(
            doc,
            tuning,
            stats,
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
            && !rules::boilerplate_tag(nodes[i].tag)
        {
            let prose = u64::from(stats.get(i).text - stats.get(i).link);
            class_prose += prose;
            largest = largest.max(prose);
        }
    }
    let page_prose = u64::from(stats.get(0).text - stats.get(0).link);
    if !CLASS_PROSE_SHARE.exceeded(class_prose, page_prose)
        || CLASS_PROSE_REGION_SHARE.exceeded(largest, class_prose)
    {
        class_prose = 0;
    }
    Hints {
        by_element: hint,
        class_prose,
    }
}

/// Marks boilerplate and hidden subtrees in `removed` (one forward pass, inherited), reading
/// each element's class/id hints into `hint` and `hidden` the first time they are needed.
/// `thread`: comment sections that hold most of DANAg's region stay (see [`judge`]).
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
    let off = tuning.off;
    // Elements only: a text node's flag stays clear, and `collect`, which alone reads it,
    // reaches a text node only through its parent, which is then not removed.
    stats.for_each_element(|i, r, node| {
        let parent_removed = removed.get(node.parent as usize);
        if parent_removed {
            removed.set(i);
            return;
        }
        let s = stats.element(r);
        // An element without visible text cannot change what is selected: skip its attributes.
        if hint[r] == HINT_UNREAD {
            let (class_hint, is_hidden) = if s.text == 0 {
                (0, false)
            } else {
                element_hints(doc, i as NodeId, tuning.comments)
            };
            hint[r] = if rules::document_tag(node.tag) {
                0
            } else {
                class_hint
            };
            hidden.assign(i, is_hidden);
        }
        // A boilerplate-looking element that holds most of DANAg's densest region is a page
        // wrapper with an unlucky class, not a boilerplate block.
        let wraps_main = || {
            !off.has(Rule::Wrapper)
                && WRAPPER_DANAG_SHARE.exceeded(u64::from(s.danag), u64::from(total_danag))
                && (thread || hint[r] != COMMENT_HINT)
        };
        let class_boiler = hint[r] < 0
            && retry != Retry::HiddenAndClasses
            && !off.has(if hint[r] == COMMENT_HINT {
                Rule::CommentWords
            } else {
                Rule::ClassWords
            });
        // HTML's `<header>` in an `<article>` is that article's own header (its title, its
        // standfirst; on a listing, a card's headline and summary), not the page's.
        let article_header = || {
            !off.has(Rule::ArticleHeader)
                && node.tag == Tag::Header
                && nodes[node.parent as usize].tag == Tag::Article
        };
        let tags = !off.has(Rule::BoilerplateTags);
        let tag_boiler = tags && rules::boilerplate_tag(node.tag) && !article_header();
        let boiler = (tags && rules::never_main_tag(node.tag))
            || ((tag_boiler || class_boiler) && !wraps_main());
        removed.assign(
            i,
            boiler
                || (hidden.get(i)
                    && !off.has(Rule::Hidden)
                    && matches!(retry, Retry::None | Retry::Listing)),
        );
    });
}

/// Non-link text of the paragraphs (leaf blocks of at least [`PARAGRAPH_MIN_TEXT`]) that
/// `removed` leaves: how much article the page has outside its boilerplate.
fn article_text(stats: &NodeStats, block_child: &BlockChild, removed: &Flags<'_>) -> u64 {
    let mut sum = 0;
    stats.for_each_element(|i, r, node| {
        if removed.get(i) || !node.tag.is(flags::BLOCK) || block_child.get(i) {
            return;
        }
        let s = stats.element(r);
        if s.text >= PARAGRAPH_MIN_TEXT {
            sum += u64::from(s.text - s.link);
        }
    });
    sum
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
            assert!(style_hides(hides.as_bytes()), "{hides:?}");
        }
        for shows in [
            "",
            "display:block",
            "display:non",
            "display-none",
            "visibility:visible",
            "isplay:none",
        ] {
            assert!(!style_hides(shows.as_bytes()), "{shows:?}");
        }
    }
}

#[cfg(test)]
mod react_segment_tests {
    use super::react_segment;

    #[test]
    fn segments_are_s_and_a_hexadecimal_number() {
        for id in ["S:0", "S:2e", "S:1A0"] {
            assert!(react_segment(id.as_bytes()), "{id}");
        }
        for id in ["S:", "s:0", "S:0x", "B:0", "P:1", "S:g", "modal", ""] {
            assert!(!react_segment(id.as_bytes()), "{id}");
        }
    }
}
