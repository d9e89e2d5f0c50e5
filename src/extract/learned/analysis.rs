//! The page's text blocks and `auto`'s reasons per node: what the block model's features
//! ([`super::features`]) and `pith explain`'s report are both drawn from.
//!
//! Blocks are cut where the text renderer cuts lines (every block-level tag but table cells),
//! so a kept block is a line of output. Everything is linear in the page: per-node reasons come
//! from one forward pass over the arena (parents before children), never from walking
//! ancestors per node.

use crate::extract::auto::{self, Outcome, Trace};
use crate::extract::danag;
use crate::extract::{self, Selection};
use crate::html::tags::{Tag, flags};
use crate::html::tree::{Kind, NONE, NodeId, context};
use crate::html::{Document, TokenKind, entities};

/// Kept or dropped, per block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every solid text node of the block selected.
    Kept,
    /// None selected.
    Dropped,
    /// Some selected.
    Partial,
}

/// A run of text nodes between two line boundaries, with the element that holds it.
#[derive(Clone, Debug)]
pub struct Block {
    /// Its text nodes in document order, each with whether the selection has it; a table
    /// cell's boundary is `(NONE, true)`.
    pub nodes: Vec<(NodeId, bool)>,
    /// The nearest block-level element holding its first solid text node.
    pub owner: NodeId,
    /// The DANAg line of its first solid text node.
    pub line: u32,
    /// How much of it the selection has.
    pub status: Status,
    /// Whether the gold text has it, when the caller labels blocks (`pith explain --gold`,
    /// the block table).
    pub gold: Option<bool>,
}

/// One parsed page seen through `auto`'s trace and DANAg's profile: what the block features
/// and the explain report are drawn from.
pub(crate) struct Analysis<'p, 'a> {
    /// The page.
    pub doc: &'p Document<'a>,
    /// The extraction settings the trace was recorded under.
    pub opts: &'p extract::AlgoOptions,
    /// `auto`'s trace (`None` for another algorithm).
    pub trace: Option<&'p Trace>,
    /// DANAg's profile.
    pub profile: &'p danag::Profile,
    /// The line each token starts on.
    pub token_lines: &'p [u32],
    /// DANAg's regions.
    pub choice: &'p danag::Choice,
}

impl Analysis<'_, '_> {
    /// DANAg's smoothed value of `line` (0 past the profile).
    pub(crate) fn diff(&self, line: usize) -> i64 {
        if line < self.profile.content.len() {
            danag::smoothed(self.profile, line)
        } else {
            0
        }
    }

    /// The page's text blocks, cut as the text renderer cuts lines; blank-only runs left out.
    pub(crate) fn blocks(&self, sel: &Selection) -> Vec<Block> {
        let doc = self.doc;
        let mut selected = vec![false; doc.tree.nodes.len()];
        for &id in &sel.nodes {
            if let Some(s) = selected.get_mut(id as usize) {
                *s = true;
            }
        }
        let mut blocks = Vec::new();
        let mut cur: Vec<(NodeId, bool)> = Vec::new();
        // The line of the block's first non-blank text: where DANAg counted it.
        let mut first_line: Option<u32> = None;
        let flush = |cur: &mut Vec<(NodeId, bool)>, line: u32, blocks: &mut Vec<Block>| {
            let solid: Vec<bool> = cur
                .iter()
                .filter(|(id, _)| self.solid(*id))
                .map(|&(_, k)| k)
                .collect();
            if !solid.is_empty() {
                let status = if solid.iter().all(|&k| k) {
                    Status::Kept
                } else if solid.iter().any(|&k| k) {
                    Status::Partial
                } else {
                    Status::Dropped
                };
                let first = cur
                    .iter()
                    .find(|(id, _)| self.solid(*id))
                    .map_or(NONE, |x| x.0);
                blocks.push(Block {
                    nodes: std::mem::take(cur),
                    owner: self.owner(first),
                    line,
                    status,
                    gold: None,
                });
            }
            cur.clear();
        };
        for (i, tok) in doc.tokens().enumerate() {
            if tok.node == NONE {
                continue;
            }
            let node = doc.tree.node(tok.node);
            match tok.kind {
                TokenKind::StartTag | TokenKind::EndTag => {
                    if matches!(node.tag, Tag::Td | Tag::Th) {
                        // The renderer separates cells of a row by a tab: a marker here.
                        if !cur.is_empty() {
                            cur.push((NONE, true));
                        }
                    } else if node.tag.is(flags::BLOCK) {
                        flush(&mut cur, first_line.take().unwrap_or(0), &mut blocks);
                    }
                }
                TokenKind::Text => {
                    if node.context() & context::HIDDEN != 0 {
                        continue;
                    }
                    if first_line.is_none() && self.solid(tok.node) {
                        first_line = self.token_lines.get(i).copied();
                    }
                    cur.push((tok.node, selected[tok.node as usize]));
                }
            }
        }
        flush(&mut cur, first_line.take().unwrap_or(0), &mut blocks);
        blocks
    }

    /// The block's text, entities decoded, cells separated by tabs.
    pub(crate) fn block_text(&self, b: &Block) -> String {
        let mut s = String::new();
        for &(id, _) in &b.nodes {
            if id == NONE {
                s.push('\t');
            } else {
                entities::decode_into(self.doc.raw_text(id), &mut s);
            }
        }
        s
    }

