//! The gold data of the data tests: `../shared` beside the repository, or the folder
//! `PITH_SHARED_DIR` names, as build.rs found it. The tests of `cli/` and `lab/` include this
//! file too (`#[path]`).
//!
//! A test that reads it is marked
//! `#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]`: build.rs sets
//! `pith_no_shared` when `data/` is absent, so the test is reported ignored there, never passed;
//! with `PITH_REQUIRE_SHARED=1` (`.ci/run`) it is not set and the test runs. The test takes its
//! files from [`shared`], which fails it, naming what is missing, when they are not there.
#![allow(dead_code)]

pub mod sites;
pub mod template_file;

use std::path::PathBuf;

/// `rel` (`data/scrapinghub`, `peers/scrapinghub.json`...) in the shared folder, which must be
/// there: a data test fails when its data is missing.
#[track_caller]
pub fn shared(rel: &str) -> PathBuf {
    let path = PathBuf::from(env!("PITH_TEST_SHARED_DIR")).join(rel);
    assert!(
        path.exists(),
        "{} is missing: this test needs the gold data of ../shared (or of PITH_SHARED_DIR); \
         without ../shared/data it is ignored, unless PITH_REQUIRE_SHARED=1",
        path.display()
    );
    path
}

/// xorshift64 (Marsaglia 2003): generated pages and bytes differ from run to run of a test
/// only through its seed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn words(&mut self, n: usize) -> String {
        const W: &[&str] = &[
            "river", "council", "budget", "station", "harbour", "winter", "museum", "school",
            "market", "bridge", "garden", "festival", "doctor", "village", "engine", "island",
            "letter", "summer", "theatre", "farmer", "window", "silver", "forest", "signal",
        ];
        (0..n)
            .map(|_| W[self.below(W.len() as u64) as usize])
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// FNV-1a 64 of `bytes` (offset basis 0xcbf29ce484222325, prime 0x100000001b3), as its
/// specification gives it: the template file's checksum (`tests/common/template_file.rs`), and
/// enough to tell pages apart in a comparison.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The WARC samples of `../shared/data`, with their MANIFEST.
#[track_caller]
pub fn warc_samples() -> PathBuf {
    shared("data/warc_samples/MANIFEST.json");
    shared("data/warc_samples")
}

/// The paths of the entries of `dir`, sorted; fails the test when `dir` cannot be read.
#[track_caller]
pub fn sorted_files(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.path().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// The gold sets of the shared folder's `data/`, each opened on its first page asked for (the
/// model tests read pages of several sets, in the order of the trainer's table).
#[derive(Default)]
pub struct GoldSets(std::collections::BTreeMap<String, pith::eval::Dataset>);

impl GoldSets {
    /// The bytes of page `id` of the set `set`; fails the test when either is missing.
    #[track_caller]
    pub fn page(&mut self, set: &str, id: &str) -> Vec<u8> {
        let ds = self.0.entry(set.to_string()).or_insert_with(|| {
            pith::eval::Dataset::open(&shared(&format!("data/{set}"))).expect("gold set")
        });
        ds.page(id).unwrap_or_else(|e| panic!("{set}/{id}: {e}"))
    }
}
