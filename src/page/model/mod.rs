//! The page's type and a confidence in its extraction, from small gradient-boosted tree models
//! compiled into the library ([`PageModel`]: `page.model`, a model file written by `just
//! train` and included in the library; no file is read at run time).
//!
//! [`features`] describes a page in a few dozen numbers from what the extraction already has:
//! the parsed tree (counts of elements such as forms, list items, links, headings, paragraphs;
//! visible text, link density, digits and price-like tokens), the selection (the share of the
//! visible text kept, its link density, the output's size), the page's declarations (JSON-LD
//! `@type` and `og:type`, hashed) and the words of its URL's path and of its class/id
//! attributes and of its headings, hashed into a few buckets as FastCE hashes its paths; runs
//! of alike sibling cards (listings, collections), headings that are links (teasers), the
//! words of the URL's last segment (a slug) and densities per 1,000 characters of text
//! (headings, form controls, links). One linear pass over the
//! nodes; only computed when JSON output is asked for ([`crate::page::Options::metadata`]).
//!
//! The same pass counts the page's words (visible text and URL path) into hashed buckets for a
//! linear text model ([`words`]).
//!
//! Two models read them: a classifier of WCXB's page types ([`page_type`]: trees over the
//! features and the text model's seven probabilities, stacked) and a regressor of the
//! bag-of-words F1 of `auto`'s output against the gold ([`confidence`]: trees over the
//! features). [`Forest`] evaluates the trees: each tree is a table of splits walked in a loop,
//! never recursively.

use crate::extract::blocks::{FNV_OFFSET, fnv1a};
use crate::extract::learned::features::signature;
use crate::html::tags::Tag;
use crate::html::tree::{Kind, NodeId, context};
use crate::html::{Document, Selection};

pub(crate) mod words;

use std::sync::LazyLock;

use crate::extract::learned::forest::Forest;
use crate::extract::learned::model_file::{ModelError, ModelFile};

/// The page models as `just train` wrote them (`page.model`).
#[derive(Debug)]
pub struct PageModel {
    /// The classifier's classes, in its output order.
    pub classes: Vec<PageType>,
    /// The features the models read, in order ([`feature_names`]).
    pub features: Vec<String>,
    /// The text model's probabilities ([`words`]), which the type classifier reads after
    /// [`PageModel::features`].
    pub text_features: Vec<String>,
    /// The page-type classifier.
    pub page_type: Forest,
    /// The confidence regressor (raw score; its logistic is the predicted F1).
    pub confidence: Forest,
}

impl PageModel {
    /// Reads and checks a page model file: classes among [`PAGE_TYPES`] as many as the text
    /// model has, forests the sizes of the features.
    pub fn read(bytes: &[u8]) -> Result<PageModel, ModelError> {
        let mut file = ModelFile::parse(bytes)?;
        let bad = |what: &'static str| ModelError::Invalid(what, "page".to_string());
        let classes = file
            .strings("classes")?
            .iter()
            .map(|c| PageType::ALL.iter().copied().find(|t| t.name() == c))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| bad("a class that is not a page type"))?;
        let features = file.strings("features")?.to_vec();
        let text_features = file.strings("text_features")?.to_vec();
        let page_type = file.take_forest("page_type")?;
        let confidence = file.take_forest("confidence")?;
        if classes.len() != words::N_CLASSES
            || features.len() != N_FEATURES
            || page_type.outputs() != classes.len()
            || page_type.inputs() != N_FEATURES + classes.len()
            || confidence.inputs() != N_FEATURES
            || confidence.outputs() != 1
        {
            return Err(bad("forests of other sizes than the features'"));
        }
        Ok(PageModel {
            classes,
            features,
            text_features,
            page_type,
            confidence,
        })
    }
}

/// Set by [`skip_models`]: the page models are not evaluated.
static SKIPPED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// From now on, in this process, pages get no `page_type` and no page-model `confidence`;
/// their features are computed as before. For `pith-lab pages`, whose table the models are
/// trained on: with a feature added, the compiled-in models no longer fit the features (and
/// [`model`] would refuse them) until `just train` has written new ones from that table.
pub fn skip_models() {
    SKIPPED.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether [`skip_models`] was called.
pub(crate) fn models_skipped() -> bool {
    SKIPPED.load(std::sync::atomic::Ordering::Relaxed)
}

/// The shipped page models, read from the bytes compiled in on first use.
pub fn model() -> &'static PageModel {
    static MODEL: LazyLock<PageModel> = LazyLock::new(|| {
        PageModel::read(include_bytes!("page.model"))
            .unwrap_or_else(|e| panic!("the page models compiled into pith are broken: {e}"))
    });
    &MODEL
}

/// What the models read of a page: the numbers of [`features`] ([`N_FEATURES`], named by
/// [`feature_names`]) and the page's hashed words ([`words`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Features {
    /// The tree features, in [`feature_names`]' order.
    pub values: Vec<f64>,
    /// The words of the visible text and the URL's path.
    pub words: words::Words,
}

