//! The exact top-down mapping (ETDM) of Alarte's thesis *Site-Level Web Template Extraction
//! Based on Hyperlink Analysis* (docs/references.md), chapter 3: the
//! equality probability of two DOM nodes (Definition 3.2.2), the mapping of two child lists
//! (Definition 3.3.1), the mapping of two trees (Algorithm 3) and the vote of section 3.1. It
//! owns [`Dom`], a page's DOM reduced to what the equality needs, so the trees of several pages
//! can be held without their arenas.
//!
//! Parameters ([`Params`]) are the thesis' section 5.2.3 values: weights 0.5 for classes, 0.2
//! for attributes, 0.2 for position, 0.1 for children; `notAttributesProbability` 0.25,
//! `notChildrenProbability` 1, `notClassesProbability` "higher than 0.75 and lower than 1" (pith
//! takes the middle, 0.875). The mapping threshold `similarityThreshold` has no value in the
//! thesis; pith takes 0.5, the plain reading of a probability threshold (more likely equal than
//! not). With it, two nodes whose class sets are disjoint never map (at most 0.5 without the
//! class weight), unless their ids are equal.
//!
//! Text nodes have no tag attributes to weigh: pith maps two text nodes when their text is
//! equal (white space collapsed), since template text (menus, footers) repeats verbatim and
//! content text does not. White-space-only text is formatting and not a node here.
//!
//! The mapping of two child lists picks the most probable pair above the threshold, then maps the
//! children before it and after it separately (Definition 3.3.1, with the thesis'
//! `activatePosition`: order is kept). pith computes it without recursion: the candidate pairs
//! sorted by probability, each accepted when it keeps the order of those accepted before; this
//! picks the same pairs. Lists longer than [`MAX_PAIRS`] allows are compared only near the
//! diagonal (a pair of children whose relative positions differ much has a low position
//! probability anyway), so a hostile page costs at most `MAX_PAIRS` comparisons per mapped
//! parent, at most √`MAX_PAIRS` per node.

use std::collections::BTreeMap;

use crate::extract::blocks::{FNV_OFFSET, fnv1a};
use crate::extract::fastce::model::sorted_overlap;
use crate::html::Document;
use crate::html::tree::{Kind, NONE, NodeId};

/// Candidate pairs compared per pair of child lists, at most: 128 × 128 children in full.
pub(crate) const MAX_PAIRS: usize = 1 << 14;

/// The equality probability's weights and constants, and the mapping threshold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Weight of the classes' similarity in the equality probability (thesis: 0.5).
    pub w_classes: f64,
    /// Weight of the other attributes' similarity (thesis: 0.2).
    pub w_attributes: f64,
    /// Weight of the children's similarity (thesis: 0.1).
    pub w_children: f64,
    /// Weight of the position similarity among siblings (thesis: 0.2).
    pub w_position: f64,
    /// `notClassesProbability`: neither node has classes.
    pub no_classes: f64,
    /// `notAttributesProbability`: neither node has attributes (besides class and id).
    pub no_attributes: f64,
    /// `notChildrenProbability`: neither node has children.
    pub no_children: f64,
    /// `similarityThreshold` (Pt): pairs map only above it.
    pub threshold: f64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            w_classes: 0.5,
            w_attributes: 0.2,
            w_children: 0.1,
            w_position: 0.2,
            no_classes: 0.875,
            no_attributes: 0.25,
            no_children: 1.0,
            threshold: 0.5,
        }
    }
}

/// One node of a [`Dom`].
#[derive(Clone, Debug, Default)]
pub(crate) struct DNode {
    /// Hash of the tag name (lower case), or of `#text` / `#document`.
    pub tag: u64,
    /// Hash of the `id` attribute.
    pub id: Option<u64>,
    /// Hashes of the class names, sorted, deduplicated.
    pub classes: Vec<u64>,
    /// Hashes of the other attribute names (lower case), sorted, deduplicated.
    pub attributes: Vec<u64>,
    /// Text nodes: hash of the text, white space collapsed.
    pub text: u64,
    /// Index of the parent in [`Dom::nodes`] (`u32::MAX` for the document).
    pub parent: u32,
    /// Position among the parent's children, from the left.
    pub index: u32,
    /// Children: `kids[first..first + count]`.
    pub first: u32,
    /// How many children the node has.
    pub count: u32,
    /// The node in the page's tree.
    pub node: NodeId,
    /// Whether the node is a text node.
    pub is_text: bool,
}

