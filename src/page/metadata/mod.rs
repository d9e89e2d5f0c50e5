//! Page metadata for JSON output: title, author, date, site name, description, image,
//! categories, tags and language, each from the page's own declarations first and from
//! heuristics last. Computed only when [`super::Options::metadata`] asks for it (`--format
//! json`, the Python module's JSON), so the plain-text path never pays for it.
//!
//! Sources, in the order they are tried (the first that gives a value wins):
//!
//! - `url`: `<link rel=canonical>`, then `og:url`, resolved against `<base href>` and the
//!   caller's URL; only an absolute `http(s)` URL ([`Metadata::url`]; an output gives the
//!   input's URL before it).
//! - `title`: `og:title`, else the `<title>` of the document (never one inside an `<svg>`),
//!   each cleaned of the site name: a first or last part, cut at a [`TITLE_SEPARATORS`]
//!   separator, that is the site name (`og:site_name`, JSON-LD publisher, `application-name`,
//!   ... see `sitename`). When both are missing or only the site name: JSON-LD `headline`,
//!   `twitter:title`, the only `<h1>`.
//! - `author`: JSON-LD `author` of a person (names joined with `; `), `<meta>` author names
//!   ([`AUTHOR_META`]), then the text of a byline element (`rel=author`, `itemprop=author`,
//!   a class or id naming the author: [`AUTHOR_CLASSES`]) cleaned ([`BYLINE_LEADS`],
//!   [`BYLINE_STOPS`]), then a JSON-LD author that is an organization.
//! - `date` (ISO 8601: `YYYY-MM-DD`, or the full date-time when the source gives a time):
//!   JSON-LD `datePublished`, Open Graph / `article:published_time` ([`DATE_OG`]),
//!   `<meta itemprop=datePublished>`, Dublin Core ([`DATE_DC`]), other common meta names
//!   ([`DATE_OTHER`]), `<time datetime>` (one marked `pubdate` or `itemprop=datePublished`
//!   first), a date in the path of the page's URL (`og:url`, canonical link; the caller's
//!   URL through [`read`]); of several publication declarations, the earliest; a UTC time
//!   stamp gives way to the local date of the URL ([`is_local_day_of`]). Then guesses
//!   ([`Metadata::date_source`] says which): the modified date ([`DATE_MODIFIED`], JSON-LD
//!   `dateModified`), an element whose class names a date ([`DATE_CLASSES`]), the first short
//!   text holding one (`05/10/2018` read by the page's language), a date key in a script's
//!   JSON state, the first date in the markup, a date in a link's path, the copyright year.
//!   Values are parsed by [`iso_date`] (ISO, `2020/06/16`, `2020年06月16日 02:31`, `June 16, 2020`, `16.06.2020`, RFC 2822...).
//! - `sitename`: `og:site_name`, JSON-LD publisher or `WebSite` name, publisher meta names
//!   ([`SITENAME_META`]), `twitter:site` (without its `@`), a part of the `<title>` that is
//!   a domain name, then the host of the page's URL (`url`; the caller's URL through
//!   [`host_name`]); a URL gives its host only when it is the site's root, a slug nothing.
//! - `description`: `og:description`, `<meta name=description>`, `twitter:description`, Dublin
//!   Core, JSON-LD `description`.
//! - `image`: `og:image` (`:secure_url`, `:url`), `twitter:image`, JSON-LD `image`,
//!   `<link rel=image_src>`.
//! - `categories`: `article:section`, JSON-LD `articleSection`, links with `rel=category`.
//! - `tags`: `article:tag`, keyword meta names ([`TAG_META`]), JSON-LD `keywords`, links with
//!   `rel=tag`.
//! - `lang`, a lower-case BCP 47 tag ([`lang_tag`]): declared by `<html lang>` (or
//!   `xml:lang`), `<meta http-equiv=content-language>`, `<meta name=language>`, `og:locale`
//!   (`lang_source: "declared"`; one that names no language is passed over), else detected from the
//!   extracted plain text (Markdown output's too) by whatlang (`"detected"`, only when
//!   whatlang calls it reliable; never in a build without the `lang` feature).
//!
//! JSON-LD is parsed with serde_json, never matched with patterns; a hostile page's JSON-LD
//! is bounded: [`LD_MAX_SCRIPT`] bytes per script, [`LD_MAX_TOTAL`] in all, [`LD_MAX_SCRIPTS`]
//! scripts, nesting at serde_json's recursion limit (128), [`LD_MAX_NODES`] values visited.

