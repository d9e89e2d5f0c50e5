//! The arena tree: elements and text nodes with byte spans, built from the token stream.
//!
//! Nodes live in one vector in the page's arena, in document order (a node's id is its position),
//! linked by parent and next sibling indices (a node's first child is the node after it, when
//! that is its child), so walking the tree never recurses and dropping it is one arena reset. The builder applies the parts of HTML's tree construction that
//! change which element text belongs to: implied end tags (p, li, dt/dd, option, tr/td/th,
//! thead/tbody/tfoot, head before body), void elements, case-insensitive names, and end tags
//! that match no open element ignored. It does not reparent misnested formatting elements (the
//! adoption agency algorithm) or foster-parent text out of tables: neither moves text between
//! blocks, which is what extraction cares about. Elements nested deeper than [`MAX_DEPTH`] get
//! no node: their text goes into the element at the limit, with the context they give it.

use bumpalo::Bump;
use bumpalo::collections::Vec as BumpVec;

use super::tags::{Tag, flags};
use crate::hash::{FNV_OFFSET, fnv1a_byte};

/// Index of a node in `Tree::nodes`.
pub type NodeId = u32;

/// "No node" in a link field.
pub const NONE: NodeId = u32::MAX;

/// The root of every tree: a synthetic document node holding the top-level nodes.
pub const ROOT: NodeId = 0;

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The synthetic root ([`ROOT`]) holding the top-level nodes.
    Document,
    /// An element, written or implied by the markup.
    Element,
    /// A run of text.
    Text,
}

/// One node. Spans are byte offsets into the page text.
///
/// 20 bytes: a page that is mostly tags has a node every 10-20 bytes, so each field costs
/// memory in proportion to the page (memory must stay under 4x the record). What can be
/// recomputed in O(1) is not stored: the first child is the next node when its parent is this
/// one (nodes are in document order and an element's children are appended right after it);
/// the end of the start tag is `start` plus the tag's length and the start of the end tag is
/// `end` less the end tag's length, each kept in a few bits (`Tree::inner_start`,
/// `Tree::inner_end`).
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// Document, element or text.
    pub kind: Kind,
    /// Element kind ([`Tag::Other`] for unknown names and for text).
    pub tag: Tag,
    /// The context bits ([`context`]) in the low four bits; above them the length of the end
    /// tag that closed the element: 0 when it was closed implicitly (and for text),
    /// [`LONG_END_TAG`] when it is that long or longer (then [`Tree::long_end_tags`] holds
    /// where it starts).
    bits: u8,
    /// Length of the start tag: 0 for text, the document and an element the markup implied,
    /// [`LONG_START_TAG`] when it is that long or longer (then [`Tree::long_start_tags`]
    /// holds where it ends).
    start_tag_len: u8,
    /// The parent's id ([`NONE`] for the root).
    pub parent: NodeId,
    /// The next sibling's id, or [`NONE`] for the last child (while the builder has an element
    /// open, its last child).
    pub next_sibling: NodeId,
    /// Start of the start tag (element) or of the text.
    pub start: u32,
    /// End of the end tag (or of the text), or where the element was implicitly closed.
    pub end: u32,
}

const _: () = assert!(std::mem::size_of::<Node>() == 20);

/// The context bits of [`Node::bits`]; the end tag's length is above them.
const CONTEXT_BITS: u8 = 0x0f;
/// An end tag this long or longer (`</blockquote  >`, a long custom element's name; rare)
/// has its start kept aside instead of its length in the node's four bits.
const LONG_END_TAG: u8 = 0x0f;
/// A start tag this long or longer (long URLs, `srcset`s, class lists: a few in a hundred)
/// has its end kept aside instead of its length in the node's byte.
const LONG_START_TAG: u8 = u8::MAX;

/// The most nodes a tree holds (ids stay clear of [`NONE`] with room to spare). Every node but
/// an implied `<tr>` takes at least
/// two bytes of the page (a tag of 3 and more, or text between tags), so only a page near the
/// 4 GiB limit of a span could reach it; what comes after is not parsed.
pub(crate) const MAX_NODES: usize = (1 << 31) - 2;

impl Node {
    fn new(kind: Kind, tag: Tag, start: u32, end: u32) -> Node {
        Node {
            kind,
            tag,
            bits: 0,
            start_tag_len: 0,
            parent: NONE,
            next_sibling: NONE,
            start,
            end,
        }
    }

