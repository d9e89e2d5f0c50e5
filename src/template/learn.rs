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
use std::process::ExitCode;

use argh::FromArgs;

use super::{DEFAULT_MIN_MATCH, Family, Member, Template, cluster};
use crate::decode;
use crate::extract::blocks::{self, DIMS, Features, NO_BLOCK};
use crate::extract::ce::{self, Params};
use crate::extract::{Algo, Error, Options, Selection, SiteParams, tmpl_dom, tmpl_text};
use crate::html::Document;
use crate::html::tree::Tree;
use crate::input::{Framing, for_each_page};

/// The non-empty blocks of one page: what learning needs of it.
#[derive(Clone, Debug, Default)]
pub struct PageSummary {
    /// Paths of every block, empty ones included, sorted and deduplicated (the layout).
    pub layout: Vec<u64>,
    /// Paths of the non-empty blocks, with their names and vectors.
    pub paths: Vec<u64>,
    pub names: Vec<String>,
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

/// Checks a page as [`crate::extract::extract`] does and decodes it.
pub(crate) fn decode_page<'b>(
    bytes: &'b [u8],
    charset: Option<&str>,
) -> Result<std::borrow::Cow<'b, str>, Error> {
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(Error::Empty);
    }
    if decode::looks_binary(bytes) {
        return Err(Error::Binary);
    }
    let d = decode::decode(bytes, None, charset);
    if d.text.len() >= u32::MAX as usize {
        return Err(Error::TooLarge);
    }
    Ok(d.text)
}

