//! The learned block model: `--algo model`.
//!
//! `auto`'s rules choose one container per page and cut inside it; where that choice fails (a
//! listing, a service page of many short texts, a post beside its comments) no rule mends it.
//! This algorithm asks, block by block, whether a human would call it content: each text block
//! of the page ([`analysis`]: cut where the text renderer cuts lines) is described by the
//! numbers of [`features`] (its text, what `auto` decided about it and why, DANAg's profile at
//! its line, where it lies, its class/id words hashed as FastCE hashes its features, its
//! neighbours), and two gradient-boosted forests ([`BlockModel`], trained by `just train` on
//! the gold sets in `../shared/data` and written as a model file, `block.model`, which the
//! library includes and reads once: no file is read at run time) give the
//! probability that it is content (learned as the share of a block's word pairs a gold text
//! has, so the expected share of its words the scorer counts as content): the first over the
//! block's numbers, the second over them and the first one's probabilities of the blocks
//! around it and of the whole page ([`run_inputs`]), since content comes in runs and a block
//! is judged against its page. The blocks at or above a threshold are the selection.
//!
//! A block is kept when its probability reaches a fraction of the page's best expected F1
//! ([`best_f1`]): with calibrated probabilities, the selection of greatest expected F1 keeps
//! the blocks whose probability is at least half the F1 it reaches, so the bar adapts to how
//! sure the model is on this page (a page of clear content asks more of a doubtful block than
//! a page where every block is doubtful). The fractions are the trainer's, chosen on
//! out-of-fold predictions of the training pages (never on a page it is scored on), one for
//! the blocks `auto` kept and one for those it dropped, the latter with a floor
//! ([`Threshold`]): the triple with the best mean page F1 by default, the best F0.5 for
//! `--precision` (a kept block more surely content) and the best F2 for `--recall` (less
//! content lost). How it does on pages it was not trained on is in `docs/model.md`.

pub(crate) mod analysis;
pub(crate) mod features;
pub(crate) mod forest;
pub(crate) mod model_file;

use std::sync::LazyLock;

use ahash::AHashMap;

use crate::extract::auto::{self, Mode};
use crate::extract::{self, Selection};
use crate::html::Document;
use crate::html::tree::{Kind, NONE, NodeId};

use features::{Described, N_FEATURES};
use forest::Forest;
use model_file::{ModelError, ModelFile};

/// The block model as `just train` wrote it (`block.model`, a [`model_file`]).
#[derive(Debug)]
pub struct BlockModel {
    /// The block's tag name as the models' first input: its index here (`""`: no element).
    pub tags: Vec<String>,
    /// The parent's tag name as the second input: its index here.
    pub parent_tags: Vec<String>,
    /// The first model's inputs in order: the two tags, then [`features`]' numbers.
    pub inputs: Vec<String>,
    /// The second model's inputs after [`BlockModel::inputs`]: the first one's probabilities
    /// around the block ([`run_inputs`]).
    pub run_inputs: Vec<String>,
    /// The thresholds with the best mean page F1 on the trainer's out-of-fold predictions.
    pub threshold: Threshold,
    /// The best mean page F0.5 among thresholds no lower (`--precision`).
    pub threshold_precision: Threshold,
    /// The best mean page F2 among thresholds no higher (`--recall`).
    pub threshold_recall: Threshold,
    /// The first model: its raw score's logistic is the probability that a block is content.
    pub block: Forest,
    /// The second model: its probability is the one the thresholds apply to.
    pub runs: Forest,
    /// Each tag's index in [`BlockModel::tags`] and [`BlockModel::parent_tags`].
    codes: (AHashMap<String, f32>, AHashMap<String, f32>),
}

