//! Extraction: one interface, one module per algorithm.
//!
//! [`extract`] decodes a page, builds its tree and runs the chosen [`Algo`]. Every algorithm
//! returns a [`Selection`] over the tree (which text nodes are main content); rendering the
//! selection as text or markdown is the output module's job, so each algorithm stays small.

pub mod auto;
pub mod blocks;
pub mod ce;
pub mod danag;
pub mod fastce;
pub mod tmpl_dom;
pub mod tmpl_text;

use crate::decode;
use crate::html::{Document, tree::NodeId};
use crate::output::{self, Format};

/// Which extraction algorithm runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Algo {
    /// The default: DANAg's profile plus tree signals (see [`auto`]).
    #[default]
    Auto,
    /// DANAg over a normalized source: one line per block-level boundary, so minified
    /// one-line pages work (Mohammadzadeh et al. 2011, segments of Section 3.1 normalized).
    Danag,
    /// DANAg over the physical lines of the source, exactly as the paper counts them.
    DanagLines,
    /// ContentExtractor over several pages of one site given together ([`ce`]); on one page
    /// alone every block is content.
    Ce,
    /// The DOM template-hash detector over several pages of one site ([`tmpl_dom`]).
    TmplDom,
    /// The text sliding-window detector over several pages of one site ([`tmpl_text`]).
    TmplText,
}

impl Algo {
    /// Every algorithm, in the order `--help` and eval tables list them.
    pub const ALL: &'static [Algo] = &[Algo::Auto, Algo::Danag, Algo::DanagLines];
    /// Algorithms over a set of pages of one site (not in [`Algo::ALL`]: they need the site).
    pub const SITE: &'static [Algo] = &[Algo::Ce, Algo::TmplDom, Algo::TmplText];

    /// The name used on the command line and in JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Algo::Auto => "auto",
            Algo::Danag => "danag",
            Algo::DanagLines => "danag-lines",
            Algo::Ce => "ce",
            Algo::TmplDom => "tmpl-dom",
            Algo::TmplText => "tmpl-text",
        }
    }

    /// Parses a command-line name.
    pub fn from_name(name: &str) -> Option<Algo> {
        Algo::ALL
            .iter()
            .chain(Algo::SITE)
            .copied()
            .find(|a| a.name() == name)
    }
}

impl std::str::FromStr for Algo {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Algo::from_name(s).ok_or_else(|| {
            let names: Vec<&str> = Algo::ALL
                .iter()
                .chain(Algo::SITE)
                .map(|a| a.name())
                .collect();
            format!("unknown algorithm `{s}` (one of: {})", names.join(", "))
        })
    }
}

/// Parameters of the template detectors over a site's pages (`--algo tmpl-dom`, `tmpl-text`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SiteParams {
    pub dom: tmpl_dom::Params,
    pub text: tmpl_text::Params,
}

/// Everything that changes what an extraction returns.
#[derive(Clone, Debug)]
pub struct Options {
    pub algo: Algo,
    /// DANAg's gap: positive regions at most this many lines apart are joined (paper: 20).
    pub gap: usize,
    /// A charset that overrides the `<meta>` declaration (`--charset`); the BOM still wins.
    pub charset: Option<String>,
    /// Output format of [`Extracted::text`].
    pub format: Format,
    /// Keep link targets in markdown output.
    pub links: bool,
    /// `--precision` / `--recall`: which way `auto` leans.
    pub mode: auto::Mode,
    /// Keep user comments (`auto`).
    pub comments: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            algo: Algo::default(),
            gap: danag::PAPER_GAP,
            charset: None,
            format: Format::Text,
            links: false,
            mode: auto::Mode::Balanced,
            comments: false,
        }
    }
}

/// What one page gives.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Extracted {
    /// The page title (`<title>`), when it has one.
    pub title: Option<String>,
    /// Language from `<html lang>`.
    pub lang: Option<String>,
    /// Publication date the page states (`article:published_time`, `<time datetime>`...).
    pub date: Option<String>,
    /// The main content, rendered in the requested format. Valid UTF-8, no markup in text mode.
    pub text: String,
    /// Which algorithm produced `text` (with site templates, which template:
    /// [`crate::template::Family::label`]).
    pub algo: std::borrow::Cow<'static, str>,
    /// The encoding the page was read in.
    pub encoding: &'static str,
}