    /// The context bits inherited from the ancestors ([`context`]).
    #[inline(always)]
    pub fn context(&self) -> u8 {
        self.bits & CONTEXT_BITS
    }

    #[inline(always)]
    fn end_tag_len(&self) -> u8 {
        self.bits >> 4
    }

    /// An element the markup implies but does not write (a `<tr>` around a bare `<td>`): its
    /// start tag is zero-width. False for text and the document.
    #[inline(always)]
    pub fn is_implied(&self) -> bool {
        self.kind == Kind::Element && self.start_tag_len == 0
    }
}

/// Context bits a node inherits from its ancestors, computed once when it is appended so that
/// no pass ever walks up the tree (which would be quadratic on deep pages).
pub mod context {
    /// Inside an element whose text is never content (script, style, head, select...).
    pub const HIDDEN: u8 = 1;
    /// Inside a link.
    pub const LINK: u8 = 1 << 1;
    /// Inside preformatted text.
    pub const PRE: u8 = 1 << 2;
    /// Inside a heading.
    pub const HEADING: u8 = 1 << 3;
}

/// A tree of one page.
pub struct Tree<'arena> {
    /// The nodes in document order; a node's id is its index, the root first.
    pub nodes: BumpVec<'arena, Node>,
    /// Where end tags of [`LONG_END_TAG`] bytes or more start, by node id (sorted).
    long_end_tags: Vec<(NodeId, u32)>,
    /// Where start tags of [`LONG_START_TAG`] bytes or more end, by node id (sorted: nodes
    /// are appended in id order).
    long_start_tags: Vec<(NodeId, u32)>,
}

impl<'arena> Tree<'arena> {
    #[inline]
    /// The node with id `id` (panics when there is none).
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// The first child of `id`, or [`NONE`]: the node after it, when that is its child.
    #[inline]
    pub fn first_child(&self, id: NodeId) -> NodeId {
        let next = id as usize + 1;
        match self.nodes.get(next) {
            Some(n) if n.parent == id => next as NodeId,
            _ => NONE,
        }
    }

    /// End of the start tag of `id`: for an implied element its start, for text its end
    /// (text has no tag; its content runs from `start`).
    #[inline(always)]
    pub fn inner_start(&self, id: NodeId) -> u32 {
        let n = self.node(id);
        if n.kind == Kind::Text {
            return n.end;
        }
        if n.start_tag_len != LONG_START_TAG {
            return n.start + u32::from(n.start_tag_len);
        }
        self.long_start_tags
            .binary_search_by_key(&id, |&(i, _)| i)
            .map_or(n.start, |at| self.long_start_tags[at].1)
    }

    /// Start of the end tag of `id`, or where it was implicitly closed (for text, its end).
    #[inline(always)]
    pub fn inner_end(&self, id: NodeId) -> u32 {
        let n = self.node(id);
        let len = n.end_tag_len();
        if len != LONG_END_TAG {
            return n.end - u32::from(len);
        }
        self.long_end_tags
            .binary_search_by_key(&id, |&(i, _)| i)
            .map_or(n.end, |at| self.long_end_tags[at].1)
    }

    /// Whether element `id` was closed by an end tag of its own (not implicitly).
    #[inline]
    pub fn has_end_tag(&self, id: NodeId) -> bool {
        self.node(id).end_tag_len() != 0
    }

    /// The children of `id`, in order.
    pub fn children(&self, id: NodeId) -> Children<'_, 'arena> {
        Children {
            tree: self,
            next: self.first_child(id),
        }
    }

    /// The ancestors of `id`, nearest first, excluding the document root.
    pub fn ancestors(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let mut cur = self.node(id).parent;
        std::iter::from_fn(move || {
            if cur == NONE || cur == ROOT {
                return None;
            }
            let id = cur;
            cur = self.node(id).parent;
            Some(id)
        })
    }

    /// The nodes of the subtree of `id` (itself included) as a range of ids: the arena holds
    /// nodes in document order, so a subtree is contiguous.
    pub fn subtree(&self, id: NodeId) -> std::ops::Range<usize> {
        let mut end = id as usize + 1;
        // The subtree ends where the first node starting at or past this element's end is.
        let stop = self.node(id).end;
        if self.node(id).kind == Kind::Text {
            return id as usize..end;
        }
        // Nodes are ordered by start offset; a binary search finds the first one past `stop`.
        let rest = &self.nodes[end..];
        end += rest.partition_point(|n| n.start < stop);
        id as usize..end
    }
}

