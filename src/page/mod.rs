//! One page's front door: the readable check, decoding, parsing, the chosen algorithm,
//! rendering and the page's metadata, in that order; everything a caller with one page in
//! hand needs ([`extract()`]), and the buffer-giving variant the pipeline uses
//! ([`extract_buffer`]).
//!
//! Options are split by the stage that reads them: [`crate::decode::Charset`] for decoding,
//! [`crate::extract::AlgoOptions`] for the algorithm, [`crate::output::RenderOptions`] for rendering;
//! [`Options`] holds one of each.

use crate::decode::{self, Charset};
use crate::extract::fastce::model::Family;
use crate::extract::{self, Algo, blocks, fastce};
use crate::html::{Document, Selection};
use crate::output;

pub(crate) mod metadata;
pub(crate) mod model;

/// Everything that changes what an extraction returns, one part per stage.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The algorithm and its settings.
    pub extract: extract::AlgoOptions,
    /// A charset that overrides the `<meta>` declaration (`--charset`); the BOM still wins.
    pub charset: Option<Charset>,
    /// How the selection is rendered into [`Extracted::text`].
    pub output: output::RenderOptions,
    /// Read the page's metadata (`metadata::read`): the cleaned title, author, ISO date,
    /// site name, description, image, categories, tags and the declared or detected
    /// language. Off, only the raw `<title>`, `<html lang>` and the stated date are read, at
    /// no cost; the pipeline turns it on for JSON output. On, the page's type and the
    /// confidence in its text are computed too (`model`).
    pub metadata: bool,
}

impl Options {
    /// The options of `algo`, everything else at its default.
    pub fn new(algo: extract::Algo) -> Options {
        Options::default().with_algo(algo)
    }

    /// Which algorithm runs ([`extract::Algo`]; the learned block model by default).
    pub fn with_algo(mut self, algo: extract::Algo) -> Options {
        self.extract.algo = algo;
        self
    }

    /// Which way the extraction leans (`--precision`, `--recall`).
    pub fn with_mode(mut self, mode: extract::auto::Mode) -> Options {
        self.extract.mode = mode;
        self
    }

    /// Keep user comments (`--comments`).
    pub fn with_comments(mut self, comments: bool) -> Options {
        self.extract.comments = comments;
        self
    }

    /// Keep every copy of a text the page repeats (`--keep-repeats`).
    pub fn with_keep_repeats(mut self, keep: bool) -> Options {
        self.extract.keep_repeats = keep;
        self
    }

    /// DANAg's gap in lines (`--gap`).
    pub fn with_gap(mut self, gap: usize) -> Options {
        self.extract.gap = gap;
        self
    }

    /// A charset that overrides the page's declaration (`--charset`).
    pub fn with_charset(mut self, charset: Option<Charset>) -> Options {
        self.charset = charset;
        self
    }

    /// The body's format (`--format`).
    pub fn with_format(mut self, format: output::Format) -> Options {
        self.output.format = format;
        self
    }

    /// Keep link targets in Markdown (`--links`).
    pub fn with_links(mut self, links: bool) -> Options {
        self.output.links = links;
        self
    }

    /// List the main content's images (`--images`).
    pub fn with_images(mut self, images: bool) -> Options {
        self.output.images = images;
        self
    }

    /// Read the page's metadata, type and confidence ([`Options::metadata`]).
    pub fn with_metadata(mut self, metadata: bool) -> Options {
        self.metadata = metadata;
        self
    }
}

