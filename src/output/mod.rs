//! Output: renders a [`Selection`] of a [`Document`] as text, markdown, HTML or XML.
//!
//! This module only turns selected text nodes into a body string; the JSON lines framing of
//! whole records is the pipeline's ([`crate::pipeline::json`]).

pub(crate) mod images;
pub(crate) mod markdown;
pub(crate) mod structured;
pub(crate) mod text;

pub use images::Image;

use crate::html::Document;
use crate::html::Selection;
use crate::names::UnknownName;

/// The body format of an extraction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// Plain text: one paragraph per line, white space collapsed, no markup.
    #[default]
    Text,
    /// Markdown: headings, lists, emphasis, links (with `--links`) and tables.
    Markdown,
    /// HTML: the main content's headings, paragraphs, lists, tables, quotes, code, emphasis,
    /// links (with `--links`) and images (with `--images`) as clean elements
    /// (`structured`); a whole document with the metadata in its `<head>` once wrapped
    /// (`structured::html_document`).
    Html,
    /// trafilatura's XML: `<head rend>`, `<p>`, `<list><item>`, `<table><row><cell>`,
    /// `<quote>`, `<code>`, `<ref target>`, `<graphic>` (`structured`); a `<doc>` with the
    /// metadata as attributes once wrapped (`structured::xml_document`).
    Xml,
}

impl Format {
    /// Every format with its names (the first is the one `--help` shows).
    pub const NAMES: &'static [(&'static str, Format)] = &[
        ("text", Format::Text),
        ("markdown", Format::Markdown),
        ("md", Format::Markdown),
        ("html", Format::Html),
        ("xml", Format::Xml),
    ];

    /// A whole document per page, with the page's metadata in it (HTML, XML).
    pub fn is_document(self) -> bool {
        matches!(self, Format::Html | Format::Xml)
    }
}

impl std::str::FromStr for Format {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let found = Format::NAMES.iter().find(|(n, _)| *n == s);
        found
            .map(|&(_, f)| f)
            .ok_or_else(|| UnknownName::new("format", s, &["text", "markdown", "html", "xml"]))
    }
}

/// What the rendering stage reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RenderOptions {
    /// The body format.
    pub format: Format,
    /// Keep link targets in markdown output.
    pub links: bool,
    /// List the images of the main content (`images`): in Markdown as `![alt](src)` where
    /// they sit, with their captions; with any format in `Rendered::images`. Text output
    /// is the same with or without.
    pub images: bool,
}

/// A rendered page: its body and, with [`RenderOptions::images`], the images of its main content.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Rendered {
    /// The body in the requested format.
    pub text: String,
    /// The images, in document order (`None` unless [`RenderOptions::images`]).
    pub images: Option<Vec<Image>>,
}

/// Renders the selected nodes of `doc`, composed to NFC (see `nfc`); links keep their
/// targets as written.
pub fn render(doc: &Document<'_>, selection: &Selection, opts: &RenderOptions) -> String {
    render_at(doc, selection, opts, None)
}

/// [`render`] for a page at `page_url`: Markdown link targets (with `links`) are resolved
/// against the page's `<base href>` (itself resolved against `page_url`), else against
/// `page_url`, as a browser resolves them; a target that does not resolve stays as written.
pub(crate) fn render_at(
    doc: &Document<'_>,
    selection: &Selection,
    opts: &RenderOptions,
    page_url: Option<&str>,
) -> String {
    render_page(doc, selection, opts, page_url).text
}

/// [`render_at`] with the images of the main content when [`RenderOptions::images`] asks for them
/// (their sources resolved as link targets are); without it, nothing more is computed.
pub(crate) fn render_page(
    doc: &Document<'_>,
    selection: &Selection,
    opts: &RenderOptions,
    page_url: Option<&str>,
) -> Rendered {
    let base = if opts.images || (opts.links && opts.format != Format::Text) {
        base_url(doc, page_url)
    } else {
        None
    };
    let found = if opts.images {
        images::find(doc, selection, base.as_ref())
    } else {
        images::Found::default()
    };
    let text = match opts.format {
        Format::Text => {
            // The text writer knows whether a control character can be left to remove.
            let (text, controls) = text::render_marked(doc, selection);
            let text = nfc(text);
            if controls { no_controls(text) } else { text }
        }
        Format::Markdown => {
            let link_base = base.as_ref().filter(|_| opts.links);
            no_controls(nfc(markdown::render_with(
                doc, selection, opts.links, link_base, &found,
            )))
        }
        Format::Html | Format::Xml => {
            let dialect = if opts.format == Format::Html {
                structured::Dialect::Html
            } else {
                structured::Dialect::Xml
            };
            let link_base = base.as_ref().filter(|_| opts.links);
            // The writer drops control characters itself; `no_controls` finds none.
            nfc(structured::render(
                doc, selection, dialect, opts.links, link_base, &found,
            ))
        }
    };
    let images = opts.images.then(|| {
        found
            .placed
            .into_iter()
            .map(|p| Image {
                src: no_controls(p.image.src),
                alt: p.image.alt.map(|a| no_controls(nfc(a))),
                caption: p.image.caption.map(|c| no_controls(nfc(c))),
            })
            .collect()
    });
    Rendered { text, images }
}