/// Why a page could not be extracted at all. A page that parses but has no main text is not an
/// error: it gives an empty [`Extracted::text`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Zero bytes (or only white space).
    Empty,
    /// The bytes are not text (NUL-heavy or a known binary signature).
    Binary,
    /// Larger than the tokenizer can address (4 GiB).
    TooLarge,
    /// More start tags than the element budget ([`element_budget`]): a page of mostly tags,
    /// whose tree and statistics would cost many times its size.
    TooDense { elements: u64, budget: u64 },
}

/// The most elements a page may have: 4 Mi (`--max-record-bytes`' default, 64 MiB, over 16),
/// or one per 16 bytes of a larger page (a raised limit). A page of mostly tags costs 40-70
/// bytes of memory an element (node, per-element statistics of `auto`, output), so the
/// budget holds one page's extraction to about 250 MB however dense its tags, and under 4x a
/// page larger than 64 MiB (issue 21, D8: 8 M `<br>` took 372 MB for 32 MB). Real pages have
/// one element per 30-60 bytes; the largest page of `../shared/data` has fewer than 0.1 M.
pub fn element_budget(page_bytes: usize) -> u64 {
    (4u64 << 20).max(page_bytes as u64 / 16)
}

/// Start tags in `bytes` (`<` then an ASCII letter): an upper bound on the elements a parse
/// gives, counted at memchr speed.
fn start_tags(bytes: &[u8]) -> u64 {
    memchr::memchr_iter(b'<', bytes)
        .filter(|&i| bytes.get(i + 1).is_some_and(u8::is_ascii_alphabetic))
        .count() as u64
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Empty => f.write_str("empty input"),
            Error::Binary => f.write_str("binary input, not an HTML page"),
            Error::TooLarge => f.write_str("page larger than 4 GiB"),
            Error::TooDense { elements, budget } => write!(
                f,
                "page of {elements} elements over the element budget {budget} (mostly tags)"
            ),
        }
    }
}

impl std::error::Error for Error {}

/// The extraction an algorithm made: the text nodes of main content, in document order, and the
/// block elements that end a line (rendering inserts line breaks at their boundaries).
#[derive(Debug, Default)]
pub struct Selection {
    pub nodes: Vec<NodeId>,
}

/// Extracts the main content of one page. `transport_charset` is a charset given outside the
/// page (the HTTP `Content-Type` of a WARC record); `opts.charset` overrides it.
pub fn extract(
    bytes: &[u8],
    transport_charset: Option<&str>,
    opts: &Options,
) -> Result<Extracted, Error> {
    extract_with(bytes, transport_charset, opts, None)
}

/// [`extract`] with the site templates of the page's host, if it has some: the template whose
/// known block paths are nearest the page's ([`crate::template::Family::pick`]) runs FastCE,
/// combined with `auto` ([`fastce::with_blocks`]); the page falls back to `opts.algo` when no
/// template shares a block path with it or the page does not match the one picked.
/// [`Extracted::algo`] says which ran.
pub fn extract_with(
    bytes: &[u8],
    transport_charset: Option<&str>,
    opts: &Options,
    family: Option<&crate::template::Family>,
) -> Result<Extracted, Error> {
    readable(bytes)?;
    let decoded = decode::decode(bytes, opts.charset.as_deref(), transport_charset);
    from_text(&decoded.text, decoded.encoding.name(), opts, family)
}