/// Iterator over the children of a node.
pub struct Children<'t, 'arena> {
    tree: &'t Tree<'arena>,
    next: NodeId,
}

impl Iterator for Children<'_, '_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        if self.next == NONE {
            return None;
        }
        let id = self.next;
        self.next = self.tree.node(id).next_sibling;
        Some(id)
    }
}

/// The context bits an element of kind `tag` gives its descendants: one load from a table by
/// kind, as every node appended asks it of its parent (the document's kind, [`Tag::Other`],
/// gives none; a text node is never a parent).
#[inline(always)]
fn own_context(tag: Tag) -> u8 {
    const OWN: [u8; Tag::Other as usize + 1] = {
        let mut own = [0; Tag::Other as usize + 1];
        let mut i = 0;
        while i < own.len() {
            let tag = Tag::ALL[i];
            let f = tag.flags();
            own[i] = ((f & flags::NO_CONTENT != 0) as u8 * context::HIDDEN)
                | ((f & flags::PREFORMATTED != 0) as u8 * context::PRE)
                | ((f & flags::HEADING != 0) as u8 * context::HEADING)
                | (matches!(tag, Tag::A) as u8 * context::LINK);
            i += 1;
        }
        own
    };
    OWN[tag as usize]
}

/// Whether a page is in quirks mode, from its DOCTYPE (WHATWG 13.2.6.4.1, "initial" insertion
/// mode), reduced to the cases that occur: no DOCTYPE at all, or an HTML 3.x / 4.0 / 4.01
/// Transitional or Frameset public identifier (4.01 ones only without a system identifier).
pub(crate) fn quirks_mode(src: &[u8]) -> bool {
    let head = &src[..src.len().min(4096)];
    // Only a `<!` can start it: a searcher finds those (testing every window cost 4 M
    // instructions over cleaneval's 137 pages, most of which have no DOCTYPE).
    static OPEN: std::sync::OnceLock<memchr::memmem::Finder<'static>> = std::sync::OnceLock::new();
    let open = OPEN.get_or_init(|| memchr::memmem::Finder::new(b"<!"));
    let Some(at) = open.find_iter(head).find(|&at| {
        head.get(at..at + 9)
            .is_some_and(|w| w.eq_ignore_ascii_case(b"<!doctype"))
    }) else {
        return true;
    };
    let end = memchr::memchr(b'>', &head[at..]).map_or(head.len(), |i| at + i);
    let d = head[at..end].to_ascii_lowercase();
    let has = |needle: &[u8]| memchr::memmem::find(&d, needle).is_some();
    if has(b"html 3")
        || has(b"html 4.0 transitional")
        || has(b"html 4.0 frameset")
        || has(b"html 2")
    {
        return true;
    }
    (has(b"html 4.01 transitional") || has(b"html 4.01 frameset")) && !has(b"http://")
}

/// How many open elements an implied end tag looks through (see `close_known`).
const IMPLIED_END_SEARCH: usize = 256;

/// The deepest an element node can be (the document's children are at depth 1): the parser
/// depth limit of Blink and WebKit (`kMaximumHTMLParserDOMTreeDepth`, in Blink's
/// `html_construction_site.cc` and WebKit's `HTMLConstructionSite.cpp`). Those browsers flatten
/// deeper elements into siblings (one that would nest deeper is attached to the current
/// node's parent); pith, whose concern is which text belongs where, keeps no node for them at
/// all: their tags and the context bits they give their content are kept on a stack of 2
/// bytes an element ([`Builder::start_tag`]), so that memory is bounded by the page's text
/// (and its leaves), not by its nesting (a million nested `<div>`s were a million 20-byte
/// nodes). Their boundaries stay where they separate text: a block's tag after text
/// leaves a marker node (`Builder::mark_boundary`), so paragraphs nested beyond the limit
/// are still lines of their own. Real pages never nest this deep (the deepest of the 1,228
/// pages of `../shared/data` nests 52 elements).
pub const MAX_DEPTH: u32 = 512;

/// A stable hash of a tag name, ASCII-case-insensitive (FNV-1a over the lower-cased bytes):
/// unknown elements are matched to their end tags by it without allocating their names.
pub(crate) fn name_hash(name: &[u8]) -> u64 {
    let mut h = FNV_OFFSET;
    for &b in name {
        h = fnv1a_byte(h, b.to_ascii_lowercase());
    }
    h
}

// The open-element counts are indexed by tag.
const _: () = assert!((Tag::Other as usize) < 128);

