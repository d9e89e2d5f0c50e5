//! What the repeat filter (`extract::repeats`) keeps on the test pages of `tests/pages/`:
//! every copy of a text the content itself repeats (a refrain between verses, a notice printed
//! at the top and the bottom of an article), and one copy of a region the page renders twice
//! (an article in a desktop and a mobile layout, a post quoted in a reply). Each page is run
//! under the rules and the block model, the two algorithms the filter follows.

use std::process::Command;

/// pith's text output for a page of `tests/pages/` with `args`.
fn pith(page: &str, args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_pith"))
        .args(args)
        .arg(format!("../tests/pages/{page}"))
        .output()
        .expect("run pith");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).expect("UTF-8 output")
}

/// How many output lines start with `start`.
fn count(text: &str, start: &str) -> usize {
    text.lines().filter(|l| l.starts_with(start)).count()
}

const ALGOS: [&str; 2] = ["rules", "model"];

#[test]
fn a_refrain_and_a_notice_the_article_repeats_keep_every_copy() {
    for algo in ALGOS {
        let text = pith("repeats_refrain.html", &["--algo", algo]);
        // The refrain after each of the three verses, both of its lines.
        assert_eq!(count(&text, "So pull, my lads,"), 3, "{algo}:\n{text}");
        assert_eq!(count(&text, "and the far bank never"), 3, "{algo}:\n{text}");
        // The notice above the song and again at the end of the article.
        assert_eq!(count(&text, "Note: this recording"), 2, "{algo}:\n{text}");
        // The verses between the refrains, once each.
        assert_eq!(
            count(&text, "The water's brown and cold"),
            1,
            "{algo}:\n{text}"
        );
    }
}

#[test]
fn an_article_in_a_desktop_and_a_mobile_layout_reads_once() {
    for algo in ALGOS {
        let text = pith("repeats_mobile_desktop.html", &["--algo", algo]);
        for line in [
            "A shed that keeps tools dry",
            "Lift the old felt",
            "Doors, windows and the floor",
            "Most sheds let the weather in",
            "Finally, oil the hinges",
        ] {
            assert_eq!(count(&text, line), 1, "{algo}: {line:?} in\n{text}");
        }
        // The page does print it twice: `--keep-repeats` shows both layouts.
        let every = pith(
            "repeats_mobile_desktop.html",
            &["--algo", algo, "--keep-repeats"],
        );
        assert_eq!(count(&every, "Lift the old felt"), 2, "{algo}:\n{every}");
    }
}

#[test]
fn a_post_quoted_in_a_reply_reads_once() {
    for algo in ALGOS {
        let text = pith("repeats_forum.html", &["--algo", algo]);
        assert_eq!(
            count(&text, "My starter is three weeks old"),
            1,
            "{algo}:\n{text}"
        );
        assert_eq!(
            count(&text, "It is not ruined, it is hungry."),
            1,
            "{algo}:\n{text}"
        );
        assert_eq!(
            count(&text, "Thank you, that worked."),
            1,
            "{algo}:\n{text}"
        );
        let every = pith("repeats_forum.html", &["--algo", algo, "--keep-repeats"]);
        assert_eq!(
            count(&every, "My starter is three weeks old"),
            2,
            "{algo}:\n{every}"
        );
    }
}