mod author;
mod dates;
mod jsonld;
mod lang;
mod settings;
mod site;
#[cfg(test)]
mod tests;

use author::*;
pub use dates::DateSource;
pub(crate) use dates::*;
use jsonld::*;
pub use lang::*;
pub(crate) use settings::*;
pub(crate) use site::*;

use serde_json::Value;

use crate::html::{Document, Kind, NodeId, Tag, entities};

/// A page's metadata; every field `None` or empty when the page does not give it.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Metadata {
    /// The page's URL as the page declares it (`<link rel=canonical>`, else `og:url`), resolved
    /// against its `<base href>` and the caller's URL; only an absolute `http(s)` URL
    /// ([`own_url`]). The caller's URL itself is not copied here: an output gives it first.
    pub url: Option<String>,
    /// The title, cleaned of the site name.
    pub title: Option<String>,
    /// The author(s), `; `-separated.
    pub author: Option<String>,
    /// The publication date, ISO 8601.
    pub date: Option<String>,
    /// Where `date` came from: [`DateSource::Published`], [`DateSource::Time`], [`DateSource::Url`] (stated
    /// dates), then the guesses [`DateSource::Modified`], [`DateSource::Text`], [`DateSource::Script`],
    /// [`DateSource::Markup`], [`DateSource::Link`], [`DateSource::Copyright`], in the order they are tried.
    pub date_source: Option<DateSource>,
    /// The site's name.
    pub sitename: Option<String>,
    /// The page's own summary.
    pub description: Option<String>,
    /// The page's lead image (URL as written).
    pub image: Option<String>,
    /// Sections or categories.
    pub categories: Vec<String>,
    /// Tags and keywords.
    pub tags: Vec<String>,
    /// The language (BCP 47 as declared, ISO 639-1 when detected).
    pub lang: Option<String>,
    /// [`LangSource::Declared`] or [`LangSource::Detected`].
    pub lang_source: Option<LangSource>,
}

/// What the `<meta>` and `<link>` elements and the document say, collected in one pass.
#[derive(Default)]
struct Found {
    html_title: Option<String>,
    h1: Option<String>,
    h1_count: usize,
    html_lang: Option<String>,
    /// `(key, content)` of each `<meta>`, key lower-cased; one entry per key attribute
    /// (`property`, `name`, `itemprop`, `http-equiv`), so that
    /// `<meta property="article:published" itemprop="datePublished">` is found under both.
    meta: Vec<(String, String)>,
    time_pub: Option<String>,
    time_any: Option<String>,
    canonical: Option<String>,
    /// The first `<base href>`.
    base_href: Option<String>,
    image_src: Option<String>,
    rel_category: Vec<String>,
    rel_tag: Vec<String>,
    ld: Ld,
}

impl Found {
    fn meta(&self, keys: &[&str]) -> Option<&str> {
        keys.iter().find_map(|k| {
            self.meta
                .iter()
                .find(|(m, _)| m == k)
                .map(|(_, v)| v.as_str())
        })
    }

    fn meta_all<'s>(&'s self, keys: &'s [&str]) -> impl Iterator<Item = &'s str> + 's {
        self.meta
            .iter()
            .filter(|(m, _)| keys.contains(&m.as_str()))
            .map(|(_, v)| v.as_str())
    }
}

