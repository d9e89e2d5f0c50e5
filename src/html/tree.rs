//! The arena tree: elements and text nodes with byte spans, built from the token stream.
//!
//! Nodes live in one vector in the page's arena, in document order (a node's id is its position),
//! linked by parent / first child / next sibling indices, so walking the tree never recurses and
//! dropping it is one arena reset. The builder applies the parts of HTML's tree construction that
//! change which element text belongs to: implied end tags (p, li, dt/dd, option, tr/td/th,
//! thead/tbody/tfoot, head before body), void elements, case-insensitive names, and end tags
//! that match no open element ignored. It does not reparent misnested formatting elements (the
//! adoption agency algorithm) or foster-parent text out of tables: neither moves text between
//! blocks, which is what extraction cares about.

use bumpalo::Bump;
use bumpalo::collections::Vec as BumpVec;

use super::tags::{Tag, flags};

/// Index of a node in [`Tree::nodes`].
pub type NodeId = u32;

/// "No node" in a link field.
pub const NONE: NodeId = u32::MAX;

/// The root of every tree: a synthetic document node holding the top-level nodes.
pub const ROOT: NodeId = 0;

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Document,
    Element,
    Text,
}

/// One node. Spans are byte offsets into the page text.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    pub kind: Kind,
    /// Element kind ([`Tag::Other`] for unknown names and for text).
    pub tag: Tag,
    pub parent: NodeId,
    pub first_child: NodeId,
    pub last_child: NodeId,
    pub next_sibling: NodeId,
    /// Start of the start tag (element) or of the text.
    pub start: u32,
    /// End of the start tag; for text, equal to `end`.
    pub inner_start: u32,
    /// Start of the end tag, or where the element was implicitly closed.
    pub inner_end: u32,
    /// End of the end tag (or of the text).
    pub end: u32,
    /// Index of the tl node this came from (for attributes and the spelled name).
    pub token: u32,
    /// Context inherited from the ancestors (see [`context`]).
    pub context: u8,
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
    pub nodes: BumpVec<'arena, Node>,
}

impl<'arena> Tree<'arena> {
    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// The children of `id`, in order.
    pub fn children(&self, id: NodeId) -> Children<'_, 'arena> {
        Children {
            tree: self,
            next: self.node(id).first_child,
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

/// The context bits an element of kind `tag` gives its descendants.
fn own_context(tag: Tag, kind: Kind) -> u8 {
    if kind != Kind::Element {
        return 0;
    }
    let f = tag.flags();
    let mut c = 0;
    if f & flags::NO_CONTENT != 0 {
        c |= context::HIDDEN;
    }
    if f & flags::PREFORMATTED != 0 {
        c |= context::PRE;
    }
    if f & flags::HEADING != 0 {
        c |= context::HEADING;
    }
    if tag == Tag::A {
        c |= context::LINK;
    }
    c
}

// The open-element counts are indexed by tag.
const _: () = assert!((Tag::Other as usize) < 128);

/// A start tag as the builder needs it.
pub struct StartTag<'n> {
    pub tag: Tag,
    /// The lower-cased name, for [`Tag::Other`] only.
    pub lower_name: &'n [u8],
    /// Span of the start tag.
    pub start: u32,
    pub inner_start: u32,
    /// Index of the tl node.
    pub token: u32,
    /// Written as `<x/>`.
    pub self_closing: bool,
}

/// Builds a [`Tree`] from tokens given in document order.
pub struct Builder<'arena> {
    tree: Tree<'arena>,
    /// Open elements, innermost last.
    stack: Vec<NodeId>,
    /// How many elements of each known kind are open: an end tag whose kind is not open is
    /// ignored in O(1) instead of searching the stack, which keeps stray end tags on a deeply
    /// nested page linear.
    open_known: [u32; 128],
    /// The same for unknown names, keyed by the lower-cased name.
    open_other: ahash::AHashMap<Box<[u8]>, u32>,
}

impl<'arena> Builder<'arena> {
    pub fn new(arena: &'arena Bump, capacity: usize) -> Self {
        let mut nodes = BumpVec::with_capacity_in(capacity + 1, arena);
        nodes.push(Node {
            kind: Kind::Document,
            tag: Tag::Other,
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
            start: 0,
            inner_start: 0,
            inner_end: 0,
            end: 0,
            token: NONE,
            context: 0,
        });
        Builder {
            tree: Tree { nodes },
            stack: Vec::with_capacity(64),
            open_known: [0; 128],
            open_other: ahash::AHashMap::new(),
        }
    }