/// [`extract_with`] on `page[start..]`, a buffer the caller gives away: when the page has to
/// be transcoded (a legacy charset, UTF-16, invalid UTF-8), its bytes are freed as soon as the
/// UTF-8 copy exists, so that the two are not both held beside the tree (issue #7: memory under
/// 4x the record). The buffer comes back when it was kept (the page was UTF-8 already, or it
/// could not be read), for reuse.
pub fn extract_buffer(
    page: Vec<u8>,
    start: usize,
    transport_charset: Option<&str>,
    opts: &Options,
    family: Option<&crate::template::Family>,
) -> (Result<Extracted, Error>, Option<Vec<u8>>) {
    let bytes = page.get(start..).unwrap_or_default();
    if let Err(e) = readable(bytes) {
        return (Err(e), Some(page));
    }
    let decoded = decode::decode(bytes, opts.charset.as_deref(), transport_charset);
    let encoding = decoded.encoding.name();
    match decoded.text {
        std::borrow::Cow::Borrowed(text) => {
            let got = from_text(text, encoding, opts, family);
            (got, Some(page))
        }
        std::borrow::Cow::Owned(text) => {
            drop(page);
            (from_text(&text, encoding, opts, family), None)
        }
    }
}

/// Whether `bytes` can be a page at all: not blank, not binary.
fn readable(bytes: &[u8]) -> Result<(), Error> {
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(Error::Empty);
    }
    if decode::looks_binary(bytes) {
        return Err(Error::Binary);
    }
    let budget = element_budget(bytes.len());
    // Only a page with that many `<` can be over it; counting them is one SIMD pass.
    if bytecount::count(bytes, b'<') as u64 > budget {
        let elements = start_tags(bytes);
        if elements > budget {
            return Err(Error::TooDense { elements, budget });
        }
    }
    Ok(())
}

/// Extraction of a decoded page (`encoding`: what it was read in).
fn from_text(
    text: &str,
    encoding: &'static str,
    opts: &Options,
    family: Option<&crate::template::Family>,
) -> Result<Extracted, Error> {
    if text.len() >= u32::MAX as usize {
        return Err(Error::TooLarge);
    }
    Ok(with_arena(|arena| {
        let doc = Document::parse(text, arena);
        let tuning = auto::Tuning::new(opts.mode, opts.comments);
        // The picked template's selection trimmed by `auto`'s ([`fastce::with_template`]); a
        // page that does not match it falls back to `opts.algo`, reusing `auto`'s selection
        // when that was already made and is the fallback.
        let fast = family.and_then(|f| {
            let pb = blocks::blocks(&doc.tree);
            let i = f.pick(|| blocks::layout(&pb))?;
            let member = f.members.get(i)?;
            Some((
                f,
                i,
                fastce::with_blocks(&doc, &pb, &member.template, &tuning),
            ))
        });
        let (selection, algo) = match fast {
            Some((f, i, Ok((sel, how)))) => {
                let algo = if how == "fastce+auto" {
                    f.label(i).into()
                } else {
                    how.into()
                };
                (sel, algo)
            }
            Some((_, _, Err(Some(auto)))) if opts.algo == Algo::Auto => {
                (auto, opts.algo.name().into())
            }
            _ => (run(&doc, opts), opts.algo.name().into()),
        };
        let text = output::render(&doc, &selection, opts.format, opts.links);
        Extracted {
            title: doc.title().map(|t| output::no_controls(output::nfc(t))),
            lang: doc.lang(),
            date: doc.date(),
            text,
            algo,
            encoding,
        }
    }))
}

thread_local! {
    /// One arena per thread, reset between pages: a page's copy, tree and tokens are freed in
    /// one step and the memory is reused by the next page.
    static ARENA: std::cell::RefCell<bumpalo::Bump> = std::cell::RefCell::new(bumpalo::Bump::new());
}

/// The largest arena kept for the next page: about the arena of a page at the largest buffer
/// the reader keeps for reuse ([`crate::input::Pool`], 8 MiB), at the 8 bytes of arena a page
/// byte takes on pages of dense tags (the 200 MB page of `examples/hostile.rs`: 1.65 GB).
/// A larger one served a huge page: kept, its tree would stay resident beside that page's
/// output while it is formatted (JSON), and for the rest of the stream.
const KEEP_ARENA: usize = 64 << 20;

