//! Site-level templates from links: Alarte, *Site-Level Web Template Extraction Based on
//! Hyperlink Analysis* (docs/references.md), chapter 2 and Algorithm 3.
//! It owns the choice of the pages a key page shares its template with; the mapping and the
//! vote are `super::etdm`'s.
//!
//! 1. The key page's links (same host only, as the thesis' implementation; no self-links, each
//!    URL once) are sorted by **link relevance** (Definition 2.2.12, from the hyperlink distance
//!    of Definition 2.2.5 to the key page's URL: same directory first, then deeper, then
//!    shallower) and, within a relevance, by **DOM relevance** (Definition 2.2.14: links far
//!    from the other links of the page in the DOM first, so the pages compared differ as much
//!    as possible). Example 2.2.15 takes the distance to the nearest *other* link of the page;
//!    pith does the same.
//! 2. **Algorithm 2**: the links are loaded in that order (from the input: the pages must be in
//!    it, e.g. a site crawl in a WARC; a link not in the input is skipped and counted), each
//!    page's links among the key page's are recorded, and after each page the largest complete
//!    subdigraph (pages all linking to one another) holding it is searched; an n-CS ends the
//!    search, else the largest one found is kept.
//! 3. The template is the key page's nodes that an ETDM maps into at least t of the CS pages
//!    (section 3.1; the thesis' n = 3, t = 2, section 5.2.2). A smaller m-CS (2 ≤ m < n) is used
//!    with t ≤ m; with no complete subdigraph at all (no two pages linking to each other), pith
//!    says so and falls back to a sample of n pages of the key page's host from the input.
//!
//! Nothing recurses: trees are walked by index, the clique search uses an explicit stack with
//! a step budget (`CLIQUE_BUDGET`), and at most [`Params::max_links`] links of the key page are
//! considered, so a hostile key page of a million links costs a bounded search.

use std::collections::{HashMap, HashSet};

use super::etdm::{self, Dom};
use crate::extract::{Selection, blocks};
use crate::html::Document;
use crate::html::tags::Tag;
use crate::html::tree::{Kind, NONE, NodeId, ROOT};
use crate::output::render;
use crate::page::Error;

/// Steps of the clique search per loaded page, at most. With the thesis' n = 3 the search only
/// looks for one edge among the pages linked both ways with the new one, far under this.
pub(crate) const CLIQUE_BUDGET: usize = 1_000_000;

/// DOM distances walk up at most this many ancestors per link; links deeper than that in a
/// hostile page count as far apart.
const MAX_WALK: usize = 256;

/// Parameters of link selection and the vote.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// n: the size of the complete subdigraph sought (thesis: 3).
    pub n: usize,
    /// t: the votes a node needs, in CS pages mapping it (thesis: 2).
    pub t: usize,
    /// Links of the key page considered, at most (in document order, before sorting). 500 is
    /// more than a page's menus hold and bounds the search on hostile pages.
    pub max_links: usize,
    /// Parameters of the ETDM mapping between the key page and the pages compared with it.
    pub etdm: etdm::Params,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            n: 3,
            t: 2,
            max_links: 500,
            etdm: etdm::Params::default(),
        }
    }
}

/// A URL's identity in a crawl: host (lower case) and path with query, no scheme (a crawl mixes
/// http and https), no fragment, an empty path as `/`.
pub(crate) fn url_key(url: &str) -> Option<String> {
    let host = super::host_of(url)?;
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let rest = rest.split('#').next().unwrap_or("");
    let path = rest.find(['/', '?']).map_or("/", |i| &rest[i..]);
    let path = if path.starts_with('?') {
        format!("/{path}")
    } else {
        path.to_string()
    };
    Some(format!("{host}{path}"))
}

/// Resolves `href` against the page's URL `base` with the `url` crate (the WHATWG URL
/// standard, as the Markdown renderer's links). `None` for a fragment alone, for `mailto:`,
/// `javascript:` and other non-HTTP schemes, and for what does not parse.
pub(crate) fn resolve(base: &url::Url, href: &str) -> Option<String> {
    let href = href.trim();
    if href.is_empty() || href.starts_with('#') {
        return None;
    }
    let url = base.join(href).ok()?;
    matches!(url.scheme(), "http" | "https").then(|| url.into())
}

