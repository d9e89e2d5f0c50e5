//! FastCE's preparation phase (Nguyen et al. 2009, Section III, Figure 4) and the commands
//! around templates: `pith learn`, `pith template show`, and `--algo ce` over pages given
//! together.
//!
//! Learning runs ContentExtractor over pages of one site, keeps the set P of the paths of its
//! content blocks, and the non-content blocks whose path is in P with their vectors. From a WARC
//! or JSON lines stream, records are grouped by the host of their URL and each host keeps a
//! uniform sample of at most `--max-pages` of its pages from the whole stream (reservoir
//! sampling, Vitter's algorithm R, seeded per host so runs are repeatable); only the blocks'
//! paths and vectors are kept, never the pages, so memory stays small however long the stream.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use super::{DEFAULT_MIN_MATCH, Family, Member, Template, cluster};
use crate::extract::blocks::{self, DIMS, Features, NO_BLOCK};
use crate::extract::ce::{self, Params};
use crate::extract::{Selection, SiteAlgo, SiteParams, tmpl_dom, tmpl_text};
use crate::files::FileError;
use crate::html::Document;
use crate::html::tree::Tree;
use crate::input::{Framing, for_each_page};
use crate::page::{Error, Options};

/// The non-empty blocks of one page: what learning needs of it.
#[derive(Clone, Debug, Default)]
pub struct PageSummary {
    /// Paths of every block, empty ones included, sorted and deduplicated (the layout).
    pub layout: Vec<u64>,
    /// Paths of the non-empty blocks, with their names and vectors.
    pub paths: Vec<u64>,
    /// The dotted name of each block in `paths` (same order).
    pub names: Vec<String>,
    /// The feature vector of each block in `paths` (same order).
    pub feats: Vec<Features>,
    /// The page's template paths ([`super::paths::page_paths`]), for clustering.
    pub tags: Vec<u64>,
}

/// The dotted path of block `b`, walking up at most 64 blocks (deeper ones start with `…`),
/// so naming stays linear on pages nested a million deep.
fn dotted(tree: &Tree<'_>, pb: &blocks::PageBlocks, b: usize) -> String {
    let mut parts = Vec::new();
    let mut cur = b as u32;
    while cur != NO_BLOCK && parts.len() < 64 {
        let Some(block) = pb.blocks.get(cur as usize) else {
            break;
        };
        parts.push(if cur == 0 {
            "html"
        } else {
            tree.node(block.node).tag.name()
        });
        cur = block.parent;
    }
    if cur != NO_BLOCK {
        parts.push("…");
    }
    parts.reverse();
    parts.join(".")
}

/// Summarizes a parsed page.
pub(crate) fn summarize_doc(doc: &Document<'_>) -> PageSummary {
    let pb = blocks::blocks(&doc.tree);
    let feats = blocks::block_features(doc, &pb);
    let mut s = PageSummary {
        layout: blocks::layout(&pb),
        tags: super::paths::page_paths(doc),
        ..PageSummary::default()
    };
    for (b, f) in feats.into_iter().enumerate() {
        if f.is_empty() {
            continue;
        }
        s.paths.push(pb.blocks.get(b).map_or(0, |bl| bl.path));
        s.names.push(dotted(&doc.tree, &pb, b));
        s.feats.push(f);
    }
    s
}

/// Summarizes a page's bytes; `charset` is its transport charset (a WARC record's HTTP
/// `Content-Type`).
pub fn summarize(bytes: &[u8], charset: Option<&str>) -> Result<PageSummary, Error> {
    let text = crate::page::decode_page(bytes, None, charset)?.text;
    let arena = bumpalo::Bump::new();
    let doc = Document::parse(&text, &arena);
    Ok(summarize_doc(&doc))
}

/// Every page but the `i`th: the training set of a leave-one-out evaluation, where a template
/// learned from a site's other pages extracts the held-out one.
pub fn leave_out(pages: &[PageSummary], i: usize) -> Vec<PageSummary> {
    let mut others = Vec::with_capacity(pages.len().saturating_sub(1));
    others.extend_from_slice(pages.get(..i).unwrap_or(pages));
    others.extend_from_slice(pages.get(i + 1..).unwrap_or_default());
    others
}

/// The preparation phase: CE over the pages, then P and the non-content blocks at P's paths.
pub fn learn(pages: &[PageSummary], host: &str, params: Params) -> Template {
    learn_named(pages, &names_of(pages), host, params)
}

/// The dotted name of every block path of the pages.
pub fn names_of(pages: &[PageSummary]) -> HashMap<u64, String> {
    let mut names: HashMap<u64, String> = HashMap::new();
    for p in pages {
        for (path, name) in p.paths.iter().zip(&p.names) {
            names.entry(*path).or_insert_with(|| name.clone());
        }
    }
    names
}

