//! What the block model reads of each text block: the block's own text, what `auto` decided
//! about it and why (from its [`Trace`]), DANAg's profile at its line, where it lies (depth,
//! position, the kinds of its ancestors, their class/id words hashed as FastCE hashes its
//! features), its page and its neighbours. The numbers are named by [`FEATURES`] in order, then
//! the hashed buckets; the block's tag and its parent's are the model's two categorical inputs.
//!
//! The block table of `pith-lab blocks` (`explain::rows`) writes exactly these numbers, so the
//! trainer learns from what the evaluator computes. One pass over the blocks; the per-block
//! ancestor walk is bounded by the tree's depth and reads class/id words of the nearest 64
//! ancestors only.

use super::analysis::{Analysis, Block, Reasons};
use crate::extract::auto::{self, Outcome, Trace};
use crate::extract::blocks::{FNV_OFFSET, fnv1a};
use crate::extract::danag::{self, Segments};
use crate::extract::{self, Selection};
use crate::html::tags::Tag;
use crate::html::tree::{Kind, NONE, NodeId, context};
use crate::html::{Document, entities};

/// Buckets of the hashed class/id words of all of a block's ancestors.
pub const ANCESTOR_BUCKETS: usize = 32;
/// Buckets of the hashed class/id words of the block's own element and its parent.
pub const OWN_BUCKETS: usize = 16;

/// The names of a block's numbers (`Described::row`), in order (the hashed buckets last:
/// `anc0..`, then `own0..`).
pub const FEATURES: &[&str] = &[
    // The block's own text.
    "chars",
    "words",
    "link_density",
    "commas",
    "stops",
    "digit_frac",
    "text_nodes",
    "cells",
    // What `auto` decided and why.
    "auto_kept",
    "auto_removed",
    "auto_under_root",
    "auto_root_is_top",
    "auto_link_list",
    "auto_teaser",
    "owner_hint",
    "owner_hidden",
    "owner_text",
    "owner_link_density",
    "owner_commas",
    "owner_danag_frac",
    "owner_score",
    "owner_text_density",
    "root_score",
    "page_best_score",
    // DANAg's profile at the block's line.
    "danag_t1",
    "danag_t2",
    "danag_smoothed",
    "danag_selected",
    "line_rel",
    // Where the block is.
    "depth",
    "pos_rel",
    "char_pos_rel",
    "in_heading",
    "in_pre",
    "in_link_all",
    "in_li",
    "in_table",
    "in_p",
    "in_form",
    "in_nav",
    "in_aside",
    "in_footer",
    "in_header",
    "in_article",
    "in_main",
    "in_section",
    "in_blockquote",
    "in_figure",
    "in_dl",
    // The page.
    "page_blocks",
    "page_chars",
    "page_outcome",
    "page_auto_share",
    // The neighbours.
    "prev_chars",
    "prev_link_density",
    "prev_auto_kept",
    "next_chars",
    "next_link_density",
    "next_auto_kept",
    // Runs of alike siblings (cards, teasers, comments): the largest position in such a run
    // among the block's element and its ancestors, and the depth of the nearest one.
    "rep_position",
    "rep_depth",
];

/// The index of `auto_kept` in [`FEATURES`]: the share of the block's text `auto` kept.
pub(crate) const AUTO_KEPT: usize = 8;

const _: () = assert!(matches!(FEATURES[AUTO_KEPT].as_bytes(), b"auto_kept"));

/// The index of `words` in [`FEATURES`]: the block's words as the scorer counts them.
pub const WORDS: usize = 1;

const _: () = assert!(matches!(FEATURES[WORDS].as_bytes(), b"words"));

/// The number of features of a block: [`FEATURES`] plus the hashed buckets.
pub const N_FEATURES: usize = FEATURES.len() + ANCESTOR_BUCKETS + OWN_BUCKETS;

/// A page's text blocks and their features.
#[derive(Debug)]
pub struct Described {
    /// The blocks in document order.
    pub blocks: Vec<Block>,
    /// Each block's text, entities decoded, cells separated by tabs.
    pub texts: Vec<String>,
    /// [`N_FEATURES`] numbers per block, block after block.
    pub values: Vec<f32>,
    /// Each block's element's tag name and its parent's (`""` when there is none).
    pub tags: Vec<(&'static str, &'static str)>,
    /// `auto`'s selection of the page.
    pub selection: Selection,
    /// Which rule gave `auto`'s selection.
    pub outcome: Outcome,
}

