//! The DOM-based template detector (`--algo tmpl-dom`): Prathibha, Sukumar, Sriram, *Automatic
//! Template Detection Using Novel Approach* (IJERT 2012), section 3, "DOM based algorithm" (after
//! Gibson, Punera, Tomkins 2005). It owns the template-hash of a node, the site's counts of
//! those hashes, and the per-page choice of template nodes.
//!
//! - **Template-hash**: a node's hash covers "the HTML content within the node's start and end
//!   tags and the node's name, attributes and their values": the start tag as written, then the
//!   hashes of its children in order. It is computed bottom-up in one reverse pass over the
//!   arena (children come after parents), so a page nested a million deep costs a linear pass,
//!   not one hash of the whole remaining page per level. Text nodes hash their text with white
//!   space collapsed; white-space-only text is formatting and is left out, so two pages that
//!   indent the same markup differently agree.
//! - **First pass**: the site's [`Model`] counts how many times each hash occurs over its pages.
//! - **Second pass**: a node is a template node when its count lies within the lower and upper
//!   thresholds and no ancestor is one. The paper gives the thresholds as counts for its sites
//!   and no values; pith states them per page of the set ([`Params`]) so one setting serves a
//!   site of 9 pages and one of 10,000.
//! - **Sibling coalescing**: template siblings separated by a small run of non-template siblings
//!   join into one template, the run included ("permits small gaps of changing content").
//!
//! Content is the visible text outside every template.

use std::collections::HashMap;

use super::Selection;
use super::blocks::{FNV_OFFSET, fnv1a};
use crate::html::Document;
use crate::html::tree::{Kind, NONE, NodeId, ROOT, context};

/// The detector's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Lower threshold, in occurrences per page of the set: a node must occur at least
    /// `max(2, ⌈lower · pages⌉)` times. Half the pages: a template is what most pages of the
    /// site show (the same majority rule as CE's share, [`super::ce::DEFAULT_SHARE`]); never
    /// below 2, since the paper notes that a lower threshold of 1 makes every page one template.
    pub lower: f32,
    /// Upper threshold, in occurrences per page: a node occurring more than `upper · pages`
    /// times is too common to be a template (the paper's `<BR>`). 3: a template node occurs
    /// about once per page, a menu link twice (header and footer); more is a generic construct.
    pub upper: f32,
    /// Sibling coalescing: a run of non-template siblings between two template siblings joins
    /// them when it holds at most this many words. 10 words leave room for a date, a user
    /// name or a counter inside a template, well under one sentence of content.
    pub gap_words: usize,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            lower: 0.5,
            upper: 3.0,
            gap_words: 10,
        }
    }
}

/// The template-hash of every node of a page (index = node id); white-space-only text nodes
/// get 0 and take no part in their parent's hash.
pub fn hashes(doc: &Document<'_>) -> Vec<u64> {
    let nodes = &doc.tree.nodes;
    let mut h = vec![0u64; nodes.len()];
    for i in (0..nodes.len()).rev() {
        let n = &nodes[i];
        h[i] = match n.kind {
            Kind::Text => text_hash(doc.raw_text(i as NodeId)),
            Kind::Element | Kind::Document => {
                let tag = doc
                    .src
                    .get(n.start as usize..doc.tree.inner_start(i as NodeId) as usize)
                    .unwrap_or("");
                let mut acc = fnv1a(FNV_OFFSET, tag.as_bytes());
                let mut c = doc.tree.first_child(i as NodeId);
                while c != NONE {
                    let ch = h[c as usize];
                    if ch != 0 {
                        acc = fnv1a(acc, &ch.to_le_bytes());
                    }
                    c = nodes[c as usize].next_sibling;
                }
                // Closes the element so that `<b>x</b>y` and `<b>xy</b>` differ.
                fnv1a(acc, b"/").max(1)
            }
        };
    }
    h
}

/// FNV-1a of a text with runs of white space collapsed to one space and the ends trimmed; 0
/// for text that is only white space.
fn text_hash(raw: &str) -> u64 {
    let mut acc = FNV_OFFSET;
    let mut any = false;
    let mut pending_space = false;
    for &b in raw.as_bytes() {
        if b.is_ascii_whitespace() {
            pending_space = any;
            continue;
        }
        if pending_space {
            acc = fnv1a(acc, b" ");
            pending_space = false;
        }
        acc = fnv1a(acc, &[b]);
        any = true;
    }
    if any { acc.max(1) } else { 0 }
}

