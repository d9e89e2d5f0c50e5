//! Extraction: one interface, one module per algorithm.
//!
//! [`run`] runs the chosen [`Algo`] on a parsed page. Every algorithm returns a [`Selection`]
//! over the tree (which text nodes are main content); decoding and parsing come before (the
//! [`crate::page`] front door does both), rendering the selection is [`crate::output`]'s job,
//! so each algorithm stays small. Algorithms over several pages of one site ([`SiteAlgo`]: CE
//! and the two template detectors) take all of them at once; FastCE applies a learned site
//! template ([`fastce::model`]) to one page.

pub(crate) mod auto;
pub(crate) mod binary;
pub(crate) mod blocks;
pub(crate) mod ce;
pub(crate) mod danag;
pub(crate) mod fastce;
pub(crate) mod learned;
pub(crate) mod repeats;
pub(crate) mod sample;
pub(crate) mod tmpl_dom;
pub(crate) mod tmpl_text;

use crate::html::Document;
pub use crate::html::Selection;
use crate::html::tree::NodeId;
use crate::names::UnknownName;

/// Which extraction algorithm runs on one page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Algo {
    /// The default: the learned block model over the rules' signals (`learned`): each text
    /// block kept when its predicted probability of content reaches the trainer's threshold.
    #[default]
    Model,
    /// The rules: DANAg's profile plus tree signals (see `auto`), faster than the model and
    /// ahead of it on news sets they were tuned on, behind it on pages of other sites.
    Rules,
    /// DANAg over a normalized source: one line per block-level boundary, so minified
    /// one-line pages work (Mohammadzadeh et al. 2011, segments of Section 3.1 normalized).
    Danag,
    /// DANAg over the physical lines of the source, exactly as the paper counts them.
    DanagLines,
}

impl Algo {
    /// Every algorithm, in the order `--help` and eval tables list them.
    pub const ALL: &'static [Algo] = &[Algo::Model, Algo::Rules, Algo::Danag, Algo::DanagLines];

    /// The name used on the command line and in JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Algo::Model => "model",
            Algo::Rules => "rules",
            Algo::Danag => "danag",
            Algo::DanagLines => "danag-lines",
        }
    }

    /// The algorithm named `s`: a name of [`Algo::name`], or `auto`, the rules' name when they
    /// were the default (kept so that scripts written then run the same extraction).
    fn named(s: &str) -> Option<Algo> {
        if s == "auto" {
            return Some(Algo::Rules);
        }
        Algo::ALL.iter().copied().find(|a| a.name() == s)
    }
}

impl std::str::FromStr for Algo {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Algo::named(s)
            .ok_or_else(|| UnknownName::new("algorithm", s, &names(Algo::ALL, |a| a.name())))
    }
}

/// Which algorithm runs over several pages of one site given together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SiteAlgo {
    /// ContentExtractor over several pages of one site given together (`ce`).
    Ce,
    /// The DOM template-hash detector over several pages of one site (`tmpl_dom`).
    TmplDom,
    /// The text sliding-window detector over several pages of one site (`tmpl_text`).
    TmplText,
}

impl SiteAlgo {
    /// Every site algorithm, in the order `--help` lists them.
    pub const ALL: &'static [SiteAlgo] = &[SiteAlgo::Ce, SiteAlgo::TmplDom, SiteAlgo::TmplText];

    /// The name used on the command line and in JSON output.
    pub fn name(self) -> &'static str {
        match self {
            SiteAlgo::Ce => "ce",
            SiteAlgo::TmplDom => "tmpl-dom",
            SiteAlgo::TmplText => "tmpl-text",
        }
    }
}

/// `--algo`: an algorithm for one page or one over a site's pages (the command line takes
/// either; one page alone can only be given an [`Algo`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyAlgo {
    /// One page at a time.
    Page(Algo),
    /// All pages of a site together.
    Site(SiteAlgo),
}

impl AnyAlgo {
    /// The name used on the command line and in JSON output.
    pub fn name(self) -> &'static str {
        match self {
            AnyAlgo::Page(a) => a.name(),
            AnyAlgo::Site(a) => a.name(),
        }
    }
}

impl Default for AnyAlgo {
    fn default() -> Self {
        AnyAlgo::Page(Algo::default())
    }
}

