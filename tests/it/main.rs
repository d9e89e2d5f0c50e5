//! The library's integration tests, one module per concern, in one test binary.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/generated.rs"]
mod generated;

mod auto_rules;
mod block_model;
mod families;
mod fastce;
mod fault_kinds;
mod hostile;
mod hostile_fuzz;
mod layers;
mod model_report;
mod never_empty;
mod page_model;
mod props;
mod repeats;
mod template_detectors;
mod template_file;
