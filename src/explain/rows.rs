//! The page's text blocks as rows of features, for training the block model.
//!
//! The blocks and their numbers are the block model's own ([`crate::extract::learned::features`]: the blocks
//! the report lists, seen through `auto`'s run and DANAg's profile); this module adds each
//! block's gold label ([`Labels`]): against a gold text by the report's rule (`in_gold`: at
//! least half of its word pairs are in the gold; `None` under two words) or by counted pairs
//! (`gold_labels`, measured and not the shipped model's), against snippet gold by the same
//! rule and by containment; against a gold text, also the share of the block's word pairs the
//! gold has ([`BlockRow::share`], the shipped block model's labels). Nothing here changes what
//! any extractor does.

use super::{GoldIndex, at_least_half, gold_pairs, in_gold, pair};
use crate::eval::metrics::normalize_ws;

use crate::extract::auto::Outcome;
use crate::extract::learned::features;
pub use crate::extract::learned::features::{ANCESTOR_BUCKETS, FEATURES, N_FEATURES, OWN_BUCKETS};
use crate::html::Document;
use crate::page::{Error, Options};

/// One text block of a page, with its label and features.
#[derive(Clone, Debug)]
pub struct BlockRow {
    /// The block's text, entities decoded, cells separated by tabs.
    pub text: String,
    /// Whether the gold has it ([`Labels`]); `None` without a gold, under two words, or not
    /// judged by snippet gold.
    pub gold: Option<bool>,
    /// The share of its word pairs the gold has, against a gold text by the per-block rule
    /// ([`Labels::Text`]: `gold` is whether it is at least one half); `None` under two
    /// words and under the other labels. `pith-lab blocks --label-share` writes it as the
    /// label the shipped block model learns (docs/model.md, "The label").
    pub share: Option<f64>,
    /// The tag name of the block-level element holding the block (`""` when unknown).
    pub tag: &'static str,
    /// The tag name of that element's parent.
    pub parent_tag: &'static str,
    /// [`FEATURES`] then the hashed buckets: [`N_FEATURES`] numbers.
    pub features: Vec<f32>,
}