/// What one page gives.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Extracted {
    /// The page's URL as it declares it (`<link rel=canonical>`, else `og:url`), absolute
    /// `http(s)` only (only with [`Options::metadata`]: `metadata::Metadata::url`).
    pub url: Option<String>,
    /// The page title (`<title>`), when it has one; with [`Options::metadata`], cleaned of the
    /// site name (`metadata`).
    pub title: Option<String>,
    /// Language from `<html lang>`; with [`Options::metadata`], also from the other
    /// declarations, else detected from the text (see [`Extracted::lang_source`]).
    pub lang: Option<String>,
    /// Publication date the page states (`article:published_time`, `<time datetime>`...), as
    /// written; with [`Options::metadata`], ISO 8601 from the sources of `metadata`.
    pub date: Option<String>,
    /// Where `date` came from (with [`Options::metadata`]): a stated date
    /// (`metadata::DateSource::Published`, `metadata::DateSource::Url`...) or which guess
    /// (`metadata::Metadata::date_source`).
    pub date_source: Option<metadata::DateSource>,
    /// The author(s) (only with [`Options::metadata`], as the fields below).
    pub author: Option<String>,
    /// The site's name.
    pub sitename: Option<String>,
    /// The page's own summary (`og:description`, `<meta name=description>`...).
    pub description: Option<String>,
    /// The page's lead image, its URL as written.
    pub image: Option<String>,
    /// Sections or categories.
    pub categories: Vec<String>,
    /// Tags and keywords.
    pub tags: Vec<String>,
    /// Where `lang` came from: `metadata::LangSource::Declared` or `metadata::LangSource::Detected`.
    pub lang_source: Option<metadata::LangSource>,
    /// The main content, rendered in the requested format. Valid UTF-8, no markup in text mode.
    pub text: String,
    /// The images of the main content, in document order, with
    /// [`output::RenderOptions::images`] (else `None`).
    pub images: Option<Vec<output::Image>>,
    /// Which algorithm produced `text` (with site templates, which template:
    /// [`Family::label`]).
    pub algo: std::borrow::Cow<'static, str>,
    /// The encoding the page was read in.
    pub encoding: &'static str,
    /// The page's type (only with [`Options::metadata`]).
    pub page_type: Option<model::PageType>,
    /// The predicted bag-of-words F1 of `text`, in 0..=1 ([`model::confidence`]; only with
    /// [`Options::metadata`]).
    pub confidence: Option<f64>,
    /// The page-level features both models read (`model::features`; only with
    /// [`Options::metadata`]).
    pub features: model::Features,
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
    /// More markup than the element budget (`element_budget`): a page of mostly tags or
    /// comments, whose tree and statistics would cost many times its size.
    TooDense {
        /// The page's markup as `markup` counts it.
        elements: u64,
        /// The page's budget.
        budget: u64,
    },
}

/// The name of the algorithm whose selection `run_judged` gave: the chosen one, except on a
/// page the block model does not read ([`extract::learned::reads`]), where
/// the model gives no judgement and the selection is the rules'.
fn ran(algo: Algo, judged: &Option<extract::learned::Judgement>) -> &'static str {
    if algo == Algo::Model && judged.is_none() {
        Algo::Rules.name()
    } else {
        algo.name()
    }
}

/// The most markup a page may have, as [`markup`] counts it: 96 Ki units, or one per 256
/// bytes of a page over 24 MiB. Held to 4x a page of 16 MB or more (the binary's peak resident
/// memory, its own 10 MB included), whatever the shape of its markup:
/// - a unit costs up to about 70 bytes while the page is extracted (tree node, `auto`'s
///   per-element statistics, the block model's per-node arrays: 68 bytes a `<br>` under the
///   default, 59 a `<p>x` under the rules, 30-35 a comment or an end tag after text);
/// - the rest of the page, if text, costs up to 3x its size under the default (the page, the
///   output and the rules' text the page models read; 2x under the rules), so a 16 MB page
///   of text alone peaks at 3.65x with the binary's 10 MB.
///
/// That leaves 0.35x of a 16 MB page, 5.6 MB, about 80 K units at 70 bytes (the 96 Ki of
/// the floor cost less: they replace text): 16 MB pages sitting at the budget peaked at
/// 3.62-3.88x under the default, 3.0x at most under the rules and `danag`, and 24 MB ones at
/// 3.6x (`cli/tests/memory_budget.rs`); one unit per 256 bytes keeps larger pages further
/// under (the binary's share shrinks). The floor also lets any page of up to 96 Ki units
/// through whatever its size: the most any page of `../shared/data` has is 60 K (a forum page
/// of 1.2 MB in its WARC samples, one per 20 bytes), ordinary pages one per 30-60 bytes; a
/// page over 24 MiB needs one per 256 bytes. A page read in another encoding than UTF-8
/// (UTF-16, a legacy charset) is counted in its UTF-8 copy, against the budget of its own
/// size.
pub fn element_budget(page_bytes: usize) -> u64 {
    BUDGET_FLOOR.max(page_bytes as u64 / BYTES_PER_UNIT)
}

/// [`element_budget`]'s floor, whatever the page's size.
const BUDGET_FLOOR: u64 = 96 << 10;

/// [`element_budget`] past its floor: a unit of markup per this many bytes of the page.
const BYTES_PER_UNIT: u64 = 256;