/// A page's type (`page_type`): WCXB's seven (`PageModel::classes`) and `Other`, for a
/// page without visible text, which the classifier never saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PageType {
    /// A news story, blog post or essay.
    Article,
    /// A page of many items of several kinds (a home page, a section front).
    Collection,
    /// Reference or help pages: manuals, API docs, how-tos.
    Documentation,
    /// A discussion thread, Q&A or comments.
    Forum,
    /// A list of items of one kind (search results, a category of products or posts).
    Listing,
    /// One product's page.
    Product,
    /// A service, company or landing page.
    Service,
    /// A page without visible text.
    Other,
}

impl PageType {
    /// Every type, in the order of their names.
    pub const ALL: [PageType; 8] = [
        PageType::Article,
        PageType::Collection,
        PageType::Documentation,
        PageType::Forum,
        PageType::Listing,
        PageType::Product,
        PageType::Service,
        PageType::Other,
    ];

    /// The type's name, as JSON's `page_type` and the model file write it.
    pub fn name(self) -> &'static str {
        match self {
            PageType::Article => "article",
            PageType::Collection => "collection",
            PageType::Documentation => "documentation",
            PageType::Forum => "forum",
            PageType::Listing => "listing",
            PageType::Product => "product",
            PageType::Service => "service",
            PageType::Other => "other",
        }
    }
}

