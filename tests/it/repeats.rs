//! A text the page repeats is kept once (`extract::repeats`), on real pages of
//! `../shared/data`: a page printed twice reads once and scores higher against its gold, a
//! table's repeated values stay, and over a whole set the default scores above
//! `--keep-repeats`. Ignored without the data (tests/common).

use crate::common;

use pith::eval::Dataset;
use pith::lab::eval::metrics;
use pith::lab::page::{Context, Options};
use pith::lab::text::tokens;

fn set(name: &str) -> Dataset {
    Dataset::open(&common::shared(&format!("data/{name}"))).expect("gold set")
}

/// The default algorithm's (the block model's) text of `bytes`, keeping every repeat or not.
fn text(bytes: &[u8], keep_repeats: bool) -> String {
    let mut opts = Options::default();
    opts.extract.keep_repeats = keep_repeats;
    pith::lab::page::extract_with(bytes, &Context::default(), &opts)
        .expect("extracts")
        .text
}

/// Bag-of-words F1 of `text` against page `id`'s gold.
fn f1(ds: &Dataset, id: &str, text: &str) -> f64 {
    let gold = ds.gold(id).text.expect("a text gold");
    metrics::bow(&tokens(text), &tokens(&gold)).f1
}

fn count(text: &str, line: &str) -> usize {
    text.lines().filter(|l| *l == line).count()
}

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn a_page_printed_twice_reads_once_and_scores_higher() {
    // podium.com prints its article twice (two layouts); the gold holds it once.
    let ds = set("wcxb_train");
    let bytes = ds.page("0219").expect("page");
    let (once, every) = (text(&bytes, false), text(&bytes, true));
    let heading = "Who is the Target Market for Plumbers?";
    assert_eq!(count(&every, heading), 2, "{every}");
    assert_eq!(count(&once, heading), 1, "{once}");
    let (f_once, f_every) = (f1(&ds, "0219", &once), f1(&ds, "0219", &every));
    assert!(
        f_once > f_every + 0.2,
        "F1 {f_once} once, {f_every} with repeats"
    );
}

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn a_tables_repeated_values_stay() {
    // A course schedule: every row gives its room; the gold keeps each.
    let ds = set("cleaneval_final");
    let bytes = ds.page("319").expect("page");
    let once = text(&bytes, false);
    let room = "Location:\tRm. 111, Shah Center";
    assert!(count(&once, room) >= 40, "{once}");
    assert_eq!(count(&once, room), count(&text(&bytes, true), room));
}

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn over_a_set_keeping_one_copy_scores_higher() {
    let ds = set("wcxb_dev");
    let (mut once, mut every) = (0.0, 0.0);
    for id in &ds.ids {
        let bytes = ds.page(id).expect("page");
        once += f1(&ds, id, &text(&bytes, false));
        every += f1(&ds, id, &text(&bytes, true));
    }
    let n = ds.ids.len() as f64;
    assert_eq!(ds.ids.len(), 187);
    assert!(
        once / n > every / n + 0.005,
        "mean F1 {} once, {} with repeats",
        once / n,
        every / n
    );
}