/// A page's DOM: elements and non-blank text nodes, in document order (index 0 is the
/// document).
#[derive(Clone, Debug, Default)]
pub(crate) struct Dom {
    /// The nodes, in document order; index 0 is the document.
    pub nodes: Vec<DNode>,
    kids: Vec<u32>,
}

fn h(s: &[u8]) -> u64 {
    fnv1a(FNV_OFFSET, s)
}

fn collapsed_hash(raw: &str) -> u64 {
    let mut acc = FNV_OFFSET;
    for (k, w) in raw.split_ascii_whitespace().enumerate() {
        if k > 0 {
            acc = fnv1a(acc, b" ");
        }
        acc = fnv1a(acc, w.as_bytes());
    }
    acc
}

impl Dom {
    /// The DOM of a parsed page.
    pub(crate) fn of(doc: &Document<'_>) -> Dom {
        let tree = &doc.tree;
        let mut map = vec![u32::MAX; tree.nodes.len()];
        let mut nodes: Vec<DNode> = Vec::new();
        let mut children: Vec<Vec<u32>> = Vec::new();
        for (i, n) in tree.nodes.iter().enumerate() {
            let id = i as NodeId;
            let mut d = DNode {
                node: id,
                parent: u32::MAX,
                ..DNode::default()
            };
            match n.kind {
                Kind::Document => d.tag = h(b"#document"),
                Kind::Text => {
                    let raw = doc.raw_text(id);
                    if raw.bytes().all(|b| b.is_ascii_whitespace()) {
                        continue;
                    }
                    d.tag = h(b"#text");
                    d.text = collapsed_hash(raw);
                    d.is_text = true;
                }
                Kind::Element => {
                    d.tag = h(doc.name(id).to_ascii_lowercase().as_bytes());
                    for (name, value) in doc.attributes(id) {
                        if name.eq_ignore_ascii_case("id") {
                            d.id.get_or_insert(h(value.as_bytes()));
                        } else if name.eq_ignore_ascii_case("class") {
                            d.classes
                                .extend(value.split_ascii_whitespace().map(|c| h(c.as_bytes())));
                        } else {
                            d.attributes.push(h(name.to_ascii_lowercase().as_bytes()));
                        }
                    }
                    d.classes.sort_unstable();
                    d.classes.dedup();
                    d.attributes.sort_unstable();
                    d.attributes.dedup();
                }
            }
            // The nearest kept ancestor (blank text is never a parent, so the tree parent is
            // kept unless it is the document's parent).
            if n.parent != NONE
                && let Some(&p) = map.get(n.parent as usize)
                && p != u32::MAX
            {
                d.parent = p;
            }
            let me = nodes.len() as u32;
            map[i] = me;
            if d.parent != u32::MAX {
                let siblings = &mut children[d.parent as usize];
                d.index = siblings.len() as u32;
                siblings.push(me);
            }
            nodes.push(d);
            children.push(Vec::new());
        }
        let mut kids = Vec::with_capacity(nodes.len());
        for (d, c) in nodes.iter_mut().zip(children) {
            d.first = kids.len() as u32;
            d.count = c.len() as u32;
            kids.extend(c);
        }
        Dom { nodes, kids }
    }

    /// The children of node `i`.
    pub(crate) fn children(&self, i: u32) -> &[u32] {
        self.nodes
            .get(i as usize)
            .and_then(|d| {
                self.kids
                    .get(d.first as usize..d.first as usize + d.count as usize)
            })
            .unwrap_or(&[])
    }

    fn siblings(&self, i: u32) -> u32 {
        self.nodes
            .get(i as usize)
            .and_then(|d| self.nodes.get(d.parent as usize))
            .map_or(1, |p| p.count)
    }
}

/// |A ∩ B| / |A ∪ B| of two sorted, deduplicated lists.
fn jaccard(a: &[u64], b: &[u64]) -> f64 {
    let common = sorted_overlap(a, b);
    let union = a.len() + b.len() - common;
    if union == 0 {
        1.0
    } else {
        common as f64 / union as f64
    }
}

