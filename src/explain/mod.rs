//! `pith explain PAGE`: why a page came out as it did, as one self-contained HTML file.
//!
//! The report shows what the extractor itself decided, not a re-derivation: the selection comes
//! from the same algorithm run (with `auto`'s [`Trace`] recording its intermediate vectors), the
//! DANAg profile from [`danag::profile`] and `danag::choose`, the same functions the
//! extractors call, and the output text from the same renderer as `pith`'s. On top of those it
//! draws the profile (T1 above the axis, T2 below, the smoothed diff, the densest region and
//! the regions joined to it shaded, as the DANAg paper's figures do) and lists the page's text
//! blocks in document order, each kept, dropped or partly kept, with the rule that decided it
//! and the signals behind it (link density, class/id words, container score, DANAg line).
//!
//! Blocks are cut where the text renderer cuts lines (every block-level tag but table cells),
//! so a kept block is a line of output (a preformatted one may be several). Given the page's
//! gold text, each block is also marked as in it or not, by word pairs. A small inline script
//! recomputes the counts from the DOM (points of each plotted path, kept/dropped blocks, words
//! of kept text, gold marks) and writes them into `#checks`, which the headless-browser test
//! compares with `pith`'s own output. The evaluation report (`pith eval --html`) lives in
//! `report`.
//!
//! Everything is linear in the page: per-node reasons come from one forward pass over the
//! arena (parents before children), never from walking ancestors per node.

pub(crate) mod report;
pub(crate) mod rows;

pub use report::write;

use std::fmt::Write as _;

use crate::extract::auto::{self, Outcome, Trace};
use crate::extract::danag::{self, Segments};
use crate::extract::learned::{
    self,
    analysis::{Analysis, Block, Reasons, Status},
};
use crate::extract::{self, Algo};
use crate::html::tags::Tag;
use crate::html::tree::{Kind, NONE, NodeId};
use crate::html::{Document, Selection, entities};
use crate::output;
use crate::page::{Error, Options};

/// Blocks listed in the report at most; a larger page says how many were left out.
const MAX_BLOCKS: usize = 20_000;
/// Points per plotted series at most; longer profiles are bucketed.
const MAX_POINTS: usize = 1_500;

/// One page explained.
#[derive(Debug)]
pub struct Explained {
    /// The report, a complete HTML document.
    pub html: String,
    /// The output text, exactly what `pith --algo A` prints for the page.
    pub text: String,
    /// The page's title (`<title>`, else `og:title`, else the first `<h1>`), if it has one.
    pub title: Option<String>,
    /// Text blocks kept whole.
    pub kept: usize,
    /// Text blocks dropped whole.
    pub dropped: usize,
    /// Text blocks partly kept.
    pub partial: usize,
    /// Lines of DANAg's profile.
    pub lines: usize,
    /// With a gold text: blocks (of two words or more) kept whole that the gold does not
    /// have, and blocks dropped whole that it has (see `in_gold`).
    pub kept_not_gold: Option<usize>,
    /// With a gold text: blocks (of two words or more) dropped whole that the gold has.
    pub dropped_gold: Option<usize>,
}

/// Explains one page under `opts` (its algorithm, mode, gap, charset); `name` labels it.
pub fn explain(bytes: &[u8], name: &str, opts: &Options) -> Result<Explained, Error> {
    explain_with_gold(bytes, name, opts, None)
}

