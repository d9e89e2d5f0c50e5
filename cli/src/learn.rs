//! `pith learn` (site templates into a store), `pith template` (show one, find a site-level
//! template from links), and `pith --algo ce|tmpl-dom|tmpl-text` (pages of one site given
//! together): the command-line halves of [`pith::site`].

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;

use argh::{ArgsInfo, FromArgs};

use crate::cmdline::usage_error;
use pith::algo::ce::Params;
use pith::input::Framing;
use pith::site::{DEFAULT_SIGNATURE, PageSummary, learn_family, save, site_texts, summarize};
use pith::{SiteAlgo, SiteParams};

/// `pith --algo ce|tmpl-dom|tmpl-text FILE...` and `pith site`: the files are pages of one
/// site; prints each page's content, pages separated by a form-feed line as the filter does.
pub fn run_site(
    files: &[String],
    opts: &pith::Options,
    params: &SiteParams,
    site_algo: SiteAlgo,
) -> ExitCode {
    let algo = site_algo.name();
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
        return usage_error(format!(
            "--algo {algo} compares pages of one site: give two or more HTML files"
        ));
    }
    let refs: Vec<&[u8]> = pages.iter().map(Vec::as_slice).collect();
    let (out, _) = site_texts(&refs, site_algo, opts, params);
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
#[derive(FromArgs, ArgsInfo, Debug)]
#[argh(help_triggers("--help"))]
pub struct LearnArgs {
    /// store directory to write templates into (created if missing): STORE/<host>.tpl
    #[argh(option, short = 'o', arg_name = "STORE")]
    out: PathBuf,

    /// the host all inputs belong to (needed for plain HTML files; overrides record URLs)
    #[argh(option, arg_name = "HOST")]
    host: Option<String>,

    /// hosts with fewer pages get no template (default 10)
    #[argh(option, default = "10", arg_name = "N")]
    min_pages: usize,

    /// learn from at most this many pages per host, sampled across the input (default 30)
    #[argh(option, default = "30", arg_name = "N")]
    max_pages: usize,

    /// CE: a block is non-content when similar blocks are in more than this share of the
    /// other pages (default 0.5)
    #[argh(option, default = "pith::algo::ce::DEFAULT_SHARE", arg_name = "X")]
    share: f32,

