//! The report of `pith explain --algo model` (`pith::explain`, which the command writes) on
//! the sample page: each block's probability of content, against the thresholds of the model
//! compiled into the library (`pith::lab::extract::learned`).

#[test]
fn explain_shows_each_blocks_probability_of_content() {
    let page = std::fs::read("tests/pages/article.html").expect("tests/pages/article.html");
    let opts = pith::Options::new(pith::Algo::Model);
    let html = pith::explain::explain(&page, "article", &opts)
        .expect("a report")
        .html;
    let t = pith::lab::extract::learned::model().threshold;
    assert!(html.contains(
        "text blocks reach their threshold and are kept: the best expected F1 of the page is 0."
    ));
    assert!(html.contains(&format!(
        "a block needs a probability of content of at least {:.2} of it",
        t.kept
    )));
    assert!(html.contains(&format!(
        "{:.2} of it and at least {:.2} (",
        t.added, t.floor
    )));
    let above = html.matches("(at or above the threshold").count();
    let below = html.matches("(below the threshold").count();
    assert!(above >= 10 && below >= 10, "{above} above, {below} below");
}