/// [`explain`], with every block also marked as in the page's gold text or not, so the
/// report shows which kept blocks are noise and which dropped ones were content.
pub fn explain_with_gold(
    bytes: &[u8],
    name: &str,
    opts: &Options,
    gold: Option<&str>,
) -> Result<Explained, Error> {
    // The same refusals as `page::extract`, in the same order.
    let decoded = crate::page::decode_page(bytes, opts.charset.as_ref(), None)?;
    let eopts = &opts.extract;
    let arena = bumpalo::Bump::new();
    let doc = Document::parse(&decoded.text, &arena);
    let mut trace = Trace::default();
    let (segments, gap) = match eopts.algo {
        Algo::Rules | Algo::Model => (Segments::Normalized, danag::PAPER_GAP),
        Algo::DanagLines => (Segments::PhysicalLines, eopts.gap),
        Algo::Danag => (Segments::Normalized, eopts.gap),
    };
    let (selection, model, comments) = selection_of(&doc, eopts, &mut trace);
    // As `extract::run` ends: a repeated text kept once. The lines dropped so are named in
    // the report.
    let (selection, repeated) = if eopts.keeps_one_copy() {
        let before = Selection {
            nodes: selection.nodes.clone(),
        };
        let once = extract::repeats::keep_once(&doc, selection);
        let repeated = before.minus(&once);
        (once, repeated)
    } else {
        (selection, Vec::new())
    };
    let text = output::render(&doc, &selection, &output::RenderOptions::default());
    let profile = danag::profile(&doc, segments);
    let token_lines = danag::token_lines(&doc, segments);
    let choice = danag::choose(&profile, gap);
    let title = doc.title();
    let page = Page {
        analysis: Analysis {
            doc: &doc,
            opts: eopts,
            trace: (model.is_none() && matches!(eopts.algo, Algo::Rules | Algo::Model))
                .then_some(&trace),
            profile: &profile,
            token_lines: &token_lines,
            choice: &choice,
        },
        model,
        repeated,
        comments,
    };
    let mut blocks = page.blocks(&selection);
    let gold = gold.map(GoldIndex::new);
    if let Some(g) = &gold {
        for b in &mut blocks {
            b.gold = in_gold(g, &page.block_text(b));
        }
    }
    let count = |s: Status| blocks.iter().filter(|b| b.status == s).count();
    let count_gold = |s: Status, in_gold: bool| {
        gold.as_ref().map(|_| {
            blocks
                .iter()
                .filter(|b| b.status == s && b.gold == Some(in_gold))
                .count()
        })
    };
    let (kept_not_gold, dropped_gold) = (
        count_gold(Status::Kept, false),
        count_gold(Status::Dropped, true),
    );
    let (kept, dropped, partial) = (
        count(Status::Kept),
        count(Status::Dropped),
        count(Status::Partial),
    );
    let mut html = String::new();
    head(&mut html, &format!("pith explain: {name}"));
    heading(
        &mut html,
        name,
        title.as_deref(),
        eopts,
        decoded.encoding.name(),
        profile.content.len(),
        segments,
    );
    let _ = writeln!(
        html,
        "<p class=counts>text blocks: <span class=kept>kept <b id=n-kept>{kept}</b></span> · \
         <span class=partial>partly kept <b id=n-partial>{partial}</b></span> · \
         <span class=dropped>dropped <b id=n-dropped>{dropped}</b></span> · output: \
         <b id=n-lines>{}</b> lines, <b id=n-words>{}</b> words</p>",
        text.lines().count(),
        text.split_whitespace().count(),
    );
    if let (Some(k), Some(d)) = (kept_not_gold, dropped_gold) {
        let _ = writeln!(
            html,
            "<p class=counts>against the gold text: <span class=nogold>kept, not in the gold \
             <b id=n-kept-nogold>{k}</b></span> · <span class=gold>dropped, in the gold \
             <b id=n-dropped-gold>{d}</b></span></p>"
        );
    }
    let _ = writeln!(html, "<p class=verdict>{}</p>", esc(&page.verdict()));
    html.push_str("<h2>DANAg profile</h2>\n");
    page.plot(&mut html, "", 0..profile.content.len());
    if let Some(range) = page.zoom() {
        html.push_str("<h2>DANAg profile around the selected lines</h2>\n");
        page.plot(&mut html, "zoom-", range);
    }
    html.push_str("<h2>Text blocks in document order</h2>\n");
    page.block_list(&mut html, &blocks);
    let _ = write!(
        html,
        "<h2>Output</h2>\n<pre id=output>{}</pre>\n",
        esc(&text)
    );
    html.push_str(CHECK_SCRIPT);
    html.push_str("</body></html>\n");
    Ok(Explained {
        html,
        text,
        title,
        kept,
        dropped,
        partial,
        lines: profile.content.len(),
        kept_not_gold,
        dropped_gold,
    })
}

/// The selection the report explains, made as `pith` makes it, with the block model's
/// judgement and thresholds (its blocks are the report's: the same cut, `learned::analysis`)
/// and the comment sections `--comments` added under the model. `auto`'s trace is recorded
/// into `trace` for the rules, and for the model on a page it does not read
/// ([`learned::reads`]), which gets the rules as in `pith`.
#[allow(clippy::type_complexity)]
fn selection_of(
    doc: &Document<'_>,
    eopts: &extract::AlgoOptions,
    trace: &mut Trace,
) -> (
    Selection,
    Option<(learned::Judged, learned::Threshold)>,
    Vec<NodeId>,
) {
    match eopts.algo {
        Algo::Model if learned::reads(doc) => {
            let d = learned::describe(doc);
            let judged = learned::judge(&d, eopts.mode);
            let selection = learned::select(d, &judged.blocks);
            let model = Some((judged, learned::threshold(eopts.mode)));
            // As `extract::run`: `auto`'s comment sections added under `--comments`.
            let comments = if eopts.comments {
                extract::comments(doc, eopts)
            } else {
                Vec::new()
            };
            let selection = extract::with_comments(selection, &comments);
            (selection, model, comments)
        }
        Algo::Rules | Algo::Model => (
            auto::extract_traced(doc, &eopts.tuning(), Some(trace)),
            None,
            Vec::new(),
        ),
        // The others as `pith` runs them.
        _ => (extract::run(doc, eopts), None, Vec::new()),
    }
}

