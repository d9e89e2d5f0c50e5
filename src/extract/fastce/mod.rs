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
//! Beyond the paper, a sub-block B' at a path no training page had is extracted with B too:
//! the template has no evidence about it, and such blocks are mostly parts of the article the
//! training pages did not happen to show (a quotation, a list, a table), which the paper's
//! rule drops. Outside an extracted block such a path stays out (a widget of a redesign). On
//! msv_big9 this raised FastCE from 0.885 to 0.890 and FastCE+auto from 0.946 to 0.947
//! same-year (bag-of-words F1), and left FastCE+auto across years at 0.933.
//!
//! Beyond the paper, a block B' not in P and without sub-blocks in P that lies between two
//! sub-blocks in P of its enclosing block is extracted as a block of its own. The rules
//! above decide B' by its sub-blocks alone, and only inside a block in P; but the container
//! of an article is seldom in P itself (its own content is empty, the text is in its
//! paragraphs), so the other blocks between its paragraphs are in no extracted block and
//! are dropped unseen. Among them is article text the training pages did not show in that
//! form: a bullet list between the paragraphs (bbc 2010), paragraphs written as `<div>` where
//! the training pages used `<p>` (esquire 2015). What lies between blocks at content paths is
//! in the flow of the content, so it is judged rather than dropped; what lies before the
//! first or after the last (a widget at the end of the page) stays out. No block is stored
//! at its path (it is not in P), so it is compared by fingerprint with every non-content
//! block of training (a repeated box or ad slot is identical to one) and is content
//! otherwise; with `auto` the intersection then keeps only what `auto` also selects. On
//! msv_big9 (`--templates`, same-year, bag-of-words F1) this took one template per
//! site-year from 0.9475 to 0.9481 and the clustered templates `pith learn` writes from
//! 0.9498 to 0.9502; FastCE alone (0.889), across years (0.935) and pooled years
//! (0.944 / 0.942) are unchanged. Without the between test (every such B' beside a block in
//! P) same-year was the same but FastCE alone across years fell to 0.908 and pooled years to
//! 0.943 / 0.941; extracting every B' with its block instead, unjudged, had given 0.9462.
//!
//! Each extracted block is compared with the stored non-content blocks of its path; one similar
//! to any of them (cosine above the template's threshold, 0.9) is non-content, the others are
//! content and their text is the output, in page order. A block at a path with no stored
//! non-content block is content without its vector being looked at (there is nothing to
//! compare it with), so with `auto`'s focus its terms are not even hashed: on msv_big9 that
//! took the extra instructions of `--templates` over `auto` from 125 M to 99 M over the 400
//! held-out pages (`examples/templates_profile.rs` under callgrind). Comparing only within a path is what the
//! template's paths are for (Section III: two blocks may share a path, so the non-content ones
//! at content paths are stored to tell them apart).
//!
//! Beyond the paper, a block identical to a non-content block the training pages had at any
//! other path (its vector's fingerprint) is non-content too, at paths with stored blocks; at
//! the others the rule above stands (same-year bag-of-words F1 0.9477 → 0.9474 when it
//! stopped applying there).
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
//! both say so. `auto` runs first, so detection hashes the terms of only the extracted blocks
//! that hold text `auto` selected ([`with_template`]).

pub(crate) mod model;

use std::ops::Range;

use super::blocks::{self, NO_BLOCK, PageBlocks};
use super::{Selection, auto};
use crate::html::Document;
use crate::html::tree::NodeId;
use model::Template;

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
    let class = classify(&pb, tpl);
    let mut out = Detected {
        matched: layout_match(&class),
        ..Detected::default()
    };
    if out.matched >= tpl.min_match {
        judge(doc, tpl, &pb, &class, None, &mut out);
    }
    out
}

/// A block's path is one a training page had.
const KNOWN: u8 = 1;
/// A block's path is in P.
const IN_P: u8 = 2;