impl std::fmt::Display for PageType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for PageType {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// Buckets of the hashed words of the URL's path.
pub(crate) const PATH_BUCKETS: usize = 16;
/// Buckets of the hashed words of the page's title.
pub(crate) const TITLE_BUCKETS: usize = 16;
/// Buckets of the hashed words of every element's class and id.
pub(crate) const CLASS_BUCKETS: usize = 16;
/// Buckets of the hashed JSON-LD `@type` values.
pub(crate) const LD_BUCKETS: usize = 8;
/// Buckets of the hashed `og:type`.
pub(crate) const OG_BUCKETS: usize = 4;
/// Buckets of the hashed words of the page's visible headings (h1-h6).
pub(crate) const HEADING_BUCKETS: usize = 16;

/// The elements counted, one feature each ([`FEATURES`] names them `n_<tag>`).
const COUNTED: [Tag; 34] = [
    Tag::A,
    Tag::P,
    Tag::Li,
    Tag::Ul,
    Tag::Ol,
    Tag::H1,
    Tag::H2,
    Tag::H3,
    Tag::Form,
    Tag::Input,
    Tag::Button,
    Tag::Select,
    Tag::Textarea,
    Tag::Table,
    Tag::Tr,
    Tag::Td,
    Tag::Img,
    Tag::Article,
    Tag::Nav,
    Tag::Aside,
    Tag::Header,
    Tag::Footer,
    Tag::Main,
    Tag::Section,
    Tag::Pre,
    Tag::Code,
    Tag::Time,
    Tag::Blockquote,
    Tag::Dl,
    Tag::Iframe,
    Tag::Script,
    Tag::Label,
    Tag::Figure,
    Tag::Div,
];

/// The slot in [`COUNTED`] of each element kind (`u8::MAX`: not counted); h4-h6 count with
/// h3 (the minor headings), th with td (table cells).
const COUNT_SLOT: [u8; Tag::Other as usize + 1] = {
    let mut t = [u8::MAX; Tag::Other as usize + 1];
    let mut i = 0;
    while i < COUNTED.len() {
        t[COUNTED[i] as usize] = i as u8;
        i += 1;
    }
    t[Tag::H4 as usize] = t[Tag::H3 as usize];
    t[Tag::H5 as usize] = t[Tag::H3 as usize];
    t[Tag::H6 as usize] = t[Tag::H3 as usize];
    t[Tag::Th as usize] = t[Tag::Td as usize];
    t
};

/// The named features, in order, before the hashed buckets (path, class/id, JSON-LD, og:type).
pub(crate) const NAMED: [&str; 84] = [
    "bytes",
    "elements",
    "text_nodes",
    "text_chars",
    "link_chars",
    "link_density",
    "words",
    "digit_share",
    "price_tokens",
    "heading_chars",
    "n_a",
    "n_p",
    "n_li",
    "n_ul",
    "n_ol",
    "n_h1",
    "n_h2",
    "n_h3",
    "n_form",
    "n_input",
    "n_button",
    "n_select",
    "n_textarea",
    "n_table",
    "n_tr",
    "n_td",
    "n_img",
    "n_article",
    "n_nav",
    "n_aside",
    "n_header",
    "n_footer",
    "n_main",
    "n_section",
    "n_pre",
    "n_code",
    "n_time",
    "n_blockquote",
    "n_dl",
    "n_iframe",
    "n_script",
    "n_label",
    "n_figure",
    "n_div",
    "chars_per_element",
    "kept_chars",
    "kept_share",
    "kept_link_density",
    "kept_nodes",
    "output_chars",
    "output_lines",
    "title_chars",
    "ld_types",
    "og_type",
    "url_known",
    "url_depth",
    "url_digits",
    "url_query",
    "stops_per_word",
    "commas_per_word",
    "in_p",
    "in_li",
    "in_cell",
    "in_form",
    "in_article",
    "in_chrome",
    "in_quote",
    "output_line_chars",
    "output_long_lines",
    "output_paragraphs",
    "rep_groups",
    "rep_largest",
    "rep_share",
    "rep_kept_share",
    "rep_prices",
    "headings_per_k",
    "controls_per_k",
    "links_per_k",
    "output_longest_line",
    "output_paragraph_share",
    "linked_heading_share",
    "linked_headings",
    "url_slug_words",
    "url_slash_end",
];

/// How many features `features` gives.
pub const N_FEATURES: usize = NAMED.len()
    + PATH_BUCKETS
    + TITLE_BUCKETS
    + CLASS_BUCKETS
    + LD_BUCKETS
    + OG_BUCKETS
    + HEADING_BUCKETS;

/// The name of every feature, in order: `NAMED`, then `path0..`, `title0..`, `cls0..`,
/// `ld0..`, `og0..`, `head0..`.
pub fn feature_names() -> Vec<String> {
    let mut out: Vec<String> = NAMED.iter().map(|s| s.to_string()).collect();
    for (prefix, n) in [
        ("path", PATH_BUCKETS),
        ("title", TITLE_BUCKETS),
        ("cls", CLASS_BUCKETS),
        ("ld", LD_BUCKETS),
        ("og", OG_BUCKETS),
        ("head", HEADING_BUCKETS),
    ] {
        out.extend((0..n).map(|i| format!("{prefix}{i}")));
    }
    out
}

/// Currency signs a price is written with; a digit beside one, or one space away, makes a
/// price-like token.
const CURRENCY: [char; 6] = ['$', '€', '£', '¥', '₹', '₽'];

/// An output line this long (characters) or longer reads as running text, not a menu item or
/// a list entry's title.
const LONG_LINE: usize = 80;
/// An output line this long or longer is a paragraph of prose.
const PARAGRAPH_LINE: usize = 200;

/// Where a text node is, from its ancestors: one bit per kind of region, inherited in one
/// forward pass over the nodes (a parent comes before its children).
mod within {
    pub(super) const P: u8 = 1;
    pub(super) const LI: u8 = 1 << 1;
    pub(super) const CELL: u8 = 1 << 2;
    pub(super) const FORM: u8 = 1 << 3;
    /// `article` or `main`.
    pub(super) const ARTICLE: u8 = 1 << 4;
    /// `nav`, `header`, `footer` or `aside`: the page's chrome.
    pub(super) const CHROME: u8 = 1 << 5;
    /// `blockquote` or `pre`.
    pub(super) const QUOTE: u8 = 1 << 6;
    /// An element whose tag and class repeat its previous element sibling's ([`signature`]):
    /// the second and later cards of a run of alike siblings (a listing's entries, a
    /// collection's products, a forum's posts).
    pub(super) const REPEAT: u8 = 1 << 7;
}

/// The elements a card or entry is made of; a run of alike paragraphs or inline elements is
/// prose, not a repeated group.
const CARD: [Tag; 6] = [
    Tag::Div,
    Tag::Li,
    Tag::Article,
    Tag::Section,
    Tag::Tr,
    Tag::Figure,
];

/// A run of alike element siblings this long or longer is a repeated group (cards, entries).
const GROUP_RUN: u32 = 3;

/// The region bit of an element kind ([`within`]).
fn region(tag: Tag) -> u8 {
    match tag {
        Tag::P => within::P,
        Tag::Li => within::LI,
        Tag::Td | Tag::Th => within::CELL,
        Tag::Form => within::FORM,
        Tag::Article | Tag::Main => within::ARTICLE,
        Tag::Nav | Tag::Header | Tag::Footer | Tag::Aside => within::CHROME,
        Tag::Blockquote | Tag::Pre => within::QUOTE,
        _ => 0,
    }
}

/// The bucket of a word in `n` buckets (FNV-1a, as FastCE hashes paths).
fn bucket(word: &[u8], n: usize) -> usize {
    (fnv1a(FNV_OFFSET, word) % n as u64) as usize
}

/// Adds the words of `s` ([`words::each_word`]) to `buckets`.
fn hash_words(s: &str, buckets: &mut [f64]) {
    let n = buckets.len() as u64;
    words::each_word(FNV_OFFSET, s, |h| {
        if let Some(c) = buckets.get_mut((h % n.max(1)) as usize) {
            *c += 1.0;
        }
    });
}

/// What one text's characters add up to: counts (integers, so that the walk is not a chain
/// of floating-point additions; read as f64, they are the same numbers exactly).
#[derive(Default)]
struct TextCount {
    chars: u64,
    words: u64,
    digits: u64,
    prices: u64,
    stops: u64,
    commas: u64,
}

impl TextCount {
    fn add(&mut self, s: &str) {
        // Most text is ASCII: its bytes are its characters, with no UTF-8 to decode, and
        // without a `$` (the one ASCII currency sign) it has no price to look around for.
        if s.is_ascii() {
            if memchr::memchr(b'$', s.as_bytes()).is_none() {
                self.add_ascii(s.as_bytes());
            } else {
                self.add_chars(s.bytes().map(char::from));
            }
        } else {
            self.add_chars(s.chars());
        }
    }

