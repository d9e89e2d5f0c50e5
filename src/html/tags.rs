//! Tag names: the closed set of elements pith treats specially, with the properties the tree
//! builder, the renderer and the extractors ask of them.
//!
//! Names are matched ASCII-case-insensitively (HTML tag names are case-insensitive). Every other
//! name is [`Tag::Other`]; the tree keeps its spelling through the token it came from.

/// What pith needs to know about an element kind.
pub(crate) mod flags {
    /// Starts and ends a line in text output and a segment of DANAg's normalized lines
    /// (HTML's block-level and table elements, `br`, list items).
    pub(crate) const BLOCK: u16 = 1;
    /// Has no content and no end tag (WHATWG "void elements").
    pub(crate) const VOID: u16 = 1 << 1;
    /// Its content is raw text, never markup (WHATWG "raw text" and "escapable raw text"
    /// elements, plus the elements whose content a scripting browser treats as raw text).
    pub(crate) const RAW_TEXT: u16 = 1 << 2;
    /// Its text is never page content (scripts, styles, metadata, form controls' internals).
    pub(crate) const NO_CONTENT: u16 = 1 << 3;
    /// A start tag of this element closes an open `p` (WHATWG tree construction, "in body").
    pub(crate) const CLOSES_P: u16 = 1 << 4;
    /// A heading, h1 to h6.
    pub(crate) const HEADING: u16 = 1 << 5;
    /// White space inside is kept as is (`pre`, `textarea`, `listing`).
    pub(crate) const PREFORMATTED: u16 = 1 << 6;
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
            pub const fn flags(self) -> u16 {
                const FLAGS: [u16; Tag::Other as usize + 1] = [$($flags,)* 0];
                FLAGS[self as usize]
            }

            /// Every kind but [`Tag::Other`], in declaration order.
            const KNOWN: [Tag; Tag::Other as usize] = [$(Tag::$variant,)*];

            /// Every kind, indexed by its number.
            pub const ALL: [Tag; Tag::Other as usize + 1] = [$(Tag::$variant,)* Tag::Other];

            /// Their names, in the same order.
            const NAMES: [&'static str; Tag::Other as usize] = [$($name,)*];
        }
    };
}

/// One byte repeated in every byte of a word.
const LO: u64 = 0x0101_0101_0101_0101;
/// The top bit of every byte of a word.
const HI: u64 = 0x8080_8080_8080_8080;

/// The longest known name ("figcaption", "blockquote"): anything longer is [`Tag::Other`].
const MAX_NAME: usize = 10;

/// The multiplier of the perfect hash of a known name's first eight bytes (an odd number
/// found by trying random ones until the 109 names fell into distinct slots; the `SLOTS`
/// table's construction fails to compile if two share one).
const HASH_MUL: u64 = 0xbe30_ccde_ecd2_a7c5;
/// The hash's slots are its top bits.
const HASH_BITS: u32 = 9;

/// The slot of a name whose first eight lower-case bytes (zero-padded, little-endian) are `lo`.
#[inline(always)]
const fn slot(lo: u64) -> usize {
    (lo.wrapping_mul(HASH_MUL) >> (64 - HASH_BITS)) as usize
}

/// A lower-case name of at most [`MAX_NAME`] bytes, none of them NUL, as the look-up compares
/// it: its first eight bytes and the rest, zero-padded, little-endian (the padding tells the
/// length, as no byte of the name is zero).
const fn key(name: &[u8]) -> (u64, u64) {
    let mut lo = 0u64;
    let mut hi = 0u64;
    let mut i = 0;
    while i < name.len() {
        if i < 8 {
            lo |= (name[i] as u64) << (8 * i);
        } else {
            hi |= (name[i] as u64) << (8 * (i - 8));
        }
        i += 1;
    }
    (lo, hi)
}

/// The keys of the known names, by kind.
const KEYS: [(u64, u64); Tag::Other as usize] = {
    let mut keys = [(0, 0); Tag::Other as usize];
    let mut i = 0;
    while i < keys.len() {
        assert!(Tag::NAMES[i].len() <= MAX_NAME);
        keys[i] = key(Tag::NAMES[i].as_bytes());
        i += 1;
    }
    keys
};

