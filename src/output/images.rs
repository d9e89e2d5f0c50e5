//! The images of the main content (`--images`): each `<img>` the extracted text surrounds,
//! with its source URL, alt text and the caption of its `<figure>`, in document order.
//!
//! The selection holds text nodes only, so an image belongs to the main content by where it
//! sits among them. It is kept when
//! - its `<figure>`, or the `<p>` it sits in, holds a selected text node (its caption or its
//!   paragraph was kept), or
//! - selected text comes both before and after it, and the visible text left out between
//!   those two selected runs (its own figure's text aside) is at most [`MAX_GAP_BYTES`]: it
//!   sits inside the kept text, not at its edge nor in a sidebar or teaser between two kept
//!   parts.
//!
//! Its source is the first usable of the lazy-load attributes (`data-src`, `data-lazy-src`,
//! `data-original`: a page that writes one keeps a placeholder in `src` for its loader script
//! to replace), `src`, the largest candidate of `srcset` / `data-srcset`, and the first
//! `srcset` of a `<source>` of the enclosing `<picture>`. A `data:` URI is never usable (an
//! inline placeholder, or a picture of up to megabytes that is no URL), nor one longer than
//! [`MAX_SRC_BYTES`]. Images declared 1 pixel wide or high (tracking pixels, spacers) or at
//! most [`MAX_ICON_PIXELS`] both ways (icons) are left out, and so are images inside hidden
//! elements (`<template>`...). Sources are resolved against the
//! page's base URL; an image whose source was already listed is listed once.
//!
//! One forward pass over the nodes with stacks of the open figures, paragraphs, captions and
//! pictures: no recursion, no walk up the tree; at most [`MAX_CANDIDATES`] images looked at
//! and [`MAX_IMAGES`] listed a page.

use std::ops::Range;

use crate::html::entities;
use crate::html::tags::{Tag, flags};
use crate::html::tree::{Kind, NONE, NodeId, context};
use crate::html::{Document, Selection, clean_inline};

/// The most images listed for one page. A long photo story or gallery keeps tens of images;
/// a page with hundreds inside its main text is a catalogue or a hostile page, whose list
/// would outweigh its text.
pub const MAX_IMAGES: usize = 200;

/// The most visible text (bytes, as written) left out between the two selected runs around
/// an image for it to count as inside the main content. A credit or short caption the
/// algorithm dropped beside a photo (`Photo: Reuters`, one line of caption) is under it; a
/// menu, a teaser list or a comment between two kept parts is longer.
pub(crate) const MAX_GAP_BYTES: u32 = 160;

/// The longest source kept, in bytes. Real image URLs, signed CDN ones included, are under
/// 2 KB; a longer one is a data payload or a hostile page.
pub(crate) const MAX_SRC_BYTES: usize = 4096;

/// One image of the main content.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Image {
    /// Its URL, resolved against the page's base URL when that is known (else as written,
    /// character references decoded).
    pub src: String,
    /// Its `alt` text, else its `title`, white space collapsed; `None` when both are empty.
    pub alt: Option<String>,
    /// The text of its `<figure>`'s first `<figcaption>`, white space collapsed; `None`
    /// outside a figure or without a caption.
    pub caption: Option<String>,
}

/// An image with where it sits, for the Markdown renderer.
#[derive(Clone, Debug)]
pub(crate) struct Placed {
    /// The image.
    pub image: Image,
    /// Its `<img>` element.
    pub node: NodeId,
    /// The caption is written after this image: it is the last listed image of its figure.
    pub caption_here: bool,
}

/// The images of a page's main content, for the Markdown renderer: the images, and the node
/// ranges of the captions they carry (Markdown writes a caption with its image, so its text
/// is not written a second time where it stands).
#[derive(Clone, Debug, Default)]
pub(crate) struct Found {
    pub placed: Vec<Placed>,
    /// Node ranges of the `<figcaption>`s written with an image, in document order.
    pub captions: Vec<Range<usize>>,
}

