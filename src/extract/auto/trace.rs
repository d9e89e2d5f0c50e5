//! What `auto` decided on one page ([`Trace`], [`Outcome`]), recorded step by step by
//! [`super::extract_traced`] for `pith explain`.

use super::container::Scores;
use super::marks::{Flags, Marks, mark};
use super::stats::{NodeStats, Stats};
use crate::html::Document;
use crate::html::tree::{Kind, NodeId};

/// What `auto` decided on one page, recorded by [`super::extract_traced`] for `pith explain`.
/// Vectors are indexed by node id; empty when the step that fills them was not reached.
#[derive(Debug, Default)]
pub struct Trace {
    /// Per-element statistics (step 1).
    pub stats: Vec<Stats>,
    /// Boilerplate or hidden, inherited from the ancestors (step 2).
    pub removed: Vec<bool>,
    /// Container scores (step 3), after the tag, class, link and DANAg factors.
    pub score: Vec<f32>,
    /// The best-scoring container.
    pub best: Option<usize>,
    /// The container chosen after climbing to parents.
    pub top: Option<usize>,
    /// The chosen container and the siblings that joined it.
    pub roots: Vec<NodeId>,
    /// Roots of the collected text: `roots` plus recovered prose paragraphs.
    pub is_root: Vec<bool>,
    /// Inside a teaser summary that stayed out (beside an article; see `teasers.rs`).
    pub teaser: Vec<bool>,
    /// Characters chosen and characters of the whole page minus boilerplate and teasers beside
    /// the article (step 6), whatever the outcome.
    pub spread: (u64, u64),
    /// Which rule gave the final selection.
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

impl Trace {
    /// Steps 1 and 2: every node's statistics and whether it was removed.
    pub(super) fn record_removal(&mut self, stats: &NodeStats, removed: &Flags<'_>) {
        self.stats = stats.to_vec();
        self.removed = removed.bools();
    }

    /// Step 3's scores and winner; DANAg's selection is the answer unless a container follows.
    pub(super) fn record_scores(
        &mut self,
        doc: &Document<'_>,
        stats: &NodeStats,
        marks: &Marks,
        scores: &Scores,
    ) {
        let nodes = &doc.tree.nodes;
        self.record_removal(stats, &marks.flag(mark::REMOVED));
        self.score = (0..nodes.len())
            .map(|i| match nodes[i].kind {
                Kind::Text => 0.0,
                _ => scores.by_element[stats.rank(i)],
            })
            .collect();
        self.best = scores.best.map(|b| b.0);
        self.outcome = Outcome::Danag;
    }

    /// Steps 3 to 5: the container, its roots, the collected roots and the teasers left out.
    pub(super) fn record_choice(&mut self, top: usize, roots: &[NodeId], marks: &Marks) {
        (self.top, self.roots, self.outcome) = (Some(top), roots.to_vec(), Outcome::Container);
        self.is_root = marks.flag(mark::ROOT).bools();
        self.teaser = marks.flag(mark::TEASER).bools();
    }

    /// Step 6: the characters chosen and of the whole page, and whether the page spread.
    pub(super) fn record_spread(&mut self, chosen: u64, whole: u64, spread: bool) {
        self.spread = (chosen, whole);
        if spread {
            self.outcome = Outcome::Spread;
        }
    }
}