/// The report's heading: the page's name and title, the algorithm and its mode, the encoding
/// and DANAg's profile.
fn heading(
    html: &mut String,
    name: &str,
    title: Option<&str>,
    eopts: &extract::AlgoOptions,
    encoding: &str,
    lines: usize,
    segments: Segments,
) {
    let _ = write!(
        html,
        "<h1>pith explain <small>{}</small></h1>\n<p class=meta>page title: <b id=title>{}</b> · \
         algorithm <b>{}</b>{} · encoding {} · {} lines in DANAg's profile ({})</p>\n",
        esc(name),
        esc(title.unwrap_or("(none)")),
        eopts.algo.name(),
        match (eopts.algo, eopts.mode) {
            (Algo::Rules | Algo::Model, auto::Mode::Precision) => " --precision",
            (Algo::Rules | Algo::Model, auto::Mode::Recall) => " --recall",
            _ => "",
        },
        encoding,
        lines,
        match segments {
            Segments::Normalized => "one line per block boundary",
            Segments::PhysicalLines => "the source's physical lines",
        },
    );
}

/// The report's page: the block analysis and what the report draws from it.
struct Page<'p, 'a> {
    analysis: Analysis<'p, 'a>,
    /// Under `--algo model`: each block's probability of content and the probability it had
    /// to reach (by whether `auto` kept it), and the mode's thresholds.
    model: Option<(learned::Judged, learned::Threshold)>,
    /// The text nodes the selection lost as repeats of an earlier line ([`extract::repeats`]),
    /// in document order.
    repeated: Vec<NodeId>,
    /// Under `--algo model --comments`: the text nodes of `auto`'s comment sections, added to
    /// the model's selection ([`extract::comments`]), in document order.
    comments: Vec<NodeId>,
}

impl<'p, 'a> std::ops::Deref for Page<'p, 'a> {
    type Target = Analysis<'p, 'a>;
    fn deref(&self) -> &Analysis<'p, 'a> {
        &self.analysis
    }
}

impl Page<'_, '_> {
    /// `tag#id.class`, short.
    fn label(&self, id: NodeId) -> String {
        if id == NONE || self.doc.tree.node(id).kind != Kind::Element {
            return "(document)".into();
        }
        let mut s = self.doc.name(id).to_ascii_lowercase();
        if let Some(v) = self.doc.attr(id, "id").filter(|v| !v.is_empty()) {
            s.push('#');
            s.push_str(&clip(v, 40));
        }
        if let Some(v) = self.doc.attr(id, "class") {
            for c in v.split_ascii_whitespace().take(3) {
                s.push('.');
                s.push_str(&clip(c, 30));
            }
        }
        s
    }

    /// One sentence on the rule that gave the selection.
    fn verdict(&self) -> String {
        if let Some((judged, t)) = &self.model {
            let probs = &judged.blocks;
            let sure = probs.iter().filter(|&&(p, need)| p >= need).count();
            return if sure == 0 {
                "model: no text block reaches its threshold; auto's selection is the answer.".into()
            } else {
                format!(
                    "model: {sure} of {} text blocks reach their threshold and are kept: the \
                     best expected F1 of the page is {:.2}, and a block needs a probability of \
                     content of at least {:.2} of it ({:.2}) if auto kept it, {:.2} of it \
                     and at least {:.2} ({:.2}) if auto dropped it; the others are dropped.",
                    probs.len(),
                    judged.best_f1,
                    t.kept,
                    t.need(true, judged.best_f1),
                    t.added,
                    t.floor,
                    t.need(false, judged.best_f1)
                )
            };
        }
        let Some(t) = self.trace else {
            return match self.choice.best {
                Some(b) => format!(
                    "DANAg: the densest positive region is lines {}-{}; {} other region(s) \
                     within the gap of {} lines joined it.",
                    self.choice.regions[b].0,
                    self.choice.regions[b].1,
                    self.choice.joined.len().saturating_sub(1),
                    self.opts.gap,
                ),
                None => "DANAg: no positive region holds content; nothing selected.".into(),
            };
        };
        match t.outcome {
            Outcome::Container => format!(
                "auto: main container {} ({}), {} root(s) with joined siblings and recovered \
                 paragraphs; boilerplate, hidden and link-list blocks removed inside.",
                self.label(t.top.map_or(NONE, |x| x as NodeId)),
                match t.best.filter(|&b| Some(b) != t.top) {
                    Some(b) => format!(
                        "climbed from the best-scoring {} (score {:.1}), whose parent holds \
                         clearly more prose",
                        self.label(b as NodeId),
                        t.score.get(b).copied().unwrap_or(0.0)
                    ),
                    None => format!(
                        "score {:.1}",
                        t.top.and_then(|x| t.score.get(x)).copied().unwrap_or(0.0)
                    ),
                },
                t.is_root.iter().filter(|&&r| r).count()
            ),
            Outcome::Spread => format!(
                "auto: the container held {} of {} characters not removed as boilerplate (under \
                 the spread share): the page is not one article, so all of it minus boilerplate \
                 is kept.",
                t.spread.0, t.spread.1
            ),
            Outcome::Danag => {
                "auto: no container with enough text won; DANAg's selection is the answer.".into()
            }
            Outcome::Everything => {
                "auto: nothing stood out; every visible text is the answer.".into()
            }
        }
    }