/// The images of the main content `sel` of `doc`, sources resolved against `base`.
#[cfg(test)]
pub(crate) fn images(doc: &Document<'_>, sel: &Selection, base: Option<&url::Url>) -> Vec<Image> {
    find(doc, sel, base)
        .placed
        .into_iter()
        .map(|p| p.image)
        .collect()
}

/// An open `<figure>` or `<p>` (a stack entry: as many as the tree is deep).
struct Open {
    /// The end of its subtree (node index).
    end: usize,
    /// It holds a selected text node (its descendants' included once they are closed).
    selected: bool,
    /// A figure (else a paragraph).
    figure: bool,
    /// For a figure: the left-out text since the last selected text when it opened
    /// ([`NO_GAP`] when no text was selected before it).
    gap_before: u32,
    /// Where its final state goes in [`Closed`] when a candidate needs it, or [`NONE`].
    slot: NodeId,
    /// For a figure: its first `<figcaption>`'s node range and text (raw, concatenated).
    caption: Option<Range<usize>>,
    caption_text: String,
    /// The last text node added to `caption_text`.
    caption_last: NodeId,
}

/// What a candidate needs of its figure or paragraph, kept only for those holding a
/// candidate (a page of a million paragraphs keeps none).
#[derive(Default)]
struct Closed {
    /// The end of its subtree (node index).
    end: usize,
    /// It holds a selected text node.
    selected: bool,
    /// The running count of left-out text when it closed.
    unsel_at_end: u32,
    /// Its caption's node range and text.
    caption: Option<Range<usize>>,
    caption_text: String,
}

/// An image candidate: 28 bytes, its strings read again only when it is kept.
struct Candidate {
    /// The `<img>`.
    node: NodeId,
    /// The element whose attribute gives the source: the image, or a `<source>`.
    src_node: NodeId,
    /// Its nearest unit and nearest figure (slots in [`Closed`], [`NONE`] when none).
    unit: NodeId,
    figure: NodeId,
    /// Left-out text since the last selected text ([`NO_GAP`]: none was selected before).
    gap_before: u32,
    /// The running count of left-out text where it stands.
    mark: u32,
    /// Left-out text until the next selected text ([`NO_GAP`]: none came).
    gap_after: u32,
}

/// The most image candidates (visible `<img>` elements with a usable source) one page's pass
/// holds: 20 times [`MAX_IMAGES`], so a page whose main text has its 200 images behind a
/// catalogue of 3,800 more still lists them. The images after it are not looked at: the pass
/// holds at most about 0.5 MB of candidates however many images a page has.
pub(crate) const MAX_CANDIDATES: usize = 20 * MAX_IMAGES;

/// "No selected text on that side."
const NO_GAP: u32 = u32::MAX;

/// The image's source attributes in the order they are tried (see the module's text).
const LAZY_SRC: [&str; 3] = ["data-src", "data-lazy-src", "data-original"];

/// The slot in `closed` that open unit `at` writes its final state to, made on first use.
fn slot(open: &mut [Open], at: Option<usize>, closed: &mut Vec<Closed>) -> NodeId {
    let Some(o) = at.and_then(|i| open.get_mut(i)) else {
        return NONE;
    };
    if o.slot == NONE {
        o.slot = closed.len() as NodeId;
        closed.push(Closed {
            end: o.end,
            ..Closed::default()
        });
    }
    o.slot
}

/// Closes the innermost open unit: its selection goes to the enclosing one, and its final
/// state to its slot, if it has one.
fn close(open: &mut Vec<Open>, figures: &mut Vec<usize>, closed: &mut [Closed], unsel: u32) {
    let Some(o) = open.pop() else {
        return;
    };
    if o.figure {
        figures.pop();
    }
    if o.selected
        && let Some(parent) = open.last_mut()
    {
        parent.selected = true;
    }
    if let Some(c) = closed.get_mut(o.slot as usize) {
        c.selected = o.selected;
        c.unsel_at_end = unsel;
        c.caption = o.caption;
        c.caption_text = o.caption_text;
    }
}

