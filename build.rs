//! Whether the gold data is there, for the tests that read it (see tests/common/mod.rs).
//!
//! The data is `../shared` beside the repository (`data/`, `peers/`, `patho/`), or the folder
//! `PITH_SHARED_DIR` names (relative to the repository's root, the folder of `Cargo.lock`). Without its `data/` the data tests are
//! compiled `#[ignore]`d (`cfg(pith_no_shared)`), unless `PITH_REQUIRE_SHARED=1` (as `.ci/run`
//! sets), when they run and fail. The folder reaches the tests as `env!("PITH_TEST_SHARED_DIR")`.
//! The packages in `cli/` and `lab/` run this same file (`build = "../build.rs"`).

use std::path::PathBuf;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(pith_no_shared)");
    println!("cargo::rerun-if-env-changed=PITH_SHARED_DIR");
    println!("cargo::rerun-if-env-changed=PITH_REQUIRE_SHARED");
    let here = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    // The repository's root: this package's folder, or the one above for `cli/` and `lab/`.
    let root = here
        .ancestors()
        .find(|d| d.join("Cargo.lock").is_file())
        .unwrap_or(&here)
        .to_path_buf();
    println!(
        "cargo::rerun-if-changed={}",
        root.join("build.rs").display()
    );
    let shared = root.join(std::env::var_os("PITH_SHARED_DIR").unwrap_or("../shared".into()));
    let data = shared.join("data");
    println!("cargo::rustc-env=PITH_TEST_SHARED_DIR={}", shared.display());
    if data.is_dir() {
        // Gone later, it is a missing file to Cargo, which runs this again. (A missing path is
        // not watched while it is missing: Cargo would run this, and rebuild the package, on
        // every build. Data fetched later: `touch build.rs`.)
        println!("cargo::rerun-if-changed={}", data.display());
    } else if std::env::var_os("PITH_REQUIRE_SHARED").is_none_or(|v| v != "1") {
        println!("cargo::rustc-cfg=pith_no_shared");
    }
}