/// [`learn`] with the dotted names of the paths given apart from the pages (a stream keeps one
/// dictionary per host rather than the names in every sampled page).
pub fn learn_named(
    pages: &[PageSummary],
    names: &HashMap<u64, String>,
    host: &str,
    params: Params,
) -> Template {
    let all: Vec<Vec<Features>> = pages.iter().map(|p| p.feats.clone()).collect();
    let c = ce::classify(&all, params);
    let mut paths: BTreeMap<u64, String> = BTreeMap::new();
    let mut known: Vec<u64> = Vec::new();
    let mut min_words = u32::MAX;
    for (page, flags) in pages.iter().zip(&c.content) {
        known.extend_from_slice(&page.layout);
        let words: u32 = page
            .feats
            .iter()
            .zip(flags)
            .filter(|(_, c)| **c)
            .map(|(f, _)| f.words())
            .sum();
        min_words = min_words.min(words);
        for (path, &content) in page.paths.iter().zip(flags) {
            if content {
                paths
                    .entry(*path)
                    .or_insert_with(|| names.get(path).cloned().unwrap_or_default());
            }
        }
    }
    known.sort_unstable();
    known.dedup();
    let mut noncontent: Vec<(u64, Features)> = Vec::new();
    let mut fingerprints: Vec<u64> = Vec::new();
    for (page, flags) in pages.iter().zip(&c.content) {
        for ((path, f), &content) in page.paths.iter().zip(&page.feats).zip(flags) {
            if content {
                continue;
            }
            fingerprints.push(f.fingerprint());
            if paths.contains_key(path) {
                noncontent.push((*path, f.clone()));
            }
        }
    }
    fingerprints.sort_unstable();
    fingerprints.dedup();
    noncontent.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.entries.cmp(&b.1.entries)));
    noncontent.dedup_by(|a, b| a.0 == b.0 && a.1.entries == b.1.entries);
    Template {
        host: host.to_string(),
        dims: DIMS,
        similarity: params.similarity,
        share: params.share,
        min_match: DEFAULT_MIN_MATCH,
        pages: pages.len() as u32,
        min_words: if pages.is_empty() { 0 } else { min_words },
        paths: paths.into_iter().collect(),
        known,
        noncontent,
        fingerprints,
    }
}

/// The fewest pages of a cluster that get a template of their own. CE calls a block
/// non-content when similar blocks are in more than half of the *other* pages: with two pages
/// that is any block the other page repeats, so three is the least number of pages where the
/// vote is a majority of more than one page.
pub(crate) const MIN_CLUSTER_PAGES: usize = 3;

/// Learns a host's templates: the pages are clustered by template ([`cluster::cluster`],
/// signatures of `signature` positions) and each cluster of at least `MIN_CLUSTER_PAGES`
/// pages gets a FastCE template with its cluster's signature. Pages of smaller clusters get
/// none (a page like them later falls back to `auto`). When no cluster is that large, the
/// host gets one template from all its pages, with the signature of their common template
/// paths, as before families.
pub fn learn_family(
    pages: &[PageSummary],
    names: &HashMap<u64, String>,
    host: &str,
    params: Params,
    signature: usize,
) -> Family {
    let sets: Vec<Vec<u64>> = pages.iter().map(|p| p.tags.clone()).collect();
    let c = cluster::cluster(&sets, signature);
    let mut members = Vec::new();
    for cl in &c.clusters {
        if cl.pages.len() < MIN_CLUSTER_PAGES {
            continue;
        }
        let sub: Vec<PageSummary> = cl
            .pages
            .iter()
            .filter_map(|&i| pages.get(i as usize).cloned())
            .collect();
        members.push(Member {
            template: learn_named(&sub, names, host, params),
            signature: cl.signature.clone(),
            paths: cl.template.len() as u32,
        });
    }
    if members.is_empty() {
        let all = cluster::single(&sets, signature);
        let (signature, paths) = all
            .clusters
            .first()
            .map_or((Vec::new(), 0), |c| (c.signature.clone(), c.template.len()));
        members.push(Member {
            template: learn_named(pages, names, host, params),
            signature,
            paths: paths as u32,
        });
    }
    Family {
        host: host.to_string(),
        members,
    }
}

/// Counts of one CE run over a site, for the paper's Table II.
#[derive(Debug, Default, Clone, Copy)]
pub struct CeStats {
    /// Distinct block vectors over all pages (the paper's NumBlockTemp).
    pub distinct: usize,
    /// Non-empty atomic blocks over all pages (the paper's NumBlock, before dividing).
    pub atomic: usize,
    /// Cosines computed.
    pub comparisons: u64,
}

