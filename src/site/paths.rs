//! Template paths: the representation TEXT-MDL clusters pages by (Kim and Shim's TEXT, as
//! summarized in *Automatic Template Detection Using Novel Approach*, Prathibha et al.,
//! docs/references.md: section "HTML Documents and Cluster
//! Initialization"): a page is the set of its root-to-node paths, one per element and one per
//! text node, and a path's support is the number of pages of the set that contain it.
//!
//! An element's path is its parent's path extended by `.tag`, hashed with the same FNV-1a
//! [`child_path`] that gives FastCE's block paths (`src/extract/blocks.rs`), so the hashes are
//! stable across runs, machines and versions and a stored signature stays valid. Unlike block
//! paths, every element counts here (`span`, `a`, `img`...): TEXT's paths are DOM paths, and the
//! inline structure of menus and headers is part of what makes a template. A text node's path
//! is its parent's path extended by `.#text:` and the text itself (white space collapsed, at
//! most [`TEXT_BYTES`] bytes), so that the fixed words of a template (menu labels, "Contact us",
//! a copyright line) are paths of their own; the article's text gives paths no other page has,
//! which support filtering removes ([`essential`]).
//!
//! One forward pass over the nodes (parents come before children in the tree's order): no
//! recursion, linear in the page.

use std::collections::HashMap;

use crate::extract::blocks::{child_path, fnv1a, root_path};
use crate::html::Document;
use crate::html::tree::Kind;

/// Text beyond this many bytes (after white space is collapsed) does not enter a text path:
/// template texts are short labels and lines, and a long text is the page's own content, whose
/// path is unique whatever its length. Bounds the hashing work per text node.
pub(crate) const TEXT_BYTES: usize = 80;

/// The distinct template paths of a parsed page, sorted.
pub fn page_paths(doc: &Document<'_>) -> Vec<u64> {
    paths_of(doc, true)
}

/// [`page_paths`] of a page's bytes (decoded as `crate::page` decodes them, `charset` the
/// transport's): the paths `pith cluster` groups a host's pages by.
pub fn paths_of_page(bytes: &[u8], charset: Option<&str>) -> Result<Vec<u64>, crate::page::Error> {
    let text = crate::page::decode_page(bytes, None, charset)?.text;
    let arena = crate::html::Arena::new();
    Ok(page_paths(&Document::parse(&text, &arena)))
}

/// [`page_paths`] with every text node's path ending in `.#text` alone, its words left out:
/// the tag structure only. Not what clustering uses (fixed labels are part of a template);
/// `pith template eval-clusters` measures it to show what the text in text paths changes.
pub fn page_tag_paths(doc: &Document<'_>) -> Vec<u64> {
    paths_of(doc, false)
}