    /// length of the MinHash signatures the host's pages are clustered with; each cluster of
    /// 3 pages or more gets its own template (default 128)
    #[argh(option, default = "DEFAULT_SIGNATURE", arg_name = "K")]
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

/// One host's sample.
struct Reservoir {
    seen: u64,
    rng: pith::site::Seeded,
    pages: Vec<PageSummary>,
    /// Dotted names of the paths of the host, once each (not in every page kept).
    names: HashMap<u64, String>,
}

impl Reservoir {
    fn new(host: &str) -> Reservoir {
        Reservoir {
            seen: 0,
            rng: pith::site::Seeded::new(host),
            pages: Vec::new(),
            names: HashMap::new(),
        }
    }
    fn next(&mut self) -> u64 {
        self.rng.next_u64()
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

/// `pith learn ...`
pub fn learn_main(args: &[String]) -> ExitCode {
    let (a, framing) = match crate::cmdline::parse_pages(
        &["pith", "learn"],
        args,
        "learn from",
        |a: &mut LearnArgs| (&mut a.files, a.input.as_str()),
    ) {
        Ok(parsed) => parsed,
        Err(code) => return code,
    };
    if a.max_pages < 2
        || a.min_pages > a.max_pages
        || !(0.0..=1.0).contains(&a.share)
        || !(1..=pith::site::MAX_SIGNATURE as usize).contains(&a.signature)
    {
        eprintln!(
            "pith: need 2 <= --max-pages, --min-pages <= --max-pages, 0 <= --share <= 1, \
             1 <= --signature <= {}",
            pith::site::MAX_SIGNATURE
        );
        return ExitCode::from(2);
    }
    let host = match crate::cmdline::host_flag(a.host.as_deref()) {
        Ok(host) => host,
        Err(code) => return code,
    };
    let by_links = match a.select.as_str() {
        "sample" => false,
        "links" => true,
        other => {
            eprintln!("pith: unknown --select `{other}` (one of: sample, links)");
            return ExitCode::from(2);
        }
    };
    let mut crawls: HashMap<String, pith::site::links::Site> = HashMap::new();
    let mut hosts: HashMap<String, Reservoir> = HashMap::new();
    let mut no_host = 0u64;
    pith::input::for_each_page(
        &a.files,
        framing,
        |name, rec| {
            let h = host
                .clone()
                .or_else(|| rec.place.url.as_deref().and_then(pith::site::host_of));
            let Some(h) = h else {
                no_host += 1;
                return;
            };
            if by_links && let Some(url) = rec.place.url.as_deref() {
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
                        eprintln!("pith: {}: {e}", rec.place.id.as_deref().unwrap_or(name));
                        None
                    }
                }
            });
        },
        |m| eprintln!("pith: {m}"),
    );
    if no_host > 0 {
        eprintln!("pith: {no_host} pages had no URL to take a host from (give --host HOST)");
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
                    eprintln!("pith: {h}: {msg}");
                    for p in &pages {
                        for (path, name) in p.paths.iter().zip(&p.names) {
                            r.names.entry(*path).or_insert_with(|| name.clone());
                        }
                    }
                    r.pages = pages;
                }
                Some(Err(e)) => eprintln!("pith: {h}: {e}; learning from the sample"),
                None => eprintln!("pith: {h}: no URLs; learning from the sample"),
            }
        }
        let enough = if by_links {
            r.seen >= a.min_pages as u64 && r.pages.len() >= 2
        } else {
            r.pages.len() >= a.min_pages
        };
        if !enough {
            eprintln!(
                "pith: {h}: {} pages, fewer than --min-pages {}; not learned",
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
                    "pith: {h}: {} pages (of {} seen), {} template(s) [{}] -> {} ({} bytes)",
                    r.pages.len(),
                    r.seen,
                    f.members.len(),
                    each.join("; "),
                    file.display(),
                    f.to_bytes().len()
                );
            }
            Err(e) => eprintln!("pith: {e}"),
        }
    }
    if learned == 0 {
        eprintln!("pith: no template written");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// `--select links`: the pages of `host` to learn from, by the thesis' link analysis: the key
/// page is the host's shortest URL (a crawl's home page, which holds the site's menus), then
/// the pages of the complete subdigraph its links lead to ([`pith::site::links::select`]; a sample
/// when there is none). Returns their summaries and a line saying what was found.
fn links_sample(
    site: &pith::site::links::Site,
    host: &str,
) -> Result<(Vec<PageSummary>, String), String> {
    let urls = site.urls_of(host);
    let key = urls
        .iter()
        .min_by_key(|u| u.len())
        .ok_or_else(|| "no pages".to_string())?;
    let s = pith::site::links::select(site, key, &pith::site::links::Params::default())
        .map_err(|e| e.to_string())?;
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

/// Shows or extracts site templates.
///
/// `pith template show FILE` prints a template as JSON. `pith template extract --key URL
/// INPUT...` finds the site-level template of the key page from the pages its links lead to
/// (the input must hold them: a WARC or JSON lines crawl) and prints it as JSON. The papers'
/// evaluations (eval-sites, eval-clusters, eval-detectors, eval-links) are `pith-lab`'s.
#[derive(FromArgs, ArgsInfo, Debug)]
#[argh(help_triggers("--help"))]
pub struct TemplateArgs {
    /// show FILE | extract --key URL INPUT...
    #[argh(positional)]
    action: String,

    /// the template file (show) or the input crawls (extract)
    #[argh(positional)]
    paths: Vec<PathBuf>,

    /// extract: the URL of the key page (it must be in the input)
    #[argh(option, arg_name = "URL")]
    key: Option<String>,

    /// extract: size n of the complete subdigraph sought (default 3, the thesis')
    #[argh(
        option,
        default = "pith::site::links::Params::default().n",
        arg_name = "N"
    )]
    cs_size: usize,

    /// extract: votes t a node needs among the CS pages (default 2, the thesis')
    #[argh(
        option,
        default = "pith::site::links::Params::default().t",
        arg_name = "T"
    )]
    votes: usize,

    /// input framing for extract: auto (default), html, warc or jsonl
    #[argh(option, default = "String::from(\"auto\")")]
    input: String,
}

/// `pith template extract --key URL INPUT...`
fn extract_main(a: &TemplateArgs) -> ExitCode {
    let who = "pith";
    let Some(key) = &a.key else {
        eprintln!("{who}: give the key page's URL with --key URL");
        return ExitCode::from(2);
    };
    let framing: Framing = match crate::cmdline::named("input", &a.input) {
        Ok(f) => f,
        Err(e) => return crate::cmdline::usage_error(e),
    };
    if a.paths.is_empty() || a.cs_size < 2 || a.votes < 1 {
        eprintln!("{who}: give the crawl (WARC or JSON lines); need --cs-size >= 2, --votes >= 1");
        return ExitCode::from(2);
    }
    let Some(host) = pith::site::host_of(key) else {
        eprintln!("{who}: --key `{key}` has no host");
        return ExitCode::from(2);
    };
    let site = pith::site::read_site(&a.paths, framing, Some(&host), |m| eprintln!("{who}: {m}"));
    let params = pith::site::links::Params {
        n: a.cs_size,
        t: a.votes,
        ..pith::site::links::Params::default()
    };
    match pith::site::links::extract(&site, key, &params) {
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
pub fn template_main(args: &[String]) -> ExitCode {
    let a: TemplateArgs = match crate::cmdline::parse(&["pith", "template"], args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let first = a.paths.first();
    let need_path = |what: &str| {
        eprintln!("pith: template {}: give the {what}", a.action);
        ExitCode::from(2)
    };
    match a.action.as_str() {
        "show" => {
            let Some(path) = first else {
                return need_path("template file");
            };
            match pith::site::Family::load(path) {
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
        "extract" => extract_main(&a),
        other => {
            eprintln!(
                "pith: template: unknown action `{other}` (one of: show, extract; the evaluations are `pith-lab`'s)"
            );
            ExitCode::from(2)
        }
    }
}
