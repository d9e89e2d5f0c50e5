//! Markdown: the selection with its structure: headings (`#`), list items (`-`, `1.`), block
//! quotes (`>`), code blocks (fenced), tables (GitHub pipe tables), emphasis (`*`, `**`),
//! inline code and, with `--links`, links as `[text](url)`. Paragraphs are separated by blank
//! lines; list items and table rows follow each other directly.
//!
//! One forward pass over the nodes gives each node its block (the nearest block-level
//! ancestor) and that block's kind; one pass over the tokens then writes the selected text,
//! opening a new line whenever the block changes. Nothing walks up the tree per text node.

use crate::html::Selection;
use crate::html::entities;
use crate::html::tags::{Tag, flags};
use crate::html::tree::{Kind, NONE, NodeId, context};
use crate::html::{Document, TokenKind};
use crate::output::images::{Found, Placed};

/// What a block-level element makes of its line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum BlockKind {
    Paragraph,
    Heading(u8),
    Item { ordered: bool, depth: u8 },
    Cell { row: NodeId, header: bool },
    Pre,
}

#[derive(Clone, Copy)]
struct BlockInfo {
    /// The element whose line this is (a table row for cells).
    key: NodeId,
    /// For cells, the cell itself.
    cell: NodeId,
    kind: BlockKind,
    quote: u8,
}

/// A link's target as Markdown writes it: resolved against `base` when there is one (an
/// absolute target stays itself), else as written, spaces escaped.
fn link_target(href: &str, base: Option<&url::Url>) -> String {
    let href = href.trim();
    match base.and_then(|b| b.join(href).ok()) {
        Some(u) => u.to_string(),
        None => href.replace(' ', "%20"),
    }
}

