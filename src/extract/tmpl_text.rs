//! The text-based template detector (`--algo tmpl-text`): Prathibha, Sukumar, Sriram, *Automatic
//! Template Detection Using Novel Approach* (IJERT 2012), section 3, "Text based algorithm"
//! (after Gibson, Punera, Tomkins 2005). It owns the detagged text of a page, the sliding
//! window over it, the set of frequent fragments, and the coalesced template spans.
//!
//! - **Detagging**: tags, comments and script/style text are removed; what is left is the
//!   visible text nodes, entities decoded, white space collapsed, joined by one space (a tag
//!   between two words separates them). Each byte remembers its text node.
//! - **First pass**: P pages sampled uniformly at random (a fixed seed: runs repeat); a window of
//!   W bytes slides over their text and each fragment's counter is incremented; fragments seen at
//!   least F times are frequent. With a sampling density D > 1 a counter is kept only for
//!   fragments whose hash is 0 modulo D, so a fragment counted on one page is counted on all
//!   (D = 0 or 1: every fragment, the paper's D = 0).
//! - **Second pass**: each page is scanned for the frequent fragments; overlapping or contiguous
//!   ones coalesce into one template span.
//!
//! The output is per text node (what pith renders): a text node is template when most of its
//! bytes lie in template spans, the majority rule used elsewhere in pith. Content is the rest.
//!
//! The paper gives no values for W, F and P; [`Params`] says why pith's are what they are.

use std::collections::{HashMap, HashSet};

use super::Selection;
use crate::html::Document;
use crate::html::entities;
use crate::html::tree::{Kind, NodeId, context};

/// The detector's parameters (`--window`, `--freq`, `--density`, `--sample`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Window size W in bytes of detagged text. 32 bytes is five or six English words: long
    /// enough that a shared phrase of ordinary prose ("one of the most") does not fill a
    /// window, short enough to fit inside the text of a small menu or footer.
    pub window: usize,
    /// Fragment frequency F: a fragment counted at least this many times in the sample is
    /// template. 0 picks the majority of the sampled pages (at least 2), CE's majority rule.
    pub freq: usize,
    /// Sampling density D: only fragments whose hash is 0 modulo D are counted (0 or 1: all,
    /// the paper's D = 0). A speed setting; keep it below W so kept fragments still overlap.
    pub density: u64,
    /// Page sample size P for the first pass. 30 pages, the sample `pith learn` keeps per host
    /// (`--max-pages`).
    pub sample: usize,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            window: 32,
            freq: 0,
            density: 0,
            sample: 30,
        }
    }
}

/// A page's detagged text and which text node each run of it came from.
#[derive(Clone, Debug, Default)]
pub struct PageText {
    /// The visible text nodes, entities decoded, white space collapsed, joined by one space.
    pub text: String,
    /// `(start, end, node)`: bytes `start..end` of `text` are node's, in order.
    pub spans: Vec<(usize, usize, NodeId)>,
}

/// The visible text of a page, detagged as the paper does.
pub fn page_text(doc: &Document<'_>) -> PageText {
    let mut out = PageText::default();
    let mut decoded = String::new();
    for (i, n) in doc.tree.nodes.iter().enumerate() {
        if n.kind != Kind::Text || n.context() & context::HIDDEN != 0 {
            continue;
        }
        decoded.clear();
        entities::decode_into(doc.raw_text(i as NodeId), &mut decoded);
        let mut words = decoded.split_whitespace().peekable();
        if words.peek().is_none() {
            continue;
        }
        if !out.text.is_empty() {
            out.text.push(' ');
        }
        let start = out.text.len();
        for (k, w) in words.enumerate() {
            if k > 0 {
                out.text.push(' ');
            }
            out.text.push_str(w);
        }
        out.spans.push((start, out.text.len(), i as NodeId));
    }
    out
}

/// Base of the rolling hash (an odd 64-bit constant, the golden ratio's fraction; arithmetic is
/// modulo 2^64).
const BASE: u64 = 0x9e37_79b9_7f4a_7c15;

/// Calls `f(offset, hash)` for every window of `w` bytes of `text`, in order (Rabin-Karp: each
/// step is O(1), so a page costs one pass whatever W is).
fn windows(text: &[u8], w: usize, mut f: impl FnMut(usize, u64)) {
    if w == 0 || text.len() < w {
        return;
    }
    let mut top = 1u64; // BASE^(w-1)
    for _ in 1..w {
        top = top.wrapping_mul(BASE);
    }
    let mut h = 0u64;
    for &b in &text[..w] {
        h = h.wrapping_mul(BASE).wrapping_add(u64::from(b) + 1);
    }
    f(0, h);
    for i in w..text.len() {
        let out = u64::from(text[i - w]) + 1;
        h = h
            .wrapping_sub(out.wrapping_mul(top))
            .wrapping_mul(BASE)
            .wrapping_add(u64::from(text[i]) + 1);
        f(i + 1 - w, h);
    }
}

/// Whether the sampling density keeps a fragment: its hash, mixed so that the low bits depend
/// on every byte, is 0 modulo D.
fn kept(h: u64, density: u64) -> bool {
    density <= 1
        || (h ^ (h >> 29))
            .wrapping_mul(0xbf58_476d_1ce4_e5b9)
            .is_multiple_of(density)
}