/// Definition 2.2.4: a link as its words, the host and the directories, without the resource
/// (a last segment with a `.` in it, such as `index.html`; URLs name directories without a
/// trailing `/` too, as the thesis' `www.bbc.com/news`).
pub(crate) fn link_words(url: &str) -> Vec<String> {
    let Some(key) = url_key(url) else {
        return Vec::new();
    };
    let path = key.split('?').next().unwrap_or("");
    let mut words: Vec<String> = path
        .split('/')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    if path.ends_with('/') {
        return words;
    }
    if words.len() > 1 && words.last().is_some_and(|w| w.contains('.')) {
        words.pop();
    }
    words
}

/// Definition 2.2.5: the hyperlink distance from `h` to `h2`.
pub(crate) fn h_distance(h: &[String], h2: &[String]) -> i64 {
    if h.first() != h2.first() {
        return -(h.len() as i64);
    }
    let common = h.iter().zip(h2).take_while(|(a, b)| a == b).count();
    if common == h.len() {
        // h2 = h h1 (or equal: 0).
        (h2.len() - common) as i64
    } else {
        // h = h2 h1, or both diverge after a common prefix h0: the rest of h, negative.
        -((h.len() - common) as i64)
    }
}

/// Definition 2.2.12 as a sort key: distance 0 first, then positive ones ascending, then
/// negative ones from -1 down.
fn relevance_key(d: i64) -> (bool, u64) {
    (d < 0, d.unsigned_abs())
}

/// One link of a page: its target and the `<a>` it was first found on.
#[derive(Clone, Debug)]
pub(crate) struct PageLink {
    /// The target, resolved against the page's URL.
    pub url: String,
    /// The target's [`url_key`].
    pub key: String,
    /// The `<a>` element it was first found on.
    pub node: NodeId,
}

/// The links of a page to its own host, each target once, self-links left out, at most `max`.
pub(crate) fn page_links(doc: &Document<'_>, base: &str, max: usize) -> Vec<PageLink> {
    let (Some(host), Some(me), Ok(parsed)) = (
        super::host_of(base),
        url_key(base),
        url::Url::parse(base.trim()),
    ) else {
        return Vec::new();
    };
    let mut seen: HashSet<String> = HashSet::new();
    let mut out = Vec::new();
    for (i, n) in doc.tree.nodes.iter().enumerate() {
        if out.len() >= max {
            break;
        }
        if n.kind != Kind::Element || n.tag != Tag::A {
            continue;
        }
        let id = i as NodeId;
        let Some(url) = doc.attr(id, "href").and_then(|h| resolve(&parsed, h)) else {
            continue;
        };
        if super::host_of(&url).as_deref() != Some(host.as_str()) {
            continue;
        }
        let Some(key) = url_key(&url) else { continue };
        if key == me || !seen.insert(key.clone()) {
            continue;
        }
        out.push(PageLink { url, key, node: id });
    }
    out
}

/// Definition 2.2.10: the DOM distance of two nodes (nodes on their paths past the common
/// prefix), walking up at most [`MAX_WALK`] ancestors each.
fn d_distance(doc: &Document<'_>, depth: &[u32], a: NodeId, b: NodeId) -> u64 {
    let (mut x, mut y) = (a, b);
    let mut steps = 0u64;
    let mut walked = 0;
    while x != y && walked < 2 * MAX_WALK {
        let (dx, dy) = (depth[x as usize], depth[y as usize]);
        if dx >= dy {
            x = doc.tree.node(x).parent;
        } else {
            y = doc.tree.node(y).parent;
        }
        steps += 1;
        walked += 1;
        if x == NONE || y == NONE {
            break;
        }
    }
    if x != y {
        // Past the walk budget: as far apart as their depths allow.
        return u64::from(depth[a as usize]) + u64::from(depth[b as usize]);
    }
    steps
}