/// A start tag as the builder needs it.
pub struct StartTag {
    /// Element kind ([`Tag::Other`] for unknown names).
    pub tag: Tag,
    /// [`name_hash`] of the name, for [`Tag::Other`] only (0 otherwise).
    pub name_hash: u64,
    /// Span of the start tag.
    pub start: u32,
    /// End of the start tag, just after its `>` (where the element's content starts).
    pub inner_start: u32,
    /// Written as `<x/>`.
    pub self_closing: bool,
}

/// What an end tag closed ([`Builder::end_tag`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closed {
    /// This element, and any open inside it.
    Node(NodeId),
    /// An element nested beyond [`MAX_DEPTH`], which has no node (and the ones inside it).
    Flattened,
    /// Nothing: no element of its name was open (a stray end tag).
    Nothing,
}

/// Builds a `Tree` from tokens given in document order.
pub struct Builder<'arena> {
    tree: Tree<'arena>,
    /// The innermost open element that has a node ([`ROOT`] when none is). HTML's stack of
    /// open elements is this element and its ancestors (and, beyond the depth limit, the
    /// elements flattened inside it: [`Builder::flattened`]): every element is appended as a
    /// child of the innermost open one and opened at once, so the parent links are the stack
    /// and no stack is kept beside the tree (on a million-deep nesting it was as large as the
    /// nodes' links).
    /// Children are only ever appended to the innermost open element, and an open element has
    /// no next sibling yet (its siblings come after it is closed), so while it is open its
    /// `next_sibling` field holds its last child, or its own id while it has none (so that
    /// appending a child links it without a test: the root's too, reset at the end).
    current: NodeId,
    /// How many elements are open with a node: the depth of `current` (0 for [`ROOT`]). Counted
    /// up when an element becomes current and down when it is popped, so the limit costs no
    /// walk up the tree.
    depth: u32,
    /// The elements open beyond [`MAX_DEPTH`], innermost last, inside `current`: their tag and
    /// the context bits of what is appended inside them (their own and all their ancestors',
    /// so that text in a flattened `<a>` is still link text and in a flattened `<script>`
    /// still hidden). They have no node; the open counts below count them, so their end tags
    /// find them. While any is open, `current` is at the limit and is not popped before they
    /// are closed (they are its descendants).
    flattened: Vec<(Tag, u8)>,
    /// Text that is not white space was appended since the last boundary marker
    /// ([`Builder::mark_boundary`]).
    text_since_boundary: bool,
    /// [`name_hash`] of each open unknown element, innermost last (the flattened ones too).
    other_hashes: Vec<u64>,
    /// How many elements of each known kind are open: an end tag whose kind is not open is
    /// ignored in O(1) instead of searching the stack, which keeps stray end tags on a deeply
    /// nested page linear.
    open_known: [u32; 128],
    /// The same for unknown names, keyed by [`name_hash`].
    open_other: ahash::AHashMap<u64, u32>,
    /// The page is in quirks mode (see [`quirks_mode`]).
    quirks: bool,
}

impl<'arena> Builder<'arena> {
    /// A builder in `arena` with room for `capacity` nodes (past the root); `quirks` when the page
    /// is in quirks mode.
    pub fn new(arena: &'arena Bump, capacity: usize, quirks: bool) -> Self {
        let mut nodes = BumpVec::with_capacity_in(capacity.min(MAX_NODES) + 1, arena);
        let mut root = Node::new(Kind::Document, Tag::Other, 0, 0);
        // Open, with no child yet (see `current`).
        root.next_sibling = ROOT;
        nodes.push(root);
        Builder {
            tree: Tree {
                nodes,
                long_end_tags: Vec::new(),
                long_start_tags: Vec::new(),
            },
            current: ROOT,
            depth: 0,
            flattened: Vec::new(),
            text_since_boundary: false,
            other_hashes: Vec::new(),
            open_known: [0; 128],
            open_other: ahash::AHashMap::new(),
            quirks,
        }
    }

    fn current(&self) -> NodeId {
        self.current
    }

    /// The kind of the innermost open element, flattened or not ([`Tag::Other`] for the
    /// document): the rules that look at HTML's current node ask this.
    fn current_tag(&self) -> Tag {
        match self.flattened.last() {
            Some(&(tag, _)) => tag,
            None => self.tree.nodes[self.current as usize].tag,
        }
    }

