//! Step 3: the main container. Paragraph-like blocks with enough text vote for their parent
//! (fully) and grandparent (half), by their length and commas, the way Readability scores
//! candidates (Mozilla Readability, `_grabArticle`); a candidate's score is scaled by its share
//! of non-link text and by how much of its text DANAg's densest region covers ([`score`]).
//! From the winner, [`choose`] moves to the ancestor that runners-up share, climbs while the
//! parent holds clearly more prose, decides whether it is an article (teasers stay out) or a
//! listing, and lets siblings that score close to it, or that are plain paragraphs, join it.

use super::marks::{Flags, Marks, mark};
use super::rules::{
    self, ARTICLE_MIN_CHARS, CLASS_WEIGHT, CLIMB_MAX_LINK_DENSITY, CLIMB_PROSE_GAIN,
    CONTAINER_MIN_TEXT, DANAG_COVER_BASE, GRANDPARENT_DIVIDER, LEADERS, LISTING_TEASER_SHARE,
    PARAGRAPH_MIN_TEXT, PROSE_MAX_LINK_DENSITY, RIVAL_SHARE, RIVALS_SHARING, SENTENCE_ENDS,
    SIBLING_MIN_SCORE, SIBLING_P_MAX_LINK_DENSITY, SIBLING_P_MIN_TEXT, SIBLING_SCORE_SHARE,
    VOTE_BASE, VOTE_CHARS_PER_POINT, VOTE_LENGTH_POINTS_MAX,
};
use super::stats::NodeStats;
use super::{Rule, Tuning};
use crate::html::Document;
use crate::html::tags::Tag;
use crate::html::tree::{Kind, NONE, NodeId, context};

/// The candidates' scores.
pub(super) struct Scores {
    /// Each element's score, indexed by element (only elements and the document get votes),
    /// after the tag, class, link and DANAg factors.
    pub(super) by_element: Vec<f32>,
    /// The best-scoring candidate and its score.
    pub(super) best: Option<(usize, f32)>,
    /// The best candidate's score before the DANAg factor (Readability's own score).
    best_readability: f32,
    /// The best few candidates by that score, best first, for the common-ancestor rule.
    leaders: Vec<(usize, f32)>,
}

impl Scores {
    /// The winner and its score, when it has text enough to be a container.
    pub(super) fn winner(&self, stats: &NodeStats) -> Option<(usize, f32)> {
        self.best
            .filter(|&(top, _)| stats.get(top).text >= CONTAINER_MIN_TEXT)
    }
}

/// The chosen container.
pub(super) struct Container {
    /// The container itself.
    pub(super) top: usize,
    /// The container and the siblings that joined it, in document order.
    pub(super) roots: Vec<NodeId>,
}

/// Candidate containers scored by their paragraphs. Flags paragraph-like elements in
/// `PARAGRAPH`; `hint` is each element's class/id verdict (step 2), dropped once read.
pub(super) fn score(
    doc: &Document<'_>,
    tuning: &Tuning,
    stats: &NodeStats,
    hint: Vec<i8>,
    marks: &Marks,
) -> Scores {
    let off = tuning.off;
    let nodes = &doc.tree.nodes;
    let removed = marks.flag(mark::REMOVED);
    let block_child = marks.flag(mark::BLOCK_CHILD);
    let mut score = vec![0f32; stats.ranks.count];
    let is_paragraph = marks.flag(mark::PARAGRAPH);
    stats.for_each_element(|i, r, node| {
        if removed.get(i) {
            return;
        }
        let paragraph_like = rules::paragraph_tag(node.tag)
            || (rules::leaf_paragraph_tag(node.tag) && !block_child.get(i));
        is_paragraph.assign(i, paragraph_like);
        let s = stats.element(r);
        if !paragraph_like || s.text < PARAGRAPH_MIN_TEXT {
            return;
        }
        let vote = VOTE_BASE
            + s.commas as f32
            + (s.text / VOTE_CHARS_PER_POINT).min(VOTE_LENGTH_POINTS_MAX) as f32;
        let parent = node.parent as usize;
        score[stats.rank(parent)] += vote;
        let grand = nodes[parent].parent;
        if grand != NONE {
            score[stats.rank(grand as usize)] += vote / GRANDPARENT_DIVIDER;
        }
    });
    let mut best: Option<(usize, f32)> = None;
    let mut best_readability = 0f32;
    let mut leaders: Vec<(usize, f32)> = Vec::with_capacity(LEADERS + 1);
    stats.for_each_element(|i, r, node| {
        if score[r] <= 0.0 || removed.get(i) {
            return;
        }
        let s = &stats.element(r);
        let tag_prior = if off.has(Rule::TagPrior) {
            0.0
        } else {
            rules::tag_prior(node.tag)
        };
        let class_prior = if off.has(Rule::ClassPrior) {
            0.0
        } else {
            f32::from(hint[r]) * CLASS_WEIGHT
        };
        // Without the rule, every candidate is scaled as if DANAg selected all its text.
        let danag_cover = if off.has(Rule::DanagCover) {
            1.0
        } else if s.text == 0 {
            0.0
        } else {
            s.danag as f32 / s.text as f32
        };
        let readability = (score[r] + tag_prior + class_prior) * (1.0 - s.link_density());
        let total = readability * (DANAG_COVER_BASE + danag_cover);
        score[r] = total;
        if best.is_none_or(|(_, b)| total > b) {
            best = Some((i, total));
            best_readability = readability;
        }
        // The runners-up, for the common-ancestor rule: the best few, kept sorted.
        if readability > 0.0
            && (leaders.len() < LEADERS || leaders.last().is_some_and(|&(_, b)| readability > b))
        {
            let at = leaders.partition_point(|&(_, b)| b >= readability);
            leaders.insert(at, (i, readability));
            leaders.truncate(LEADERS);
        }
    });
    drop(hint);
    Scores {
        by_element: score,
        best,
        best_readability,
        leaders,
    }
}