/// What a page's blocks are labelled against.
#[derive(Clone, Copy, Debug)]
pub enum Labels<'a> {
    /// A gold text: a block is content when at least half of its word pairs are in it, not
    /// content otherwise.
    Text(&'a str),
    /// A gold text, pairs counted (`pith-lab blocks --counted-pairs`; measured, not the
    /// shipped model's labels, docs/research-log.md): a block is content when at least half of its
    /// word pairs are among the gold's pairs that no longer block (or earlier one of its
    /// length) claimed; a pair counts as often as the gold has it.
    CountedText(&'a str),
    /// Snippet gold (trafilatura_eval): sentences the output must hold (`with`) and must not
    /// (`without`). A block is content when it holds a `with` snippet whole or at least half
    /// of its word pairs are in the `with` snippets; not content by the same test on the
    /// `without` snippets. Snippets cover a few sentences of a page, so a block that neither
    /// test (or both) picks is not judged (`None`), unlike against a gold text.
    Snippets {
        /// Text the main content holds.
        with: &'a [String],
        /// Text that is not main content.
        without: &'a [String],
    },
}

/// One side of snippet gold, indexed for [`Labels::Snippets`]'s two tests.
struct SnippetIndex {
    pairs: GoldIndex,
    /// The snippets of two words or more, white space normalized as the snippet scorer does.
    whole: Vec<String>,
}

impl SnippetIndex {
    fn new(snippets: &[String]) -> SnippetIndex {
        SnippetIndex {
            pairs: GoldIndex::of_pieces(snippets.iter().map(String::as_str)),
            whole: snippets
                .iter()
                .filter(|s| crate::eval::metrics::tokens(s).len() >= 2)
                .map(|s| normalize_ws(s))
                .collect(),
        }
    }

    fn has(&self, text: &str, normalized: &str) -> bool {
        in_gold(&self.pairs, text) == Some(true)
            || self.whole.iter().any(|s| normalized.contains(s.as_str()))
    }
}

/// The label of each block text under `labels` (see [`Labels`]).
enum Labeller {
    Text(GoldIndex),
    CountedText(GoldIndex),
    Snippets {
        with: SnippetIndex,
        without: SnippetIndex,
    },
}

impl Labeller {
    fn new(labels: Labels<'_>) -> Labeller {
        match labels {
            Labels::Text(gold) => Labeller::Text(GoldIndex::new(gold)),
            Labels::CountedText(gold) => Labeller::CountedText(GoldIndex::new(gold)),
            Labels::Snippets { with, without } => Labeller::Snippets {
                with: SnippetIndex::new(with),
                without: SnippetIndex::new(without),
            },
        }
    }

    /// The labels of a page's block texts and, against a gold text by the per-block rule,
    /// the share of each one's word pairs in the gold (the counts the label tests), in their
    /// order.
    fn judge(&self, texts: &[String]) -> (Vec<Option<bool>>, Vec<Option<f64>>) {
        let no_shares = || vec![None; texts.len()];
        match self {
            Labeller::Text(g) => texts
                .iter()
                .map(|t| {
                    let counts = gold_pairs(g, t);
                    (
                        counts.map(at_least_half),
                        counts.map(|(found, pairs)| found as f64 / pairs as f64),
                    )
                })
                .unzip(),
            Labeller::CountedText(g) => (gold_labels(g, texts), no_shares()),
            Labeller::Snippets { with, without } => {
                let labels = texts
                    .iter()
                    .map(|text| {
                        // A block under two words is never judged: `in_gold` says None, and it
                        // cannot hold a whole snippet, which has two words or more.
                        let normalized = normalize_ws(text);
                        match (with.has(text, &normalized), without.has(text, &normalized)) {
                            (true, false) => Some(true),
                            (false, true) => Some(false),
                            _ => None,
                        }
                    })
                    .collect();
                (labels, no_shares())
            }
        }
    }
}

/// The blocks of one page judged against its gold text together, in their order: a block is
/// in the gold when at least half of its word pairs are among the gold's pairs that no block
/// judged before it claimed, and then it claims them. Blocks are judged longest first (in
/// page order among equal lengths), since a long block is the surer match. A gold pair
/// counts as often as the gold has it, as the scorer counts words: a heading the gold has
/// once, printed again in a menu and a breadcrumb, is in the gold once, where `in_gold`
/// would say all three are. A block under two words is not judged (`None`).
fn gold_labels(g: &GoldIndex, texts: &[String]) -> Vec<Option<bool>> {
    let tokens: Vec<Vec<String>> = texts
        .iter()
        .map(|t| crate::eval::metrics::tokens(t))
        .collect();
    let mut order: Vec<usize> = (0..texts.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(tokens[i].len()), i));
    let mut left = g.pairs.clone();
    let mut labels = vec![None; texts.len()];
    let mut own: ahash::AHashMap<String, u32> = ahash::AHashMap::new();
    for i in order {
        let t = &tokens[i];
        if t.len() < 2 {
            continue;
        }
        own.clear();
        for w in t.windows(2) {
            *own.entry(pair(&w[0], &w[1])).or_insert(0) += 1;
        }
        let found: u32 = own
            .iter()
            .map(|(p, &n)| n.min(left.get(p).copied().unwrap_or(0)))
            .sum();
        let is_gold = found as usize * 2 >= t.len() - 1;
        if is_gold {
            for (p, &n) in &own {
                if let Some(l) = left.get_mut(p) {
                    *l -= n.min(*l);
                }
            }
        }
        labels[i] = Some(is_gold);
    }
    labels
}

/// Every text block of one page.
#[derive(Clone, Debug)]
pub struct PageRows {
    /// The blocks in document order.
    pub blocks: Vec<BlockRow>,
    /// Which rule gave `auto`'s selection: container, spread, danag or everything.
    pub outcome: &'static str,
}

