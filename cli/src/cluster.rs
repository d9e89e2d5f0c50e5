//! `pith cluster`: groups a host's pages by template ([`pith::site::cluster`]) and writes one
//! JSON line per page, with a summary per host.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use argh::{ArgsInfo, FromArgs};
use pith::site::{DEFAULT_SIGNATURE, cluster, paths_of_page};

/// Clusters pages by template (TEXT-MDL with MinHash) and writes one JSON line per page:
/// {"id", "url", "host", "cluster", "template_paths"}.
///
/// Files given one by one are HTML pages of --host (or of no host); WARC and JSON lines records
/// are grouped by the host of their URL and each host is clustered on its own. "template_paths"
/// is the number of template paths of the page's cluster (the paths themselves are 64-bit
/// hashes, hundreds per cluster; `pith learn` stores them). Lines come host by host, in input
/// order within a host. A summary per host (pages, clusters and their sizes, MDL cost, time)
/// goes to stderr, or as JSON lines to --summary FILE.
#[derive(FromArgs, ArgsInfo, Debug)]
#[argh(help_triggers("--help"))]
pub struct ClusterArgs {
    /// length of the MinHash signatures (default 128)
    #[argh(option, default = "DEFAULT_SIGNATURE", arg_name = "K")]
    signature: usize,

    /// the host of pages read from plain HTML files (records of WARC / JSON lines carry a URL)
    #[argh(option, arg_name = "HOST")]
    host: Option<String>,

    /// write the per-host summary as JSON lines to this file instead of stderr
    #[argh(option, arg_name = "FILE")]
    summary: Option<PathBuf>,

    /// input framing: auto (default), html, warc or jsonl
    #[argh(option, default = "String::from(\"auto\")")]
    input: String,

    /// input files: HTML pages, WARC (.gz) or JSON lines
    #[argh(positional)]
    files: Vec<String>,
}

/// One page read for clustering.
struct Read {
    id: String,
    url: Option<String>,
    paths: Vec<u64>,
}

/// `pith cluster ...`
pub fn cluster_main(args: &[String]) -> ExitCode {
    use pith::input::for_each_page;
    use std::io::Write;
    let (a, framing) = match crate::cmdline::parse_pages(
        &["pith", "cluster"],
        args,
        "cluster",
        |a: &mut ClusterArgs| (&mut a.files, a.input.as_str()),
    ) {
        Ok(parsed) => parsed,
        Err(code) => return code,
    };
    if !(1..=pith::site::MAX_SIGNATURE as usize).contains(&a.signature) {
        eprintln!(
            "pith: --signature must be between 1 and {}",
            pith::site::MAX_SIGNATURE
        );
        return ExitCode::from(2);
    }
    let host = match crate::cmdline::host_flag(a.host.as_deref()) {
        Ok(host) => host,
        Err(code) => return code,
    };
    // Hosts in order of first appearance, each with its pages.
    let mut order: Vec<Option<String>> = Vec::new();
    let mut hosts: HashMap<Option<String>, Vec<Read>> = HashMap::new();
    let started = Instant::now();
    for_each_page(
        &a.files,
        framing,
        |name, rec| {
            let id = rec.place.id.clone().unwrap_or_else(|| name.to_string());
            let paths = match paths_of_page(rec.page(), rec.charset.as_deref()) {
                Ok(paths) => paths,
                Err(e) => {
                    eprintln!("pith: {id}: {e}");
                    return;
                }
            };
            let h = host
                .clone()
                .or_else(|| rec.place.url.as_deref().and_then(pith::site::host_of));
            if !hosts.contains_key(&h) {
                order.push(h.clone());
            }
            hosts.entry(h).or_default().push(Read {
                id,
                url: rec.place.url.clone(),
                paths,
            });
        },
        |m| eprintln!("pith: {m}"),
    );
    let read_time = started.elapsed();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut summary = String::new();
    let mut total = 0usize;
    for h in order {
        let Some(pages) = hosts.remove(&h) else {
            continue;
        };
        let t = Instant::now();
        let sets: Vec<Vec<u64>> = pages.iter().map(|p| p.paths.clone()).collect();
        let c = cluster(&sets, a.signature);
        let secs = t.elapsed().as_secs_f64();
        total += pages.len();
        for (p, &k) in pages.iter().zip(&c.assign) {
            let tpl = c.clusters.get(k as usize).map_or(0, |c| c.template.len());
            let line = serde_json::json!({
                "id": p.id,
                "url": p.url,
                "host": h,
                "cluster": k,
                "template_paths": tpl,
            });
            if writeln!(out, "{line}").is_err() {
                return ExitCode::SUCCESS;
            }
        }
        let sizes: Vec<usize> = c.clusters.iter().map(|c| c.pages.len()).collect();
        let s = serde_json::json!({
            "host": h,
            "pages": pages.len(),
            "clusters": c.clusters.len(),
            "sizes": sizes,
            "template_paths": c.clusters.iter().map(|c| c.template.len()).collect::<Vec<_>>(),
            "mdl_bits": c.cost.round(),
            "seconds": (secs * 1000.0).round() / 1000.0,
        });
        summary.push_str(&s.to_string());
        summary.push('\n');
    }
    let _ = out.flush();
    match &a.summary {
        Some(file) => {
            if let Err(e) = std::fs::write(file, &summary) {
                eprintln!("pith: {}: {e}", file.display());
                return ExitCode::FAILURE;
            }
        }
        None => eprint!("{summary}"),
    }
    eprintln!(
        "pith: {total} pages read and parsed in {:.2} s, clustered in {:.2} s",
        read_time.as_secs_f64(),
        (started.elapsed() - read_time).as_secs_f64()
    );
    if total == 0 {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
