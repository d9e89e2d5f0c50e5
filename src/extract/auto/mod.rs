//! `auto`, the default: DANAg's line profile as the backbone, decisions made on the tree.
//!
//! One reading of the page (`select`) runs six steps, each in a file of its own; every
//! threshold, weight and word list they use is in `rules.rs`, with its reason.
//!
//! 1. Statistics per element (`stats.rs`), gathered bottom-up in one reverse pass over the
//!    arena (children have larger ids than their parents, so no recursion): visible text
//!    characters, characters inside links, commas, and how much of the text DANAg selected.
//! 2. Hints per element (`hints.rs`), top-down in one forward pass: an element is removed when
//!    its tag says boilerplate (nav, aside, footer), its class/id names a page part that is
//!    never main content (navigation, comments, sharing, related links, adverts), or the page
//!    hides it (`hidden`, `display:none`, `aria-hidden`). Comment sections go even when they
//!    are longer than the article, unless nothing else is an article (a forum thread).
//!
//!    Then teaser summaries (`teasers.rs`: a linked headline and its blurb, repeated, as in
//!    "more stories" and listings), found in one document-order pass before the container so
//!    that they do not count as its prose; beside an article they are neither recovered nor
//!    counted as the page's content.
//! 3. The main container (`container.rs`): paragraph-like blocks with enough text vote for
//!    their parent (fully) and grandparent (half), by their length and commas, the way
//!    Readability scores candidates (Mozilla Readability, `_grabArticle`); a candidate's score
//!    is scaled by its share of non-link text and by how much of its text DANAg's densest
//!    region covers. The winner moves up to the ancestor its runners-up share and climbs
//!    while its parent holds clearly more prose; siblings that score close to it, or that are
//!    plain paragraphs, join it. When no container wins (a page of short texts), DANAg's own
//!    selection is the answer.
//! 4. Prose outside the container (`recover.rs`): paragraphs of real sentences with hardly any
//!    links, unless boilerplate, a teaser or a legal notice, join the collected roots.
//! 5. Collection (`collect.rs`): inside the roots, text comes out in document order minus
//!    boilerplate subtrees, hidden ones and link-dense blocks (menus and link lists inside the
//!    article).
//! 6. Spread (`collect.rs`, `spread`): when the container's text (the recovered paragraphs
//!    left out) is under the mode's share of the page's non-boilerplate text, the page is not
//!    one article, and the page minus its boilerplate is the answer.
//!
//! [`extract_traced`] reads the page again when the first reading kept little (as Readability
//! retries `_grabArticle` with fewer rules): with hiding and class/id words ignored, then, on
//! a page of linked cards, as a listing (the page minus boilerplate with its link lists kept);
//! a retry wins with twice the text. When nothing at all is selected, every visible text is
//! the answer. `marks.rs` holds the per-node sets the steps hand each other; `trace.rs`
//! records the decisions for `pith explain`; `ablate.rs` names the rules, each of which can be
//! switched off to measure what it is worth (docs/rules.md).

mod ablate;
mod collect;
mod container;
mod hints;
mod marks;
mod recover;
mod rules;
mod stats;
mod teasers;
mod trace;

pub use ablate::{Rule, Rules};
pub(crate) use hints::{COMMENT_HINT, element_hints};
pub use trace::{Outcome, Trace};

use crate::extract::Selection;
use crate::extract::danag::{self, Segments};
use crate::html::Document;
use crate::html::tree::{Kind, NodeId, context};
use ablate::Rule as R;
use marks::{Bits, Marks, mark};
use rules::{EXTRACTED_MIN_CHARS, RETRY_GAIN, TEASER_REPEAT};

/// The trade-off knobs of `auto`; [`Tuning::new`] gives them for a [`Mode`] (the values and
/// their reasons are in `rules.rs`).
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
    /// Rules switched off that no knob above expresses, to measure what each is worth
    /// (`pith-lab rules`); none by default. Set through [`Tuning::without`].
    pub off: Rules,
}

