//! Steps 5 and 6: the text of the chosen roots in document order ([`collect`]: minus
//! boilerplate, hidden subtrees and link-dense blocks), then the spread test ([`spread`]): a
//! page that is not one article gives the whole page minus its boilerplate. Also the listing
//! retry's reading, the page minus its boilerplate with link lists kept ([`listing`]).

use super::marks::{Bits, Flags, Marks, mark};
use super::stats::{NodeStats, shown_chars};
use super::{Outcome, Rule, Trace, Tuning};
use crate::extract::Selection;
use crate::html::tags::{Tag, flags};
use crate::html::tree::{NodeId, context};
use crate::html::{Document, Node};

/// The text under `roots`, in document order, minus removed (boilerplate, hidden) subtrees and
/// link-dense blocks, and its visible characters. One forward pass: `inside` is inherited
/// from the parent.
pub(super) fn collect(
    doc: &Document<'_>,
    is_root: &Flags<'_>,
    removed: &Flags<'_>,
    stats: &NodeStats,
    tuning: &Tuning,
    marks: &Marks,
) -> (Selection, u64) {
    mark_inside(is_root, removed, stats, tuning, marks);
    let mut chars = 0u64;
    let mut sel = Selection {
        nodes: Vec::with_capacity(doc.tree.nodes.len()),
    };
    for_each_taken(is_root, removed, stats, marks, |i, node| {
        sel.nodes.push(i as NodeId);
        chars += u64::from(shown_chars(doc, node));
    });
    (sel, chars)
}

/// The first half of [`collect`]: flags in `INSIDE` the elements whose text is taken.
fn mark_inside(
    is_root: &Flags<'_>,
    removed: &Flags<'_>,
    stats: &NodeStats,
    tuning: &Tuning,
    marks: &Marks,
) {
    // Every element's flag is written as the pass meets it (before its children read it), so
    // what an earlier pass left there is never read.
    let inside = marks.flag(mark::INSIDE);
    // The elements first, in document order: each reads only its parent's flag, written
    // before it. Then ([`for_each_taken`]) the text nodes, which read their parent's final
    // flag and are parents of nothing: the same decisions as one pass over all nodes, without
    // a branch on each node's kind.
    stats.for_each_element(|i, r, node| {
        let parent_inside = inside.get(node.parent as usize);
        let taken = (parent_inside || is_root.get(i)) && !removed.get(i);
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
    });
}

/// The second half of [`collect`]: calls `f` with each visible text node taken, in document
/// order, once [`mark_inside`] has run.
fn for_each_taken(
    is_root: &Flags<'_>,
    removed: &Flags<'_>,
    stats: &NodeStats,
    marks: &Marks,
    mut f: impl FnMut(usize, &Node),
) {
    let inside = marks.flag(mark::INSIDE);
    stats.for_each_text(|i, node| {
        let taken = (inside.get(node.parent as usize) || is_root.get(i)) && !removed.get(i);
        if taken && node.context() & context::HIDDEN == 0 {
            f(i, node);
        }
    });
}

/// The listing retry's reading: the page's body minus its boilerplate, with link lists kept
/// (a page whose content is its links), and its visible characters.
pub(super) fn listing(
    doc: &Document<'_>,
    tuning: &Tuning,
    stats: &NodeStats,
    marks: &Marks,
    trace: Option<&mut Trace>,
) -> (Selection, u64) {
    let removed = marks.flag(mark::REMOVED);
    let roots = marks.flag(mark::ROOT);
    mark_body(doc, &roots);
    let links_kept = Tuning {
        link_list_density: f32::INFINITY,
        ..*tuning
    };
    if let Some(t) = trace {
        t.record_removal(stats, &removed);
        t.outcome = Outcome::Spread;
    }
    collect(doc, &roots, &removed, stats, &links_kept, marks)
}

/// Step 6. A page that is not one article (a listing, a product or service page, a
/// collection) spreads its content over many blocks: when the container's text (the part of
/// the chosen text `sel`, of `sel_chars` characters collected from `ROOT`, that lies in
/// `UNDER`) is less than the mode's share of the text that no boilerplate rule removed, the
/// page minus its boilerplate is the answer (the approach of Resiliparse and of jusText's
/// paragraph filter). Paragraphs recovered outside the container (`recovered`) do not count
/// for the container: prose found outside it is no sign that the page is one article, and
/// counting it kept pages of many short texts from spreading. Gives the answer and its
/// characters.
///
/// The chosen roots stay roots: a container kept for its own merits must not vanish from the
/// whole page because an ancestor of it is link-dense (the whole page holds the chosen text).
pub(super) fn spread(
    doc: &Document<'_>,
    tuning: &Tuning,
    stats: NodeStats,
    marks: Marks,
    (sel, sel_chars): (Selection, u64),
    recovered: bool,
    trace: Option<&mut Trace>,
) -> (Selection, u64) {
    let n = doc.tree.nodes.len();
    // While the whole page is collected, the chosen text is held as one bit per node (its
    // nodes in document order are the set bits), not as a second list of nodes.
    let mut in_sel = Bits::new(n);
    for &id in &sel.nodes {
        in_sel.set(id as usize);
    }
    // The container's share of the chosen text: all of it unless paragraphs were recovered.
    let container_chars = if recovered && !tuning.off.has(Rule::RecoveredCount) {
        let under = marks.flag(mark::UNDER);
        let nodes = &doc.tree.nodes;
        sel.nodes
            .iter()
            .filter(|&&id| under.get(id as usize))
            .map(|&id| u64::from(shown_chars(doc, &nodes[id as usize])))
            .sum()
    } else {
        sel_chars
    };
    drop(sel);
    let removed = marks.flag(mark::REMOVED);
    let whole_root = marks.flag(mark::ROOT);
    mark_body(doc, &whole_root);
    // The whole page's text is counted first and listed only when it is the answer (most
    // pages are one article): its characters, and those of teaser summaries outside the
    // chosen text (a linked headline and its blurb, repeated), which are other pages'
    // content: a page beside a list of them is still one article.
    mark_inside(&whole_root, &removed, &stats, tuning, &marks);
    let in_teaser = marks.flag(mark::TEASER);
    let (mut whole_chars_all, mut teaser_chars) = (0u64, 0u64);
    for_each_taken(&whole_root, &removed, &stats, &marks, |i, node| {
        let chars = u64::from(shown_chars(doc, node));
        whole_chars_all += chars;
        if in_teaser.get(i) && !in_sel.get(i) {
            teaser_chars += chars;
        }
    });
    let whole_chars = whole_chars_all - teaser_chars;
    let spread = tuning.spread_share > 0.0
        && (container_chars as f32) < tuning.spread_share * whole_chars as f32;
    if let Some(t) = trace {
        t.record_spread(container_chars, whole_chars, spread);
    }
    if spread {
        drop(in_sel);
        let mut whole = Selection {
            nodes: Vec::with_capacity(n),
        };
        for_each_taken(&whole_root, &removed, &stats, &marks, |i, _| {
            whole.nodes.push(i as NodeId);
        });
        // The reading's arrays go before the answer is returned (the largest pages peak
        // here).
        drop((marks, stats));
        (whole, whole_chars_all)
    } else {
        drop((marks, stats));
        let sel = Selection {
            nodes: in_sel.ones().map(|i| i as NodeId).collect(),
        };
        (sel, sel_chars)
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
