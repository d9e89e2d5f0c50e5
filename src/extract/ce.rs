//! ContentExtractor (Debnath, Mitra, Pal, Giles 2005), as Nguyen et al. summarize it in Section
//! II of *A Fast Template-based Approach to Automatically Identify Primary Text Content of a Web
//! Page*: the baseline FastCE improves on, and FastCE's preparation phase.
//!
//! Input: several pages of one site, given together. Each page is partitioned into atomic blocks
//! (every block's own content, [`super::blocks`]); for each atomic block B, CE counts the pages
//! that contain a block similar to B (cosine above 0.9); a block found in many pages is
//! non-content, any other is content. "Many" is a parameter: more than [`DEFAULT_SHARE`] of the
//! *other* pages. Debnath et al. leave it as a threshold; a strict majority is the plainest
//! reading of "occurs many times over different web pages" and needs no fitting to a data set.
//!
//! CE compares every block with every block of every other page. Two exact shortcuts keep that
//! affordable without changing the result: blocks with identical vectors are compared once (a
//! site's template repeats them on every page), and a pair is not compared when every page the
//! second block occurs in is already counted for the first.

use std::collections::HashMap;

use super::blocks::{Features, similar};

/// A block is non-content when similar blocks occur in more than this share of the other pages.
pub const DEFAULT_SHARE: f32 = 0.5;

/// Non-empty blocks of one page that CE compares; later ones are left out (not content).
/// Comparing every pair of distinct blocks is quadratic, so a hostile page of a million
/// paragraphs must not reach it: real pages have a few hundred (msv_big9: 154 on average).
pub(crate) const MAX_BLOCKS_PER_PAGE: usize = 2000;

/// CE's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Two blocks are similar when their cosine is above this (paper: 0.9).
    pub similarity: f32,
    /// Non-content when similar blocks occur in more than this share of the other pages.
    pub share: f32,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            similarity: super::blocks::SIMILAR,
            share: DEFAULT_SHARE,
        }
    }
}

/// What CE decided, with the counts the paper's Table II reports.
#[derive(Debug, Default)]
pub(crate) struct Classified {
    /// For each page, for each block (indexed like the input): content or not. Empty blocks are
    /// never content.
    pub content: Vec<Vec<bool>>,
    /// Distinct block vectors over all pages: the pool every block is compared against
    /// (the paper's NumBlockTemp for CE).
    pub distinct: usize,
    /// Non-empty atomic blocks per page, summed (the paper's NumBlock, before dividing).
    pub atomic: usize,
    /// Cosines computed.
    pub comparisons: u64,
}

/// A set of page numbers as a bit set.
#[derive(Clone)]
struct PageSet(Vec<u64>);

impl PageSet {
    fn new(pages: usize) -> PageSet {
        PageSet(vec![0; pages.div_ceil(64).max(1)])
    }
    fn insert(&mut self, p: usize) {
        if let Some(w) = self.0.get_mut(p / 64) {
            *w |= 1 << (p % 64);
        }
    }
    fn contains(&self, p: usize) -> bool {
        self.0.get(p / 64).is_some_and(|w| w & (1 << (p % 64)) != 0)
    }
    fn union(&mut self, o: &PageSet) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a |= b;
        }
    }
    fn covers(&self, o: &PageSet) -> bool {
        self.0.iter().zip(&o.0).all(|(a, b)| b & !a == 0)
    }
    fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// Runs ContentExtractor over the block vectors of several pages of one site (`pages[p][b]` is