impl Tuning {
    /// The settings of `mode` (from [`rules`]), keeping user comments when `comments`.
    pub fn new(mode: Mode, comments: bool) -> Tuning {
        Tuning {
            comments,
            ..rules::tuning(mode)
        }
    }

    /// These settings with the rules `off` switched off. A rule that a knob already turns off
    /// (as `--precision` turns off recovery and the spread test) is switched off by that
    /// knob; the others are kept in [`Tuning::off`] for the step that decides them.
    pub fn without(self, off: Rules) -> Tuning {
        let mut t = Tuning { off, ..self };
        if off.has(R::Recover) {
            t.recover_min_text = 0;
        }
        if off.has(R::LinkLists) {
            t.link_list_density = f32::INFINITY;
        }
        if off.has(R::Spread) {
            t.spread_share = 0.0;
        }
        t
    }
}

/// Which way `auto` leans between keeping boilerplate and losing content.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// The default: the trade-off the gold sets' F1 favours.
    #[default]
    Balanced,
    /// Less boilerplate, some content lost.
    Precision,
    /// More content, some boilerplate kept.
    Recall,
}

impl Mode {
    /// The mode that leans one way (`precision` or `recall`), or neither; `None` when asked
    /// to lean both ways at once.
    pub fn leaning(precision: bool, recall: bool) -> Option<Mode> {
        match (precision, recall) {
            (true, true) => None,
            (true, false) => Some(Mode::Precision),
            (false, true) => Some(Mode::Recall),
            (false, false) => Some(Mode::Balanced),
        }
    }
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
    // is short: a page that hides its main text in the markup and shows it from a script
    // (`display:none` until an age gate, a lock or a tab script runs), or that names its
    // wrappers like boilerplate, is read again with the `hidden`, `aria-hidden` and style
    // hiding and the class/id words ignored, and a text at least twice as long wins. (No
    // retry ignores hiding alone under Readability's 500 characters: on wcxb_train such a
    // retry lost more pages than it mended, and no other set gained clearly; docs/rules.md.)
    for retry in [Retry::HiddenAndClasses, Retry::Listing] {
        let wanted = match retry {
            Retry::None => false,
            // Under trafilatura's `MIN_EXTRACTED_SIZE` (250 characters, where it falls back to
            // other extractors), the page's class names are not trusted either: a wrapper
            // named like boilerplate (`sidebar-layout`, `promo-article`) must not leave a page
            // empty. Nor are they when they removed most of the page's prose, piecewise, and
            // more than the extraction keeps: then they name the site's layout (see `hints::judge`).
            Retry::HiddenAndClasses => {
                (!tuning.off.has(R::RetryClasses) && kept < EXTRACTED_MIN_CHARS)
                    || (!tuning.off.has(R::LayoutClasses) && class_prose > kept)
            }
            // Still under `MIN_EXTRACTED_SIZE`, on a page whose content is its links (a job
            // board, a catalogue of linked cards: `TEASER_REPEAT` links that each hold a card,
            // as for teasers): the link-density rules took it. Like trafilatura's baseline
            // fallback, take the page minus its boilerplate with the link lists kept. (A
            // menu's links hold one word each: a short post beside menus stays short.)
            Retry::Listing => {
                !tuning.off.has(R::RetryListing)
                    && kept < EXTRACTED_MIN_CHARS
                    && teasers::linked_cards(doc) >= TEASER_REPEAT
            }
        };
        if !wanted {
            continue;
        }
        let mut again = trace.as_ref().map(|_| Trace::default());
        let revealed = select(doc, tuning, retry, again.as_mut());
        // At least twice the text: the retry must find what the rules hid, not another part
        // of the page of about the same size (a footer beside a three-sentence story).
        let revealed_chars = revealed.chars;
        if RETRY_GAIN.reached(revealed_chars, kept.max(1)) {
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

/// Which removal rules a retry of [`extract_traced`] drops.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Retry {
    /// The first reading: every rule.
    None,
    /// Elements hidden by their attributes (`hidden`, `aria-hidden`, style) count as shown,
    /// and class/id words no longer make boilerplate (tags still do).
    HiddenAndClasses,
    /// Every rule, and the answer is the page minus its boilerplate with link lists kept
    /// (a page whose content is its links).
    Listing,
}

/// What one reading of the page ([`select`]) chose.
struct Reading {
    sel: Selection,
    /// Visible characters of `sel` (its text nodes without the blanks around each).
    chars: u64,
    /// Prose (non-link text) that class/id words removed, when it is most of the page's
    /// prose and no one region of it (0 otherwise); see [`extract_traced`].
    class_prose: u64,
}

/// One reading of the page: the six steps, each a function of its own file.
fn select(
    doc: &Document<'_>,
    tuning: &Tuning,
    retry: Retry,
    mut trace: Option<&mut Trace>,
) -> Reading {
    // DANAg's selection, kept as one bit per node: its text nodes in document order are the
    // set bits in ascending order, which is all the answer needs when no container wins.
    let n = doc.tree.nodes.len();
    let mut in_danag = Bits::new(n);
    for &id in &danag::extract(doc, Segments::Normalized, danag::PAPER_GAP).nodes {
        in_danag.set(id as usize);
    }
    // Every flag of this reading, a bit each (see [`Marks`]).
    let marks = Marks::new(n);
    // 1. Statistics.
    let stats = stats::gather(doc, &in_danag, &marks.flag(mark::BLOCK_CHILD));
    // 2. Hints: boilerplate and hidden subtrees.
    let hints = hints::judge(doc, tuning, &stats, retry, &marks);
    let class_prose = hints.class_prose;
    if retry == Retry::Listing {
        let (sel, chars) = collect::listing(doc, tuning, &stats, &marks, trace);
        return Reading {
            sel,
            chars,
            class_prose,
        };
    }
    // Teasers, before the container so that they do not count as its prose when it climbs.
    if !tuning.comments && !tuning.off.has(R::Teasers) {
        teasers::mark(doc, &stats, &marks);
    }
    // 3. The container, or DANAg's selection when none has text enough.
    let scores = container::score(doc, tuning, &stats, hints.by_element, &marks);
    if let Some(t) = trace.as_deref_mut() {
        t.record_scores(doc, &stats, &marks, &scores);
    }
    let Some(winner) = scores.winner(&stats) else {
        return danag_reading(doc, in_danag, class_prose);
    };
    drop(in_danag);
    let chosen = container::choose(doc, tuning, &stats, &marks, scores, winner);
    // 4. Prose outside the container.
    let recovered = recover::recover(doc, tuning, &stats, &marks, &chosen.roots);
    // 5. The text of the chosen roots.
    let (is_root, removed) = (marks.flag(mark::ROOT), marks.flag(mark::REMOVED));
    let collected = collect::collect(doc, &is_root, &removed, &stats, tuning, &marks);
    if let Some(t) = trace.as_deref_mut() {
        t.record_choice(chosen.top, &chosen.roots, &marks);
    }
    // 6. The whole page instead, when the chosen text is too little of it.
    let (sel, chars) = collect::spread(doc, tuning, stats, marks, collected, recovered, trace);
    Reading {
        sel,
        chars,
        class_prose,
    }
}

/// DANAg's selection `in_danag` as a reading.
fn danag_reading(doc: &Document<'_>, in_danag: Bits, class_prose: u64) -> Reading {
    let sel = Selection {
        nodes: in_danag.ones().map(|i| i as NodeId).collect(),
    };
    // DANAg selects visible text only, whose characters `text_chars` counts.
    Reading {
        chars: sel
            .nodes
            .iter()
            .map(|&id| u64::from(stats::text_chars(doc, id)))
            .sum(),
        sel,
        class_prose,
    }
}