    /// Why a text node was kept or dropped.
    fn reason(&self, r: &Reasons, id: NodeId, kept: bool, line: u32) -> String {
        let i = id as usize;
        let in_danag = self.in_danag(line);
        let Some(t) = self.trace else {
            return if kept {
                format!("in DANAg's selected lines (line {line})")
            } else {
                format!(
                    "outside DANAg's selected lines (line {line}, smoothed diff {})",
                    self.diff(line as usize)
                )
            };
        };
        match t.outcome {
            Outcome::Everything => return "nothing stood out: all visible text".into(),
            Outcome::Danag => {
                return if kept {
                    format!("no container won: DANAg's selection (line {line})")
                } else {
                    format!("no container won, and outside DANAg's selection (line {line})")
                };
            }
            _ => {}
        }
        let removed_at = r.removed_at.get(i).copied().unwrap_or(NONE);
        if !kept && removed_at != NONE {
            let doc = self.doc;
            let tag = doc.tree.node(removed_at).tag;
            let (hint, hidden) = self.hints(r, removed_at);
            let at = self.label(removed_at);
            return if hidden {
                format!("removed: {at} is hidden by the page")
            } else if hint == auto::COMMENT_HINT {
                format!("removed as a comment section: the class/id of {at}")
            } else if hint < 0 {
                format!("removed as boilerplate: the class/id of {at}")
            } else if matches!(
                tag,
                Tag::Nav | Tag::Aside | Tag::Footer | Tag::Header | Tag::Menu | Tag::Select
            ) {
                format!("removed as boilerplate: the <{}> element {at}", tag.name())
            } else {
                format!("removed as boilerplate or hidden: {at}")
            };
        }
        let root = r.root_of.get(i).copied().unwrap_or(NONE);
        if root == NONE {
            return if kept {
                "kept".into()
            } else if t.teaser.get(i) == Some(&true) {
                "a teaser beside the article (a linked headline and its summary, one of a \
                 repeated list): another page's content"
                    .into()
            } else {
                format!(
                    "outside the main container{}",
                    if in_danag {
                        " (though in DANAg's region)"
                    } else {
                        ""
                    }
                )
            };
        }
        let ll = r.link_list_at.get(i).copied().unwrap_or(NONE);
        if !kept && ll != NONE {
            let s = t.stats.get(ll as usize).copied().unwrap_or_default();
            return format!(
                "link list: {} has link density {:.2}",
                self.label(ll),
                s.link_density()
            );
        }
        if t.outcome == Outcome::Spread {
            return if kept {
                "page spread over many blocks: kept as not boilerplate".into()
            } else {
                "dropped".into()
            };
        }
        let score = t.score.get(root as usize).copied().unwrap_or(0.0);
        let kind = if Some(root as usize) == t.top {
            format!("in the main container {}", self.label(root))
        } else if r.is_sibling_root.get(root as usize) == Some(&true) {
            format!("sibling joined to the main container (score {score:.1})")
        } else {
            let s = t.stats.get(root as usize).copied().unwrap_or_default();
            format!(
                "recovered prose paragraph ({} chars, link density {:.2})",
                s.text,
                s.link_density()
            )
        };
        if kept {
            kind
        } else {
            format!("dropped although {kind}")
        }
    }

