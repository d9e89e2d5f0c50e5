//! The page's text blocks as rows of features, for training the block model.
//!
//! The blocks and their numbers are the block model's own ([`crate::extract::learned::features`]: the blocks
//! the report lists, seen through `auto`'s run and DANAg's profile); this module adds each
//! block's gold label by the report's rule (`in_gold`: at least half of its word pairs are in
//! the gold; `None` under two words). Nothing here changes what any extractor does.

use super::{GoldIndex, in_gold};

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
    /// Whether the gold has it (at least half of its word pairs); `None` without a gold text
    /// or under two words.
    pub gold: Option<bool>,
    /// The tag name of the block-level element holding the block (`""` when unknown).
    pub tag: &'static str,
    /// The tag name of that element's parent.
    pub parent_tag: &'static str,
    /// [`FEATURES`] then the hashed buckets: [`N_FEATURES`] numbers.
    pub features: Vec<f32>,
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
pub fn block_rows(bytes: &[u8], opts: &Options, gold: Option<&str>) -> Result<PageRows, Error> {
    let decoded = crate::page::decode_page(bytes, opts.charset.as_ref(), None)?;
    let arena = bumpalo::Bump::new();
    let doc = Document::parse(&decoded.text, &arena);
    let d = features::describe(&doc, &opts.extract);
    let gold = gold.map(GoldIndex::new);
    let blocks = d
        .texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let (tag, parent_tag) = d.tags.get(i).copied().unwrap_or(("", ""));
            BlockRow {
                gold: gold.as_ref().and_then(|g| in_gold(g, text)),
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
