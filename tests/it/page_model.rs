//! The page models compiled into the library (`pith::lab::page::model`) give the trainer's own
//! predictions on every page it trained on: the features recomputed here from
//! ../shared/data by the library, the forests walked by its evaluator, against
//! lab/train/page_predictions.tsv (written by `just train`). A difference means the evaluator
//! or the features drifted from what the models were trained on; `just train` again.

use crate::common;

use pith::lab::page::{Context, Options, model};

/// Predictions are written with nine decimals; the evaluator must agree to 1e-6.
const TOLERANCE: f64 = 1e-6;

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn the_evaluator_gives_the_trainers_predictions_on_every_training_page() {
    let table = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lab/train/page_predictions.tsv"),
    )
    .expect("lab/train/page_predictions.tsv");
    let mut lines = table.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    assert_eq!(header[..3], ["set", "page", "url"]);
    let classes: Vec<&str> = model::model().classes.iter().map(|c| c.name()).collect();
    assert_eq!(header[3..header.len() - 1], classes);
    // The rules' output, as the page table (`pith-lab pages`) computes it: the confidence
    // model estimates its F1.
    let mut opts = Options {
        metadata: true,
        ..Options::default()
    };
    opts.extract.algo = pith::lab::extract::Algo::Rules;
    let mut sets = common::GoldSets::default();
    let (mut rows, mut worst) = (0, 0.0f64);
    for line in lines {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), header.len(), "{line}");
        let (set, page, url) = (cols[0], cols[1], cols[2]);
        let bytes = sets.page(set, page);
        let cx = Context {
            url: (url != "-").then_some(url),
            ..Context::default()
        };
        let e = pith::lab::page::extract_with(&bytes, &cx, &opts).expect("readable");
        assert_eq!(e.features.values.len(), model::N_FEATURES);
        let want: Vec<f64> = cols[3..]
            .iter()
            .map(|v| v.parse().expect("number"))
            .collect();
        let mut got = model::type_probs(&e.features);
        got.push(model::confidence(&e.features));
        for (g, w) in got.iter().zip(&want) {
            let d = (g - w).abs();
            worst = worst.max(d);
            assert!(
                d <= TOLERANCE,
                "{set}/{page}: the evaluator gives {got:?}, the trainer {want:?}"
            );
        }
        assert!(
            e.page_type.is_some(),
            "{set}/{page}: no page_type with metadata"
        );
        assert_eq!(e.confidence, got.last().copied());
        rows += 1;
    }
    assert!(rows >= 1_800, "{rows} rows");
    eprintln!("{rows} pages, largest difference {worst:e}");
}
