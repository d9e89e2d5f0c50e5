//! Every rule of `auto` that `pith-lab rules` switches off (`extract::auto::Rule`) is live:
//! on a real page of `../shared/data` where the rule decides, switching it off changes the
//! text. The pages are ones where the rule moves the page's F1 by more than
//! 0.02 (`pith-lab rules`'s table); the test is ignored without the data (tests/common).

use crate::common;

use pith::lab::extract::auto::{Rule, Rules};
use pith::lab::page::{Context, Options};

/// A page of `../shared/data` for each rule: set and page id.
const PAGES: &[(&str, &str, &str)] = &[
    ("class-words", "wcxb_train", "4415"),
    ("comment-words", "wcxb_train", "2864"),
    ("boilerplate-tags", "wcxb_train", "0274"),
    ("article-header", "wcxb_train", "0175"),
    ("hidden", "wcxb_train", "4736"),
    ("wrapper", "wcxb_train", "1371"),
    ("thread", "wcxb_train", "4331"),
    ("teasers", "wcxb_train", "4908"),
    ("class-prior", "wcxb_train", "4415"),
    ("tag-prior", "wcxb_train", "4855"),
    ("danag-cover", "wcxb_train", "1371"),
    ("common-ancestor", "wcxb_train", "4855"),
    ("climb", "cleaneval_final", "364"),
    ("siblings", "wcxb_train", "4185"),
    ("recover", "wcxb_train", "0551"),
    ("legal-notice", "l3s_gn1", "560cec3d-261b-47"),
    ("link-lists", "wcxb_train", "4650"),
    ("spread", "wcxb_train", "0274"),
    ("recovered-count", "wcxb_train", "4854"),
    ("retry-classes", "wcxb_train", "2864"),
    ("layout-classes", "wcxb_train", "4435"),
    ("retry-listing", "wcxb_train", "4415"),
];

/// `auto`'s text of the page of `set` whose id starts with `id`, with `off` switched off, the
/// page's URL (from the set's `MANIFEST.json`, as `pith-lab rules` gives it) given.
fn text(set: &str, id: &str, off: Rules) -> String {
    let dir = common::shared(&format!("data/{set}"));
    let ds = pith::eval::Dataset::open(&dir).expect("set");
    let full = ds
        .ids
        .iter()
        .find(|i| i.starts_with(id))
        .unwrap_or_else(|| panic!("{set}/{id} missing"));
    let bytes = ds.page(full).expect("page");
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("MANIFEST.json")).expect("manifest"))
            .expect("manifest JSON");
    let url = manifest["urls"][full.as_str()].as_str();
    let mut opts = Options::default();
    opts.extract.algo = pith::lab::extract::Algo::Rules;
    opts.extract = pith::lab::without_rules(opts.extract, off);
    let cx = Context {
        url,
        ..Context::default()
    };
    pith::lab::page::extract_with(&bytes, &cx, &opts)
        .expect("extracts")
        .text
}

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn every_rule_switched_off_changes_a_page_it_decides() {
    // Every rule has its page.
    for rule in Rule::ALL {
        assert!(
            PAGES.iter().any(|(name, ..)| *name == rule.name()),
            "no page for {}",
            rule.name()
        );
    }
    for &(name, set, id) in PAGES {
        let rule = Rule::from_name(name).expect("a rule's name");
        let on = text(set, id, Rules::NONE);
        let off = text(set, id, Rules::NONE.with(rule));
        assert_ne!(on, off, "{name} off changed nothing on {set}/{id}");
    }
}
