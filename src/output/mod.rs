//! Output: renders a [`Selection`] of a [`Document`] as text or markdown.
//!
//! JSON lines framing of whole records lives in [`json`]; this module only turns selected text
//! nodes into a body string.

pub mod json;
pub mod markdown;
pub mod text;

use crate::extract::Selection;
use crate::html::Document;

/// The body format of an extraction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// Plain text: one paragraph per line, white space collapsed, no markup.
    #[default]
    Text,
    /// Markdown: headings, lists, emphasis, links (with `--links`) and tables.
    Markdown,
}

/// Renders the selected nodes of `doc`.
pub fn render(doc: &Document<'_>, selection: &Selection, format: Format, links: bool) -> String {
    match format {
        Format::Text => text::render(doc, selection),
        Format::Markdown => markdown::render(doc, selection, links),
    }
}