impl BlockModel {
    /// Reads and checks a block model file: the entries the extractor needs, of the sizes it
    /// needs, thresholds in the order the modes want them (`--precision` keeps a subset of the
    /// default's blocks and `--recall` a superset).
    pub fn read(bytes: &[u8]) -> Result<BlockModel, ModelError> {
        let mut file = ModelFile::parse(bytes)?;
        let strings = |name: &str| file.strings(name).map(<[String]>::to_vec);
        let bad = |what: &'static str| ModelError::Invalid(what, "block".to_string());
        let threshold = |name: &str| match file.numbers(name)? {
            &[kept, added, floor] => Ok(Threshold { kept, added, floor }),
            _ => Err(ModelError::Invalid("not three numbers", name.to_string())),
        };
        let (r, d, p) = (
            threshold("threshold_recall")?,
            threshold("threshold")?,
            threshold("threshold_precision")?,
        );
        let ordered = |a: Threshold, b: Threshold| {
            a.kept <= b.kept && a.added <= b.added && a.floor <= b.floor
        };
        if !(ordered(r, d) && ordered(d, p)) {
            return Err(bad("thresholds out of the modes' order"));
        }
        let (inputs, run_inputs) = (strings("inputs")?, strings("run_inputs")?);
        if inputs.len() != N_FEATURES + 2 || run_inputs.len() != RUN_FEATURES {
            return Err(bad("inputs of another number than the features'"));
        }
        let (tags, parent_tags) = (strings("tags")?, strings("parent_tags")?);
        let (block, runs) = (
            file.take_forest("block")?.with_compact(),
            file.take_forest("runs")?.with_compact(),
        );
        if block.inputs() != inputs.len()
            || runs.inputs() != inputs.len() + RUN_FEATURES
            || block.outputs() != 1
            || runs.outputs() != 1
        {
            return Err(bad("forests of other sizes than the inputs'"));
        }
        let index = |names: &[String]| {
            names
                .iter()
                .enumerate()
                .map(|(i, n)| (n.clone(), i as f32))
                .collect::<AHashMap<_, _>>()
        };
        let codes = (index(&tags), index(&parent_tags));
        Ok(BlockModel {
            tags,
            parent_tags,
            inputs,
            run_inputs,
            threshold: d,
            threshold_precision: p,
            threshold_recall: r,
            block,
            runs,
            codes,
        })
    }

    /// A block's tag and its parent's tag as the models read them: their indices among the
    /// categories the trainer saw, -1 for one it never saw.
    pub fn tag_codes(&self, (tag, parent): (&str, &str)) -> (f32, f32) {
        (
            self.codes.0.get(tag).copied().unwrap_or(-1.0),
            self.codes.1.get(parent).copied().unwrap_or(-1.0),
        )
    }
}

/// The shipped block model, read from the bytes compiled in on first use.
pub fn model() -> &'static BlockModel {
    static MODEL: LazyLock<BlockModel> = LazyLock::new(|| {
        BlockModel::read(include_bytes!("block.model"))
            .unwrap_or_else(|e| panic!("the block model compiled into pith is broken: {e}"))
    });
    &MODEL
}

/// The number of the second model's extra inputs ([`BlockModel::run_inputs`]).
pub(crate) const RUN_FEATURES: usize = 8;

/// What the second model reads of the whole page from the first one's probabilities.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PageRun {
    /// The mean probability of the page's blocks, summed in block order.
    pub mean: f64,
    /// The highest.
    pub max: f64,
    /// The page's [`best_f1`] under them.
    pub best: f64,
}

impl PageRun {
    /// The page's numbers from the first model's probabilities `p` and each block's `words`.
    pub(crate) fn new(p: &[f64], words: &[f64]) -> PageRun {
        PageRun {
            // Summed in block order, as the trainer sums a page.
            mean: p.iter().fold(0.0, |a, &v| a + v) / p.len().max(1) as f64,
            max: p.iter().fold(0.0, |a, &v| a.max(v)),
            best: best_f1(p, words),
        }
    }
}