/// An algorithm over pages given together (one site: `--algo ce`, `tmpl-dom`, `tmpl-text`):
/// each page's content, rendered as `opts` says (its charset and output; its algorithm is not
/// asked). A page that cannot be read gives its error; the others still form the site.
pub fn site_texts(
    pages: &[&[u8]],
    algo: SiteAlgo,
    opts: &Options,
    site: &SiteParams,
) -> (Vec<Result<String, Error>>, CeStats) {
    let texts: Vec<Result<std::borrow::Cow<'_, str>, Error>> = pages
        .iter()
        .map(|b| crate::page::decode_page(b, opts.charset.as_ref(), None).map(|d| d.text))
        .collect();
    let arenas: Vec<bumpalo::Bump> = texts.iter().map(|_| bumpalo::Bump::new()).collect();
    let docs: Vec<Option<Document<'_>>> = texts
        .iter()
        .zip(&arenas)
        .map(|(t, a)| t.as_ref().ok().map(|t| Document::parse(t, a)))
        .collect();
    let readable: Vec<&Document<'_>> = docs.iter().flatten().collect();
    let (selections, stats) = match algo {
        SiteAlgo::TmplDom => (tmpl_dom::site(&readable, &site.dom), CeStats::default()),
        SiteAlgo::TmplText => (tmpl_text::site(&readable, &site.text), CeStats::default()),
        SiteAlgo::Ce => ce_selections(&readable),
    };
    let mut sels = selections.into_iter();
    let out = texts
        .iter()
        .zip(&docs)
        .map(|(t, d)| match (t, d) {
            (Err(e), _) => Err(e.clone()),
            (Ok(_), Some(doc)) => {
                let sel = sels.next().unwrap_or_default();
                Ok(crate::output::render(doc, &sel, &opts.output))
            }
            _ => Err(Error::Empty),
        })
        .collect();
    (out, stats)
}

/// ContentExtractor over parsed pages of one site: each page's content blocks.
fn ce_selections(docs: &[&Document<'_>]) -> (Vec<Selection>, CeStats) {
    let analysed: Vec<(blocks::PageBlocks, Vec<Features>)> = docs
        .iter()
        .map(|d| {
            let pb = blocks::blocks(&d.tree);
            let f = blocks::block_features(d, &pb);
            (pb, f)
        })
        .collect();
    let feats: Vec<Vec<Features>> = analysed.iter().map(|(_, f)| f.clone()).collect();
    let c = ce::classify(&feats, Params::default());
    let stats = CeStats {
        distinct: c.distinct,
        atomic: c.atomic,
        comparisons: c.comparisons,
    };
    let sels = docs
        .iter()
        .zip(&analysed)
        .zip(c.content)
        .map(|((doc, (pb, _)), content)| Selection {
            nodes: blocks::text_nodes(doc, |i| {
                let b = pb.owner.get(i).copied().unwrap_or(0) as usize;
                content.get(b).copied().unwrap_or(false)
            }),
        })
        .collect();
    (sels, stats)
}

/// ContentExtractor over pages given together (one site): each page's content blocks,
/// rendered. A page that cannot be read gives its error; the others still form the site.
pub fn ce_site(pages: &[&[u8]], opts: &Options) -> (Vec<Result<String, Error>>, CeStats) {
    site_texts(pages, SiteAlgo::Ce, opts, &SiteParams::default())
}

/// Writes a host's templates into the store, through a temporary file so readers never see
/// half of it.
pub fn save(store: &Path, t: &Family) -> Result<PathBuf, FileError> {
    std::fs::create_dir_all(store).map_err(FileError::at(store))?;
    let file = super::file_for(store, &t.host);
    let tmp = store.join(format!(".{}.{}.tmp", t.host, std::process::id()));
    std::fs::write(&tmp, t.to_bytes()).map_err(FileError::at(&tmp))?;
    std::fs::rename(&tmp, &file).map_err(FileError::at(&file))?;
    Ok(file)
}

/// Reads every page with a URL from the inputs into a [`super::links::Site`]; `host` keeps only that
/// host's pages. Faults are handed to `fault` and skipped.
pub fn read_site(
    files: &[PathBuf],
    framing: Framing,
    host: Option<&str>,
    fault: impl FnMut(String),
) -> super::links::Site {
    let mut site = super::links::Site::default();
    let names = files.iter().map(|f| f.to_string_lossy());
    for_each_page(
        names,
        framing,
        |_, rec| {
            let Some(url) = rec.place.url.as_deref() else {
                return;
            };
            if host.is_some() && super::host_of(url).as_deref() != host {
                return;
            }
            site.insert(url, rec.page().to_vec());
        },
        fault,
    );
    site
}