/// The images of the main content, with where they sit.
pub(crate) fn find(doc: &Document<'_>, sel: &Selection, base: Option<&url::Url>) -> Found {
    let nodes = &doc.tree.nodes;
    // Open units, nearest last; positions in `open` of the open figures.
    let mut open: Vec<Open> = Vec::new();
    let mut figures: Vec<usize> = Vec::new();
    let mut closed: Vec<Closed> = Vec::new();
    // Open figcaptions: their end and the position in `open` of the figure whose caption
    // they are (or `usize::MAX`).
    let mut captions: Vec<(usize, usize)> = Vec::new();
    // Open pictures: their end and their first `<source>` with a srcset (or NONE).
    let mut pictures: Vec<(usize, NodeId)> = Vec::new();
    let mut cands: Vec<Candidate> = Vec::new();
    // Candidates before this one are resolved (their gap after is known).
    let mut resolved = 0usize;
    // Running count of left-out visible text; its value at the last selected text.
    let mut unsel: u32 = 0;
    let mut unsel_at_sel: Option<u32> = None;
    let mut next_sel = 0usize;
    for (i, node) in nodes.iter().enumerate() {
        while open.last().is_some_and(|o| i >= o.end) {
            close(&mut open, &mut figures, &mut closed, unsel);
        }
        while captions.last().is_some_and(|&(end, _)| i >= end) {
            captions.pop();
        }
        while pictures.last().is_some_and(|&(end, _)| i >= end) {
            pictures.pop();
        }
        let id = i as NodeId;
        match node.kind {
            Kind::Element if node.context() & context::HIDDEN == 0 => match node.tag {
                Tag::Figure | Tag::P => {
                    let figure = node.tag == Tag::Figure;
                    if figure {
                        figures.push(open.len());
                    }
                    open.push(Open {
                        end: doc.tree.subtree(id).end,
                        selected: false,
                        figure,
                        gap_before: unsel_at_sel.map_or(NO_GAP, |at| unsel - at),
                        slot: NONE,
                        caption: None,
                        caption_text: String::new(),
                        caption_last: NONE,
                    });
                }
                Tag::Figcaption => {
                    let range = doc.tree.subtree(id);
                    let end = range.end;
                    let fig = match figures.last() {
                        Some(&f) if open.get(f).is_some_and(|o| o.caption.is_none()) => {
                            if let Some(o) = open.get_mut(f) {
                                o.caption = Some(range);
                            }
                            f
                        }
                        _ => usize::MAX,
                    };
                    captions.push((end, fig));
                }
                Tag::Picture => pictures.push((doc.tree.subtree(id).end, NONE)),
                Tag::Source => {
                    if let Some(p) = pictures.last_mut()
                        && p.1 == NONE
                        && ["srcset", "data-srcset"]
                            .iter()
                            .any(|a| doc.attr(id, a).is_some_and(|v| usable(best_of_srcset(v))))
                    {
                        p.1 = id;
                    }
                }
                Tag::Img if cands.len() < MAX_CANDIDATES => {
                    let picture_source = pictures.last().map_or(NONE, |p| p.1);
                    let Some(src_node) = source_node(doc, id, picture_source) else {
                        continue;
                    };
                    let fig_at = figures.last().copied();
                    let gap_before = match fig_at.and_then(|f| open.get(f)) {
                        None => unsel_at_sel.map_or(NO_GAP, |at| unsel - at),
                        Some(f) => f.gap_before,
                    };
                    let unit_at = open.len().checked_sub(1);
                    let unit = slot(&mut open, unit_at, &mut closed);
                    let figure = slot(&mut open, fig_at, &mut closed);
                    cands.push(Candidate {
                        node: id,
                        src_node,
                        unit,
                        figure,
                        gap_before,
                        mark: unsel,
                        gap_after: NO_GAP,
                    });
                }
                _ => {}
            },
            Kind::Text if node.context() & context::HIDDEN == 0 => {
                let raw = doc.raw_text(id);
                if let Some(&(_, fig)) = captions.last()
                    && let Some(f) = open.get_mut(fig)
                {
                    if caption_gap(doc, f.caption_last, id, &f.caption_text, raw) {
                        f.caption_text.push(' ');
                    }
                    f.caption_text.push_str(raw);
                    f.caption_last = id;
                }
                while sel.nodes.get(next_sel).is_some_and(|&s| s < id) {
                    next_sel += 1;
                }
                let selected = sel.nodes.get(next_sel) == Some(&id);
                let words = raw.trim_matches(|c: char| c.is_ascii_whitespace());
                if words.is_empty() {
                    continue;
                }
                if selected {
                    if let Some(o) = open.last_mut() {
                        o.selected = true;
                    }
                    // The candidates before this text, but those of a figure it is in (the
                    // figures of the others are closed: their state is in `closed`).
                    while let Some(c) = cands.get_mut(resolved) {
                        let mark = match closed.get(c.figure as usize) {
                            None => c.mark,
                            Some(f) if i < f.end => break,
                            Some(f) => f.unsel_at_end,
                        };
                        c.gap_after = unsel - mark;
                        resolved += 1;
                    }
                    unsel_at_sel = Some(unsel);
                } else {
                    let n = u32::try_from(words.len()).unwrap_or(u32::MAX);
                    unsel = unsel.saturating_add(n);
                }
            }
            _ => {}
        }
    }
    // Units still open at the end close too.
    while !open.is_empty() {
        close(&mut open, &mut figures, &mut closed, unsel);
    }
    keep(doc, base, &closed, &cands)
}

