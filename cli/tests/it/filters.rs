//! The preprocessing filters and a quiet run: `--min-words` skips a page whose main text is
//! shorter, counted under its own reason in the summary, with the same documents at every
//! `-j`; `--quiet` says nothing on stderr and changes neither the documents nor the exit status.

use crate::run_util::{article, json_lines, pith, stderr};

/// JSON lines of the pages: an article (about 40 words of main text) and stubs of `words`
/// words each, in turns.
fn pages() -> Vec<u8> {
    let stub = |n: usize, words: usize| {
        format!(
            "<html><body><article><p>{}</p></article></body></html>",
            vec![format!("stub{n}"); words].join(" ")
        )
    };
    let mut out = Vec::new();
    for i in 0..6 {
        let html = if i % 2 == 0 {
            article(i, "")
        } else {
            stub(i, 3 + i)
        };
        let line = serde_json::json!({"id": format!("p{i}"), "html": html});
        out.extend_from_slice(line.to_string().as_bytes());
        out.push(b'\n');
    }
    out
}

#[test]
fn min_words_skips_short_pages_and_counts_them() {
    let input = pages();
    let all = pith(&["--format", "json", "-j", "1"], &input);
    let words = |v: &serde_json::Value| v["text"].as_str().unwrap_or("").split_whitespace().count();
    let every = json_lines(&all);
    assert_eq!(every.len(), 6, "{}", stderr(&all));
    // The stubs have 4, 6 and 8 words; the articles far more.
    let long: Vec<_> = every
        .iter()
        .filter(|v| words(v) >= 20)
        .map(|v| v["id"].clone())
        .collect();
    assert_eq!(long, ["p0", "p2", "p4"]);
    for jobs in ["1", "2"] {
        let o = pith(
            &["--format", "json", "--min-words", "20", "-j", jobs],
            &input,
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let ids: Vec<_> = json_lines(&o).iter().map(|v| v["id"].clone()).collect();
        assert_eq!(ids, long, "-j {jobs}");
        let err = stderr(&o);
        assert!(
            err.contains("3 extracted, 3 skipped (fewer words than --min-words 3)"),
            "-j {jobs}: {err}"
        );
    }
    // A bar under every page keeps them all; 0 is no bar.
    for n in ["0", "4"] {
        let o = pith(&["--format", "json", "--min-words", n], &input);
        assert_eq!(json_lines(&o).len(), 6, "--min-words {n}: {}", stderr(&o));
    }
    // Text output: the same pages, one after another.
    let o = pith(&["--min-words", "20", "-j", "2"], &input);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(!text.contains("stub"), "{text}");
    assert_eq!(text.matches("Story number").count(), 3, "{text}");
}

#[test]
fn quiet_says_nothing_but_keeps_the_documents_and_the_exit_status() {
    let input = pages();
    let loud = pith(
        &["--format", "json", "--min-words", "20", "-j", "2"],
        &input,
    );
    assert!(!stderr(&loud).is_empty());
    for q in ["--quiet", "-q"] {
        let o = pith(
            &["--format", "json", "--min-words", "20", "-j", "2", q],
            &input,
        );
        assert_eq!(stderr(&o), "", "{q}");
        assert_eq!(o.stdout, loud.stdout, "{q}");
        assert!(o.status.success());
    }
    // A run that gives no page still fails, and says nothing.
    let o = pith(&["--quiet", "--min-words", "1000"], &input);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "");
    assert!(o.stdout.is_empty());
}