/// For each slot of the hash, the kind whose name falls in it ([`Tag::Other`] for none).
const SLOTS: [Tag; 1 << HASH_BITS] = {
    let mut slots = [Tag::Other; 1 << HASH_BITS];
    let mut i = 0;
    while i < KEYS.len() {
        let s = slot(KEYS[i].0);
        assert!(
            matches!(slots[s], Tag::Other),
            "two names share a slot: pick another HASH_MUL"
        );
        slots[s] = Tag::KNOWN[i];
        i += 1;
    }
    slots
};

/// The bytes of `w` that are zero flagged in their top bit; exact for the lowest flagged byte
/// (Hacker's Delight 6-1; a byte above a flagged one may be flagged falsely).
#[inline(always)]
fn zero_bytes(w: u64) -> u64 {
    w.wrapping_sub(LO) & !w & HI
}

/// The bytes of `w` that may end a tag name: below `!` (white space among them), `/` and `>`.
/// Exact for the lowest flagged byte (see [`zero_bytes`]).
#[inline(always)]
fn name_end_candidates(w: u64) -> u64 {
    let below_bang = w.wrapping_sub(LO * u64::from(b'!')) & !w & HI;
    below_bang | zero_bytes(w ^ (LO * u64::from(b'/'))) | zero_bytes(w ^ (LO * u64::from(b'>')))
}

