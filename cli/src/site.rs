//! `pith site`: the pages of one site given together, extracted by what repeats across them,
//! with the template detectors' parameters (the research knobs, kept out of the main help).

use std::process::ExitCode;

use argh::{ArgsInfo, FromArgs};
use pith::algo::{tmpl_dom, tmpl_text};
use pith::{SiteAlgo, SiteParams};

use crate::cmdline::usage_error;

// The flags shared with `pith` (--charset, --format, --links) are declared again here (argh
// cannot flatten them from a shared struct); --charset is read by `crate::args::charset_arg`.
/// Extracts the main content of pages of one site given together, by what repeats across
/// them: ce (ContentExtractor), tmpl-dom (the DOM template-hash detector) or tmpl-text (the
/// text sliding-window detector).
///
/// `pith --algo ce|tmpl-dom|tmpl-text FILE...` runs the same with the default parameters;
/// this command also takes the detectors' parameters below, the knobs of the papers'
/// experiments. Prints each page's content in the order given (text or Markdown), pages
/// separated by a form-feed line.
#[derive(FromArgs, ArgsInfo, Debug)]
#[argh(help_triggers("--help"))]
pub struct SiteArgs {
    /// the algorithm: ce (default), tmpl-dom or tmpl-text
    #[argh(option, default = "String::from(\"ce\")")]
    algo: String,

    /// charset of the pages, overriding their declaration; as `pith --charset`
    #[argh(option)]
    charset: Option<String>,

    /// output format: text (default) or markdown
    #[argh(option, default = "String::from(\"text\")")]
    format: String,

    /// in markdown output, keep link targets as [text](url)
    #[argh(switch)]
    links: bool,

    /// tmpl-dom: lower threshold, occurrences per page of the set (default 0.5: half the pages)
    #[argh(option, default = "tmpl_dom::Params::default().lower", arg_name = "X")]
    dom_lower: f32,

    /// tmpl-dom: upper threshold, occurrences per page of the set (default 3)
    #[argh(option, default = "tmpl_dom::Params::default().upper", arg_name = "X")]
    dom_upper: f32,

    /// tmpl-dom: sibling coalescing joins template siblings across at most N words (default 10)
    #[argh(
        option,
        default = "tmpl_dom::Params::default().gap_words",
        arg_name = "N"
    )]
    dom_gap: usize,

    /// tmpl-text: window size W in bytes of detagged text (default 32)
    #[argh(
        option,
        default = "tmpl_text::Params::default().window",
        arg_name = "W"
    )]
    window: usize,

    /// tmpl-text: fragment frequency F (default 0: the majority of the sampled pages)
    #[argh(option, default = "0", arg_name = "F")]
    freq: usize,

    /// tmpl-text: sampling density D (default 0: every fragment is counted)
    #[argh(option, default = "0", arg_name = "D")]
    density: u64,

    /// tmpl-text: page sample size P for the first pass (default 30)
    #[argh(
        option,
        default = "tmpl_text::Params::default().sample",
        arg_name = "P"
    )]
    sample: usize,

    /// the pages: two or more HTML files of one site
    #[argh(positional)]
    files: Vec<String>,
}

/// `pith site ...`: `args` is what follows `site`.
pub fn site_main(args: &[String]) -> ExitCode {
    let a: SiteArgs = match crate::cmdline::parse(&["pith", "site"], args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let Some(algo) = SiteAlgo::ALL.iter().copied().find(|s| s.name() == a.algo) else {
        return usage_error(format!(
            "unknown --algo `{}` (one of: ce, tmpl-dom, tmpl-text)",
            a.algo
        ));
    };
    let format = match a.format.as_str() {
        "text" => pith::Format::Text,
        "markdown" => pith::Format::Markdown,
        other => {
            return usage_error(format!(
                "unknown --format `{other}` (one of: text, markdown)"
            ));
        }
    };
    let charset = match crate::args::charset_arg(a.charset.as_deref()) {
        Ok(c) => c,
        Err(msg) => return usage_error(msg),
    };
    let params = match site_params(&a) {
        Ok(p) => p,
        Err(msg) => return usage_error(msg),
    };
    let opts = pith::Options {
        charset,
        output: pith::RenderOptions {
            format,
            links: a.links,
            ..pith::RenderOptions::default()
        },
        ..pith::Options::default()
    };
    if a.files.iter().any(|f| f == crate::cmdline::STDIN_ARG) {
        return usage_error("`pith site` reads its pages from files, not standard input");
    }
    crate::learn::run_site(&a.files, &opts, &params, algo)
}

/// The detectors' parameters, checked.
fn site_params(a: &SiteArgs) -> Result<SiteParams, String> {
    if !(a.dom_lower > 0.0 && a.dom_upper >= a.dom_lower) {
        return Err(format!(
            "need 0 < --dom-lower <= --dom-upper (got --dom-lower {} --dom-upper {})",
            a.dom_lower, a.dom_upper
        ));
    }
    if a.window == 0 {
        return Err("--window must be at least 1".into());
    }
    if a.sample < 2 {
        return Err("--sample must be at least 2".into());
    }
    Ok(SiteParams {
        dom: tmpl_dom::Params {
            lower: a.dom_lower,
            upper: a.dom_upper,
            gap_words: a.dom_gap,
        },
        text: tmpl_text::Params {
            window: a.window,
            freq: a.freq,
            density: a.density,
            sample: a.sample,
        },
    })
}