/// Pp: the position probability of node `x` of `a` and node `y` of `b` (Definition 3.2.2).
fn position(a: &Dom, x: u32, b: &Dom, y: u32) -> f64 {
    let (c, c2) = (f64::from(a.siblings(x)), f64::from(b.siblings(y)));
    let i = f64::from(a.nodes[x as usize].index);
    let i2 = f64::from(b.nodes[y as usize].index);
    // Positions from the right.
    let (j, j2) = (c - 1.0 - i, c2 - 1.0 - i2);
    let cmin = c.min(c2).max(1.0);
    let off = if c2 == c {
        (i - i2).abs()
    } else if c2 > c {
        0f64.max(i - i2).max(j - j2)
    } else {
        0f64.max(i2 - i).max(j2 - j)
    };
    (1.0 - off / cmin).clamp(0.0, 1.0)
}

/// P=: the probability that node `x` of `a` and node `y` of `b` are the same node
/// (Definition 3.2.2; text nodes: equal text, see the module comment).
pub(crate) fn equality(a: &Dom, x: u32, b: &Dom, y: u32, p: &Params) -> f64 {
    let (n1, n2) = (&a.nodes[x as usize], &b.nodes[y as usize]);
    if n1.tag != n2.tag {
        return 0.0;
    }
    if n1.is_text {
        return if n1.text == n2.text { 1.0 } else { 0.0 };
    }
    if n1.id.is_some() && n1.id == n2.id {
        return 1.0;
    }
    let pc = if n1.classes.is_empty() && n2.classes.is_empty() {
        p.no_classes
    } else {
        jaccard(&n1.classes, &n2.classes)
    };
    let pa = if n1.attributes.is_empty() && n2.attributes.is_empty() {
        p.no_attributes
    } else {
        jaccard(&n1.attributes, &n2.attributes)
    };
    let pch = if n1.count == 0 && n2.count == 0 {
        p.no_children
    } else {
        f64::from(n1.count.min(n2.count)) / f64::from(n1.count.max(n2.count))
    };
    let pp = position(a, x, b, y);
    p.w_classes * pc + p.w_attributes * pa + p.w_children * pch + p.w_position * pp
}

/// Definition 3.3.1: the mapping of two child lists, order kept, pairs above the threshold.
pub(crate) fn map_children(
    a: &Dom,
    xs: &[u32],
    b: &Dom,
    ys: &[u32],
    p: &Params,
) -> Vec<(u32, u32)> {
    let (k1, k2) = (xs.len(), ys.len());
    if k1 == 0 || k2 == 0 {
        return Vec::new();
    }
    // Near the diagonal only when the full grid is over budget.
    let radius = if k1 * k2 <= MAX_PAIRS {
        k2
    } else {
        (MAX_PAIRS / (2 * k1)).max(1)
    };
    let mut cand: Vec<(f64, usize, usize)> = Vec::new();
    for (i, &x) in xs.iter().enumerate() {
        let centre = i * k2 / k1;
        let lo = centre.saturating_sub(radius);
        let hi = (centre + radius + 1).min(k2);
        for (j, &y) in ys.iter().enumerate().take(hi).skip(lo) {
            let pe = equality(a, x, b, y, p);
            if pe > p.threshold {
                cand.push((pe, i, j));
            }
        }
    }
    // Most probable first; ties to the leftmost pair, so the result is deterministic.
    cand.sort_by(|l, r| r.0.total_cmp(&l.0).then(l.1.cmp(&r.1)).then(l.2.cmp(&r.2)));
    let mut accepted: BTreeMap<usize, usize> = BTreeMap::new();
    for (_, i, j) in cand {
        if accepted.contains_key(&i) {
            continue;
        }
        let before_ok = accepted
            .range(..i)
            .next_back()
            .is_none_or(|(_, &jb)| jb < j);
        let after_ok = accepted.range(i + 1..).next().is_none_or(|(_, &ja)| ja > j);
        if before_ok && after_ok {
            accepted.insert(i, j);
        }
    }
    accepted.into_iter().map(|(i, j)| (xs[i], ys[j])).collect()
}