/// Whether `b` ends a tag name (13.2.5.8: white space, `/` or `>`).
#[inline(always)]
pub(crate) fn ends_name(b: u8) -> bool {
    matches!(b, b'>' | b'/' | b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// The eight bytes of `bytes` from `at` (0 or 8) as a little-endian word.
#[inline(always)]
fn word(bytes: &[u8; 16], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(w)
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
        // No known name is longer, or holds a NUL (which the keys' zero padding would hide).
        if name.is_empty() || name.len() > MAX_NAME || name.contains(&0) {
            return Tag::Other;
        }
        let mut window = [0u8; 16];
        for (dst, &src) in window.iter_mut().zip(name) {
            *dst = src.to_ascii_lowercase();
        }
        Tag::from_key(word(&window, 0), word(&window, 8))
    }

    /// The tag name at the start of `window` (the 16 bytes after a tag's `<` or `</`) and its
    /// length, when it ends inside the window ([`ends_name`]); `None` when it does not (the
    /// caller then reads the name byte by byte). The name is found and classified a word at
    /// a time: its end is the first byte that may end it, and its first eight bytes are
    /// hashed to the one known name it can be.
    #[inline(always)]
    pub fn scan(window: &[u8; 16]) -> Option<(Tag, usize)> {
        // Up to the lowest flagged byte, `m` having only its top bits set.
        let below = |m: u64| ((m & m.wrapping_neg()) >> 7).wrapping_sub(1);
        // Every byte of the name is `!` or above (a lower one ends it or is a control byte,
        // which falls back to the byte loop), and known names are letters and digits, so
        // setting bit 5 of each byte lowers a capital and turns no other byte into a letter
        // or digit of a known name.
        let small = LO * 0x20;
        let w0 = word(window, 0);
        let (len, lo, hi) = match name_end_candidates(w0) {
            0 => {
                let w1 = word(window, 8);
                match name_end_candidates(w1) {
                    0 => return None,
                    m => (
                        8 + (m.trailing_zeros() / 8) as usize,
                        w0 | small,
                        (w1 | small) & below(m),
                    ),
                }
            }
            m => (
                (m.trailing_zeros() / 8) as usize,
                (w0 | small) & below(m),
                0,
            ),
        };
        // The first byte below `!` may be a control byte, which does not end a name.
        if !window.get(len).is_some_and(|&b| ends_name(b)) {
            return None;
        }
        // An empty name's key (zero) and a name of more than [`MAX_NAME`] bytes (three or more
        // past the eighth) equal no known name's key: no test of the length is needed.
        Some((Tag::from_key(lo, hi), len))
    }

    /// The kind whose [`key`] is `(lo, hi)`, or [`Tag::Other`].
    #[inline(always)]
    fn from_key(lo: u64, hi: u64) -> Tag {
        let tag = SLOTS[slot(lo)];
        // `Other`'s index is past the keys: it never matches.
        match KEYS.get(tag as usize) {
            Some(&k) if k == (lo, hi) => tag,
            _ => Tag::Other,
        }
    }

    /// Whether this kind has any of the bits of `flag` (one or more [`flags`] constants).
    #[inline]
    pub fn is(self, flag: u16) -> bool {
        self.flags() & flag != 0
    }

    /// A block element's tag, after which white space never separates words, and where a
    /// paragraph ends. Not `<br>`: text output breaks the line there, but markdown output joins
    /// the lines with the white space that follows it.
    #[inline(always)]
    pub fn is_boundary(self) -> bool {
        // A table, as the tokenizer asks it of every tag.
        const BOUNDARY: [bool; Tag::Other as usize + 1] = {
            let mut boundary = [false; Tag::Other as usize + 1];
            let mut i = 0;
            while i < boundary.len() {
                let tag = Tag::ALL[i];
                boundary[i] = tag.flags() & flags::BLOCK != 0 && !matches!(tag, Tag::Br);
                i += 1;
            }
            boundary
        };
        BOUNDARY[self as usize]
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

    /// What [`Tag::scan`] must agree with: the name up to the first byte that ends it, matched
    /// to the known names after lowering its capitals.
    fn reference(window: &[u8; 16]) -> Option<(Tag, usize)> {
        let len = window.iter().position(|&b| ends_name(b))?;
        let lower = window[..len].to_ascii_lowercase();
        let tag = (0..Tag::NAMES.len())
            .find(|&i| Tag::NAMES[i].as_bytes() == lower.as_slice())
            .map_or(Tag::Other, |i| Tag::KNOWN[i]);
        Some((tag, len))
    }

    #[test]
    fn scan_agrees_with_a_byte_loop() {
        let mut windows: Vec<[u8; 16]> = Vec::new();
        for name in Tag::NAMES {
            for case in 0..3u8 {
                for end in [
                    b'>', b'/', b' ', b'\t', b'\n', b'\r', b'\x0c', 0, b'\x0b', b'x', b'1',
                ] {
                    let mut w = [b'>'; 16];
                    for (i, b) in name.bytes().enumerate() {
                        w[i] = match case {
                            0 => b,
                            1 => b.to_ascii_uppercase(),
                            _ if i % 2 == 0 => b.to_ascii_uppercase(),
                            _ => b,
                        };
                    }
                    w[name.len()] = end;
                    windows.push(w);
                }
            }
        }
        // Bytes that look like the names' letters and digits but are not (bit 5 clear).
        windows.push(*b"h\x11>xxxxxxxxxxxxx");
        windows.push(*b"H\x11 xxxxxxxxxxxxx");
        windows.push(*b"p\0>xxxxxxxxxxxxx");
        windows.push(*b"\xc4iv>xxxxxxxxxxxx");
        windows.push(*b"d@v>xxxxxxxxxxxx");
        windows.push(*b"blockquotes>xxxx");
        windows.push(*b"xxxxxxxxxxxxxxxx");
        // Random windows over an alphabet of letters, digits and the bytes near the cut-offs.
        let alphabet = b"aAdDiIvVhH1@`[{/>  \t\n\r\x0c\x0b\0\x11\x80\xe1-:!";
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..200_000 {
            let mut w = [0u8; 16];
            for b in &mut w {
                crate::hash::xorshift64(&mut x);
                *b = alphabet[(x % alphabet.len() as u64) as usize];
            }
            windows.push(w);
        }
        for w in &windows {
            let want = reference(w);
            match Tag::scan(w) {
                Some(got) => assert_eq!(Some(got), want, "{w:?}"),
                // Falling back is allowed only where the byte loop must decide.
                None => assert!(
                    want.is_none() || w[..want.map_or(0, |(_, l)| l)].iter().any(|&b| b < b'!'),
                    "{w:?}"
                ),
            }
            if let Some((tag, len)) = want {
                assert_eq!(Tag::lookup(&w[..len]), tag, "{w:?}");
            }
        }
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
