//! The damage invariant on a damage the fuzzer chooses: a WARC built from known records (plain,
//! one gzip member per record, or one member for the whole file), one record truncated,
//! flipped, grown, shrunk, given a wrong Content-Length, stored in the other framing or spliced
//! into a second file; every other record comes out byte for byte as from the clean file, the
//! damaged one with at most one error line, and the sequential and the split reader agree. The
//! same check runs on 1,000 seeded cases in `cargo test` (cli/tests/it/damage.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;
#[path = "../../cli/tests/it/damage_harness/mod.rs"]
mod damage_harness;

use damage_harness::{Case, check};

fuzz_target!(|data: &[u8]| {
    let case = Case::from_bytes(data);
    if let Err(e) = check(&case) {
        panic!("{case:?}: {e}");
    }
});
