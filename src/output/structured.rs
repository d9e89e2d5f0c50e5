//! The main content as markup: `--format html` (HTML elements) and `--format xml`
//! (trafilatura's XML: `<head rend="h2">`, `<list><item>`, `<table><row><cell>`, `<quote>`,
//! `<code>`, `<ref target>`, `<graphic>`, `<hi rend>`, `<lb/>`). This module writes the body;
//! [`html_document`] and [`xml_document`] put it in its document with the page's metadata.
//!
//! The walk keeps the elements with selected text (or a listed image) under them, in document
//! order, and maps each to an output element by its tag; every other element (`div`,
//! `section`, `span`...) writes nothing of its own, a block-level one only separating
//! paragraphs. The output is valid by construction, whatever the page's markup: each output
//! element is placed only where its parent may hold it, and what cannot stand where it comes
//! (text directly in a list or a table, a list item outside a list) gets the element it needs
//! around it (an item, a row and a cell, a list), written as if the page had it. An element
//! that can stand nowhere near (a heading inside a paragraph, a link inside a link) gives its
//! text to the element around it. Text is escaped, white space collapsed as in text output,
//! and characters XML 1.0 or the HTML parser reject (controls, noncharacters) are dropped.
//!
//! The walk is a loop over the nodes with a stack of open elements: no recursion, so the
//! deepest page costs no stack.

use crate::html::entities;
use crate::html::tags::{Tag, flags};
use crate::html::tree::{Kind, NodeId, context};
use crate::html::{Document, Selection};
use crate::output::images::Found;

/// The two markup languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    Html,
    Xml,
}

/// An output element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum El {
    /// The body (`<body>`'s content, `<main>`'s in XML): never closed by the walk.
    Root,
    Para,
    Heading(u8),
    List {
        ordered: bool,
    },
    Item,
    Table,
    Row,
    Cell {
        head: bool,
    },
    Quote,
    Pre,
    Code,
    Em,
    Strong,
    Link,
}

/// What an element or a piece of content is, for where it may stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cat {
    /// Paragraphs, headings, lists, tables, quotes, preformatted blocks.
    Block,
    Item,
    Row,
    Cell,
    /// Text, inline elements, images, line breaks.
    Inline,
}

impl El {
    fn cat(self) -> Cat {
        match self {
            El::Root => Cat::Block,
            El::Para | El::Heading(_) | El::List { .. } | El::Table | El::Quote | El::Pre => {
                Cat::Block
            }
            El::Item => Cat::Item,
            El::Row => Cat::Row,
            El::Cell { .. } => Cat::Cell,
            El::Code | El::Em | El::Strong | El::Link => Cat::Inline,
        }
    }

    /// Holds phrasing content only (text and inline elements).
    fn is_inline_context(self) -> bool {
        matches!(
            self,
            El::Para | El::Heading(_) | El::Pre | El::Code | El::Em | El::Strong | El::Link
        )
    }

    /// Its open tag is written on a line of its own.
    fn on_own_line(self) -> bool {
        self.cat() != Cat::Inline
    }
}

/// Where an element or content of category `cat` goes when `ctx` is the open element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fit {
    /// Right here.
    Here,
    /// Inside a new element of this kind, written as if the page had it.
    Wrap(El),
    /// Nowhere near: the element writes nothing, its content goes into `ctx`.
    No,
}

fn fit(ctx: El, cat: Cat) -> Fit {
    match ctx {
        El::Root | El::Quote => match cat {
            Cat::Block => Fit::Here,
            Cat::Item => Fit::Wrap(El::List { ordered: false }),
            Cat::Row | Cat::Cell => Fit::Wrap(El::Table),
            Cat::Inline => Fit::Wrap(El::Para),
        },
        El::Item | El::Cell { .. } => match cat {
            Cat::Block | Cat::Inline => Fit::Here,
            Cat::Item => Fit::Wrap(El::List { ordered: false }),
            Cat::Row | Cat::Cell => Fit::Wrap(El::Table),
        },
        El::List { .. } => match cat {
            Cat::Item => Fit::Here,
            _ => Fit::Wrap(El::Item),
        },
        El::Table => match cat {
            Cat::Row => Fit::Here,
            _ => Fit::Wrap(El::Row),
        },
        El::Row => match cat {
            Cat::Cell => Fit::Here,
            _ => Fit::Wrap(El::Cell { head: false }),
        },
        _ => match cat {
            Cat::Inline => Fit::Here,
            _ => Fit::No,
        },
    }
}

