//! FastCE in the library: a template applied alone, as the paper runs it (sub-blocks at paths
//! no training page had, blocks between the article's paragraphs), the template's P, and
//! `--templates`' focused judging against judging every block then intersecting, on every
//! site-year of msv_big9 (in ../shared: ignored without it, see tests/common). Learning and
//! applying templates through the command: `cli/tests/it/templates.rs`.

use crate::common;
use crate::common::sites::{div_site_page, story_site_page};
use crate::common::sorted_files as html_files;

use std::path::{Path, PathBuf};

/// msv_big9, of ../shared.
fn msv() -> PathBuf {
    common::shared("data/msv_big9")
}

/// FastCE alone on a page, as the paper runs it: its text, or `None` when it falls back.
fn fastce_alone(html: &str, t: &pith::site::Template) -> Option<String> {
    let arena = bumpalo::Bump::new();
    let doc = pith::lab::html::Document::parse(html, &arena);
    let sel = pith::lab::extract::fastce::detect(&doc, t).selection?;
    Some(pith::lab::output::render(
        &doc,
        &sel,
        &pith::lab::output::RenderOptions::default(),
    ))
}

/// The template of `host` learned from pages 0-5 of a generated site (`page(n, "", "")`).
fn learn_site(page: fn(usize, &str, &str) -> String, host: &str) -> pith::site::Template {
    let pages: Vec<_> = (0..6)
        .map(|n| pith::lab::site::learn::summarize(page(n, "", "").as_bytes(), None))
        .collect::<Result<_, _>>()
        .expect("summaries");
    pith::lab::site::learn::learn(&pages, host, Default::default())
}

/// A quotation inside the article block sits at a path no training page had: the paper's
/// sub-block rules leave it out (it is not in P and holds nothing in P), but the template has
/// no evidence against it, so it is extracted with the article block around it. A block at an
/// unseen path outside every extracted block (a new widget) stays out. FastCE alone here; with
/// `auto`, through `pith --templates`: `cli/tests/it/templates.rs`.
#[test]
fn fastce_alone_keeps_a_sub_block_at_a_path_no_training_page_had() {
    let quote = "We waited years for this, said a commuter from the coast.";
    let widget = "Win a weekend by the sea in our summer quiz.";
    let t = learn_site(div_site_page, "div.example");
    let page = div_site_page(
        6,
        &format!("<blockquote>{quote}</blockquote>"),
        &format!("<aside><p>{widget}</p></aside>"),
    );
    let alone = fastce_alone(&page, &t).expect("the page matches the template");
    assert!(alone.contains("Night buses return"), "{alone}");
    assert!(alone.contains(quote), "{alone}");
    for boiler in [widget, "Copyright", "Home"] {
        assert!(!alone.contains(boiler), "{boiler} in {alone}");
    }
}

/// The article's container is not in P (its own content is empty), so Section III's rules,
/// which only look inside blocks in P, drop a list between its paragraphs unseen: the list's
/// path is not in P and holds nothing in P. A block between two blocks in P of the same
/// container is extracted as a block of its own and judged: the list is content, the box
/// every training page repeated between the paragraphs is identical to a non-content block
/// of training and stays out, and a widget after the container (not between content blocks)
/// stays out too.
#[test]
fn a_list_between_the_articles_paragraphs_is_judged_not_dropped() {
    let item = "Ferries keep running on the winter timetable until the bridge opens.";
    let widget = "Win a weekend by the sea in our summer quiz.";
    let t = learn_site(story_site_page, "story.example");
    let story = pith::lab::extract::blocks::path_of("html.body.div.div");
    assert!(!t.in_p(pith::lab::extract::blocks::path_of("html.body.div")));
    assert!(t.in_p(pith::lab::extract::blocks::path_of("html.body.div.p")));
    assert!(!t.in_p(story) && t.knows(story), "the repeated box's path");
    let page = story_site_page(
        7,
        &format!("<ul><li>{item}</li></ul>"),
        &format!("<aside><p>{widget}</p></aside>"),
    );
    let alone = fastce_alone(&page, &t).expect("the page matches the template");
    assert!(alone.contains("Farmers expect an early harvest"), "{alone}");
    assert!(alone.contains(item), "{alone}");
    for boiler in [widget, "Advertisement", "Copyright", "Home"] {
        assert!(!alone.contains(boiler), "{boiler} in {alone}");
    }
    // In page order: the list comes between the first and the second paragraph.
    let (first, list, second) = (
        alone.find("Farmers expect").expect("first"),
        alone.find(item).expect("list"),
        alone.find("The council approved").expect("second"),
    );
    assert!(first < list && list < second, "{alone}");
}

/// `--templates` judges only the template's blocks that hold text `auto` selected. On real
/// pages (three held-out pages of every site-year of msv_big9) that gives exactly what judging
/// every block and then intersecting gives: `auto`'s text in blocks the whole-page detection
/// calls content (and `auto`'s answer when the template calls none of its text content).
#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn judging_only_autos_blocks_changes_no_answer() {
    use pith::lab::extract::{auto, fastce};
    let d = msv();
    let tuning = auto::Tuning::new(auto::Mode::Balanced, false);
    let (mut compared, mut matched) = (0, 0);
    for site in html_files(&d).iter().map(Path::new).filter(|p| p.is_dir()) {
        for year in html_files(site) {
            let files = html_files(&Path::new(&year).join("html"));
            let sums: Vec<_> = files
                .iter()
                .map(|f| {
                    let html = std::fs::read(f).expect("page");
                    pith::lab::site::learn::summarize(&html, None).expect("summary")
                })
                .collect();
            for (i, file) in files.iter().enumerate().take(3) {
                let others = pith::lab::site::learn::leave_out(&sums, i);
                let t = pith::lab::site::learn::learn(&others, "site", Default::default());
                let bytes = std::fs::read(file).expect("page");
                let html = pith::lab::decode::decode(&bytes, None, None).text;
                let arena = bumpalo::Bump::new();
                let doc = pith::lab::html::Document::parse(&html, &arena);
                compared += 1;
                let Some(whole) = fastce::detect(&doc, &t).selection else {
                    continue;
                };
                matched += 1;
                // What `--templates` outputs: the focused answer, or `auto`'s on a fallback.
                let got = match fastce::with_template(&doc, &t, &tuning) {
                    Ok((sel, algo)) => (sel.nodes, algo),
                    Err(Some(auto)) => (auto.nodes, "auto"),
                    Err(None) => panic!("{file}: the layout matched for one and not the other"),
                };
                let auto = auto::extract(&doc, &tuning);
                let in_whole = |id: &u32| whole.nodes.binary_search(id).is_ok();
                let want = if auto.nodes.is_empty() {
                    (whole.nodes, "fastce")
                } else if !auto.nodes.iter().any(in_whole) {
                    // The template calls none of `auto`'s text content: a fallback.
                    (auto.nodes, "auto")
                } else {
                    let nodes: Vec<u32> = auto.nodes.iter().copied().filter(in_whole).collect();
                    let (sel, algo) =
                        fastce::with_auto(&doc, pith::lab::extract::Selection { nodes }, auto);
                    (sel.nodes, algo)
                };
                assert_eq!(got, want, "{file}");
            }
        }
    }
    println!("{matched} of {compared} pages matched their template");
    assert!(
        compared >= 100 && matched * 2 > compared,
        "{matched} of {compared}"
    );
}