/// What the template knows of each block's path ([`KNOWN`], [`IN_P`]), indexed like the
/// blocks: the template is asked once per distinct path of the page, not once per block.
/// A page has few distinct paths (msv_big9: 289 blocks in 189 runs of one path, but 54
/// distinct paths a page), and each question is two binary searches over arrays of a template
/// that is seldom in cache (pages of many hosts come in turn), so they cost more than the
/// rest of the walk: a small table of the answers (open addressing, [`PATH_SLOTS`] slots on
/// the stack, indexed by the path hash's top bits) serves the repeats. A path whose probe
/// runs past [`PATH_PROBES`] slots is asked of the template directly, so a page of more
/// distinct paths than slots (or of colliding ones) costs at most the old lookups.
fn classify(pb: &PageBlocks, tpl: &Template) -> Vec<u8> {
    let mut paths = [0u64; PATH_SLOTS];
    // A slot's class with [`FILLED`] set; 0: empty.
    let mut classes = [0u8; PATH_SLOTS];
    let ask = |path: u64| {
        (if tpl.knows(path) { KNOWN } else { 0 }) | if tpl.in_p(path) { IN_P } else { 0 }
    };
    pb.blocks
        .iter()
        .map(|b| {
            // Fibonacci hashing: the top bits of the product depend on every bit of the path.
            let mut slot = (b.path.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56) as usize;
            for _ in 0..PATH_PROBES {
                let i = slot % PATH_SLOTS;
                match classes.get(i).copied().unwrap_or(0) {
                    0 => {
                        let class = ask(b.path);
                        if let (Some(p), Some(c)) = (paths.get_mut(i), classes.get_mut(i)) {
                            *p = b.path;
                            *c = class | FILLED;
                        }
                        return class;
                    }
                    c if paths.get(i) == Some(&b.path) => return c & !FILLED,
                    _ => slot += 1,
                }
            }
            ask(b.path)
        })
        .collect()
}

/// Slots of [`classify`]'s table (the shift by 56 there gives indices below 256).
const PATH_SLOTS: usize = 256;
/// Slots a path is looked for in before [`classify`] asks the template instead.
const PATH_PROBES: usize = 8;
/// Marks a filled slot of [`classify`]'s table.
const FILLED: u8 = 0x80;

/// The layout match: the share of the page's blocks at paths the training pages had.
fn layout_match(class: &[u8]) -> f32 {
    let known = class.iter().filter(|&&c| c & KNOWN != 0).count();
    known as f32 / class.len().max(1) as f32
}

/// An extracted block of [`judge`].
struct Unit {
    /// Its element.
    node: NodeId,
    /// A block between blocks in P (module comment), judged by its fingerprint only.
    between: bool,
    /// The stored non-content blocks of its path, a range of the template's (empty for a
    /// block between blocks in P: its path is not in P).
    stored: Range<usize>,
}

impl Unit {
    /// Whether its vector can make it non-content: it is judged by fingerprint, or blocks are
    /// stored at its path. Other blocks are content whatever their vector.
    fn judged(&self) -> bool {
        self.between || !self.stored.is_empty()
    }
}