/// What a page's element becomes.
enum Map {
    /// An output element.
    El(El),
    /// A line break (`br`).
    Break,
    /// A listed image (the index into [`Found::placed`]).
    Image(usize),
    /// Nothing of its own; a block-level element separates paragraphs.
    Transparent { block: bool },
}

/// One open element of the output.
struct Open {
    el: El,
    /// Written for an element the page lacked ([`Fit::Wrap`]): closed as soon as content that
    /// does not belong in it comes.
    implied: bool,
}

struct Writer<'f> {
    dialect: Dialect,
    out: String,
    open: Vec<Open>,
    /// Nothing written in the current block yet (a space there is dropped).
    fresh: bool,
    pending_space: bool,
    pending_break: bool,
    /// Open links (a link inside a link writes nothing of its own).
    links: usize,
    found: &'f Found,
}

/// Writes the selected text of `doc` as markup; `links` keeps links (their targets resolved
/// against `base`), `images` are the listed images of the main content, written where they
/// stand. Empty when nothing is selected.
pub(crate) fn render(
    doc: &Document<'_>,
    sel: &Selection,
    dialect: Dialect,
    links: bool,
    base: Option<&url::Url>,
    images: &Found,
) -> String {
    let nodes = &doc.tree.nodes;
    let n = nodes.len();
    let (keep, image_at) = kept_nodes(doc, sel, images);
    if sel.nodes.is_empty() && images.placed.is_empty() {
        return String::new();
    }
    let mut w = Writer {
        dialect,
        out: String::new(),
        open: vec![Open {
            el: El::Root,
            implied: false,
        }],
        fresh: true,
        pending_space: false,
        pending_break: false,
        links: 0,
        found: images,
    };
    // The page's open elements: each with the output depth to close back to when it ends
    // (none for an element that writes nothing and separates nothing).
    let mut page: Vec<(NodeId, Option<usize>, bool)> = Vec::new();
    let mut next_sel = 0usize;
    let mut decoded = String::new();
    for id in 1..n {
        let node = &nodes[id];
        let id = id as NodeId;
        // A `br` counts where its parent's text is written; every other node only when it
        // leads to something kept.
        let is_break = node.tag == Tag::Br
            && node.kind == Kind::Element
            && keep.get(node.parent as usize).copied().unwrap_or(false);
        let is_text = node.kind == Kind::Text;
        if is_text && sel.nodes.get(next_sel) != Some(&id) {
            // Visible text left out between two selected runs still separates them.
            if next_sel > 0 && next_sel < sel.nodes.len() && node.context() & context::HIDDEN == 0 {
                w.pending_space = true;
            }
            continue;
        }
        if !keep[id as usize] && !is_break {
            continue;
        }
        // Leave the elements this node is not inside.
        while let Some(&(top, depth, block)) = page.last() {
            if top == node.parent {
                break;
            }
            page.pop();
            if let Some(d) = depth {
                w.close_to(d);
            }
            if block {
                w.boundary();
            }
        }
        if is_text {
            {
                next_sel += 1;
                let text = entities::decode_with(doc.raw_text(id), &mut decoded);
                let pre = node.context() & context::PRE != 0;
                w.text(text, pre);
            }
            continue;
        }
        if is_break && !keep[id as usize] {
            w.line_break();
            continue;
        }
        let map = match node.tag {
            Tag::Br => Map::Break,
            Tag::Img => match image_at.binary_search_by_key(&id, |&(n, _)| n) {
                Ok(i) => Map::Image(image_at[i].1),
                Err(_) => Map::Transparent { block: false },
            },
            _ => classify(doc, id, node.tag, links, base),
        };
        let (depth, block) = match map {
            Map::Break => {
                w.line_break();
                (None, false)
            }
            Map::Image(i) => {
                w.image(i);
                (None, false)
            }
            Map::Transparent { block } => {
                if block {
                    w.boundary();
                    (Some(w.open.len()), true)
                } else {
                    (None, false)
                }
            }
            Map::El(el) => {
                let href = (el == El::Link)
                    .then(|| doc.attr(id, "href").and_then(|h| link_target(h, base)))
                    .flatten();
                match w.start(el, href.as_deref()) {
                    Some(d) => (Some(d), false),
                    // Written as nothing of its own: a block still separates.
                    None => (None, el.cat() != Cat::Inline),
                }
            }
        };
        page.push((id, depth, block));
    }
    w.close_to(1);
    let mut out = w.out;
    if out.starts_with('\n') {
        out.remove(0);
    }
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// Which nodes lead to a selected text or a listed image (marked, then passed up to the
/// parents: a parent's id is below its children's), and the listed images' nodes with their
/// numbers in the list, by node.
fn kept_nodes(
    doc: &Document<'_>,
    sel: &Selection,
    images: &Found,
) -> (Vec<bool>, Vec<(NodeId, usize)>) {
    let nodes = &doc.tree.nodes;
    let n = nodes.len();
    let mut keep = vec![false; n];
    for &id in &sel.nodes {
        if let Some(k) = keep.get_mut(id as usize) {
            *k = true;
        }
    }
    let mut image_at: Vec<(NodeId, usize)> = Vec::new();
    for (i, p) in images.placed.iter().enumerate() {
        if let Some(k) = keep.get_mut(p.node as usize) {
            *k = true;
            image_at.push((p.node, i));
        }
    }
    image_at.sort_unstable();
    for id in (1..n).rev() {
        if keep[id] {
            let p = nodes[id].parent as usize;
            if p < n {
                keep[p] = true;
            }
        }
    }
    (keep, image_at)
}

/// The output element of a page element (before [`fit`] places it).
fn classify(doc: &Document<'_>, id: NodeId, tag: Tag, links: bool, base: Option<&url::Url>) -> Map {
    let el = match tag {
        Tag::P => El::Para,
        Tag::H1 => El::Heading(1),
        Tag::H2 => El::Heading(2),
        Tag::H3 => El::Heading(3),
        Tag::H4 => El::Heading(4),
        Tag::H5 => El::Heading(5),
        Tag::H6 => El::Heading(6),
        Tag::Ul | Tag::Menu | Tag::Dir | Tag::Dl => El::List { ordered: false },
        Tag::Ol => El::List { ordered: true },
        Tag::Li | Tag::Dt | Tag::Dd => El::Item,
        Tag::Table => El::Table,
        Tag::Tr => El::Row,
        Tag::Td => El::Cell { head: false },
        Tag::Th => El::Cell { head: true },
        Tag::Blockquote => El::Quote,
        Tag::Pre | Tag::Listing | Tag::Xmp | Tag::Plaintext => El::Pre,
        Tag::Code => El::Code,
        Tag::Em | Tag::I => El::Em,
        Tag::Strong | Tag::B => El::Strong,
        Tag::A if links => match doc.attr(id, "href").and_then(|h| link_target(h, base)) {
            Some(_) => El::Link,
            None => return Map::Transparent { block: false },
        },
        t => {
            return Map::Transparent {
                block: t.is(flags::BLOCK),
            };
        }
    };
    Map::El(el)
}

/// A link's target (as written in the page, character references decoded), resolved against
/// `base` when there is one; `None` for a script or data URL, or an empty one (the link's text
/// stays, without the link).
fn link_target(href: &str, base: Option<&url::Url>) -> Option<String> {
    let mut decoded = String::new();
    let href = if href.contains('&') {
        entities::decode_into(href, &mut decoded);
        decoded.trim()
    } else {
        href.trim()
    };
    let scheme_end = href.find(':').unwrap_or(0);
    let scheme = href.get(..scheme_end).unwrap_or("").to_ascii_lowercase();
    if href.is_empty() || matches!(scheme.as_str(), "javascript" | "vbscript" | "data") {
        return None;
    }
    Some(match base.and_then(|b| b.join(href).ok()) {
        Some(u) => u.to_string(),
        None => href.to_string(),
    })
}

impl Writer<'_> {
    fn top(&self) -> El {
        self.open.last().map_or(El::Root, |o| o.el)
    }

    /// Makes room for content of `cat`: closes the elements the walk implied that it does
    /// not belong in, opens the ones it needs. False when it can stand nowhere here.
    fn place(&mut self, cat: Cat) -> bool {
        // Each turn closes an implied element or opens one that takes a category nearer to
        // `cat` (a list takes an item, a table a row, a row a cell), so this ends in a few
        // turns; the bound is a guard.
        for _ in 0..16 {
            let f = fit(self.top(), cat);
            if f == Fit::Here {
                return true;
            }
            // Implied elements on top that this does not belong in: closed when the element
            // below them takes it here (a real list item after an implied one, a block after
            // an implied paragraph), or when the top one cannot hold it at all.
            let implied = self.open.iter().rev().take_while(|o| o.implied).count();
            if implied > 0 {
                let below_takes = self
                    .open
                    .iter()
                    .rev()
                    .skip(1)
                    .take(implied)
                    .any(|o| fit(o.el, cat) == Fit::Here);
                if below_takes || f == Fit::No {
                    self.close_one();
                    continue;
                }
            }
            match f {
                Fit::Wrap(w) => self.push(w, true, None),
                Fit::Here | Fit::No => return f == Fit::Here,
            }
        }
        false
    }

    /// Opens `el`; the output depth to close back to when its page element ends.
    fn start(&mut self, el: El, href: Option<&str>) -> Option<usize> {
        // XML writes a preformatted block as `<code>` too, and code holds no code.
        let nested = (el == El::Link && self.links > 0)
            || (el == El::Code
                && self.open.iter().any(|o| {
                    o.el == El::Code || (o.el == El::Pre && self.dialect == Dialect::Xml)
                }));
        if nested || !self.place(el.cat()) {
            // Written as a block-level element that writes nothing, or an inline one.
            if el.cat() != Cat::Inline {
                self.boundary();
            }
            return None;
        }
        let depth = self.open.len();
        self.push(el, false, href);
        Some(depth)
    }

    fn push(&mut self, el: El, implied: bool, href: Option<&str>) {
        if el.on_own_line() {
            self.out.push('\n');
            self.fresh = true;
            self.pending_space = false;
            self.pending_break = false;
        } else {
            self.flush_space();
        }
        self.out.push('<');
        let (name, attr) = self.name(el);
        self.out.push_str(name);
        if let Some((k, v)) = attr {
            self.attr(k, v);
        }
        if el == El::Link {
            let key = if self.dialect == Dialect::Html {
                "href"
            } else {
                "target"
            };
            self.attr(key, href.unwrap_or(""));
            self.links += 1;
        }
        self.out.push('>');
        self.open.push(Open { el, implied });
    }

    /// The element's name and its one fixed attribute.
    fn name(&self, el: El) -> (&'static str, Option<(&'static str, &'static str)>) {
        const H: [&str; 6] = ["h1", "h2", "h3", "h4", "h5", "h6"];
        let level = |l: u8| H[(l.clamp(1, 6) - 1) as usize];
        match self.dialect {
            Dialect::Html => (
                match el {
                    El::Root => "body",
                    El::Para => "p",
                    El::Heading(l) => level(l),
                    El::List { ordered: true } => "ol",
                    El::List { ordered: false } => "ul",
                    El::Item => "li",
                    El::Table => "table",
                    El::Row => "tr",
                    El::Cell { head: true } => "th",
                    El::Cell { head: false } => "td",
                    El::Quote => "blockquote",
                    El::Pre => "pre",
                    El::Code => "code",
                    El::Em => "em",
                    El::Strong => "strong",
                    El::Link => "a",
                },
                None,
            ),
            Dialect::Xml => match el {
                El::Root => ("main", None),
                El::Para => ("p", None),
                El::Heading(l) => ("head", Some(("rend", level(l)))),
                El::List { ordered: true } => ("list", Some(("rend", "ol"))),
                El::List { ordered: false } => ("list", Some(("rend", "ul"))),
                El::Item => ("item", None),
                El::Table => ("table", None),
                El::Row => ("row", None),
                El::Cell { head: true } => ("cell", Some(("role", "head"))),
                El::Cell { head: false } => ("cell", None),
                El::Quote => ("quote", None),
                El::Pre | El::Code => ("code", None),
                El::Em => ("hi", Some(("rend", "#i"))),
                El::Strong => ("hi", Some(("rend", "#b"))),
                El::Link => ("ref", None),
            },
        }
    }

    fn attr(&mut self, key: &str, value: &str) {
        push_attr(&mut self.out, key, value);
    }

    fn close_one(&mut self) {
        if self.open.len() <= 1 {
            return;
        }
        let Some(o) = self.open.pop() else { return };
        if o.el == El::Link {
            self.links = self.links.saturating_sub(1);
        }
        let closes_line = matches!(o.el, El::List { .. } | El::Table | El::Row | El::Quote);
        if closes_line {
            self.out.push('\n');
        }
        self.out.push_str("</");
        self.out.push_str(self.name(o.el).0);
        self.out.push('>');
        if o.el.on_own_line() {
            self.fresh = true;
            self.pending_space = false;
            self.pending_break = false;
        }
    }

    /// Closes the output back to `depth` open elements (the root stays).
    fn close_to(&mut self, depth: usize) {
        while self.open.len() > depth.max(1) {
            self.close_one();
        }
    }

    /// A block-level element of the page that writes nothing: it ends an implied paragraph,
    /// and inside a paragraph it separates words.
    fn boundary(&mut self) {
        if self
            .open
            .last()
            .is_some_and(|o| o.implied && o.el == El::Para)
        {
            self.close_one();
        } else if self.top().is_inline_context() || matches!(self.top(), El::Item | El::Cell { .. })
        {
            self.pending_space = true;
        }
    }

    fn line_break(&mut self) {
        match self.top() {
            El::Pre => self.out.push('\n'),
            El::Root | El::Quote | El::List { .. } | El::Table | El::Row => {}
            _ if self
                .open
                .last()
                .is_some_and(|o| o.implied && o.el == El::Para) =>
            {
                self.close_one();
            }
            _ => {
                if !self.fresh {
                    self.pending_break = true;
                }
            }
        }
    }

    /// Writes the pending separator before inline content.
    fn flush_space(&mut self) {
        if self.fresh {
            self.pending_space = false;
            self.pending_break = false;
            return;
        }
        if self.pending_break {
            self.out.push_str(match self.dialect {
                Dialect::Html => "<br>",
                Dialect::Xml => "<lb/>",
            });
        } else if self.pending_space {
            self.out.push(' ');
        }
        self.pending_space = false;
        self.pending_break = false;
    }

    fn text(&mut self, text: &str, pre: bool) {
        // Preformatted text outside a kept `pre` (rare) is written as ordinary text.
        if pre && self.open.iter().any(|o| o.el == El::Pre) {
            if text.is_empty() || !self.place(Cat::Inline) {
                return;
            }
            self.flush_space();
            escape_into(&mut self.out, text, false);
            self.fresh = false;
            return;
        }
        let is_blank = |c: char| c.is_ascii_whitespace() || c == '\u{a0}';
        let mut words = text.split(is_blank).filter(|w| !w.is_empty()).peekable();
        if text.starts_with(is_blank) {
            self.pending_space = true;
        }
        if words.peek().is_none() {
            return;
        }
        if !self.place(Cat::Inline) {
            return;
        }
        let mut first = true;
        for word in words {
            if !first {
                self.pending_space = true;
            }
            first = false;
            self.flush_space();
            let before = self.out.len();
            escape_into(&mut self.out, word, false);
            if self.out.len() > before {
                self.fresh = false;
            }
        }
        if text.ends_with(is_blank) {
            self.pending_space = true;
        }
    }

    fn image(&mut self, i: usize) {
        let found = self.found;
        let Some(p) = found.placed.get(i) else { return };
        if !self.place(Cat::Inline) {
            return;
        }
        self.flush_space();
        let img = &p.image;
        match self.dialect {
            Dialect::Html => {
                self.out.push_str("<img");
                self.attr("src", &img.src);
                self.attr("alt", img.alt.as_deref().unwrap_or(""));
                self.out.push('>');
            }
            Dialect::Xml => {
                self.out.push_str("<graphic");
                self.attr("src", &img.src);
                if let Some(alt) = &img.alt {
                    self.attr("alt", alt);
                }
                if let Some(caption) = &img.caption {
                    self.attr("title", caption);
                }
                self.out.push_str("/>");
            }
        }
        self.fresh = false;
    }
}

