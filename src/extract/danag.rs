//! DANAg. (being written)
use crate::extract::Selection;
use crate::html::Document;
pub const PAPER_GAP: usize = 20;
pub enum Segments { Normalized, PhysicalLines }
pub fn extract(_doc: &Document<'_>, _s: Segments, _gap: usize) -> Selection { Selection::default() }