impl Described {
    /// Block `i`'s features.
    pub fn row(&self, i: usize) -> &[f32] {
        self.values
            .get(i * N_FEATURES..(i + 1) * N_FEATURES)
            .unwrap_or_default()
    }
}

/// An element's tag and class attribute, hashed: alike siblings share it (the runs of alike
/// siblings here and in the page model's features).
pub(crate) fn signature(doc: &Document<'_>, id: NodeId, tag: Tag) -> u64 {
    let h = fnv1a(FNV_OFFSET, &(tag as u16).to_le_bytes());
    fnv1a(h, doc.attr(id, "class").unwrap_or("").trim().as_bytes())
}

/// Runs `auto` on the page (recording its trace) and DANAg's profile, cuts the page into text
/// blocks and describes each, keeping every block's numbers: the second model reads the first
/// one's probabilities of the whole page, so the extractor needs them all, as do the block
/// table and the tests.
pub(crate) fn describe(doc: &Document<'_>, opts: &extract::AlgoOptions) -> Described {
    let mut trace = Trace::default();
    let selection = auto::extract_traced(doc, &opts.tuning(), Some(&mut trace));
    let profile = danag::profile(doc, Segments::Normalized);
    let token_lines = danag::token_lines(doc, Segments::Normalized);
    let choice = danag::choose(&profile, danag::PAPER_GAP);
    let page = Analysis {
        doc,
        opts,
        trace: Some(&trace),
        profile: &profile,
        token_lines: &token_lines,
        choice: &choice,
    };
    let blocks = page.blocks(&selection);
    let reasons = page.node_reasons();
    let t = &trace;
    let tree = &doc.tree;

    let own = own_counts(&page, &blocks);
    let total_chars: f32 = own.iter().map(|o| o.chars).sum::<f32>().max(1.0);
    let kept_chars: f32 = own.iter().map(|o| o.chars * o.kept).sum();
    let n = blocks.len();
    let lines = profile.content.len().max(1) as f32;
    let best_score = t.best.and_then(|b| t.score.get(b)).copied().unwrap_or(0.0);
    let outcome_code = match t.outcome {
        Outcome::Container => 0.0,
        Outcome::Spread => 1.0,
        Outcome::Danag => 2.0,
        Outcome::Everything => 3.0,
    };
    let ld = Own::link_density;
    let run_at = sibling_runs(doc);

    let mut class_words = ClassWords::new(tree.nodes.len());
    let mut before = 0.0f32;
    let mut values = Vec::with_capacity(n * N_FEATURES);
    let mut tags = Vec::with_capacity(n);
    let mut f = Vec::with_capacity(N_FEATURES);
    for (i, (b, o)) in blocks.iter().zip(&own).enumerate() {
        f.clear();

        f.extend(text_numbers(b, o));
        let owner = b.owner;
        f.extend(auto_numbers(&page, t, &reasons, b, o.kept, best_score));
        let line = b.line as usize;
        let pv = |v: &[u32]| v.get(line).copied().unwrap_or(0) as f32;
        f.extend([
            pv(&profile.content),
            pv(&profile.code),
            page.diff(line) as f32,
            f32::from(u8::from(page.in_danag(b.line))),
            line as f32 / lines,
        ]);
        // The ancestors: depth, context tags, class/id words.
        let a = ancestry(doc, owner, &run_at, &mut class_words);
        // The context bits every solid text node of the block has (none when it has none),
        // in one pass for the three bits asked below.
        let (mut any, mut shared) = (false, u8::MAX);
        for &(id, _) in b.nodes.iter().filter(|(id, _)| page.solid(*id)) {
            any = true;
            shared &= tree.node(id).context();
        }
        let ctx_all = |bit: u8| f32::from(u8::from(any && shared & bit != 0));
        let flag = |k: usize| f32::from(u8::from(a.has[k]));
        f.extend([
            a.depth,
            i as f32 / n as f32,
            before / total_chars,
            ctx_all(context::HEADING),
            ctx_all(context::PRE),
            ctx_all(context::LINK),
        ]);
        f.extend((0..14).map(flag));
        f.extend([
            n as f32,
            total_chars,
            outcome_code,
            kept_chars / total_chars,
        ]);
        let (p, q) = (i.checked_sub(1).and_then(|j| own.get(j)), own.get(i + 1));
        for nb in [p, q] {
            match nb {
                Some(x) => f.extend([x.chars, ld(x), x.kept]),
                None => f.extend([0.0, 0.0, 0.0]),
            }
        }
        f.extend([a.rep_position as f32, a.rep_depth]);
        debug_assert_eq!(f.len(), FEATURES.len());
        f.extend(a.anc);
        f.extend(a.mine);
        before += o.chars;
        let name = |id: NodeId| {
            if id == NONE || tree.node(id).kind != Kind::Element {
                ""
            } else {
                tree.node(id).tag.name()
            }
        };
        tags.push((
            name(owner),
            if owner == NONE {
                ""
            } else {
                name(tree.node(owner).parent)
            },
        ));
        values.extend_from_slice(&f);
    }
    let texts = own.into_iter().map(|o| o.text).collect();
    let outcome = t.outcome;
    Described {
        blocks,
        texts,
        values,
        tags,
        selection,
        outcome,
    }
}