/// Reads the metadata of a parsed page; `text` is its extracted plain text, never Markdown
/// (for language detection when none is declared), `url` the page's URL when the caller knows
/// it (a WARC record's, the command line's): a date in its path is a stated date.
pub(crate) fn read(doc: &Document, text: &str, url: Option<&str>) -> Metadata {
    let f = collect(doc);
    let declared_author = declared_author(&f);
    let declared_date = declared_date(&f, url);
    // The byline and the dates written in the text are read only when the declarations leave
    // them needed, in one walk.
    let guesses = if declared_author.is_none() || declared_date.is_none() {
        body_guesses(doc, declared_author.is_none(), declared_date.is_none())
    } else {
        BodyGuesses::default()
    };
    let own_url = own_url(&f, url);
    let sitename = sitename(&f, own_url.as_deref());
    let title = title(&f, sitename.as_deref());
    let author = author(&f, declared_author.or(guesses.byline), sitename.as_deref());
    let date = declared_date.or_else(|| {
        guesses
            .date_elem
            .or(guesses.text_date)
            .or_else(|| slashed_by_lang(guesses.text_slashed?, &declared_lang(&f)?))
            .map(|d| (d, DateSource::Text))
    });
    let (date, date_source) = match date.or_else(|| last_guess(doc)) {
        Some((d, s)) => (Some(d), Some(s)),
        None => (None, None),
    };
    let description = f
        .meta(&[
            "og:description",
            "description",
            "twitter:description",
            "dc.description",
            "dcterms.description",
        ])
        .map(str::to_string)
        .or_else(|| f.ld.description.clone())
        .or_else(|| f.meta(&["itemprop:description"]).map(str::to_string))
        .map(|d| truncate_chars(d, DESCRIPTION_MAX_CHARS));
    let image = f
        .meta(&[
            "og:image",
            "og:image:secure_url",
            "og:image:url",
            "twitter:image",
            "twitter:image:src",
        ])
        .map(str::to_string)
        .or_else(|| f.ld.image.clone())
        .or_else(|| f.meta(&["itemprop:image"]).map(str::to_string))
        .or_else(|| f.image_src.clone());
    let mut categories: Vec<String> = f.meta_all(&["article:section"]).map(String::from).collect();
    categories.extend(f.ld.sections.iter().cloned());
    categories.extend(f.rel_category.iter().cloned());
    let mut tags: Vec<String> = f.meta_all(&["article:tag"]).map(String::from).collect();
    for k in f.meta_all(TAG_META) {
        tags.extend(k.split([',', ';']).map(str::to_string));
    }
    tags.extend(f.ld.keywords.iter().cloned());
    tags.extend(f.rel_tag.iter().cloned());
    let (lang, lang_source) = match declared_lang(&f) {
        Some(l) => (Some(l), Some(LangSource::Declared)),
        None => match detect_lang(text) {
            Some(l) => (Some(l.to_string()), Some(LangSource::Detected)),
            None => (None, None),
        },
    };
    Metadata {
        url: own_url,
        title,
        author,
        date,
        date_source,
        sitename,
        description,
        image,
        categories: dedup(categories),
        tags: dedup(tags),
        lang,
        lang_source,
    }
}