/// The page's markup, an upper bound on the nodes a parse gives beyond those of its elements'
/// own text: every `<` then an ASCII letter (a start tag), `!` or `?` (a comment, a doctype, a
/// processing instruction: each splits the text around it into two nodes), and every `</`
/// right after text (an end tag that may close nothing, and so split the text: `x</b>`; one
/// right after a tag, as in `</div></div>`, does not). Counted at memchr speed.
pub fn markup(bytes: &[u8]) -> u64 {
    memchr::memchr_iter(b'<', bytes)
        .filter(|&i| match bytes.get(i + 1) {
            Some(b) if b.is_ascii_alphabetic() => true,
            Some(b'!' | b'?') => true,
            Some(b'/') => i
                .checked_sub(1)
                .and_then(|j| bytes.get(j))
                .is_some_and(|&b| b != b'>'),
            _ => false,
        })
        .count() as u64
}

/// Refuses `text`, a page of `page_bytes` bytes (as it came: `text` may be its UTF-8 copy),
/// when its markup is over the page's budget. A page needs more bytes and more `<` than the
/// budget before its markup is counted (so an ordinary page costs nothing here, a dense one
/// one SIMD pass).
fn within_budget(text: &[u8], page_bytes: usize) -> Result<(), Error> {
    let budget = element_budget(page_bytes);
    if text.len() as u64 > budget && bytecount::count(text, b'<') as u64 > budget {
        let elements = markup(text);
        if elements > budget {
            return Err(Error::TooDense { elements, budget });
        }
    }
    Ok(())
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Empty => f.write_str("empty input"),
            Error::Binary => f.write_str("binary input, not an HTML page"),
            Error::TooLarge => f.write_str("page larger than 4 GiB"),
            Error::TooDense { elements, budget } => write!(
                f,
                "page of {elements} elements over the element budget {budget} ({} Ki, or one \
                 per {BYTES_PER_UNIT} bytes of a larger page: its tree would cost over 4x its size)",
                BUDGET_FLOOR >> 10
            ),
        }
    }
}

impl std::error::Error for Error {}

/// Extracts the main content of one page. `transport_charset` is a charset given outside the
/// page (the HTTP `Content-Type` of a WARC record); `opts.charset` overrides it.
pub fn extract(
    bytes: &[u8],
    transport_charset: Option<&str>,
    opts: &Options,
) -> Result<Extracted, Error> {
    let cx = Context {
        charset: transport_charset,
        ..Context::default()
    };
    extract_with(bytes, &cx, opts)
}

/// What is known of a page besides its bytes: from its WARC record, the command line, or the
/// caller.
#[derive(Clone, Copy, Debug, Default)]
pub struct Context<'a> {
    /// The charset of its HTTP `Content-Type` (a WARC record's); [`Options::charset`] overrides
    /// it, the page's `<meta>` does not.
    pub charset: Option<&'a str>,
    /// Its URL: Markdown links (`links`) and image sources (`images`) are resolved against
    /// it, or against the page's `<base href>` resolved against it.
    pub url: Option<&'a str>,
    /// The site templates of its host, if it has some.
    pub family: Option<&'a Family>,
}

/// [`extract()`] with what else is known of the page ([`Context`]): its transport charset, its
/// URL, and the site templates of its host, if it has some: the template whose
/// known block paths are nearest the page's ([`Family::pick`]) runs FastCE,
/// combined with `auto` (`fastce::with_blocks`); the page falls back to `opts.extract.algo` when no
/// template shares a block path with it or the page does not match the one picked.
/// [`Extracted::algo`] says which ran.
pub fn extract_with(bytes: &[u8], cx: &Context<'_>, opts: &Options) -> Result<Extracted, Error> {
    let decoded = decode_page(bytes, opts.charset.as_ref(), cx.charset)?;
    from_text(&decoded.text, decoded.encoding.name(), opts, cx)
}

/// A page's bytes checked (`readable`) and decoded to UTF-8 text as [`extract()`] does:
/// `forced` wins over everything but a BOM, `transport` (an HTTP `Content-Type` charset) over
/// the page's own `<meta>`. For callers that parse pages themselves (site learning, reports).
pub fn decode_page<'b>(
    bytes: &'b [u8],
    forced: Option<&Charset>,
    transport: Option<&str>,
) -> Result<decode::Decoded<'b>, Error> {
    readable(bytes)?;
    let decoded = decode::decode(bytes, forced.map(Charset::label), transport);
    if decoded.text.len() >= u32::MAX as usize {
        return Err(Error::TooLarge);
    }
    // A transcoded page's tags were not all seen in its bytes (UTF-16's `<\0p\0`).
    if let std::borrow::Cow::Owned(text) = &decoded.text {
        within_budget(text.as_bytes(), bytes.len())?;
    }
    Ok(decoded)
}