/// Whether a caption's text `next` (node `id`) after `text` (its last node `last`) needs a
/// space the markup does not write: when a block ends or starts between them
/// (`<p>Reuters.</p>Photo`), or when their elements are siblings, neither inside the other. A
/// caption and its credit are often two `<span>`s laid out apart by a style sheet
/// (`...sought treatment</span><span>Credit: EPA`); markup inside a word
/// (`Wiki<i>pedia</i>`) puts one text inside the other's element and stays joined.
fn caption_gap(doc: &Document<'_>, last: NodeId, id: NodeId, text: &str, next: &str) -> bool {
    if last == NONE
        || text.ends_with(|c: char| c.is_whitespace())
        || next.starts_with(|c: char| c.is_whitespace())
    {
        return false;
    }
    let inside = |parent: NodeId, x: NodeId| doc.tree.subtree(parent).contains(&(x as usize));
    let block = |x: NodeId| doc.tree.node(x).tag.is(flags::BLOCK);
    // The elements that end between the two texts: `last`'s ancestors that do not hold `id`.
    // Each element of the caption ends once, so over a caption these walks are linear.
    let mut up = doc.tree.node(last).parent;
    while up != NONE && !inside(up, id) {
        if block(up) {
            return true;
        }
        up = doc.tree.node(up).parent;
    }
    // The elements that start between them: the nodes between the two, in document order.
    if (last + 1..id).any(|x| doc.tree.node(x).kind == Kind::Element && block(x)) {
        return true;
    }
    let (a, b) = (doc.tree.node(last).parent, doc.tree.node(id).parent);
    if a == NONE || b == NONE || a == b {
        return false;
    }
    !inside(a, id) && !inside(b, last)
}