/// A block's own counts, beside its text: its characters (entities decoded, each text node
/// trimmed), those inside links, and the share of its solid text nodes `auto` kept.
struct Own {
    text: String,
    chars: f32,
    link: f32,
    kept: f32,
}

impl Own {
    /// The share of the block's characters inside links.
    fn link_density(&self) -> f32 {
        if self.chars > 0.0 {
            self.link / self.chars
        } else {
            0.0
        }
    }
}

/// The block's own text numbers, [`FEATURES`]' first group: characters, words, link density,
/// commas, stops, the share of digits, text nodes and table cells.
fn text_numbers(b: &Block, o: &Own) -> [f32; 8] {
    // Digits, commas and sentence stops in one pass over the text (ASCII bytes are
    // counted as bytes; the full-width marks are the only others that count).
    let (mut digits, mut commas, mut stops) = (0u32, 0u32, 0u32);
    if o.text.is_ascii() {
        // Sums over the bytes, with no character to decode and no branch.
        for &b in o.text.as_bytes() {
            digits += u32::from(b.is_ascii_digit());
            commas += u32::from(b == b',');
            stops += u32::from(matches!(b, b'.' | b'!' | b'?'));
        }
    } else {
        for c in o.text.chars() {
            match c {
                '0'..='9' => digits += 1,
                ',' | '，' | '、' => commas += 1,
                '.' | '!' | '?' | '。' | '！' | '？' => stops += 1,
                _ => {}
            }
        }
    }
    let digits = digits as f32;
    [
        o.chars,
        crate::text::count_tokens(&o.text) as f32,
        o.link_density(),
        commas as f32,
        stops as f32,
        if o.chars > 0.0 { digits / o.chars } else { 0.0 },
        b.nodes.iter().filter(|x| x.0 != NONE).count() as f32,
        b.nodes.iter().filter(|x| x.0 == NONE).count() as f32,
    ]
}

