//! The command's integration tests, one module per concern, in one test binary (one link
//! instead of one per file: `cargo test` on a fresh clone builds in minutes). `memory.rs`
//! and `memory_budget.rs` stay binaries of their own: they measure a child's peak memory,
//! which counts what this process holds when it starts the child.

#[path = "../../../tests/common/mod.rs"]
mod common;
mod damage_harness;
#[path = "../../../tests/common/generated.rs"]
mod generated;
mod run_util;

mod auto_pages;
mod cli;
mod compressed;
mod damage;
mod damage_exit;
mod damage_records;
mod damage_streams;
mod eval_peers;
mod explain;
mod explain_browser;
mod families;
mod filters;
mod formats;
mod hostile_streams;
mod images;
mod metadata_fields;
mod model;
mod output_dir;
mod page_fields;
mod props;
mod repeats_pages;
mod run_report;
mod streams;
mod streams_faults;
mod streams_json;
mod streams_samples;
mod streams_split;
mod template_detectors;
mod templates;
mod templates_faults;