/// Algorithm 1: the links sorted by link relevance to `reference`, then by DOM relevance.
pub(crate) fn sort_links(
    doc: &Document<'_>,
    reference: &str,
    links: Vec<PageLink>,
) -> Vec<PageLink> {
    let mut depth = vec![0u32; doc.tree.nodes.len()];
    for (i, n) in doc.tree.nodes.iter().enumerate().skip(1) {
        if n.parent != NONE {
            depth[i] = depth[n.parent as usize].saturating_add(1);
        }
    }
    let href = link_words(reference);
    // Nearest other link of the page, for every link (Example 2.2.15).
    let nearest: Vec<u64> = links
        .iter()
        .map(|l| {
            links
                .iter()
                .filter(|o| o.node != l.node)
                .map(|o| d_distance(doc, &depth, l.node, o.node))
                .min()
                .unwrap_or(0)
        })
        .collect();
    let mut order: Vec<usize> = (0..links.len()).collect();
    order.sort_by_key(|&i| {
        let rel = relevance_key(h_distance(&href, &link_words(&links[i].url)));
        (rel, std::cmp::Reverse(nearest[i]), i)
    });
    let mut slots: Vec<Option<PageLink>> = links.into_iter().map(Some).collect();
    order
        .into_iter()
        .filter_map(|i| slots.get_mut(i).and_then(Option::take))
        .collect()
}

/// A site crawl: pages by `url_key`.
#[derive(Default)]
pub struct Site {
    pages: HashMap<String, (String, Vec<u8>)>,
    /// Keys in input order (the first copy of a URL wins).
    pub order: Vec<String>,
}

impl Site {
    /// Adds a page; a URL already present keeps its first copy.
    pub fn insert(&mut self, url: &str, bytes: Vec<u8>) {
        if let Some(k) = url_key(url)
            && !self.pages.contains_key(&k)
        {
            self.order.push(k.clone());
            self.pages.insert(k, (url.to_string(), bytes));
        }
    }
    /// The page of a URL, with the URL it was stored under.
    pub fn get(&self, url: &str) -> Option<(&str, &[u8])> {
        let k = url_key(url)?;
        self.pages.get(&k).map(|(u, b)| (u.as_str(), b.as_slice()))
    }
    /// The number of distinct pages (by `url_key`).
    pub fn len(&self) -> usize {
        self.pages.len()
    }
    /// Whether no page was added.
    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }
    /// The URLs of the pages of `host`, in input order.
    pub fn urls_of(&self, host: &str) -> Vec<&str> {
        self.order
            .iter()
            .filter_map(|k| self.pages.get(k))
            .filter(|(u, _)| super::host_of(u).as_deref() == Some(host))
            .map(|(u, _)| u.as_str())
            .collect()
    }
}

/// Parses a page and runs `f` on it.
fn with_doc<R>(bytes: &[u8], f: impl FnOnce(&Document<'_>) -> R) -> Result<R, Error> {
    let text = crate::page::decode_page(bytes, None, None)?.text;
    let arena = bumpalo::Bump::new();
    let doc = Document::parse(&text, &arena);
    Ok(f(&doc))
}

/// How the pages compared with the key page were chosen.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Selected {
    /// The key page's URL.
    pub key: String,
    /// The pages compared with it (URLs as stored).
    pub pages: Vec<String>,
    /// Size of the complete subdigraph found (0 or 1: none).
    pub cs: usize,
    /// Whether an n-CS was found.
    pub complete: bool,
    /// Whether the pages are a sample because no complete subdigraph exists.
    pub fallback: bool,
    /// The key page's links (same host, distinct), and how many of them were loaded / absent
    /// from the input.
    pub links: usize,
    /// Links loaded (in the input and readable) before the search stopped.
    pub loaded: usize,
    /// Links skipped before the search stopped: absent from the input or unreadable.
    pub missing: usize,
}

