//! `-o DIR`: a file per input, named after it with the format's extension; streams as JSON
//! lines; inputs of the same name kept apart; standard input as `stdin.EXT`; a write error
//! is an error.

use std::path::Path;

use crate::run_util::{fresh_dir, jsonl, pith, pith_args, stderr, test_page as page};

/// The files of `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("read out dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `IN/a/index.html` (the article), `IN/b/index.html` (the report), `IN/crawl.jsonl` (two
/// records) and `IN/crawl2.jsonl.gz`... as a folder to read with `-r`.
fn inputs(root: &Path) {
    for (dir, name) in [("a", "article.html"), ("b", "report.html")] {
        std::fs::create_dir_all(root.join(dir)).expect("mkdir");
        std::fs::write(root.join(dir).join("index.html"), page(name)).expect("write");
    }
    let records = [("r1", "images.html"), ("r2", "repeats_forum.html")].map(|(id, name)| {
        let html = String::from_utf8(page(name)).expect("utf-8");
        serde_json::json!({"id": id, "html": html})
    });
    std::fs::write(root.join("crawl.jsonl"), jsonl(records)).expect("write");
}

#[test]
fn output_dir_writes_a_file_per_input_named_after_it() {
    let tmp = fresh_dir("outdir", "files");
    let input = tmp.join("in");
    inputs(&input);
    let out = tmp.join("out/nested");
    let o = pith_args(&[
        "-r",
        "-o",
        out.to_str().expect("utf-8"),
        input.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stdout.is_empty(), "nothing on stdout");
    // The folder is created; the two index.html are told apart by their folders.
    assert_eq!(listing(&out), ["a_index.txt", "b_index.txt", "crawl.jsonl"]);
    let a = read(&out.join("a_index.txt"));
    assert!(a.starts_with("River towns rebuild"), "{a}");
    assert!(!a.contains('\x0c'), "one page a file");
    let stdout_a = pith_args(&[input.join("a/index.html").to_str().expect("utf-8")]);
    assert_eq!(
        a.as_bytes(),
        stdout_a.stdout,
        "the file holds what stdout would"
    );
    // A stream is JSON lines, one object per record, whatever the format.
    let lines: Vec<serde_json::Value> = read(&out.join("crawl.jsonl"))
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    let ids: Vec<_> = lines.iter().map(|v| v["id"].clone()).collect();
    assert_eq!(ids, ["r1", "r2"]);
    assert!(lines[0]["text"].as_str().is_some_and(|t| !t.is_empty()));
    assert!(
        stderr(&o).contains("4 records read, 4 extracted, 0 skipped, 0 failed"),
        "{}",
        stderr(&o)
    );

    // Markdown: pages .md, streams JSON lines with the body in "markdown"; a second run
    // replaces the files it writes.
    let md = tmp.join("md");
    let o = pith_args(&[
        "--format",
        "markdown",
        "-o",
        md.to_str().expect("utf-8"),
        input.join("a/index.html").to_str().expect("utf-8"),
        input.join("crawl.jsonl").to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(listing(&md), ["crawl.jsonl", "index.md"]);
    assert!(read(&md.join("index.md")).starts_with("# River towns rebuild"));
    let first: serde_json::Value = serde_json::from_str(
        read(&md.join("crawl.jsonl"))
            .lines()
            .next()
            .expect("a line"),
    )
    .expect("JSON");
    assert!(first["markdown"].as_str().is_some(), "{first}");

    // JSON and HTML pages: .json and .html; standard input is stdin.EXT.
    for (format, file) in [
        ("json", "stdin.json"),
        ("html", "stdin.html"),
        ("xml", "stdin.xml"),
    ] {
        let dir = tmp.join(format);
        let o = pith(
            &["--format", format, "-o", dir.to_str().expect("utf-8")],
            &page("article.html"),
        );
        assert!(o.status.success(), "{format}: {}", stderr(&o));
        assert_eq!(listing(&dir), [file], "{format}");
    }
    let v: serde_json::Value =
        serde_json::from_str(read(&tmp.join("json/stdin.json")).trim()).expect("JSON");
    assert_eq!(v["lang"], "en");
}

#[test]
fn output_dir_never_overwrites_within_a_run_and_reports_write_errors() {
    let tmp = fresh_dir("outdir", "errors");
    let input = tmp.join("in");
    inputs(&input);
    // The same file twice: two files.
    let twice = tmp.join("twice");
    let a = input.join("a/index.html");
    let a = a.to_str().expect("utf-8");
    let o = pith_args(&["-o", twice.to_str().expect("utf-8"), a, a]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(listing(&twice), ["index-2.txt", "index.txt"]);
    // DIR that is a file: exit 1, the path named.
    let file = tmp.join("a-file");
    std::fs::write(&file, b"x").expect("write");
    let o = pith_args(&["-o", file.to_str().expect("utf-8"), a]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("a-file"), "{}", stderr(&o));
    // An output file that would be its own input: refused, the input left whole.
    let crawl = input.join("crawl.jsonl");
    let before = std::fs::read(&crawl).expect("read");
    let o = pith_args(&[
        "-o",
        input.to_str().expect("utf-8"),
        crawl.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("is the input itself"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&crawl).expect("read"), before);
}