/// A character neither XML 1.0 nor an HTML parser takes in text: C0 controls but tab and
/// newline, DEL, the C1 controls, the noncharacters, and the soft hyphen (invisible, and
/// text output drops it too).
fn dropped(c: char) -> bool {
    let u = c as u32;
    (u < 0x20 && c != '\t' && c != '\n')
        || (0x7f..=0x9f).contains(&u)
        || u == 0xad
        || (0xfdd0..=0xfdef).contains(&u)
        || (u & 0xfffe) == 0xfffe
}

/// Appends `s` escaped for text (`&`, `<`, `>`) or a double-quoted attribute value (also
/// `"`, and newlines and tabs as references so that they survive attribute normalization),
/// without the characters [`dropped`] names.
pub(crate) fn escape_into(out: &mut String, s: &str, attr: bool) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attr => out.push_str("&quot;"),
            '\n' if attr => out.push_str("&#10;"),
            '\t' if attr => out.push_str("&#9;"),
            c if dropped(c) => {}
            c => out.push(c),
        }
    }
}

/// The metadata a document carries, each field `None` (or empty) when unknown.
#[derive(Clone, Debug, Default)]
pub(crate) struct Meta<'a> {
    /// The page title.
    pub title: Option<&'a str>,
    /// The author(s).
    pub author: Option<&'a str>,
    /// The site's name.
    pub sitename: Option<&'a str>,
    /// The page's URL.
    pub url: Option<&'a str>,
    /// The publication date (ISO 8601).
    pub date: Option<&'a str>,
    /// The page's summary.
    pub description: Option<&'a str>,
    /// Sections or categories.
    pub categories: &'a [String],
    /// Tags and keywords.
    pub tags: &'a [String],
    /// The record's id (a WARC record's, a JSON line's).
    pub id: Option<&'a str>,
    /// The language (a BCP 47 tag).
    pub lang: Option<&'a str>,
    /// The page's lead image.
    pub image: Option<&'a str>,
}