/// The kept candidates as images, at most [`MAX_IMAGES`], each source once.
fn keep(
    doc: &Document<'_>,
    base: Option<&url::Url>,
    units: &[Closed],
    cands: &[Candidate],
) -> Found {
    let holds_selected = |u: NodeId| u != NONE && units.get(u as usize).is_some_and(|u| u.selected);
    let mut found = Found::default();
    let mut seen = std::collections::HashSet::new();
    // The last listed image of each figure writes its caption (figure unit id -> index).
    let mut last_of_figure: Vec<(NodeId, usize)> = Vec::new();
    for c in cands {
        if found.placed.len() >= MAX_IMAGES {
            break;
        }
        let inside = c.gap_before != NO_GAP
            && c.gap_after != NO_GAP
            && c.gap_before.saturating_add(c.gap_after) <= MAX_GAP_BYTES;
        if !(inside || holds_selected(c.unit) || holds_selected(c.figure)) {
            continue;
        }
        let Some(src) = source_of(doc, c.node, c.src_node) else {
            continue;
        };
        let src = resolve(&src, base);
        if !seen.insert(src.clone()) {
            continue;
        }
        let attr_text = |name: &str| {
            doc.attr(c.node, name)
                .map(clean_inline)
                .filter(|t| !t.is_empty())
        };
        let alt = attr_text("alt").or_else(|| attr_text("title"));
        let caption = units
            .get(c.figure as usize)
            .map(|f| clean_inline(&f.caption_text))
            .filter(|t| !t.is_empty());
        if caption.is_some() {
            match last_of_figure.last_mut() {
                Some(last) if last.0 == c.figure => last.1 = found.placed.len(),
                _ => last_of_figure.push((c.figure, found.placed.len())),
            }
        }
        found.placed.push(Placed {
            image: Image { src, alt, caption },
            node: c.node,
            caption_here: false,
        });
    }
    for (figure, at) in last_of_figure {
        if let Some(p) = found.placed.get_mut(at) {
            p.caption_here = true;
        }
        if let Some(range) = units.get(figure as usize).and_then(|f| f.caption.clone()) {
            found.captions.push(range);
        }
    }
    found.captions.sort_by_key(|r| r.start);
    found
}

/// The element whose attribute gives image `img`'s source: itself when one of its source
/// attributes is usable, else the enclosing picture's `<source>`. `None` for an image without
/// a usable source, or declared too small to be a picture ([`is_decoration`]).
fn source_node(doc: &Document<'_>, img: NodeId, picture_source: NodeId) -> Option<NodeId> {
    let mut own = false;
    let (mut width, mut height) = (None, None);
    for (name, value) in doc.attributes(img) {
        let is = |n: &str| name.eq_ignore_ascii_case(n);
        if is("width") {
            width = width.or(Some(pixels(value)));
        } else if is("height") {
            height = height.or(Some(pixels(value)));
        } else if !own && (is("src") || LAZY_SRC.iter().any(|n| is(n))) {
            own = usable(value);
        } else if !own && (is("srcset") || is("data-srcset")) {
            own = usable(best_of_srcset(value));
        }
    }
    if is_decoration(width.flatten(), height.flatten()) {
        return None;
    }
    if own {
        return Some(img);
    }
    (picture_source != NONE).then_some(picture_source)
}

/// The most pixels an icon is declared wide and high: a picture of the content is larger
/// than 16 x 16; file-type, print and share icons, flags and emoji drawn as images are not.
pub(crate) const MAX_ICON_PIXELS: u32 = 16;

/// An image declared at most 1 pixel wide or high (a tracking pixel, a spacer), or at most
/// [`MAX_ICON_PIXELS`] both ways (an icon). An image without sizes is no decoration.
fn is_decoration(width: Option<u32>, height: Option<u32>) -> bool {
    let tiny = |d: Option<u32>| d.is_some_and(|d| d <= 1);
    let icon = |d: Option<u32>| d.is_some_and(|d| d <= MAX_ICON_PIXELS);
    tiny(width) || tiny(height) || (icon(width) && icon(height))
}

/// A `width` or `height` in pixels (`16`, `16px`); `None` for anything else (`100%`, `auto`).
fn pixels(value: &str) -> Option<u32> {
    let v = value.trim();
    v.strip_suffix("px").unwrap_or(v).trim().parse().ok()
}

