//! `pith-lab`: the papers' evaluations over the data in `../shared/data`.

use std::path::PathBuf;
use std::process::ExitCode;

use argh::FromArgs;
use pith::input::Framing;
use pith::site::links;
use pith_lab::{blocks, pages, rules, sites};

/// pith's research harnesses.
///
/// `pith-lab eval-sites DIR` runs FastCE's leave-one-out and cross-year evaluation on
/// msv_big9-style data (DIR/<site>/<year>/{html,gold}); `eval-clusters DIR` scores TEXT-MDL
/// clustering against sites and site-years; `eval-detectors DIR` scores tmpl-dom and tmpl-text;
/// `eval-links [WARC...]` scores link-based templates on generated sites and reports what they
/// find in the crawls given; `blocks SET_DIR... [--pages FILE [--peers DIR]]` writes the block
/// table (TSV on stdout) a learned block model trains on; `pages SET_DIR...` writes the page table (TSV on
/// stdout) the page-type and confidence models train on; `rules SET_DIR... [--off RULE,...]`
/// writes each page's F1 with each of `auto`'s rules switched off (TSV on stdout).
#[derive(FromArgs, Debug)]
struct Args {
    /// eval-sites DIR | eval-clusters DIR | eval-detectors DIR | eval-links [INPUT...] |
    /// blocks SET_DIR... | pages SET_DIR... | rules SET_DIR...
    #[argh(positional)]
    action: String,

    /// the data directory, or the input crawls (eval-links)
    #[argh(positional)]
    paths: Vec<PathBuf>,

    /// also write the tables as Markdown to this file
    #[argh(option)]
    markdown: Option<PathBuf>,

    /// eval-links: size n of the complete subdigraph sought (default 3, the thesis')
    #[argh(option, default = "links::Params::default().n")]
    cs_size: usize,

    /// eval-links: votes t a node needs among the CS pages (default 2, the thesis')
    #[argh(option, default = "links::Params::default().t")]
    votes: usize,

    /// blocks: also write one JSON line per page (the gold's token counts, auto's score) to
    /// this file
    #[argh(option)]
    pages: Option<PathBuf>,

    /// blocks: with --pages, also score the peers' saved outputs in DIR/<set>/<tool>/<id>.txt
    /// into the page lines, as `pith eval --pred` scores them
    #[argh(option)]
    peers: Option<PathBuf>,

    /// blocks: label against the gold's word pairs counted, each claimed by one block, longest
    /// blocks first (measured, not the shipped model's labels: docs/research-log.md)
    #[argh(switch)]
    counted_pairs: bool,

    /// blocks: label each block with the share of its word pairs in the gold, between 0 and 1
    /// (the shipped model's labels, as `just train` writes them; without it, that share
    /// thresholded at one half)
    #[argh(switch)]
    label_share: bool,

    /// pages: one row per candidate extraction (auto, auto --recall, danag) of each page
    #[argh(switch)]
    candidates: bool,

    /// rules: switch these rules off in every column (comma-separated names)
    #[argh(option)]
    off: Option<String>,

    /// rules: read this set's pages with comments kept, as its gold keeps them (dragnet)
    #[argh(option)]
    comments: Vec<String>,

    /// eval-links: input framing, auto (default), html, warc or jsonl
    #[argh(option, default = "Framing::Auto")]
    input: Framing,
}

fn main() -> ExitCode {
    let a: Args = argh::from_env();
    let first = a.paths.first();
    let md = a.markdown.as_deref();
    let need_dir = || {
        eprintln!("pith-lab {}: give the data directory", a.action);
        ExitCode::from(2)
    };
    match (a.action.as_str(), first) {
        ("eval-sites", Some(dir)) => sites::main(dir, md),
        ("eval-clusters", Some(dir)) => sites::clusters_main(dir, md),
        ("eval-detectors", Some(dir)) => sites::detectors_main(dir, md),
        (
            "eval-sites" | "eval-clusters" | "eval-detectors" | "blocks" | "pages" | "rules",
            None,
        ) => need_dir(),
        ("blocks", Some(_)) => {
            let rule = match (a.counted_pairs, a.label_share) {
                (true, true) => {
                    eprintln!(
                        "pith-lab blocks: --counted-pairs and --label-share are two rules; give one"
                    );
                    return ExitCode::from(2);
                }
                (true, false) => blocks::LabelRule::CountedPairs,
                (false, true) => blocks::LabelRule::Share,
                (false, false) => blocks::LabelRule::Block,
            };
            if a.peers.is_some() && a.pages.is_none() {
                eprintln!("pith-lab blocks: --peers writes into the page lines; give --pages too");
                return ExitCode::from(2);
            }
            blocks::main(&a.paths, a.pages.as_deref(), a.peers.as_deref(), rule)
        }
        ("pages", Some(_)) => pages::main(&a.paths, a.candidates),
        ("rules", Some(_)) => rules::main(&a.paths, a.off.as_deref(), &a.comments),
        ("eval-links", _) => {
            let params = links::Params {
                n: a.cs_size.max(2),
                t: a.votes.max(1),
                ..links::Params::default()
            };
            sites::links_main(&a.paths, a.input, &params, md)
        }
        (other, _) => {
            eprintln!(
                "pith-lab: unknown action `{other}` (one of: eval-sites, eval-clusters, eval-detectors, eval-links, blocks, pages, rules)"
            );
            ExitCode::from(2)
        }
    }
}