/// Whether `b` holds a C0 control byte other than tab and newline. Output has a newline on
/// every line, so no byte search can rule controls out; instead each block of 256 bytes is
/// folded without an early exit, a loop the compiler turns into SIMD compares (16 or 32 bytes
/// an instruction), and the answer is asked once a block. On the output of `auto` over
/// cleaneval the byte-at-a-time `any` was 9% of all instructions, this about 1%.
fn has_banned_control(b: &[u8]) -> bool {
    b.chunks(256).any(|block| {
        block.iter().fold(0u8, |acc, &c| {
            acc | u8::from((c < 0x20) & (c != b'\t') & (c != b'\n'))
        }) != 0
    })
}

/// True for the C0 control characters output never holds: all but tab and newline.
fn is_banned_control(b: u8) -> bool {
    b < 0x20 && b != b'\t' && b != b'\n'
}

/// `text` without C0 control characters other than tab and newline (NUL, CR, form feed...):
/// a page's stray control bytes are not text, and a consumer of text, Markdown or JSON output
/// must not meet them. Text without any is returned as it is.
pub fn no_controls(mut text: String) -> String {
    if has_banned_control(text.as_bytes()) {
        // Only ASCII bytes are removed, so the rest stays valid UTF-8.
        text.retain(|c| !(c.is_ascii() && is_banned_control(c as u8)));
    }
    text
}

/// The URL a page's links are relative to: its first `<base href>`, resolved against the
/// page's own URL when that is known, else the page's URL.
fn base_url(doc: &Document<'_>, page_url: Option<&str>) -> Option<url::Url> {
    let page = page_url.and_then(|u| url::Url::parse(u.trim()).ok());
    let href = (0..doc.tree.nodes.len() as crate::html::NodeId)
        .find(|&i| doc.tree.node(i).tag == crate::html::Tag::Base && doc.attr(i, "href").is_some())
        .and_then(|i| doc.attr(i, "href"));
    let from_base = href.and_then(|h| match &page {
        Some(p) => p.join(h.trim()).ok(),
        None => url::Url::parse(h.trim()).ok(),
    });
    from_base.or(page)
}

/// Composes combining diacritical marks (U+0300-U+036F) with their letters (Unicode NFC), as
/// trafilatura normalizes its output: a page written `u` + U+0308 gives the same words as one
/// written `ü`, for search, dedup and the reader. Only text holding such a mark is normalized
/// (their UTF-8 lead bytes 0xCC/0xCD are found by one SIMD scan): composing the rest of the
/// repertoire (Hangul jamo, other scripts' marks) would cost a per-character check on every
/// page for text that web pages almost never decompose.
pub(crate) fn nfc(text: String) -> String {
    use unicode_normalization::UnicodeNormalization;
    if memchr::memchr2(0xCC, 0xCD, text.as_bytes()).is_none() {
        return text;
    }
    text.nfc().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_word_test_finds_exactly_the_banned_bytes() {
        // Every byte value at every position of a 8-byte word and of the tail.
        for len in [8usize, 11, 16] {
            for pos in 0..len {
                for c in 0..=255u8 {
                    let mut b = vec![b'a'; len];
                    b[pos] = c;
                    assert_eq!(has_banned_control(&b), is_banned_control(c), "{c} at {pos}");
                }
            }
        }
        // Tabs and newlines beside a banned byte do not hide it.
        assert!(has_banned_control(b"\t\n\t\n\x01\n\t\n"));
        assert!(!has_banned_control("\t\néé\n\u{80}\u{9f}x".as_bytes()));
    }

    #[test]
    fn control_characters_other_than_tab_and_newline_go() {
        assert_eq!(no_controls("a\0b\tc\r\nd\x0ce\x1b".into()), "ab\tc\nde");
        let owned = "clean\ttext\n".to_string();
        let ptr = owned.as_ptr();
        let out = no_controls(owned);
        assert_eq!(out.as_ptr(), ptr);
    }

    #[test]
    fn nfc_composes_combining_marks_and_leaves_other_text_as_is() {
        assert_eq!(nfc("gepru\u{308}ft, Jane\u{301}".into()), "geprüft, Jané");
        // Already composed, or no mark at all: the same string, not a copy.
        for s in ["geprüft", "plain ASCII", "日本語 — “quotes”"] {
            let owned = s.to_string();
            let ptr = owned.as_ptr();
            let out = nfc(owned);
            assert_eq!(out, s);
            assert_eq!(out.as_ptr(), ptr);
        }
        // A mark with no letter before it stays (nothing to compose with).
        assert_eq!(nfc("\u{301}x".into()), "\u{301}x");
    }
}