    /// The block's element as `auto` measured it (under the rules): its characters, link and
    /// text density, commas, DANAg's share, score, class/id hint and whether it is hidden.
    fn owner_stats(&self, html: &mut String, reasons: &Reasons, owner: NodeId) {
        if let Some(t) = self.trace
            && let Some(s) = t.stats.get(owner as usize)
        {
            // Text density: visible characters per byte of the element's source, the
            // content-to-markup ratio density-based extractors (CETD, Kohlschütter) use.
            let node = self.doc.tree.node(owner);
            let span = node.end.saturating_sub(node.start).max(1);
            let _ = write!(
                html,
                " · {} chars · link density {:.2} · text density {:.2} · {} commas · DANAg {:.0}%",
                s.text,
                s.link_density(),
                f64::from(s.text) / f64::from(span),
                s.commas,
                if s.text == 0 {
                    0.0
                } else {
                    100.0 * f64::from(s.danag) / f64::from(s.text)
                }
            );
            if let Some(sc) = t.score.get(owner as usize).filter(|&&x| x != 0.0) {
                let _ = write!(html, " · score {sc:.1}");
            }
            let (hint, hidden) = if owner == NONE {
                (0, false)
            } else {
                self.hints(reasons, owner)
            };
            if hint != 0 {
                let _ = write!(
                    html,
                    " · class/id says {}",
                    if hint < 0 { "boilerplate" } else { "content" }
                );
            }
            if hidden {
                html.push_str(" · hidden");
            }
        }
    }

    /// The block list: one row per block, text with kept parts marked, reason and signals.
    fn block_list(&self, html: &mut String, blocks: &[Block]) {
        let reasons = self.node_reasons();
        if blocks.len() > MAX_BLOCKS {
            let _ = writeln!(
                html,
                "<p class=note id=truncated>the first {MAX_BLOCKS} of {} blocks are listed</p>",
                blocks.len()
            );
        }
        // Filters in CSS alone (radio buttons before the list): no script needed to use them.
        html.push_str(
            "<input type=radio name=show id=show-all checked><label for=show-all>all</label> \
             <input type=radio name=show id=show-kept><label for=show-kept>kept</label> \
             <input type=radio name=show id=show-dropped><label for=show-dropped>dropped</label> \
             <input type=radio name=show id=show-partial><label for=show-partial>partly kept</label>",
        );
        if blocks.iter().any(|b| b.gold.is_some()) {
            html.push_str(
                " <input type=radio name=show id=show-nogold><label for=show-nogold>kept, not in \
                 the gold</label> <input type=radio name=show id=show-gold><label \
                 for=show-gold>dropped, in the gold</label>",
            );
        }
        html.push_str("\n<ol id=blocks>\n");
        let mut decoded = String::new();
        for (i, b) in blocks.iter().enumerate().take(MAX_BLOCKS) {
            let class = match b.status {
                Status::Kept => "kept",
                Status::Dropped => "dropped",
                Status::Partial => "partial",
            };
            let gold = match b.gold {
                Some(true) => " gold",
                Some(false) => " nogold",
                None => "",
            };
            let _ = write!(html, "<li class=\"block {class}{gold}\"><div class=txt>");
            for &(id, kept) in &b.nodes {
                if id == NONE {
                    html.push_str("<span class=k>\t</span>");
                    continue;
                }
                decoded.clear();
                entities::decode_into(self.doc.raw_text(id), &mut decoded);
                let _ = write!(
                    html,
                    "<span class={}>{}</span>",
                    if kept { "k" } else { "d" },
                    esc(&decoded)
                );
            }
            html.push_str("</div><div class=why>");
            // The decisive rule for the block: for a partial block, that of its first dropped
            // text; otherwise that of its first text.
            let decisive = b
                .nodes
                .iter()
                .find(|&&(id, k)| self.solid(id) && (b.status != Status::Partial || !k))
                .copied();
            let holds_any = |list: &[NodeId]| {
                b.nodes
                    .iter()
                    .any(|&(id, _)| list.binary_search(&id).is_ok())
            };
            let repeat = holds_any(&self.repeated);
            if repeat {
                html.push_str(
                    "<b>dropped as a repeat: its words are those of an earlier line, and it is \
                     quoted, printed twice in a row or part of a copied region \
                     (--keep-repeats keeps every copy)</b> ",
                );
            }
            if holds_any(&self.comments) {
                html.push_str(
                    "<b>kept as a comment: auto keeps it under --comments, beside the model's \
                     selection</b> ",
                );
            }
            if let Some((judged, _)) = &self.model {
                let (p, need) = judged.blocks.get(i).copied().unwrap_or((0.0, 1.0));
                let _ = write!(
                    html,
                    "<b>model: probability of content {p:.2} ({} the threshold {need:.2})</b>",
                    if p >= need { "at or above" } else { "below" }
                );
            } else if let Some((id, k)) = decisive.filter(|_| !repeat) {
                let _ = write!(
                    html,
                    "<b>{}</b>",
                    esc(&self.reason(&reasons, id, k, b.line))
                );
            }
            html.push_str(" <span class=sig>");
            html.push_str(&esc(&self.label(b.owner)));
            self.owner_stats(html, &reasons, b.owner);
            let at = |v: &[u32]| v.get(b.line as usize).copied().unwrap_or(0);
            let _ = writeln!(
                html,
                " · line {} (T1 {}, T2 {}, smoothed {}){}{}</span></div></li>",
                b.line,
                at(&self.profile.content),
                at(&self.profile.code),
                self.diff(b.line as usize),
                match b.gold {
                    Some(true) => " · <span class=g>in the gold</span>",
                    Some(false) => " · <span class=g>not in the gold</span>",
                    None => "",
                },
                if self.in_danag(b.line) {
                    " (DANAg region)"
                } else {
                    ""
                }
            );
        }
        html.push_str("</ol>\n");
    }

