//! Tag names: the closed set of elements pith treats specially, with the properties the tree
//! builder, the renderer and the extractors ask of them.
//!
//! Names are matched ASCII-case-insensitively (HTML tag names are case-insensitive). Every other
//! name is [`Tag::Other`]; the tree keeps its spelling through the token it came from.

/// What pith needs to know about an element kind.
pub mod flags {
    /// Starts and ends a line in text output and a segment of DANAg's normalized lines
    /// (HTML's block-level and table elements, `br`, list items).
    pub const BLOCK: u16 = 1;
    /// Has no content and no end tag (WHATWG "void elements").
    pub const VOID: u16 = 1 << 1;
    /// Its content is raw text, never markup (WHATWG "raw text" and "escapable raw text"
    /// elements, plus the elements whose content a scripting browser treats as raw text).
    pub const RAW_TEXT: u16 = 1 << 2;
    /// Its text is never page content (scripts, styles, metadata, form controls' internals).
    pub const NO_CONTENT: u16 = 1 << 3;
    /// A start tag of this element closes an open `p` (WHATWG tree construction, "in body").
    pub const CLOSES_P: u16 = 1 << 4;
    /// A heading, h1 to h6.
    pub const HEADING: u16 = 1 << 5;
    /// White space inside is kept as is (`pre`, `textarea`, `listing`).
    pub const PREFORMATTED: u16 = 1 << 6;
}

macro_rules! tags {
    ($($variant:ident $name:literal $flags:expr;)*) => {
        /// A known element kind.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u8)]
        pub enum Tag {
            $(#[doc = concat!("The `", $name, "` element.")]
            $variant,)*
            /// Any other element name.
            Other,
        }

        impl Tag {
            /// The lower-case name; `""` for [`Tag::Other`].
            pub fn name(self) -> &'static str {
                match self {
                    $(Tag::$variant => $name,)*
                    Tag::Other => "",
                }
            }

            /// The flags of this kind (see [`flags`]): one load from a table indexed by the
            /// kind, small enough to inline wherever the tree and the extractors ask it.
            #[inline(always)]
            pub fn flags(self) -> u16 {
                const FLAGS: [u16; Tag::Other as usize + 1] = [$($flags,)* 0];
                FLAGS[self as usize]
            }

            /// Looks up a lower-case name. The names are byte-string constants so that the
            /// match needs no UTF-8 validation of the name first (a third of the lookup's cost).
            #[allow(non_upper_case_globals)]
            fn from_lower(name: &[u8]) -> Tag {
                $(const $variant: &[u8] = $name.as_bytes();)*
                match name {
                    $($variant => Tag::$variant,)*
                    _ => Tag::Other,
                }
            }
        }
    };
}

use flags::*;