    /// [`TextCount::add_chars`] on ASCII text without a currency sign, where a price cannot
    /// occur: each count a sum over the bytes and the byte before (a blank before the
    /// first), with no branch, as the loop there counts them.
    fn add_ascii(&mut self, s: &[u8]) {
        let (mut chars, mut words, mut stops, mut digits, mut commas) = (0u64, 0u64, 0, 0, 0);
        let mut prev = b' ';
        for &c in s {
            let blank = c <= b' ';
            chars += u64::from(!blank);
            words += u64::from(!blank & (prev <= b' '));
            stops += u64::from(blank & matches!(prev, b'.' | b'!' | b'?'));
            digits += u64::from(c.is_ascii_digit());
            commas += u64::from(c == b',');
            prev = c;
        }
        self.chars += chars;
        self.words += words;
        self.stops += stops;
        self.digits += digits;
        self.commas += commas;
    }

    #[inline(always)]
    fn add_chars(&mut self, chars: impl Iterator<Item = char>) {
        let (mut prev, mut prev2) = (' ', ' ');
        for c in chars {
            let blank = is_blank(c);
            if !blank {
                self.chars += 1;
                if is_blank(prev) {
                    self.words += 1;
                }
            } else if matches!(prev, '.' | '!' | '?' | '。' | '！' | '？') {
                self.stops += 1;
            }
            if c.is_ascii_digit() {
                self.digits += 1;
                // The character before, across one space ("$5", "5 €").
                let near = if is_blank(prev) { prev2 } else { prev };
                if CURRENCY.contains(&near) {
                    self.prices += 1;
                }
            } else if !c.is_ascii_alphabetic() && !blank {
                if matches!(c, ',' | '，' | '、') {
                    self.commas += 1;
                }
                let near = if is_blank(prev) { prev2 } else { prev };
                if CURRENCY.contains(&c) && near.is_ascii_digit() {
                    self.prices += 1;
                }
            }
            prev2 = prev;
            prev = c;
        }
    }
}

/// White space as the text counts go: ASCII blanks and controls, the no-break and the
/// ideographic space (a cheap test; the text is walked character by character).
#[inline]
fn is_blank(c: char) -> bool {
    c <= ' ' || c == '\u{a0}' || c == '\u{3000}'
}

/// The `@type` values in a JSON-LD script's text, lower-cased: each `"@type"` key's string, or
/// the strings of its array. A scan of the text, not a parse: linear and never failing.
fn ld_types(s: &str, out: &mut Vec<String>) {
    let mut rest = s;
    while let Some(i) = rest.find("\"@type\"") {
        rest = rest.get(i + 7..).unwrap_or("");
        let value = rest
            .trim_start()
            .strip_prefix(':')
            .unwrap_or("")
            .trim_start();
        let (list, end) = match value.strip_prefix('[') {
            Some(v) => (v, v.find(']').unwrap_or(v.len())),
            None => (value, value.find([',', '}']).unwrap_or(value.len())),
        };
        let list = list.get(..end).unwrap_or("");
        for part in list.split(',') {
            let t = part.trim().trim_matches('"');
            if !t.is_empty() && t.len() < 64 {
                out.push(t.to_ascii_lowercase());
            }
        }
    }
}

/// The path and query of an absolute http(s) URL; `None` for anything else.
fn url_path(url: &str) -> Option<(&str, bool)> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let path = rest.find('/').map_or("", |i| rest.get(i..).unwrap_or(""));
    let path = path.split('#').next().unwrap_or("");
    Some(match path.split_once('?') {
        Some((p, _)) => (p, true),
        None => (path, false),
    })
}

/// What one pass over a page's nodes counts for [`features`]: element counts by kind, the
/// visible text's counts (in links, in headings, in each region, in runs of alike siblings,
/// in the selection), class/id and heading words hashed, JSON-LD types, `og:type` and the
/// page's own URL.
struct Walked<'a> {
    counter: words::Counter,
    counts: [f64; COUNTED.len()],
    elements: f64,
    text_nodes: f64,
    link_chars: f64,
    heading_chars: f64,
    linked_heading_chars: f64,
    linked_headings: f64,
    all: TextCount,
    classes: [f64; CLASS_BUCKETS],
    heads: [f64; HEADING_BUCKETS],
    ld: Vec<String>,
    og_type: Option<&'a str>,
    page_url: Option<&'a str>,
    in_region: [f64; 7],
    groups: f64,
    largest: u32,
    rep_chars: f64,
    rep_kept: f64,
    rep_prices: f64,
    kept_chars: f64,
    kept_link: f64,
    kept_nodes: f64,
}