/// The second model's inputs from the first one's probabilities `p` of the page's blocks, for
/// block `i`, in [`BlockModel::run_inputs`]' order: the previous and next block's probability, the
/// second previous and next (-1 where there is none), the mean over the three blocks on each
/// side (-1 when there are none), then the page's mean, highest probability and best expected
/// F1 (`page`): where the block stands against its page. Computed as the trainer computes them
/// (`neighbour_columns`): in f64, the window summed from the farthest next block to the
/// farthest previous one, then rounded to f32.
pub(crate) fn run_inputs(p: &[f64], i: usize, page: PageRun) -> [f32; RUN_FEATURES] {
    let at = |j: Option<usize>| j.and_then(|j| p.get(j)).copied();
    let or_none = |v: Option<f64>| v.map_or(-1.0, |v| v as f32);
    let (mut total, mut count) = (0.0f64, 0u32);
    for j in [
        i.checked_add(3),
        i.checked_add(2),
        i.checked_add(1),
        i.checked_sub(1),
        i.checked_sub(2),
        i.checked_sub(3),
    ] {
        if let Some(v) = at(j) {
            total += v;
            count += 1;
        }
    }
    [
        or_none(at(i.checked_sub(1))),
        or_none(at(i.checked_add(1))),
        or_none(at(i.checked_sub(2))),
        or_none(at(i.checked_add(2))),
        if count > 0 {
            (total / f64::from(count)) as f32
        } else {
            -1.0
        },
        page.mean as f32,
        page.max as f32,
        page.best as f32,
    ]
}

/// The two models' raw scores of every block of a description: the first model's over the
/// block's numbers, and the second model's over those and the first one's probabilities
/// around the block (`run_inputs`); the second one's logistic is the probability of content
/// the thresholds apply to. The blocks' rows are laid out once, in one buffer, and each
/// forest walks them tree by tree (`Forest::raw_rows`).
pub fn raw_scores(d: &Described) -> (Vec<f64>, Vec<f64>) {
    let m = model();
    let n = d.blocks.len();
    // Each block's tag codes, looked up once for both forests.
    let codes: Vec<(f32, f32)> = (0..n)
        .map(|i| m.tag_codes(d.tags.get(i).copied().unwrap_or(("", ""))))
        .collect();
    // Each block's row for a forest: its tag codes and features, then (the second forest's)
    // its neighbours' probabilities, then the forest's category-set columns.
    // The buffer is not cleared between pages and forests, nor shortened, only its growth
    // zeroed: every value of a row a split reads is written here (the tag codes, the
    // N_FEATURES features, the second forest's RUN_FEATURES, which `BlockModel::read` holds to
    // be the forests' inputs) or by `prepare` (the set columns). The rows' padding and the
    // padded rows past `n` keep what they held, which no split reads and no output takes.
    // The forests get the page's rows, the first `len` values (returned).
    let fill = |forest: &Forest, rows: &mut Vec<f32>, runs: Option<(&[f64], PageRun)>| {
        let stride = forest.stride();
        let len = forest.padded(n) * stride;
        if rows.len() < len {
            // To the page's size, not doubled: a buffer doubled past KEEP_ROWS would be
            // dropped after the page and grown again, page faults and all, by the next one.
            rows.reserve_exact(len - rows.len());
            rows.resize(len, 0.0);
        }
        for ((i, row), &(tag, parent)) in rows.chunks_exact_mut(stride).enumerate().zip(&codes) {
            row[0] = tag;
            row[1] = parent;
            let features = row.iter_mut().skip(2).take(N_FEATURES);
            let mut values = d.row(i).iter();
            for to in features {
                *to = values.next().copied().unwrap_or(0.0);
            }
            if let Some((p, page)) = runs {
                for (to, v) in row
                    .iter_mut()
                    .skip(2 + N_FEATURES)
                    .zip(run_inputs(p, i, page))
                {
                    *to = v;
                }
            }
            forest.prepare(row);
        }
        len
    };
    ROWS.with(|cell| {
        // A nested call (never made by pith) gets a buffer of its own.
        let mut own = Vec::new();
        let mut held = cell.try_borrow_mut();
        let rows = match held.as_deref_mut() {
            Ok(rows) => rows,
            Err(_) => &mut own,
        };
        let len = fill(&m.block, rows, None);
        let mut first = vec![0.0; n];
        m.block
            .raw_strided(rows.get(..len).unwrap_or_default(), &mut first);
        let p: Vec<f64> = first.iter().map(|&r| forest::logistic(r)).collect();
        let page = PageRun::new(&p, &words(d));
        let len = fill(&m.runs, rows, Some((&p, page)));
        let mut second = vec![0.0; n];
        m.runs
            .raw_strided(rows.get(..len).unwrap_or_default(), &mut second);
        if rows.capacity() > KEEP_ROWS {
            *rows = Vec::new();
        }
        (first, second)
    })
}

