//! Properties over generated pages (proptest, the pages of `tests/common/generated.rs`) that
//! need the binary: its output does not depend on the number of workers. The library's
//! properties (UTF-8 text, output words are input words, determinism, the tree's spans) are
//! the root's `tests/it/props.rs`.

use crate::generated::page;
use proptest::prelude::*;

/// Runs the binary on JSON lines with `-j jobs`; stdout.
fn run_jsonl(input: &[u8], jobs: &str) -> Vec<u8> {
    crate::run_util::pith(&["--format", "json", "-j", jobs], input).stdout
}

proptest! {
    // Each case starts the binary three times: fewer cases, more pages per case.
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn output_does_not_depend_on_the_number_of_workers(
        pages in proptest::collection::vec(page(), 1..24)
    ) {
        let input = crate::run_util::jsonl(
            pages
                .iter()
                .enumerate()
                .map(|(i, p)| serde_json::json!({ "id": i.to_string(), "html": p })),
        );
        let one = run_jsonl(&input, "1");
        prop_assert_eq!(one.iter().filter(|&&b| b == b'\n').count(), pages.len());
        prop_assert_eq!(&one, &run_jsonl(&input, "2"));
        prop_assert_eq!(&one, &run_jsonl(&input, "4"));
    }
}