/// Renders the selection as Markdown (`links` keeps link targets, resolved against `base`), with the images of the main content: each as `![alt](src)` where it sits, on
/// a line of its own (inside a list item, table cell or heading, or inside emphasis or a
/// link, in the line), and its figure's caption in italics on the line after the figure's
/// last image, instead of where the caption stands.
pub(crate) fn render_with(
    doc: &Document<'_>,
    sel: &Selection,
    links: bool,
    base: Option<&url::Url>,
    images: &Found,
) -> String {
    let nodes = &doc.tree.nodes;
    let block = block_infos(doc);

    let mut w = Md {
        out: String::new(),
        line_key: None,
        last_kind: None,
        row_cells: 0,
        table_rows: 0,
        cell: NONE,
    };
    // Open inline markers: the element, its closing text, where it ends.
    let mut inline: Vec<(NodeId, String, u32)> = Vec::new();
    let mut next = 0usize;
    let mut decoded = String::new();
    // A block boundary since the last text: inside a table cell, where blocks share one line,
    // it separates words as white space would.
    let mut block_sep = false;
    // The last thing written is an opening marker (no space goes after it).
    let mut marker_opened = false;
    // Cursors into the images and into the captions written with them.
    let mut next_image = 0usize;
    let mut next_caption = 0usize;
    for tok in doc.tokens() {
        let text_left = next < sel.nodes.len();
        if !text_left && next_image >= images.placed.len() {
            break;
        }
        if tok.kind != TokenKind::Text
            && tok.node != NONE
            && nodes[tok.node as usize].tag.is(flags::BLOCK)
        {
            block_sep = true;
        }
        // Close inline markers of elements that ended before this token.
        while inline.last().is_some_and(|&(_, _, end)| end <= tok.start) {
            if let Some((_, close, _)) = inline.pop() {
                w.out.push_str(&close);
            }
        }
        match tok.kind {
            TokenKind::StartTag => {
                if let Some(p) = images.placed.get(next_image)
                    && p.node == tok.node
                {
                    next_image += 1;
                    let info = block[tok.node as usize];
                    let in_line = !inline.is_empty()
                        || matches!(
                            info.kind,
                            BlockKind::Item { .. } | BlockKind::Cell { .. } | BlockKind::Heading(_)
                        );
                    w.image(p, &info, in_line);
                    block_sep = false;
                    marker_opened = false;
                    continue;
                }
                if !text_left {
                    continue;
                }
                let node = &nodes[tok.node as usize];
                let range = doc.tree.subtree(tok.node);
                let holds_selected = range.contains(&(sel.nodes[next] as usize));
                if !holds_selected {
                    continue;
                }
                if let Some((open, close)) = inline_marker(doc, tok.node, links, base) {
                    let fresh = w.start_line(&block[sel.nodes[next] as usize]);
                    if !fresh && block_sep && !w.out.ends_with([' ', '\n']) {
                        w.out.push(' ');
                    }
                    block_sep = false;
                    w.out.push_str(open);
                    marker_opened = true;
                    inline.push((tok.node, close, node.end));
                }
            }
            TokenKind::EndTag => {
                if let Some(pos) = inline.iter().rposition(|&(id, _, _)| id == tok.node) {
                    while inline.len() > pos {
                        if let Some((_, close, _)) = inline.pop() {
                            w.out.push_str(&close);
                        }
                    }
                }
            }
            TokenKind::Text => {
                if sel.nodes.get(next) != Some(&tok.node) {
                    continue;
                }
                next += 1;
                // A caption written with its image is not written again here.
                if in_written_caption(images, &mut next_caption, tok.node) {
                    continue;
                }
                decoded.clear();
                entities::decode_into(doc.raw_text(tok.node), &mut decoded);
                // Soft hyphens are invisible (as in text output).
                if decoded.contains('\u{ad}') {
                    decoded.retain(|c| c != '\u{ad}');
                }
                let info = block[tok.node as usize];
                if info.kind == BlockKind::Pre {
                    w.start_line(&info);
                    w.out.push_str(decoded.trim_end_matches('\n'));
                    continue;
                }
                let words: Vec<&str> = decoded.split_whitespace().collect();
                if words.is_empty() {
                    if !decoded.is_empty()
                        && w.line_key.is_some()
                        && !w.out.ends_with([' ', '\n', '[', '*', '`'])
                    {
                        w.out.push(' ');
                    }
                    continue;
                }
                let fresh = w.start_line(&info);
                let sep = (block_sep && !marker_opened) || decoded.starts_with(char::is_whitespace);
                if !fresh && sep && !w.out.ends_with([' ', '\n']) {
                    w.out.push(' ');
                }
                block_sep = false;
                marker_opened = false;
                w.out.push_str(&escape(&words.join(" ")));
                if decoded.ends_with(char::is_whitespace) {
                    w.out.push(' ');
                }
            }
        }
    }
    for (_, close, _) in inline.into_iter().rev() {
        w.out.push_str(&close);
    }
    w.finish()
}