/// The largest rows buffer a thread keeps for its next page, in values (4 MB): the rows of
/// a page of about 2,400 blocks. Reused, a page's rows do not fault in fresh memory (the
/// binary's allocator returns freed memory at once); a larger one served a huge page.
const KEEP_ROWS: usize = 1 << 20;

thread_local! {
    /// The forests' rows of the page in hand, reused from page to page.
    static ROWS: std::cell::RefCell<Vec<f32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The thresholds on the probability of content, as fractions of the page's best expected F1
/// ([`best_f1`]): one for the blocks `auto` kept (some of their text selected), one for the
/// blocks it dropped, and a least probability for the latter. The trainer chooses the three
/// together on out-of-fold predictions: overriding `auto` may need more evidence than
/// agreeing with it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Threshold {
    /// A block `auto` kept stays when its probability is at least this times the page's best
    /// expected F1.
    pub kept: f64,
    /// A block `auto` dropped comes in when its probability is at least this times the page's
    /// best expected F1, and at least [`Threshold::floor`].
    pub added: f64,
    /// The least probability a block `auto` dropped needs, whatever the page's best expected
    /// F1. A fraction of F* falls with F*, and F* falls on a page of many blocks of middling
    /// probability (a long menu of links): without a floor the bar for overriding `auto`
    /// would sink to them and let them all in. 0 is no floor.
    pub floor: f64,
}

impl Threshold {
    /// The probability a block must reach, by whether `auto` kept it, on a page whose best
    /// expected F1 is `best_f1`.
    pub fn need(self, auto_kept: bool, best_f1: f64) -> f64 {
        if auto_kept {
            self.kept * best_f1
        } else {
            (self.added * best_f1).max(self.floor)
        }
    }
}

/// The thresholds for `auto`'s mode names: F1's for [`Mode::Balanced`], F0.5's for
/// [`Mode::Precision`], F2's for [`Mode::Recall`].
pub(crate) fn threshold(mode: Mode) -> Threshold {
    let m = model();
    match mode {
        Mode::Balanced => m.threshold,
        Mode::Precision => m.threshold_precision,
        Mode::Recall => m.threshold_recall,
    }
}

/// Whether `auto` kept some of block `i`'s text (the trainer's `auto_kept > 0`).
pub(crate) fn auto_kept(d: &Described, i: usize) -> bool {
    d.row(i).get(features::AUTO_KEPT).is_some_and(|&v| v > 0.0)
}

/// The options the features are computed under: the ones the model was trained on (`auto`
/// balanced, without comments, every rule on), whatever the caller's mode; the mode only
/// moves the threshold.
fn trained_options() -> extract::AlgoOptions {
    extract::AlgoOptions {
        mode: Mode::Balanced,
        comments: false,
        rules_off: auto::Rules::NONE,
        ..extract::AlgoOptions::default()
    }
}

/// Whether `auto` under `opts` without comments is `auto` as the model reads it (the options of
/// [`describe`], [`trained_options`]: the balanced mode with every rule on).
pub(crate) fn trained_on(opts: &extract::AlgoOptions) -> bool {
    let trained = trained_options();
    opts.mode == trained.mode && opts.rules_off == trained.rules_off
}