/// Summarizes a parsed page.
pub fn summarize_doc(doc: &Document<'_>) -> PageSummary {
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

/// Summarizes a page's bytes.
pub fn summarize(bytes: &[u8], charset: Option<&str>) -> Result<PageSummary, Error> {
    let text = decode_page(bytes, charset)?;
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
pub const MIN_CLUSTER_PAGES: usize = 3;

/// Learns a host's templates: the pages are clustered by template ([`cluster::cluster`],
/// signatures of `signature` positions) and each cluster of at least [`MIN_CLUSTER_PAGES`]
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
    pub distinct: usize,
    pub atomic: usize,
    pub comparisons: u64,
}

/// An algorithm over pages given together (one site: `--algo ce`, `tmpl-dom`, `tmpl-text`):
/// each page's content, rendered. A page that cannot be read gives its error; the others still
/// form the site. `algo` not a site algorithm gives every readable page whole.
pub fn site_texts(
    pages: &[&[u8]],
    opts: &Options,
    site: &SiteParams,
) -> (Vec<Result<String, Error>>, CeStats) {
    let texts: Vec<Result<std::borrow::Cow<'_, str>, Error>> = pages
        .iter()
        .map(|b| decode_page(b, opts.charset.as_deref()))
        .collect();
    let arenas: Vec<bumpalo::Bump> = texts.iter().map(|_| bumpalo::Bump::new()).collect();
    let docs: Vec<Option<Document<'_>>> = texts
        .iter()
        .zip(&arenas)
        .map(|(t, a)| t.as_ref().ok().map(|t| Document::parse(t, a)))
        .collect();
    let readable: Vec<&Document<'_>> = docs.iter().flatten().collect();
    let (selections, stats) = match opts.algo {
        Algo::TmplDom => (tmpl_dom::site(&readable, &site.dom), CeStats::default()),
        Algo::TmplText => (tmpl_text::site(&readable, &site.text), CeStats::default()),
        Algo::Ce => ce_selections(&readable),
        _ => (
            readable
                .iter()
                .map(|d| Selection {
                    nodes: blocks::text_nodes(d, |_| true),
                })
                .collect(),
            CeStats::default(),
        ),
    };
    let mut sels = selections.into_iter();
    let out = texts
        .iter()
        .zip(&docs)
        .map(|(t, d)| match (t, d) {
            (Err(e), _) => Err(e.clone()),
            (Ok(_), Some(doc)) => {
                let sel = sels.next().unwrap_or_default();
                Ok(crate::output::render(doc, &sel, opts.format, opts.links))
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
    let ce = Options {
        algo: Algo::Ce,
        ..opts.clone()
    };
    site_texts(pages, &ce, &SiteParams::default())
}

/// `pith --algo ce|tmpl-dom|tmpl-text FILE...`: the files are pages of one site; prints each
/// page's content, pages separated by a form-feed line as the filter does.
pub fn run_site(config: &crate::pipeline::Config) -> ExitCode {
    let (files, opts) = (&config.files, &config.options);
    let algo = opts.algo.name();
    if config.json || config.templates.is_some() {
        eprintln!(
            "pith: --algo {algo} writes text or markdown from HTML files; it takes no --format json or --templates"
        );
        return ExitCode::from(2);
    }
    let mut pages = Vec::new();
    let mut names = Vec::new();
    for f in files {
        match std::fs::read(f) {
            Ok(b) => {
                pages.push(b);
                names.push(f.as_str());
            }
            Err(e) => eprintln!("pith: {f}: {e}"),
        }
    }
    if pages.len() < 2 {
        eprintln!("pith: --algo {algo} compares pages of one site: give two or more HTML files");
        return ExitCode::from(2);
    }
    let refs: Vec<&[u8]> = pages.iter().map(Vec::as_slice).collect();
    let (out, _) = site_texts(&refs, opts, &config.site);
    let mut first = true;
    let mut any = false;
    let mut stdout = String::new();
    for (name, r) in names.iter().zip(out) {
        match r {
            Ok(text) => {
                if !first {
                    stdout.push_str("\x0c\n");
                }
                first = false;
                any = true;
                stdout.push_str(&text);
            }
            Err(e) => eprintln!("pith: {name}: {e}"),
        }
    }
    use std::io::Write;
    let _ = std::io::stdout().write_all(stdout.as_bytes());
    if any {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Learns site templates (FastContentExtractor's preparation phase) and writes one file per
/// host into a store directory.
///
/// From plain HTML files of one site: `pith learn --host HOST -o STORE/ FILE...`. From WARC or
/// JSON lines: records are grouped by the host of their URL; each host with at least
/// --min-pages pages gets a template from at most --max-pages of them, sampled across the
/// whole stream. Use with `pith --templates STORE/`.
#[derive(FromArgs, Debug)]
pub struct LearnArgs {
    /// store directory to write templates into (created if missing): STORE/<host>.tpl
    #[argh(option, short = 'o')]
    out: PathBuf,

    /// the host all inputs belong to (needed for plain HTML files; overrides record URLs)
    #[argh(option)]
    host: Option<String>,

    /// hosts with fewer pages get no template (default 10)
    #[argh(option, default = "10")]
    min_pages: usize,

    /// learn from at most this many pages per host, sampled across the input (default 30)
    #[argh(option, default = "30")]
    max_pages: usize,

    /// CE: a block is non-content when similar blocks are in more than this share of the
    /// other pages (default 0.5)
    #[argh(option, default = "ce::DEFAULT_SHARE")]
    share: f32,

    /// length of the MinHash signatures the host's pages are clustered with; each cluster of
    /// 3 pages or more gets its own template (default 128)
    #[argh(option, default = "cluster::DEFAULT_SIGNATURE")]
    signature: usize,

    /// input framing: auto (default), html, warc or jsonl
    #[argh(option, default = "String::from(\"auto\")")]
    input: String,

    /// which pages of a host to learn from: sample (default: --max-pages sampled across the
    /// input) or links (the host's shortest URL as key page and the pages of the complete
    /// subdigraph its links lead to, as `pith template extract`; holds the host's pages in
    /// memory until the end of the input)
    #[argh(option, default = "String::from(\"sample\")")]
    select: String,

    /// input files: HTML pages, WARC (.gz) or JSON lines
    #[argh(positional)]
    files: Vec<String>,
}

/// xorshift64 (Marsaglia 2003): a fixed, tiny generator, so samples are repeatable. `state`
/// must not be 0.
pub fn xorshift64(state: &mut u64) -> u64 {
    let mut x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    x
}

/// `p` of the indices `0..n` chosen uniformly at random (partial Fisher-Yates with a fixed seed,
/// so runs repeat), in increasing order; all of them when `n <= p`.
pub fn sample_indices(n: usize, p: usize) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    if n <= p {
        return idx;
    }
    let mut state = 0x2545_f491_4f6c_dd1d;
    for k in 0..p {
        let r = xorshift64(&mut state);
        let j = k + (r % (n - k) as u64) as usize;
        idx.swap(k, j);
    }
    idx.truncate(p);
    idx.sort_unstable();
    idx
}

/// One host's sample.
struct Reservoir {
    seen: u64,
    rng: u64,
    pages: Vec<PageSummary>,
    /// Dotted names of the paths of the host, once each (not in every page kept).
    names: HashMap<u64, String>,
}

impl Reservoir {
    fn new(host: &str) -> Reservoir {
        Reservoir {
            seen: 0,
            rng: blocks::fnv1a(blocks::FNV_OFFSET, host.as_bytes()) | 1,
            pages: Vec::new(),
            names: HashMap::new(),
        }
    }
    fn next(&mut self) -> u64 {
        xorshift64(&mut self.rng)
    }
    /// Algorithm R: the k-th page replaces a random slot with probability max/k.
    fn offer(&mut self, max: usize, page: impl FnOnce() -> Option<PageSummary>) {
        self.seen += 1;
        let slot = if self.pages.len() < max {
            None
        } else {
            let j = (self.next() % self.seen) as usize;
            if j >= max {
                return;
            }
            Some(j)
        };
        let Some(mut p) = page() else { return };
        for (path, name) in p.paths.iter().zip(p.names.drain(..)) {
            self.names.entry(*path).or_insert(name);
        }
        match slot.and_then(|j| self.pages.get_mut(j)) {
            Some(s) => *s = p,
            None => self.pages.push(p),
        }
    }
}

/// Writes a host's templates into the store, through a temporary file so readers never see
/// half of it.
pub fn save(store: &Path, t: &Family) -> Result<PathBuf, String> {
    std::fs::create_dir_all(store).map_err(|e| format!("{}: {e}", store.display()))?;
    let file = super::file_for(store, &t.host);
    let tmp = store.join(format!(".{}.{}.tmp", t.host, std::process::id()));
    std::fs::write(&tmp, t.to_bytes()).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, &file).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(file)
}

/// `pith learn ...`
pub fn learn_main(cmd: &[&str], args: &[&str]) -> ExitCode {
    let a = match LearnArgs::from_args(cmd, args) {
        Ok(a) => a,
        Err(early) => return crate::cli::early_exit(early),
    };
    let framing = match Framing::from_arg(&a.input) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("pith learn: {e}");
            return ExitCode::from(2);
        }
    };
    if a.files.is_empty() {
        eprintln!("pith learn: give the pages to learn from (files, WARC or JSON lines)");
        return ExitCode::from(2);
    }
    if a.max_pages < 2
        || a.min_pages > a.max_pages
        || !(0.0..=1.0).contains(&a.share)
        || !(1..=super::MAX_SIGNATURE as usize).contains(&a.signature)
    {
        eprintln!(
            "pith learn: need 2 <= --max-pages, --min-pages <= --max-pages, 0 <= --share <= 1, \
             1 <= --signature <= {}",
            super::MAX_SIGNATURE
        );
        return ExitCode::from(2);
    }
    let host = match &a.host {
        Some(h) => match super::host_of(h) {
            Some(h) => Some(h),
            None => {
                eprintln!("pith learn: --host `{h}` is not a host name");
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    let by_links = match a.select.as_str() {
        "sample" => false,
        "links" => true,
        other => {
            eprintln!("pith learn: unknown --select `{other}` (one of: sample, links)");
            return ExitCode::from(2);
        }
    };
    let mut crawls: HashMap<String, super::links::Site> = HashMap::new();
    let mut hosts: HashMap<String, Reservoir> = HashMap::new();
    let mut no_host = 0u64;
    for_each_page(&a.files, framing, "pith learn", |name, rec| {
        let h = host
            .clone()
            .or_else(|| rec.url.as_deref().and_then(super::host_of));
        let Some(h) = h else {
            no_host += 1;
            return;
        };
        if by_links && let Some(url) = rec.url.as_deref() {
            crawls
                .entry(h.clone())
                .or_default()
                .insert(url, rec.page().to_vec());
        }
        let r = hosts.entry(h.clone()).or_insert_with(|| Reservoir::new(&h));
        r.offer(a.max_pages, || {
            match summarize(rec.page(), rec.charset.as_deref()) {
                Ok(s) => Some(s),
                Err(e) => {
                    eprintln!("pith learn: {}: {e}", rec.id.as_deref().unwrap_or(name));
                    None
                }
            }
        });
    });
    if no_host > 0 {
        eprintln!("pith learn: {no_host} pages had no URL to take a host from (give --host HOST)");
    }
    let params = Params {
        share: a.share,
        ..Params::default()
    };
    let mut learned = 0;
    let mut sorted: Vec<(String, Reservoir)> = hosts.into_iter().collect();
    sorted.sort_by(|x, y| x.0.cmp(&y.0));
    for (h, mut r) in sorted {
        if by_links && r.seen >= a.min_pages as u64 {
            match crawls.get(&h).map(|c| links_sample(c, &h)) {
                Some(Ok((pages, msg))) => {
                    eprintln!("pith learn: {h}: {msg}");
                    for p in &pages {
                        for (path, name) in p.paths.iter().zip(&p.names) {
                            r.names.entry(*path).or_insert_with(|| name.clone());
                        }
                    }
                    r.pages = pages;
                }
                Some(Err(e)) => eprintln!("pith learn: {h}: {e}; learning from the sample"),
                None => eprintln!("pith learn: {h}: no URLs; learning from the sample"),
            }
        }
        let enough = if by_links {
            r.seen >= a.min_pages as u64 && r.pages.len() >= 2
        } else {
            r.pages.len() >= a.min_pages
        };
        if !enough {
            eprintln!(
                "pith learn: {h}: {} pages, fewer than --min-pages {}; not learned",
                r.pages.len(),
                a.min_pages
            );
            continue;
        }
        let f = learn_family(&r.pages, &r.names, &h, params, a.signature);
        match save(&a.out, &f) {
            Ok(file) => {
                learned += 1;
                let each: Vec<String> = f
                    .members
                    .iter()
                    .map(|m| {
                        format!(
                            "{} pages, {} content paths, {} non-content blocks",
                            m.template.pages,
                            m.template.paths.len(),
                            m.template.noncontent.len()
                        )
                    })
                    .collect();
                eprintln!(
                    "pith learn: {h}: {} pages (of {} seen), {} template(s) [{}] -> {} ({} bytes)",
                    r.pages.len(),
                    r.seen,
                    f.members.len(),
                    each.join("; "),
                    file.display(),
                    f.to_bytes().len()
                );
            }
            Err(e) => eprintln!("pith learn: {e}"),
        }
    }
    if learned == 0 {
        eprintln!("pith learn: no template written");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// `--select links`: the pages of `host` to learn from, by the thesis' link analysis: the key
/// page is the host's shortest URL (a crawl's home page, which holds the site's menus), then
/// the pages of the complete subdigraph its links lead to ([`super::links::select`]; a sample
/// when there is none). Returns their summaries and a line saying what was found.
fn links_sample(
    site: &super::links::Site,
    host: &str,
) -> Result<(Vec<PageSummary>, String), String> {
    let urls = site.urls_of(host);
    let key = urls
        .iter()
        .min_by_key(|u| u.len())
        .ok_or_else(|| "no pages".to_string())?;
    let s = super::links::select(site, key, &super::links::Params::default())?;
    let mut pages = Vec::new();
    for u in std::iter::once(*key).chain(s.pages.iter().map(String::as_str)) {
        if let Some((_, b)) = site.get(u)
            && let Ok(p) = summarize(b, None)
        {
            pages.push(p);
        }
    }
    let how = if s.fallback {
        format!(
            "no complete subdigraph from {key}; a sample of {}",
            s.pages.len()
        )
    } else {
        format!("key {key}, a {}-CS", s.cs)
    };
    Ok((pages, format!("learning from links: {how}")))
}

/// Shows, extracts or evaluates site templates.
///
/// `pith template show FILE` prints a template as JSON. `pith template eval-sites DIR` runs the
/// leave-one-out and cross-year evaluation on msv_big9-style data (DIR/<site>/<year>/{html,gold}).
/// `pith template extract --key URL INPUT...` finds the site-level template of the key page
/// from the pages its links lead to (the input must hold them: a WARC or JSON lines crawl) and
/// prints it as JSON. `pith template eval-detectors DIR` scores tmpl-dom and tmpl-text on
/// msv_big9-style data; `pith template eval-links [WARC...]` scores link-based templates on
/// generated sites and reports what they find in the crawls given.
#[derive(FromArgs, Debug)]
pub struct TemplateArgs {
    /// show FILE | eval-sites DIR | eval-clusters DIR | eval-detectors DIR |
    /// extract --key URL INPUT... | eval-links [INPUT...]
    #[argh(positional)]
    action: String,

    /// the template file (show), the data directory (eval-sites, eval-detectors), or the input
    /// crawls (extract, eval-links)
    #[argh(positional)]
    paths: Vec<PathBuf>,

    /// eval-sites, eval-detectors, eval-links: also write the tables as Markdown to this file
    #[argh(option)]
    markdown: Option<PathBuf>,

    /// extract: the URL of the key page (it must be in the input)
    #[argh(option)]
    key: Option<String>,

    /// extract, eval-links: size n of the complete subdigraph sought (default 3, the thesis')
    #[argh(option, default = "super::links::Params::default().n")]
    cs_size: usize,

    /// extract, eval-links: votes t a node needs among the CS pages (default 2, the thesis')
    #[argh(option, default = "super::links::Params::default().t")]
    votes: usize,

    /// input framing for extract and eval-links: auto (default), html, warc or jsonl
    #[argh(option, default = "String::from(\"auto\")")]
    input: String,
}

/// Reads every page with a URL from the inputs into a [`super::links::Site`]; `host` keeps only that
/// host's pages. Faults are reported and skipped.
pub fn read_site(
    files: &[PathBuf],
    framing: Framing,
    host: Option<&str>,
    who: &str,
) -> super::links::Site {
    let mut site = super::links::Site::default();
    let names = files.iter().map(|f| f.to_string_lossy());
    for_each_page(names, framing, who, |_, rec| {
        let Some(url) = rec.url.as_deref() else {
            return;
        };
        if host.is_some() && super::host_of(url).as_deref() != host {
            return;
        }
        site.insert(url, rec.page().to_vec());
    });
    site
}

/// `pith template extract --key URL INPUT...`
fn extract_main(a: &TemplateArgs) -> ExitCode {
    let who = "pith template extract";
    let Some(key) = &a.key else {
        eprintln!("{who}: give the key page's URL with --key URL");
        return ExitCode::from(2);
    };
    let framing = match Framing::from_arg(&a.input) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{who}: {e}");
            return ExitCode::from(2);
        }
    };
    if a.paths.is_empty() || a.cs_size < 2 || a.votes < 1 {
        eprintln!("{who}: give the crawl (WARC or JSON lines); need --cs-size >= 2, --votes >= 1");
        return ExitCode::from(2);
    }
    let Some(host) = super::host_of(key) else {
        eprintln!("{who}: --key `{key}` has no host");
        return ExitCode::from(2);
    };
    let site = read_site(&a.paths, framing, Some(&host), who);
    let params = super::links::Params {
        n: a.cs_size,
        t: a.votes,
        ..super::links::Params::default()
    };
    match super::links::extract(&site, key, &params) {
        Ok(x) => {
            let s = &x.selected;
            if s.fallback {
                eprintln!(
                    "{who}: {key}: no complete subdigraph among its {} links ({} in the input); \
                     fell back to a sample of {} pages of {host}",
                    s.links,
                    s.loaded,
                    s.pages.len()
                );
            } else if !s.complete {
                eprintln!(
                    "{who}: {key}: only a {}-CS (wanted {}); using it with {} votes",
                    s.cs, a.cs_size, x.votes
                );
            }
            let json = serde_json::json!({
                "key": s.key,
                "pages": s.pages,
                "cs_size": s.cs,
                "complete": s.complete,
                "fallback": s.fallback,
                "links": s.links,
                "loaded": s.loaded,
                "missing": s.missing,
                "votes": x.votes,
                "dom_nodes": x.dom_nodes,
                "template_nodes": x.template_nodes,
                "template": x.template_text,
                "content": x.content,
            });
            use std::io::Write;
            let _ = writeln!(std::io::stdout(), "{json}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{who}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `pith template ...`
pub fn template_main(cmd: &[&str], args: &[&str]) -> ExitCode {
    let a = match TemplateArgs::from_args(cmd, args) {
        Ok(a) => a,
        Err(early) => return crate::cli::early_exit(early),
    };
    let first = a.paths.first();
    let need_path = |what: &str| {
        eprintln!("pith template {}: give the {what}", a.action);
        ExitCode::from(2)
    };
    match a.action.as_str() {
        "show" => {
            let Some(path) = first else {
                return need_path("template file");
            };
            match super::Family::load(path) {
                Ok(t) => {
                    let json = serde_json::to_string_pretty(&t.to_json()).unwrap_or_default();
                    // A closed stdout (`| head`) is not an error worth a panic.
                    use std::io::Write;
                    let _ = writeln!(std::io::stdout(), "{json}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("pith: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        "eval-sites" => match first {
            Some(dir) => super::eval::main(dir, a.markdown.as_deref()),
            None => need_path("data directory"),
        },
        "eval-clusters" => match first {
            Some(dir) => super::eval::clusters_main(dir, a.markdown.as_deref()),
            None => need_path("data directory"),
        },
        "eval-detectors" => match first {
            Some(dir) => super::eval::detectors_main(dir, a.markdown.as_deref()),
            None => need_path("data directory"),
        },
        "eval-links" => {
            let framing = match Framing::from_arg(&a.input) {
                Ok(f) => f,
                Err(e) => {
                    eprintln!("pith template eval-links: {e}");
                    return ExitCode::from(2);
                }
            };
            let params = super::links::Params {
                n: a.cs_size.max(2),
                t: a.votes.max(1),
                ..super::links::Params::default()
            };
            super::eval::links_main(&a.paths, framing, &params, a.markdown.as_deref())
        }
        "extract" => extract_main(&a),
        other => {
            eprintln!(
                "pith template: unknown action `{other}` (one of: show, eval-sites, eval-clusters, eval-detectors, extract, eval-links)"
            );
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_indices_takes_p_distinct_indices() {
        let s = sample_indices(100, 30);
        assert_eq!(s.len(), 30);
        assert!(s.windows(2).all(|w| w[0] < w[1]) && s.iter().all(|&i| i < 100));
        assert_eq!(sample_indices(5, 30), vec![0, 1, 2, 3, 4]);
    }
}