/// Section III's extracted blocks: the block each block's own content goes to (`NO_BLOCK`:
/// not extracted), by block, and the extracted blocks ([`Unit`]) in document order. A block
/// in P is one; a block not in P with a sub-block in P, or at a path no training page had,
/// goes with its enclosing extracted block; beyond the paper, a block without sub-blocks in P
/// between two sub-blocks in P of its enclosing block is one of its own (module comment).
fn extracted_units(tpl: &Template, pb: &PageBlocks, class: &[u8]) -> (Vec<u32>, Vec<Unit>) {
    let nb = pb.blocks.len();
    let in_p = |b: usize| class.get(b).is_some_and(|&c| c & IN_P != 0);
    // Section III's rules: in_p per block, then whether some direct sub-block is in P: the
    // first and the last such sub-block of each block (block indices, in document order;
    // NO_BLOCK when none), which also tell the sub-blocks lying between two in P.
    let mut p_subs = vec![(NO_BLOCK, NO_BLOCK); nb];
    for (b, block) in pb.blocks.iter().enumerate().skip(1) {
        if in_p(b)
            && let Some(slot) = p_subs.get_mut(block.parent as usize)
        {
            if slot.0 == NO_BLOCK {
                slot.0 = b as u32;
            }
            slot.1 = b as u32;
        }
    }
    let has_p_sub = |b: usize| p_subs.get(b).is_some_and(|s| s.0 != NO_BLOCK);
    // A block's whole subtree comes before its next sibling, so a sub-block lies between two
    // sub-blocks in P when its index does.
    let between_p = |b: usize, parent: usize| {
        p_subs.get(parent).is_some_and(|&(first, last)| {
            first != NO_BLOCK && first < b as u32 && (b as u32) < last
        })
    };
    // The extracted block each block's own content goes to (NO_BLOCK: not extracted). Blocks
    // are in document order, parents first.
    let mut unit = vec![NO_BLOCK; nb];
    // At most one a block; room for all from the start rather than a copy at each doubling.
    let mut units: Vec<Unit> = Vec::with_capacity(nb);
    // The stored blocks of the last path looked up: blocks in P come in runs of one path
    // (paragraphs, list items), and a lookup is two binary searches in the template.
    let mut last: Option<(u64, Range<usize>)> = None;
    let mut stored_at = |path: u64| match &last {
        Some((p, r)) if *p == path => r.clone(),
        _ => {
            let r = tpl.noncontent_range(path);
            last = Some((path, r.clone()));
            r
        }
    };
    for (b, block) in pb.blocks.iter().enumerate() {
        let parent = block.parent as usize;
        unit[b] = if in_p(b) {
            units.push(Unit {
                node: block.node,
                between: false,
                stored: stored_at(block.path),
            });
            (units.len() - 1) as u32
        } else if !has_p_sub(b) && between_p(b, parent) {
            // Beyond the paper: a B' without sub-blocks in P between two sub-blocks in P of
            // its enclosing block is in the flow of the content (module comment): a block of
            // its own.
            units.push(Unit {
                node: block.node,
                between: true,
                stored: 0..0,
            });
            (units.len() - 1) as u32
        } else if has_p_sub(b) || class.get(b).is_some_and(|&c| c & KNOWN == 0) {
            // B' not in P with a sub-block in P: extracted with its enclosing extracted block.
            // Beyond the paper, so is a B' at a path no training page had (module comment).
            unit.get(parent).copied().unwrap_or(NO_BLOCK)
        } else {
            NO_BLOCK
        };
    }
    (unit, units)
}