    /// The profile as two inline SVG panels over the lines `range`: T1 up and T2 down from one
    /// axis, then the smoothed diff around zero; the densest region and the joined regions
    /// shaded. `id` prefixes the element ids (the whole page and the zoom share the code).
    fn plot(&self, html: &mut String, id: &str, range: std::ops::Range<usize>) {
        let first = range.start;
        let n = range.len();
        let per = n.div_ceil(MAX_POINTS).max(1);
        let buckets = n.div_ceil(per).max(1);
        // Per bucket, the largest value (by magnitude for the diff), so no peak disappears.
        let bucket = |v: &dyn Fn(usize) -> i64| -> Vec<i64> {
            (0..buckets)
                .map(|b| {
                    (first + b * per..(first + (b + 1) * per).min(range.end))
                        .map(v)
                        .max_by_key(|x| x.unsigned_abs())
                        .unwrap_or(0)
                })
                .collect()
        };
        let t1 = bucket(&|i| i64::from(self.profile.content.get(i).copied().unwrap_or(0)));
        let t2 = bucket(&|i| i64::from(self.profile.code.get(i).copied().unwrap_or(0)));
        let diff = bucket(&|i| self.diff(i));
        let (w, h, pad) = (1000.0f64, 130.0f64, 4.0f64);
        let x = |b: usize| pad + (w - 2.0 * pad) * (b as f64 + 0.5) / buckets as f64;
        let xl = |line: usize| {
            let b = line.saturating_sub(first) as f64 / per as f64;
            (pad + (w - 2.0 * pad) * b / buckets as f64).clamp(0.0, w)
        };
        // A few lines of a long script's markup dwarf everything else: the scales stop at the
        // 99th percentile of the plotted values (never below the content peak), and what lies
        // beyond is drawn at the edge.
        let top = quantile(t1.iter().chain(&t2).copied(), 0.99)
            .max(t1.iter().copied().max().unwrap_or(0))
            .max(1) as f64;
        let dmax = quantile(diff.iter().map(|d| d.abs()), 0.99).max(1) as f64;
        let path = |vals: &[i64], y: &dyn Fn(f64) -> f64, cap: f64| -> String {
            let mut d = String::new();
            for (b, &v) in vals.iter().enumerate() {
                let _ = write!(
                    d,
                    "{}{:.1} {:.1}",
                    if b == 0 { "M" } else { "L" },
                    x(b),
                    y((v as f64).clamp(-cap, cap) / cap)
                );
            }
            d
        };
        let shade = |svg: &mut String, height: f64| {
            for (k, r) in self.choice.regions.iter().enumerate() {
                if r.1 < first || r.0 >= range.end {
                    continue;
                }
                let class = if Some(k) == self.choice.best {
                    "best"
                } else if self.choice.joined.contains(&k) {
                    "joined"
                } else {
                    "positive"
                };
                let (x0, x1) = (xl(r.0), xl(r.1 + 1));
                let _ = write!(
                    svg,
                    "<rect class={class} x=\"{x0:.1}\" y=\"0\" width=\"{:.1}\" height=\"{height}\"><title>lines {}-{}</title></rect>",
                    (x1 - x0).max(1.0),
                    r.0,
                    r.1
                );
            }
        };
        let mut svg = String::new();
        let _ = write!(
            svg,
            "<svg id={id}profile class=plot viewBox=\"0 0 {w} {}\" width=\"{w}\" height=\"{}\" \
             role=img aria-label=\"DANAg profile\"><g>",
            2.0 * h,
            2.0 * h
        );
        shade(&mut svg, 2.0 * h);
        let _ = writeln!(
            svg,
            "<line class=axis x1=\"0\" x2=\"{w}\" y1=\"{h}\" y2=\"{h}\"/>\
             <path id={id}t1 class=t1 d=\"{}\"/><path id={id}t2 class=t2 d=\"{}\"/>\
             <text x=\"8\" y=\"14\">T1: content characters per line (scale to {top})</text>\
             <text x=\"8\" y=\"{}\">T2: code characters per line</text></g></svg>",
            path(&t1, &|v| h - (h - 4.0) * v, top),
            path(&t2, &|v| h + (h - 4.0) * v, top),
            2.0 * h - 6.0
        );
        let _ = write!(
            svg,
            "<svg id={id}smoothed class=plot viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" \
             role=img aria-label=\"smoothed diff\"><g>"
        );
        shade(&mut svg, h);
        let mid = h / 2.0;
        let _ = writeln!(
            svg,
            "<line class=axis x1=\"0\" x2=\"{w}\" y1=\"{mid}\" y2=\"{mid}\"/>\
             <path id={id}diff class=diff d=\"{}\"/>\
             <text x=\"8\" y=\"14\">smoothed diff = Σ (T1 − T2) over lines i−1..i+1 (scale ±{dmax})</text>\
             </g></svg>",
            path(&diff, &|v| mid - (mid - 4.0) * v, dmax),
        );
        html.push_str(&svg);
        let _ = writeln!(
            html,
            "<p class=legend>lines {first}-{}: <span class=\"sw best\"></span> densest region (the \
             first paragraph) <span class=\"sw joined\"></span> regions joined within the gap \
             <span class=\"sw positive\"></span> other positive regions{}</p>",
            range.end.saturating_sub(1),
            if per > 1 {
                format!(" · {per} lines per point (the largest value of each group)")
            } else {
                String::new()
            }
        );
    }

