//! The learned block model: `--algorithm model`.
//!
//! `auto`'s rules choose one container per page and cut inside it; where that choice fails (a
//! listing, a service page of many short texts, a post beside its comments) no rule mends it.
//! This algorithm asks, block by block, whether a human would call it content: each text block
//! of the page ([`analysis`]: cut where the text renderer cuts lines) is described by the
//! numbers of [`features`] (its text, what `auto` decided about it and why, DANAg's profile at
//! its line, where it lies, its class/id words hashed as FastCE hashes its features, its
//! neighbours), a gradient-boosted forest ([`trees`], trained by `just train` on the gold sets
//! in `../shared/data` and compiled in: nothing is read at run time) gives the probability
//! that it is content, and the blocks at or above a threshold are the selection.
//!
//! The thresholds are the trainer's, chosen on out-of-fold predictions of the training pages
//! (never on a page it is scored on): the one with the best mean page F1 by default, the best
//! F0.5 for `--precision` (a kept block more surely content) and the best F2 for `--recall`
//! (less content lost). How it does on pages it was not trained on is in `docs/model.md`.

pub mod analysis;
pub mod features;
pub mod forest;