/// Section III's extraction and comparison, filling `out.selection` (unless the page finds too
/// few content words), `out.blocks` and `out.compared`. With `focus` (text nodes in document
/// order, another method's selection), only the extracted blocks holding a node of it are
/// judged, and the selection is the focus nodes in content blocks: when the template's answer
/// is intersected with the focus, the other blocks cannot change the result, so their terms
/// are never hashed and the rest of the page is not walked again.
fn judge(
    doc: &Document<'_>,
    tpl: &Template,
    pb: &PageBlocks,
    class: &[u8],
    focus: Option<&[NodeId]>,
    out: &mut Detected,
) {
    let (unit, units) = extracted_units(tpl, pb, class);
    let unit_of = |i: usize| {
        let owner = pb.owner.get(i).copied().unwrap_or(0) as usize;
        unit.get(owner).copied().unwrap_or(NO_BLOCK)
    };
    let mut content = vec![false; units.len()];
    let mut words = 0u32;
    blocks::with_vectors(|vectors| {
        match focus {
            None => {
                let all = 0..doc.tree.nodes.len();
                vectors.collect(doc, units.len(), std::slice::from_ref(&all), unit_of);
            }
            Some(focus) => {
                // The extracted blocks holding a focus node, and the parts of the tree they
                // span: an extracted block's own content lies in its element's subtree, so
                // the union of those subtrees (nested ones inside their outer one: each node
                // walked once). Blocks at a path without stored non-content blocks are
                // content whatever their vector (below), so their terms are not hashed
                // either. Blocks between blocks in P are judged by their fingerprint, so
                // they are hashed.
                let mut wanted = vec![false; units.len()];
                for &id in focus {
                    let u = unit_of(id as usize) as usize;
                    if let (Some(w), Some(unit)) = (wanted.get_mut(u), units.get(u))
                        && unit.judged()
                    {
                        *w = true;
                    }
                }
                let mut spans: Vec<Range<usize>> = Vec::with_capacity(units.len());
                for unit in units
                    .iter()
                    .zip(&wanted)
                    .filter(|(_, w)| **w)
                    .map(|(u, _)| u)
                {
                    let span = doc.tree.subtree(unit.node);
                    match spans.last_mut() {
                        // Units are in document order: a span starting inside the last one
                        // is nested in it.
                        Some(last) if span.start < last.end => last.end = last.end.max(span.end),
                        _ => spans.push(span),
                    }
                }
                vectors.collect(doc, units.len(), &spans, |i| {
                    let u = unit_of(i);
                    if wanted.get(u as usize).copied().unwrap_or(false) {
                        u
                    } else {
                        NO_BLOCK
                    }
                });
            }
        }
        // Compare each extracted block with the stored non-content blocks of its path. Each
        // block's vector is counted (`None`: it has no feature) and compared in place.
        // A bound on cosines per page: a hostile page of a million blocks at one content path
        // must not multiply with the stored blocks of that path. Past it, blocks are compared
        // by fingerprint only. Real pages stay far below (msv_big9: 340 stored blocks per
        // page).
        let mut budget: usize = 1 << 20;
        for (u, unit) in units.iter().enumerate() {
            let f = vectors.count(u);
            if unit.between {
                // Its path is not in P, so no block is stored there to compare it with: it
                // is non-content when identical to a non-content block of training (a
                // repeated box, an ad slot), and content otherwise.
                let Some(f) = f else {
                    continue;
                };
                out.blocks += 1;
                content[u] = !tpl.known_noncontent(f.fingerprint);
                if content[u] {
                    words = words.saturating_add(f.words);
                }
                continue;
            }
            let mut stored = tpl.noncontent.get(unit.stored.clone()).unwrap_or(&[]);
            if stored.is_empty() {
                // Section III compares a block only with the stored non-content blocks of its
                // path: with none stored there, it is content, and its vector is not needed
                // (with a focus it is not even computed). The words still count for the
                // words test.
                content[u] = true;
                words = words.saturating_add(f.map_or(0, |f| f.words));
                out.blocks += usize::from(f.is_some());
                continue;
            }
            let Some(f) = f else {
                continue;
            };
            out.blocks += 1;
            if stored.len() > budget {
                stored = &[];
            }
            budget -= stored.len();
            out.compared += stored.len();
            // Section III's comparison, within the path; and, beyond the paper, a block
            // identical to a non-content block found at any other path in training (a footer
            // line the site moved between pages) is non-content too, at paths with stored
            // blocks (above).
            content[u] = !tpl.known_noncontent(f.fingerprint)
                && !vectors.similar_to_any(&f, stored.iter().map(|s| &s.1), tpl.similarity);
            if content[u] {
                words = words.saturating_add(f.words);
            }
        }
    });
    let is_content = |i: usize| content.get(unit_of(i) as usize).copied().unwrap_or(false);
    let nodes = match focus {
        // The words test (module comment) compares with the thinnest training page's content,
        // all of CE's content blocks; with a focus the words are only those where the focus
        // is, so the test does not apply, and the agreement test of [`with_auto`] stands in
        // for it (on msv_big9, testing the focused words sent more pages to `auto` and gave
        // 0.946 same-year bag-of-words F1 against 0.947).
        Some(focus) => {
            let mut nodes = Vec::with_capacity(focus.len());
            nodes.extend(focus.iter().copied().filter(|&id| is_content(id as usize)));
            nodes
        }
        None if words.saturating_mul(2) < tpl.min_words => return,
        None => blocks::text_nodes(doc, is_content),
    };
    if !nodes.is_empty() {
        out.selection = Some(Selection { nodes });
    }
}