    /// The context bits of a node appended now: those the innermost open element gives its
    /// content.
    fn inner_context(&self) -> u8 {
        match self.flattened.last() {
            Some(&(_, bits)) => bits,
            None => {
                let p = &self.tree.nodes[self.current as usize];
                p.context() | own_context(p.tag)
            }
        }
    }

    /// Opens an element beyond [`MAX_DEPTH`], without a node (see [`Builder::flattened`]).
    fn open_flattened(&mut self, tag: Tag, name_hash: u64) {
        let bits = self.inner_context() | own_context(tag);
        self.flattened.push((tag, bits));
        self.count_open(tag, name_hash);
    }

    /// Closes the innermost flattened element.
    fn pop_flattened(&mut self) {
        if let Some((tag, _)) = self.flattened.pop() {
            self.count_closed(tag);
        }
    }

    /// Closes every flattened element: they lie inside `current`, which is about to close.
    fn close_flattened(&mut self) {
        while !self.flattened.is_empty() {
            self.pop_flattened();
        }
    }

    /// Closes the innermost open element, flattened or not.
    fn pop_current(&mut self, at: u32) {
        if self.flattened.is_empty() {
            self.pop(at, at);
        } else {
            self.pop_flattened();
        }
    }

    /// Closes everything open.
    fn close_all(&mut self, at: u32) {
        self.close_flattened();
        while self.current != ROOT {
            self.pop(at, at);
        }
    }

    #[inline]
    fn count_open(&mut self, tag: Tag, name_hash: u64) {
        if tag == Tag::Other {
            self.other_hashes.push(name_hash);
            *self.open_other.entry(name_hash).or_insert(0) += 1;
        } else {
            self.open_known[tag as usize] += 1;
        }
    }

    #[inline]
    fn count_closed(&mut self, tag: Tag) {
        if tag == Tag::Other {
            let hash = self.other_hashes.pop().unwrap_or(0);
            if let Some(n) = self.open_other.get_mut(&hash) {
                *n = n.saturating_sub(1);
            }
        } else {
            let n = &mut self.open_known[tag as usize];
            *n = n.saturating_sub(1);
        }
    }

    /// Whether the tree is full ([`MAX_NODES`]): the rest of the page adds nothing.
    fn full(&self) -> bool {
        self.tree.nodes.len() >= MAX_NODES
    }

    /// Appends `node` under the innermost open element; `start_tag_len` is its start tag's
    /// length (0 for text and implied elements); `opens` when it becomes the current element.
    #[inline(always)]
    fn append(&mut self, mut node: Node, start_tag_len: u32, opens: bool) -> NodeId {
        let parent = self.current();
        let id = self.tree.nodes.len() as NodeId;
        node.parent = parent;
        if opens {
            // It becomes the current element, with no child yet (see `current`).
            node.next_sibling = id;
        }
        node.bits = self.inner_context();
        node.start_tag_len = if start_tag_len < u32::from(LONG_START_TAG) {
            start_tag_len as u8
        } else {
            let inner_start = node.start.saturating_add(start_tag_len);
            self.tree.long_start_tags.push((id, inner_start));
            LONG_START_TAG
        };
        // The parent's last child, or the parent itself: in its `next_sibling` while it is
        // open (see `current`). Either one's next sibling is now the new node.
        let prev_last = std::mem::replace(&mut self.tree.nodes[parent as usize].next_sibling, id);
        self.tree.nodes[prev_last as usize].next_sibling = id;
        self.tree.nodes.push(node);
        id
    }

    fn is_open(&self, tag: Tag, name_hash: u64) -> bool {
        if tag == Tag::Other {
            self.open_other.get(&name_hash).is_some_and(|&n| n > 0)
        } else {
            self.open_known[tag as usize] > 0
        }
    }

    /// Pops the innermost element that has a node, closing it at `at` (its end tag's start) /
    /// `end`, and first the flattened elements inside it.
    fn pop(&mut self, at: u32, end: u32) {
        if self.current == ROOT {
            return;
        }
        self.close_flattened();
        self.pop_node(at, end);
    }

