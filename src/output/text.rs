//! Plain text rendering. (being written)
use crate::extract::Selection;
use crate::html::Document;
pub fn render(doc: &Document<'_>, _s: &Selection) -> String { doc.src.to_string() }