/// The source of an image, character references decoded (see the module's text for the
/// order): from `src_node`, the image itself or a picture's `<source>`.
fn source_of(doc: &Document<'_>, img: NodeId, src_node: NodeId) -> Option<String> {
    let attr = |name: &str| doc.attr(src_node, name).filter(|v| usable(v));
    let srcset = |name: &str| {
        doc.attr(src_node, name)
            .map(best_of_srcset)
            .filter(|v| usable(v))
    };
    let raw = if src_node == img {
        LAZY_SRC
            .iter()
            .find_map(|n| attr(n))
            .or_else(|| attr("src"))
            .or_else(|| srcset("srcset"))
            .or_else(|| srcset("data-srcset"))
    } else {
        srcset("srcset").or_else(|| srcset("data-srcset"))
    }?;
    let mut out = String::new();
    entities::decode_into(raw.trim(), &mut out);
    Some(out)
}

/// A source worth listing: not empty, not a `data:` URI, not longer than [`MAX_SRC_BYTES`].
fn usable(src: &str) -> bool {
    let s = src.trim();
    !s.is_empty()
        && s.len() <= MAX_SRC_BYTES
        && !s
            .get(..5)
            .is_some_and(|scheme| scheme.eq_ignore_ascii_case("data:"))
}

/// The largest candidate of a `srcset` (by its `w` descriptor, else its `x` density; a
/// candidate without one is `1x`), the first of equals; empty when it has none. URLs end at
/// white space (a comma ending one belongs to the list), descriptors at a comma.
fn best_of_srcset(srcset: &str) -> &str {
    let b = srcset.as_bytes();
    let mut i = 0;
    let mut best: (f64, &str) = (f64::NEG_INFINITY, "");
    while i < b.len() {
        while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b',') {
            i += 1;
        }
        let start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() {
            i += 1;
        }
        let mut url = &srcset[start..i];
        let mut descriptor = "";
        if url.ends_with(',') {
            url = url.trim_end_matches(',');
        } else {
            let d = i;
            while i < b.len() && b[i] != b',' {
                i += 1;
            }
            descriptor = srcset[d..i].trim();
        }
        if url.is_empty() {
            continue;
        }
        let size = descriptor
            .strip_suffix(['w', 'W'])
            .and_then(|w| w.parse::<f64>().ok())
            .map(|w| w * 1e6)
            .or_else(|| {
                descriptor
                    .strip_suffix(['x', 'X'])
                    .and_then(|x| x.parse::<f64>().ok())
            })
            .unwrap_or(1.0);
        if size > best.0 {
            best = (size, url);
        }
    }
    best.1
}