    /// [`Builder::pop`] when an element other than the root is current and no flattened
    /// element is open.
    #[inline(always)]
    fn pop_node(&mut self, at: u32, end: u32) {
        let id = self.current;
        self.depth = self.depth.saturating_sub(1);
        let inner_start = self.tree.inner_start(id);
        let node = &mut self.tree.nodes[id as usize];
        self.current = node.parent;
        // It held its last child (see `current`); it has no sibling yet.
        node.next_sibling = NONE;
        let inner_end = at.max(inner_start);
        node.end = end.max(inner_end);
        let len = node.end - inner_end;
        let end_tag_len = if len < u32::from(LONG_END_TAG) {
            len as u8
        } else {
            self.tree.long_end_tags.push((id, inner_end));
            LONG_END_TAG
        };
        let node = &mut self.tree.nodes[id as usize];
        node.bits = node.context() | end_tag_len << 4;
        let tag = node.tag;
        self.count_closed(tag);
    }

    /// Closes open elements up to and including the innermost `target`, if one is open and no
    /// element of `boundary` kinds lies above it.
    #[inline(always)]
    fn close_known(&mut self, target: &[Tag], boundary: &[Tag], at: u32) {
        // Asked at most start tags, and nearly always answered by the counts: inlined.
        if target.iter().any(|&t| self.open_known[t as usize] > 0) {
            self.close_open(target, boundary, at);
        }
    }

    /// [`Builder::close_known`] once an element of a `target` kind is known to be open.
    #[inline(never)]
    fn close_open(&mut self, target: &[Tag], boundary: &[Tag], at: u32) {
        // The search stops at the boundary kinds (list and table containers), which keeps it
        // short on real pages, and after IMPLIED_END_SEARCH elements, which keeps hostile ones
        // (an open <li> under a million <div>s, then a million <li>s) linear. The flattened
        // elements are the innermost and are searched first.
        let mut budget = IMPLIED_END_SEARCH;
        for (i, &(tag, _)) in self.flattened.iter().enumerate().rev().take(budget) {
            if target.contains(&tag) {
                while self.flattened.len() > i {
                    self.pop_flattened();
                }
                return;
            }
            if boundary.contains(&tag) {
                return;
            }
            budget -= 1;
        }
        let mut found = None;
        let mut id = self.current;
        for _ in 0..budget {
            if id == ROOT {
                break;
            }
            let n = &self.tree.nodes[id as usize];
            if target.contains(&n.tag) {
                found = Some(id);
                break;
            }
            if boundary.contains(&n.tag) {
                return;
            }
            id = n.parent;
        }
        if let Some(target) = found {
            while self.current != ROOT {
                let closed = self.current;
                self.pop(at, at);
                if closed == target {
                    break;
                }
            }
        }
    }

    /// A start tag. Returns its element's node, or `None` when it gets none: the tree is full,
    /// a second `<html>` (which HTML merges into the first), or an element nested beyond
    /// [`MAX_DEPTH`].
    pub fn start_tag(&mut self, t: StartTag) -> Option<NodeId> {
        use Tag::*;
        if self.full() {
            return None;
        }
        let StartTag {
            tag,
            name_hash,
            start,
            inner_start,
            self_closing,
        } = t;
        // The first <html> start tag inside elements that would make the whole page link text,
        // hidden, preformatted or a heading: those came before the document (binary junk, a
        // stray fragment) and are closed here, so that an unclosed <a> in 1 MB of junk does
        // not turn the article into link text, which `auto` drops. HTML would nest the page
        // in them; harmless wrappers (CleanEval's `<text>`) stay, as HTML has them. Each
        // element is popped once, so this stays linear.
        if tag == Html && self.open_known[Html as usize] == 0 && self.inner_context() != 0 {
            self.close_all(start);
        }
        // Implied end tags (WHATWG 13.2.6.4.7, "in body" start tags).
        match tag {
            Li => self.close_known(&[Li], &[Ul, Ol, Menu, Dir, Table], start),
            Dt | Dd => self.close_known(&[Dt, Dd], &[Dl, Table], start),
            Option => self.close_known(&[Option], &[Select, Optgroup], start),
            Optgroup => {
                self.close_known(&[Option], &[Select], start);
                self.close_known(&[Optgroup], &[Select], start);
            }
            Tr => self.close_known(&[Tr], &[Table, Thead, Tbody, Tfoot], start),
            Td | Th => {
                self.close_known(&[Td, Th], &[Tr, Table], start);
                // A cell directly in a table gets its row (WHATWG "in table body" mode).
                if matches!(self.current_tag(), Table | Thead | Tbody | Tfoot) {
                    self.open_implied(Tr, start);
                }
            }
            // A table directly in a table (not in a cell) closes the first (WHATWG "in table").
            Table if self.current_tag() == Table => self.pop_current(start),
            Thead | Tbody | Tfoot => self.close_known(&[Thead, Tbody, Tfoot], &[Table], start),
            Body => self.close_known(&[Head], &[], start),
            A => self.close_known(&[A], &[Table, Td, Th], start),
            _ => {}
        }
        // A start tag inside a raw-text element means the prepass found no end for it (see
        // `prepass`): it ends here.
        if self.current_tag().is(flags::RAW_TEXT) {
            self.pop_current(start);
        }
        // A heading start tag closes a heading that is the current node.
        if tag.is(flags::HEADING) && self.current_tag().is(flags::HEADING) {
            self.pop_current(start);
        }
        // In quirks mode a table opens inside an open paragraph (WHATWG "in body", start tag
        // "table").
        if tag.is(flags::CLOSES_P) && !(self.quirks && tag == Table) {
            self.close_known(&[P], &[Table, Td, Th, Button, Object], start);
        }
        if !matches!(
            tag,
            Title | Meta | Link | Base | Script | Style | Noscript | Template | Head | Html
        ) {
            self.leave_head(start);
        }
        if tag == Tag::Html && self.open_known[Tag::Html as usize] > 0 {
            return None; // a second <html> only adds attributes in HTML; no new element
        }
        // Void elements have no content; `/>` on other HTML elements is ignored by HTML, but
        // self-closed unknown elements (SVG parts, custom XML) are common and never closed
        // again, so they are treated as empty too. Being leaves, they stay nodes beyond the
        // depth limit: they never deepen the tree.
        let leaf = tag.is(flags::VOID) || (self_closing && tag == Tag::Other);
        if !leaf && self.depth >= MAX_DEPTH {
            self.mark_boundary(tag, start, inner_start);
            self.open_flattened(tag, name_hash);
            return None;
        }
        let id = self.append(
            Node::new(Kind::Element, tag, start, inner_start),
            inner_start - start,
            !leaf,
        );
        if leaf {
            return Some(id);
        }
        self.current = id;
        self.depth += 1;
        self.count_open(tag, name_hash);
        Some(id)
    }

