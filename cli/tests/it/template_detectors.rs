//! The paper's two template detectors over pages given together (`--algo tmpl-dom`,
//! `--algo tmpl-text`): the small site in tests/pages, then a real site-year of msv_big9 (in
//! ../shared: ignored without it, see tests/common). The detectors on hostile pages, in-process,
//! are the library's (`tests/it/template_detectors.rs`).

use crate::common;

use crate::run_util;
use run_util::pith_args as pith;

use std::path::Path;

fn pages(dir: &Path) -> Vec<String> {
    let mut v = common::sorted_files(dir);
    v.retain(|p| p.ends_with(".html"));
    v
}

/// `pith --algo ALGO FILE...` with the default parameters, `pith site --algo ALGO KNOBS
/// FILE...` with others (the detectors' parameters are `pith site`'s flags).
fn run(algo: &str, extra: &[&str], files: &[String]) -> Vec<String> {
    let mut args = if extra.is_empty() {
        vec![]
    } else {
        vec!["site"]
    };
    args.extend(["--algo", algo]);
    args.extend_from_slice(extra);
    args.extend(files.iter().map(String::as_str));
    let o = pith(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout)
        .expect("utf-8")
        .split("\x0c\n")
        .map(str::to_string)
        .collect()
}

#[test]
fn both_detectors_remove_the_sites_template_and_keep_each_story() {
    let files = pages(Path::new("../tests/pages/site-news"));
    assert_eq!(files.len(), 6);
    for algo in ["tmpl-dom", "tmpl-text"] {
        let out = run(algo, &[], &files);
        assert_eq!(out.len(), 6, "{algo}");
        assert!(
            out[0].contains(
                "The city council approved the new river bridge on Tuesday after a debate that lasted four hours."
            ),
            "{algo}: {}",
            out[0]
        );
        assert!(out[5].contains("Sleeper trains will run again"), "{algo}");
        for boiler in [
            "Business",
            "Most read",
            "Storm warning for the weekend",
            "morning newsletter",
            "All rights reserved",
            "Privacy policy",
        ] {
            assert!(
                out.iter().all(|p| !p.contains(boiler)),
                "{algo} kept {boiler}"
            );
        }
    }
}

#[test]
fn parameters_change_what_is_template() {
    let files = pages(Path::new("../tests/pages/site-news"));
    // A lower threshold above the number of pages: nothing is repeated often enough.
    let out = run(
        "tmpl-dom",
        &["--dom-lower", "2", "--dom-upper", "3"],
        &files,
    );
    assert!(out[0].contains("Most read") && out[0].contains("All rights reserved"));
    // A window longer than any page's text: no fragment at all, every page whole.
    let out = run("tmpl-text", &["--window", "100000"], &files);
    assert!(out[0].contains("Most read") && out[0].contains("All rights reserved"));
    // A fragment must be in more pages than were sampled: nothing frequent.
    let out = run("tmpl-text", &["--sample", "3", "--freq", "4"], &files);
    assert!(out[0].contains("Privacy policy"));
    // Bad values are refused with a message.
    let o = pith(&[
        "site",
        "--algo",
        "tmpl-dom",
        "--dom-lower",
        "0",
        &files[0],
        &files[1],
    ]);
    assert_eq!(o.status.code(), Some(2));
    // The main command has no detector parameters: it says where they are.
    let o = pith(&["--algo", "tmpl-dom", "--dom-lower=2", &files[0], &files[1]]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.starts_with("pith: --dom-lower") && e.contains("pith site"),
        "{e}"
    );
    let o = pith(&["--algo", "tmpl-text", &files[0]]);
    assert_eq!(o.status.code(), Some(2), "one page is no site");
}

#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn real_site_year_of_msv_big9() {
    let d = common::shared("data/msv_big9/www.cnn.com/2010/html");
    let files = pages(&d);
    assert_eq!(files.len(), 10);
    let dom = run("tmpl-dom", &[], &files);
    let text = run("tmpl-text", &[], &files);
    // 0559cf72054d.html: the story is kept by both.
    for out in [&dom, &text] {
        assert!(out[0].contains("Will NASA ever return to the moon?"));
        assert!(out[0].contains("(CNN) -- Will U.S. astronauts ever return to the moon?"));
    }
    // Every page has the footer; both detectors drop it on all but at most one page (the
    // page whose footer differs from the others').
    for (algo, out) in [("tmpl-dom", &dom), ("tmpl-text", &text)] {
        let kept = out
            .iter()
            .filter(|p| p.contains("All Rights Reserved"))
            .count();
        assert!(kept <= 1, "{algo}: {kept}");
    }
}
