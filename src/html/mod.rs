//! HTML: prepass, token stream and arena tree. (being written)
pub mod entities;
pub mod tree;

pub struct Document<'a> {
    pub src: &'a str,
}

impl<'a> Document<'a> {
    pub fn parse(src: &'a str) -> Document<'a> {
        Document { src }
    }
    pub fn title(&self) -> Option<String> {
        None
    }
    pub fn lang(&self) -> Option<String> {
        None
    }
}
