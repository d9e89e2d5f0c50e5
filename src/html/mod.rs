//! HTML: from page text to an arena tree, without recursion and without copying text.
//!
//! 1. [`prepass`] copies the page into the arena and blanks what tl would misread (comments,
//!    `<` inside raw-text elements); offsets stay those of the page.
//! 2. tl tokenizes the copy. Its node list is pith's token stream: start tags, text runs, in
//!    document order, each a slice of the copy. tl's own tree is not used (it never closes an
//!    element implicitly, so `<p>a<p>b` nests); end tags, which tl does not list, are recovered
//!    from the gaps between consecutive nodes.
//! 3. [`tree::Builder`] turns the tokens into the tree with HTML's implied end tags.
//!
//! The resulting [`Document`] also keeps the token stream as spans ([`Token`]), which is what
//! DANAg counts per line.

pub mod entities;
mod entity_table;
pub mod prepass;
pub mod tags;
pub mod tree;

use bumpalo::Bump;
use bumpalo::collections::Vec as BumpVec;
use memchr::memchr;

pub use tags::Tag;
pub use tree::{Kind, Node, NodeId, Tree};

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    StartTag,
    EndTag,
    Text,
}

/// One token of the stream, with its byte span and the node it opened, closed or is.
#[derive(Clone, Copy, Debug)]
pub struct Token {
    pub kind: TokenKind,
    pub start: u32,
    pub end: u32,
    /// The element (start/end tag) or text node; [`tree::NONE`] for an end tag that closed
    /// nothing.
    pub node: NodeId,
}

/// A parsed page.
pub struct Document<'a> {
    /// The page text (decoded, original: not the neutralized copy).
    pub src: &'a str,
    /// The neutralized copy (see [`prepass`]); same offsets as `src`.
    pub neutral: &'a str,
    pub tree: Tree<'a>,
    /// Tokens in document order.
    pub tokens: BumpVec<'a, Token>,
    dom: Option<tl::VDom<'a>>,
}

impl<'a> Document<'a> {
    /// Parses `src`, allocating the copy, the tree and the tokens in `arena`.
    pub fn parse(src: &'a str, arena: &'a Bump) -> Document<'a> {
        let copy = arena.alloc_slice_copy(src.as_bytes());
        prepass::neutralize_in_place(copy);
        // Only ASCII bytes at ASCII boundaries were replaced, so the copy is valid UTF-8; should
        // that ever fail, tokenizing the original is the safe fallback.
        let neutral: &'a str = match std::str::from_utf8(copy) {
            Ok(s) => s,
            Err(_) => src,
        };
        let dom = tl::parse(neutral, tl::ParserOptions::default()).ok();
        let count = dom.as_ref().map_or(0, |d| d.nodes().len());
        let mut doc = Driver {
            bytes: neutral.as_bytes(),
            base: neutral.as_ptr() as usize,
            builder: tree::Builder::new(arena, count, tree::quirks_mode(src.as_bytes())),
            tokens: BumpVec::with_capacity_in(count + count / 2, arena),
        };
        if let Some(dom) = &dom {
            doc.run(dom.nodes());
        }
        let tree = doc.builder.finish(src.len() as u32);
        Document {
            src,
            neutral,
            tree,
            tokens: doc.tokens,
            dom,
        }
    }

    /// The tl tag of an element node, for attribute access.
    fn tl_tag(&self, id: NodeId) -> Option<&tl::HTMLTag<'a>> {
        let token = self.tree.node(id).token;
        self.dom.as_ref()?.nodes().get(token as usize)?.as_tag()
    }

    /// All attributes of element `id`.
    pub fn attributes(&self, id: NodeId) -> Option<&tl::Attributes<'a>> {
        self.tl_tag(id).map(|t| t.attributes())
    }

    /// The value of attribute `name` (as written, usually lower case) on element `id`.
    pub fn attr<'s>(&'s self, id: NodeId, name: &'s str) -> Option<&'s str> {
        let tag = self.tl_tag(id)?;
        let attrs = tag.attributes();
        let bytes = match name {
            "class" => attrs.class(),
            "id" => attrs.id(),
            _ => attrs.get(name).flatten(),
        }?;
        bytes.try_as_utf8_str()
    }

    /// The element's name as written in the source.
    pub fn name(&self, id: NodeId) -> &str {
        let node = self.tree.node(id);
        if node.tag != Tag::Other {
            return node.tag.name();
        }
        self.tl_tag(id)
            .and_then(|t| t.name().try_as_utf8_str())
            .unwrap_or("")
    }

    /// The raw (undecoded) text of a text node, or the raw inner text of a raw-text element.
    /// Ordinary text is read from the neutralized copy, where comments inside it are blanks;
    /// the content of raw-text elements from the page itself, whose `<` the copy replaced.
    pub fn raw_text(&self, id: NodeId) -> &'a str {
        let n = self.tree.node(id);
        let (s, e, from_page) = match n.kind {
            Kind::Text => {
                let parent = self.tree.node(n.parent).tag;
                (n.start, n.end, parent.is(tags::flags::RAW_TEXT))
            }
            _ => (n.inner_start, n.inner_end, true),
        };
        let text = if from_page { self.src } else { self.neutral };
        text.get(s as usize..e as usize).unwrap_or("")
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
            if n.kind == Kind::Text && n.context & tree::context::HIDDEN == 0 {
                raw.push_str(self.raw_text(i as NodeId));
            }
        }
        clean_inline(&raw)
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