/// Per node: the block it is written in (its key, cell, kind and quote depth), inherited
/// from its parent in one pass in document order (with each node's list depth and kind).
fn block_infos(doc: &Document<'_>) -> Vec<BlockInfo> {
    let nodes = &doc.tree.nodes;
    let n = nodes.len();
    let mut block = vec![
        BlockInfo {
            key: 0,
            cell: NONE,
            kind: BlockKind::Paragraph,
            quote: 0
        };
        n
    ];
    let mut list: Vec<(u8, bool)> = vec![(0, false); n];
    for i in 1..n {
        let node = &nodes[i];
        let p = node.parent as usize;
        let mut info = block[p];
        let (mut depth, mut ordered) = list[p];
        if node.kind == Kind::Element {
            match node.tag {
                Tag::Ul | Tag::Ol | Tag::Menu | Tag::Dir => {
                    depth = depth.saturating_add(1);
                    ordered = node.tag == Tag::Ol;
                }
                Tag::Blockquote => info.quote = info.quote.saturating_add(1),
                _ => {}
            }
            let kind = match node.tag {
                t if t.is(flags::HEADING) => Some(BlockKind::Heading(heading_level(t))),
                Tag::Li | Tag::Dd | Tag::Dt => Some(BlockKind::Item {
                    ordered,
                    depth: depth.max(1),
                }),
                Tag::Td | Tag::Th => {
                    let row = if nodes[p].tag == Tag::Tr {
                        p as NodeId
                    } else {
                        i as NodeId
                    };
                    Some(BlockKind::Cell {
                        row,
                        header: node.tag == Tag::Th,
                    })
                }
                Tag::Pre | Tag::Listing | Tag::Xmp | Tag::Plaintext => Some(BlockKind::Pre),
                // A cell's paragraphs stay in the cell: tables cannot hold blocks.
                _ if node.tag.is(flags::BLOCK)
                    && !matches!(info.kind, BlockKind::Cell { .. } | BlockKind::Pre) =>
                {
                    Some(BlockKind::Paragraph)
                }
                _ => None,
            };
            if let Some(kind) = kind {
                let key = match kind {
                    BlockKind::Cell { row, .. } => row,
                    _ => i as NodeId,
                };
                let cell = if matches!(kind, BlockKind::Cell { .. }) {
                    i as NodeId
                } else {
                    NONE
                };
                info = BlockInfo {
                    key,
                    cell,
                    kind,
                    quote: info.quote,
                };
            }
        }
        block[i] = info;
        list[i] = (depth, ordered);
    }
    block
}

/// The Markdown markers an inline element opens and closes its text with: emphasis, strong,
/// code outside a code block, and a link when `links` (its target resolved against `base`).
fn inline_marker(
    doc: &Document<'_>,
    id: NodeId,
    links: bool,
    base: Option<&url::Url>,
) -> Option<(&'static str, String)> {
    let node = doc.tree.node(id);
    match node.tag {
        Tag::Em | Tag::I | Tag::Cite => Some(("*", "*".into())),
        Tag::Strong | Tag::B => Some(("**", "**".into())),
        Tag::Code if node.context() & context::PRE == 0 => Some(("`", "`".into())),
        Tag::A if links => doc
            .attr(id, "href")
            .map(|h| ("[", format!("]({})", link_target(h, base)))),
        _ => None,
    }
}

/// Whether text node `id` is in a caption already written with its image (the captions'
/// ranges are in document order; `next` is the cursor into them, moved past those that end
/// before `id`).
fn in_written_caption(images: &Found, next: &mut usize, id: NodeId) -> bool {
    while images
        .captions
        .get(*next)
        .is_some_and(|r| r.end <= id as usize)
    {
        *next += 1;
    }
    images
        .captions
        .get(*next)
        .is_some_and(|r| r.contains(&(id as usize)))
}

/// An image's URL as a Markdown link target: the characters that would end it or break it
/// (white space, parentheses, angle brackets) percent-encoded.
fn image_target(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    for c in src.chars() {
        match c {
            ' ' => out.push_str("%20"),
            '(' => out.push_str("%28"),
            ')' => out.push_str("%29"),
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            c if c.is_whitespace() => {}
            c => out.push(c),
        }
    }
    out
}

fn heading_level(t: Tag) -> u8 {
    match t {
        Tag::H1 => 1,
        Tag::H2 => 2,
        Tag::H3 => 3,
        Tag::H4 => 4,
        Tag::H5 => 5,
        _ => 6,
    }
}

/// Escapes the characters that would start Markdown syntax inside text.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '*' | '_' | '`' | '[' | ']' | '|' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

struct Md {
    out: String,
    line_key: Option<NodeId>,
    last_kind: Option<BlockKind>,
    row_cells: usize,
    table_rows: usize,
    cell: NodeId,
}