/// Describes the page as the model reads it (`features::describe` under the options the
/// model was trained on).
pub fn describe(doc: &Document<'_>) -> Described {
    features::describe(doc, &trained_options())
}

/// Whether the model reads the page: a page of more blocks than [`max_blocks`] gets `auto`'s
/// selection instead ([`crate::extract::run`]). The blocks are counted
/// ([`analysis::count_blocks`]) only on a page of more non-blank text nodes than that: a
/// block holds at least one, so a page of fewer (most pages) has fewer blocks.
pub(crate) fn reads(doc: &Document<'_>) -> bool {
    let max = max_blocks(doc.src.len());
    // A page of fewer nodes than that has fewer text nodes: no pass.
    if doc.tree.nodes.len() <= max {
        return true;
    }
    let mut texts = 0usize;
    for (i, n) in doc.tree.nodes.iter().enumerate() {
        if n.kind == Kind::Text && !doc.raw_text(i as NodeId).trim_ascii().is_empty() {
            texts += 1;
            if texts > max {
                return analysis::count_blocks(doc, max) <= max;
            }
        }
    }
    true
}

/// The most blocks the model reads on a page of `page_bytes`: 6 Ki, or one per 4 KiB of a
/// page over 24 MiB. While the model reads a page it holds the page, its text and the blocks'
/// texts (about 2x the page) and about 2.4 KB per block (its numbers, rows and text: 2.3 KB
/// measured on 16 and 24 MB pages of 8-32 K paragraphs), beside the binary's own 10 MB. The
/// floor is at most 15 MB and one block per 4 KiB at most 0.6x the page, which holds a page
/// of 16 MB or more to 4x with the units its element budget allows
/// (`crate::page::element_budget`): 16 MB pages of 6 K paragraphs peaked at 3.7x, with 90 K
/// `<br>` besides at 3.8x. A page of more blocks gets `auto`'s selection (four million `<p>x`
/// in 16 MB took 9.6 GB and three minutes; 32 K paragraphs in 16 MB, 111 MB, 7.3x). The pages
/// of `../shared/data` have at most 2,644 blocks, and a forum page of 1.2 MB in its WARC
/// samples 3,522 (and 21,178 text nodes).
pub(crate) fn max_blocks(page_bytes: usize) -> usize {
    MIN_MAX_BLOCKS.max(page_bytes / BYTES_PER_BLOCK)
}

/// [`max_blocks`]' floor, whatever the page's size.
const MIN_MAX_BLOCKS: usize = 6 << 10;

/// [`max_blocks`] past its floor: a block read per this many bytes of the page.
const BYTES_PER_BLOCK: usize = 4096;

/// The best expected F1 of a page whose blocks have probabilities of content `p` and `words`
/// words each, F*: with the blocks sorted by falling probability (ties in block order), the
/// largest `2 Σ_S p·w / (Σ_S w + Σ_all p·w)` over the prefixes S, the expected F1 of keeping
/// them (expected overlap over expected sizes). For calibrated probabilities the selection of
/// greatest expected F1 keeps the blocks with `p ≥ F*/2` (the F1-optimal threshold is half the
/// best F1), which is why [`Threshold`]s are fractions of F*. 0 for a page without words.
/// Summed as the trainer sums (`page_best`: the total in block order, the prefixes in sorted
/// order), so F* is the same f64 (tests/it/block_model.rs).
pub(crate) fn best_f1(p: &[f64], words: &[f64]) -> f64 {
    let total = p.iter().zip(words).fold(0.0, |a, (&p, &w)| a + p * w);
    let mut order: Vec<usize> = (0..p.len().min(words.len())).collect();
    // A stable sort: ties stay in block order, as numpy's stable argsort leaves them.
    order.sort_by(|&a, &b| p[b].total_cmp(&p[a]));
    let (mut kept_pw, mut kept_w, mut best) = (0.0f64, 0.0f64, 0.0f64);
    for i in order {
        kept_pw += p[i] * words[i];
        kept_w += words[i];
        best = best.max((2.0 * kept_pw) / (kept_w + total).max(1e-9));
    }
    best
}