/// Decodes entities and collapses white space of a short inline string.
fn clean_inline(raw: &str) -> String {
    let mut decoded = String::with_capacity(raw.len());
    entities::decode_into(raw, &mut decoded);
    let mut out = String::with_capacity(decoded.len());
    for word in decoded.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Feeds tl's nodes and the end tags between them to the tree builder.
struct Driver<'a, 'arena> {
    bytes: &'a [u8],
    base: usize,
    builder: tree::Builder<'arena>,
    tokens: BumpVec<'arena, Token>,
}

impl Driver<'_, '_> {
    /// Offset of a slice of the neutralized copy, if it is one.
    fn offset(&self, slice: &[u8]) -> Option<usize> {
        let off = (slice.as_ptr() as usize).checked_sub(self.base)?;
        (off + slice.len() <= self.bytes.len()).then_some(off)
    }

    fn node_start(&self, node: &tl::Node<'_>) -> Option<usize> {
        match node {
            tl::Node::Tag(t) => self.offset(t.raw().as_bytes()),
            tl::Node::Raw(b) | tl::Node::Comment(b) => self.offset(b.as_bytes()),
        }
    }

    fn run(&mut self, nodes: &[tl::Node<'_>]) {
        // Everything before `prev_end` has been fed to the builder.
        let mut prev_end = 0usize;
        for (i, node) in nodes.iter().enumerate() {
            let Some(start) = self.node_start(node) else {
                continue;
            };
            let node_end = match node {
                tl::Node::Raw(b) | tl::Node::Comment(b) => start + b.as_bytes().len(),
                tl::Node::Tag(_) => start + 1,
            };
            if start < prev_end {
                // Inside a start tag tl gave up on and the gap reader parsed (below): the rest
                // of a text run after that tag's `>` is still text.
                if let tl::Node::Raw(_) = node
                    && node_end > prev_end
                {
                    self.text(prev_end, node_end);
                    prev_end = node_end;
                }
                continue;
            }
            prev_end = self.gap(prev_end, start);
            if start < prev_end {
                if let tl::Node::Raw(_) = node
                    && node_end > prev_end
                {
                    self.text(prev_end, node_end);
                    prev_end = node_end;
                }
                continue;
            }
            match node {
                tl::Node::Tag(t) => {
                    let limit = nodes[i + 1..]
                        .iter()
                        .find_map(|n| self.node_start(n))
                        .unwrap_or(self.bytes.len())
                        .max(start + 1);
                    let end = prepass::start_tag_end(&self.bytes[..limit], start);
                    let name = t.name().as_bytes();
                    let is_tag = self
                        .bytes
                        .get(start + 1)
                        .is_some_and(u8::is_ascii_alphabetic)
                        && !name.is_empty();
                    if is_tag {
                        self.start_tag(name, start, end, i as u32);
                    } else {
                        // `a < b` is text in HTML; tl reads a tag there.
                        self.text(start, end);
                    }
                    prev_end = end;
                }
                tl::Node::Raw(_) => {
                    self.text(start, node_end);
                    prev_end = node_end;
                }
                tl::Node::Comment(_) => prev_end = node_end,
            }
        }
        self.gap(prev_end, self.bytes.len());
    }

    fn start_tag(&mut self, name: &[u8], start: usize, end: usize, token: u32) {
        let tag = Tag::lookup(name);
        let t = tree::StartTag {
            tag,
            name_hash: if tag == Tag::Other {
                tree::name_hash(name)
            } else {
                0
            },
            start: start as u32,
            inner_start: end as u32,
            token,
            self_closing: end >= 2 && self.bytes[end - 2] == b'/',
        };
        if let Some(id) = self.builder.start_tag(t) {
            self.tokens.push(Token {
                kind: TokenKind::StartTag,
                start: start as u32,
                end: end as u32,
                node: id,
            });
        }
    }

    fn text(&mut self, start: usize, end: usize) {
        let blank = self.bytes[start..end].iter().all(u8::is_ascii_whitespace);
        if let Some(id) = self.builder.text(start as u32, end as u32, blank) {
            self.tokens.push(Token {
                kind: TokenKind::Text,
                start: start as u32,
                end: end as u32,
                node: id,
            });
        }
    }

    /// Reads the bytes tl did not list as nodes, `from..to`: end tags, and start tags tl gave
    /// up on (an unquoted attribute value with a `/`, as in `type=text/css>`, makes tl drop the
    /// tag and read its tail as text). Returns where it stopped: past `to` when such a start
    /// tag runs beyond it.
    fn gap(&mut self, from: usize, to: usize) -> usize {
        let mut pos = from;
        while pos < to {
            let Some(off) = memchr(b'<', &self.bytes[pos..to]) else {
                break;
            };
            let lt = pos + off;
            pos = lt + 1;
            let is_end = self.bytes.get(lt + 1) == Some(&b'/');
            let name_start = if is_end { lt + 2 } else { lt + 1 };
            if !self
                .bytes
                .get(name_start)
                .is_some_and(u8::is_ascii_alphabetic)
            {
                continue;
            }
            let name_len = self.bytes[name_start..]
                .iter()
                .position(|&b| matches!(b, b'>' | b'/' | b' ' | b'\t' | b'\n' | b'\r' | b'\x0c'))
                .unwrap_or(self.bytes.len() - name_start);
            let name = &self.bytes[name_start..name_start + name_len];
            if !is_end {
                let end = prepass::start_tag_end(self.bytes, lt);
                self.start_tag(name, lt, end, tree::NONE);
                pos = end;
                continue;
            }
            let end = memchr(b'>', &self.bytes[name_start..to]).map_or(to, |i| name_start + i + 1);
            let tag = Tag::lookup(name);
            let hash = if tag == Tag::Other {
                tree::name_hash(name)
            } else {
                0
            };
            let node = self.builder.end_tag(tag, hash, lt as u32, end as u32);
            self.tokens.push(Token {
                kind: TokenKind::EndTag,
                start: lt as u32,
                end: end as u32,
                node: node.unwrap_or(tree::NONE),
            });
            pos = end;
        }
        pos.max(to)
    }
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
        // The comment is blank in the copy: one text run, no `b`, no second paragraph.
        let o = outline("<p>a<!-- <p>b</p> -->c</p>");
        assert_eq!(o.len(), 1);
        assert_eq!(o[0].split_whitespace().collect::<Vec<_>>(), ["p:a", "c"]);
    }

    #[test]
    fn lt_followed_by_space_is_text() {
        let o = outline("<p>a < b and c > d</p>");
        assert_eq!(
            o.concat().replace(' ', ""),
            "p:ap:<bandc>p:d".replace(' ', "")
        );
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

    #[test]
    fn deep_nesting_without_recursion() {
        let n = 200_000;
        let html = "<div>".repeat(n) + "x" + &"</div>".repeat(n);
        let arena = Bump::new();
        let doc = Document::parse(&html, &arena);
        assert_eq!(doc.tree.nodes.len(), n + 2);
        let last = doc.tree.nodes.len() as NodeId - 1;
        assert_eq!(doc.tree.ancestors(last).count(), n);
    }
}
