//! `--format html` and `--format xml`: one whole document per record, the body the renderer
//! wrote ([`crate::output::structured`]) with the page's metadata around it, completed from the
//! record as JSON lines complete it ([`super::json::page`]): a transport `Content-Language`
//! when the page declares no language, a date in the URL's path, the URL's host as the site
//! name. The `url` is the record's (`--url`, a WARC target URI, a JSON line's field), else the
//! page's canonical link or `og:url`; the
//! `id` a stream record's id (none for a page given as a file). Records are separated as text
//! output separates them (a form feed line, [`super::run`]); a page without main text writes
//! nothing.

use crate::input::Record;
use crate::output::Format;
use crate::output::structured::{Meta, html_document, xml_document};
use crate::page::Extracted;

/// What a document takes from outside its page.
#[derive(Clone, Copy, Debug, Default)]
pub struct Origin<'a> {
    /// The page's URL.
    pub url: Option<&'a str>,
    /// The record's id.
    pub id: Option<&'a str>,
    /// The transport `Content-Language`, as sent (normalized as JSON lines normalize it).
    pub content_language: Option<&'a str>,
}

/// The whole document of a page whose body `e.text` is in `format` (HTML or XML; any other
/// format gives the body as it is). Empty when the page has no main text.
pub fn document(format: Format, e: &Extracted, origin: &Origin<'_>) -> String {
    if e.text.is_empty() || !format.is_document() {
        return e.text.clone();
    }
    let super::Completed {
        lang: (lang, _),
        date: (date, _),
        sitename,
    } = super::completed(origin.url, origin.content_language, e);
    let meta = Meta {
        title: e.title.as_deref(),
        author: e.author.as_deref(),
        sitename: sitename.as_deref(),
        url: origin.url.or(e.url.as_deref()),
        date: date.as_deref(),
        description: e.description.as_deref(),
        categories: &e.categories,
        tags: &e.tags,
        id: origin.id,
        lang: lang.as_deref(),
        image: e.image.as_deref(),
    };
    if format == Format::Html {
        html_document(&meta, &e.text)
    } else {
        xml_document(&meta, &e.text)
    }
}

/// [`document`] for a record of a run: its URL, its id (a stream record's; a JSON line's
/// `id` field first), its `Content-Language`.
pub(super) fn record(format: Format, e: &Extracted, rec: &Record, plain_page: bool) -> String {
    let extra_id = rec
        .extra
        .as_ref()
        .and_then(|x| x.get("id"))
        .map(|v| match v {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        });
    let id = match &extra_id {
        Some(s) => Some(s.as_str()),
        None if plain_page => None,
        None => rec.place.id.as_deref(),
    };
    let origin = Origin {
        url: rec.place.url.as_deref(),
        id,
        content_language: rec.content_language.as_deref(),
    };
    document(format, e, &origin)
}