fn collect(doc: &Document) -> Found {
    let mut f = Found::default();
    let mut ld_budget = Budget::default();
    for (i, n) in doc.tree.nodes.iter().enumerate() {
        let id = i as NodeId;
        if n.kind != Kind::Element {
            continue;
        }
        match n.tag {
            Tag::Html if f.html_lang.is_none() => {
                f.html_lang = doc
                    .attr(id, "lang")
                    .or_else(|| doc.attr(id, "xml:lang"))
                    .map(clean)
                    .filter(|l| !l.is_empty());
            }
            Tag::Title if f.html_title.is_none() && !in_svg(doc, id) => {
                let t = clean(doc.raw_text(id));
                if !t.is_empty() {
                    f.html_title = Some(t);
                }
            }
            Tag::Meta => {
                let Some(content) = doc.attr(id, "content").map(clean) else {
                    continue;
                };
                if content.is_empty() {
                    continue;
                }
                for key in ["property", "name", "itemprop", "http-equiv"] {
                    let Some(k) = doc.attr(id, key) else {
                        continue;
                    };
                    let k = k.trim().to_ascii_lowercase();
                    match key {
                        // One key per item property (`itemprop="datePublished dateCreated"`),
                        // also under its own prefix: `itemprop=description` is the page's only
                        // after the meta and JSON-LD descriptions.
                        "itemprop" => {
                            for p in k.split_ascii_whitespace() {
                                f.meta.push((format!("itemprop:{p}"), content.clone()));
                                f.meta.push((p.to_string(), content.clone()));
                            }
                        }
                        "http-equiv" => f.meta.push((format!("http-equiv:{k}"), content.clone())),
                        _ => f.meta.push((k, content.clone())),
                    }
                }
            }
            Tag::Link => {
                let rel = doc.attr(id, "rel").unwrap_or("").to_ascii_lowercase();
                let href = doc
                    .attr(id, "href")
                    .map(str::trim)
                    .filter(|h| !h.is_empty());
                match (rel.as_str(), href) {
                    // Attribute values as the browser reads them (`&amp;` is `&`).
                    ("canonical", Some(h)) if f.canonical.is_none() => {
                        f.canonical = Some(entities::decode(h).into_owned())
                    }
                    ("image_src", Some(h)) if f.image_src.is_none() => {
                        f.image_src = Some(h.to_string())
                    }
                    _ => {}
                }
            }
            Tag::Base if f.base_href.is_none() => {
                f.base_href = doc
                    .attr(id, "href")
                    .map(str::trim)
                    .filter(|h| !h.is_empty())
                    .map(|h| entities::decode(h).into_owned());
            }
            Tag::Script
                if doc
                    .attr(id, "type")
                    .is_some_and(|t| contains_ignore_case(t, "ld+json")) =>
            {
                ld_script(doc.raw_text(id), &mut f.ld, &mut ld_budget);
            }
            Tag::Time if f.time_pub.is_none() => {
                if let Some(dt) = doc
                    .attr(id, "datetime")
                    .map(str::trim)
                    .filter(|v| !v.is_empty())
                {
                    let marked = doc.attr(id, "pubdate").is_some()
                        || doc
                            .attr(id, "itemprop")
                            .is_some_and(|p| p.eq_ignore_ascii_case("datepublished"));
                    if marked {
                        f.time_pub = Some(dt.to_string());
                    } else if f.time_any.is_none() {
                        f.time_any = Some(dt.to_string());
                    }
                }
            }
            Tag::H1 => {
                f.h1_count += 1;
                if f.h1.is_none() {
                    f.h1 = Some(doc.text_of(id)).filter(|t| !t.is_empty());
                }
            }
            _ => {}
        }
        if n.tag == Tag::A
            && let Some(rel) = doc.attr(id, "rel")
        {
            let mut words = rel.split_ascii_whitespace();
            if words.clone().any(|w| w.eq_ignore_ascii_case("category")) {
                push_text(&mut f.rel_category, doc.text_of(id));
            } else if words.any(|w| w.eq_ignore_ascii_case("tag")) {
                push_text(&mut f.rel_tag, doc.text_of(id));
            }
        }
    }
    f.ld.resolve_authors();
    f
}

/// What the page's body says of its author and date when its declarations do not: the name
/// in the first byline element's text, the first date in an element whose class, id or
/// itemprop names a date, the first date in a short visible text and, before it, the first
/// `05/10/2018` that reads both ways.
#[derive(Default)]
struct BodyGuesses {
    byline: Option<String>,
    date_elem: Option<String>,
    text_date: Option<String>,
    /// As (first, second, year): read by the page's language ([`slashed_by_lang`]).
    text_slashed: Option<(u32, u32, u32)>,
}

/// Reads [`BodyGuesses`] in one walk: the byline with `byline` (the page names no author in
/// its JSON-LD or meta), the dates with `dates` (neither its declarations nor its URL give
/// one: [`declared_date`]). The walk ends once each asked is found (the dates at the first date
/// element, which wins over the texts). It used to be part of [`collect`]'s walk, paid by every
/// page; a page that declares both pays nothing now.
fn body_guesses(doc: &Document, byline: bool, dates: bool) -> BodyGuesses {
    let mut g = BodyGuesses::default();
    let (mut byline_done, mut dates_done) = (!byline, !dates);
    for (i, n) in doc.tree.nodes.iter().enumerate() {
        if byline_done && dates_done {
            break;
        }
        let id = i as NodeId;
        if n.kind == Kind::Text {
            if !dates_done
                && g.text_date.is_none()
                && n.context() & crate::html::tree::context::HIDDEN == 0
                && (n.end - n.start) as usize <= DATE_TEXT_MAX_BYTES
            {
                let raw = doc.raw_text(id);
                if has_year_digits(raw) {
                    let t = clean(raw);
                    g.text_date = iso_date_in(&t);
                    if g.text_date.is_none() && g.text_slashed.is_none() {
                        g.text_slashed = slashed_date(&t);
                    }
                }
            }
            continue;
        }
        if n.kind != Kind::Element {
            continue;
        }
        let want_date = !dates_done && holds_text(n.tag, doc, id);
        let byline_tag = !byline_done && byline_tag(n.tag, doc, id);
        // An `<author>` element is a byline whatever its attributes.
        let named_author = byline_tag && n.tag == Tag::Other && doc.name(id) == "author";
        let want_byline = byline_tag && !named_author;
        let (date_mark, byline_mark) = if want_date || want_byline {
            element_marks(doc, id, want_date, want_byline)
        } else {
            (false, false)
        };
        if date_mark {
            g.date_elem = doc
                .attr(id, "datetime")
                .or_else(|| doc.attr(id, "content"))
                .or_else(|| doc.attr(id, "title"))
                .and_then(iso_date)
                .or_else(|| {
                    let t = doc.text_of(id);
                    (t.len() <= DATE_TEXT_MAX_BYTES)
                        .then(|| iso_date_in(&t))
                        .flatten()
                });
            dates_done = g.date_elem.is_some();
        }
        if byline_tag && (named_author || byline_mark) && !in_comments(doc, id) {
            let t = byline_name(&spaced_text(doc, id));
            if AUTHOR_CHARS.contains(&t.chars().count())
                && t.split_whitespace().count() <= BYLINE_MAX_WORDS
                && is_name(&t)
            {
                g.byline = Some(t);
                byline_done = true;
            }
        }
    }
    g
}