/// The first pass's result: the frequent fragments.
#[derive(Clone, Debug, Default)]
pub struct Model {
    /// Rolling hashes of the fragments (windows) seen at least `freq` times in the sample.
    pub frequent: HashSet<u64>,
    /// Window size W in bytes the fragments were hashed with.
    pub window: usize,
    /// Sampling density D the fragments were counted with (0 or 1: all).
    pub density: u64,
    /// Pages in the sample, and the frequency used.
    pub sampled: usize,
    /// The frequency threshold F used: `Params::freq`, or the sample's majority (at least 2) for 0.
    pub freq: usize,
}

/// The first pass over the sampled pages' texts.
pub fn learn(sampled: &[&PageText], params: &Params) -> Model {
    let mut counts: HashMap<u64, u32> = HashMap::new();
    for t in sampled {
        windows(t.text.as_bytes(), params.window, |_, h| {
            if kept(h, params.density) {
                let c = counts.entry(h).or_insert(0);
                *c = c.saturating_add(1);
            }
        });
    }
    let freq = if params.freq == 0 {
        sampled.len().div_ceil(2).max(2)
    } else {
        params.freq
    };
    Model {
        frequent: counts
            .into_iter()
            .filter(|&(_, c)| c as usize >= freq)
            .map(|(h, _)| h)
            .collect(),
        window: params.window,
        density: params.density,
        sampled: sampled.len(),
        freq,
    }
}

/// What the second pass found on one page.
#[derive(Debug, Default)]
pub struct Detected {
    /// The content: the page's visible text nodes that are not mostly covered by template spans.
    pub selection: Selection,
    /// Coalesced template spans of the page's detagged text.
    pub spans: Vec<(usize, usize)>,
}

/// The second pass on one page.
pub fn detect(doc: &Document<'_>, text: &PageText, model: &Model) -> Detected {
    // Frequent fragments come in offset order, so coalescing is one running span.
    let mut spans: Vec<(usize, usize)> = Vec::new();
    windows(text.text.as_bytes(), model.window, |off, h| {
        if !kept(h, model.density) || !model.frequent.contains(&h) {
            return;
        }
        let end = off + model.window;
        match spans.last_mut() {
            Some(last) if off <= last.1 => last.1 = last.1.max(end),
            _ => spans.push((off, end)),
        }
    });
    // Per text node: template when most of its bytes are covered. Both lists are in order.
    let mut template_node: HashSet<NodeId> = HashSet::new();
    let mut k = 0;
    for &(s, e, node) in &text.spans {
        while k < spans.len() && spans[k].1 <= s {
            k += 1;
        }
        let mut covered = 0;
        let mut j = k;
        while j < spans.len() && spans[j].0 < e {
            covered += spans[j].1.min(e) - spans[j].0.max(s);
            j += 1;
        }
        if covered * 2 > e - s {
            template_node.insert(node);
        }
    }
    let nodes = super::blocks::text_nodes(doc, |i| !template_node.contains(&(i as NodeId)));
    Detected {
        selection: Selection { nodes },
        spans,
    }
}

/// `--algo tmpl-text` over pages given together: the first pass over a sample of them, the
/// second over each.
pub fn site(docs: &[&Document<'_>], params: &Params) -> Vec<Selection> {
    let texts: Vec<PageText> = docs.iter().map(|d| page_text(d)).collect();
    let sampled: Vec<&PageText> = super::sample::sample_indices(texts.len(), params.sample)
        .into_iter()
        .filter_map(|i| texts.get(i))
        .collect();
    let model = learn(&sampled, params);
    docs.iter()
        .zip(&texts)
        .map(|(d, t)| detect(d, t, &model).selection)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each page's text after detection over the set.
    fn run(pages: &[String], params: &Params) -> Vec<String> {
        crate::extract::site_texts(pages, |docs| site(docs, params))
    }

    fn page(story: &str) -> String {
        format!(
            "<body><div>Example Gazette: news, sport and weather for the valley</div>\
             <p>{story}</p><script>var s = 'Example Gazette: news, sport and weather';</script>\
             <div>All rights reserved by the Example Gazette company, since 1901</div></body>"
        )
    }

    #[test]
    fn frequent_fragments_are_template_the_story_is_content() {
        let pages = vec![
            page("The council approved the new bridge after a debate of four hours."),
            page("A storm closed the harbour road for most of Thursday afternoon."),
            page("The school choir won the regional contest with a folk song."),
        ];
        let out = run(&pages, &Params::default());
        assert_eq!(
            out[1].trim(),
            "A storm closed the harbour road for most of Thursday afternoon."
        );
        assert!(!out[0].contains("Gazette") && !out[2].contains("rights reserved"));
    }

    #[test]
    fn density_samples_the_same_fragments_on_every_page() {
        let pages = vec![
            page("The council approved the new bridge after a debate of four hours."),
            page("A storm closed the harbour road for most of Thursday afternoon."),
            page("The school choir won the regional contest with a folk song."),
        ];
        let d = Params {
            density: 4,
            ..Params::default()
        };
        let out = run(&pages, &d);
        assert!(out[0].contains("council approved"), "{}", out[0]);
        assert!(!out[0].contains("All rights reserved"), "{}", out[0]);
    }

    #[test]
    fn rolling_hash_equals_a_fresh_hash_of_each_window() {
        let text = b"abcdefghij abcdefghij";
        let mut seen = Vec::new();
        windows(text, 5, |o, h| seen.push((o, h)));
        assert_eq!(seen.len(), text.len() - 4);
        for &(o, h) in &seen {
            let mut fresh = Vec::new();
            windows(&text[o..o + 5], 5, |_, h2| fresh.push(h2));
            assert_eq!(fresh, vec![h]);
        }
        // Equal fragments at offsets 0 and 11 hash alike.
        assert_eq!(seen[0].1, seen[11].1);
    }
}
