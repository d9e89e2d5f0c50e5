//! `--images`: the images of the main content, with alt text and captions, in Markdown and
//! JSON, their sources resolved against the page's URL and `<base href>`; on real articles
//! (figures with captions, lazy-loaded images) and on a small page made for it.

use crate::common;

use common::shared;
use serde_json::Value;

use crate::run_util;

use run_util::pith;

/// A page made for these tests: a header logo, a lazy-loaded figure with a caption, an image
/// in a paragraph, a tracking pixel, a `<picture>` with only `<source srcset>`, a related
/// list with thumbnails and a footer logo. `<!--BASE-->` is where a test puts a `<base>`.
const PAGE: &str = "../tests/pages/images.html";

/// Vox, "Delhi's air pollution...": a lead photo and six figures, all with alt text and
/// `<figcaption>`s.
const VOX: &str =
    "data/scrapinghub/html/16c30add7e96315e9cc957d85aa876ccb6b70055f0ddab51547a586117cc1f56.html";
/// The Sun, plague article: lazy-loaded figures, `src` a `data:` placeholder, the photo in
/// `data-src`.
const SUN: &str =
    "data/scrapinghub/html/8b194530308204139d9c8f7d495a26b117c78756ac1802cfc3c0a8bfdf2c0d50.html";
/// Space.com, moon landers: lazy-loaded, `src` a "missing image" placeholder, the photo in
/// `data-src`.
const SPACE: &str =
    "data/scrapinghub/html/c50845a7158af12ee75acea301a3ea0dad1e848d6b9dbdb43ba7f2d825b2528b.html";

/// The output of a successful run.
fn out(args: &[&str], stdin: &[u8]) -> String {
    let o = pith(args, stdin);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).expect("UTF-8 output")
}

/// The one JSON object of a run.
fn json(args: &[&str], stdin: &[u8]) -> Value {
    serde_json::from_str(&out(args, stdin)).expect("one JSON object")
}

/// `(src, alt, caption)` of each image of a JSON object.
fn images(v: &Value) -> Vec<(String, Option<String>, Option<String>)> {
    let s = |x: &Value| x.as_str().map(str::to_string);
    v["images"]
        .as_array()
        .expect("an images array")
        .iter()
        .map(|i| {
            let o = i.as_object().expect("an object");
            assert_eq!(o.len(), 3, "{i}");
            (s(&i["src"]).expect("a src"), s(&i["alt"]), s(&i["caption"]))
        })
        .collect()
}

fn page() -> String {
    std::fs::read_to_string(PAGE).expect("test page")
}

#[test]
fn images_of_the_content_only_resolved_against_url() {
    let html = page();
    let v = json(
        &[
            "--format",
            "json",
            "--images",
            "--url",
            "https://courier.example/news/2024/mill.html",
        ],
        html.as_bytes(),
    );
    let s = |x: &str| Some(x.to_string());
    assert_eq!(
        images(&v),
        [
            (
                "https://courier.example/news/2024/photos/mill-wheel.jpg".to_string(),
                s("The restored mill wheel"),
                s("The wheel, rebuilt from oak by volunteers. Photo: A. Miller")
            ),
            (
                "https://courier.example/news/maps/valley%20(1905).png".to_string(),
                s("The valley in 1905"),
                None
            ),
            (
                "https://courier.example/news/2024/photos/grindstone-1280.webp".to_string(),
                s("A grindstone in the museum hall"),
                s("One of the two grindstones.")
            ),
        ]
    );
    // The logo, the tracking pixel, the related thumbnails and the footer logo are not the
    // article's.
    let all = v["images"].to_string();
    for not in ["logo", "pixel", "thumbs"] {
        assert!(!all.contains(not), "{all}");
    }
    // Without a URL, sources stay as written (character references decoded).
    let v = json(&["--format", "json", "--images"], html.as_bytes());
    let srcs: Vec<String> = images(&v).into_iter().map(|i| i.0).collect();
    assert_eq!(
        srcs,
        [
            "photos/mill-wheel.jpg",
            "../maps/valley (1905).png",
            "photos/grindstone-1280.webp"
        ]
    );
}

