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
use crate::extract::{Error, Options, Selection};
use crate::html::Document;
use crate::html::tree::Tree;
use crate::input::{Framing, Input, Item, Pool};

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
    let mut layout: Vec<u64> = pb.blocks.iter().map(|b| b.path).collect();
    layout.sort_unstable();
    layout.dedup();
    let mut s = PageSummary {
        layout,
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

/// ContentExtractor over pages given together (one site): each page's content blocks,
/// rendered. A page that cannot be read gives its error; the others still form the site.
pub fn ce_site(pages: &[&[u8]], opts: &Options) -> (Vec<Result<String, Error>>, CeStats) {
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
    let analysed: Vec<Option<(blocks::PageBlocks, Vec<Features>)>> = docs
        .iter()
        .map(|d| {
            d.as_ref().map(|d| {
                let pb = blocks::blocks(&d.tree);
                let f = blocks::block_features(d, &pb);
                (pb, f)
            })
        })
        .collect();
    let feats: Vec<Vec<Features>> = analysed.iter().flatten().map(|(_, f)| f.clone()).collect();
    let c = ce::classify(&feats, Params::default());
    let stats = CeStats {
        distinct: c.distinct,
        atomic: c.atomic,
        comparisons: c.comparisons,
    };
    let mut flags = c.content.into_iter();
    let out = texts
        .iter()
        .zip(&docs)
        .zip(&analysed)
        .map(|((t, d), a)| match (t, d, a) {
            (Err(e), _, _) => Err(e.clone()),
            (Ok(_), Some(doc), Some((pb, _))) => {
                let content = flags.next().unwrap_or_default();
                let nodes = blocks::text_nodes(doc, |i| {
                    let b = pb.owner.get(i).copied().unwrap_or(0) as usize;
                    content.get(b).copied().unwrap_or(false)
                });
                let sel = Selection { nodes };
                Ok(crate::output::render(doc, &sel, opts.format, opts.links))
            }
            _ => Err(Error::Empty),
        })
        .collect();
    (out, stats)
}

/// `pith --algo ce FILE...`: the files are pages of one site; prints each page's content, pages
/// separated by a form-feed line as the filter does.
pub fn run_ce(config: &crate::pipeline::Config) -> ExitCode {
    let (files, opts) = (&config.files, &config.options);
    if config.json || config.templates.is_some() {
        eprintln!(
            "pith: --algo ce writes text or markdown from HTML files; it takes no --format json or --templates"
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
        eprintln!("pith: --algo ce compares pages of one site: give two or more HTML files");
        return ExitCode::from(2);
    }
    let refs: Vec<&[u8]> = pages.iter().map(Vec::as_slice).collect();
    let (out, _) = ce_site(&refs, opts);
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

    /// input files: HTML pages, WARC (.gz) or JSON lines
    #[argh(positional)]
    files: Vec<String>,
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
    /// xorshift64 (Marsaglia 2003): a fixed, tiny generator, so the sample is repeatable.
    fn next(&mut self) -> u64 {
        let mut x = self.rng;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.rng = x;
        x
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
    let framing = match a.input.as_str() {
        "auto" => Framing::Auto,
        "html" => Framing::Html,
        "warc" => Framing::Warc,
        "jsonl" | "json" => Framing::Jsonl,
        other => {
            eprintln!("pith learn: unknown --input `{other}` (one of: auto, html, warc, jsonl)");
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
    let mut hosts: HashMap<String, Reservoir> = HashMap::new();
    let mut no_host = 0u64;
    let pool = Pool::default();
    for name in &a.files {
        let (mut input, _) = match Input::open(name, framing, 64 << 20) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("pith learn: {name}: {e}");
                continue;
            }
        };
        while let Some(item) = input.next_item() {
            let rec = match item {
                Item::Page(rec) => rec,
                Item::Member(m) => match m.finish(&pool) {
                    Item::Page(rec) => rec,
                    _ => continue,
                },
                Item::Fault(f) => {
                    eprintln!("pith learn: {f}");
                    continue;
                }
                Item::Skip(_) => continue,
            };
            let h = host
                .clone()
                .or_else(|| rec.url.as_deref().and_then(super::host_of));
            let Some(h) = h else {
                no_host += 1;
                continue;
            };
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
        }
    }
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
    for (h, r) in sorted {
        if r.pages.len() < a.min_pages {
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

/// Shows or evaluates site templates.
///
/// `pith template show FILE` prints a template as JSON. `pith template eval-sites DIR` runs the
/// leave-one-out and cross-year evaluation on msv_big9-style data (DIR/<site>/<year>/{html,gold}).
#[derive(FromArgs, Debug)]
pub struct TemplateArgs {
    /// show FILE | eval-sites DIR [--markdown OUT.md] | eval-clusters DIR [--markdown OUT.md]
    #[argh(positional)]
    action: String,

    /// the template file (show) or the data directory (eval-sites)
    #[argh(positional)]
    path: PathBuf,

    /// eval-sites: also write the tables as Markdown to this file
    #[argh(option)]
    markdown: Option<PathBuf>,
}

/// `pith template ...`
pub fn template_main(cmd: &[&str], args: &[&str]) -> ExitCode {
    let a = match TemplateArgs::from_args(cmd, args) {
        Ok(a) => a,
        Err(early) => return crate::cli::early_exit(early),
    };
    match a.action.as_str() {
        "show" => match super::Family::load(&a.path) {
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
        },
        "eval-sites" => super::eval::main(&a.path, a.markdown.as_deref()),
        "eval-clusters" => super::eval::clusters_main(&a.path, a.markdown.as_deref()),
        other => {
            eprintln!(
                "pith template: unknown action `{other}` (one of: show, eval-sites, eval-clusters)"
            );
            ExitCode::from(2)
        }
    }
}
