//! pith's lab: the research harnesses that reproduce the papers' tables (FastCE on msv_big9,
//! TEXT-MDL clustering, the block table a learned block model trains on, the two template detectors, link-based site templates) and the
//! generated sites with known templates they score against. Not part of the `pith` library
//! or binary; `pith-lab` runs them, and `lab/examples/` holds the profiling tools.

pub mod blocks;
pub mod pages;
pub mod rules;
pub mod sites;
pub mod synth;
