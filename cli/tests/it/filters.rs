//! The preprocessing filters and a quiet run: `--min-words` skips a page whose main text is
//! shorter, counted under its own reason in the summary, with the same documents at every
//! `-j`; `--quiet` says nothing on stderr and changes neither the documents nor the exit status.

use crate::run_util::{article, json_lines, jsonl, pith, stderr, test_page_text as test_page};

/// JSON lines of the pages: an article (about 40 words of main text) and stubs of `words`
/// words each, in turns.
fn pages() -> Vec<u8> {
    let stub = |n: usize, words: usize| {
        format!(
            "<html><body><article><p>{}</p></article></body></html>",
            vec![format!("stub{n}"); words].join(" ")
        )
    };
    jsonl((0..6).map(|i| {
        let html = if i % 2 == 0 {
            article(i, "")
        } else {
            stub(i, 3 + i)
        };
        serde_json::json!({"id": format!("p{i}"), "html": html})
    }))
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

/// A page in German with no language declared (whatlang detects it).
fn german_page() -> String {
    let p = "Die Stadtverwaltung hat am Montag beschlossen, die alte Brücke über den Fluss im \
             kommenden Frühjahr vollständig zu erneuern. Nach Angaben der Behörden werden die \
             Arbeiten etwa zwei Jahre dauern, und während dieser Zeit müssen Fußgänger und \
             Radfahrer einen Umweg über die neue Fähre in Kauf nehmen. Viele Anwohner begrüßen \
             die Entscheidung, weil die Brücke seit Jahren als gefährlich gilt.";
    format!(
        "<html><head><title>Brücke</title></head><body><article><p>{p}</p><p>{p}</p></article></body></html>"
    )
}

/// JSON lines of four pages: English (declared), German (detected), a stub too short for any
/// language, and English again.
fn language_pages() -> Vec<u8> {
    let english = test_page("article.html");
    let stub = "<html><body><article><p>ok 42</p></article></body></html>".to_string();
    records(&[
        ("en1", english.clone()),
        ("de", german_page()),
        ("stub", stub),
        ("en2", english.replace("<html", "<html data-x=1")),
    ])
}

/// JSON lines of `(id, html)` records.
fn records(pages: &[(&str, String)]) -> Vec<u8> {
    jsonl(
        pages
            .iter()
            .map(|(id, html)| serde_json::json!({"id": id, "html": html})),
    )
}

#[test]
fn target_language_keeps_the_languages_listed_and_counts_the_others() {
    let input = language_pages();
    let all = pith(&["--format", "json", "-j", "1"], &input);
    let langs: Vec<_> = json_lines(&all)
        .iter()
        .map(|v| (v["id"].clone(), v["lang"].clone()))
        .collect();
    assert_eq!(
        langs,
        [
            ("en1".into(), "en".into()),
            ("de".into(), "de".into()),
            ("stub".into(), serde_json::Value::Null),
            ("en2".into(), "en".into())
        ],
        "{}",
        stderr(&all)
    );
    let ids = |o: &std::process::Output| -> Vec<serde_json::Value> {
        json_lines(o).iter().map(|v| v["id"].clone()).collect()
    };
    for jobs in ["1", "2"] {
        let o = pith(
            &["--format", "json", "--target-language", "de", "-j", jobs],
            &input,
        );
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(ids(&o), ["de"], "-j {jobs}");
        let err = stderr(&o);
        assert!(
            err.contains(
                "4 records read, 1 extracted, 3 skipped (language unknown (--target-language) 1, not in --target-language 2)"
            ),
            "-j {jobs}: {err}"
        );
    }
    // A list, the flag again, upper case, a region or a name: the same languages.
    for args in [
        &["--target-language", "en,DE"][..],
        &["--target-language", "en-GB", "--target-language", "de"],
        &["--target-language", "German, english"],
    ] {
        let mut a = vec!["--format", "json"];
        a.extend_from_slice(args);
        let o = pith(&a, &input);
        assert_eq!(ids(&o), ["en1", "de", "en2"], "{args:?}: {}", stderr(&o));
    }
    // Every format filters: text, Markdown and HTML hold the German page only.
    for format in ["text", "markdown", "html"] {
        let o = pith(
            &["--format", format, "--target-language", "de", "-j", "2"],
            &input,
        );
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains("Stadtverwaltung"), "{format}: {out}");
        assert!(!out.contains("\x0c"), "{format}: one document only: {out}");
        assert!(
            stderr(&o).contains("not in --target-language 2"),
            "{format}"
        );
    }
    // A value that names no language is a usage error.
    let o = pith(&["--target-language", "e1"], &input);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--target-language `e1`"),
        "{}",
        stderr(&o)
    );
}

/// JSON lines of pages of `tests/pages/`: an article, the same article again (other markup
/// around the same text), the article with one word changed, another page, the changed article
/// again, a third page.
fn repeated_pages() -> Vec<u8> {
    let article = test_page("article.html");
    let changed = article.replacen("shop owners found", "shop keepers found", 1);
    assert_ne!(article, changed);
    records(&[
        ("a", article.clone()),
        ("a-again", article.replace("<body", "<body data-copy=\"1\"")),
        ("a-one-word", changed.clone()),
        ("report", test_page("report.html")),
        ("a-one-word-again", changed),
        ("images", test_page("images.html")),
    ])
}

#[test]
fn dedup_drops_exact_and_near_repeats_the_same_at_every_jobs() {
    let input = repeated_pages();
    let ids = |o: &std::process::Output| -> Vec<serde_json::Value> {
        json_lines(o).iter().map(|v| v["id"].clone()).collect()
    };
    // Without --dedup every page is written.
    let all = pith(&["--format", "json", "-j", "1"], &input);
    assert_eq!(ids(&all).len(), 6, "{}", stderr(&all));
    let texts: Vec<String> = json_lines(&all)
        .iter()
        .map(|v| v["text"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(texts[0], texts[1], "the copy has the same text");
    assert_ne!(texts[0], texts[2], "one word differs");
    let mut outputs = Vec::new();
    for jobs in ["1", "2"] {
        let o = pith(&["--format", "json", "--dedup", "-j", jobs], &input);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(ids(&o), ["a", "report", "images"], "-j {jobs}");
        let err = stderr(&o);
        assert!(
            err.contains("6 records read, 3 extracted, 3 skipped (duplicate (--dedup) 3)"),
            "-j {jobs}: {err}"
        );
        outputs.push(o.stdout);
    }
    assert_eq!(outputs[0], outputs[1], "-j 1 and -j 2 write the same bytes");
    // Text output: the same three pages.
    let o = pith(&["--dedup", "-j", "2"], &input);
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(text.matches("River towns rebuild").count(), 1, "{text}");
    assert_eq!(text.matches('\x0c').count(), 2, "{text}");
}