    fn current(&self) -> NodeId {
        self.stack.last().copied().unwrap_or(ROOT)
    }

    fn append(&mut self, mut node: Node) -> NodeId {
        let parent = self.current();
        let id = self.tree.nodes.len() as NodeId;
        node.parent = parent;
        let p = &self.tree.nodes[parent as usize];
        node.context = p.context | own_context(p.tag, p.kind);
        let prev_last = self.tree.nodes[parent as usize].last_child;
        if prev_last == NONE {
            self.tree.nodes[parent as usize].first_child = id;
        } else {
            self.tree.nodes[prev_last as usize].next_sibling = id;
        }
        self.tree.nodes[parent as usize].last_child = id;
        self.tree.nodes.push(node);
        id
    }

    fn is_open(&self, tag: Tag, lower_name: &[u8]) -> bool {
        if tag == Tag::Other {
            self.open_other.get(lower_name).is_some_and(|&n| n > 0)
        } else {
            self.open_known[tag as usize] > 0
        }
    }

    /// Pops the innermost element, closing it at `at` (its end tag's start) / `end`.
    fn pop(&mut self, at: u32, end: u32, other_name: Option<&[u8]>) {
        let Some(id) = self.stack.pop() else { return };
        let node = &mut self.tree.nodes[id as usize];
        node.inner_end = at.max(node.inner_start);
        node.end = end.max(node.inner_end);
        let tag = node.tag;
        if tag == Tag::Other {
            if let Some(n) = other_name.and_then(|name| self.open_other.get_mut(name)) {
                *n = n.saturating_sub(1);
            }
        } else {
            let n = &mut self.open_known[tag as usize];
            *n = n.saturating_sub(1);
        }
    }

    /// Closes open elements up to and including the innermost `target`, if one is open and no
    /// element of `boundary` kinds lies above it.
    fn close_known(
        &mut self,
        target: &[Tag],
        boundary: &[Tag],
        at: u32,
        names: &dyn Fn(u32) -> Vec<u8>,
    ) {
        if !target.iter().any(|&t| self.open_known[t as usize] > 0) {
            return;
        }
        // Search is bounded by the boundary kinds (list and table containers), so it stays
        // short in real pages; on hostile ones the open_known count makes it run only when a
        // target is open, and every popped element is popped once.
        let mut depth = None;
        for (i, &id) in self.stack.iter().enumerate().rev() {
            let t = self.tree.nodes[id as usize].tag;
            if target.contains(&t) {
                depth = Some(i);
                break;
            }
            if boundary.contains(&t) {
                return;
            }
        }
        if let Some(d) = depth {
            while self.stack.len() > d {
                let id = self.current();
                let other = (self.tree.nodes[id as usize].tag == Tag::Other)
                    .then(|| names(self.tree.nodes[id as usize].token));
                self.pop(at, at, other.as_deref());
            }
        }
    }