/// What `--templates` runs on a page of a learned site (`fastce+auto`): the template's
/// detection intersected with `auto`'s selection ([`with_auto`]). `auto` runs first, so that
/// detection judges only the extracted blocks holding text `auto` selected (the others cannot
/// change the intersection) and the page is parsed, and its blocks found, once. `Err` when the
/// page does not match the template, with `auto`'s selection when it was already made (the
/// caller's fallback can reuse it).
pub fn with_template(
    doc: &Document<'_>,
    tpl: &Template,
    tuning: &auto::Tuning,
) -> Result<(Selection, &'static str), Option<Selection>> {
    with_blocks(doc, &blocks::blocks(&doc.tree), tpl, tuning)
}

/// [`with_template`] with the page's blocks already found (by the family's pick,
/// [`model::Family::pick`]).
pub(crate) fn with_blocks(
    doc: &Document<'_>,
    pb: &PageBlocks,
    tpl: &Template,
    tuning: &auto::Tuning,
) -> Result<(Selection, &'static str), Option<Selection>> {
    warm(tpl);
    let class = classify(pb, tpl);
    if layout_match(&class) < tpl.min_match {
        return Err(None);
    }
    let auto = auto::extract(doc, tuning);
    let mut found = Detected::default();
    // When `auto` selects nothing the template's answer stands alone (see [`with_auto`]), so
    // it is judged whole.
    let focus = (!auto.nodes.is_empty()).then_some(auto.nodes.as_slice());
    judge(doc, tpl, pb, &class, focus, &mut found);
    let Some(sel) = found.selection else {
        return Err(Some(auto));
    };
    Ok(with_auto(doc, sel, auto))
}

/// Reads every cache line of the template's arrays that detection searches (the known paths,
/// P, the stored blocks and their vectors, the fingerprints), before it searches them. A
/// template is seldom in cache when its page comes (pages of many hosts come in turn: on
/// msv_big9 every page has its own), and a binary search over cold memory waits for each of
/// its loads in turn, the next address depending on the last: these loads are independent, so
/// they are in flight together, and the searches then hit the cache.
fn warm(tpl: &Template) {
    /// One element per 64-byte line of a slice.
    fn lines<T>(v: &[T]) -> impl Iterator<Item = &T> {
        v.iter()
            .step_by((64 / std::mem::size_of::<T>().max(1)).max(1))
    }
    let mut sum = 0u64;
    sum = lines(&tpl.known).fold(sum, |s, &p| s ^ p);
    sum = lines(&tpl.paths).fold(sum, |s, p| s ^ p.0);
    sum = lines(&tpl.fingerprints).fold(sum, |s, &f| s ^ f);
    for (path, f) in &tpl.noncontent {
        sum ^= path;
        sum = lines(&f.entries).fold(sum, |s, &(d, c)| s ^ u64::from(d) ^ u64::from(c));
    }
    std::hint::black_box(sum);
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
    // Both selections are in document order: one merge marks `auto`'s nodes the template
    // also selected.
    let mut in_template = Vec::with_capacity(auto.nodes.len());
    let mut t = template.nodes.iter().peekable();
    for &id in &auto.nodes {
        while t.next_if(|&&x| x < id).is_some() {}
        in_template.push(t.peek().is_some_and(|&&x| x == id));
    }
    let (mut auto_chars, mut both_chars) = (0u64, 0u64);
    for (&id, &both) in auto.nodes.iter().zip(&in_template) {
        let chars = trimmed_len(doc.raw_text(id)) as u64;
        auto_chars += chars;
        if both {
            both_chars += chars;
        }
    }
    if auto_chars == 0 {
        return (template, "fastce");
    }
    if both_chars * 2 < auto_chars {
        return (auto, "auto");
    }
    // Filtered in place: `auto`'s vector becomes the answer.
    let mut nodes = auto.nodes;
    let mut both = in_template.iter();
    nodes.retain(|_| both.next().copied().unwrap_or(false));
    (Selection { nodes }, "fastce+auto")
}

