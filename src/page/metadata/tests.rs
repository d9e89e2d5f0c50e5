//! The metadata's unit tests.

use super::*;
use crate::html::{Arena, Document};

/// The metadata of `html`, with `text` as the extracted text.
fn meta_of(html: &str, text: &str) -> Metadata {
    let arena = Arena::new();
    let doc = Document::parse(html, &arena);
    read(&doc, text, None)
}

fn meta(html: &str) -> Metadata {
    meta_of(html, "")
}

fn ld(json: &str) -> String {
    format!("<html><head><script type=\"application/ld+json\">{json}</script></head></html>")
}

#[test]
fn title_loses_the_site_name_at_its_separator() {
    let m = meta(
        "<title>Stadia Review: So Many Ways to Play - WSJ</title>\
         <meta property=og:site_name content=WSJ>",
    );
    assert_eq!(
        m.title.as_deref(),
        Some("Stadia Review: So Many Ways to Play")
    );
    assert_eq!(m.sitename.as_deref(), Some("WSJ"));
    for (t, want) in [
        ("The Verge | A phone review", "A phone review"),
        ("A phone review — The Verge", "A phone review"),
        ("A phone review · Tech · The Verge", "A phone review · Tech"),
        ("The Verge: A phone review", "A phone review"),
    ] {
        let m = meta(&format!(
            "<title>{t}</title><meta property=og:site_name content='The Verge'>"
        ));
        assert_eq!(m.title.as_deref(), Some(want), "{t}");
    }
    // A headline that mentions the site keeps it.
    let m = meta(
        "<title>The Guardian view on Hong Kong: a city on the brink | The Guardian</title>\
         <meta property=og:site_name content='The Guardian'>",
    );
    assert_eq!(
        m.title.as_deref(),
        Some("The Guardian view on Hong Kong: a city on the brink")
    );
}