    /// A text node with more than blanks (not a cell marker).
    pub(crate) fn solid(&self, id: NodeId) -> bool {
        id != NONE && !self.doc.raw_text(id).trim().is_empty()
    }

    /// The nearest block-level element holding a text node (its parent when none is).
    pub(crate) fn owner(&self, text: NodeId) -> NodeId {
        let tree = &self.doc.tree;
        if text == NONE {
            return NONE;
        }
        let parent = tree.node(text).parent;
        // Bounded: an inline chain deeper than this is reported at its innermost element.
        tree.ancestors(text)
            .take(64)
            .find(|&a| tree.node(a).kind == Kind::Element && tree.node(a).tag.is(flags::BLOCK))
            .unwrap_or(parent)
    }

    /// Per node: the ancestor-or-self that removed it (boilerplate or hidden), the chosen root
    /// it lies under, and the link-list block that cut it off; one forward pass.
    pub(crate) fn node_reasons(&self) -> Reasons {
        let nodes = &self.doc.tree.nodes;
        let n = nodes.len();
        let mut r = Reasons {
            is_sibling_root: vec![false; n],
            hints: Default::default(),
            removed_at: vec![NONE; n],
            root_of: vec![NONE; n],
            link_list_at: vec![NONE; n],
        };
        let Some(t) = self.trace else { return r };
        for &root in &t.roots {
            if let Some(x) = r.is_sibling_root.get_mut(root as usize) {
                *x = true;
            }
        }
        let tuning = self.opts.tuning();
        let body = nodes.iter().position(|n| n.tag == Tag::Body);
        for i in 1..n {
            let p = nodes[i].parent as usize;
            let removed = t.removed.get(i).copied().unwrap_or(false);
            r.removed_at[i] = nearest(r.removed_at[p], removed, i);
            let is_root = match t.outcome {
                Outcome::Spread => Some(i) == body || (body.is_none() && p == 0),
                _ => t.is_root.get(i).copied().unwrap_or(false),
            };
            r.root_of[i] = nearest(r.root_of[p], is_root, i);
            r.link_list_at[i] = r.link_list_at[p];
            if r.link_list_at[i] == NONE && r.root_of[p] != NONE && nodes[i].kind == Kind::Element {
                let s = t.stats.get(i).copied().unwrap_or_default();
                if nodes[i].tag.is(flags::BLOCK)
                    && s.text > 0
                    && s.link_density() > tuning.link_list_density
                {
                    r.link_list_at[i] = i as NodeId;
                }
            }
        }
        r
    }

    /// `auto`'s class/id verdict and hidden flag of an element, read once per element.
    pub(crate) fn hints(&self, r: &Reasons, id: NodeId) -> (i8, bool) {
        *r.hints
            .borrow_mut()
            .entry(id)
            .or_insert_with(|| auto::element_hints(self.doc, id, self.opts.comments))
    }

    /// The line lies in DANAg's selected regions.
    pub(crate) fn in_danag(&self, line: u32) -> bool {
        let line = line as usize;
        // The regions are disjoint and in order: a binary search, not a scan per block.
        let sel = self
            .choice
            .regions
            .get(self.choice.joined.clone())
            .unwrap_or_default();
        let k = sel.partition_point(|r| r.1 < line);
        sel.get(k).is_some_and(|r| r.0 <= line)
    }
}

/// How many blocks [`Analysis::blocks`] cuts from the page, counted up to `stop` (the count
/// stops there): the same walk without a selection, a block list or DANAg's lines, so that
/// whether the model reads a page is known before anything per block is built.
pub(crate) fn count_blocks(doc: &Document<'_>, stop: usize) -> usize {
    let solid = |id: NodeId| !doc.raw_text(id).trim().is_empty();
    let (mut blocks, mut open) = (0usize, false);
    for tok in doc.tokens() {
        if tok.node == NONE {
            continue;
        }
        let node = doc.tree.node(tok.node);
        match tok.kind {
            TokenKind::StartTag | TokenKind::EndTag => {
                if !matches!(node.tag, Tag::Td | Tag::Th) && node.tag.is(flags::BLOCK) && open {
                    blocks += 1;
                    open = false;
                    if blocks > stop {
                        return blocks;
                    }
                }
            }
            TokenKind::Text => {
                if node.context() & context::HIDDEN == 0 && solid(tok.node) {
                    open = true;
                }
            }
        }
    }
    blocks + usize::from(open)
}

/// What a node inherits on the way down: its parent's mark (the nearest marked ancestor), else
/// itself when it is marked, else none.
fn nearest(parent: NodeId, marked: bool, i: usize) -> NodeId {
    if parent != NONE {
        parent
    } else if marked {
        i as NodeId
    } else {
        NONE
    }
}

/// Per-node reasons of `auto` (see [`Analysis::node_reasons`]).
pub(crate) struct Reasons {
    /// The container's joined siblings, by node.
    pub is_sibling_root: Vec<bool>,
    /// `auto::element_hints` per element asked about: an element with 100,000 attributes may
    /// own many blocks, and each block must not read them again.
    pub hints: std::cell::RefCell<std::collections::HashMap<NodeId, (i8, bool)>>,
    /// The ancestor-or-self that removed the node (boilerplate or hidden).
    pub removed_at: Vec<NodeId>,
    /// The chosen root the node lies under.
    pub root_of: Vec<NodeId>,
    /// The link-list block that cut the node off.
    pub link_list_at: Vec<NodeId>,
}