/// Runs `f` with this thread's arena, reset. A nested call (never made by pith itself) gets a
/// fresh arena instead of panicking.
fn with_arena<R>(f: impl FnOnce(&bumpalo::Bump) -> R) -> R {
    ARENA.with(|cell| match cell.try_borrow_mut() {
        Ok(mut arena) => {
            arena.reset();
            let got = f(&arena);
            if arena.allocated_bytes() > KEEP_ARENA {
                *arena = bumpalo::Bump::new();
            }
            got
        }
        Err(_) => f(&bumpalo::Bump::new()),
    })
}

/// Runs the chosen algorithm on a parsed document.
pub fn run(doc: &Document<'_>, opts: &Options) -> Selection {
    match opts.algo {
        Algo::Auto => auto::extract(doc, &auto::Tuning::new(opts.mode, opts.comments)),
        Algo::Danag => danag::extract(doc, danag::Segments::Normalized, opts.gap),
        Algo::DanagLines => danag::extract(doc, danag::Segments::PhysicalLines, opts.gap),
        // One page is a site of one page: CE and the template detectors find nothing repeated
        // elsewhere.
        Algo::Ce | Algo::TmplDom | Algo::TmplText => Selection {
            nodes: blocks::text_nodes(doc, |_| true),
        },
    }
}

/// Each page's text after a site-level detector (`tmpl_dom::site`, `tmpl_text::site`) ran over
/// all of them, for those detectors' tests.
#[cfg(test)]
pub(crate) fn site_texts(
    pages: &[String],
    site: impl Fn(&[&Document<'_>]) -> Vec<Selection>,
) -> Vec<String> {
    let arenas: Vec<bumpalo::Bump> = pages.iter().map(|_| bumpalo::Bump::new()).collect();
    let docs: Vec<Document<'_>> = pages
        .iter()
        .zip(&arenas)
        .map(|(p, a)| Document::parse(p, a))
        .collect();
    let refs: Vec<&Document<'_>> = docs.iter().collect();
    let sels = site(&refs);
    docs.iter()
        .zip(&sels)
        .map(|(d, s)| output::render(d, s, Format::Text, false))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "<html><body><nav><a href=/>Home</a></nav><article><p>Gr\u{fc}\u{df}e aus \
        K\u{f6}ln: the council approved the new bridge on Tuesday, after a debate of four \
        hours, and building starts in May.</p></article></body></html>";

    #[test]
    fn a_given_buffer_is_freed_once_transcoded_and_returned_otherwise() {
        let opts = Options::default();
        let head = b"HTTP/1.1 200 OK\r\n\r\n".to_vec();
        let with_head = |body: &[u8]| [head.as_slice(), body].concat();

        // UTF-8 already: read in place, the buffer comes back as it was.
        let utf8 = with_head(PAGE.as_bytes());
        let (got, back) = extract_buffer(utf8.clone(), head.len(), None, &opts, None);
        assert_eq!(back.as_deref(), Some(utf8.as_slice()));
        let want = extract(PAGE.as_bytes(), None, &opts).expect("page");
        assert!(want.text.starts_with("Grüße aus Köln"), "{}", want.text);
        assert_eq!(got, Ok(want.clone()));

        // UTF-16 and a legacy charset: decoded into a copy, so the buffer is gone.
        let mut utf16 = vec![0xFF, 0xFE];
        utf16.extend(PAGE.encode_utf16().flat_map(u16::to_le_bytes));
        let latin1 = encoding_rs::WINDOWS_1252.encode(PAGE).0.into_owned();
        for (body, charset, encoding) in [
            (utf16, None, "UTF-16LE"),
            (latin1, Some("iso-8859-1"), "windows-1252"),
        ] {
            let (got, back) = extract_buffer(with_head(&body), head.len(), charset, &opts, None);
            assert!(back.is_none(), "{encoding}");
            assert_eq!(got, extract(&body, charset, &opts), "{encoding}");
            let got = got.expect("page");
            assert_eq!((got.text, got.encoding), (want.text.clone(), encoding));
        }

        // A page that cannot be read keeps its buffer too.
        let blank = with_head(b"  \n ");
        let (got, back) = extract_buffer(blank.clone(), head.len(), None, &opts, None);
        assert_eq!((got, back), (Err(Error::Empty), Some(blank)));
    }
}
