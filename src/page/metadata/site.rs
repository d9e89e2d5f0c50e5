//! The title (site name separators stripped), the site name and the page's own URL.

use super::*;

/// The host of an absolute URL as a site name, without `www.` (`https://www.example.org/a`
/// → `example.org`): the site name of last resort, as trafilatura gives it.
pub(crate) fn host_name(url: &str) -> Option<String> {
    let rest = &url[url.find("://")? + 3..];
    let host = rest.split(['/', '?', '#']).next()?;
    let host = host.rsplit('@').next()?.split(':').next()?;
    let host = host.strip_prefix("www.").unwrap_or(host);
    (host.contains('.') && !host.starts_with('.')).then(|| host.to_ascii_lowercase())
}

/// The page's own URL when it declares one: `<link rel=canonical>`, then `og:url`, each
/// resolved against the page's base (its `<base href>`, itself resolved against `input`, else
/// `input`, the URL the caller knows); a protocol-relative `//host/path` without a base is
/// read as `https:`. Only an absolute `http`/`https` URL with a host is given: a relative one
/// with nothing to resolve it against, a `javascript:` or `about:blank`, or what the WHATWG
/// parser refuses is passed over for the next source.
pub(super) fn own_url(f: &Found, input: Option<&str>) -> Option<String> {
    let input = input.and_then(|u| url::Url::parse(u.trim()).ok());
    let base = match f.base_href.as_deref() {
        Some(h) => match &input {
            Some(i) => i.join(h).ok(),
            None => url::Url::parse(h).ok(),
        }
        .or(input),
        None => input,
    };
    [f.canonical.as_deref(), f.meta(&["og:url"])]
        .into_iter()
        .flatten()
        .find_map(|href| {
            let href = href.trim();
            let u = match &base {
                Some(b) => b.join(href).ok()?,
                None if href.starts_with("//") => url::Url::parse(&format!("https:{href}")).ok()?,
                None => url::Url::parse(href).ok()?,
            };
            (matches!(u.scheme(), "http" | "https")
                && u.host_str()
                    .is_some_and(|h| h.contains('.') || h.contains(':')))
            .then(|| u.into())
        })
}

/// The site name: `og:site_name`, JSON-LD publisher or `WebSite` name, publisher meta names,
/// `twitter:site`, a `<title>` part that is a domain name, then the host of the page's URL
/// (`own_url`). Each is cleaned ([`site_value`]): a URL gives its host, a slug nothing (the
/// next source is read).
pub(super) fn sitename(f: &Found, own_url: Option<&str>) -> Option<String> {
    let title_domain = || {
        let t = f.html_title.as_deref()?;
        let (first, last) = split_title(t)?;
        [last, first]
            .into_iter()
            .find(|p| p.contains('.') && !p.contains(' '))
    };
    f.meta_all(&["og:site_name"])
        .chain(f.ld.publisher.as_deref())
        .chain(f.ld.website.as_deref())
        .chain(f.meta_all(SITENAME_META))
        .chain(f.meta_all(&["twitter:site"]))
        .find_map(site_value)
        .or_else(|| title_domain().and_then(site_value))
        .or_else(|| own_url.and_then(host_name))
}

/// A site name as written, cleaned: a URL (`https://www.newsnation.in`, `www.example.org`)
/// of the site's root is its host without `www.` ([`host_name`]), another URL nothing; a
/// Twitter handle loses its `@`; a slug (one
/// word with an `_`, `Wday_`, or of lower-case words joined by `-`, `my-site`) is no name.
pub(super) fn site_value(s: &str) -> Option<String> {
    let s = s.trim();
    let lower = s.to_ascii_lowercase();
    // A URL names the site when it is the site's root (`https://www.newsnation.in/`); with a
    // path it links elsewhere (`https://www.facebook.com/example`) and names nothing.
    let url =
        if lower.starts_with("http://") || lower.starts_with("https://") || lower.starts_with("//")
        {
            Some(&s[s.find("//")? + 2..])
        } else if lower.starts_with("www.") && !s.contains(char::is_whitespace) {
            Some(s)
        } else {
            None
        };
    if let Some(rest) = url {
        let path = rest.find(['/', '?', '#']).map_or("", |i| &rest[i..]);
        return (path.is_empty() || path == "/")
            .then(|| host_name(&format!("https://{rest}")))
            .flatten();
    }
    let s = s.strip_prefix('@').unwrap_or(s).trim();
    let one_word = !s.contains(char::is_whitespace);
    let slug = one_word
        && (s.contains('_')
            || (s.contains('-')
                && s.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')));
    (!s.is_empty() && !slug && s.chars().any(char::is_alphanumeric)).then(|| s.to_string())
}

/// The first and last parts of a title cut at its first and last separator.
pub(super) fn split_title(t: &str) -> Option<(&str, &str)> {
    let first = TITLE_SEPARATORS
        .iter()
        .filter_map(|s| t.find(s).map(|i| (i, s.len())))
        .min()?;
    let last = TITLE_SEPARATORS
        .iter()
        .filter_map(|s| t.rfind(s).map(|i| (i, s.len())))
        .max()?;
    Some((&t[..first.0], &t[last.0 + last.1..]))
}

pub(super) fn norm(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

pub(super) fn title(f: &Found, sitename: Option<&str>) -> Option<String> {
    let og = f.meta(&["og:title"]);
    let site = sitename.map(norm);
    let is_site = |p: &str| {
        let p = norm(p);
        site.as_ref().is_some_and(|s| {
            !p.is_empty()
                && (p == *s
                    || (s.contains(&p) && p.len() >= 3)
                    || (p.contains(s.as_str()) && p.len() <= s.len() + SITENAME_EXTRA_CHARS))
        })
    };
    let only_site = |t: &str| site.as_deref() == Some(norm(t).as_str());
    // Site name as the last or first part (repeatedly: `Story | Section | Site`).
    let strip = |mut t: &str| -> Option<String> {
        for _ in 0..3 {
            let Some((first, last)) = split_title(t) else {
                break;
            };
            if last.chars().count() <= SITENAME_MAX_CHARS && is_site(last) {
                t = strip_separator_end(t[..t.len() - last.len()].trim_end());
            } else if first.chars().count() <= SITENAME_MAX_CHARS && is_site(first) {
                t = strip_separator_start(t[first.len()..].trim_start());
            } else {
                break;
            }
        }
        (!t.is_empty() && !only_site(t)).then(|| t.to_string())
    };
    // The publisher's own headline first (`og:title`: written without the site name, or
    // cleaned of it), then `<title>` cleaned.
    og.and_then(strip)
        .or_else(|| f.html_title.as_deref().and_then(strip))
        .or_else(|| f.ld.headline.clone())
        .or_else(|| f.meta(&["twitter:title"]).and_then(strip))
        .or_else(|| (f.h1_count == 1).then(|| f.h1.clone()).flatten())
        .or_else(|| f.html_title.clone())
        .or_else(|| f.h1.clone())
}

pub(super) fn strip_separator_end(t: &str) -> &str {
    for s in TITLE_SEPARATORS {
        if let Some(r) = t.strip_suffix(s.trim_end()) {
            return r.trim_end();
        }
    }
    t
}

pub(super) fn strip_separator_start(t: &str) -> &str {
    for s in TITLE_SEPARATORS {
        if let Some(r) = t.strip_prefix(s.trim_start()) {
            return r.trim_start();
        }
    }
    t
}