/// From the winner `(top, top_score)` of `scores` to the container and its siblings. Clears
/// `TEASER` when the container is no article (teasers are a listing's content).
pub(super) fn choose(
    doc: &Document<'_>,
    tuning: &Tuning,
    stats: &NodeStats,
    marks: &Marks,
    scores: Scores,
    (top, top_score): (usize, f32),
) -> Container {
    let nodes = &doc.tree.nodes;
    let removed = marks.flag(mark::REMOVED);
    let is_paragraph = marks.flag(mark::PARAGRAPH);
    let teaser = marks.flag(mark::TEASER);
    let Scores {
        by_element: score,
        best_readability,
        leaders,
        ..
    } = scores;

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
    if !tuning.off.has(Rule::CommonAncestor)
        && best_readability > 0.0
        && rivals.len() >= RIVALS_SHARING
    {
        // Up from the winner, each ancestor's subtree (a range of ids) is tested against the
        // few runners-up: no per-node memory, linear in the depth.
        let mut a = nodes[top].parent as usize;
        while a != 0 && !rules::page_tag(nodes[a].tag) && !removed.get(a) {
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
            .filter(|s| s.text >= PARAGRAPH_MIN_TEXT && s.link_density() < PROSE_MAX_LINK_DENSITY)
            .map(|s| u64::from(s.text))
            .sum()
    };
    let mut run = doc.tree.subtree(top as NodeId);
    let mut prose_top = voting_prose(run.clone());
    while !tuning.off.has(Rule::Climb) {
        let p = nodes[top].parent as usize;
        if p == 0 || rules::page_tag(nodes[p].tag) || removed.get(p) {
            break;
        }
        let parent_run = doc.tree.subtree(p as NodeId);
        let prose_parent = prose_top
            + voting_prose(parent_run.start..run.start)
            + voting_prose(run.end..parent_run.end);
        if CLIMB_PROSE_GAIN.reached(prose_parent, prose_top)
            && stats.get(p).link_density() < CLIMB_MAX_LINK_DENSITY
        {
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
        && !LISTING_TEASER_SHARE.reached(teaser_text(top, &teaser), u64::from(stats.get(top).text));
    if !article {
        teaser.clear();
    }

    // Siblings that belong with the winner (Readability's sibling rule), but not a list of
    // teasers beside an article.
    let parent = nodes[top].parent;
    let threshold = (top_score * SIBLING_SCORE_SHARE).max(SIBLING_MIN_SCORE);
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
            t > 0 && LISTING_TEASER_SHARE.reached(t, u64::from(s.text))
        };
        if tuning.off.has(Rule::Siblings) || (article && mostly_teasers()) {
            continue;
        }
        let keep = score[stats.rank(i)] >= threshold
            || (nodes[i].tag == Tag::P
                && s.text > SIBLING_P_MIN_TEXT
                && s.link_density() < SIBLING_P_MAX_LINK_DENSITY)
            || (nodes[i].tag == Tag::P && s.text > 0 && s.link == 0 && ends_sentence(doc, sib));
        if keep {
            roots.push(sib);
        }
    }
    drop(score);
    Container { top, roots }
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

/// The element's text ends like a sentence (one of [`SENTENCE_ENDS`]).
fn ends_sentence(doc: &Document<'_>, id: NodeId) -> bool {
    let text = doc.text_of(id);
    text.ends_with(SENTENCE_ENDS)
}
