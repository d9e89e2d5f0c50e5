//! Teaser summaries: a linked headline and its blurb, repeated ("more stories", listings,
//! related links), found in one document-order pass before the container is chosen. Beside an
//! article they are neither recovered nor counted as the page's content; on a listing they
//! are the content. Also the linked cards that make a page a listing for the last retry.

use super::marks::{Marks, mark, mark_subtrees};
use super::rules::{
    self, CARD_DEPTH, CARD_MAX_BETWEEN, HEADLINE_LINK_DENSITY, HEADLINE_MIN_TEXT, HEADLINE_NESTING,
    HEADLINE_SCAN, LINKED_CARD_PIECES, READ_MORE_DEPTH, READ_MORE_MAX_TEXT,
    SUMMARY_MAX_LINK_DENSITY, TEASER_MIN_TEXT, TEASER_REPEAT, TITLE_MIN_TEXT,
};
use super::stats::NodeStats;
use crate::html::Document;
use crate::html::tags::{Tag, flags};
use crate::html::tree::{Kind, NONE, NodeId, context};

/// Nodes inside teaser summaries: a block of prose that follows a linked headline (a
/// block that is nearly all link text) in document order, at most two short blocks (a byline,
/// a date; [`CARD_MAX_BETWEEN`]) between them, both in one small subtree (the card), where the
/// same shape of card occurs at least [`TEASER_REPEAT`] times on the page, flagged in
/// `TEASER`. That is how listings, "related" and
/// "more stories" widgets and headline lists present other pages (`<li><h3><a>` title, `<p>`
/// summary; `<dt><a>` / `<dd>`), whatever their class names say. One forward pass; the card
/// test walks at most [`CARD_DEPTH`] parents.
pub(super) fn mark(doc: &Document<'_>, stats: &NodeStats, marks: &Marks) {
    let nodes = &doc.tree.nodes;
    let block_child = marks.flag(mark::BLOCK_CHILD);
    let removed = marks.flag(mark::REMOVED);
    let teaser = marks.flag(mark::TEASER);
    let mut shapes: Vec<(u64, NodeId)> = Vec::new();
    let mut headline: Option<usize> = None;
    let mut between = 0u32;
    // A heading without a link, for cards whose link is a "read more" at the end of the
    // summary (see [`ends_in_link_elsewhere`]), and the short blocks after it.
    let mut plain: Option<usize> = None;
    let mut plain_between = 0u32;
    stats.for_each_element(|i, r, node| {
        let s = &stats.element(r);
        if !node.tag.is(flags::BLOCK) || block_child.get(i) || s.text == 0 {
            return;
        }
        // A headline may stand in a removed block (cards wrap it in `<header>`); a summary
        // that is removed anyway needs no mark.
        if removed.get(i) && s.link_density() < HEADLINE_LINK_DENSITY {
            return;
        }
        // A card in one paragraph: `<p><a href=story>Headline</a><br>Summary...</p>`.
        if !removed.get(i) && s.text >= TEASER_MIN_TEXT && inline_card(doc, stats, i as NodeId) {
            let shape = card_shape(doc, INLINE_CARD | ((node.tag as u64) << 8), i as NodeId);
            shapes.push((shape, i as NodeId));
            headline = None;
            return;
        }
        // A headline is a heading (or a definition term) that is a link, or a linked line
        // of a title's length: a linked byline ("Dallas Robinson") is neither.
        let title_tag = rules::title_tag(node.tag);
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
                .filter(|_| between <= CARD_MAX_BETWEEN)
                .and_then(|h| Some((h, card_height(doc, h as NodeId, i as NodeId)?, 0)))
                .or_else(|| {
                    let h = plain.filter(|&h| plain_between <= CARD_MAX_BETWEEN && h != i)?;
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
    });
    shapes.sort_unstable();
    let mut units: Vec<NodeId> = shapes
        .chunk_by(|a, b| a.0 == b.0)
        .filter(|run| run.len() >= TEASER_REPEAT)
        .flat_map(|run| run.iter().map(|&(_, id)| id))
        .collect();
    units.sort_unstable();
    mark_subtrees(doc, &units, &teaser);
}

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
    // The link holding it: a few levels up at most.
    let Some(a) = doc
        .tree
        .ancestors(last as NodeId)
        .take(READ_MORE_DEPTH)
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
    const SCRIPT: &str = "javascript:";
    let href = href.trim_ascii_start();
    !(href.is_empty()
        || href.starts_with('#')
        || href
            .get(..SCRIPT.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(SCRIPT)))
}

/// How many levels above `summary` it meets `headline` (their lowest common ancestor), if at
/// most [`CARD_DEPTH`].
fn card_height(doc: &Document<'_>, headline: NodeId, summary: NodeId) -> Option<u64> {
    let mut up = [NONE; CARD_DEPTH as usize];
    let mut cur = summary;
    for slot in up.iter_mut() {
        cur = doc.tree.node(cur).parent;
        if cur == NONE {
            break;
        }
        *slot = cur;
    }
    let mut cur = headline;
    for _ in 0..=CARD_DEPTH + HEADLINE_NESTING {
        cur = doc.tree.node(cur).parent;
        if cur == NONE {
            return None;
        }
        if let Some(k) = up.iter().position(|&a| a == cur) {
            return Some(k as u64 + 1);
        }
    }
    None
}

/// Links that hold a card: [`LINKED_CARD_PIECES`] or more pieces of text (a title and its details, a name and
/// its price) inside one `<a>`. Counted in one forward pass: each node knows its link.
pub(super) fn linked_cards(doc: &Document<'_>) -> usize {
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
            if *p == LINKED_CARD_PIECES {
                cards += 1;
            }
        }
    }
    cards
}