#[test]
fn og_title_first_and_a_title_that_is_only_the_site_name_gives_way() {
    let m = meta(
        "<title>Story of the day | Daily</title><meta property=og:title content='Story of the day'>",
    );
    assert_eq!(m.title.as_deref(), Some("Story of the day"));
    let m = meta(&format!(
        "<title>Example News</title><meta property=og:site_name content='Example News'>{}",
        ld(r#"{"@type":"NewsArticle","headline":"Bridge opens"}"#)
    ));
    assert_eq!(m.title.as_deref(), Some("Bridge opens"));
}

#[test]
fn an_svg_title_never_wins() {
    let m = meta(
        "<html><head><meta property=og:title content='The real title'></head><body>\
         <a href=/><svg><title>Logo</title></svg></a><h1>Heading</h1></body></html>",
    );
    assert_eq!(m.title.as_deref(), Some("The real title"));
    let m = meta("<body><a href=/><svg><title>Logo</title></svg></a><h1>Heading</h1></body>");
    assert_eq!(m.title.as_deref(), Some("Heading"));
}

#[test]
fn author_from_json_ld_meta_and_byline() {
    let m = meta(&ld(
        r#"{"@type":"Article","author":[{"@type":"Person","name":"Ann Lee"},{"@type":"Person","name":"Bo Chen"}]}"#,
    ));
    assert_eq!(m.author.as_deref(), Some("Ann Lee; Bo Chen"));
    let m = meta("<meta name=author content='Jane Doe'>");
    assert_eq!(m.author.as_deref(), Some("Jane Doe"));
    let m = meta(
        "<body><div class=comments><span class=author>Troll</span></div>\
         <p class=byline>By Sam Roe Published 10:02 AM EST Nov 19, 2019</p></body>",
    );
    assert_eq!(m.author.as_deref(), Some("Sam Roe"));
    // An organization as the JSON-LD author ranks below a person's byline.
    let m = meta(&format!(
        "{}<body><a rel=author href=/x>Pat Kim</a></body>",
        ld(r#"{"@type":"NewsArticle","author":{"@type":"Organization","name":"Reuters"}}"#)
    ));
    assert_eq!(m.author.as_deref(), Some("Pat Kim"));
    // The publisher after the names goes: the site name, a news agency.
    let m = meta(
        "<meta property=og:site_name content='Florida Today'>\
         <meta name=author content='Elliot Brownstein, Florida Today'>",
    );
    assert_eq!(m.author.as_deref(), Some("Elliot Brownstein"));
    let m = meta("<meta name=author content='Tom Davies Associated Press'>");
    assert_eq!(m.author.as_deref(), Some("Tom Davies"));
    let m = meta("<meta name=author content='Tom Knap'>");
    assert_eq!(m.author.as_deref(), Some("Tom Knap"));
    let m = meta("<meta name=author content='Reuters'>");
    assert_eq!(m.author.as_deref(), Some("Reuters"));
}

#[test]
fn date_sources_in_their_order() {
    // JSON-LD first on the same day; of different days, the earliest declaration (a later
    // `datePublished` is a republication).
    let m = meta(&format!(
        "<meta property=article:published_time content=2020-06-16>{}",
        ld(r#"{"@type":"NewsArticle","datePublished":"2020-06-16T02:31:00+08:00"}"#)
    ));
    assert_eq!(m.date.as_deref(), Some("2020-06-16T02:31:00+08:00"));
    assert_eq!(m.date_source, Some(DateSource::Published));
    let m = meta(&format!(
        "<meta property=article:published_time content=2020-01-02>{}",
        ld(r#"{"@type":"NewsArticle","datePublished":"2020-06-16T02:31:00+08:00"}"#)
    ));
    assert_eq!(m.date.as_deref(), Some("2020-01-02"));
    let m = meta(&ld(
        r#"{"@type":"Article","datePublished":"2025-11-29","dateCreated":"2025-08-08"}"#,
    ));
    assert_eq!(m.date.as_deref(), Some("2025-08-08"));
    // `property` and `itemprop` on one element: found under either.
    let m = meta("<meta property=article:published itemprop=datePublished content='2020-06-16'>");
    assert_eq!(m.date.as_deref(), Some("2020-06-16"));
    let m = meta("<meta name=foo itemprop=datePublished content='2021-03-04T05:06Z'>");
    assert_eq!(m.date.as_deref(), Some("2021-03-04T05:06Z"));
    let m = meta("<meta name=DC.date.issued content=2019-11-19><time datetime=2018-01-01>");
    assert_eq!(m.date.as_deref(), Some("2019-11-19"));
    let m =
        meta("<body><time datetime=2018-01-02>x</time><time pubdate datetime=2018-03-04>y</time>");
    assert_eq!(m.date.as_deref(), Some("2018-03-04"));
    assert_eq!(m.date_source, Some(DateSource::Published));
    let m = meta("<body><time datetime=2018-01-02>x</time>");
    assert_eq!(m.date_source, Some(DateSource::Time));
    let m = meta("<link rel=canonical href='https://x.org/2020/06/16/story/'>");
    assert_eq!(
        (m.date.as_deref(), m.date_source),
        (Some("2020-06-16"), Some(DateSource::Url))
    );
    // The modified date of a page that states no publication date.
    let m = meta("<meta property=article:modified_time content=2021-02-03T04:05Z>");
    assert_eq!(m.date_source, Some(DateSource::Modified));
    // Guesses: a date-named element, then a short text.
    let m = meta("<body><span class=article-publish-date>November 19, 2019, 9:02 AM</span>");
    assert_eq!(
        (m.date.as_deref(), m.date_source),
        (Some("2019-11-19"), Some(DateSource::Text))
    );
    let m = meta("<body><p>Posted on 16. März 2020</p>");
    assert_eq!(m.date.as_deref(), Some("2020-03-16"));
    // The last guess: a date key in a script's JSON state, quotes escaped or not.
    let m = meta(r#"<script>window.s = "{\"publishedAt\":\"2021-05-06T07:08:09Z\"}";</script>"#);
    assert_eq!(
        (m.date.as_deref(), m.date_source),
        (Some("2021-05-06T07:08:09Z"), Some(DateSource::Script))
    );
    let m =
        meta(r#"<script>x = {"created_at": "2019-02-03", "publish_date": "2020-01-02"}</script>"#);
    assert_eq!(m.date.as_deref(), Some("2019-02-03"));
}

#[test]
fn dates_are_normalized_to_iso() {
    for (raw, want) in [
        ("2020年06月16日 02:31", Some("2020-06-16T02:31")),
        ("2020-06-16", Some("2020-06-16")),
        (
            "2020-06-16T02:31:05.123+0200",
            Some("2020-06-16T02:31:05+02:00"),
        ),
        ("2020-06-16 02:31:05Z", Some("2020-06-16T02:31:05Z")),
        ("2020/6/16", Some("2020-06-16")),
        ("20200616", Some("2020-06-16")),
        ("16.06.2020", Some("2020-06-16")),
        ("06/16/2020", Some("2020-06-16")),
        ("05/06/2020", None),
        ("June 16, 2020", Some("2020-06-16")),
        ("Tue, 16 Jun 2020 02:31:00 GMT", Some("2020-06-16")),
        ("16 juin 2020", Some("2020-06-16")),
        ("2020-02-30", None),
        ("1850-01-01", None),
        ("mayor 12 said 2020", None),
        ("", None),
    ] {
        assert_eq!(iso_date(raw).as_deref(), want, "{raw}");
    }
    assert_eq!(
        url_date("https://a.com/2020/06/16/x").as_deref(),
        Some("2020-06-16")
    );
    assert_eq!(
        url_date("https://a.com/news/20200616/x").as_deref(),
        Some("2020-06-16")
    );
    assert_eq!(url_date("https://a.com/x?d=2020/06/16"), None);
    assert_eq!(url_date("https://a.com/id/1234567890"), None);
}

#[test]
fn sitename_description_image_categories_tags() {
    let m = meta(
        "<meta name=description content='Short summary.'>\
         <meta property=og:image content=https://a.com/i.jpg>\
         <meta name=twitter:site content=@ExampleNews>\
         <meta property=article:section content=Tech>\
         <meta property=article:tag content=Phones><meta property=article:tag content=phones>\
         <meta name=keywords content='review, Android'>\
         <body><a rel='category tag' href=/c/ai>AI</a><a rel=tag href=/t/x>Gadgets</a></body>",
    );
    assert_eq!(m.sitename.as_deref(), Some("ExampleNews"));
    assert_eq!(m.description.as_deref(), Some("Short summary."));
    assert_eq!(m.image.as_deref(), Some("https://a.com/i.jpg"));
    assert_eq!(m.categories, ["Tech", "AI"]);
    assert_eq!(m.tags, ["Phones", "review", "Android", "Gadgets"]);
    let m = meta(&ld(
        r#"{"@graph":[{"@type":"WebSite","name":"Site"},{"@type":"BlogPosting","description":"D","image":{"url":"/i.png"},"articleSection":["A","B"],"keywords":"x, y"}]}"#,
    ));
    assert_eq!(m.sitename.as_deref(), Some("Site"));
    assert_eq!(m.description.as_deref(), Some("D"));
    assert_eq!(m.image.as_deref(), Some("/i.png"));
    assert_eq!(m.categories, ["A", "B"]);
    assert_eq!(m.tags, ["x", "y"]);
    let m = meta("<title>Page | example.org</title>");
    assert_eq!(m.sitename.as_deref(), Some("example.org"));
    assert_eq!(m.title.as_deref(), Some("Page"));
}

#[test]
fn lang_declared_or_detected() {
    let m = meta_of("<html lang=de-AT><title>x</title>", "the English text");
    assert_eq!(
        (m.lang.as_deref(), m.lang_source),
        (Some("de-at"), Some(LangSource::Declared))
    );
    let m = meta("<meta http-equiv=Content-Language content='fr, en'>");
    assert_eq!(
        (m.lang.as_deref(), m.lang_source),
        (Some("fr"), Some(LangSource::Declared))
    );
    let text = "Der Gemeinderat hat am Dienstag nach einer vierstündigen Debatte den Bau der \
        neuen Brücke beschlossen, und die Arbeiten sollen im Mai beginnen, sagte die \
        Bürgermeisterin der Stadt am Abend.";
    let m = meta_of("<p>x", text);
    // Without the `lang` feature nothing is detected: `lang` is only what is declared.
    let want = if cfg!(feature = "lang") {
        (Some("de"), Some(LangSource::Detected))
    } else {
        (None, None)
    };
    assert_eq!((m.lang.as_deref(), m.lang_source), want);
    // Too little text: no answer rather than a wrong one.
    let m = meta_of("<p>x", "OK");
    assert_eq!((m.lang, m.lang_source), (None, None));
}

/// [`LANGUAGES`] is whatlang's table, so that declarations read the same with and
/// without the `lang` feature.
#[cfg(feature = "lang")]
#[test]
fn languages_are_whatlangs() {
    let theirs: Vec<_> = whatlang::Lang::all()
        .iter()
        .map(|l| (l.code(), l.eng_name(), l.name()))
        .collect();
    assert_eq!(LANGUAGES, theirs.as_slice());
    for (code, _, _) in LANGUAGES {
        assert_eq!(
            whatlang::Lang::from_code(*code).map(|l| l.code()),
            Some(*code)
        );
    }
}

#[test]
fn lang_is_a_lower_case_bcp47_tag_from_every_form() {
    for (raw, want) in [
        ("en", Some("en")),
        ("EN", Some("en")),
        ("en_US", Some("en-us")),
        ("en-US", Some("en-us")),
        ("en-gb", Some("en-gb")),
        (" pt-BR ", Some("pt-br")),
        ("zh-Hant-TW", Some("zh-hant-tw")),
        ("es-419", Some("es-419")),
        ("de-DE-1996", Some("de-de-1996")),
        ("en-US,en;q=0.9", Some("en-us")),
        ("fr, en", Some("fr")),
        ("en-US-x-private", Some("en-us")),
        ("eng", Some("en")),
        ("jpn", Some("ja")),
        ("ger", Some("de")),
        ("iw", Some("he")),
        ("fil", Some("fil")),
        ("Japanese", Some("ja")),
        ("english", Some("en")),
        ("Deutsch", Some("de")),
        ("Русский", Some("ru")),
        ("Chinese", Some("zh")),
        // No language: a placeholder, a country, a charset, nothing.
        ("x-default", None),
        ("und", None),
        ("jp", None),
        ("utf-8", None),
        ("", None),
        ("{{lang}}", None),
        ("Klingonese", None),
    ] {
        assert_eq!(lang_tag(raw).as_deref(), want, "{raw:?}");
    }
}

#[test]
fn lang_from_each_declaration_normalized_the_unknown_passed_over() {
    let lang = |html: &str| {
        let m = meta(html);
        (m.lang, m.lang_source)
    };
    let declared = |l: &str| (Some(l.to_string()), Some(LangSource::Declared));
    assert_eq!(lang("<html lang=EN_us><p>x"), declared("en-us"));
    assert_eq!(
        lang("<meta http-equiv=content-language content='de-DE'>"),
        declared("de-de")
    );
    assert_eq!(lang("<meta name=language content=English>"), declared("en"));
    assert_eq!(
        lang("<meta name=dc.language content=Japanese>"),
        declared("ja")
    );
    assert_eq!(
        lang("<meta property=og:locale content=en_GB>"),
        declared("en-gb")
    );
    // An unrecognisable declaration gives way to the next source.
    assert_eq!(
        lang("<html lang=x-default><meta property=og:locale content=ja_JP>"),
        declared("ja-jp")
    );
    assert_eq!(
        lang("<html lang=jp><meta name=language content=ko>"),
        declared("ko")
    );
    assert_eq!(lang("<html lang=utf-8><p>x"), (None, None));
    // The declared `en-US` still reads `05/10/2018` month first.
    assert_eq!(
        meta("<html lang=EN_US><body><b>05/10/2018</b>")
            .date
            .as_deref(),
        Some("2018-05-10")
    );
}

#[test]
fn url_is_the_canonical_then_og_url_resolved() {
    let url = |html: &str, input: Option<&str>| {
        let arena = Arena::new();
        let doc = Document::parse(html, &arena);
        read(&doc, "", input).url
    };
    let canon = "<link rel=canonical href='https://www.example.org/a/story?id=1&amp;p=2'>";
    assert_eq!(
        url(canon, None).as_deref(),
        Some("https://www.example.org/a/story?id=1&p=2")
    );
    // Canonical before og:url.
    let both = "<meta property=og:url content='https://example.org/og'>\
                <link rel=canonical href='https://example.org/canonical'>";
    assert_eq!(
        url(both, None).as_deref(),
        Some("https://example.org/canonical")
    );
    // Relative: resolved against <base href>, else the caller's URL, else dropped.
    let rel = "<link rel=canonical href='/news/1'>";
    assert_eq!(url(rel, None), None);
    assert_eq!(
        url(rel, Some("http://example.org/x/y?z")).as_deref(),
        Some("http://example.org/news/1")
    );
    assert_eq!(
        url(&format!("<base href='https://example.com/a/'>{rel}"), None).as_deref(),
        Some("https://example.com/news/1")
    );
    assert_eq!(
        url(
            "<base href='/b/'><link rel=canonical href='c'>",
            Some("https://x.org/a")
        )
        .as_deref(),
        Some("https://x.org/b/c")
    );
    // Protocol-relative without a base: https.
    assert_eq!(
        url("<link rel=canonical href='//example.net/p'>", None).as_deref(),
        Some("https://example.net/p")
    );
    // Not http(s), no host, unparseable: the next source, or nothing.
    for bad in [
        "javascript:void(0)",
        "about:blank",
        "mailto:a@example.org",
        "https://",
        "http://exa mple.org/",
        "http://[::1",
        "http://localhost/a",
    ] {
        let html = format!(
            "<link rel=canonical href='{bad}'><meta property=og:url content='https://example.org/og'>"
        );
        assert_eq!(
            url(&html, None).as_deref(),
            Some("https://example.org/og"),
            "{bad}"
        );
        assert_eq!(
            url(&format!("<link rel=canonical href='{bad}'>"), None),
            None,
            "{bad}"
        );
    }
    // The host of the page's URL is the site name of last resort.
    assert_eq!(
        meta("<base href='https://www.example.com/'><link rel=canonical href=/a>")
            .sitename
            .as_deref(),
        Some("example.com")
    );
}

#[test]
fn sitename_is_never_a_url_or_a_slug() {
    let site = |html: &str| meta(html).sitename;
    assert_eq!(
        site("<meta property=og:site_name content='https://www.newsnation.in'>").as_deref(),
        Some("newsnation.in")
    );
    assert_eq!(
        site("<meta property=og:site_name content='www.example.co.uk'>").as_deref(),
        Some("example.co.uk")
    );
    // A handle or a slug is passed over for the next source, here the canonical's host.
    let canon = "<link rel=canonical href='https://www.wday.ru/a'>";
    assert_eq!(
        site(&format!("<meta name=twitter:site content='@Wday_'>{canon}")).as_deref(),
        Some("wday.ru")
    );
    assert_eq!(
        site(&format!(
            "<meta property=og:site_name content='my-news-site'>{canon}"
        ))
        .as_deref(),
        Some("wday.ru")
    );
    assert_eq!(site("<meta name=twitter:site content='@Wday_'>"), None);
    // A URL with a path links elsewhere: the next source.
    assert_eq!(
        site(&format!(
            "<meta name=publisher content='https://www.facebook.com/wday'>{canon}"
        ))
        .as_deref(),
        Some("wday.ru")
    );
    // Names stay: a hyphen inside a capitalized name, a handle that is a word.
    assert_eq!(
        site("<meta property=og:site_name content='Spiegel-Online'>").as_deref(),
        Some("Spiegel-Online")
    );
    assert_eq!(
        site("<meta name=twitter:site content='@nytimes'>").as_deref(),
        Some("nytimes")
    );
    // The site name is still cut from the title when it came from a URL.
    let m = meta(
        "<title>Oxygen bars | newsnation.in</title>\
         <meta property=og:site_name content='https://www.newsnation.in'>",
    );
    assert_eq!(m.title.as_deref(), Some("Oxygen bars"));
}

#[test]
fn authors_are_people_without_labels() {
    let author = |a: &str| meta(&format!("<meta name=author content='{a}'>")).author;
    for (a, want) in [
        ("Текст: Венера Ерофеева", Some("Венера Ерофеева")),
        (
            "Photos: Jane Doe; Text: John Roe",
            Some("Jane Doe; John Roe"),
        ),
        ("Text und Fotos: Max Muster", Some("Max Muster")),
        ("Recipe by PJ Hamel", Some("PJ Hamel")),
        ("Insights from Liza Burke", None),
        ("The Russian and Syrian defense ministries", None),
        ("The Editors", None),
        ("The\u{a0}Editors", None),
        ("The Associated Press", Some("The Associated Press")),
        ("Staff reporter", None),
        ("Jane Doe; the editorial team", Some("Jane Doe")),
        ("Troy L. Smith, Cleveland.com", Some("Troy L. Smith")),
        // Names that stay as they are.
        ("Ludwig van Beethoven", Some("Ludwig van Beethoven")),
        ("Ahmad al-Sharif", Some("Ahmad al-Sharif")),
        ("Oscar de la Hoya", Some("Oscar de la Hoya")),
        ("Dr. med. Anna Roth", Some("Dr. med. Anna Roth")),
        ("Jane Doe and John Roe", Some("Jane Doe and John Roe")),
        ("rmb", Some("rmb")),
        ("bell hooks", Some("bell hooks")),
        ("王小明", Some("王小明")),
    ] {
        assert_eq!(author(a).as_deref(), want, "{a}");
    }
    // An author who is the site is kept: on a personal site it is the person.
    let m = meta(
        "<meta property=og:site_name content='Rick Steves'>\
         <meta name=author content='Rick Steves'>",
    );
    assert_eq!(m.author.as_deref(), Some("Rick Steves"));
}

#[test]
fn hostile_json_ld_is_bounded() {
    // The date JSON-LD declares (not the script-key guess, which reads any script's text
    // without parsing it: bounded by its own caps).
    let declared_date = |html: &str| {
        Some(meta(html))
            .filter(|m| m.date_source == Some(DateSource::Published))?
            .date
    };
    // Broken JSON, comment-wrapped JSON, a non-object: nothing, or what parses.
    let m = meta(&ld(r#"{"@type":"Article","headline":"Half"#));
    assert_eq!(m.title, None);
    let m = meta(&ld(r#"<!-- {"@type":"Article","headline":"Wrapped"} -->"#));
    assert_eq!(m.title.as_deref(), Some("Wrapped"));
    let m = meta(&ld("42"));
    assert_eq!(m, Metadata::default());
    // Deeper than serde_json's recursion limit: refused, no stack overflow.
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert_eq!(declared_date(&ld(&deep)), None);
    let deep_ok = format!(
        "{}{{\"@type\":\"Article\",\"datePublished\":\"2020-01-02\"}}{}",
        "[".repeat(100),
        "]".repeat(100)
    );
    assert_eq!(declared_date(&ld(&deep_ok)).as_deref(), Some("2020-01-02"));
    // Larger than the per-script cap: not read.
    let pad = "x".repeat(LD_MAX_SCRIPT);
    let huge = format!(r#"{{"@type":"Article","datePublished":"2020-01-02","pad":"{pad}"}}"#);
    assert_eq!(declared_date(&ld(&huge)), None);
    // Items past the visit cap are not looked at.
    let many = format!(
        "[{}{{\"@type\":\"Article\",\"datePublished\":\"2020-01-02\"}}]",
        "{},".repeat(LD_MAX_NODES)
    );
    assert_eq!(declared_date(&ld(&many)), None);
    // Scripts past the count cap are not read; those before it are.
    let one = r#"<script type="application/ld+json">{"x":1}</script>"#;
    let last = r#"<script type="application/ld+json">{"@type":"Article","datePublished":"2020-01-02"}</script>"#;
    let page = format!("{}{last}", one.repeat(LD_MAX_SCRIPTS));
    assert_eq!(declared_date(&page), None);
    let page = format!("{}{last}", one.repeat(LD_MAX_SCRIPTS - 1));
    assert_eq!(declared_date(&page).as_deref(), Some("2020-01-02"));
    // The total cap: many scripts just under the per-script cap.
    let big = format!(
        r#"<script type="application/ld+json">{{"pad":"{}"}}</script>"#,
        "x".repeat(LD_MAX_SCRIPT - 100)
    );
    let page = format!("{}{last}", big.repeat(LD_MAX_TOTAL / LD_MAX_SCRIPT));
    assert_eq!(declared_date(&page).as_deref(), Some("2020-01-02"));
    let page = format!("{}{last}", big.repeat(LD_MAX_TOTAL / LD_MAX_SCRIPT + 1));
    assert_eq!(declared_date(&page), None);
}

#[test]
fn a_utc_time_stamp_gives_way_to_the_urls_local_day() {
    let page = |stamp: &str, url: &str| {
        format!(
            "<link rel=canonical href='{url}'>{}",
            ld(&format!(
                r#"{{"@type":"NewsArticle","datePublished":"{stamp}"}}"#
            ))
        )
    };
    // 01:50 UTC on the 20th is the evening of the 19th west of UTC, as the URL files it.
    let m = meta(&page(
        "2019-11-20T01:50:59Z",
        "https://x.com/2019/11/19/story/",
    ));
    assert_eq!(
        (m.date.as_deref(), m.date_source),
        (Some("2019-11-19"), Some(DateSource::Published))
    );
    // East of UTC: 22:00 UTC on the 31st is the 1st of the next year.
    let m = meta(&page(
        "2019-12-31T22:00:00+00:00",
        "https://x.com/2020/01/01/a/",
    ));
    assert_eq!(m.date.as_deref(), Some("2020-01-01"));
    // A time stamp with its own offset is already local; a UTC one at noon is no evening
    // of the day before; a URL two days off is another date.
    for (stamp, url) in [
        ("2019-11-20T01:50:59-05:00", "https://x.com/2019/11/19/s/"),
        ("2019-11-20T13:00:00Z", "https://x.com/2019/11/19/s/"),
        ("2019-11-21T01:50:59Z", "https://x.com/2019/11/19/s/"),
    ] {
        assert_eq!(meta(&page(stamp, url)).date.as_deref(), Some(stamp));
    }
    // The caller's URL counts as the page's.
    let arena = Arena::new();
    let html = ld(r#"{"@type":"NewsArticle","datePublished":"2019-11-19T04:58:46Z"}"#);
    let doc = Document::parse(&html, &arena);
    let m = read(&doc, "", Some("https://t.com/2019/11/18/a/"));
    assert_eq!(m.date.as_deref(), Some("2019-11-18"));
    let m = read(
        &Document::parse("<p>x", &arena),
        "",
        Some("https://t.com/2019/11/18/a/"),
    );
    assert_eq!(m.date_source, Some(DateSource::Url));
}

#[test]
fn last_guesses_markup_link_copyright() {
    let src = |html: &str| {
        let m = meta(html);
        (m.date, m.date_source)
    };
    let some = |d: &str, s| (Some(d.to_string()), Some(s));
    assert_eq!(
        src(r#"<script>var c = {"issuedAt":"2026-03-05T12:16:07Z"}</script><p>© 2024"#),
        some("2026-03-05", DateSource::Markup)
    );
    assert_eq!(
        src("<body><a href='/blog/2019/01/31/post/'>x</a>"),
        some("2019-01-31", DateSource::Link)
    );
    assert_eq!(
        src("<body><img src='/wp-content/uploads/2023/10/a.png'>"),
        some("2023-10-01", DateSource::Link)
    );
    assert_eq!(
        src("<body><p>© 2019–2024 Example Media"),
        some("2024-01-01", DateSource::Copyright)
    );
    // The year in the next text node; a mark without a year near it gives nothing.
    assert_eq!(
        src("<body><footer>© <a>Example Media</a> 2022. All rights reserved."),
        some("2022-01-01", DateSource::Copyright)
    );
    assert_eq!(
        src("<body><p>Copyright Example Media Group, all rights reserved, since forever, 2020"),
        (None, None)
    );
    // A file older than the page's copyright year is not the page's date.
    assert_eq!(
        src("<body><img src='/uploads/2019/03/a.png'><p>Copyright 2024 Example"),
        some("2024-01-01", DateSource::Copyright)
    );
    // Hostile: digits everywhere stay linear, and an endless copyright line is bounded.
    let digits = "2020-01-0".repeat(200_000);
    assert_eq!(markup_date(&digits, true), None);
    assert_eq!(copyright_year(&format!("© {}", "1".repeat(100_000))), None);
}

#[test]
fn a_date_that_reads_both_ways_is_read_by_the_language() {
    let date = |lang: &str| meta(&format!("<html lang={lang}><body><b>05/10/2018</b>")).date;
    assert_eq!(date("pt-BR").as_deref(), Some("2018-10-05"));
    assert_eq!(date("en-GB").as_deref(), Some("2018-10-05"));
    assert_eq!(date("en-US").as_deref(), Some("2018-05-10"));
    assert_eq!(date("en"), None);
    // One reading impossible: no language needed.
    assert_eq!(
        meta("<body><b>25/10/2018</b>").date.as_deref(),
        Some("2018-10-25")
    );
}

#[test]
fn authors_lose_roles_and_publishers_and_non_names_are_none() {
    let author = |html: &str| meta(html).author;
    let byline = |t: &str| author(&format!("<body><span class=byline>{t}</span>"));
    assert_eq!(
        byline("By Will Judd Former Deputy Tech Editor").as_deref(),
        Some("Will Judd")
    );
    assert_eq!(
        byline("Paul Frew , Home and Digital Security Expert").as_deref(),
        Some("Paul Frew")
    );
    assert_eq!(
        byline("Linda Rosencrance Contributing Writer").as_deref(),
        Some("Linda Rosencrance")
    );
    assert_eq!(
        byline("Authored by: Dr. Ehsan Jazini").as_deref(),
        Some("Dr. Ehsan Jazini")
    );
    // Two words are the name: a second word is never a role.
    assert_eq!(byline("Podium Staff").as_deref(), Some("Podium Staff"));
    for t in [
        "Updated",
        "Follow",
        "October",
        "billed annually, or $",
        "Home » Services",
    ] {
        assert_eq!(byline(t), None, "{t}");
    }
    // A sentence in an author box is skipped for the next byline.
    let m = meta(
        "<body><div class=author>The government has unveiled a plan to help the PV industry \
         reduce the cost of solar panels</div><a rel=author>Emiliano Bellini</a>",
    );
    assert_eq!(m.author.as_deref(), Some("Emiliano Bellini"));
    // The site name written without its space, and an agency after an article.
    let m = meta(
        "<meta property=og:site_name content=floridatoday><meta name=author content='Elliot Brownstein Florida Today'>",
    );
    assert_eq!(m.author.as_deref(), Some("Elliot Brownstein"));
    assert_eq!(
        author("<meta name=author content='The Associated Press'>").as_deref(),
        Some("The Associated Press")
    );
    // JSON-LD authors given by reference to a Person of the graph (Yoast).
    let m = meta(&ld(
        r##"{"@graph":[{"@type":"Article","author":{"@id":"https://x.org/#/p/1"}},
            {"@type":"Person","@id":"https://x.org/#/p/1","name":"Yoav Schumacher"}]}"##,
    ));
    assert_eq!(m.author.as_deref(), Some("Yoav Schumacher"));
}

/// Real pages of `../shared/data` (ignored when it is absent, failing then with
/// `PITH_REQUIRE_SHARED=1`: build.rs): values read off the pages.
#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn shared_scrapinghub_pages_have_their_author_and_date() {
    let dir = std::path::Path::new(env!("PITH_TEST_SHARED_DIR")).join("data/scrapinghub/html");
    assert!(dir.is_dir(), "{} is missing", dir.display());
    for (id, title, author, date) in [
        (
            "042bb7b5fedab6eac7db576522b89b93904c237d344bcbe14a6a5ab7f7335856",
            "Google Stadia, Microsoft xCloud, Apple Arcade: So Many Ways to Play…and Pay",
            "Sarah E. Needleman",
            "2019-11-19",
        ),
        (
            "04a6711caa7c687592777718866e781e976e0fe684faebe8b3cedcef8cd0ea34",
            "Opinion | Republicans Are Following Trump to Nowhere",
            "Jamelle Bouie",
            "2019-11-19",
        ),
    ] {
        let bytes = std::fs::read(dir.join(format!("{id}.html"))).expect("page");
        let opts = crate::page::Options {
            metadata: true,
            ..Default::default()
        };
        let e = crate::page::extract(&bytes, None, &opts).expect("extracted");
        assert_eq!(e.title.as_deref(), Some(title), "{id}");
        assert_eq!(e.author.as_deref(), Some(author), "{id}");
        assert_eq!(e.date.as_deref().map(|d| &d[..10]), Some(date), "{id}");
        assert_eq!(e.lang_source, Some(LangSource::Declared), "{id}");
    }
}

/// The date and author rules on the pages they were made for (`../shared/data`).
#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn shared_pages_dates_and_authors_by_the_new_rules() {
    use std::io::Read;
    let root = std::path::Path::new(env!("PITH_TEST_SHARED_DIR")).join("data");
    assert!(root.is_dir(), "{} is missing", root.display());
    let opts = crate::page::Options {
        metadata: true,
        ..Default::default()
    };
    for (page, url, author, date, source) in [
        // JSON-LD `2019-11-20T01:50:59Z`, filed under 2019-11-19 in its URL.
        (
            "scrapinghub/html/098bb3e96c0acdf36efdcde45fb9cca3f8c82c7cb2071b76097a1b96155f1eb2.html",
            None,
            None,
            "2019-11-19",
            Some(DateSource::Published),
        ),
        // JSON-LD `2019-11-19T04:58:46Z` and a local `2019-11-18T20:58:46` declared: the
        // earliest, the day of the URL.
        (
            "scrapinghub/html/1ace8c85aaee21b9d4505eca506d50c4721c29db62848b567a9703bfe0583892.html",
            Some(
                "https://techcrunch.com/2019/11/18/new-york-state-attorney-general-reportedly-investigating-wework/",
            ),
            None,
            "2019-11-18",
            Some(DateSource::Published),
        ),
        // `<b>05/10/2018</b>` on a `pt-BR` page.
        (
            "scrapinghub/html/f6ac15a4d98511396da23e4428deb5605422b1c8bbc8284e771f6896bdccf57f.html",
            None,
            None,
            "2018-10-05",
            Some(DateSource::Text),
        ),
        // Yoast: the article's author is an `@id` of a Person in the graph.
        (
            "scrapinghub/html/57e2e98887a1965689955921208e32f410b10e2b95c907e74e57982d3edf3cc6.html",
            None,
            Some("Yoav Schumacher"),
            "",
            None,
        ),
        // `Elliot Brownstein Florida Today` on the site `floridatoday`.
        (
            "scrapinghub/html/c81e134ed49902bcf69b551426b4a346c5a77ae993cac8bda68b5541a664ef4c.html",
            None,
            Some("Elliot Brownstein"),
            "",
            None,
        ),
        // `article:published_time` 2022-05-26 beside a JSON-LD `datePublished` 2025-12-01.
        (
            "wcxb_train/html/0057.html.gz",
            None,
            None,
            "2022-05-26",
            Some(DateSource::Published),
        ),
        // No date but `© <em>Supernatural, Inc.</em> ©<em>2022 — All rights reserved.`
        (
            "wcxb_train/html/0611.html.gz",
            None,
            None,
            "2022-01-01",
            Some(DateSource::Copyright),
        ),
    ] {
        let raw = std::fs::read(root.join(page)).expect("page");
        let bytes = if page.ends_with(".gz") {
            let mut out = Vec::new();
            flate2::read::GzDecoder::new(&raw[..])
                .read_to_end(&mut out)
                .expect("gzip");
            out
        } else {
            raw
        };
        let cx = crate::page::Context {
            url,
            ..Default::default()
        };
        let e = crate::page::extract_with(&bytes, &cx, &opts).expect("extracted");
        if let Some(a) = author {
            assert_eq!(e.author.as_deref(), Some(a), "{page}");
        }
        if !date.is_empty() {
            assert_eq!(e.date.as_deref().map(|d| &d[..10]), Some(date), "{page}");
            assert_eq!(e.date_source, source, "{page}");
        }
    }
}