impl std::str::FromStr for AnyAlgo {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Some(a) = Algo::named(s) {
            return Ok(AnyAlgo::Page(a));
        }
        if let Some(a) = SiteAlgo::ALL.iter().find(|a| a.name() == s) {
            return Ok(AnyAlgo::Site(*a));
        }
        let mut all = names(Algo::ALL, |a| a.name());
        all.extend(names(SiteAlgo::ALL, |a| a.name()));
        Err(UnknownName::new("algorithm", s, &all))
    }
}

fn names<T: Copy>(all: &[T], name: impl Fn(T) -> &'static str) -> Vec<&'static str> {
    all.iter().map(|&a| name(a)).collect()
}

/// The algorithm and its settings: what the extraction stage reads.
#[derive(Clone, Debug)]
pub struct AlgoOptions {
    /// Which algorithm runs.
    pub algo: Algo,
    /// DANAg's gap: positive regions at most this many lines apart are joined (paper: 20).
    pub gap: usize,
    /// `--precision` / `--recall`: which way `auto` leans, or which of the block model's
    /// thresholds it uses.
    pub mode: auto::Mode,
    /// Keep user comments: `auto`'s comment sections, which the block model adds to its own
    /// selection ([`comments`]).
    pub comments: bool,
    /// Keep every copy of a text the page repeats (`--keep-repeats`); by default `auto` and the
    /// block model drop a copy that renders a region again (`repeats`).
    pub keep_repeats: bool,
    /// `auto`'s rules switched off, to measure what each is worth (`pith-lab rules`, through
    /// `pith::lab::without_rules`); none by default, and no CLI flag sets it.
    pub(crate) rules_off: auto::Rules,
}

impl AlgoOptions {
    /// Whether the selection then keeps one copy of a text the page repeats (`repeats`):
    /// `auto`'s and the block model's, unless [`AlgoOptions::keep_repeats`]; DANAg's stay as the
    /// paper's method gives them.
    pub fn keeps_one_copy(&self) -> bool {
        !self.keep_repeats && matches!(self.algo, Algo::Rules | Algo::Model)
    }

    /// `auto`'s knobs under these options.
    pub fn tuning(&self) -> auto::Tuning {
        auto::Tuning::new(self.mode, self.comments).without(self.rules_off)
    }
}

impl Default for AlgoOptions {
    fn default() -> Self {
        AlgoOptions {
            algo: Algo::default(),
            gap: danag::PAPER_GAP,
            mode: auto::Mode::Balanced,
            comments: false,
            keep_repeats: false,
            rules_off: auto::Rules::NONE,
        }
    }
}

/// Parameters of the template detectors over a site's pages (`--algo tmpl-dom`, `tmpl-text`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SiteParams {
    /// The DOM-hash template detector's parameters (`tmpl-dom`).
    pub dom: tmpl_dom::Params,
    /// The text template detector's parameters (`tmpl-text`).
    pub text: tmpl_text::Params,
}

/// Runs the chosen algorithm on a parsed document, then keeps one copy of a repeated text
/// where [`AlgoOptions::keeps_one_copy`] says so.
pub fn run(doc: &Document<'_>, opts: &AlgoOptions) -> Selection {
    run_judged(doc, opts).0
}

/// [`run`], with the block model's [`learned::Judgement`] (its confidence, and the rules'
/// selection it read, before the repeat filter); `None` for the other algorithms.
pub(crate) fn run_judged(
    doc: &Document<'_>,
    opts: &AlgoOptions,
) -> (Selection, Option<learned::Judgement>) {
    let (selection, judged) = match opts.algo {
        Algo::Rules => (auto::extract(doc, &opts.tuning()), None),
        Algo::Danag => (
            danag::extract(doc, danag::Segments::Normalized, opts.gap),
            None,
        ),
        Algo::DanagLines => (
            danag::extract(doc, danag::Segments::PhysicalLines, opts.gap),
            None,
        ),
        // A page of more text than the model reads: the rules, under the caller's options.
        Algo::Model if !learned::reads(doc) => (auto::extract(doc, &opts.tuning()), None),
        Algo::Model if opts.comments => {
            let (sel, judged) = learned_with_comments(doc, opts, learned::describe(doc));
            (sel, Some(judged))
        }
        Algo::Model => {
            let (sel, judged) = learned::selection_judged(learned::describe(doc), opts.mode);
            (sel, Some(judged))
        }
    };
    if opts.keeps_one_copy() {
        (repeats::keep_once(doc, selection), judged)
    } else {
        (selection, judged)
    }
}