/// Cuts the page into the report's text blocks and describes each (see the module docs).
/// `opts` should ask for `auto`: the `auto_*` features come from its trace.
pub fn block_rows(
    bytes: &[u8],
    opts: &Options,
    labels: Option<Labels<'_>>,
) -> Result<PageRows, Error> {
    let decoded = crate::page::decode_page(bytes, opts.charset.as_ref(), None)?;
    let arena = bumpalo::Bump::new();
    let doc = Document::parse(&decoded.text, &arena);
    let d = features::describe(&doc, &opts.extract);
    let (gold, share) = labels.map_or_else(
        || (vec![None; d.texts.len()], vec![None; d.texts.len()]),
        |l| Labeller::new(l).judge(&d.texts),
    );
    let blocks = d
        .texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let (tag, parent_tag) = d.tags.get(i).copied().unwrap_or(("", ""));
            BlockRow {
                gold: gold.get(i).copied().flatten(),
                share: share.get(i).copied().flatten(),
                text: text.clone(),
                tag,
                parent_tag,
                features: d.row(i).to_vec(),
            }
        })
        .collect();
    Ok(PageRows {
        blocks,
        outcome: match d.outcome {
            Outcome::Container => "container",
            Outcome::Spread => "spread",
            Outcome::Danag => "danag",
            Outcome::Everything => "everything",
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippet_gold_labels_the_blocks_it_speaks_of_and_no_other() {
        let page = b"<html><body><nav><p><a href=/>Home</a></p><p><a href=/news>All the news today</a></p></nav>\
            <article><p>The council voted on Tuesday to close the old bridge for repairs.</p>\
            <p>Work is expected to last until the spring, the mayor said.</p>\
            <p>Residents can use the ferry in the meantime.</p></article>\
            <aside><p>Read more: a second story about the harbour.</p></aside></body></html>";
        let with = ["voted on Tuesday to close the old bridge".to_string()];
        let without = [
            "All the news today".to_string(),
            "Read more: a second story about the harbour.".to_string(),
        ];
        let labels = Labels::Snippets {
            with: &with,
            without: &without,
        };
        let rows = block_rows(page, &Options::default(), Some(labels)).expect("a page");
        let label = |text: &str| {
            rows.blocks
                .iter()
                .find(|r| r.text.contains(text))
                .unwrap_or_else(|| panic!("no block {text}"))
                .gold
        };
        // A paragraph holding a `with` snippet whole, though most of its words are not in it.
        assert_eq!(label("council voted"), Some(true));
        assert_eq!(label("Read more"), Some(false));
        assert_eq!(label("All the news"), Some(false));
        // Article text no snippet speaks of is not judged, either way.
        assert_eq!(label("Work is expected"), None);
        assert_eq!(label("ferry"), None);
        // Under two words: never judged.
        assert_eq!(label("Home"), None);
        // The same page against a gold text: every block of two words or more is judged.
        let gold = "The council voted on Tuesday to close the old bridge for repairs. Work is \
            expected to last until the spring, the mayor said.";
        let rows = block_rows(page, &Options::default(), Some(Labels::Text(gold))).expect("a page");
        let judged: Vec<_> = rows.blocks.iter().map(|r| r.gold).collect();
        assert!(judged.contains(&Some(true)) && judged.contains(&Some(false)));
    }

    #[test]
    fn counted_pairs_label_as_many_blocks_as_the_gold_has_them() {
        // The heading is in the gold once and on the page three times: in the menu, in the
        // breadcrumb and over the article. One copy is content, the first in page order
        // among blocks of its length (the menu's: the rule cannot tell the copies apart),
        // and the other two are not. The paragraph, longer, is judged first.
        let page = b"<html><body><nav><p><a href=/a>Choosing where workflows run</a></p>\
            <p><a href=/b>Reusing workflow configurations</a></p></nav>\
            <div class=crumbs><p>Choosing where workflows run</p></div>\
            <article><h1>Choosing where workflows run</h1>\
            <p>You can specify the compute environment your jobs and workflows run in.</p>\
            </article></body></html>";
        let gold = "Choosing where workflows run\n\nYou can specify the compute environment \
            your jobs and workflows run in.";
        let rows =
            block_rows(page, &Options::default(), Some(Labels::CountedText(gold))).expect("a page");
        let labels = |text: &str| -> Vec<Option<bool>> {
            rows.blocks
                .iter()
                .filter(|r| r.text == text)
                .map(|r| r.gold)
                .collect()
        };
        assert_eq!(
            labels("Choosing where workflows run"),
            [Some(true), Some(false), Some(false)]
        );
        assert_eq!(
            labels("You can specify the compute environment your jobs and workflows run in."),
            [Some(true)]
        );
        // Its pairs ("workflow configurations") are in no gold: not content either way.
        assert_eq!(labels("Reusing workflow configurations"), [Some(false)]);
        // Judged one by one (the default labels), all three copies are content.
        let rows = block_rows(page, &Options::default(), Some(Labels::Text(gold))).expect("a page");
        let copies = rows
            .blocks
            .iter()
            .filter(|r| r.text == "Choosing where workflows run")
            .map(|r| r.gold);
        assert!(copies.eq([Some(true); 3]));
    }

    #[test]
    fn the_share_of_a_blocks_pairs_in_the_gold_is_what_its_label_thresholds() {
        let page = b"<html><body><nav><p><a href=/>Home</a></p></nav><article>\
            <p>The council voted on Tuesday to close the bridge.</p>\
            <p>The council voted to sell tickets at the station.</p>\
            <p>Nothing of this sentence appears anywhere else.</p></article></body></html>";
        let gold = "The council voted on Tuesday to close the bridge.";
        let rows = block_rows(page, &Options::default(), Some(Labels::Text(gold))).expect("a page");
        let row = |text: &str| {
            let r = rows
                .blocks
                .iter()
                .find(|r| r.text.starts_with(text))
                .unwrap_or_else(|| panic!("no block {text}"));
            (r.share, r.gold)
        };
        assert_eq!(row("The council voted on"), (Some(1.0), Some(true)));
        // Two of its eight pairs are in the gold: "the council" and "council voted".
        assert_eq!(row("The council voted to"), (Some(0.25), Some(false)));
        assert_eq!(row("Nothing of this"), (Some(0.0), Some(false)));
        // Under two words: neither judged nor measured.
        assert_eq!(row("Home"), (None, None));
        // Counted pairs give no share.
        let rows =
            block_rows(page, &Options::default(), Some(Labels::CountedText(gold))).expect("a page");
        assert!(rows.blocks.iter().all(|r| r.share.is_none()));
    }

    #[test]
    fn blocks_in_runs_of_alike_cards_say_where_in_the_run_they_are() {
        let page = b"<html><body><p>An opening paragraph of the page, with words enough.</p>\
            <div class=list><div class=card><h3>First story</h3></div>\
            <div class=card><h3>Second story</h3></div>\
            <div class=card><h3>Third story</h3></div>\
            <div class=other><h3>Not a card</h3></div></div></body></html>";
        let rows = block_rows(page, &Options::default(), None).expect("a page");
        let at = |name: &str| FEATURES.iter().position(|f| *f == name).expect(name);
        let feature = |text: &str, name: &str| {
            let row = rows
                .blocks
                .iter()
                .find(|r| r.text.contains(text))
                .unwrap_or_else(|| panic!("no block {text}"));
            row.features[at(name)]
        };
        assert_eq!(feature("opening", "rep_position"), 0.0);
        assert_eq!(feature("First story", "rep_position"), 0.0);
        assert_eq!(feature("Second story", "rep_position"), 2.0);
        assert_eq!(feature("Third story", "rep_position"), 3.0);
        // The card is the h3's parent: the second element on the walk up.
        assert_eq!(feature("Third story", "rep_depth"), 2.0);
        assert_eq!(feature("Not a card", "rep_position"), 0.0);
    }
}