/// The host of `url` without a leading `www.`, as trafilatura's `hostname`.
pub(crate) fn hostname(url: &str) -> Option<String> {
    let u = url::Url::parse(url.trim()).ok()?;
    let host = u.host_str()?;
    Some(host.strip_prefix("www.").unwrap_or(host).to_string())
}

/// `value` escaped (as an attribute's value when `attr`) between `open` and `close`.
fn push_escaped(out: &mut String, open: &str, value: &str, attr: bool, close: &str) {
    out.push_str(open);
    escape_into(out, value, attr);
    out.push_str(close);
}

/// ` key="value"`, the value escaped.
fn push_attr(out: &mut String, key: &str, value: &str) {
    out.push(' ');
    out.push_str(key);
    push_escaped(out, "=\"", value, true, "\"");
}

fn nonempty(s: Option<&str>) -> Option<&str> {
    s.map(str::trim).filter(|s| !s.is_empty())
}

/// A whole HTML document: `<!DOCTYPE html>`, `<html lang>`, a `<head>` with the metadata
/// (`<title>`, `<meta name=author|description|date|sitename|keywords>`, `<link
/// rel=canonical>`) and `body`, the content [`render`] wrote.
pub(crate) fn html_document(meta: &Meta<'_>, body: &str) -> String {
    let mut out = String::with_capacity(body.len() + 512);
    out.push_str("<!DOCTYPE html>\n<html");
    if let Some(lang) = nonempty(meta.lang) {
        push_escaped(&mut out, " lang=\"", lang, true, "\"");
    }
    out.push_str(">\n<head>\n<meta charset=\"utf-8\">\n");
    if let Some(title) = nonempty(meta.title) {
        push_escaped(&mut out, "<title>", title, false, "</title>\n");
    }
    let keywords = meta.tags.join(", ");
    let categories = meta.categories.join(", ");
    let named = [
        ("author", meta.author),
        ("description", meta.description),
        ("date", meta.date),
        ("sitename", meta.sitename),
        ("categories", Some(categories.as_str())),
        ("keywords", Some(keywords.as_str())),
        ("image", meta.image),
    ];
    for (name, value) in named {
        if let Some(v) = nonempty(value) {
            out.push_str("<meta name=\"");
            out.push_str(name);
            push_escaped(&mut out, "\" content=\"", v, true, "\">\n");
        }
    }
    if let Some(url) = nonempty(meta.url) {
        push_escaped(
            &mut out,
            "<link rel=\"canonical\" href=\"",
            url,
            true,
            "\">\n",
        );
    }
    out.push_str("</head>\n<body>\n");
    out.push_str(body);
    out.push_str("</body>\n</html>\n");
    out
}