impl Md {
    /// Makes sure the current line belongs to `info`'s block, opening one if needed. True when
    /// a line (or table cell) was opened.
    fn start_line(&mut self, info: &BlockInfo) -> bool {
        if self.line_key == Some(info.key) {
            if matches!(info.kind, BlockKind::Cell { .. }) && info.cell != self.cell {
                self.out.push_str(" | ");
                self.cell = info.cell;
                self.row_cells += 1;
                return true;
            }
            return false;
        }
        self.end_line();
        let prev = self.last_kind;
        let tight = matches!(
            (prev, info.kind),
            (Some(BlockKind::Item { .. }), BlockKind::Item { .. })
                | (Some(BlockKind::Cell { .. }), BlockKind::Cell { .. })
        );
        if !self.out.is_empty() {
            self.out.push('\n');
            if !tight {
                self.out.push('\n');
            }
        }
        if !matches!(info.kind, BlockKind::Cell { .. }) {
            self.table_rows = 0;
        }
        for _ in 0..info.quote {
            self.out.push_str("> ");
        }
        match info.kind {
            BlockKind::Heading(l) => {
                for _ in 0..l {
                    self.out.push('#');
                }
                self.out.push(' ');
            }
            BlockKind::Item { ordered, depth } => {
                for _ in 1..depth {
                    self.out.push_str("  ");
                }
                self.out.push_str(if ordered { "1. " } else { "- " });
            }
            BlockKind::Cell { .. } => {
                self.out.push_str("| ");
                self.row_cells = 1;
                self.cell = info.cell;
            }
            BlockKind::Pre => self.out.push_str("```\n"),
            BlockKind::Paragraph => {}
        }
        self.line_key = Some(info.key);
        self.last_kind = Some(info.kind);
        true
    }

    /// Writes an image (and its caption, when it is the place for it): in the current line
    /// of `info`'s block when `in_line`, else as a paragraph of its own.
    fn image(&mut self, p: &Placed, info: &BlockInfo, in_line: bool) {
        let md = format!(
            "![{}]({})",
            escape(p.image.alt.as_deref().unwrap_or("")),
            image_target(&p.image.src)
        );
        let caption = p
            .image
            .caption
            .as_deref()
            .filter(|_| p.caption_here)
            .map(|c| format!("*{}*", escape(c)));
        if in_line {
            let fresh = self.start_line(info);
            if !fresh && !self.out.ends_with([' ', '\n', '[', '*', '`']) {
                self.out.push(' ');
            }
            self.out.push_str(&md);
            if let Some(c) = caption {
                self.out.push(' ');
                self.out.push_str(&c);
            }
            self.out.push(' ');
            return;
        }
        if self.line_key.is_some() {
            self.end_line();
        }
        if !self.out.is_empty() {
            self.out.push_str("\n\n");
        }
        let quote = "> ".repeat(usize::from(info.quote));
        self.out.push_str(&quote);
        self.out.push_str(&md);
        if let Some(c) = caption {
            self.out.push('\n');
            self.out.push_str(&quote);
            self.out.push_str(&c);
        }
        self.line_key = None;
        self.last_kind = Some(BlockKind::Paragraph);
    }

    fn end_line(&mut self) {
        while self.out.ends_with(' ') {
            self.out.pop();
        }
        match self.last_kind {
            Some(BlockKind::Cell { .. }) => {
                self.out.push_str(" |");
                self.table_rows += 1;
                if self.table_rows == 1 {
                    // GitHub tables need a delimiter row after the first.
                    self.out.push('\n');
                    self.out.push('|');
                    for _ in 0..self.row_cells.max(1) {
                        self.out.push_str("---|");
                    }
                }
            }
            Some(BlockKind::Pre) => self.out.push_str("\n```"),
            _ => {}
        }
    }

    fn finish(mut self) -> String {
        if self.line_key.is_some() {
            self.end_line();
        }
        if !self.out.is_empty() {
            self.out.push('\n');
        }
        self.out
    }
}
