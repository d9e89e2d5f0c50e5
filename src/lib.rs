//! pith: reads web pages and writes their main content.
//!
//! A page flows through the modules in this order, and each module owns one step:
//!
//! - [`input`]: framing. Files, stdin, WARC (plain or gzip per record), JSON lines: turns a byte
//!   stream into records with their metadata (URL, id, date, transport charset).
//! - [`decode`]: charset. BOM, a forced charset, the transport charset, the `<meta>` prescan,
//!   then detection; the page becomes UTF-8 text (borrowed when it already is).
//! - [`html`]: one memchr scan into the token stream (start tags, end tags, text; comments and
//!   raw-text elements such as scripts found by the prepass functions), the arena tree built
//!   from it as it comes, attributes read lazily from tag spans.
//! - [`extract`]: the algorithms (DANAg on physical or normalized lines, the default `auto`,
//!   and, over pages of one site, CE and the DOM-hash and text template detectors), all behind
//!   one interface, [`extract::extract`].
//! - [`output`]: rendering the selected content as text, markdown or JSON lines.
//! - [`pipeline`]: one reader, N workers, one writer; records out in input order.
//! - [`eval`]: scoring extractors against gold sets the way the field does.
//! - [`explain`]: `pith explain` and `pith eval --html`: reports that show why a page came out
//!   as it did.
//! - [`template`]: site templates (FastContentExtractor): learning, the file format, the store;
//!   site-level templates from links (link selection, the exact top-down mapping); template
//!   paths and TEXT-MDL clustering of a host's pages (`pith cluster`), one template per cluster.

//!
//! ```
//! let page = b"<html><body><nav><a href=/>Home</a> <a href=/news>News</a></nav>\
//!     <article><p>The council approved the new bridge on Tuesday, after a debate of four hours,\
//!     and building starts in May.</p></article><footer>Contact</footer></body></html>";
//! let got = pith::extract(page, None, &pith::Options::default()).expect("a page");
//! assert!(got.text.starts_with("The council approved the new bridge on Tuesday"));
//! assert!(!got.text.contains("Home") && !got.text.contains("Contact"));
//! ```

pub mod cli;
pub mod decode;
pub mod eval;
pub mod explain;
pub mod extract;
pub mod html;
pub mod input;
pub mod output;
pub mod pipeline;
pub mod template;

pub use extract::{Algo, Extracted, Options, extract};
