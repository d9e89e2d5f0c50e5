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