    /// Opens an element the markup implies but does not write, as a zero-width span.
    fn open_implied(&mut self, tag: Tag, at: u32) {
        if self.full() {
            return;
        }
        if self.depth >= MAX_DEPTH {
            self.open_flattened(tag, 0);
            return;
        }
        let id = self.append(Node::new(Kind::Element, tag, at, at), 0, true);
        self.current = id;
        self.depth += 1;
        self.count_open(tag, 0);
    }

    /// Closes `<head>` when it is the current node: body content has begun (WHATWG "in head"
    /// insertion mode, "anything else").
    fn leave_head(&mut self, at: u32) {
        // The count first: after the head, every start tag asks (one load, not a walk to the
        // current element).
        if self.open_known[Tag::Head as usize] > 0 && self.current_tag() == Tag::Head {
            self.pop_current(at);
        }
    }

    /// An end tag at `start..end`.
    ///
    /// An end tag that closes a flattened element ([`MAX_DEPTH`]) is in no token, as its start
    /// tag is not ([`Closed::Flattened`]: the tokenizer keeps it neither as an element's nor as
    /// a stray), so DANAg, which counts the code characters of each line from the tokens, does
    /// not count the tags of elements nested beyond the limit.
    #[inline(always)]
    pub fn end_tag(&mut self, tag: Tag, name_hash: u64, start: u32, end: u32) -> Closed {
        // Most end tags close the current element: that is settled here, inlined into the
        // tokenizer (the general search below cost a call and its set-up per end tag).
        let id = self.current;
        if id != ROOT
            && self.flattened.is_empty()
            && self.tree.nodes[id as usize].tag == tag
            && !matches!(tag, Tag::Html | Tag::Body)
            && (tag != Tag::Other || self.other_hashes.last() == Some(&name_hash))
        {
            self.pop_node(start, end);
            return Closed::Node(id);
        }
        self.end_tag_search(tag, name_hash, start, end)
    }