/// The largest clique holding `new` among `loaded`, with mutual links, at most `limit` pages.
fn largest_clique(
    new: usize,
    loaded: &[usize],
    mutual: &dyn Fn(usize, usize) -> bool,
    limit: usize,
) -> Vec<usize> {
    let cands: Vec<usize> = loaded
        .iter()
        .copied()
        .filter(|&c| c != new && mutual(new, c))
        .collect();
    let mut best = vec![new];
    let mut stack: Vec<(Vec<usize>, usize)> = vec![(vec![new], 0)];
    let mut budget = CLIQUE_BUDGET;
    while let Some((clique, start)) = stack.pop() {
        if clique.len() > best.len() {
            best = clique.clone();
        }
        if best.len() >= limit || budget == 0 {
            break;
        }
        if clique.len() >= limit {
            continue;
        }
        for (k, &c) in cands.iter().enumerate().skip(start) {
            if budget == 0 {
                break;
            }
            budget -= 1;
            if clique.iter().all(|&q| q == new || mutual(q, c)) {
                let mut next = clique.clone();
                next.push(c);
                stack.push((next, k + 1));
            }
        }
    }
    best
}

/// Why a key page gives no site-level template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkError {
    /// The key page's URL, as given.
    pub key: String,
    /// What went wrong.
    pub kind: LinkErrorKind,
}

/// What [`LinkError`] says of its key page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkErrorKind {
    /// The key page is not among the pages read.
    NotInSite,
    /// Its URL has no host.
    NoHost,
    /// It could not be read as a page.
    Page(Error),
    /// No complete subdigraph, and no other page of its host (named) to sample.
    Alone(String),
}

impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let key = &self.key;
        match &self.kind {
            LinkErrorKind::NotInSite => write!(f, "{key}: the key page is not in the input"),
            LinkErrorKind::NoHost => write!(f, "{key}: no host"),
            LinkErrorKind::Page(e) => write!(f, "{key}: {e}"),
            LinkErrorKind::Alone(host) => write!(
                f,
                "{key}: no complete subdigraph and no other page of {host} in the input"
            ),
        }
    }
}

impl std::error::Error for LinkError {}

/// Algorithm 2 from the key page at `key_url` over the pages of `site`, with the fallback to a
/// sample when no complete subdigraph exists.
pub fn select(site: &Site, key_url: &str, params: &Params) -> Result<Selected, LinkError> {
    let fail = |kind| LinkError {
        key: key_url.to_string(),
        kind,
    };
    let Some((key_stored, key_bytes)) = site.get(key_url) else {
        return Err(fail(LinkErrorKind::NotInSite));
    };
    let host = super::host_of(key_stored).ok_or_else(|| fail(LinkErrorKind::NoHost))?;
    let links = with_doc(key_bytes, |doc| {
        let l = page_links(doc, key_stored, params.max_links);
        sort_links(doc, key_stored, l)
    })
    .map_err(|e| fail(LinkErrorKind::Page(e)))?;
    let index: HashMap<&str, usize> = links
        .iter()
        .enumerate()
        .map(|(i, l)| (l.key.as_str(), i))
        .collect();
    let mut out = Selected {
        key: key_stored.to_string(),
        links: links.len(),
        ..Selected::default()
    };
    let mut edges: HashSet<(usize, usize)> = HashSet::new();
    let mut loaded: Vec<usize> = Vec::new();
    let mut best: Vec<usize> = Vec::new();
    let n = params.n.max(2);
    for (i, link) in links.iter().enumerate() {
        let Some((stored, bytes)) = site.get(&link.url) else {
            out.missing += 1;
            continue;
        };
        let Ok(targets) = with_doc(bytes, |doc| page_links(doc, stored, usize::MAX)) else {
            out.missing += 1;
            continue;
        };
        out.loaded += 1;
        for t in targets {
            if let Some(&j) = index.get(t.key.as_str()) {
                edges.insert((i, j));
            }
        }
        loaded.push(i);
        let mutual = |a: usize, b: usize| edges.contains(&(a, b)) && edges.contains(&(b, a));
        let cs = largest_clique(i, &loaded, &mutual, n);
        if cs.len() > best.len() {
            best = cs;
        }
        if best.len() >= n {
            break;
        }
    }
    if best.len() >= 2 {
        out.cs = best.len();
        out.complete = best.len() >= n;
        let mut idx = best;
        idx.sort_unstable();
        out.pages = idx.iter().map(|&i| links[i].url.clone()).collect();
        return Ok(out);
    }
    // No two pages link to each other: a sample of the host's other pages.
    out.fallback = true;
    let me = url_key(key_stored);
    let others: Vec<&str> = site
        .urls_of(&host)
        .into_iter()
        .filter(|u| url_key(u) != me)
        .collect();
    out.pages = crate::extract::sample::sample_indices(others.len(), n)
        .into_iter()
        .filter_map(|i| others.get(i).map(|u| u.to_string()))
        .collect();
    if out.pages.is_empty() {
        return Err(fail(LinkErrorKind::Alone(host)));
    }
    Ok(out)
}

