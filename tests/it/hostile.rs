//! Hostile pages, in-process: every hostile case must come out with the
//! article and without a panic. Sizes here are what a debug build handles in about a second;
//! the full sizes (1,000,000-deep nesting, a 200 MB page, a 100 MB line...) and their time and
//! memory curves are measured by `cargo run --release --example hostile` (README, Robustness).
//! Work is bounded by counts where it can be: the tree has as many nodes as the page has
//! elements and text runs, elements nested beyond `MAX_DEPTH` excepted (they have none), so no
//! case hides a blow-up in node count.

use crate::common;

use pith::lab::html::tree::MAX_DEPTH;
use pith::lab::html::{Document, Kind};
use pith::{Algo, Options};

/// The article of `../shared/patho/make_patho.py`: six paragraphs, each with the marker word.
fn article() -> String {
    let sentence = "PITHMARKER main article text, a long sentence that reads like prose and \
                    carries enough words, commas, and stop words to look like content. ";
    // Six paragraphs, each its own (a repeated one would be kept once).
    (1..=6)
        .map(|i| format!("<p>{} Paragraph {i}.</p>", sentence.repeat(4)))
        .collect()
}

fn page(body: &str) -> String {
    format!("<!DOCTYPE html><html><head><title>t</title></head><body>{body}</body></html>")
}

/// How many article paragraphs an algorithm keeps.
fn markers(bytes: &[u8], algo: Algo) -> usize {
    markers_with(bytes, algo, false)
}

/// [`markers`], keeping every copy of a repeated paragraph or not (`make_patho.py`'s article
/// is one paragraph six times).
fn markers_with(bytes: &[u8], algo: Algo, keep_repeats: bool) -> usize {
    let opts = pith::Options::new(algo).with_keep_repeats(keep_repeats);
    match pith::extract(bytes, None, &opts) {
        Ok(e) => e.text.lines().filter(|l| l.contains("PITHMARKER")).count(),
        Err(e) => panic!("{}: {e}", algo.name()),
    }
}

/// Whether the page is refused as too dense (`pith::Error::TooDense`) under every algorithm:
/// a page of more markup than its element budget costs one error and about its own size.
fn refused_as_too_dense(bytes: &[u8]) -> bool {
    Algo::ALL.iter().all(|&algo| {
        matches!(
            pith::extract(bytes, None, &pith::Options::new(algo)),
            Err(pith::Error::TooDense { elements, budget }) if elements > budget
        )
    })
}

/// Bytes 0x80..=0xFF: not UTF-8, read as windows-1252 by detection.
fn junk(n: usize) -> Vec<u8> {
    (0..n).map(|i| 0x80 | (i as u8 & 0x7f)).collect()
}

/// The binary_junk_1MB case of `make_patho.py`, reduced: junk before the document holds an
/// unclosed `<a>` (1 MB of random bytes holds one about as often as not). HTML would nest the
/// whole page in that link, and `auto`, which drops link text, lost the article.
#[test]
fn junk_with_an_open_link_before_the_document_keeps_the_article() {
    let mut bytes = junk(512);
    bytes.extend_from_slice(b"<a href=x>");
    bytes.extend(junk(512));
    bytes.extend_from_slice(b"<th><p>\x01");
    bytes.extend_from_slice(page(&article()).as_bytes());
    for &algo in Algo::ALL {
        assert_eq!(markers(&bytes, algo), 6, "{}", algo.name());
    }
}