/// `src` resolved against `base`; as written when there is none or it does not resolve.
fn resolve(src: &str, base: Option<&url::Url>) -> String {
    match base.and_then(|b| b.join(src).ok()) {
        Some(u) => u.to_string(),
        None => src.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bumpalo::Bump;

    /// The images of `html` when `selected` says which text nodes (by their trimmed text)
    /// were kept.
    fn images_of(html: &str, selected: &[&str], base: Option<&str>) -> Vec<Image> {
        let arena = Bump::new();
        let doc = Document::parse(html, &arena);
        let nodes = (0..doc.tree.nodes.len() as NodeId)
            .filter(|&i| {
                doc.tree.node(i).kind == Kind::Text && selected.contains(&doc.raw_text(i).trim())
            })
            .collect();
        let base = base.and_then(|b| url::Url::parse(b).ok());
        images(&doc, &Selection { nodes }, base.as_ref())
    }

    fn srcs(images: &[Image]) -> Vec<&str> {
        images.iter().map(|i| i.src.as_str()).collect()
    }

    #[test]
    fn images_between_kept_text_are_kept_and_those_outside_are_not() {
        let teasers = "Related stories you may like to read next. ".repeat(4);
        let html = format!(
            "<header><img src=/logo.png alt=Logo></header><article><p>One.</p>\
            <img src=a.jpg alt='A &amp; B'><p>Two.</p><div><img src=b.jpg title=' Bee '>\
            <span>Photo: X</span></div><p>Three.</p></article>\
            <aside><p>{teasers}</p><img src=c.jpg></aside><p>Four.</p>"
        );
        let got = images_of(
            &html,
            &["One.", "Two.", "Three."],
            Some("https://ex.org/a/page"),
        );
        assert_eq!(
            srcs(&got),
            ["https://ex.org/a/a.jpg", "https://ex.org/a/b.jpg"]
        );
        assert_eq!(got[0].alt.as_deref(), Some("A & B"));
        assert_eq!(got[1].alt.as_deref(), Some("Bee"));
        // A long left-out run between two kept parts: the image in it is not content.
        let got = images_of(&html, &["Three.", "Four."], None);
        assert!(got.is_empty(), "{got:?}");
    }

    #[test]
    fn figures_keep_their_caption_and_lazy_sources_win() {
        let html = "<p>Text.</p><figure><img src=data:image/gif;base64,R0lGOD \
            data-src='/real.jpg?a=1&amp;b=2' alt=''><figcaption><span> The <b>cap</b>tion</span><span>Credit</span> \
            </figcaption></figure><figure><picture><source srcset='p.webp 1x, p2.webp 2x'>\
            <img alt=Pic></picture></figure><p>More.</p><figure><img src=z.jpg>\
            <figcaption>Kept caption</figcaption></figure><img src=px.gif width=1>\
            <img src=pdf.gif width=16 height='16px'><p>Last.</p>";
        let got = images_of(html, &["Text.", "More.", "Kept caption", "Last."], None);
        assert_eq!(srcs(&got), ["/real.jpg?a=1&b=2", "p2.webp", "z.jpg"]);
        assert_eq!(got[0].caption.as_deref(), Some("The caption Credit"));
        assert_eq!(got[0].alt, None);
        assert_eq!(got[1].alt.as_deref(), Some("Pic"));
        assert_eq!(got[2].caption.as_deref(), Some("Kept caption"));
    }

    #[test]
    fn a_block_inside_a_caption_separates_its_words() {
        // A paragraph ends, or a block starts, between two texts of the caption: a space,
        // though the markup writes none; words split by inline markup stay joined.
        let html = "<p>Text.</p><figure><img src=a.jpg><figcaption><p>Vote count.</p>Photo: \
            <b>AP</b><figcaption>Inner</figcaption>Wiki<i>pedia</i></figcaption></figure>";
        let got = images_of(html, &["Text.", "Vote count."], None);
        assert_eq!(
            got[0].caption.as_deref(),
            Some("Vote count. Photo: AP Wikipedia")
        );
    }

    #[test]
    fn srcset_gives_its_largest_candidate() {
        assert_eq!(
            best_of_srcset("a.jpg 320w, b.jpg 1024w, c.jpg 640w"),
            "b.jpg"
        );
        assert_eq!(best_of_srcset("a.jpg, b.jpg 2x"), "b.jpg");
        assert_eq!(best_of_srcset("only.jpg"), "only.jpg");
        assert_eq!(best_of_srcset("x,y.jpg 2x"), "x,y.jpg");
        assert_eq!(best_of_srcset(" , "), "");
    }

    #[test]
    fn data_uris_and_empty_sources_are_not_images() {
        let big = format!(
            "<p>A.</p><img src='data:image/png;base64,{}'><img src=''><p>B.</p>",
            "A".repeat(1 << 20)
        );
        assert!(images_of(&big, &["A.", "B."], None).is_empty());
    }

    #[test]
    fn many_images_are_capped() {
        let html = format!(
            "<p>A.</p>{}<p>B.</p>",
            (0..1000)
                .map(|i| format!("<img src={i}.jpg>"))
                .collect::<String>()
        );
        assert_eq!(images_of(&html, &["A.", "B."], None).len(), MAX_IMAGES);
    }
}
