//! Issue 21: damage one record, lose only that record. The harness (`pith::input::damage`)
//! builds WARC files from known records, damages one, and checks that every other record
//! comes out byte for byte as from the clean file, with at most one error line for the damaged
//! one, and the same lines from the sequential (`-j 1`) and the split (`-j N`) reader.

use pith::input::damage::{Case, Damage, Layout, check};

#[test]
fn seeded_damages_keep_the_invariant() {
    let mut failures = Vec::new();
    for seed in 0..1000u64 {
        let case = Case::from_seed(seed);
        if let Err(e) = check(&case) {
            failures.push(format!("seed {seed} {case:?}: {}", &e[..e.len().min(3000)]));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// `SEED=n cargo test --test damage show_seed -- --ignored --nocapture` shows one case.
#[test]
#[ignore]
fn show_seed() {
    let seed: u64 = std::env::var("SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let case = Case::from_seed(seed);
    let (bytes, hit) = pith::input::damage::damaged(&case);
    println!("{case:?} hit {hit:?}");
    println!(
        "{}",
        String::from_utf8_lossy(&bytes)
            .escape_debug()
            .to_string()
            .replace("\\r\\n", "\\r\\n\n")
    );
    for split in [false, true] {
        println!("--- split {split}");
        for l in pith::input::damage::read(&bytes, split) {
            println!("{}", &l[..l.len().min(200)]);
        }
    }
    let _ = (Damage::Flip, Layout::Plain);
}

#[test]
#[ignore]
fn show_seed_records() {
    let seed: u64 = std::env::var("SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let case = Case::from_seed(seed);
    let (bytes, _) = pith::input::damage::damaged(&case);
    let mut r = pith::input::warc::Reader::new(&bytes[..], "t".into(), 1 << 20);
    while let Some(item) = r.next_item() {
        match item {
            pith::input::Item::Page(p) => {
                println!("PAGE {:?} {:?}", p.id, String::from_utf8_lossy(p.page()))
            }
            other => println!("{other:?}"),
        }
    }
}