/// The same page, `make_patho.py`'s own bytes (1 MB of Python's `random.Random(1)`), written
/// by python3.
#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/patho")]
fn binary_junk_1mb_of_make_patho_keeps_the_article() {
    common::shared("patho/make_patho.py");
    let dir = common::shared("patho");
    let script = "import sys, random; sys.path.insert(0, sys.argv[1]); import make_patho as m; \
                  r = random.Random(1); \
                  sys.stdout.buffer.write(bytes(r.randrange(256) for _ in range(1_000_000)) \
                  + m.page(m.ART).encode())";
    let o = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(&dir)
        .output()
        .expect("python3 runs make_patho.py");
    assert!(
        o.status.success(),
        "python3 could not write the page: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = o.stdout;
    assert!(out.len() > 1_000_000);
    assert_eq!(markers_with(&out, Algo::Rules, true), 6);
    assert_eq!(markers(&out, Algo::Rules), 1);
}

/// The element count of a parse: the tree has one node per element (up to the depth limit) and
/// text run, never more.
fn parse_counts(text: &str) -> (usize, usize) {
    let arena = bumpalo::Bump::new();
    let doc = Document::parse(text, &arena);
    let elements = doc
        .tree
        .nodes
        .iter()
        .filter(|n| n.kind == Kind::Element)
        .count();
    (elements, doc.tree.nodes.len())
}

#[test]
fn a_million_deep_nesting() {
    let deep = |n: usize| {
        format!(
            "{}<article>{}</article>{}",
            "<div>".repeat(n),
            article(),
            "</div>".repeat(n)
        )
    };
    // A million start tags in 11 MB: over the element budget (one per 256 bytes, 96 Ki at
    // least), refused; the tree stays linear all the same.
    let html = deep(1_000_000);
    assert!(refused_as_too_dense(html.as_bytes()));
    // Only the divs up to the depth limit have nodes; the article and its paragraphs, nested
    // beyond it, have none, but each paragraph's end tag leaves a boundary marker after its
    // text (`tree::Builder::mark_boundary`), so the six paragraphs are still six lines.
    let (elements, _) = parse_counts(&html);
    assert_eq!(elements, MAX_DEPTH as usize + 6);
    // 90,000 deep, under the budget: extracted.
    let html = deep(90_000);
    assert_eq!(parse_counts(&html).0, MAX_DEPTH as usize + 6);
    assert_eq!(markers(html.as_bytes(), Algo::Rules), 6);
}

#[test]
fn a_million_unclosed_elements_then_stray_end_tags() {
    // Every `</li>` and `</span>` closes nothing and must not search a million open elements.
    let page = |n: usize| {
        format!(
            "<ul><li>{}{}{}",
            "<b>".repeat(n),
            "</span></li>".repeat(n),
            article()
        )
    };
    // 300,000 `<b>` in 4.5 MB: over the element budget, refused; the tree stays linear.
    let html = page(300_000);
    assert!(refused_as_too_dense(html.as_bytes()));
    // The <ul>, the <li> and the <b>s up to the depth limit, then the article: the first
    // `</li>` closed all the rest.
    let (elements, _) = parse_counts(&html);
    assert_eq!(elements, MAX_DEPTH as usize + 6);
    // 90,000, under the budget: extracted.
    let html = page(90_000);
    assert_eq!(parse_counts(&html).0, MAX_DEPTH as usize + 6);
    assert_eq!(markers(html.as_bytes(), Algo::Rules), 6);
}

#[test]
fn a_million_attributes_on_one_tag() {
    let attrs: String = (0..1_000_000).map(|i| format!(" a{i}=v")).collect();
    let html = page(&format!("<div{attrs}>{}</div>", article()));
    assert_eq!(markers(html.as_bytes(), Algo::Rules), 6);
}

#[test]
fn a_long_single_line() {
    // Paragraphs without a newline between them: four units of markup in 72 bytes.
    let para = "<p>Paragraph of text with a <a href=/l>link</a> and more words here.</p>";
    let line = |bytes: usize| page(&(article() + &para.repeat(bytes / para.len())));
    // 16 MB on one line: 890,000 units, over the element budget (62,500 at one per 256 bytes,
    // 96 Ki at least), refused.
    let html = line(16_000_000);
    assert!(!html.contains('\n'));
    assert!(refused_as_too_dense(html.as_bytes()));
    // 1.5 MB on one line (83,000 units): extracted.
    let html = line(1_500_000);
    assert!(!html.contains('\n'));
    assert_eq!(markers(html.as_bytes(), Algo::Rules), 6);
    assert_eq!(markers(html.as_bytes(), Algo::DanagLines), 6);
}

#[test]
fn a_page_of_only_lt_bytes() {
    for n in [1, 2, 1000, 4_000_000] {
        let bytes = vec![b'<'; n];
        for &algo in Algo::ALL {
            let opts = pith::Options::new(algo);
            let e = pith::extract(&bytes, None, &opts).expect("text, not an error");
            // `<` not followed by a name is text; none of it is prose.
            assert!(e.text.chars().all(|c| c == '<' || c == '\n'), "{n}");
        }
    }
}

#[test]
fn lt_and_tag_openers_without_ends() {
    for unit in [
        "<a", "</", "<!--", "<!", "<?", "<a b='", "<script>", "<p", "&#",
    ] {
        // 180 KB: at most 90,000 openers, under the element budget (96 Ki).
        let html = unit.repeat(180_000 / unit.len());
        for &algo in Algo::ALL {
            let opts = pith::Options::new(algo);
            let e = pith::extract(html.as_bytes(), None, &opts)
                .unwrap_or_else(|err| panic!("{unit:?} {}: {err:?}", algo.name()));
            // Markup that never ends is no text: a tag, comment or script open to the end of
            // the page shows nothing. Only `&#`, a character reference that is none, is text,
            // and comes out as written.
            let shown: &[char] = if unit == "&#" { &['&', '#'] } else { &[] };
            assert!(
                e.text.chars().all(|c| c == '\n' || shown.contains(&c)),
                "{unit:?} {}: {:?}",
                algo.name(),
                e.text.chars().take(80).collect::<String>()
            );
        }
    }
    // Twice the budget's openers, each counted as markup (a tag, `<!`, `<?`, an end tag after
    // text): refused before they are parsed.
    for unit in ["<a", "</", "<!", "<?", "<p"] {
        let html = unit.repeat(2 * 98_304);
        assert!(refused_as_too_dense(html.as_bytes()), "{unit:?}");
    }
}

#[test]
fn nul_bytes() {
    // A few NULs in a page: still a page, the NULs are not content words.
    let html = page(&article()).replace("main article", "main\0article");
    assert_eq!(markers(html.as_bytes(), Algo::Rules), 6);
    // A page that is mostly NULs is binary, reported as such.
    let nuls = vec![0u8; 100_000];
    assert_eq!(
        pith::extract(&nuls, None, &Options::default()),
        Err(pith::Error::Binary)
    );
}

#[test]
fn invalid_utf8_under_a_utf8_label() {
    let mut bytes = b"<meta charset=utf-8>".to_vec();
    bytes.extend_from_slice(page(&article()).as_bytes());
    let at = bytes.windows(4).position(|w| w == b"main").expect("marker");
    bytes.splice(at..at, [0xff, 0xc3, 0x28, 0xe2, 0x82]);
    let e = pith::extract(&bytes, None, &Options::default()).expect("a page");
    assert_eq!(e.encoding, "UTF-8");
    assert_eq!(e.text.matches("PITHMARKER").count(), 24, "{}", e.text);
    assert!(e.text.contains('\u{FFFD}'));
}

#[test]
fn utf16_with_a_bom() {
    let html = page(&article().replace("main", "mäin"));
    for (bom, le) in [([0xFF, 0xFE], true), ([0xFE, 0xFF], false)] {
        let mut bytes = bom.to_vec();
        for u in html.encode_utf16() {
            bytes.extend_from_slice(&if le { u.to_le_bytes() } else { u.to_be_bytes() });
        }
        let e = pith::extract(&bytes, None, &Options::default()).expect("a page");
        assert_eq!(e.text.matches("PITHMARKER mäin").count(), 24, "{}", e.text);
    }
}