/// [`extract_with`] on `page[start..]`, a buffer the caller gives away: when the page has to
/// be transcoded (a legacy charset, UTF-16, invalid UTF-8), its bytes are freed as soon as the
/// UTF-8 copy exists, so that the two are not both held beside the tree (memory stays
/// under 4x the record). The buffer comes back when it was kept (the page was UTF-8 already, or it
/// could not be read), for reuse.
pub fn extract_buffer(
    page: Vec<u8>,
    start: usize,
    cx: &Context<'_>,
    opts: &Options,
) -> (Result<Extracted, Error>, Option<Vec<u8>>) {
    let bytes = page.get(start..).unwrap_or_default();
    if let Err(e) = readable(bytes) {
        return (Err(e), Some(page));
    }
    let decoded = decode::decode(bytes, opts.charset.as_ref().map(Charset::label), cx.charset);
    let encoding = decoded.encoding.name();
    match decoded.text {
        std::borrow::Cow::Borrowed(text) => {
            let got = from_text(text, encoding, opts, cx);
            (got, Some(page))
        }
        std::borrow::Cow::Owned(text) => {
            let page_bytes = bytes.len();
            drop(page);
            // A transcoded page's tags were not all seen in its bytes (UTF-16's `<\0p\0`).
            if let Err(e) = within_budget(text.as_bytes(), page_bytes) {
                return (Err(e), None);
            }
            (from_text(&text, encoding, opts, cx), None)
        }
    }
}

/// Whether `bytes` can be a page at all: not blank, not binary (every reader of a page asks
/// this first, with the same answer).
pub(crate) fn readable(bytes: &[u8]) -> Result<(), Error> {
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(Error::Empty);
    }
    if decode::looks_binary(bytes) {
        return Err(Error::Binary);
    }
    within_budget(bytes, bytes.len())
}