/// What an element of the head says of the page's kind and address: a JSON-LD script's
/// `@type`s (into `ld`), the first `og:type` and `og:url`, else the canonical link.
fn marks<'a>(
    doc: &Document<'a>,
    id: NodeId,
    tag: Tag,
    ld: &mut Vec<String>,
    og_type: &mut Option<&'a str>,
    page_url: &mut Option<&'a str>,
) {
    match tag {
        Tag::Script
            if doc
                .attr(id, "type")
                .is_some_and(|t| t.to_ascii_lowercase().contains("ld+json")) =>
        {
            ld_types(doc.raw_text(id), ld);
        }
        Tag::Meta => {
            let key = doc.attr(id, "property").or_else(|| doc.attr(id, "name"));
            match key.map(str::to_ascii_lowercase).as_deref() {
                Some("og:type") if og_type.is_none() => *og_type = doc.attr(id, "content"),
                Some("og:url") if page_url.is_none() => *page_url = doc.attr(id, "content"),
                _ => {}
            }
        }
        Tag::Link
            if page_url.is_none()
                && doc
                    .attr(id, "rel")
                    .is_some_and(|r| r.eq_ignore_ascii_case("canonical")) =>
        {
            *page_url = doc.attr(id, "href");
        }
        _ => {}
    }
}

/// The pass of [`features`] over the page's nodes in document order ([`Walked`]).
fn walk<'a>(doc: &Document<'a>, selection: &Selection) -> Walked<'a> {
    let tree = &doc.tree;
    let mut counter = words::Counter::default();
    let mut counts = [0.0f64; COUNTED.len()];
    let (mut elements, mut text_nodes, mut link_chars, mut heading_chars) = (0.0, 0.0, 0.0, 0.0);
    let (mut linked_heading_chars, mut linked_headings) = (0.0, 0.0);
    let mut all = TextCount::default();
    let mut classes = [0.0f64; CLASS_BUCKETS];
    let mut heads = [0.0f64; HEADING_BUCKETS];
    let mut ld = Vec::new();
    let mut og_type: Option<&str> = None;
    let mut page_url: Option<&str> = None;
    // The open elements down to the current node, each with the region bits ([`within`]) of
    // it and its ancestors: a stack no deeper than the tree (`MAX_DEPTH`), so that the pass
    // holds no memory per node.
    // Each open element also keeps the signature of its last element child and how many
    // children in a row have had it (the run of alike siblings, [`within::REPEAT`]).
    let mut open: Vec<(NodeId, u8, u64, u32)> = Vec::new();
    let mut in_region = [0.0f64; 7];
    let (mut groups, mut largest, mut rep_chars, mut rep_kept, mut rep_prices) =
        (0.0, 0u32, 0.0, 0.0, 0.0);
    // The selection's text nodes, in document order, are met in the same pass.
    let (mut kept_chars, mut kept_link, mut kept_nodes) = (0.0, 0.0, 0.0);
    let mut next_kept = 0;
    for (i, n) in tree.nodes.iter().enumerate() {
        let id = i as NodeId;
        while open.last().is_some_and(|&(top, ..)| top != n.parent) {
            open.pop();
        }
        let inherited = open.last().map_or(0, |&(_, bits, ..)| bits);
        if n.kind != Kind::Text {
            let mut bits = inherited | region(n.tag);
            if n.kind == Kind::Element && CARD.contains(&n.tag) {
                let sig = signature(doc, id, n.tag);
                if let Some((_, _, last, run)) = open.last_mut() {
                    if *last == sig && *run > 0 {
                        *run = run.saturating_add(1);
                        bits |= within::REPEAT;
                    } else {
                        (*last, *run) = (sig, 1);
                    }
                    if *run == GROUP_RUN {
                        groups += 1.0;
                    }
                    largest = largest.max(*run);
                }
            }
            open.push((id, bits, 0, 0));
        }
        match n.kind {
            Kind::Element => {
                elements += 1.0;
                if let Some(c) = COUNT_SLOT
                    .get(n.tag as usize)
                    .and_then(|&k| counts.get_mut(usize::from(k)))
                {
                    *c += 1.0;
                }
                marks(doc, id, n.tag, &mut ld, &mut og_type, &mut page_url);
                for (name, v) in doc.attributes(id) {
                    if name.eq_ignore_ascii_case("class") || name.eq_ignore_ascii_case("id") {
                        hash_words(v, &mut classes);
                    }
                }
            }
            Kind::Text => {
                let ctx = n.context();
                let mut added = 0.0;
                let repeated = inherited & within::REPEAT != 0;
                if ctx & context::HIDDEN == 0 {
                    let (before, prices) = (all.chars as f64, all.prices as f64);
                    all.add(doc.raw_text(id));
                    counter.text(doc.raw_text(id));
                    added = all.chars as f64 - before;
                    if repeated {
                        rep_chars += added;
                        rep_prices += all.prices as f64 - prices;
                    }
                    text_nodes += 1.0;
                    if ctx & context::LINK != 0 {
                        link_chars += added;
                    }
                    if ctx & context::HEADING != 0 {
                        heading_chars += added;
                        hash_words(doc.raw_text(id), &mut heads);
                        if ctx & context::LINK != 0 && added > 0.0 {
                            linked_heading_chars += added;
                            linked_headings += 1.0;
                        }
                    }
                    for (bit, sum) in in_region.iter_mut().enumerate() {
                        if inherited & (1 << bit) != 0 {
                            *sum += added;
                        }
                    }
                }
                while let Some(&k) = selection.nodes.get(next_kept) {
                    if k > id {
                        break;
                    }
                    if k == id {
                        kept_chars += added;
                        kept_nodes += 1.0;
                        if repeated {
                            rep_kept += added;
                        }
                        if ctx & context::LINK != 0 {
                            kept_link += added;
                        }
                    }
                    next_kept += 1;
                }
            }
            Kind::Document => {}
        }
    }
    Walked {
        counter,
        counts,
        elements,
        text_nodes,
        link_chars,
        heading_chars,
        linked_heading_chars,
        linked_headings,
        all,
        classes,
        heads,
        ld,
        og_type,
        page_url,
        in_region,
        groups,
        largest,
        rep_chars,
        rep_kept,
        rep_prices,
        kept_chars,
        kept_link,
        kept_nodes,
    }
}