/// Each block's words, as [`best_f1`] weighs them.
fn words(d: &Described) -> Vec<f64> {
    (0..d.blocks.len())
        .map(|i| d.row(i).get(features::WORDS).map_or(0.0, |&w| f64::from(w)))
        .collect()
}

/// The model's judgement of a page's blocks ([`judge`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// Per block: its probability of content (the second model's, as LightGBM computes it,
    /// so a block on the threshold goes the way the trainer's scores sent it) and the
    /// probability it must reach.
    pub blocks: Vec<(f64, f64)>,
    /// The page's [`best_f1`], which the thresholds are fractions of.
    pub best_f1: f64,
}

/// Each block's probability of content and the probability it must reach: `mode`'s
/// [`Threshold::need`], by whether `auto` kept it, on the page's [`best_f1`].
pub(crate) fn judge(d: &Described, mode: Mode) -> Judged {
    judge_scores(d, &raw_scores(d).1, mode)
}

/// `judge` from the second model's raw scores of the page's blocks (`raw`, from
/// [`raw_scores`]), for a caller that has them already.
pub fn judge_scores(d: &Described, raw: &[f64], mode: Mode) -> Judged {
    let t = threshold(mode);
    let p: Vec<f64> = raw.iter().map(|&r| forest::logistic(r)).collect();
    let best = best_f1(&p, &words(d));
    let blocks = p
        .iter()
        .enumerate()
        .map(|(i, &p)| (p, t.need(auto_kept(d, i), best)))
        .collect();
    Judged {
        blocks,
        best_f1: best,
    }
}

/// The text nodes of every block whose probability reaches its threshold (`judged`, from
/// `judge`), in document order. When no block reaches it, `auto`'s selection: the model
/// corrects `auto` block by block, and with no block it is sure of, a page that has text must
/// not come out empty.
pub fn select(d: Described, judged: &[(f64, f64)]) -> Selection {
    let mut sel = Selection::default();
    for (b, _) in d
        .blocks
        .iter()
        .zip(judged)
        .filter(|(_, (p, need))| p >= need)
    {
        sel.nodes
            .extend(b.nodes.iter().map(|n| n.0).filter(|&id| id != NONE));
    }
    if sel.nodes.is_empty() {
        return d.selection;
    }
    sel
}

/// The block model's selection of the page under `mode` ([`describe`], then `selection`);
/// `auto`'s on a page the model does not read (`reads`).
pub fn extract(doc: &Document<'_>, mode: Mode) -> Selection {
    if reads(doc) {
        selection(describe(doc), mode)
    } else {
        auto::extract(
            doc,
            &extract::AlgoOptions {
                mode,
                ..trained_options()
            }
            .tuning(),
        )
    }
}

/// What the block model's selection comes with.
#[derive(Debug)]
pub(crate) struct Judgement {
    /// The page's best expected F1 ([`Judged::best_f1`]): how much of the page the model
    /// expects its selection to get right, its confidence.
    pub best_f1: f64,
    /// `auto`'s selection the model read (balanced, without comments, every rule on): what
    /// the page models were trained on.
    pub rules: Selection,
}

/// The block model's selection of a described page under `mode` ([`judge`], then
/// [`select`]), for a caller that reads the description too.
pub(crate) fn selection(d: Described, mode: Mode) -> Selection {
    selection_judged(d, mode).0
}

