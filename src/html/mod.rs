//! HTML: from page text to an arena tree, without recursion and without copying text.
//!
//! 1. [`tokens`] scans the page once with memchr: start tags, end tags and text runs, each a
//!    byte span of the page; the [`prepass`] functions tell it where comments and raw-text
//!    elements (script, style...) end, so a `<` inside them is never a tag.
//! 2. [`tree::Builder`] turns the tokens into the tree with HTML's implied end tags, as they
//!    come.
//! 3. [`attrs`] reads a tag's attributes from its span only when asked.
//!
//! The resulting [`Document`] reads the token stream back from the tree ([`Document::tokens`]:
//! only end tags that closed nothing are kept beside it), which is what DANAg counts per line
//! and what rendering walks.
//!
//! Why not a general tokenizer crate: pith began on tl, whose node list served as the token
//! stream. tl parses every attribute of every tag eagerly into heap vectors, lists no end
//! tags (they had to be recovered from the gaps between its nodes), reads `<` inside scripts as
//! tags (so a prepass had to copy the page and blank those regions first), and its node list
//! alone took several times the page's size in memory. Scanning for what pith needs directly
//! costs less than tl's parse alone (see `just bench`), needs no copy of the page, and keeps
//! every span a slice of the input.

pub(crate) mod attrs;
pub(crate) mod entities;
mod entity_table;
pub(crate) mod prepass;
pub(crate) mod tags;
pub(crate) mod tokens;
pub(crate) mod tree;

use bumpalo::Bump;
use bumpalo::collections::Vec as BumpVec;

pub(crate) use attrs::Attrs;
/// The arena a [`Document`] is parsed into (bumpalo's bump allocator): one per page, freed or
/// reset at once.
pub use bumpalo::Bump as Arena;
pub use tags::Tag;
pub(crate) use tokens::{Token, TokenKind, Tokens};
pub(crate) use tree::{Kind, Node, NodeId, Tree};

/// Nodes of a tree chosen as a page's main content: the text nodes, in document order. Every
/// extraction algorithm gives one; rendering walks the tree and writes the text of these
/// nodes, breaking lines at the block elements around them.
#[derive(Debug, Default)]
pub struct Selection {
    /// The chosen text nodes, in document order.
    pub nodes: Vec<NodeId>,
}

impl Selection {
    /// The nodes of this selection that `other` does not hold, in document order (what one
    /// step of an extraction dropped, or what one setting adds over another).
    pub fn minus(&self, other: &Selection) -> Vec<NodeId> {
        self.nodes
            .iter()
            .copied()
            .filter(|id| other.nodes.binary_search(id).is_err())
            .collect()
    }
}

/// A parsed page.
pub struct Document<'a> {
    /// The page text (decoded); every span in the tree and the tokens is an offset into it.
    pub src: &'a str,
    /// The arena tree of the page's elements and text.
    pub tree: Tree<'a>,
    /// Where the end tags that closed nothing start, the one part of the token stream the tree
    /// does not hold ([`tokens`]); read the stream with [`Document::tokens`].
    strays: BumpVec<'a, u32>,
}

