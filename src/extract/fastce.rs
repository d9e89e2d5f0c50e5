//! FastContentExtractor's detection phase (Nguyen et al. 2009, Section III, Figure 5): extracts
//! a page of a learned site with its [`Template`], in document order.
//!
//! Only blocks whose path is in the template's set P are extracted, with the paper's rules for
//! a block B in P and its sub-blocks:
//!
//! - a sub-block whose path is in P is extracted as a block of its own (so that when all
//!   sub-blocks of B are in P, the whole of B is extracted, and no text twice);
//! - a sub-block B' not in P is extracted with B when some sub-block of B' is in P, and left out
//!   when none is ("block B is extracted without B'"); the same rule applies inside B'.
//!
//! Each extracted block is compared with the stored non-content blocks of its path; one similar
//! to any of them (cosine above the template's threshold, 0.9) is non-content, the others are
//! content and their text is the output, in page order. Comparing only within a path is what the
//! template's paths are for (Section III: two blocks may share a path, so the non-content ones
//! at content paths are stored to tell them apart).
//!
//! Beyond the paper: when less than the template's `min_match` share of the page's text blocks
//! have a path any training page had, or nothing is extracted, the page is not of the learned
//! layout (another section of the site, a redesign) and [`detect`] returns `None`, for `auto`.
//!
//! Also beyond the paper, [`with_auto`] combines the template with `auto` (what `--templates`
//! runs, `fastce+auto`): the two methods miss different boilerplate. The template only knows
//! blocks that repeat across a site's pages, so page-varying boilerplate at content paths
//! (headline lists, "see also" links, comment threads, teaser boxes beside the article) stays;
//! `auto` only knows what one page shows, so boilerplate that looks like prose on that page
//! (a repeated promo paragraph, a standard disclaimer) stays. A text node is main content when
//! both say so.

use super::Selection;
use super::blocks::{self, NO_BLOCK, similar};
use crate::html::Document;
use crate::html::tree::NodeId;
use crate::template::Template;

/// What detection found, with the counts the paper's Table II reports.
#[derive(Debug, Default)]
pub struct Detected {
    /// The content text nodes, or `None` when the page does not match the template.
    pub selection: Option<Selection>,
    /// Blocks extracted by the paths of P (the paper's NumBlock for FastCE).
    pub blocks: usize,
    /// Stored non-content blocks compared with (at most the template's; NumBlockTemp).
    pub compared: usize,
    /// Share of the page's blocks with a known path.
    pub matched: f32,
}

/// Runs the detection phase on a parsed page.
pub fn detect(doc: &Document<'_>, tpl: &Template) -> Detected {
    let pb = blocks::blocks(&doc.tree);
    let nb = pb.blocks.len();
    // The layout match: the share of the page's blocks at paths the training pages had.
    let known = pb.blocks.iter().filter(|b| tpl.knows(b.path)).count();
    let matched = known as f32 / nb.max(1) as f32;
    let mut out = Detected {
        matched,
        ..Detected::default()
    };
    if matched < tpl.min_match {
        return out;
    }
    // Section III's rules: in_p per block, then whether some direct sub-block is in P.
    let in_p: Vec<bool> = pb.blocks.iter().map(|b| tpl.in_p(b.path)).collect();
    let mut has_p_sub = vec![false; nb];
    for (b, block) in pb.blocks.iter().enumerate().skip(1) {
        if in_p[b]
            && let Some(slot) = has_p_sub.get_mut(block.parent as usize)
        {
            *slot = true;
        }
    }
    // The extracted block each block's own content goes to (NO_BLOCK: not extracted). Blocks
    // are in document order, parents first.
    let mut unit = vec![NO_BLOCK; nb];
    let mut units: Vec<u64> = Vec::new(); // path of each extracted block
    for (b, block) in pb.blocks.iter().enumerate() {
        unit[b] = if in_p[b] {
            units.push(block.path);
            (units.len() - 1) as u32
        } else if has_p_sub[b] {
            // B' not in P with a sub-block in P: extracted with its enclosing extracted block.
            unit.get(block.parent as usize).copied().unwrap_or(NO_BLOCK)
        } else {
            NO_BLOCK
        };
    }
    let feats = blocks::features(doc, units.len(), |i| {
        let owner = pb.owner.get(i).copied().unwrap_or(0) as usize;
        unit.get(owner).copied().unwrap_or(NO_BLOCK)
    });
    // Compare each extracted block with the stored non-content blocks of its path.
    let mut content = vec![false; units.len()];
    let mut words = 0u32;
    // A bound on cosines per page: a hostile page of a million blocks at one content path
    // must not multiply with the stored blocks of that path. Past it, blocks are compared by
    // fingerprint only. Real pages stay far below (msv_big9: 340 stored blocks per page).
    let mut budget: usize = 1 << 20;
    for (u, (path, f)) in units.iter().zip(&feats).enumerate() {
        if f.is_empty() {
            continue;
        }
        out.blocks += 1;
        let mut stored = tpl.noncontent_at(*path);
        if stored.len() > budget {
            stored = &[];
        }
        budget -= stored.len();
        out.compared += stored.len();
        // Section III's comparison, within the path; and, beyond the paper, a block identical
        // to a non-content block found at any other path in training (a footer line the site
        // moved between pages) is non-content too.
        content[u] = !tpl.known_noncontent(f.fingerprint())
            && !stored.iter().any(|(_, s)| similar(f, s, tpl.similarity));
        if content[u] {
            words = words.saturating_add(f.words());
        }
    }
    if words.saturating_mul(2) < tpl.min_words {
        return out;
    }
    let nodes = blocks::text_nodes(doc, |i| {
        let owner = pb.owner.get(i).copied().unwrap_or(0) as usize;
        let u = unit.get(owner).copied().unwrap_or(NO_BLOCK);
        content.get(u as usize).copied().unwrap_or(false)
    });
    if !nodes.is_empty() {
        out.selection = Some(Selection { nodes });
    }
    out
}

/// Combines the template's selection with `auto`'s on the same page: the text nodes both
/// selected, in document order, labelled `fastce+auto`. When they agree on less than half of
/// `auto`'s text (in characters), the two point at different parts of the page: the template
/// matched the layout but not where this page keeps its content (a page of another kind under
/// the same paths, a block moved), so `auto`'s selection alone is the answer, labelled `auto`,
/// as for a page that does not match the template. Half is the majority rule the template's
/// other fallbacks use. When `auto` selects nothing, the template's selection stands (`fastce`).
pub fn with_auto(
    doc: &Document<'_>,
    template: Selection,
    auto: Selection,
) -> (Selection, &'static str) {
    let chars = |id: NodeId| doc.raw_text(id).trim().len() as u64;
    let mut in_template = vec![false; doc.tree.nodes.len()];
    for &id in &template.nodes {
        if let Some(slot) = in_template.get_mut(id as usize) {
            *slot = true;
        }
    }
    let of_template = |id: &NodeId| in_template.get(*id as usize).copied().unwrap_or(false);
    let auto_chars: u64 = auto.nodes.iter().map(|&id| chars(id)).sum();
    let both_chars: u64 = auto
        .nodes
        .iter()
        .filter(|id| of_template(id))
        .map(|&id| chars(id))
        .sum();
    if auto_chars == 0 {
        return (template, "fastce");
    }
    if both_chars * 2 < auto_chars {
        return (auto, "auto");
    }
    let nodes = auto
        .nodes
        .into_iter()
        .filter(|id| of_template(id))
        .collect();
    (Selection { nodes }, "fastce+auto")
}