/// The features of a parsed page and its extraction: `selection` and its rendered `text`;
/// `url`, the page's URL when known outside the page (else its `og:url` or canonical link is
/// used).
pub(crate) fn features(
    doc: &Document<'_>,
    selection: &Selection,
    text: &str,
    url: Option<&str>,
) -> Features {
    let mut w = walk(doc, selection);
    let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
    let mut f = Vec::with_capacity(N_FEATURES);
    f.extend([
        doc.src.len() as f64,
        w.elements,
        w.text_nodes,
        w.all.chars as f64,
        w.link_chars,
        ratio(w.link_chars, w.all.chars as f64),
        w.all.words as f64,
        ratio(w.all.digits as f64, w.all.chars as f64),
        w.all.prices as f64,
        w.heading_chars,
    ]);
    f.extend(w.counts);
    // Non-blank output lines: how many, their characters, how many long and paragraph-long
    // (counted, not collected: a page of many short lines holds no list of them).
    let (mut lines, mut line_chars, mut long, mut paragraphs) = (0usize, 0usize, 0usize, 0usize);
    let (mut longest, mut paragraph_chars) = (0usize, 0usize);
    for line in text.lines() {
        let line = line.trim();
        let n = if line.is_ascii() {
            line.len()
        } else {
            line.chars().count()
        };
        if n > 0 {
            lines += 1;
            line_chars += n;
            long += usize::from(n >= LONG_LINE);
            paragraphs += usize::from(n >= PARAGRAPH_LINE);
            longest = longest.max(n);
            if n >= PARAGRAPH_LINE {
                paragraph_chars += n;
            }
        }
    }
    let title = doc.title();
    let title_chars = title.as_ref().map_or(0, |t| t.chars().count()) as f64;
    let url = url
        .filter(|u| !u.trim().is_empty())
        .or(w.page_url)
        .and_then(url_path);
    let (path, query) = url.unwrap_or(("", false));
    f.extend([
        ratio(w.all.chars as f64, w.elements),
        w.kept_chars,
        ratio(w.kept_chars, w.all.chars as f64),
        ratio(w.kept_link, w.kept_chars),
        w.kept_nodes,
        text.chars().count() as f64,
        lines as f64,
        title_chars,
        w.ld.len() as f64,
        f64::from(u8::from(w.og_type.is_some())),
        f64::from(u8::from(url.is_some())),
        path.split('/').filter(|s| !s.is_empty()).count() as f64,
        path.bytes().filter(u8::is_ascii_digit).count() as f64,
        f64::from(u8::from(query)),
    ]);
    f.extend([
        ratio(w.all.stops as f64, w.all.words as f64),
        ratio(w.all.commas as f64, w.all.words as f64),
    ]);
    f.extend(w.in_region.iter().map(|&c| ratio(c, w.all.chars as f64)));
    f.extend([
        ratio(line_chars as f64, lines as f64),
        ratio(long as f64, lines as f64),
        paragraphs as f64,
    ]);
    // Repetition, and w.counts per 1,000 characters of visible text.
    let count = |t: Tag| {
        COUNT_SLOT
            .get(t as usize)
            .and_then(|&k| w.counts.get(usize::from(k)))
            .copied()
            .unwrap_or(0.0)
    };
    let per_k = |x: f64| ratio(x * 1000.0, w.all.chars as f64);
    let headings = count(Tag::H1) + count(Tag::H2) + count(Tag::H3);
    let controls =
        count(Tag::Input) + count(Tag::Button) + count(Tag::Select) + count(Tag::Textarea);
    f.extend([
        w.groups,
        f64::from(w.largest),
        ratio(w.rep_chars, w.all.chars as f64),
        ratio(w.rep_kept, w.kept_chars),
        w.rep_prices,
        per_k(headings),
        per_k(controls),
        per_k(count(Tag::A)),
        longest as f64,
        ratio(paragraph_chars as f64, line_chars as f64),
    ]);
    // Teasers (a heading that is a link: a listing's items) and the URL's last segment (an
    // article's slug is many words; a section's one, often with a closing slash).
    let slug = path.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    f.extend([
        ratio(w.linked_heading_chars, w.heading_chars),
        w.linked_headings,
        slug.split(['-', '_']).filter(|s| !s.is_empty()).count() as f64,
        f64::from(u8::from(path.len() > 1 && path.ends_with('/'))),
    ]);
    let mut paths = [0.0f64; PATH_BUCKETS];
    hash_words(path, &mut paths);
    w.counter.url_path(path);
    f.extend(paths);
    let mut titles = [0.0f64; TITLE_BUCKETS];
    if let Some(t) = &title {
        hash_words(t, &mut titles);
    }
    f.extend(titles);
    f.extend(w.classes);
    let mut lds = [0.0f64; LD_BUCKETS];
    for t in &w.ld {
        if let Some(c) = lds.get_mut(bucket(t.as_bytes(), LD_BUCKETS)) {
            *c += 1.0;
        }
    }
    f.extend(lds);
    let mut ogs = [0.0f64; OG_BUCKETS];
    if let Some(t) = w.og_type {
        let t = t.trim().to_ascii_lowercase();
        if let Some(c) = ogs.get_mut(bucket(t.as_bytes(), OG_BUCKETS)) {
            *c += 1.0;
        }
    }
    f.extend(ogs);
    f.extend(w.heads);
    Features {
        values: f,
        words: w.counter.finish(),
    }
}