/// The first pass: occurrences of every template-hash over the pages of a site.
#[derive(Clone, Debug, Default)]
pub struct Model {
    /// Occurrences of each nonzero template-hash over the pages added (every node but the root).
    pub counts: HashMap<u64, u32>,
    /// Pages added so far.
    pub pages: usize,
}

impl Model {
    /// Adds one page's hashes (from [`hashes`]).
    pub fn add(&mut self, page: &[u64]) {
        self.pages += 1;
        for &h in page.iter().skip(1) {
            if h != 0 {
                let c = self.counts.entry(h).or_insert(0);
                *c = c.saturating_add(1);
            }
        }
    }

    /// The counts a template node must lie within, for this model's number of pages.
    pub fn bounds(&self, params: &Params) -> (u32, u32) {
        let n = self.pages as f32;
        let lower = ((params.lower * n).ceil() as u32).max(2);
        let upper = ((params.upper * n).floor() as u32).max(lower);
        (lower, upper)
    }
}

/// What the second pass decided on one page.
#[derive(Debug, Default)]
pub struct Detected {
    /// The visible text nodes outside every template, in document order.
    pub selection: Selection,
    /// Template roots after coalescing (top-most template nodes and coalesced gaps).
    pub templates: Vec<NodeId>,
}

/// The second pass on one page: its template nodes under `model`, coalesced, and the rest as
/// content. `page` holds the page's hashes ([`hashes`]).
pub fn detect(doc: &Document<'_>, page: &[u64], model: &Model, params: &Params) -> Detected {
    let nodes = &doc.tree.nodes;
    let (lower, upper) = model.bounds(params);
    let is_tpl = |i: usize| {
        let h = page.get(i).copied().unwrap_or(0);
        h != 0 && {
            let c = model.counts.get(&h).copied().unwrap_or(0);
            (lower..=upper).contains(&c)
        }
    };
    // Top-most template nodes: a template node's subtree is skipped whole.
    let mut root_tpl = vec![false; nodes.len()];
    let mut i = 1;
    while i < nodes.len() {
        if is_tpl(i) {
            root_tpl[i] = true;
            i = doc.tree.subtree(i as NodeId).end.max(i + 1);
        } else {
            i += 1;
        }
    }
    // Words of every subtree (visible text only), bottom-up, for the coalescing gaps.
    let mut words = vec![0u32; nodes.len()];
    for i in (1..nodes.len()).rev() {
        let n = &nodes[i];
        if n.kind == Kind::Text && n.context() & context::HIDDEN == 0 {
            words[i] = doc
                .raw_text(i as NodeId)
                .split_ascii_whitespace()
                .count()
                .min(u32::MAX as usize) as u32;
        }
        if n.parent != NONE && n.parent != ROOT {
            let p = n.parent as usize;
            words[p] = words[p].saturating_add(words[i]);
        }
    }
    // Sibling coalescing: per parent, a short run of non-template siblings between two
    // template siblings becomes template too. Every child list is walked once.
    let mut coalesced = root_tpl.clone();
    for (i, n) in nodes.iter().enumerate() {
        let first = doc.tree.first_child(i as NodeId);
        if n.kind == Kind::Text || first == NONE {
            continue;
        }
        let mut last_tpl = false;
        let mut run: Vec<usize> = Vec::new();
        let mut run_words = 0usize;
        let mut c = first;
        while c != NONE {
            let ci = c as usize;
            if root_tpl[ci] {
                if last_tpl && run_words <= params.gap_words {
                    for &r in &run {
                        coalesced[r] = true;
                    }
                }
                last_tpl = true;
                run.clear();
                run_words = 0;
            } else if last_tpl {
                run.push(ci);
                run_words += words[ci] as usize;
                if run_words > params.gap_words {
                    // Too long to be a gap: wait for the next template sibling.
                    last_tpl = false;
                    run.clear();
                    run_words = 0;
                }
            }
            c = nodes[ci].next_sibling;
        }
    }
    // Inside a template: the node or an ancestor is one (parents come before children).
    let mut inside = vec![false; nodes.len()];
    for i in 1..nodes.len() {
        let p = nodes[i].parent;
        inside[i] = coalesced[i] || (p != NONE && inside[p as usize]);
    }
    let mut templates = Vec::new();
    for (i, &t) in coalesced.iter().enumerate() {
        let p = nodes[i].parent;
        if t && !(p != NONE && inside[p as usize]) {
            templates.push(i as NodeId);
        }
    }
    let nodes_out = super::blocks::text_nodes(doc, |i| !inside[i]);
    Detected {
        selection: Selection { nodes: nodes_out },
        templates,
    }
}