impl<'a> Document<'a> {
    /// Parses `src`, allocating the tree and the tokens in `arena`.
    pub fn parse(src: &'a str, arena: &'a Bump) -> Document<'a> {
        let bytes = src.as_bytes();
        let capacity = tokens::estimate(bytes);
        let builder = tree::Builder::new(arena, capacity, tree::quirks_mode(bytes));
        let mut tokenizer = tokens::Tokenizer::new(bytes, builder, BumpVec::new_in(arena));
        tokenizer.run();
        let tree = tokenizer.builder.finish(src.len() as u32);
        Document {
            src,
            tree,
            strays: tokenizer.strays,
        }
    }

    /// The tokens, in document order.
    #[inline]
    pub fn tokens(&self) -> Tokens<'_, 'a> {
        Tokens::new(&self.tree, &self.strays, self.src.as_bytes())
    }

    /// The tokens from node `first`'s own on, in document order: those [`Document::tokens`]
    /// gives from there (the end tags and stray end tags before it left out). All of them
    /// when there is no such node.
    #[inline]
    pub fn tokens_from(&self, first: NodeId) -> Tokens<'_, 'a> {
        Tokens::from_node(&self.tree, &self.strays, self.src.as_bytes(), first)
    }

    /// The source of element `id`'s start tag (empty for text and the document).
    fn start_tag(&self, id: NodeId) -> &'a str {
        let n = self.tree.node(id);
        if n.kind != Kind::Element {
            return "";
        }
        self.src
            .get(n.start as usize..self.tree.inner_start(id) as usize)
            .unwrap_or("")
    }

    /// All attributes of element `id`, in source order.
    pub fn attributes(&self, id: NodeId) -> Attrs<'a> {
        match self.start_tag(id) {
            "" => Attrs::empty(),
            tag => Attrs::new(tag),
        }
    }

    /// The value of the first attribute `name` (ASCII case-insensitive) on element `id`, as
    /// written; `Some("")` when it has no value.
    pub fn attr(&self, id: NodeId, name: &str) -> Option<&'a str> {
        self.attributes(id).get(name)
    }

    /// The element's name: the canonical lower-case name of a known element, else as written
    /// in the source.
    pub fn name(&self, id: NodeId) -> &'a str {
        let node = self.tree.node(id);
        if node.tag != Tag::Other {
            return node.tag.name();
        }
        let tag = self.start_tag(id);
        let end = tag
            .bytes()
            .skip(1)
            .position(|b| matches!(b, b'>' | b'/' | b' ' | b'\t' | b'\n' | b'\r' | b'\x0c'))
            .map_or(tag.len(), |i| i + 1);
        tag.get(1..end).unwrap_or("")
    }

    /// The raw (undecoded) text of a text node, or the raw inner text of a raw-text element.
    pub fn raw_text(&self, id: NodeId) -> &'a str {
        let n = self.tree.node(id);
        let (s, e) = match n.kind {
            Kind::Text => (n.start, n.end),
            _ => (self.tree.inner_start(id), self.tree.inner_end(id)),
        };
        self.src.get(s as usize..e as usize).unwrap_or("")
    }

    /// The page title: the first `<title>`, else `og:title`, else the first `<h1>`; entities
    /// decoded, white space collapsed.
    pub fn title(&self) -> Option<String> {
        let mut og = None;
        let mut h1 = None;
        for (i, n) in self.tree.nodes.iter().enumerate() {
            let id = i as NodeId;
            match n.tag {
                Tag::Title if n.kind == Kind::Element => {
                    let t = clean_inline(self.raw_text(id));
                    if !t.is_empty() {
                        return Some(t);
                    }
                }
                Tag::Meta if og.is_none() && self.attr(id, "property") == Some("og:title") => {
                    og = self.attr(id, "content").map(clean_inline);
                }
                Tag::H1 if h1.is_none() => h1 = Some(id),
                _ => {}
            }
        }
        og.filter(|t| !t.is_empty())
            .or_else(|| h1.map(|id| self.text_of(id)).filter(|t| !t.is_empty()))
    }

    /// The text of an element's subtree, entities decoded, white space collapsed.
    pub fn text_of(&self, id: NodeId) -> String {
        let mut raw = String::new();
        for i in self.tree.subtree(id) {
            let n = &self.tree.nodes[i];
            if n.kind == Kind::Text && n.context() & tree::context::HIDDEN == 0 {
                raw.push_str(self.raw_text(i as NodeId));
            }
        }
        clean_inline(&raw)
    }

    /// The text of every visible text node, entities decoded, concatenated as written (inline
    /// tags join words: `foo<b>bar</b>` is `foobar`; hidden text such as scripts separates
    /// nothing; soft hyphens, invisible, are dropped as the text output drops them). Every word
    /// pith outputs occurs in it, which the property tests and the differential fuzz target
    /// check.
    pub fn visible_text(&self) -> String {
        let mut text = String::new();
        for (i, n) in self.tree.nodes.iter().enumerate() {
            if n.kind == Kind::Text && n.context() & tree::context::HIDDEN == 0 {
                entities::decode_into(self.raw_text(i as NodeId), &mut text);
            }
        }
        if text.contains('\u{ad}') {
            text.retain(|c| c != '\u{ad}');
        }
        text
    }

    /// The publication date the page states: the first of `<meta property|name|itemprop>`
    /// `article:published_time`, `datePublished`, `date`, `pubdate`, `dc.date`, then the first
    /// `<time datetime>`. As written; not parsed.
    pub fn date(&self) -> Option<String> {
        const META: &[&str] = &[
            "article:published_time",
            "datepublished",
            "date",
            "pubdate",
            "publishdate",
            "dc.date",
            "dc.date.issued",
            "og:published_time",
        ];
        let mut time = None;
        for (i, n) in self.tree.nodes.iter().enumerate() {
            let id = i as NodeId;
            match n.tag {
                Tag::Meta => {
                    let key = ["property", "name", "itemprop"]
                        .iter()
                        .find_map(|k| self.attr(id, k));
                    if key.is_some_and(|k| META.iter().any(|m| k.eq_ignore_ascii_case(m)))
                        && let Some(v) = self
                            .attr(id, "content")
                            .map(str::trim)
                            .filter(|v| !v.is_empty())
                    {
                        return Some(v.to_string());
                    }
                }
                Tag::Time if time.is_none() => {
                    time = self
                        .attr(id, "datetime")
                        .map(str::trim)
                        .filter(|v| !v.is_empty())
                        .map(String::from);
                }
                _ => {}
            }
        }
        time
    }

    /// The language from `<html lang>`.
    pub fn lang(&self) -> Option<String> {
        let id = self.tree.nodes.iter().position(|n| n.tag == Tag::Html)?;
        let lang = self.attr(id as NodeId, "lang")?.trim();
        (!lang.is_empty()).then(|| lang.to_string())
    }
}