    /// A start tag; `names` gives the lower-cased name of the tl token of an open unknown
    /// element (for bookkeeping when it is implicitly closed).
    pub fn start_tag(&mut self, t: StartTag<'_>, names: &dyn Fn(u32) -> Vec<u8>) -> Option<NodeId> {
        use Tag::*;
        let StartTag {
            tag,
            lower_name,
            start,
            inner_start,
            token,
            self_closing,
        } = t;
        // Implied end tags (WHATWG 13.2.6.4.7, "in body" start tags).
        match tag {
            Li => self.close_known(&[Li], &[Ul, Ol, Menu, Dir, Table], start, names),
            Dt | Dd => self.close_known(&[Dt, Dd], &[Dl, Table], start, names),
            Option => self.close_known(&[Option], &[Select, Optgroup], start, names),
            Optgroup => {
                self.close_known(&[Option], &[Select], start, names);
                self.close_known(&[Optgroup], &[Select], start, names);
            }
            Tr => self.close_known(&[Tr], &[Table, Thead, Tbody, Tfoot], start, names),
            Td | Th => self.close_known(&[Td, Th], &[Tr, Table], start, names),
            Thead | Tbody | Tfoot => {
                self.close_known(&[Thead, Tbody, Tfoot], &[Table], start, names)
            }
            Body => self.close_known(&[Head], &[], start, names),
            A => self.close_known(&[A], &[Table, Td, Th], start, names),
            _ => {}
        }
        if tag.is(flags::HEADING) {
            // A heading start tag closes a heading that is the current node.
            let cur = self.current();
            if self.tree.nodes[cur as usize].tag.is(flags::HEADING) {
                self.pop(start, start, None);
            }
        }
        if tag.is(flags::CLOSES_P) {
            self.close_known(&[P], &[Table, Td, Th, Button, Object], start, names);
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
        let id = self.append(Node {
            kind: Kind::Element,
            tag,
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
            start,
            inner_start,
            inner_end: inner_start,
            end: inner_start,
            token,
            context: 0,
        });
        // Void elements have no content; `/>` on other HTML elements is ignored by HTML, but
        // self-closed unknown elements (SVG parts, custom XML) are common and never closed
        // again, so they are treated as empty too.
        if tag.is(flags::VOID) || (self_closing && tag == Tag::Other) {
            return Some(id);
        }
        self.stack.push(id);
        if tag == Tag::Other {
            *self.open_other.entry(lower_name.into()).or_insert(0) += 1;
        } else {
            self.open_known[tag as usize] += 1;
        }
        Some(id)
    }

    /// Closes `<head>` when it is the current node: body content has begun (WHATWG "in head"
    /// insertion mode, "anything else").
    fn leave_head(&mut self, at: u32) {
        let cur = self.current();
        if self.tree.nodes[cur as usize].tag == Tag::Head {
            self.pop(at, at, None);
        }
    }

    /// An end tag at `start..end`.
    pub fn end_tag(
        &mut self,
        tag: Tag,
        lower_name: &[u8],
        start: u32,
        end: u32,
        names: &dyn Fn(u32) -> Vec<u8>,
    ) -> Option<NodeId> {
        // </html> and </body> do not close anything in practice: content after them still goes
        // into the body (WHATWG "after body" insertion mode reprocesses it there).
        if matches!(tag, Tag::Html | Tag::Body) || !self.is_open(tag, lower_name) {
            return None;
        }
        // The matching element is open (the counts say so); pop up to it. Every element is
        // popped once, so all end tags together cost O(number of elements).
        while let Some(&id) = self.stack.last() {
            let node_tag = self.tree.nodes[id as usize].tag;
            let other = (node_tag == Tag::Other).then(|| names(self.tree.nodes[id as usize].token));
            let matches =
                node_tag == tag && (tag != Tag::Other || other.as_deref() == Some(lower_name));
            if matches {
                self.pop(start, end, other.as_deref());
                return Some(id);
            }
            self.pop(start, start, other.as_deref());
        }
        None
    }

    /// A text run at `start..end`; `blank` when it is only white space.
    pub fn text(&mut self, start: u32, end: u32, blank: bool) -> Option<NodeId> {
        if start >= end {
            return None;
        }
        // Text directly inside <head> that is not white space starts the body in HTML; pith
        // closes the head so the text is not taken for metadata.
        if !blank {
            self.leave_head(start);
        }
        let id = self.append(Node {
            kind: Kind::Text,
            tag: Tag::Other,
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
            start,
            inner_start: end,
            inner_end: end,
            end,
            token: NONE,
            context: 0,
        });
        Some(id)
    }

    /// Closes everything still open at the end of input and returns the tree.
    pub fn finish(mut self, len: u32, names: &dyn Fn(u32) -> Vec<u8>) -> Tree<'arena> {
        while let Some(&id) = self.stack.last() {
            let other = (self.tree.nodes[id as usize].tag == Tag::Other)
                .then(|| names(self.tree.nodes[id as usize].token));
            self.pop(len, len, other.as_deref());
        }
        let root = &mut self.tree.nodes[ROOT as usize];
        root.end = len;
        root.inner_end = len;
        self.tree
    }
}
