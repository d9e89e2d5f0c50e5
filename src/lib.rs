//! pith: reads web pages and writes their main content.
//!
//! The public API, what this page lists:
//!
//! - **One page:** [`extract()`] with [`Options`] gives an [`Extracted`] (or an [`Error`] when
//!   the bytes cannot be a page); [`extract_with`] takes a [`Context`] (the page's URL, its
//!   site's templates). [`Options`] is built with [`Options::new`] and its `with_*` methods:
//!   the algorithm ([`Algo`], [`AlgoOptions`], the parameters in [`algo`]), the leaning
//!   ([`Mode`]), the charset ([`Charset`]) and the rendering ([`Format`], [`RenderOptions`]).
//! - **Records:** an [`Input`] (files, stdin, WARC, JSON lines, plain or compressed) read with
//!   [`pipeline::JsonLines`], or [`input::for_each_page`].
//! - **A run:** [`pipeline::run`] with a [`pipeline::Config`]: records in, documents out in
//!   input order, faults and skips reported as [`pipeline::Event`]s and counted in a
//!   [`pipeline::Summary`].
//! - **Scoring and reports:** [`eval`] (gold sets scored the way the field scores them) and
//!   [`explain`] (why a page came out as it did).
//! - **Site templates:** [`site`]: learn a host's FastCE templates, store and load them,
//!   cluster a host's pages, and take a site's template from the pages its menu links.
//!
//! Every option type's `FromStr` fails with an [`UnknownName`]; a file that cannot be read or
//! written is a [`FileError`].
//!
//! Inside, a page flows through private stages in this order, each importing only those
//! before it: input (framing), decode (charset), html (the scanner and the arena tree),
//! extract (the algorithms), output (rendering), page (one page's front door), site, pipeline,
//! eval and explain. `docs/internals.md` maps them. The research lab (`pith-lab`, the benches
//! and the fuzz targets) reaches the internals through a hidden `lab` module that promises
//! nothing.
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
#![warn(unreachable_pub)]

mod decode;
mod extract;
mod files;
mod hash;
mod html;
mod names;
mod output;
mod page;
mod text;

pub mod eval;
pub mod explain;
pub mod input;
pub mod pipeline;
pub mod site;

#[doc(hidden)]
pub mod lab;

pub use decode::Charset;
pub use extract::auto::Mode;
pub use extract::{Algo, AlgoOptions, AnyAlgo, SiteAlgo, SiteParams};
pub use files::FileError;
pub use input::{Framing, Input};
pub use names::UnknownName;
pub use output::{Format, Image, RenderOptions};
pub use page::metadata::{DateSource, LangSource, lang_tag};
pub use page::model::PageType;
pub use page::{Context, Error, Extracted, Options, extract, extract_with};

/// The parameters of the algorithms that [`AlgoOptions`] and [`SiteParams`] hold, each with
/// its paper's default.
pub mod algo {
    /// DANAg (`--algo danag`): see `docs/references.md`.
    pub mod danag {
        pub use crate::extract::danag::PAPER_GAP;
    }
    /// ContentExtractor over a site's pages (`--algo ce`, `pith template learn`).
    pub mod ce {
        pub use crate::extract::ce::{DEFAULT_SHARE, Params};
    }
    /// The DOM-hash template detector (`--algo tmpl-dom`).
    pub mod tmpl_dom {
        pub use crate::extract::tmpl_dom::Params;
    }
    /// The text-shingle template detector (`--algo tmpl-text`).
    pub mod tmpl_text {
        pub use crate::extract::tmpl_text::Params;
    }
}