#[test]
fn images_resolve_against_base_href_and_the_record_url() {
    // The first image's source when the page's `<base>` is `base` and its URL is given.
    let first_src = |base: &str| {
        let html = page().replace("<!--BASE-->", base);
        let v = json(
            &[
                "--format",
                "json",
                "--images",
                "--url",
                "https://courier.example/news/mill.html",
            ],
            html.as_bytes(),
        );
        images(&v)[0].0.clone()
    };
    assert_eq!(
        first_src("<base href=\"https://media.courier.example/2024/\">"),
        "https://media.courier.example/2024/photos/mill-wheel.jpg"
    );
    // A relative `<base>` is resolved against the page's URL first.
    assert_eq!(
        first_src("<base href=\"/media/\">"),
        "https://courier.example/media/photos/mill-wheel.jpg"
    );
    // A JSON lines record's `url` is the page's URL.
    let record = serde_json::json!({"url": "https://courier.example/a/b.html", "html": page()});
    let v = json(
        &["--format", "json", "--images"],
        format!("{record}\n").as_bytes(),
    );
    assert_eq!(
        images(&v)[0].0,
        "https://courier.example/a/photos/mill-wheel.jpg"
    );
}

#[test]
fn markdown_puts_each_image_where_it_sits_and_its_caption_once() {
    let md = out(
        &[
            "--format",
            "markdown",
            "--images",
            "--url",
            "https://courier.example/news/2024/mill.html",
            PAGE,
        ],
        b"",
    );
    assert!(
        md.contains(
            "since 1962.\n\n![The restored mill wheel](https://courier.example/news/2024/photos/mill-wheel.jpg)\n\
             *The wheel, rebuilt from oak by volunteers. Photo: A. Miller*\n\nVolunteers rebuilt"
        ),
        "{md}"
    );
    // Parentheses in a source would end the Markdown link: percent-encoded.
    assert!(
        md.contains(
            "\n\n![The valley in 1905](https://courier.example/news/maps/valley%20%281905%29.png)\n\n"
        ),
        "{md}"
    );
    assert_eq!(md.matches("One of the two grindstones.").count(), 1, "{md}");
    assert!(
        md.contains("*One of the two grindstones.*\n\nThe trust hopes"),
        "{md}"
    );
    // Without --images, Markdown is as before; text output is the same with it.
    let plain_md = out(&["--format", "markdown", PAGE], b"");
    assert!(!plain_md.contains("!["), "{plain_md}");
    assert_eq!(
        out(&["--images", PAGE], b""),
        out(&[PAGE], b""),
        "text output does not change with --images"
    );
}

#[test]
fn json_has_images_only_when_asked() {
    let v = json(&["--format", "json", PAGE], b"");
    assert!(v.get("images").is_none(), "{v}");
    let v = json(&["--format", "json-markdown", "--images", PAGE], b"");
    assert_eq!(images(&v).len(), 3, "{v}");
    let keys: Vec<&String> = v.as_object().expect("object").keys().collect();
    let at = |k: &str| keys.iter().position(|x| *x == k).expect(k);
    assert_eq!(at("images"), at("markdown") + 1, "{keys:?}");
    assert!(
        v["markdown"]
            .as_str()
            .expect("markdown")
            .contains("![The restored mill wheel]")
    );
}

/// A real article's figures: every photo with its alt text and caption, in page order, and
/// in Markdown each caption in italics under its photo, printed once.
#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn a_real_article_keeps_its_figures_with_alt_and_caption() {
    let page = std::fs::read(shared(VOX)).expect("page");
    let v = json(&["--format", "json", "--images"], &page);
    let got = images(&v);
    // The block model (the default) keeps the article's header with its lead photo; the six
    // figures of the body follow.
    assert_eq!(got.len(), 7, "{got:#?}");
    let (src, alt, caption) = &got[0];
    assert!(
        src.starts_with("https://cdn.vox-cdn.com/thumbor/")
            && src.ends_with("/65664956/GettyImages_1180855514.0.jpg"),
        "{src}"
    );
    assert_eq!(
        alt.as_deref(),
        Some("A view of India Gate amid smog, on November 8, 2019 in New Delhi, India.")
    );
    assert_eq!(
        caption.as_deref(),
        Some(
            "Air pollution is once again surging in Delhi. It\u{2019}s part of a larger pollution \
             problem in India."
        )
    );
    let body = &got[1..];
    let (src, alt, caption) = &body[0];
    assert!(
        src.starts_with("https://cdn.vox-cdn.com/thumbor/")
            && src.ends_with("/19355947/Screen_Shot_2019_11_07_at_12.32.11_PM.png"),
        "{src}"
    );
    assert_eq!(
        alt.as_deref(),
        Some("A map of PM2.5 air pollution over India.")
    );
    assert_eq!(
        caption.as_deref(),
        Some("Air pollution in Delhi remains \u{201c}unhealthy\u{201d} this week.")
    );
    assert_eq!(
        body[4].2.as_deref(),
        Some(
            "The Environmental Kuznets Curve hypothesizes that as a country develops, pollution \
             gets worse before it gets better."
        )
    );
    assert!(
        body.iter()
            .all(|(s, _, c)| s.contains("/uploads/chorus_asset/file/") && c.is_some()),
        "{got:#?}"
    );
    let md = out(&["--format", "markdown", "--images"], &page);
    assert!(
        md.contains(
            "earning a rating of \u{201c}hazardous.\u{201d}\n\n![A map of PM2.5 air pollution over India.](https://cdn.vox-cdn.com/thumbor/"
        ),
        "{md}"
    );
    assert!(
        md.contains("Screen_Shot_2019_11_07_at_12.32.11_PM.png)\n*Air pollution in Delhi remains"),
        "{md}"
    );
    assert_eq!(
        md.matches("Air pollution in Delhi remains").count(),
        1,
        "{md}"
    );
    // danag-lines keeps the first caption as a paragraph of its own: with --images it is
    // written once, under its photo, instead.
    let caption = "Air pollution in Delhi remains \u{201c}unhealthy\u{201d} this week.";
    let lines = out(&["--format", "markdown", "--algo", "danag-lines"], &page);
    assert!(lines.starts_with(&format!("{caption}\n\n")), "{lines}");
    let lines = out(
        &["--format", "markdown", "--algo", "danag-lines", "--images"],
        &page,
    );
    assert!(
        lines.starts_with("![A map of PM2.5 air pollution over India.](https://cdn.vox-cdn.com/"),
        "{lines}"
    );
    assert!(
        lines.contains(&format!(".png)\n*{caption}*\n\nThis surge")),
        "{lines}"
    );
    assert_eq!(lines.matches(caption).count(), 1, "{lines}");
    // The text is the same with or without images.
    assert_eq!(out(&["--images"], &page), out(&[], &page));
}