/// The length of `text` trimmed of white space, as `str::trim` trims it, without its
/// decoding of characters when the text starts and ends with printable ASCII (which is
/// never white space), as most text nodes in a selection do.
fn trimmed_len(text: &str) -> usize {
    match (text.as_bytes().first(), text.as_bytes().last()) {
        (Some(a), Some(b)) if a.is_ascii_graphic() && b.is_ascii_graphic() => text.len(),
        _ => text.trim().len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::blocks::{Features, block_features, path_of};

    /// The vector of the one `<p>` of a page (blocks: root, body, p).
    fn p_vector(text: &str) -> Features {
        let arena = bumpalo::Bump::new();
        let html = format!("<body><p>{text}</p>");
        let doc = Document::parse(&html, &arena);
        block_features(&doc, &blocks::blocks(&doc.tree)).swap_remove(2)
    }

    #[test]
    fn trimmed_len_is_the_length_str_trim_gives() {
        for text in [
            "",
            " ",
            "a",
            "word",
            " word",
            "word\n",
            "\u{a0}word",
            "word\u{3000}",
            "a b",
            "\u{e9}t\u{e9}",
            "x\u{85}",
            "\t\r\n",
            "~!",
            "\u{1c}x\u{1f}",
        ] {
            assert_eq!(trimmed_len(text), text.trim().len(), "{text:?}");
        }
    }

    #[test]
    fn fingerprints_apply_only_at_paths_with_stored_blocks() {
        let footer = "Copyright line words";
        let mut known: Vec<u64> = [
            "html",
            "html.body",
            "html.body.div",
            "html.body.div.p",
            "html.body.aside",
            "html.body.aside.p",
        ]
        .iter()
        .map(|p| path_of(p))
        .collect();
        known.sort_unstable();
        let mut paths: Vec<(u64, String)> = ["html.body.div.p", "html.body.aside.p"]
            .iter()
            .map(|p| (path_of(p), p.to_string()))
            .collect();
        paths.sort_unstable();
        let tpl = Template {
            host: "h".into(),
            dims: blocks::DIMS,
            similarity: blocks::SIMILAR,
            share: 0.5,
            min_match: model::DEFAULT_MIN_MATCH,
            pages: 3,
            min_words: 0,
            paths,
            known,
            // A menu stored at the div's paragraphs; nothing stored at the aside's.
            noncontent: vec![(path_of("html.body.div.p"), p_vector("menu home sports"))],
            fingerprints: vec![p_vector(footer).fingerprint()],
        };
        let html = format!(
            "<body><div><p>Story text one two three.</p><p>{footer}</p></div>\
             <aside><p>{footer}</p></aside></body>"
        );
        let arena = bumpalo::Bump::new();
        let doc = Document::parse(&html, &arena);
        let sel = detect(&doc, &tpl).selection.expect("the page matches");
        let texts: Vec<&str> = sel.nodes.iter().map(|&id| doc.raw_text(id)).collect();
        // The footer line at the div's path, where blocks are stored, is a known non-content
        // block; at the aside's path, with none stored, Section III has nothing to compare it
        // with and it is content.
        assert_eq!(texts, vec!["Story text one two three.", footer]);
        // And it is the aside's line (the later of the two in document order).
        let footers: Vec<NodeId> = (0..doc.tree.nodes.len() as NodeId)
            .filter(|&id| {
                doc.tree.nodes[id as usize].kind == crate::html::tree::Kind::Text
                    && doc.raw_text(id) == footer
            })
            .collect();
        assert_eq!(footers.len(), 2);
        let aside_p = footers[1];
        assert_eq!(sel.nodes[1], aside_p);
        // Through `auto`'s focus the same answer (both paragraphs of the aside and the story
        // are prose `auto` may keep; the intersection never holds the div's footer).
        let tuning = auto::Tuning::new(auto::Mode::Balanced, false);
        if let Ok((sel, _)) = with_template(&doc, &tpl, &tuning) {
            assert!(
                sel.nodes
                    .iter()
                    .all(|&id| doc.raw_text(id) != footer || id == aside_p),
                "{:?}",
                sel.nodes
            );
        }
    }
}