/// [`selection`] with its [`Judgement`].
pub(crate) fn selection_judged(d: Described, mode: Mode) -> (Selection, Judgement) {
    let judged = judge(&d, mode);
    let rules = Selection {
        nodes: d.selection.nodes.clone(),
    };
    (
        select(d, &judged.blocks),
        Judgement {
            best_f1: judged.best_f1,
            rules,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_reads_the_features_in_the_order_the_trainer_wrote_them() {
        let names: Vec<String> = features::FEATURES
            .iter()
            .map(|s| s.to_string())
            .chain((0..features::ANCESTOR_BUCKETS).map(|i| format!("anc{i}")))
            .chain((0..features::OWN_BUCKETS).map(|i| format!("own{i}")))
            .collect();
        let inputs = &model().inputs;
        assert_eq!(inputs[..2], ["tag", "parent_tag"]);
        assert_eq!(inputs[2..], names);
        let runs = [
            "s_prev1", "s_next1", "s_prev2", "s_next2", "s_window", "s_page", "s_max", "s_best",
        ];
        assert_eq!(model().run_inputs, runs);
    }

    #[test]
    fn the_blocks_counted_are_the_blocks_described() {
        let pages = [
            "<html><body><p>One</p><p>Two <b>bold</b> and</p><div>  </div></body></html>",
            // Cells of a row are one block; a hidden text and blank runs are none.
            "<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table><p hidden>h</p>x",
            "<ul><li>a<li>b<li><p>c</ul>tail<br>more<h2>head</h2>",
            "text only, no tag",
            "",
        ];
        for page in pages {
            let arena = bumpalo::Bump::new();
            let doc = Document::parse(page, &arena);
            let described = describe(&doc).blocks.len();
            assert_eq!(
                analysis::count_blocks(&doc, usize::MAX),
                described,
                "{page}"
            );
            // The count stops past `stop`.
            if described > 1 {
                assert_eq!(analysis::count_blocks(&doc, 0), 1, "{page}");
            }
        }
    }

    #[test]
    fn the_best_expected_f1_is_the_best_prefix_by_probability() {
        // Sorted: 0.9 (10 words), 0.5 (1), 0.2 (10); Σ p·w = 9 + 0.5 + 2 = 11.5. The prefixes
        // give 18/21.5, 19/22.5 and 23/32.5: the second is the best.
        let best = best_f1(&[0.9, 0.2, 0.5], &[10.0, 10.0, 1.0]);
        assert_eq!(best, 19.0 / 22.5);
        // Ties keep block order, and a page without words has nothing to expect.
        assert_eq!(best_f1(&[0.1, 0.1], &[5.0, 5.0]), 2.0 / 11.0);
        assert_eq!(best_f1(&[0.7, 0.3], &[0.0, 0.0]), 0.0);
        assert_eq!(best_f1(&[], &[]), 0.0);
    }

    #[test]
    fn the_neighbours_inputs_are_the_trainers() {
        let p = [0.5, 0.25, 1.0, 0.0, 0.75];
        let page = PageRun::new(&p, &[1.0; 5]);
        // Σ p·w = 2.5; the best prefix is the three likeliest blocks: 2 · 2.25 / (3 + 2.5).
        assert_eq!((page.mean, page.max, page.best), (0.5, 1.0, 4.5 / 5.5));
        let best = (4.5f64 / 5.5) as f32;
        // Block 0: no previous blocks; the window is blocks 1-3.
        assert_eq!(
            run_inputs(&p, 0, page),
            [
                -1.0,
                0.25,
                -1.0,
                1.0,
                (1.25f64 / 3.0) as f32,
                0.5,
                1.0,
                best
            ]
        );
        // Block 2: two on each side.
        assert_eq!(
            run_inputs(&p, 2, page),
            [0.25, 0.0, 0.5, 0.75, 0.375, 0.5, 1.0, best]
        );
        // A page of one block has no neighbours.
        let one = PageRun::new(&[0.9], &[3.0]);
        assert_eq!(
            run_inputs(&[0.9], 0, one),
            [
                -1.0,
                -1.0,
                -1.0,
                -1.0,
                -1.0,
                0.9,
                0.9,
                (2.0 * 2.7f64 / (3.0 + 2.7)) as f32
            ]
        );
    }
}