fn paths_of(doc: &Document<'_>, with_text: bool) -> Vec<u64> {
    let nodes = &doc.tree.nodes;
    let mut path = vec![0u64; nodes.len()];
    let mut out = Vec::with_capacity(nodes.len());
    let mut text = Vec::with_capacity(TEXT_BYTES);
    for (i, node) in nodes.iter().enumerate() {
        let parent = if i == 0 {
            root_path()
        } else {
            path.get(node.parent as usize)
                .copied()
                .unwrap_or_else(root_path)
        };
        match node.kind {
            Kind::Document => {
                // The root is `html` whether or not the page has the tag.
                path[i] = root_path();
                out.push(path[i]);
            }
            Kind::Element => {
                // `<html>` is the document root's own path, as in block paths: a page without
                // an `<html>` tag has the same paths.
                let p = if node.tag == crate::html::tags::Tag::Html {
                    parent
                } else {
                    child_path(parent, node.tag)
                };
                path[i] = p;
                out.push(p);
            }
            Kind::Text => {
                collapse(doc.raw_text(i as u32), &mut text);
                if text.is_empty() {
                    continue;
                }
                let p = if with_text {
                    fnv1a(fnv1a(parent, b".#text:"), &text)
                } else {
                    fnv1a(parent, b".#text")
                };
                path[i] = p;
                out.push(p);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Collapses white space runs to one space and trims, keeping at most [`TEXT_BYTES`] bytes.
fn collapse(raw: &str, out: &mut Vec<u8>) {
    out.clear();
    let mut space = false;
    for &b in raw.as_bytes() {
        if out.len() >= TEXT_BYTES {
            break;
        }
        if b.is_ascii_whitespace() {
            space = !out.is_empty();
        } else {
            if space {
                out.push(b' ');
                space = false;
            }
            out.push(b);
        }
    }
}

/// The support of every path: how many of the pages contain it. Each page's paths are distinct
/// (as [`page_paths`] gives them).
pub(crate) fn support<'p>(pages: impl IntoIterator<Item = &'p [u64]>) -> HashMap<u64, u32> {
    let mut s: HashMap<u64, u32> = HashMap::new();
    for page in pages {
        for &p in page {
            *s.entry(p).or_insert(0) += 1;
        }
    }
    s
}

/// The least support of an essential path. TEXT gives each document a minimum support
/// threshold; 2 is the least that changes anything: a path only one page has costs one entry
/// of the MDL model whatever the clustering (in its page's cluster it is either a template
/// path that no other member has, or a difference entry of that page; see
/// [`super::cluster::path_cost`]), so dropping such paths changes no merge decision and saves
/// their hashing, most of all the article's own text paths.
pub(crate) const MIN_SUPPORT: u32 = 2;

/// How a document's minimum support threshold t_d is chosen. The paper defines a threshold per
/// document ("For each document di, we provide a minimum support threshold tdi"; "Step 5:
/// Input minimum support threshold") and gives no value or rule for it. [`Threshold::Fixed`]
/// with `MIN_SUPPORT` is what clustering uses; the two per-document rules are measured
/// against it by `pith template eval-clusters` (README, "Template families": both cluster
/// msv_big9 slightly worse, against sites and against site-years).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threshold {
    /// The same t_d for every document.
    Fixed(u32),
    /// t_d = the support most of the document's paths have (among paths on two pages or
    /// more; ties to the lower support, which keeps more paths). Reason: a page's template
    /// paths are shared by the pages of its template, so they tend to have one common support,
    /// that template's page count; rarer paths are this page's variants.
    Mode,
    /// t_d = the median support of the document's paths on two pages or more (the upper
    /// median): the same reasoning, less sensitive to a tie between two supports.
    Median,
}

impl Threshold {
    /// The threshold of one document from the supports of its paths (any order). Never under
    /// [`MIN_SUPPORT`].
    pub fn of(self, supports: &mut [u32]) -> u32 {
        let t = match self {
            Threshold::Fixed(t) => t,
            Threshold::Mode | Threshold::Median => {
                // Sorting, then runs: n log n in the page's paths, no quadratic counting.
                supports.sort_unstable();
                let shared = supports.partition_point(|&s| s < MIN_SUPPORT);
                let v = &supports[shared..];
                if v.is_empty() {
                    MIN_SUPPORT
                } else if self == Threshold::Median {
                    v[v.len() / 2]
                } else {
                    let mut best = (0usize, MIN_SUPPORT);
                    let mut i = 0;
                    while i < v.len() {
                        let run = v[i..].partition_point(|&s| s == v[i]);
                        // Strictly more: the first (lowest) support wins a tie.
                        if run > best.0 {
                            best = (run, v[i]);
                        }
                        i += run;
                    }
                    best.1
                }
            }
        };
        t.max(MIN_SUPPORT)
    }
}

/// Each page's essential paths: those with support at least `MIN_SUPPORT` in the set.
pub fn essential(pages: &[Vec<u64>]) -> Vec<Vec<u64>> {
    essential_by(pages, Threshold::Fixed(MIN_SUPPORT))
}

/// Each page's essential paths under a threshold rule: the paths of page d whose support in
/// the whole set is at least t_d (support counts every page, as the paper's "number of
/// documents in D which contain the path").
pub fn essential_by(pages: &[Vec<u64>], rule: Threshold) -> Vec<Vec<u64>> {
    let s = support(pages.iter().map(Vec::as_slice));
    let mut sups: Vec<u32> = Vec::new();
    let mut sorted: Vec<u32> = Vec::new();
    pages
        .iter()
        .map(|p| {
            // One look-up per path; the per-document rules sort a copy.
            sups.clear();
            sups.extend(p.iter().map(|h| s.get(h).copied().unwrap_or(0)));
            let t = match rule {
                Threshold::Fixed(_) => rule.of(&mut []),
                _ => {
                    sorted.clear();
                    sorted.extend_from_slice(&sups);
                    rule.of(&mut sorted)
                }
            };
            p.iter()
                .zip(&sups)
                .filter(|&(_, &n)| n >= t)
                .map(|(&h, _)| h)
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::blocks::path_of;

    fn paths(html: &str) -> Vec<u64> {
        let arena = bumpalo::Bump::new();
        let doc = Document::parse(html, &arena);
        page_paths(&doc)
    }

    #[test]
    fn element_and_text_paths() {
        let p = paths("<html><body><div><span>Home</span> <p>Hello   <b>world</b></p></div>");
        let has = |s: &str| p.contains(&path_of(s));
        assert!(has("html.body"));
        assert!(has("html.body.div.span"));
        assert!(has("html.body.div.p.b"));
        assert!(has("html.body.div.span.#text:Home"));
        // White space collapsed, trailing space trimmed.
        assert!(has("html.body.div.p.#text:Hello"));
        assert!(has("html.body.div.p.b.#text:world"));
        // The blank between span and p is no path; html is the root's own path.
        assert!(!p.contains(&path_of("html.html")));
        assert_eq!(p.len(), 9, "html body div span p b and three texts");
        // Block paths and template paths agree on the elements they share.
        assert_eq!(
            paths("<body><div><p>x</p></div>"),
            paths("<html><body><div><p>x</p></div>")
        );
    }

    #[test]
    fn long_texts_are_cut_and_support_counts_pages() {
        let long = "word ".repeat(100);
        let a = paths(&format!("<body><p>{long}</p><p>Contact</p>"));
        let b = paths(&format!("<body><p>{long} other ending</p><p>Contact</p>"));
        // Both cut at TEXT_BYTES: the same path.
        assert_eq!(a, b);
        let c = paths("<body><p>Contact</p><p>Only here</p>");
        let s = support([a.as_slice(), b.as_slice(), c.as_slice()]);
        assert_eq!(s.get(&path_of("html.body.p.#text:Contact")), Some(&3));
        assert_eq!(s.get(&path_of("html.body.p.#text:Only here")), Some(&1));
        let e = essential(&[a, b, c]);
        assert!(!e[2].contains(&path_of("html.body.p.#text:Only here")));
        assert!(e[2].contains(&path_of("html.body.p.#text:Contact")));
    }

    #[test]
    fn tag_paths_leave_the_words_out() {
        let arena = bumpalo::Bump::new();
        let doc = Document::parse("<body><p>Hello</p><p>World</p><div>x</div>", &arena);
        let t = page_tag_paths(&doc);
        assert!(t.contains(&path_of("html.body.p.#text")));
        assert!(t.contains(&path_of("html.body.div.#text")));
        // html, body, p, div, and one text path per parent path.
        assert_eq!(t.len(), 6);
        assert_eq!(page_paths(&doc).len(), 7);
    }

    #[test]
    fn per_document_thresholds() {
        // Supports of one page's paths: 1 1 2 3 3 3 5 5 5 9.
        let sup = [5, 1, 3, 9, 2, 5, 3, 1, 3, 5];
        let of = |r: Threshold| r.of(&mut sup.to_vec());
        assert_eq!(of(Threshold::Fixed(2)), 2);
        assert_eq!(of(Threshold::Fixed(0)), MIN_SUPPORT);
        // 3 and 5 both occur three times: the lower wins.
        assert_eq!(of(Threshold::Mode), 3);
        // Shared paths 2 3 3 3 5 5 5 9: the upper median is the fifth, 5.
        assert_eq!(of(Threshold::Median), 5);
        // Nothing shared: the least threshold.
        assert_eq!(Threshold::Mode.of(&mut [1, 1]), MIN_SUPPORT);
        assert_eq!(Threshold::Median.of(&mut []), MIN_SUPPORT);
        // Three pages: a = {1,2,3,4}, b = {1,2,3}, c = {1,2}: supports 1:3 2:3 3:2 4:1.
        let pages = vec![vec![1, 2, 3, 4], vec![1, 2, 3], vec![1, 2]];
        assert_eq!(
            essential_by(&pages, Threshold::Fixed(2)),
            vec![vec![1, 2, 3], vec![1, 2, 3], vec![1, 2]]
        );
        // a's shared supports 3 3 2: mode 3, so path 3 (support 2) is not essential for a;
        // b's are the same; c's are 3 3.
        assert_eq!(
            essential_by(&pages, Threshold::Mode),
            vec![vec![1, 2], vec![1, 2], vec![1, 2]]
        );
        assert_eq!(essential(&pages), essential_by(&pages, Threshold::Fixed(2)));
    }

    #[test]
    fn deep_pages_do_not_recurse() {
        let html = format!("<body>{}deep", "<div>".repeat(200_000));
        let p = paths(&html);
        // The body, the divs down to the depth limit (deeper ones have no node), the text and
        // the root.
        assert_eq!(p.len(), crate::html::tree::MAX_DEPTH as usize + 2);
    }
}