/// Algorithm 3's ETDM of two trees: for every node of `a`, the node of `b` it maps to (roots
/// map when they are equal; then children top-down, with an explicit stack).
pub(crate) fn etdm(a: &Dom, b: &Dom, p: &Params) -> Vec<Option<u32>> {
    let mut out = vec![None; a.nodes.len()];
    if a.nodes.is_empty() || b.nodes.is_empty() || a.nodes[0].tag != b.nodes[0].tag {
        return out;
    }
    out[0] = Some(0);
    let mut stack = vec![(0u32, 0u32)];
    while let Some((x, y)) = stack.pop() {
        for (cx, cy) in map_children(a, a.children(x), b, b.children(y), p) {
            out[cx as usize] = Some(cy);
            stack.push((cx, cy));
        }
    }
    out
}

/// The vote (section 3.1): the nodes of `key` that an ETDM maps into at least `t` of `others`.
/// A mapped node's parent is mapped in the same page, so the template is top-down closed.
pub(crate) fn template(key: &Dom, others: &[&Dom], t: usize, p: &Params) -> Vec<bool> {
    let mut votes = vec![0usize; key.nodes.len()];
    for o in others {
        for (v, m) in votes.iter_mut().zip(etdm(key, o, p)) {
            *v += usize::from(m.is_some());
        }
    }
    votes.into_iter().map(|v| v >= t.max(1)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dom(html: &str) -> Dom {
        let arena = bumpalo::Bump::new();
        let doc = Document::parse(html, &arena);
        Dom::of(&doc)
    }

    /// The index in `d` of the first element with this tag name and, if given, this id.
    fn find(d: &Dom, tag: &str, nth: usize) -> u32 {
        d.nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.tag == h(tag.as_bytes()))
            .nth(nth)
            .map(|(i, _)| i as u32)
            .expect("node present")
    }

    #[test]
    fn equality_probability_follows_definition_3_2_2() {
        let a = dom("<div><p>x</p><div class='author box' style=a title=b>1<b>2</b></div></div>");
        let b = dom("<div><p>y</p><div class='author box' style=a lang=c>1<b>2</b>3</div></div>");
        let p = Params::default();
        let (x, y) = (find(&a, "div", 1), find(&b, "div", 1));
        // Classes equal (1), attributes {style,title} vs {style,lang}: 1/3, children 2 vs 3,
        // position: second of two children on both sides (1).
        let want = 0.5 * 1.0 + 0.2 * (1.0 / 3.0) + 0.1 * (2.0 / 3.0) + 0.2 * 1.0;
        assert!((equality(&a, x, &b, y, &p) - want).abs() < 1e-9);
        // Different tags: 0. Equal ids: 1.
        assert_eq!(equality(&a, x, &b, find(&b, "p", 0), &p), 0.0);
        let c = dom("<ul id=menu class=x></ul>");
        let d = dom("<ul id=menu class=y></ul>");
        assert_eq!(
            equality(&c, find(&c, "ul", 0), &d, find(&d, "ul", 0), &p),
            1.0
        );
        // No classes, no attributes, no children, same position: 0.875·0.5 + 0.25·0.2 + 0.1 + 0.2.
        let e = dom("<div><hr></div>");
        let f = dom("<div><hr></div>");
        let want = 0.5 * 0.875 + 0.2 * 0.25 + 0.1 + 0.2;
        assert!((equality(&e, find(&e, "hr", 0), &f, find(&f, "hr", 0), &p) - want).abs() < 1e-9);
        // Text: equal text maps, other text does not.
        let g = dom("<p>Home</p><p>Story one</p>");
        let k = dom("<p>Home</p><p>Story two</p>");
        let texts = |d: &Dom| -> Vec<u32> {
            (0..d.nodes.len() as u32)
                .filter(|&i| d.nodes[i as usize].is_text)
                .collect()
        };
        let (tg, tk) = (texts(&g), texts(&k));
        assert_eq!(equality(&g, tg[0], &k, tk[0], &p), 1.0);
        assert_eq!(equality(&g, tg[1], &k, tk[1], &p), 0.0);
    }

    #[test]
    fn position_probability_counts_from_both_ends() {
        // A: 4 children, the 4th is the last; B: 5 children, the 4th from the left is not
        // the last, but the last of B is the first from the right, as in Figure 3.1.
        let a = dom("<div><i></i><i></i><i></i><b></b></div>");
        let b = dom("<div><i></i><i></i><i></i><i></i><b></b></div>");
        let (x, y) = (find(&a, "b", 0), find(&b, "b", 0));
        assert_eq!(position(&a, x, &b, y), 1.0);
        // The third of A against the third of B: the same from the left.
        let (x3, y3) = (find(&a, "i", 2), find(&b, "i", 2));
        assert_eq!(position(&a, x3, &b, y3), 1.0);
        // The first of A (j = 3 from the right) against the fourth of B (j' = 1): c' > c, so
        // 1 - max(0, i - i', j - j') / c* = 1 - 2 / 4.
        let (x1, y4) = (find(&a, "i", 0), find(&b, "i", 3));
        assert_eq!(position(&a, x1, &b, y4), 0.5);
    }

    #[test]
    fn etdm_maps_top_down_and_keeps_order() {
        let a = dom("<body><div class=head><a>Home</a><a>News</a></div>\
             <div class=main><p>Alpha story</p></div><div class=foot>(c) Site</div></body>");
        let b = dom(
            "<body><div class=head><a>Home</a><a>News</a></div><div class=ad>Buy</div>\
             <div class=main><h2>Beta</h2><p>Beta story</p></div><div class=foot>(c) Site</div></body>",
        );
        let m = etdm(&a, &b, &Params::default());
        let mapped_text: Vec<bool> = a
            .nodes
            .iter()
            .zip(&m)
            .filter(|(n, _)| n.is_text)
            .map(|(_, m)| m.is_some())
            .collect();
        // Home, News, (c) Site map; the story text does not.
        assert_eq!(mapped_text, vec![true, true, false, true]);
        // Every mapped node's parent is mapped to the mapped node's parent.
        for (i, mi) in m.iter().enumerate().skip(1) {
            if let Some(y) = mi {
                let px = a.nodes[i].parent as usize;
                assert_eq!(m[px], Some(b.nodes[*y as usize].parent));
            }
        }
        // The head, main and foot divs map to their counterparts despite the inserted ad.
        let div_b = |k| find(&b, "div", k);
        assert_eq!(m[find(&a, "div", 0) as usize], Some(div_b(0)));
        assert_eq!(m[find(&a, "div", 1) as usize], Some(div_b(2)));
        assert_eq!(m[find(&a, "div", 2) as usize], Some(div_b(3)));
    }

    #[test]
    fn crossing_pairs_are_not_mapped() {
        // A: x then y; B: y then x. Only one of the two pairs can be kept in order.
        let a = dom("<div><p id=x></p><p id=y></p></div>");
        let b = dom("<div><p id=y></p><p id=x></p></div>");
        let m = etdm(&a, &b, &Params::default());
        let ps: Vec<Option<u32>> = (0..2).map(|k| m[find(&a, "p", k) as usize]).collect();
        assert_eq!(ps.iter().filter(|p| p.is_some()).count(), 1);
    }

    #[test]
    fn the_vote_keeps_nodes_mapped_in_t_pages() {
        // Classes tell the spans apart (ETDM weighs attributes, never the text below a node).
        let key =
            dom("<div><span class=a>A</span><span class=b>B</span><span class=c>C</span></div>");
        let o1 = dom("<div><span class=a>A</span><span class=b>B</span></div>");
        let o2 = dom("<div><span class=a>A</span><span class=c>C</span></div>");
        let o3 = dom("<div><span class=a>A</span></div>");
        let t = template(&key, &[&o1, &o2, &o3], 2, &Params::default());
        let text_votes: Vec<bool> = key
            .nodes
            .iter()
            .zip(&t)
            .filter(|(n, _)| n.is_text)
            .map(|(_, v)| *v)
            .collect();
        // A in 3 pages, B in 1, C in 1.
        assert_eq!(text_votes, vec![true, false, false]);
        let all = template(&key, &[&o1, &o2, &o3], 1, &Params::default());
        assert!(all.iter().all(|v| *v));
    }

    #[test]
    fn wide_child_lists_stay_within_the_budget() {
        let mut s = String::from("<ul>");
        for i in 0..5000 {
            s.push_str(&format!("<li>item {i}</li>"));
        }
        let a = dom(&s);
        let m = etdm(&a, &a, &Params::default());
        // Every li maps to itself along the diagonal.
        let lis = a
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.tag == h(b"li"))
            .count();
        let mapped = a
            .nodes
            .iter()
            .zip(&m)
            .filter(|(n, m)| n.tag == h(b"li") && m.is_some())
            .count();
        assert_eq!((lis, mapped), (5000, 5000));
    }
}