/// What `auto` decided about the block and why, [`FEATURES`]' second group: the share of it
/// kept (`kept`), `auto`'s reasons for its first solid text node (removed, under the root it
/// chose, in a link list, a teaser), its element's hints and statistics, and the scores of
/// its element, of the chosen root and of the best candidate (`best_score`).
fn auto_numbers(
    page: &Analysis<'_, '_>,
    t: &Trace,
    reasons: &Reasons,
    b: &Block,
    kept: f32,
    best_score: f32,
) -> [f32; 16] {
    // `auto`'s reasons for the block's first solid text node.
    let first = b
        .nodes
        .iter()
        .find(|(id, _)| page.solid(*id))
        .map_or(NONE, |x| x.0);
    let at = |v: &[NodeId]| {
        if first == NONE {
            NONE
        } else {
            v.get(first as usize).copied().unwrap_or(NONE)
        }
    };
    let root = at(&reasons.root_of);
    let owner = b.owner;
    let tree = &page.doc.tree;
    let s = t.stats.get(owner as usize).copied().unwrap_or_default();
    let (hint, hidden) = if owner == NONE || tree.node(owner).kind != Kind::Element {
        (0, false)
    } else {
        page.hints(reasons, owner)
    };
    let span = if owner == NONE {
        1
    } else {
        let node = tree.node(owner);
        node.end.saturating_sub(node.start).max(1)
    };
    [
        kept,
        f32::from(u8::from(at(&reasons.removed_at) != NONE)),
        f32::from(u8::from(root != NONE)),
        f32::from(u8::from(root != NONE && Some(root as usize) == t.top)),
        f32::from(u8::from(at(&reasons.link_list_at) != NONE)),
        f32::from(u8::from(
            first != NONE && t.teaser.get(first as usize) == Some(&true),
        )),
        f32::from(hint),
        f32::from(u8::from(hidden)),
        s.text as f32,
        s.link_density(),
        s.commas as f32,
        if s.text == 0 {
            0.0
        } else {
            s.danag as f32 / s.text as f32
        },
        t.score.get(owner as usize).copied().unwrap_or(0.0),
        s.text as f32 / span as f32,
        if root == NONE {
            0.0
        } else {
            t.score.get(root as usize).copied().unwrap_or(0.0)
        },
        best_score,
    ]
}

/// Each block's [`Own`] counts.
fn own_counts(page: &Analysis<'_, '_>, blocks: &[Block]) -> Vec<Own> {
    let doc = page.doc;
    let tree = &doc.tree;
    let mut s = String::new();
    blocks
        .iter()
        .map(|b| {
            let text = page.block_text(b);
            let (mut chars, mut link, mut solid, mut kept) = (0usize, 0usize, 0usize, 0usize);
            for &(id, k) in &b.nodes {
                if id == NONE {
                    continue;
                }
                let n = entities::decode_with(doc.raw_text(id), &mut s)
                    .trim()
                    .chars()
                    .count();
                chars += n;
                if tree.node(id).context() & context::LINK != 0 {
                    link += n;
                }
                if page.solid(id) {
                    solid += 1;
                    kept += usize::from(k);
                }
            }
            Own {
                text,
                chars: chars as f32,
                link: link as f32,
                kept: if solid == 0 {
                    0.0
                } else {
                    kept as f32 / solid as f32
                },
            }
        })
        .collect()
}

/// Each element's position in a run of alike element siblings (the page features'
/// signature, tag and class, equal to the previous element sibling's; 1 when it starts a
/// run), by node id: one forward pass, the last child's signature and run kept per parent.
fn sibling_runs(doc: &Document<'_>) -> Vec<u32> {
    let tree = &doc.tree;
    let mut run_at = vec![0u32; tree.nodes.len()];
    let mut last: Vec<(u64, u32)> = vec![(0, 0); tree.nodes.len()];
    for (i, node) in tree.nodes.iter().enumerate() {
        if node.kind != Kind::Element {
            continue;
        }
        let id = i as NodeId;
        let sig = signature(doc, id, node.tag);
        if let Some(slot) = last.get_mut(node.parent as usize) {
            let run = if slot.1 > 0 && slot.0 == sig {
                slot.1 + 1
            } else {
                1
            };
            *slot = (sig, run);
            if let Some(r) = run_at.get_mut(i) {
                *r = run;
            }
        }
    }
    run_at
}

/// What a block's element and its ancestors say: how deep it is, which kinds of element
/// hold it (the slots of [`ancestry`]), their class/id words hashed into buckets (all of
/// them, and the element's and its parent's own), and the innermost run of alike siblings it
/// is in (its position in the longest such run, and how far up the first one is).
struct Ancestry {
    depth: f32,
    has: [bool; 17],
    anc: [f32; ANCESTOR_BUCKETS],
    mine: [f32; OWN_BUCKETS],
    rep_position: u32,
    rep_depth: f32,
}