/// The probability of each of `PageModel::classes`: the softmax of the classifier's raw scores
/// over the features and the text model's probabilities (`words::probs`).
pub fn type_probs(features: &Features) -> Vec<f64> {
    let mut x = Vec::with_capacity(features.values.len() + words::N_CLASSES);
    x.extend_from_slice(&features.values);
    x.extend(words::probs(&features.words));
    let raw = model().page_type.raw(&x);
    let max = raw.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exp: Vec<f64> = raw.iter().map(|r| (r - max).exp()).collect();
    let sum: f64 = exp.iter().sum();
    exp.iter().map(|e| e / sum).collect()
}

/// The page's type: the most probable of [`PageModel::classes`], or [`PageType::Other`] for
/// a page without visible text (`text_chars` 0).
pub(crate) fn page_type(features: &Features) -> PageType {
    if features.values.get(3).is_none_or(|&c| c <= 0.0) {
        return PageType::Other;
    }
    let probs = type_probs(features);
    let mut best = 0;
    for (i, p) in probs.iter().enumerate() {
        if probs.get(best).is_some_and(|b| p > b) {
            best = i;
        }
    }
    model()
        .classes
        .get(best)
        .copied()
        .unwrap_or(PageType::Other)
}

/// The predicted bag-of-words F1 of the page's extraction, in 0..=1 (the logistic of the
/// regressor's raw score; trained on `auto`'s output).
pub fn confidence(features: &Features) -> f64 {
    let raw = model()
        .confidence
        .raw(&features.values)
        .first()
        .copied()
        .unwrap_or(0.0);
    1.0 / (1.0 + (-raw).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The feature called `name` among a page's `values`.
    fn named(values: &[f64], name: &str) -> f64 {
        values[NAMED.iter().position(|n| *n == name).unwrap()]
    }

    #[test]
    fn ascii_text_is_counted_as_the_character_loop_counts_it() {
        let counts = |t: &TextCount| (t.chars, t.words, t.digits, t.prices, t.stops, t.commas);
        // Every pair of the bytes that matter, and texts of them in a row (xorshift picks).
        let bytes = b" \t\n\x0b\x01\x7f.!?,;:09aZ-";
        let mut texts: Vec<Vec<u8>> = Vec::new();
        for &a in bytes {
            for &b in bytes {
                texts.push(vec![a, b]);
            }
        }
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for len in 0..400 {
            let text = (0..len % 40)
                .map(|_| bytes[(crate::hash::xorshift64(&mut x) % bytes.len() as u64) as usize])
                .collect();
            texts.push(text);
        }
        texts.push(b"It rose 12%. Then, at 3 p.m., it fell!  Why? 4,5".to_vec());
        for text in &texts {
            let (mut fast, mut slow) = (TextCount::default(), TextCount::default());
            fast.add_ascii(text);
            slow.add_chars(text.iter().map(|&b| char::from(b)));
            assert_eq!(
                counts(&fast),
                counts(&slow),
                "{:?}",
                String::from_utf8_lossy(text)
            );
        }
    }

    #[test]
    fn names_match_the_features() {
        assert_eq!(feature_names().len(), N_FEATURES);
        assert_eq!(COUNTED.len() + 10 + 40, NAMED.len());
        let m = model();
        assert_eq!(m.features, feature_names());
        let text: Vec<String> = m.classes.iter().map(|c| format!("text_{c}")).collect();
        assert_eq!(m.text_features, text);
        let arena = bumpalo::Bump::new();
        let src = "<html><head><title>Shoe</title><meta property=og:type content=product>\
                   <script type=application/ld+json>{\"@type\":[\"Product\",\"Thing\"]}</script>\
                   </head><body class=product-page><h1>Red shoe</h1><p>Only $49.99 today, \
                   or 45 €.</p><form><input><button>Buy</button></form><a href=/>Home</a></body></html>";
        let doc = Document::parse(src, &arena);
        let f = features(
            &doc,
            &Selection::default(),
            "",
            Some("https://x.org/shop/red-shoe?id=7"),
        );
        assert_eq!(f.values.len(), N_FEATURES);
        // Visible words and the URL's path words: red, shoe, only, today, or, buy, home; u:shop,
        // u:red, u:shoe ("$49.99", "45" and "€" are not words; the title is not visible text).
        let counted: u32 = f.words.0.iter().map(|&(_, n)| n).sum();
        assert_eq!(counted, 10, "{:?}", f.words);
        let at = |name: &str| named(&f.values, name);
        assert_eq!(at("price_tokens"), 2.0);
        assert_eq!(at("ld_types"), 2.0);
        assert_eq!(at("og_type"), 1.0);
        assert_eq!((at("url_depth"), at("url_query")), (2.0, 1.0));
        // The last segment "red-shoe" is two words; the path does not end with a slash.
        assert_eq!((at("url_slug_words"), at("url_slash_end")), (2.0, 0.0));
        assert_eq!(at("n_form"), 1.0);
        assert_eq!(at("n_h1"), 1.0);
        assert!(at("link_density") > 0.0 && at("link_density") < 1.0);
        let p = type_probs(&f);
        assert_eq!(p.len(), model().classes.len());
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(PageType::ALL.contains(&page_type(&f)));
        let c = confidence(&f);
        assert!((0.0..=1.0).contains(&c));
        // No visible text: `other`.
        let empty = Document::parse("<html><head><title>x</title></head></html>", &arena);
        let f = features(&empty, &Selection::default(), "", None);
        assert_eq!(page_type(&f), PageType::Other);
    }

    #[test]
    fn headings_that_are_links_and_section_urls_are_counted() {
        let arena = bumpalo::Bump::new();
        // A section front: two teasers whose headings are links, one plain heading.
        let src = "<html><body><h1>News</h1><h2><a href=/a>First story here</a></h2><p>Teaser.</p>\
                   <h2><a href=/b>Second</a></h2><p>Another teaser.</p></body></html>";
        let doc = Document::parse(src, &arena);
        let f = features(
            &doc,
            &Selection::default(),
            "",
            Some("https://x.org/news/world/"),
        )
        .values;
        let at = |name: &str| named(&f, name);
        assert_eq!(at("linked_headings"), 2.0);
        // "FirststoryhereSecond" (20 characters, blanks not counted) of "News" + those.
        assert!((at("linked_heading_share") - 20.0 / 24.0).abs() < 1e-12);
        assert_eq!((at("url_slug_words"), at("url_slash_end")), (1.0, 1.0));
        // The site's root is no section: its path "/" has no last segment.
        let f = features(&doc, &Selection::default(), "", Some("https://x.org/")).values;
        let at = |name: &str| named(&f, name);
        assert_eq!((at("url_slug_words"), at("url_slash_end")), (0.0, 0.0));
    }

    #[test]
    fn runs_of_alike_cards_are_counted() {
        let arena = bumpalo::Bump::new();
        // Four alike cards (a run of 4: one group, three repeated members), then a different
        // one, and paragraphs, which never make a run.
        let src = "<html><body><h2>Shop</h2><ul><li class=card>Red $5</li><li class=card>Blue $6</li>\
                   <li class=card>Green $7</li><li class=card>Gray $8</li><li class=big>Other</li>\
                   </ul><p>one</p><p>two</p><p>three</p></body></html>";
        let doc = Document::parse(src, &arena);
        let f = features(&doc, &Selection::default(), "", None).values;
        let at = |name: &str| named(&f, name);
        assert_eq!(at("rep_groups"), 1.0);
        assert_eq!(at("rep_largest"), 4.0);
        assert_eq!(at("rep_prices"), 3.0);
        assert!(at("rep_share") > 0.2 && at("rep_share") < 0.6);
        assert!(at("headings_per_k") > 0.0);
    }
}