/// The site-level template of a key page.
#[derive(Clone, Debug, Default)]
pub struct KeyTemplate {
    /// How the pages compared with the key page were chosen.
    pub selected: Selected,
    /// Votes used (t, at most the pages compared).
    pub votes: usize,
    /// Nodes of the key page's DOM (elements and non-blank text, the document left out), and
    /// how many are template.
    pub dom_nodes: usize,
    /// How many of those nodes are template.
    pub template_nodes: usize,
    /// For every node of the key page's tree, whether it is in the template (blank text and
    /// the nodes the DOM leaves out: false).
    pub in_template: Vec<bool>,
    /// The template's text and the key page's text outside it (content).
    pub template_text: String,
    /// The key page's text outside the template (the content).
    pub content: String,
}

/// The template of the key page at `key_url` with respect to the pages [`select`] picks.
pub fn extract(site: &Site, key_url: &str, params: &Params) -> Result<KeyTemplate, LinkError> {
    let fail = |kind| LinkError {
        key: key_url.to_string(),
        kind,
    };
    let selected = select(site, key_url, params)?;
    let mut doms: Vec<Dom> = Vec::new();
    for u in &selected.pages {
        if let Some((_, b)) = site.get(u)
            && let Ok(d) = with_doc(b, Dom::of)
        {
            doms.push(d);
        }
    }
    let votes = params.t.clamp(1, doms.len().max(1));
    let (_, key_bytes) = site
        .get(key_url)
        .ok_or_else(|| fail(LinkErrorKind::NotInSite))?;
    with_doc(key_bytes, |doc| {
        let key = Dom::of(doc);
        let refs: Vec<&Dom> = doms.iter().collect();
        let tpl = etdm::template(&key, &refs, votes, &params.etdm);
        let mut in_template = vec![false; doc.tree.nodes.len()];
        for (d, &t) in key.nodes.iter().zip(&tpl) {
            if let Some(slot) = in_template.get_mut(d.node as usize) {
                *slot = t && d.node != ROOT;
            }
        }
        let tpl_sel = Selection {
            nodes: blocks::text_nodes(doc, |i| in_template.get(i).copied().unwrap_or(false)),
        };
        let content_sel = Selection {
            nodes: blocks::text_nodes(doc, |i| !in_template.get(i).copied().unwrap_or(false)),
        };
        KeyTemplate {
            selected: selected.clone(),
            votes,
            dom_nodes: key.nodes.len().saturating_sub(1),
            template_nodes: in_template.iter().filter(|t| **t).count(),
            template_text: render(doc, &tpl_sel, &Default::default()),
            content: render(doc, &content_sel, &Default::default()),
            in_template,
        }
    })
    .map_err(|e| fail(LinkErrorKind::Page(e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn hyperlink_distance_follows_definition_2_2_5() {
        let h = words(&["research", "maths"]);
        assert_eq!(h_distance(&h, &words(&["research", "maths"])), 0);
        assert_eq!(
            h_distance(&h, &words(&["research", "maths", "geometry"])),
            1
        );
        assert_eq!(h_distance(&h, &words(&["research"])), -1);
        assert_eq!(
            h_distance(&h, &words(&["research", "physics", "dynamics"])),
            -1
        );
        assert_eq!(h_distance(&h, &words(&["www.upv.es", "research"])), -2);
        // Example 2.2.13, from www.bbc.com/news/.
        let news = link_words("http://www.bbc.com/news/");
        let d = |u: &str| h_distance(&news, &link_words(u));
        assert_eq!(d("http://www.bbc.com/news/world/europe/"), 2);
        assert_eq!(d("http://www.bbc.com"), -1);
        assert_eq!(d("http://www.bbc.com/news/uk/"), 1);
        assert_eq!(d("http://www.bbc.com/sport/0/football/28497920/"), -1);
        assert_eq!(
            link_words("http://www.upv.es/research/maths/index.html").len(),
            3
        );
    }

    #[test]
    fn links_resolve_and_keys_ignore_scheme_and_fragment() {
        let base = url::Url::parse("http://ex.org/a/b/page.html?x=1").expect("a URL");
        let base = &base;
        assert_eq!(
            resolve(base, "c.html").as_deref(),
            Some("http://ex.org/a/b/c.html")
        );
        assert_eq!(
            resolve(base, "../d/").as_deref(),
            Some("http://ex.org/a/d/")
        );
        assert_eq!(resolve(base, "/top").as_deref(), Some("http://ex.org/top"));
        assert_eq!(
            resolve(base, "//cdn.ex.org/x").as_deref(),
            Some("http://cdn.ex.org/x")
        );
        assert_eq!(
            resolve(base, "?y=2").as_deref(),
            Some("http://ex.org/a/b/page.html?y=2")
        );
        assert_eq!(resolve(base, "#top"), None);
        assert_eq!(resolve(base, "mailto:a@ex.org"), None);
        assert_eq!(
            resolve(base, "https://Other.org/").as_deref(),
            Some("https://other.org/")
        );
        assert_eq!(url_key("https://EX.org"), url_key("http://ex.org/#frag"));
    }

    #[test]
    fn link_order_is_link_relevance_then_dom_relevance() {
        // Key page www.bbc.com/news/ with the links of Example 2.2.15.
        let page = "<body><div><div><a href='http://www.bbc.com/news/world/europe/'>Europe</a>\
                    </div><a href='http://www.bbc.com/'>Home</a></div>\
                    <div><a href='http://www.bbc.com/news/uk/'>UK</a></div>\
                    <div><div><div><a href='http://www.bbc.com/sport/0/football/28497920/'>F</a>\
                    </div></div><p><span><a href='http://www.bbc.com/news/also_in_the_news/'>A</a>\
                    </span></p></div></body>";
        let arena = bumpalo::Bump::new();
        let doc = Document::parse(page, &arena);
        let base = "http://www.bbc.com/news/";
        let links = page_links(&doc, base, 100);
        let sorted: Vec<String> = sort_links(&doc, base, links)
            .into_iter()
            .map(|l| l.url)
            .collect();
        // Distance +1 first (uk, also_in_the_news), then +2 (europe), then -1 (sport, home);
        // within a relevance, the link farther from its nearest other link first.
        assert_eq!(sorted.len(), 5);
        assert!(sorted[..2].contains(&"http://www.bbc.com/news/uk/".to_string()));
        assert_eq!(sorted[2], "http://www.bbc.com/news/world/europe/");
        assert!(sorted[3..].contains(&"http://www.bbc.com/".to_string()));
        // also_in_the_news sits deepest, farthest from any other link: before uk.
        assert_eq!(sorted[0], "http://www.bbc.com/news/also_in_the_news/");
    }

    #[test]
    fn clique_search_finds_the_largest_mutual_set() {
        // 0-1-2 all mutual, 3 linked only with 0.
        let e: HashSet<(usize, usize)> = [(0, 1), (1, 2), (0, 2), (0, 3)]
            .into_iter()
            .flat_map(|(a, b)| [(a, b), (b, a)])
            .collect();
        let mutual = |a: usize, b: usize| e.contains(&(a, b));
        let mut c = largest_clique(2, &[0, 1, 2, 3], &mutual, 3);
        c.sort_unstable();
        assert_eq!(c, vec![0, 1, 2]);
        assert_eq!(largest_clique(3, &[0, 1, 2, 3], &mutual, 3).len(), 2);
    }
}