/// Lazy-loaded photos: the `data-src` a loader script would move into `src`, never the
/// placeholder in `src` (a `data:` URI, a "missing image" picture).
#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn lazy_loaded_photos_give_their_real_source() {
    let page = std::fs::read(shared(SUN)).expect("page");
    // The rules keep the seven photos: two in the text and five after it (which the block
    // model drops with their captions), all lazy-loaded.
    let got = images(&json(
        &["--algo", "rules", "--format", "json", "--images"],
        &page,
    ));
    assert_eq!(got.len(), 7, "{got:#?}");
    assert_eq!(
        got[0].0,
        "https://www.thesun.co.uk/wp-content/uploads/2019/11/NINTCHDBPICT000540033229.jpg"
    );
    assert_eq!(
        got[0].1.as_deref(),
        Some(
            "Beijing Chaoyang Hospital in Beijing, China, where plague-infected people from \
             Inner Mongolia sought treatment"
        )
    );
    // The caption and its credit are two `<span>`s: a space between them.
    assert_eq!(
        got[0].2.as_deref(),
        Some(
            "Beijing Chaoyang Hospital in Beijing, China, where plague-infected people from \
             Inner Mongolia sought treatment Credit: EPA"
        )
    );
    assert!(got.iter().all(|i| !i.0.starts_with("data:")), "{got:#?}");

    let page = std::fs::read(shared(SPACE)).expect("page");
    let got = images(&json(&["--format", "json", "--images"], &page));
    assert_eq!(
        got.first().map(|i| i.0.as_str()),
        Some("https://cdn.mos.cms.futurecdn.net/qPCNDHwDBdDhnpAnfKBEM5-320-80.jpg"),
        "{got:#?}"
    );
    assert!(
        got.iter().all(|i| !i.0.contains("missing-image")),
        "{got:#?}"
    );
}

/// A WARC record's `WARC-Target-URI` is the page's URL: books.toscrape.com writes its covers
/// as `media/cache/...`, listed resolved against `http://books.toscrape.com/`.
#[test]
#[cfg_attr(pith_no_shared, ignore = "needs ../shared/data")]
fn warc_images_resolve_against_the_target_uri() {
    let warc = shared("data/warc_samples/files/node-warc-books.toscrape.warc");
    let warc = warc.to_str().expect("UTF-8 path");
    let v = json(&["--format", "json", "--images", warc], b"");
    assert_eq!(v["url"], "http://books.toscrape.com/");
    let got = images(&v);
    assert_eq!(got.len(), 20, "{got:#?}");
    assert_eq!(
        got[0],
        (
            "http://books.toscrape.com/media/cache/2c/da/2cdad67c44b002e7ead0cc35693c0e8b.jpg"
                .to_string(),
            Some("A Light in the Attic".to_string()),
            None
        )
    );
    assert!(
        got.iter()
            .all(|i| i.0.starts_with("http://books.toscrape.com/media/cache/")),
        "{got:#?}"
    );
}
