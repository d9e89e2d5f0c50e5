//! The template store: a directory of site templates, one file per host (`STORE/<host>.tpl`),
//! loaded on first use and cached for the workers. The template itself and its file format
//! are FastCE's model ([`crate::extract::fastce::model`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::extract::fastce::model::{EXT, Family, LoadError};

/// The host of a URL, lower-cased, without scheme, user, port, path; `None` when there is none
/// or it holds characters a host name cannot (so it can never name a file outside the store).
pub fn host_of(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = match host.rsplit_once(':') {
        Some((h, port)) if port.bytes().all(|b| b.is_ascii_digit()) => h,
        _ => host,
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let ok = !host.is_empty()
        && !host.starts_with('.')
        && host.len() <= 253
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-' || b == b'_');
    ok.then_some(host)
}

/// The file of `host`'s template in a store directory.
pub fn file_for(store: &Path, host: &str) -> PathBuf {
    store.join(format!("{host}.{EXT}"))
}

/// A template store that is not a directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotADirectory(pub PathBuf);

impl std::fmt::Display for NotADirectory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: not a directory", self.0.display())
    }
}

impl std::error::Error for NotADirectory {}

/// A store directory of templates, loaded on first use and cached (shared by the workers).
#[derive(Debug)]
pub struct Store {
    dir: PathBuf,
    cache: Mutex<HashMap<String, Option<Arc<Family>>>>,
}

impl Store {
    /// Opens a store directory; it must exist.
    pub fn open(dir: &Path) -> Result<Store, NotADirectory> {
        if !dir.is_dir() {
            return Err(NotADirectory(dir.to_path_buf()));
        }
        Ok(Store {
            dir: dir.to_path_buf(),
            cache: Mutex::new(HashMap::new()),
        })
    }

    /// The template for the host of `url`, if the store has a usable one. A missing file means
    /// the site was not learned (no error); a faulty one is given back once, with the host, the
    /// first time the host is asked for (the host is then extracted without a template).
    pub fn for_url(&self, url: &str) -> (Option<Arc<Family>>, Option<(LoadError, String)>) {
        let Some(host) = host_of(url) else {
            return (None, None);
        };
        let Ok(mut cache) = self.cache.lock() else {
            return (None, None);
        };
        if let Some(t) = cache.get(&host) {
            return (t.clone(), None);
        }
        let mut error = None;
        let alt = host
            .strip_prefix("www.")
            .map_or_else(|| format!("www.{host}"), str::to_string);
        let mut found = None;
        for h in [&host, &alt] {
            let file = file_for(&self.dir, h);
            if !file.exists() {
                continue;
            }
            match Family::load(&file) {
                Ok(t) => found = Some(Arc::new(t)),
                Err(e) => error = Some((e, host.clone())),
            }
            break;
        }
        cache.insert(host, found.clone());
        (found, error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_of_urls() {
        assert_eq!(
            host_of("https://User@News.BBC.co.uk:8080/a/b?c").as_deref(),
            Some("news.bbc.co.uk")
        );
        assert_eq!(host_of("example.org/x").as_deref(), Some("example.org"));
        assert_eq!(host_of("http://../etc/passwd"), None);
        assert_eq!(host_of("http://a/b").as_deref(), Some("a"));
        assert_eq!(host_of("http:///x"), None);
        assert_eq!(host_of("http://ex ample.org/"), None);
    }
}