// Sources: WHATWG HTML "void elements", "raw text elements", "escapable raw text elements"
// (title, textarea), the "in body" insertion mode's list of start tags that close a p element,
// and CSS's default `display: block` elements for BLOCK.
tags! {
    Html "html" BLOCK;
    Head "head" BLOCK | NO_CONTENT;
    Body "body" BLOCK;
    Title "title" BLOCK | RAW_TEXT | NO_CONTENT;
    Meta "meta" VOID | NO_CONTENT;
    Link "link" VOID | NO_CONTENT;
    Base "base" VOID | NO_CONTENT;
    Script "script" RAW_TEXT | NO_CONTENT;
    Style "style" RAW_TEXT | NO_CONTENT;
    // Not raw text: pith reads pages as a reader without scripts does, and forums and
    // single-page apps put their whole content in <noscript> for such readers.
    Noscript "noscript" 0;
    Template "template" NO_CONTENT;
    Iframe "iframe" RAW_TEXT | NO_CONTENT;
    Noembed "noembed" RAW_TEXT | NO_CONTENT;
    Noframes "noframes" RAW_TEXT | NO_CONTENT;
    Xmp "xmp" BLOCK | RAW_TEXT | CLOSES_P | PREFORMATTED;
    Plaintext "plaintext" BLOCK | RAW_TEXT | CLOSES_P | PREFORMATTED;
    Textarea "textarea" BLOCK | RAW_TEXT | NO_CONTENT | PREFORMATTED;
    Select "select" NO_CONTENT;
    Option "option" BLOCK | NO_CONTENT;
    Optgroup "optgroup" BLOCK | NO_CONTENT;
    Button "button" 0;
    Svg "svg" NO_CONTENT;
    Math "math" 0;
    Canvas "canvas" NO_CONTENT;
    Object "object" 0;
    Embed "embed" VOID;
    Area "area" VOID;
    Br "br" VOID | BLOCK;
    Col "col" VOID;
    Hr "hr" VOID | BLOCK | CLOSES_P;
    Img "img" VOID;
    Input "input" VOID;
    Keygen "keygen" VOID;
    Param "param" VOID;
    Source "source" VOID;
    Track "track" VOID;
    Wbr "wbr" VOID;
    P "p" BLOCK | CLOSES_P;
    Div "div" BLOCK | CLOSES_P;
    Center "center" BLOCK | CLOSES_P;
    Address "address" BLOCK | CLOSES_P;
    Article "article" BLOCK | CLOSES_P;
    Aside "aside" BLOCK | CLOSES_P;
    Blockquote "blockquote" BLOCK | CLOSES_P;
    Details "details" BLOCK | CLOSES_P;
    Summary "summary" BLOCK | CLOSES_P;
    Dialog "dialog" BLOCK | CLOSES_P;
    Dir "dir" BLOCK | CLOSES_P;
    Dl "dl" BLOCK | CLOSES_P;
    Dt "dt" BLOCK;
    Dd "dd" BLOCK;
    Fieldset "fieldset" BLOCK | CLOSES_P;
    Legend "legend" BLOCK;
    Figure "figure" BLOCK | CLOSES_P;
    Figcaption "figcaption" BLOCK | CLOSES_P;
    Footer "footer" BLOCK | CLOSES_P;
    Header "header" BLOCK | CLOSES_P;
    Hgroup "hgroup" BLOCK | CLOSES_P;
    Main "main" BLOCK | CLOSES_P;
    Menu "menu" BLOCK | CLOSES_P;
    Nav "nav" BLOCK | CLOSES_P;
    Section "section" BLOCK | CLOSES_P;
    Form "form" BLOCK | CLOSES_P;
    Ol "ol" BLOCK | CLOSES_P;
    Ul "ul" BLOCK | CLOSES_P;
    Li "li" BLOCK;
    Pre "pre" BLOCK | CLOSES_P | PREFORMATTED;
    Listing "listing" BLOCK | CLOSES_P | PREFORMATTED;
    H1 "h1" BLOCK | CLOSES_P | HEADING;
    H2 "h2" BLOCK | CLOSES_P | HEADING;
    H3 "h3" BLOCK | CLOSES_P | HEADING;
    H4 "h4" BLOCK | CLOSES_P | HEADING;
    H5 "h5" BLOCK | CLOSES_P | HEADING;
    H6 "h6" BLOCK | CLOSES_P | HEADING;
    Table "table" BLOCK | CLOSES_P;
    Caption "caption" BLOCK;
    Colgroup "colgroup" 0;
    Thead "thead" BLOCK;
    Tbody "tbody" BLOCK;
    Tfoot "tfoot" BLOCK;
    Tr "tr" BLOCK;
    Td "td" BLOCK;
    Th "th" BLOCK;
    A "a" 0;
    Span "span" 0;
    B "b" 0;
    I "i" 0;
    Em "em" 0;
    Strong "strong" 0;
    Code "code" 0;
    Label "label" 0;
    Time "time" 0;
    Sup "sup" 0;
    Sub "sub" 0;
    Small "small" 0;
    Font "font" 0;
    U "u" 0;
    S "s" 0;
    Q "q" 0;
    Cite "cite" 0;
    Abbr "abbr" 0;
    Mark "mark" 0;
    Video "video" 0;
    Audio "audio" 0;
    Picture "picture" 0;
    Frameset "frameset" BLOCK;
    Frame "frame" VOID;
    Basefont "basefont" VOID;
    Bgsound "bgsound" VOID;
}

impl Tag {
    /// Classifies a tag name as written in the source, in any letter case.
    #[inline]
    pub fn lookup(name: &[u8]) -> Tag {
        // The longest known name is 10 bytes ("figcaption", "blockquote"); anything longer is
        // Other without looking further.
        let mut buf = [0u8; 10];
        if name.is_empty() || name.len() > buf.len() {
            return Tag::Other;
        }
        for (dst, &src) in buf.iter_mut().zip(name) {
            *dst = src.to_ascii_lowercase();
        }
        Tag::from_lower(&buf[..name.len()])
    }

    /// Whether this kind has any of the bits of `flag` (one or more [`flags`] constants).
    #[inline]
    pub fn is(self, flag: u16) -> bool {
        self.flags() & flag != 0
    }

    /// A block element's tag, after which white space never separates words, and where a
    /// paragraph ends. Not `<br>`: text output breaks the line there, but markdown output joins
    /// the lines with the white space that follows it.
    #[inline]
    pub fn is_boundary(self) -> bool {
        self.is(flags::BLOCK) && self != Tag::Br
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_is_case_insensitive() {
        assert_eq!(Tag::lookup(b"DIV"), Tag::Div);
        assert_eq!(Tag::lookup(b"Script"), Tag::Script);
        assert_eq!(Tag::lookup(b"figcaption"), Tag::Figcaption);
        assert_eq!(Tag::lookup(b"custom-element"), Tag::Other);
        assert_eq!(Tag::lookup(b""), Tag::Other);
    }

    #[test]
    fn flags_follow_the_spec_lists() {
        assert!(Tag::Br.is(flags::VOID));
        assert!(Tag::Script.is(flags::RAW_TEXT));
        assert!(Tag::Ul.is(flags::CLOSES_P));
        assert!(!Tag::Li.is(flags::CLOSES_P));
        assert!(Tag::H3.is(flags::HEADING));
    }
}