/// What an element's attributes say of it, in one scan of its start tag: whether its class,
/// id or itemprop names a date ([`DATE_CLASSES`], asked with `date`), and whether it is
/// marked as a byline (`rel=author`, an `itemprop` naming the author, or a class or id word of
/// [`AUTHOR_CLASSES`]: asked with `byline`). The scan stops once the answers asked are yes.
fn element_marks(doc: &Document, id: NodeId, date: bool, byline: bool) -> (bool, bool) {
    let (mut is_date, mut is_byline) = (false, false);
    for (k, v) in doc.attributes(id) {
        let class_or_id = k.eq_ignore_ascii_case("class") || k.eq_ignore_ascii_case("id");
        let itemprop = !class_or_id && k.eq_ignore_ascii_case("itemprop");
        if date && !is_date && (class_or_id || itemprop) {
            is_date = date_classes().is_match(v);
        }
        if byline && !is_byline {
            is_byline = if class_or_id {
                v.split_ascii_whitespace().any(is_author_class)
            } else if itemprop {
                contains_ignore_case(v, "author")
            } else {
                k.eq_ignore_ascii_case("rel") && v.eq_ignore_ascii_case("author")
            };
        }
        if (is_date || !date) && (is_byline || !byline) {
            break;
        }
    }
    (is_date, is_byline)
}

/// [`DATE_CLASSES`] as one automaton (ASCII case-insensitive): the class, id and itemprop of
/// every element that can hold a date are asked, so one pass each, not one per word.
fn date_classes() -> &'static aho_corasick::AhoCorasick {
    static WORDS: std::sync::OnceLock<aho_corasick::AhoCorasick> = std::sync::OnceLock::new();
    WORDS.get_or_init(|| {
        aho_corasick::AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(DATE_CLASSES)
            .unwrap_or_else(|_| unreachable!("a fixed list of short words builds an automaton"))
    })
}

/// `hay` contains `needle` (ASCII lower case), ASCII case-insensitively, without allocating.
fn contains_ignore_case(hay: &str, needle: &str) -> bool {
    hay.len() >= needle.len()
        && hay
            .as_bytes()
            .windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

fn push_text(v: &mut Vec<String>, t: String) {
    if !t.is_empty() && v.len() < LIST_MAX {
        v.push(t);
    }
}

/// Whether `id` is inside an `<svg>` (whose `<title>` names a picture, not the page).
fn in_svg(doc: &Document, id: NodeId) -> bool {
    doc.tree
        .ancestors(id)
        .any(|a| doc.tree.node(a).tag == Tag::Svg)
}

fn clean(raw: &str) -> String {
    let mut decoded = String::with_capacity(raw.len());
    entities::decode_into(raw, &mut decoded);
    let out = decoded.split_whitespace().collect::<Vec<_>>().join(" ");
    crate::output::nfc(out)
}

fn truncate_chars(s: String, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => s[..i].to_string(),
        None => s,
    }
}

/// Keeps the first of each value (case-insensitively), at most [`LIST_MAX`].
fn dedup(v: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in v {
        let s = s.trim().to_string();
        if !s.is_empty() && !out.iter().any(|o| o.eq_ignore_ascii_case(&s)) && out.len() < LIST_MAX
        {
            out.push(s);
        }
    }
    out
}