/// the own-content vector of block `b` of page `p`).
pub(crate) fn classify(pages: &[Vec<Features>], params: Params) -> Classified {
    let n = pages.len();
    // Distinct vectors and the pages each occurs in.
    let mut index: HashMap<&[(u16, u16)], usize> = HashMap::new();
    let mut distinct: Vec<(&Features, PageSet)> = Vec::new();
    let mut id_of: Vec<Vec<usize>> = Vec::with_capacity(n);
    let mut atomic = 0;
    for (p, blocks) in pages.iter().enumerate() {
        let mut ids = Vec::with_capacity(blocks.len());
        let mut kept = 0;
        for f in blocks {
            if f.is_empty() || kept >= MAX_BLOCKS_PER_PAGE {
                ids.push(usize::MAX);
                continue;
            }
            atomic += 1;
            kept += 1;
            let id = *index.entry(f.entries.as_slice()).or_insert_with(|| {
                distinct.push((f, PageSet::new(n)));
                distinct.len() - 1
            });
            if let Some(d) = distinct.get_mut(id) {
                d.1.insert(p);
            }
            ids.push(id);
        }
        id_of.push(ids);
    }
    // For each distinct vector, the pages holding a similar block (itself included: cos = 1).
    let mut comparisons = 0u64;
    let mut similar_pages: Vec<PageSet> = distinct.iter().map(|d| d.1.clone()).collect();
    for (i, (fi, _)) in distinct.iter().enumerate() {
        for (j, (fj, pj)) in distinct.iter().enumerate() {
            if i == j || similar_pages[i].covers(pj) {
                continue;
            }
            comparisons += 1;
            if similar(fi, fj, params.similarity) {
                similar_pages[i].union(pj);
            }
        }
    }
    // Section II: a block occurring (as similar blocks) in many other pages is non-content.
    let others = n.saturating_sub(1) as f32;
    let content = id_of
        .iter()
        .enumerate()
        .map(|(p, ids)| {
            ids.iter()
                .map(|&id| {
                    let Some(set) = similar_pages.get(id) else {
                        return false;
                    };
                    let elsewhere = set.len() - usize::from(set.contains(p));
                    elsewhere as f32 <= params.share * others
                })
                .collect()
        })
        .collect();
    Classified {
        content,
        distinct: distinct.len(),
        atomic,
        comparisons,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(words: &[(u16, u16)]) -> Features {
        Features::from_entries(words.to_vec())
    }

    #[test]
    fn repeated_blocks_are_non_content_unique_ones_content() {
        let menu = v(&[(2, 5), (10, 1), (11, 1), (12, 1)]);
        // Nearly the menu (one word more): cosine above 0.9, still the template.
        let menu2 = v(&[(2, 5), (10, 1), (11, 1), (12, 1), (13, 1)]);
        let pages = vec![
            vec![menu.clone(), v(&[(100, 3), (101, 2)]), Features::default()],
            vec![menu2, v(&[(200, 1), (201, 4)])],
            vec![menu.clone(), v(&[(300, 2)])],
        ];
        let c = classify(&pages, Params::default());
        assert_eq!(c.content[0], vec![false, true, false]);
        assert_eq!(c.content[1], vec![false, true]);
        assert_eq!(c.content[2], vec![false, true]);
        assert_eq!(c.atomic, 6);
    }

    #[test]
    fn blocks_past_the_cap_are_left_out() {
        let page: Vec<Features> = (0..MAX_BLOCKS_PER_PAGE as u16 + 500)
            .map(|i| v(&[(3 + i % 1000, 1 + i / 1000)]))
            .collect();
        let c = classify(&[page.clone(), page], Params::default());
        assert_eq!(c.atomic, 2 * MAX_BLOCKS_PER_PAGE);
        assert!(!c.content[0][MAX_BLOCKS_PER_PAGE]);
    }

    #[test]
    fn one_page_alone_is_all_content() {
        let c = classify(&[vec![v(&[(5, 1)])]], Params::default());
        assert_eq!(c.content, vec![vec![true]]);
    }

    #[test]
    fn a_block_in_half_the_other_pages_stays_content() {
        // Pages 0 and 1 share a block; pages 2, 3 do not: it occurs in 1 of 3 other pages.
        let shared = v(&[(50, 2)]);
        let pages = vec![
            vec![shared.clone()],
            vec![shared],
            vec![v(&[(60, 1)])],
            vec![v(&[(70, 1)])],
        ];
        let c = classify(&pages, Params::default());
        assert!(c.content[0][0] && c.content[1][0]);
    }
}