/// `--algo tmpl-dom` over pages given together: the model counts every page, then each page's
/// template is removed.
pub fn site(docs: &[&Document<'_>], params: &Params) -> Vec<Selection> {
    let all: Vec<Vec<u64>> = docs.iter().map(|d| hashes(d)).collect();
    let mut model = Model::default();
    for h in &all {
        model.add(h);
    }
    docs.iter()
        .zip(&all)
        .map(|(d, h)| detect(d, h, &model, params).selection)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each page's text after detection over the set.
    fn run(pages: &[String], params: &Params) -> Vec<String> {
        crate::extract::site_texts(pages, |docs| site(docs, params))
    }

    fn page(menu_extra: &str, body: &str) -> String {
        format!(
            "<html><body><div id=top><a href=/>Home</a> <a href=/news>News</a></div>\
             <div class=nav><ul><li>World</li><li>Sport</li></ul></div>{menu_extra}\
             <div class=story><p>{body}</p></div>\
             <div id=foot>Copyright Example Corp</div></body></html>"
        )
    }

    #[test]
    fn repeated_subtrees_are_template_unique_text_is_content() {
        let pages = [
            page(
                "",
                "The council approved the bridge on Tuesday after a debate of four hours.",
            ),
            page(
                "",
                "Rain is expected across the north this weekend, with snow on the hills.",
            ),
            page(
                "",
                "The museum reopens with a new wing in May, twice the size of the old one.",
            ),
        ];
        let text = &run(&pages, &Params::default())[1];
        assert!(text.contains("Rain is expected across the north"), "{text}");
        for tpl in ["Home", "News", "World", "Sport", "Copyright"] {
            assert!(!text.contains(tpl), "{tpl} in {text}");
        }
    }

    #[test]
    fn small_gaps_between_template_siblings_coalesce() {
        // A date that changes per page sits between two template divs.
        let mk = |date: &str, body: &str| {
            format!(
                "<body><div class=h>Example Times</div><span>{date}</span><div class=m>Menu one</div>\
                 <div class=c>{body}</div><div class=f>Footer text</div></body>"
            )
        };
        let pages = [
            mk(
                "1 May",
                "First story has many words about the harbour and its boats today.",
            ),
            mk(
                "2 May",
                "Second story tells of a library that opened its doors again.",
            ),
            mk(
                "3 May",
                "Third story covers the election results in the county.",
            ),
        ];
        let text = &run(&pages, &Params::default())[0];
        assert!(
            !text.contains("1 May"),
            "the date gap was coalesced: {text}"
        );
        assert!(text.contains("First story"), "{text}");
        // The story is a long run between the menu and the footer: never coalesced.
        let no_gap = Params {
            gap_words: 0,
            ..Params::default()
        };
        let text = &run(&pages, &no_gap)[0];
        assert!(text.contains("1 May"), "{text}");
    }

    #[test]
    fn hashes_ignore_indentation_and_depth_costs_a_linear_pass() {
        let a = bumpalo::Bump::new();
        let d1 = Document::parse("<div>\n  <p>Hi  there</p>\n</div>", &a);
        let b = bumpalo::Bump::new();
        let d2 = Document::parse("<div><p>Hi there</p></div>", &b);
        let (h1, h2) = (hashes(&d1), hashes(&d2));
        assert_eq!(h1[1], h2[1]);
        let mut deep = String::new();
        for _ in 0..200_000 {
            deep.push_str("<div>");
        }
        deep.push('x');
        let c = bumpalo::Bump::new();
        let d3 = Document::parse(&deep, &c);
        let h = hashes(&d3);
        // The root, the divs down to the depth limit (deeper ones have no node) and the text.
        assert!(h.len() == crate::html::tree::MAX_DEPTH as usize + 2 && h[1] != 0);
    }

    #[test]
    fn thresholds_scale_with_the_pages_and_never_fall_below_two() {
        let m = Model {
            pages: 10,
            ..Model::default()
        };
        assert_eq!(m.bounds(&Params::default()), (5, 30));
        let one = Model {
            pages: 1,
            ..Model::default()
        };
        assert_eq!(one.bounds(&Params::default()).0, 2);
    }
}