    /// The lines around the selected regions, for a close-up: the selection plus a tenth of its
    /// length (at least 10 lines) on each side.
    fn zoom(&self) -> Option<std::ops::Range<usize>> {
        let sel = self.choice.regions.get(self.choice.joined.clone())?;
        let (lo, hi) = (sel.first()?.0, sel.last()?.1 + 1);
        let margin = ((hi - lo) / 10).max(10);
        let range = lo.saturating_sub(margin)..(hi + margin).min(self.profile.content.len());
        // Only worth a second figure when the page is much longer than the selection.
        (range.len() * 2 < self.profile.content.len()).then_some(range)
    }
}

/// The `q` quantile of the values (0 for none).
fn quantile(values: impl Iterator<Item = i64>, q: f64) -> i64 {
    let mut v: Vec<i64> = values.collect();
    if v.is_empty() {
        return 0;
    }
    v.sort_unstable();
    let i = ((v.len() - 1) as f64 * q).round() as usize;
    v.get(i).copied().unwrap_or(0)
}

/// The word bigrams of a gold text.
struct GoldIndex {
    /// Each word pair, with how often the gold has it.
    pairs: ahash::AHashMap<String, u32>,
}

impl GoldIndex {
    fn new(gold: &str) -> GoldIndex {
        GoldIndex::of_pieces([gold])
    }

    /// The word pairs of each piece (snippets), none across two pieces.
    fn of_pieces<'a>(pieces: impl IntoIterator<Item = &'a str>) -> GoldIndex {
        let mut pairs = ahash::AHashMap::new();
        for piece in pieces {
            let tokens = crate::eval::metrics::tokens(piece);
            for w in tokens.windows(2) {
                *pairs.entry(pair(&w[0], &w[1])).or_insert(0) += 1;
            }
        }
        GoldIndex { pairs }
    }
}

fn pair(a: &str, b: &str) -> String {
    format!("{a}\u{1}{b}")
}

/// A block is in the gold when at least half of its word pairs are; pairs, because single
/// words such as "home" or "news" occur in any article, so a one-word block is not judged
/// (`None`). Tokens as the evaluation counts them ([`crate::eval::metrics::tokens`]). It
/// asks of each block alone whether the gold has its text at all; `rows::gold_labels`
/// (`pith-lab blocks --counted-pairs`, measured) judges a page's blocks together.
fn in_gold(g: &GoldIndex, text: &str) -> Option<bool> {
    gold_pairs(g, text).map(at_least_half)
}

/// [`in_gold`]'s test on the counts of [`gold_pairs`]: at least half of the pairs found.
fn at_least_half((found, pairs): (usize, usize)) -> bool {
    found * 2 >= pairs
}

