//! `pith-lab pages` computes a page's features without the page models
//! (`pith::lab::page::model::skip_models`), so that a table with a feature the compiled-in
//! models do not know yet can be written. One test in its own process: the switch is for the
//! whole process.

use pith::lab::page::{Options, extract, model};

#[test]
fn with_the_models_skipped_a_page_has_its_features_and_no_type() {
    let page = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/pages/article.html"
    ))
    .expect("tests/pages/article.html is in the repository");
    let mut opts = Options {
        metadata: true,
        ..Options::default()
    };
    opts.extract.algo = pith::lab::extract::Algo::Rules;
    let with = extract(&page, None, &opts).expect("the sample page extracts");
    assert!(with.page_type.is_some() && with.confidence.is_some());
    model::skip_models();
    let without = extract(&page, None, &opts).expect("the sample page extracts");
    assert_eq!(without.page_type, None);
    assert_eq!(without.confidence, None);
    assert_eq!(without.features.values.len(), model::N_FEATURES);
    // The features are the same either way: only the models' answers are left out.
    assert_eq!(without.features, with.features);
    assert_eq!(without.text, with.text);
}
