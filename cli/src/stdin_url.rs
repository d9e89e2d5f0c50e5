//! A URL where a page was expected (`echo URL | pith`, `pith URL`): pith reads pages, it does
//! not fetch them, so instead of printing the URL back as the page's text it says so.

use std::io::BufRead;

use pith::input::Framing;
use pith::pipeline::Config;

/// The message when standard input (when it is read) or a file argument is a URL.
pub fn check(config: &Config) -> Option<String> {
    if !matches!(config.input, Framing::Auto | Framing::Html) {
        return None;
    }
    for name in &config.files {
        if name == "-" {
            continue;
        }
        if is_url(name) && !std::path::Path::new(name).exists() {
            return Some(fetch_hint(&format!("`{name}` is a URL, not a file"), name));
        }
    }
    if !config.files.iter().any(|f| f == "-") {
        return None;
    }
    // Standard input's own buffer: what is looked at here is read again by the pipeline.
    let mut stdin = std::io::stdin().lock();
    let head = stdin.fill_buf().ok()?;
    let text = std::str::from_utf8(head).ok()?.trim();
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next()?;
    if is_url(first) && lines.all(is_url) {
        let what = if text.lines().filter(|l| !l.trim().is_empty()).count() > 1 {
            "URLs"
        } else {
            "a URL"
        };
        return Some(fetch_hint(
            &format!("standard input looks like {what}, not a page"),
            first,
        ));
    }
    None
}

fn fetch_hint(what: &str, url: &str) -> String {
    format!(
        "{what}: pith reads pages, it does not fetch them; fetch it with curl: \
         curl -sL '{url}' | pith --url '{url}'"
    )
}

/// `http://...` or `https://...` with no white space or markup in it.
fn is_url(s: &str) -> bool {
    let lower = s.get(..8).unwrap_or(s).to_ascii_lowercase();
    (lower.starts_with("http://") || lower.starts_with("https://"))
        && s.len() > 8
        && !s.contains(|c: char| c.is_whitespace() || c == '<' || c == '>' || c == '"')
}

#[cfg(test)]
mod tests {
    use super::is_url;

    #[test]
    fn urls() {
        assert!(is_url("https://example.com/a?b=c"));
        assert!(is_url("HTTP://example.com"));
        assert!(!is_url("https://"));
        assert!(!is_url("<a href=https://example.com>"));
        assert!(!is_url("see https://example.com"));
    }
}