/// How many of the word pairs of `text` are in the gold, and how many it has: what
/// [`in_gold`] thresholds at half (`None` under two words).
fn gold_pairs(g: &GoldIndex, text: &str) -> Option<(usize, usize)> {
    let tokens = crate::eval::metrics::tokens(text);
    if tokens.len() < 2 {
        return None;
    }
    let found = tokens
        .windows(2)
        .filter(|w| g.pairs.contains_key(&pair(&w[0], &w[1])))
        .count();
    Some((found, tokens.len() - 1))
}

/// At most `max` characters of `s`.
fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// Escapes text for HTML content and quoted attribute values.
pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// The document head and the shared style sheet (no external resource of any kind).
pub(crate) fn head(html: &mut String, title: &str) {
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>\
         <meta name=viewport content=\"width=device-width\"><title>{}</title>\n<style>{}</style>\
         </head><body>\n",
        esc(title),
        CSS
    );
}

const CSS: &str = "
body{font:14px/1.4 system-ui,sans-serif;margin:1em 2em;color:#222;max-width:1100px}
h1{font-size:20px}h1 small{font-weight:normal;color:#666}h2{font-size:16px;margin-top:1.4em}
.meta,.legend,.note{color:#555}.counts .kept b{color:#1a7f37}.counts .dropped b{color:#b42318}
.counts .partial b{color:#9a6700}.verdict{background:#f4f4f4;padding:.4em .6em}
svg.plot{display:block;max-width:100%;height:auto;border:1px solid #ddd;margin:.3em 0}
svg text{font-size:12px;fill:#444}.axis{stroke:#888;stroke-width:1}
.t1{fill:none;stroke:#1a7f37;stroke-width:1.2}.t2{fill:none;stroke:#b42318;stroke-width:1.2}
.diff{fill:none;stroke:#0550ae;stroke-width:1.2}
rect.best{fill:#2da44e;opacity:.35}rect.joined{fill:#7ee2a8;opacity:.35}
rect.positive{fill:#bbb;opacity:.25}
.sw{display:inline-block;width:12px;height:12px;vertical-align:middle;margin-left:.8em}
.sw.best{background:#2da44e88}.sw.joined{background:#7ee2a888}.sw.positive{background:#bbb6}
ol#blocks{padding-left:3em}ol#blocks li{margin:.2em 0;padding:.2em .5em;border-left:4px solid}
#blocks li.kept{border-color:#2da44e;background:#eefbf1}#blocks li.dropped{border-color:#d1242f;background:#fff3f3;color:#666}
#blocks li.partial{border-color:#bf8700;background:#fff8e1}span.d{text-decoration:line-through;color:#999}
.why{font-size:12px;color:#444}.sig{color:#777}
#blocks li.kept.nogold,#blocks li.dropped.gold{outline:2px dashed #8250df}.g{color:#8250df}
.counts .nogold b,.counts .gold b{color:#8250df}
input[name=show]{margin-left:1em}
#show-kept:checked~#blocks li:not(.kept),#show-dropped:checked~#blocks li:not(.dropped),
#show-partial:checked~#blocks li:not(.partial),#show-nogold:checked~#blocks li:not(.kept.nogold),
#show-gold:checked~#blocks li:not(.dropped.gold){display:none}
pre{white-space:pre-wrap;background:#fafafa;border:1px solid #eee;padding:.6em}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}
td:first-child,th:first-child{text-align:left}
.curve{fill:none;stroke-width:1.6}.grid{stroke:#eee}.scatters{display:flex;flex-wrap:wrap;gap:1em}
figure{margin:0}figcaption{text-align:center;color:#555}
";

/// Recomputes the report's figures from the DOM and writes them into `#checks` as JSON: the
/// headless-browser test compares them with `pith`'s own output. Inline; nothing is fetched.
const CHECK_SCRIPT: &str = r#"<pre id=checks></pre>
<script>
(function(){
  var c = {};
  document.querySelectorAll('svg path[id]').forEach(function(p){
    c[p.id + '_points'] = (p.getAttribute('d').match(/[ML]/g) || []).length;
  });
  ['kept','dropped','partial'].forEach(function(k){
    c[k + '_blocks'] = document.querySelectorAll('li.block.' + k).length;
  });
  c.kept_nogold = document.querySelectorAll('li.block.kept.nogold').length;
  c.dropped_gold = document.querySelectorAll('li.block.dropped.gold').length;
  var words = 0;
  document.querySelectorAll('li.block').forEach(function(li){
    var t = '';
    li.querySelectorAll('.txt span.k').forEach(function(s){ t += s.textContent; });
    words += t.split(/\s+/).filter(function(w){ return w.length > 0; }).length;
  });
  c.kept_words = words;
  document.getElementById('checks').textContent = JSON.stringify(c);
})();
</script>
"#;