/// Decodes entities, collapses white space and drops soft hyphens of a short inline string
/// (a title, an attribute value, a caption).
pub(crate) fn clean_inline(raw: &str) -> String {
    let mut decoded = String::with_capacity(raw.len());
    entities::decode_into(raw, &mut decoded);
    let mut out = String::with_capacity(decoded.len());
    for word in decoded.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    // Soft hyphens are invisible (see `LineWriter::inline`).
    if out.contains('\u{ad}') {
        out.retain(|c| c != '\u{ad}');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outline(html: &str) -> Vec<String> {
        let arena = Bump::new();
        let doc = Document::parse(html, &arena);
        let mut out = Vec::new();
        for (i, n) in doc.tree.nodes.iter().enumerate() {
            if n.kind != Kind::Text {
                continue;
            }
            let text = doc.raw_text(i as NodeId).trim();
            if text.is_empty() {
                continue;
            }
            let mut path: Vec<&str> = doc
                .tree
                .ancestors(i as NodeId)
                .map(|a| doc.name(a))
                .collect();
            path.reverse();
            if path.is_empty() {
                out.push(text.to_string());
            } else {
                out.push(format!("{}:{}", path.join("."), text));
            }
        }
        out
    }

    #[test]
    fn implied_end_tags() {
        assert_eq!(outline("<p>a<p>b"), ["p:a", "p:b"]);
        assert_eq!(outline("<ul><li>a<li>b</ul>c"), ["ul.li:a", "ul.li:b", "c"]);
        assert_eq!(outline("<p>a<div>b</div>"), ["p:a", "div:b"]);
        assert_eq!(
            outline("<table><tr><td>a<td>b<tr><td>c</table>"),
            ["table.tr.td:a", "table.tr.td:b", "table.tr.td:c"]
        );
        assert_eq!(
            outline("<dl><dt>a<dd>b<dt>c</dl>"),
            ["dl.dt:a", "dl.dd:b", "dl.dt:c"]
        );
    }

    #[test]
    fn stray_end_tags_and_case() {
        assert_eq!(outline("<DIV>a</span></Div>b"), ["div:a", "b"]);
        assert_eq!(outline("<div><span>a</div>b"), ["div.span:a", "b"]);
    }

    #[test]
    fn script_with_lt_is_one_text_node() {
        let html = "<body><script>if (a<b) { x = '<p>no</p>' }</script><p>yes</p></body>";
        let o = outline(html);
        assert_eq!(
            o,
            ["body.script:if (a<b) { x = '<p>no</p>' }", "body.p:yes"]
        );
    }

    #[test]
    fn comments_are_dropped() {
        // The comment gives no token: no `b`, no second paragraph, the text around it stays.
        assert_eq!(outline("<p>a<!-- <p>b</p> -->c</p>"), ["p:a", "p:c"]);
        assert_eq!(
            outline("<!DOCTYPE html><?xml x?><p>a</ p>b"),
            ["p:a", "p:b"]
        );
    }

    #[test]
    fn lt_not_opening_a_tag_is_text() {
        assert_eq!(outline("<p>a < b and c > d</p>"), ["p:a < b and c > d"]);
        assert_eq!(outline("<p>1<2 and <3 <</p>"), ["p:1<2 and <3 <"]);
    }

    #[test]
    fn attributes_are_read_from_the_tag() {
        let arena = Bump::new();
        let doc = Document::parse(
            r#"<div class="a b" ID=x data-y='<p>'><a href=/u hidden>t</a><x-y z=1>"#,
            &arena,
        );
        let div = 1;
        assert_eq!(doc.attr(div, "class"), Some("a b"));
        assert_eq!(doc.attr(div, "id"), Some("x"));
        assert_eq!(doc.attr(div, "data-y"), Some("<p>"));
        assert_eq!(doc.attr(2, "href"), Some("/u"));
        assert_eq!(doc.attr(2, "hidden"), Some(""));
        assert_eq!(doc.attr(3, "href"), None);
        assert_eq!(doc.name(4), "x-y");
        assert_eq!(doc.attr(4, "z"), Some("1"));
    }

    #[test]
    fn unknown_elements_close_by_name() {
        assert_eq!(outline("<x-a>a<x-b>b</X-A>c"), ["x-a:a", "x-a.x-b:b", "c"]);
    }

    #[test]
    fn title_and_lang() {
        let arena = Bump::new();
        let doc = Document::parse(
            "<html lang=de><head><title> A  &amp; B </title></head><h1>H</h1>",
            &arena,
        );
        assert_eq!(doc.lang().as_deref(), Some("de"));
        assert_eq!(doc.title().as_deref(), Some("A & B"));
    }

    /// The text node whose raw text is `text`.
    fn text_node(doc: &Document<'_>, text: &str) -> NodeId {
        let found = doc
            .tree
            .nodes
            .iter()
            .enumerate()
            .find(|&(i, n)| n.kind == Kind::Text && doc.raw_text(i as NodeId) == text);
        found.map_or(tree::NONE, |(i, _)| i as NodeId)
    }

    /// `n` nested `<div>`s around `inner`, closed, and `after` them, in a body.
    fn nested(n: usize, inner: &str, after: &str) -> String {
        format!(
            "<body>{}{inner}{}{after}",
            "<div>".repeat(n),
            "</div>".repeat(n)
        )
    }

    #[test]
    fn deep_nesting_without_recursion() {
        let n = 200_000;
        let html = "<div>".repeat(n) + "x" + &"</div>".repeat(n);
        let arena = Bump::new();
        let doc = Document::parse(&html, &arena);
        // The divs beyond the depth limit have no node: the document, the divs to the limit,
        // the text, and one boundary marker for the run of `</div>`s after the text.
        assert_eq!(doc.tree.nodes.len(), tree::MAX_DEPTH as usize + 3);
        let x = tree::MAX_DEPTH + 1;
        assert_eq!(doc.raw_text(x), "x");
        assert_eq!(doc.tree.ancestors(x).count(), tree::MAX_DEPTH as usize);
        let marker = doc.tree.node(x + 1);
        assert_eq!(
            (marker.tag, marker.parent),
            (Tag::Div, doc.tree.node(x).parent)
        );
        assert_eq!(&html[marker.start as usize..][..6], "</div>");
    }

    /// White space between block tags beyond the depth limit gets no node either, as after a
    /// block that has one: a pretty-printed hostile nesting stays as small as a packed one.
    #[test]
    fn indentation_beyond_the_depth_limit_gets_no_node() {
        let n = 100_000;
        let html = "<div>\n  ".repeat(n) + "<p>x</p>\n<p>y</p>" + &"\n</div>".repeat(n);
        let arena = Bump::new();
        let doc = Document::parse(&html, &arena);
        // The divs to the limit, x, a marker for its `</p>`, y, a marker for its `</p>`.
        assert_eq!(doc.tree.nodes.len(), tree::MAX_DEPTH as usize + 5);
    }

    /// Elements nested beyond the depth limit get no node, but their text keeps its place and
    /// its context, and their end tags are neither elements' nor strays.
    #[test]
    fn elements_beyond_the_depth_limit_have_no_node() {
        let html = nested(
            100_000,
            "<article><p>The article.</p><p>Its <a href=/x>link text</a>.</p>\
             <script>var s = '<p>no</p>';</script></article>",
            "After the nest.",
        );
        let arena = Bump::new();
        let doc = Document::parse(&html, &arena);
        assert!(doc.tree.nodes.len() < 1_000, "{}", doc.tree.nodes.len());
        let article = text_node(&doc, "The article.");
        assert_ne!(article, tree::NONE);
        let ctx = doc.tree.node(article).context();
        assert_eq!(ctx & (tree::context::HIDDEN | tree::context::LINK), 0);
        // Its parent is the innermost element with a node: the div at the limit.
        let parent = doc.tree.node(article).parent;
        assert_eq!(doc.tree.node(parent).tag, Tag::Div);
        assert_eq!(
            doc.tree.ancestors(parent).count() + 1,
            tree::MAX_DEPTH as usize
        );
        let link = text_node(&doc, "link text");
        assert_ne!(link, tree::NONE);
        assert_ne!(doc.tree.node(link).context() & tree::context::LINK, 0);
        assert_eq!(doc.tree.node(text_node(&doc, ".")).context(), 0);
        // The script's content is one raw text run, hidden: its `<p>` is no tag.
        let script = text_node(&doc, "var s = '<p>no</p>';");
        assert_ne!(script, tree::NONE);
        assert_ne!(doc.tree.node(script).context() & tree::context::HIDDEN, 0);
        assert!(!doc.visible_text().contains("var s"));
        // Every `</div>` closed an element: no stray; only the real elements' end tags are
        // tokens, as only their start tags are, and the boundary markers: a leaf `div` for
        // a block tag that follows text (`</p>`, `</p>`, and `</article>` after the script's),
        // one for each run of such tags.
        let ends: Vec<Token> = doc
            .tokens()
            .filter(|t| t.kind == TokenKind::EndTag)
            .collect();
        assert!(ends.iter().all(|t| t.node != tree::NONE));
        let (markers, starts): (Vec<Token>, Vec<Token>) = doc
            .tokens()
            .filter(|t| t.kind == TokenKind::StartTag)
            .partition(|t| html[t.start as usize..].starts_with("</"));
        let marked: Vec<&str> = markers
            .iter()
            .map(|t| &html[t.start as usize..t.end as usize])
            .collect();
        assert_eq!(marked, ["</p>", "</p>", "</article>"]);
        assert_eq!(ends.len(), starts.len() - 1); // all but the body, left open
        assert_eq!(doc.strays.len(), 0);
        // The text after the nest is back in the body.
        let after = text_node(&doc, "After the nest.");
        assert_eq!(doc.tree.node(doc.tree.node(after).parent).tag, Tag::Body);
        assert_eq!(doc.tree.node(after).context(), 0);
    }

    /// Flattened elements left open are closed with the element that holds them, and the
    /// rules that look at the current element see the innermost flattened one.
    #[test]
    fn flattened_elements_close_with_their_ancestor() {
        let html = format!(
            "<section>{}<a href=/x>link<b>bold</section>after</a></b></div>\
             <span>{}<textarea>open<p>shown<h2>one<h3>two</span>end",
            "<div>".repeat(1_000),
            "<div>".repeat(1_000),
        );
        let arena = Bump::new();
        let doc = Document::parse(&html, &arena);
        // The <a> and the <b> are flattened: their text is in the div at the limit, still
        // link text.
        let bold = doc.tree.node(text_node(&doc, "bold"));
        assert_eq!(doc.tree.node(bold.parent).tag, Tag::Div);
        assert_eq!(bold.context(), tree::context::LINK);
        let after = text_node(&doc, "after");
        assert_eq!(doc.tree.node(after).parent, tree::ROOT);
        assert_eq!(doc.tree.node(after).context(), 0);
        // `</section>` closed the flattened <a> and <b> and the divs: the end tags after it
        // close nothing.
        let strays: Vec<&str> = doc
            .strays
            .iter()
            .map(|&s| &html[s as usize..s as usize + 4])
            .collect();
        assert_eq!(strays, ["</a>", "</b>", "</di"]);
        // An unclosed <textarea> is closed by the next start tag (raw-text recovery): the
        // text after that tag is visible; a heading closes the heading it is in.
        assert_ne!(
            doc.tree.node(text_node(&doc, "open")).context() & tree::context::HIDDEN,
            0
        );
        assert_eq!(doc.tree.node(text_node(&doc, "shown")).context(), 0);
        let two = doc.tree.node(text_node(&doc, "two")).context();
        assert_eq!(two, tree::context::HEADING);
        // `</span>` closed the real <span> the flattened elements were in.
        assert_eq!(doc.tree.node(text_node(&doc, "end")).parent, tree::ROOT);
        // Nothing was left counted open: a later </h2>, </h3> or </a> is a stray.
        let html = format!("{html}</h2></h3></a>");
        let arena = Bump::new();
        let doc = Document::parse(&html, &arena);
        assert_eq!(doc.strays.len(), 6);
    }
}
