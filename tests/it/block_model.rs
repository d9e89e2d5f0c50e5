//! The block models compiled into the library (`pith::lab::extract::learned`) give the trainer's
//! own scores on every block they trained on: the features recomputed here from
//! ../shared/data by the library, the forests walked by its evaluator, against
//! lab/train/block_predictions.tsv (written by `just train`: per page, the number of blocks,
//! an FNV-1a hash of each model's raw scores' f64 bits in block order, and the page's best
//! expected F1 that the thresholds are fractions of). The hashes ask for
//! the same bits, not nearly the same numbers: the evaluator adds the same leaf values in the
//! same order as LightGBM, and the second model's inputs from the first one's probabilities
//! are computed in the trainer's order. A difference means the evaluator or the features
//! drifted from what the models were trained on; `just train` again.

use crate::common;

use pith::lab::extract::blocks::{FNV_OFFSET, fnv1a};
use pith::lab::extract::learned;
use pith::lab::html::Document;

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn the_evaluator_gives_the_trainers_scores_on_every_training_block() {
    let table = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lab/train/block_predictions.tsv"),
    )
    .expect("lab/train/block_predictions.tsv");
    let mut lines = table.lines();
    assert_eq!(
        lines.next(),
        Some("set\tpage\tblocks\tfnv_block\tfnv_runs\tmean_probability\tbest_f1")
    );
    let mut sets = common::GoldSets::default();
    let (mut pages, mut blocks, mut worst) = (0, 0, 0.0f64);
    for line in lines {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 7, "{line}");
        let (set, page) = (cols[0], cols[1]);
        let bytes = sets.page(set, page);
        let decoded = pith::lab::page::decode_page(&bytes, None, None).expect("readable");
        let arena = bumpalo::Bump::new();
        let doc = Document::parse(&decoded.text, &arena);
        let d = learned::describe(&doc);
        let (first, raw) = learned::raw_scores(&d);
        assert_eq!(raw.len().to_string(), cols[2], "{set}/{page}: blocks");
        let hash = |scores: &[f64]| {
            let bits: Vec<u8> = scores.iter().flat_map(|r| r.to_le_bytes()).collect();
            format!("{:016x}", fnv1a(FNV_OFFSET, &bits))
        };
        let mean = raw
            .iter()
            .map(|&r| pith::lab::extract::learned::forest::logistic(r))
            .sum::<f64>()
            / raw.len().max(1) as f64;
        let want: f64 = cols[5].parse().expect("number");
        worst = worst.max((mean - want).abs());
        assert_eq!(
            hash(&first),
            cols[3],
            "{set}/{page}: the first model's scores differ from the trainer's"
        );
        assert_eq!(
            hash(&raw),
            cols[4],
            "{set}/{page}: the second model's scores differ from the trainer's (mean \
             probability {mean:.9} against {want:.9})"
        );
        // The page's best expected F1, which the thresholds are fractions of: the same f64.
        let judged = learned::judge_scores(&d, &raw, pith::lab::extract::auto::Mode::Balanced);
        let best: f64 = cols[6].parse().expect("number");
        assert_eq!(
            judged.best_f1.to_bits(),
            best.to_bits(),
            "{set}/{page}: best expected F1 {} against the trainer's {best}",
            judged.best_f1
        );
        pages += 1;
        blocks += raw.len();
    }
    assert!(
        pages >= 1_800 && blocks >= 400_000,
        "{pages} pages, {blocks} blocks"
    );
    eprintln!("{pages} pages, {blocks} blocks, same bits; mean probability within {worst:e}");
}

/// `--algo model --comments` keeps what the model keeps plus the comments `auto` finds (the
/// text `auto` adds when it keeps comments), in every mode and with one of `auto`'s rules off:
/// the extractor, which reuses the `auto` selection the model read when the options are the
/// ones it was trained on, gives the selection spelled out from its parts. Over dragnet, whose
/// gold keeps comments.
#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn the_model_adds_the_comments_auto_finds_on_dragnet() {
    use pith::lab::extract::{self, Algo, AlgoOptions, auto};
    let ds = pith::eval::Dataset::open(&common::shared("data/dragnet")).expect("dragnet");
    let mut with_comments = 0;
    for id in &ds.ids {
        let bytes = ds.page(id).expect("page");
        let decoded = pith::lab::page::decode_page(&bytes, None, None).expect("readable");
        let arena = bumpalo::Bump::new();
        let doc = Document::parse(&decoded.text, &arena);
        for mode in [
            auto::Mode::Balanced,
            auto::Mode::Precision,
            auto::Mode::Recall,
        ] {
            for rules_off in [
                auto::Rules::NONE,
                auto::Rules::NONE.with(auto::Rule::Hidden),
            ] {
                let mut opts = AlgoOptions::default();
                opts.algo = Algo::Model;
                opts.mode = mode;
                opts.comments = true;
                opts.keep_repeats = true;
                let opts = pith::lab::without_rules(opts, rules_off);
                let comments = extract::comments(&doc, &opts);
                with_comments += usize::from(!comments.is_empty());
                let spelled_out = extract::with_comments(learned::extract(&doc, mode), &comments);
                assert_eq!(
                    extract::run(&doc, &opts).nodes,
                    spelled_out.nodes,
                    "dragnet/{id} {mode:?} {rules_off:?}"
                );
            }
        }
    }
    // Comments were found, so the test compared something.
    assert!(with_comments >= 60, "{with_comments} runs with comments");
}