/// The [`Ancestry`] of the block whose element is `owner` (none for [`NONE`]): a walk up the
/// tree, bounded by its depth, reading the class/id words of the nearest 64 elements only.
fn ancestry(
    doc: &Document<'_>,
    owner: NodeId,
    run_at: &[u32],
    class_words: &mut ClassWords,
) -> Ancestry {
    let tree = &doc.tree;
    let mut depth = 0.0f32;
    let mut has = [false; 17];
    // Counted as integers (an f32 sum of ones is the same number below 2^24), so that
    // one count does not wait on the last one's floating-point add.
    let mut anc = [0u32; ANCESTOR_BUCKETS];
    let mut mine = [0u32; OWN_BUCKETS];
    let (mut rep_position, mut rep_depth) = (0u32, 0.0f32);
    if owner != NONE {
        for (k, a) in std::iter::once(owner)
            .chain(tree.ancestors(owner))
            .enumerate()
        {
            depth += 1.0;
            let node = tree.node(a);
            if node.kind != Kind::Element {
                continue;
            }
            let run = run_at.get(a as usize).copied().unwrap_or(0);
            if run >= 2 && rep_position == 0 {
                rep_depth = k as f32 + 1.0;
            }
            rep_position = rep_position.max(if run >= 2 { run } else { 0 });
            let slot = match node.tag {
                Tag::Li => 0,
                Tag::Table => 1,
                Tag::P => 2,
                Tag::Form => 3,
                Tag::Nav | Tag::Menu => 4,
                Tag::Aside => 5,
                Tag::Footer => 6,
                Tag::Header => 7,
                Tag::Article => 8,
                Tag::Main => 9,
                Tag::Section => 10,
                Tag::Blockquote => 11,
                Tag::Figure | Tag::Figcaption => 12,
                Tag::Dl | Tag::Dt | Tag::Dd => 13,
                _ => 16,
            };
            has[slot] = true;
            if k < 64 {
                for &b in class_words.of(doc, a) {
                    let b = usize::from(b);
                    if let Some(c) = anc.get_mut(b) {
                        *c += 1;
                    }
                    if k < 2
                        && let Some(c) = mine.get_mut(b % OWN_BUCKETS)
                    {
                        *c += 1;
                    }
                }
            }
        }
    }
    Ancestry {
        depth,
        has,
        anc: anc.map(|c| c as f32),
        mine: mine.map(|c| c as f32),
        rep_position,
        rep_depth,
    }
}

/// The hashed class and id words of the elements asked about, each element's read once: many
/// blocks share their ancestors, and an element's attributes are parsed from its source on
/// every read. A word is kept as its bucket among [`ANCESTOR_BUCKETS`] (its bucket among
/// [`OWN_BUCKETS`] follows, 16 dividing 32).
struct ClassWords {
    /// Per node of the page: its words' range in `buckets`, [`ClassWords::UNREAD`] until
    /// asked about.
    at: Vec<(u32, u32)>,
    buckets: Vec<u8>,
}

impl ClassWords {
    /// A node not asked about yet.
    const UNREAD: (u32, u32) = (u32::MAX, 0);

    fn new(nodes: usize) -> ClassWords {
        ClassWords {
            at: vec![Self::UNREAD; nodes],
            buckets: Vec::new(),
        }
    }

    /// The buckets ([`ANCESTOR_BUCKETS`]) of the FNV-1a hashes of the lower-cased words of
    /// `id`'s `class` then `id` attribute: runs of ASCII letters of two or more, at most 32
    /// of each.
    fn of(&mut self, doc: &Document<'_>, id: NodeId) -> &[u8] {
        let Some(at) = self.at.get_mut(id as usize) else {
            return &[];
        };
        if *at == Self::UNREAD {
            let start = self.buckets.len() as u32;
            for name in ["class", "id"] {
                let Some(v) = doc.attr(id, name) else {
                    continue;
                };
                let words = v
                    .split(|c: char| !c.is_ascii_alphabetic())
                    .filter(|w| w.len() >= 2)
                    .take(32);
                for w in words {
                    let mut h = FNV_OFFSET;
                    for b in w.bytes() {
                        h = fnv1a(h, &[b.to_ascii_lowercase()]);
                    }
                    self.buckets.push((h % ANCESTOR_BUCKETS as u64) as u8);
                }
            }
            *at = (start, self.buckets.len() as u32);
        }
        let (start, end) = *at;
        self.buckets
            .get(start as usize..end as usize)
            .unwrap_or_default()
    }
}