/// trafilatura's XML document: `<doc>` with its metadata attributes (sitename, title, author,
/// date, url, hostname, description, categories and tags joined by `;`, id, language, in
/// trafilatura's order), then `<main>` holding `body` (what [`render`] wrote) and an empty
/// `<comments/>` (comments, with `--comments`, are part of the main content).
pub(crate) fn xml_document(meta: &Meta<'_>, body: &str) -> String {
    let mut out = String::with_capacity(body.len() + 512);
    out.push_str("<doc");
    let hostname = meta.url.and_then(hostname);
    let categories = meta.categories.join(";");
    let tags = meta.tags.join(";");
    let attrs = [
        ("sitename", meta.sitename),
        ("title", meta.title),
        ("author", meta.author),
        ("date", meta.date),
        ("url", meta.url),
        ("hostname", hostname.as_deref()),
        ("description", meta.description),
        ("categories", Some(categories.as_str())),
        ("tags", Some(tags.as_str())),
        ("id", meta.id),
        ("language", meta.lang),
        ("image", meta.image),
    ];
    for (k, v) in attrs {
        if let Some(v) = nonempty(v) {
            push_attr(&mut out, k, v);
        }
    }
    out.push_str(">\n<main>\n");
    out.push_str(body);
    out.push_str("</main>\n<comments/>\n</doc>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::Document;

    fn all_text(doc: &Document<'_>) -> Selection {
        let nodes = (0..doc.tree.nodes.len() as NodeId)
            .filter(|&i| {
                let n = doc.tree.node(i);
                n.kind == Kind::Text && n.context() & context::HIDDEN == 0
            })
            .collect();
        Selection { nodes }
    }

    fn body(html: &str, dialect: Dialect, links: bool) -> String {
        let arena = bumpalo::Bump::new();
        let doc = Document::parse(html, &arena);
        let sel = all_text(&doc);
        let base = url::Url::parse("https://example.com/a/b.html").ok();
        render(&doc, &sel, dialect, links, base.as_ref(), &Found::default())
    }

    #[test]
    fn structure_is_kept() {
        let html = "<h2>Head &amp; more</h2><p>One <a href='/x?a=1&amp;b=2'>link</a> here.</p>\
                    <ul><li>a</li><li>b <em>c</em></li></ul>\
                    <table><tr><th>h</th><td>1 &lt; 2</td></tr></table>\
                    <blockquote><p>q</p></blockquote><pre>x  y\n z</pre>";
        assert_eq!(
            body(html, Dialect::Html, true),
            "<h2>Head &amp; more</h2>\n<p>One <a href=\"https://example.com/x?a=1&amp;b=2\">link</a> here.</p>\n\
             <ul>\n<li>a</li>\n<li>b <em>c</em></li>\n</ul>\n\
             <table>\n<tr>\n<th>h</th>\n<td>1 &lt; 2</td>\n</tr>\n</table>\n\
             <blockquote>\n<p>q</p>\n</blockquote>\n<pre>x  y\n z</pre>\n"
        );
        assert_eq!(
            body(html, Dialect::Xml, true),
            "<head rend=\"h2\">Head &amp; more</head>\n<p>One <ref target=\"https://example.com/x?a=1&amp;b=2\">link</ref> here.</p>\n\
             <list rend=\"ul\">\n<item>a</item>\n<item>b <hi rend=\"#i\">c</hi></item>\n</list>\n\
             <table>\n<row>\n<cell role=\"head\">h</cell>\n<cell>1 &lt; 2</cell>\n</row>\n</table>\n\
             <quote>\n<p>q</p>\n</quote>\n<code>x  y\n z</code>\n"
        );
        // Without links, the link's text stays.
        assert!(body(html, Dialect::Html, false).contains("<p>One link here.</p>"));
    }

    #[test]
    fn misplaced_content_gets_the_elements_it_needs() {
        // Text in a list and a table, a bare item, loose text beside blocks, a heading in a
        // link, a link in a link.
        let html = "<div>loose <b>bold</b></div><div>second</div><ul>text<li>i</li></ul>\
                    <table>cap<tr>row</tr></table>\
                    <a href='/a'><h3>card</h3><a href='/b'>inner</a></a>";
        assert_eq!(
            body(html, Dialect::Html, true),
            "<p>loose <strong>bold</strong></p>\n<p>second</p>\n\
             <ul>\n<li>text</li>\n<li>i</li>\n</ul>\n\
             <table>\n<tr>\n<td>cap</td>\n</tr>\n<tr>\n<td>row</td>\n</tr>\n</table>\n\
             <p><a href=\"https://example.com/a\">card</a> <a href=\"https://example.com/b\">inner</a></p>\n"
        );
    }

    #[test]
    fn breaks_spaces_and_bad_characters() {
        let html =
            "<p>a<br>b<br><br></p><div>x<br>y</div><p>\u{1}c\u{7f}\u{85}\u{ffff}\u{ad}d \"q\"</p>";
        assert_eq!(
            body(html, Dialect::Html, false),
            "<p>a<br>b</p>\n<p>x</p>\n<p>y</p>\n<p>cd \"q\"</p>\n"
        );
        assert_eq!(link_target("javascript:alert(1)", None), None);
        assert_eq!(link_target(" ", None), None);
        let mut s = String::new();
        escape_into(&mut s, "a\"<&>\n\tb", true);
        assert_eq!(s, "a&quot;&lt;&amp;&gt;&#10;&#9;b");
    }

    #[test]
    fn documents_carry_the_metadata_escaped() {
        let tags = vec!["a\"b".to_string(), "c".to_string()];
        let meta = Meta {
            title: Some("T <1> & \"2\""),
            url: Some("https://www.example.com/p?a=1&b=2"),
            lang: Some("en"),
            tags: &tags,
            ..Meta::default()
        };
        let html = html_document(&meta, "<p>x</p>\n");
        assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"));
        assert!(html.contains("<title>T &lt;1&gt; &amp; \"2\"</title>"));
        assert!(html.contains("<meta name=\"keywords\" content=\"a&quot;b, c\">"));
        assert!(
            html.contains(
                "<link rel=\"canonical\" href=\"https://www.example.com/p?a=1&amp;b=2\">"
            )
        );
        let xml = xml_document(&meta, "<p>x</p>\n");
        assert_eq!(
            xml,
            "<doc title=\"T &lt;1&gt; &amp; &quot;2&quot;\" url=\"https://www.example.com/p?a=1&amp;b=2\" \
             hostname=\"example.com\" tags=\"a&quot;b;c\" language=\"en\">\n<main>\n<p>x</p>\n</main>\n<comments/>\n</doc>\n"
        );
    }
}