    /// [`Builder::end_tag`] when the end tag does not close the current element.
    #[inline(never)]
    fn end_tag_search(&mut self, tag: Tag, name_hash: u64, start: u32, end: u32) -> Closed {
        // </html> and </body> do not close anything in practice: content after them still goes
        // into the body (WHATWG "after body" insertion mode reprocesses it there).
        if matches!(tag, Tag::Html | Tag::Body) || !self.is_open(tag, name_hash) {
            return Closed::Nothing;
        }
        // The matching element is open (the counts say so); pop up to it. Every element is
        // popped once, so all end tags together cost O(number of elements): the search through
        // the flattened ones passes over only those it then closes.
        if !self.flattened.is_empty() {
            if let Some(at) = self.flattened_match(tag, name_hash) {
                while self.flattened.len() > at {
                    self.pop_flattened();
                }
                self.mark_boundary(tag, start, end);
                return Closed::Flattened;
            }
            self.close_flattened();
        }
        while self.current != ROOT {
            let id = self.current;
            let node_tag = self.tree.nodes[id as usize].tag;
            let same_name = tag != Tag::Other || self.other_hashes.last() == Some(&name_hash);
            if node_tag == tag && same_name {
                self.pop(start, end);
                return Closed::Node(id);
            }
            self.pop(start, start);
        }
        Closed::Nothing
    }

    /// Where the innermost flattened element named `tag` / `name_hash` is on the stack, if
    /// one is.
    fn flattened_match(&self, tag: Tag, name_hash: u64) -> Option<usize> {
        // The unknown ones' hashes are the last of `other_hashes`, in the same order.
        let mut hashes = self.other_hashes.iter().rev();
        for (i, &(t, _)) in self.flattened.iter().enumerate().rev() {
            if t == Tag::Other {
                let hash = hashes.next();
                if tag == Tag::Other && hash == Some(&name_hash) {
                    return Some(i);
                }
            } else if t == tag {
                return Some(i);
            }
        }
        None
    }

    /// A text run at `start..end`; `blank` when it is only white space.
    pub fn text(&mut self, start: u32, end: u32, blank: bool) -> Option<NodeId> {
        if start >= end || self.full() {
            return None;
        }
        // Text directly inside <head> that is not white space starts the body in HTML; pith
        // closes the head so the text is not taken for metadata.
        if !blank {
            self.leave_head(start);
            // (A script body counts too: a marker after it only stands at a block's tag, which
            // is a boundary anyway.)
            self.text_since_boundary = true;
        }
        Some(self.append(Node::new(Kind::Text, Tag::Other, start, end), 0, false))
    }

    /// A block element's start or end tag (`start..end`) beyond [`MAX_DEPTH`], where it gets
    /// no node: when text came since the last such boundary, a leaf `div` spanning the tag is
    /// appended in its place, so that rendering still breaks the line there (paragraphs nested
    /// beyond the limit stay paragraphs). Tags with no text between them (the million
    /// wrappers of a hostile nesting) leave one marker at most, so markers are bounded by the
    /// text runs, not by the tags.
    fn mark_boundary(&mut self, tag: Tag, start: u32, end: u32) {
        if !tag.is_boundary() || !self.text_since_boundary || self.full() {
            return;
        }
        self.text_since_boundary = false;
        self.append(
            Node::new(Kind::Element, Tag::Div, start, end),
            end - start,
            false,
        );
    }

    /// Whether elements are nested to [`MAX_DEPTH`], so that a start tag of a non-void element
    /// gets no node (the tokenizer treats a block's tag there as a boundary all the same).
    pub fn at_depth_limit(&self) -> bool {
        self.depth >= MAX_DEPTH
    }

    /// Closes everything still open at the end of input and returns the tree.
    pub fn finish(mut self, len: u32) -> Tree<'arena> {
        self.close_all(len);
        let root = &mut self.tree.nodes[ROOT as usize];
        root.end = len;
        root.next_sibling = NONE;
        self.tree.long_end_tags.sort_unstable();
        self.tree
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quirks_mode_follows_the_doctype() {
        assert!(quirks_mode(b"<html><p>no doctype"));
        assert!(quirks_mode(b""));
        assert!(quirks_mode(b"<!doctyp"));
        assert!(!quirks_mode(b"<!DOCTYPE html><p>"));
        assert!(!quirks_mode(b"\n<!-- c --><a><!doctype HTML>"));
        let t401 = b"<!DocType HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\">";
        assert!(quirks_mode(t401));
        let with_system = b"<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\" \
                            \"http://www.w3.org/TR/html4/loose.dtd\">";
        assert!(!quirks_mode(with_system));
        assert!(quirks_mode(
            b"<!x><! doctype><!DOCTYPE HTML PUBLIC \"-//IETF//DTD HTML 2.0//EN\">"
        ));
        // Only the first 4096 bytes are looked at.
        let late = format!("{}<!DOCTYPE html>", " ".repeat(4090));
        assert!(quirks_mode(late.as_bytes()));
    }
}