/// Extraction of a decoded page (`encoding`: what it was read in).
fn from_text(
    text: &str,
    encoding: &'static str,
    opts: &Options,
    cx: &Context<'_>,
) -> Result<Extracted, Error> {
    if text.len() >= u32::MAX as usize {
        return Err(Error::TooLarge);
    }
    Ok(with_arena(|arena| {
        let doc = Document::parse(text, arena);
        let tuning = opts.extract.tuning();
        // The picked template's selection trimmed by `auto`'s ([`fastce::with_template`]); a
        // page that does not match it falls back to `opts.extract.algo`, reusing `auto`'s selection
        // when that was already made and is the fallback.
        let fast = cx.family.and_then(|f| {
            let pb = blocks::blocks(&doc.tree);
            let i = f.pick(|| blocks::layout(&pb))?;
            let member = f.members.get(i)?;
            Some((
                f,
                i,
                fastce::with_blocks(&doc, &pb, &member.template, &tuning),
            ))
        });
        // The block model's confidence in its selection (its best expected F1) comes with it.
        let (selection, algo, judged) = match fast {
            // The template fits but FastCE and the rules disagree: the rules' selection when
            // they are the chosen algorithm, else the chosen algorithm runs, as on a page the
            // template does not fit.
            Some((_, _, Ok((sel, "auto")))) if opts.extract.algo == Algo::Rules => {
                (sel, opts.extract.algo.name().into(), None)
            }
            Some((_, _, Ok((_, "auto")))) => {
                let (sel, judged) = extract::run_judged(&doc, &opts.extract);
                (sel, ran(opts.extract.algo, &judged).into(), judged)
            }
            Some((f, i, Ok((sel, how)))) => {
                let algo = if how == "fastce+auto" {
                    f.label(i).into()
                } else {
                    how.into()
                };
                (sel, algo, None)
            }
            Some((_, _, Err(Some(auto)))) if opts.extract.algo == Algo::Rules => {
                (auto, opts.extract.algo.name().into(), None)
            }
            _ => {
                let (sel, judged) = extract::run_judged(&doc, &opts.extract);
                (sel, ran(opts.extract.algo, &judged).into(), judged)
            }
        };
        let output::Rendered { text, images } =
            output::render_page(&doc, &selection, &opts.output, cx.url);
        if opts.metadata {
            // The models were trained on the plain text's figures (line count, line lengths),
            // and language detection reads words, not Markdown's markup (`lang` is the same
            // under `json` and `json-markdown`): Markdown output is rendered once more as text
            // for them.
            let plain;
            let model_text = if opts.output.format == output::Format::Text {
                &text
            } else {
                plain = output::render(&doc, &selection, &output::RenderOptions::default());
                &plain
            };
            // The page models were trained on the rules' output (`pith-lab pages`): under the
            // block model, they read the rules' selection it read, so a page's type does not
            // depend on the algorithm.
            let rules_render;
            let features = match &judged {
                Some(j) => {
                    let rules = Selection {
                        nodes: j.rules.nodes.clone(),
                    };
                    let rules = if opts.extract.keeps_one_copy() {
                        extract::repeats::keep_once(&doc, rules)
                    } else {
                        rules
                    };
                    // Where the model kept what the rules kept (most pages), their text is the
                    // plain text of the output, rendered already.
                    let rules_text: &str = if rules.nodes == selection.nodes {
                        model_text
                    } else {
                        rules_render =
                            output::render(&doc, &rules, &output::RenderOptions::default());
                        &rules_render
                    };
                    model::features(&doc, &rules, rules_text, cx.url)
                }
                None => model::features(&doc, &selection, model_text, cx.url),
            };
            let m = metadata::read(&doc, model_text, cx.url);
            // The block model's own expectation (its best expected F1); the page model's
            // estimate for the rules' output, which it was trained on; none for another
            // algorithm's.
            let models = !model::models_skipped();
            let confidence = match &judged {
                Some(j) => Some(j.best_f1),
                None => {
                    (algo == Algo::Rules.name() && models).then(|| model::confidence(&features))
                }
            };
            return Extracted {
                url: m.url,
                title: m.title.map(output::no_controls),
                lang: m.lang,
                date: m.date,
                date_source: m.date_source,
                author: m.author,
                sitename: m.sitename,
                description: m.description,
                image: m.image,
                categories: m.categories,
                tags: m.tags,
                lang_source: m.lang_source,
                text,
                images,
                algo,
                encoding,
                page_type: models.then(|| model::page_type(&features)),
                confidence,
                features,
            };
        }
        Extracted {
            title: doc.title().map(|t| output::no_controls(output::nfc(t))),
            lang: doc.lang(),
            date: doc.date(),
            text,
            images,
            algo,
            encoding,
            ..Extracted::default()
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

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "<html><body><nav><a href=/>Home</a></nav><article><p>Gr\u{fc}\u{df}e aus \
        K\u{f6}ln: the council approved the new bridge on Tuesday, after a debate of four \
        hours, and building starts in May.</p></article></body></html>";

    #[test]
    fn markup_counts_tags_comments_and_end_tags_after_text() {
        assert_eq!(markup(b"<p>a<br><!-- c --><?x?>"), 4);
        // An end tag right after text may split it; one right after a tag does not.
        assert_eq!(markup(b"x</b>y</b>"), 2);
        assert_eq!(markup(b"<div><div></div></div>"), 2);
        // `<` before a space, a digit or the end is text.
        assert_eq!(markup(b"a < b <3 <"), 0);
        assert_eq!(markup(b"</b>"), 0);
    }

    #[test]
    fn a_utf16_page_is_held_to_the_budget_of_its_tags() {
        // `<\0p\0` is no tag to a byte count: the UTF-8 copy is counted.
        let n = element_budget(0) as usize + 1;
        let mut page = vec![0xFF, 0xFE];
        page.extend("<p>x".repeat(n).encode_utf16().flat_map(u16::to_le_bytes));
        assert_eq!(readable(&page), Ok(()));
        let (got, back) = extract_buffer(page, 0, &Context::default(), &Options::default());
        assert!(back.is_none());
        assert_eq!(
            got,
            Err(Error::TooDense {
                elements: n as u64,
                budget: element_budget(2 + 8 * n)
            })
        );
    }

    #[test]
    fn a_given_buffer_is_freed_once_transcoded_and_returned_otherwise() {
        // The rules, which keep just the article of this small page (the block model keeps the
        // menu's "Home" too): the buffer's handling is the same under every algorithm.
        let mut opts = Options::default();
        opts.extract.algo = Algo::Rules;
        let head = b"HTTP/1.1 200 OK\r\n\r\n".to_vec();
        let with_head = |body: &[u8]| [head.as_slice(), body].concat();

        // UTF-8 already: read in place, the buffer comes back as it was.
        let utf8 = with_head(PAGE.as_bytes());
        let (got, back) = extract_buffer(utf8.clone(), head.len(), &Context::default(), &opts);
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
            let cx = Context {
                charset,
                ..Context::default()
            };
            let (got, back) = extract_buffer(with_head(&body), head.len(), &cx, &opts);
            assert!(back.is_none(), "{encoding}");
            assert_eq!(got, extract(&body, charset, &opts), "{encoding}");
            let got = got.expect("page");
            assert_eq!((got.text, got.encoding), (want.text.clone(), encoding));
        }

        // A page that cannot be read keeps its buffer too.
        let blank = with_head(b"  \n ");
        let (got, back) = extract_buffer(blank.clone(), head.len(), &Context::default(), &opts);
        assert_eq!((got, back), (Err(Error::Empty), Some(blank)));
    }
}
