//! The library's integration tests, one module per concern, in one test binary.

#[path = "../common/mod.rs"]
mod common;

mod auto_rules;
mod block_model;
mod fault_kinds;
mod hostile_fuzz;
mod layers;
mod never_empty;
mod page_model;
mod repeats;
