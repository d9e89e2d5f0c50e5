//! pith: reads web pages and writes their main content.
//!
//! One page in hand: [`extract()`] with [`Options`] gives an [`Extracted`] (or an [`Error`] when
//! the bytes cannot be a page). A stream of records (WARC, JSON lines, files): open an
//! [`Input`] and read [`pipeline::JsonLines`] from it, or run the whole [`pipeline`].
//!
//! A page flows through the modules in this order, and each imports only those before it:
//!
//! - [`input`]: framing. Files, stdin, WARC and JSON lines, plain or compressed (gzip, zstd,
//!   xz, bzip2): turns a byte stream into records with their metadata (URL, id, date,
//!   transport charset).
//! - [`decode`]: charset. BOM, a forced charset, the transport charset, the `<meta>` prescan,
//!   then detection; the page becomes UTF-8 text (borrowed when it already is).
//! - [`html`]: one memchr scan into the token stream, the arena tree built from it as it comes,
//!   attributes read lazily from tag spans.
//! - [`mod@extract`]: the algorithms (DANAg, the default `auto`, FastCE with its site-template model,
//!   and, over pages of one site, CE and the DOM-hash and text template detectors), each
//!   giving a [`html::Selection`].
//! - [`output`]: rendering a selection as text or markdown.
//! - [`page`]: one page's front door: readable check, decode, parse, extract, render, metadata.
//! - [`site`]: work over a site's pages: learning templates, the template store, clustering a
//!   host's pages, site-level templates from links.
//! - [`pipeline`]: records in, documents out: one reader, N workers, one writer, records in
//!   input order, faults handed to the caller, never printed.
//! - [`eval`]: scoring extractors against gold sets the way the field does.
//! - [`explain`]: reports that show why a page came out as it did.
//!
//! [`names`] holds the one error of every option type's `FromStr`, [`files`] the I/O error that
//! names its file.
//!
//! ```
//! let page = b"<html><body><nav><a href=/>Home</a> <a href=/news>News</a></nav>\
//!     <article><p>The council approved the new bridge on Tuesday, after a debate of four hours,\
//!     and building starts in May.</p></article><footer>Contact</footer></body></html>";
//! let got = pith::extract(page, None, &pith::Options::default()).expect("a page");
//! assert!(got.text.starts_with("The council approved the new bridge on Tuesday"));
//! assert!(!got.text.contains("Home") && !got.text.contains("Contact"));
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod decode;
pub mod eval;
pub mod explain;
pub mod extract;
pub mod files;
pub mod html;
pub mod input;
pub mod names;
pub mod output;
pub mod page;
pub mod pipeline;
pub mod site;
pub mod text;

pub use extract::{Algo, SiteAlgo};
pub use input::{Framing, Input};
pub use output::Format;
pub use page::{Error, Extracted, Options, extract};