/// The text `auto` adds to the page's selection when it keeps comments (`--comments`), in
/// document order: the comment sections its class/id words would otherwise remove. The block
/// model keeps comments this way: it was trained on golds without comments, so it decides
/// the rest of the page and `auto` finds the comments ([`with_comments`]).
pub fn comments(doc: &Document<'_>, opts: &AlgoOptions) -> Vec<NodeId> {
    let without = AlgoOptions {
        comments: false,
        ..opts.clone()
    };
    comments_beyond(doc, opts, &auto::extract(doc, &without.tuning()))
}

/// [`comments`] for a caller that has `auto`'s selection without comments under `opts`
/// already (`without`): what `auto` keeps with comments beyond it.
fn comments_beyond(doc: &Document<'_>, opts: &AlgoOptions, without: &Selection) -> Vec<NodeId> {
    let with = AlgoOptions {
        comments: true,
        ..opts.clone()
    };
    auto::extract(doc, &with.tuning()).minus(without)
}

/// The block model's selection with `auto`'s comments added ([`comments`]). The model reads
/// `auto`'s selection without comments under the options it was trained on; when the
/// caller's options are those, that selection is the one [`comments`] subtracts, and `auto`
/// runs once more (with comments) instead of twice.
fn learned_with_comments(
    doc: &Document<'_>,
    opts: &AlgoOptions,
    d: learned::features::Described,
) -> (Selection, learned::Judgement) {
    let found = if learned::trained_on(opts) {
        comments_beyond(doc, opts, &d.selection)
    } else {
        comments(doc, opts)
    };
    let (sel, judged) = learned::selection_judged(d, opts.mode);
    (with_comments(sel, &found), judged)
}

/// `sel` with the text nodes of `comments` added (both in document order).
pub fn with_comments(mut sel: Selection, comments: &[NodeId]) -> Selection {
    if !comments.is_empty() {
        sel.nodes.extend_from_slice(comments);
        sel.nodes.sort_unstable();
        sel.nodes.dedup();
    }
    sel
}

/// Each page's text after a site-level detector (`tmpl_dom::site`, `tmpl_text::site`) ran over
/// all of them, for those detectors' tests.
#[cfg(test)]
pub(crate) fn site_texts(
    pages: &[String],
    site: impl Fn(&[&Document<'_>]) -> Vec<Selection>,
) -> Vec<String> {
    let arenas: Vec<bumpalo::Bump> = pages.iter().map(|_| bumpalo::Bump::new()).collect();
    let docs: Vec<Document<'_>> = pages
        .iter()
        .zip(&arenas)
        .map(|(p, a)| Document::parse(p, a))
        .collect();
    let refs: Vec<&Document<'_>> = docs.iter().collect();
    let sels = site(&refs);
    docs.iter()
        .zip(&sels)
        .map(|(d, s)| {
            let lines: Vec<String> = s.nodes.iter().map(|&n| d.text_of(n)).collect();
            lines.join("\n")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--algo model --comments` keeps a page's comments and `--algo model` drops them, in
    /// every mode and with one of `auto`'s rules off (tests/it/block_model.rs checks the selection
    /// against the one spelled out from its parts on every dragnet page).
    #[test]
    fn the_model_keeps_comments_only_when_asked() {
        let html = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/pages/article.html"
        ))
        .expect("tests/pages/article.html");
        let arena = bumpalo::Bump::new();
        let doc = Document::parse(&html, &arena);
        let text = |sel: &Selection| -> String {
            let lines: Vec<String> = sel.nodes.iter().map(|&n| doc.text_of(n)).collect();
            lines.join("\n")
        };
        let rules = [
            auto::Rules::NONE,
            auto::Rules::NONE.with(auto::Rule::Hidden),
        ];
        for mode in [
            auto::Mode::Balanced,
            auto::Mode::Precision,
            auto::Mode::Recall,
        ] {
            for rules_off in rules {
                let opts = AlgoOptions {
                    algo: Algo::Model,
                    mode,
                    comments: true,
                    rules_off,
                    ..AlgoOptions::default()
                };
                let without = AlgoOptions {
                    comments: false,
                    ..opts.clone()
                };
                let (with, without) = (text(&run(&doc, &opts)), text(&run(&doc, &without)));
                assert!(
                    with.contains("The embankment should have been fixed"),
                    "{with}"
                );
                assert!(
                    !without.contains("The embankment should have been fixed"),
                    "{mode:?} {rules_off:?}: {without}"
                );
                // The article is there either way.
                assert!(without.contains("ovens on loan"), "{without}");
            }
        }
    }
}
