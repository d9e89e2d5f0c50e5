//! `pith-lab blocks SET_DIR... [--pages FILE]`: the block table for training a block model.
//!
//! One TSV row per text block of every gold page of the sets given (the blocks `pith explain`
//! lists, see `pith::explain::rows`): the page's set, id, host and page type, the block's
//! index, its label (1 content, 0 not, -1 unjudged: under two words, or not judged by a
//! snippet gold; see `pith::lab::explain::rows::Labels`), the tags of its element and that
//! element's parent, the features, and last the block's text (tabs and line breaks as
//! spaces). `--pages FILE` also writes one JSON line per page with the gold text (`null` for
//! a page with snippet gold only) and `auto`'s real output (`pith::lab::page::extract`, the text
//! `pith` prints), so the trainer scores the model and `auto` with one scorer.
//!
//! Pages are `html/<id>.html` or `html/<id>.html.gz` (wcxb_train), gold `gold/<id>.txt` cleaned
//! as `pith eval` cleans it, or `gold/<id>.json` snippets (trafilatura_eval): its blocks are
//! training rows, and the trainer, which scores pages against a gold text, scores no page of
//! such a set. The host comes from the set's `MANIFEST.json` (`urls` for WCXB,
//! `id_map` for scrapinghub and l3s_gn1), else from cleaneval's `<text id="URL">` wrapper, else
//! it is the page id (dragnet keeps no URL).

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use pith::eval::Dataset;
use pith::lab::explain::rows::{self, ANCESTOR_BUCKETS, FEATURES, Labels, OWN_BUCKETS};
use pith::lab::page::Options;
use serde_json::Value;

/// The table's header line.
pub fn header() -> String {
    let mut cols: Vec<String> = [
        "set",
        "page",
        "host",
        "type",
        "block",
        "label",
        "tag",
        "parent_tag",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    cols.extend(FEATURES.iter().map(|s| s.to_string()));
    cols.extend((0..ANCESTOR_BUCKETS).map(|i| format!("anc{i}")));
    cols.extend((0..OWN_BUCKETS).map(|i| format!("own{i}")));
    cols.push("text".into());
    cols.join("\t")
}

/// A gold set as the lab's tables read it: its name, its `MANIFEST.json` (`null` when absent or
/// unreadable) and its pages and gold as `pith eval` reads them (`.html` or `.html.gz`; the
/// set's name picks the gold's clean-up).
pub struct GoldSet {
    /// The folder's name (`wcxb_train`).
    pub set: String,
    /// The set's `MANIFEST.json`.
    pub manifest: Value,
    /// The pages and their gold.
    pub ds: Dataset,
}

impl GoldSet {
    /// Opens the set in `dir`.
    pub fn open(dir: &Path) -> Result<GoldSet, pith::eval::Error> {
        let set = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let manifest: Value = std::fs::read(dir.join("MANIFEST.json"))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or(Value::Null);
        let ds = Dataset::open(dir)?;
        Ok(GoldSet { set, manifest, ds })
    }

    /// Page `id`'s bytes and its URL ([`page_url`], a blank one dropped), as the page tables
    /// give them to the library; `None` after a message naming `tool` when the page cannot be
    /// read.
    pub fn page_and_url(&self, id: &str, tool: &str) -> Option<(Vec<u8>, Option<String>)> {
        let bytes = match self.ds.page(id) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("pith-lab {tool}: {}/html/{id}: {e}", self.ds.dir.display());
                return None;
            }
        };
        let url = page_url(&self.manifest, id, &bytes).filter(|u| !u.trim().is_empty());
        Some((bytes, url))
    }

    /// The grouping host of page `id` with URL `url`: the URL's host, else `set:id` (a page
    /// with no URL is a group of its own).
    pub fn host(&self, id: &str, url: Option<&str>) -> String {
        url.and_then(host)
            .unwrap_or_else(|| format!("{}:{id}", self.set))
    }

    /// Page `id`'s type: WCXB's `types` in the manifest, else the set's name.
    pub fn page_type(&self, id: &str) -> String {
        self.manifest
            .get("types")
            .and_then(|t| t.get(id))
            .and_then(Value::as_str)
            .unwrap_or(&self.set)
            .to_string()
    }
}

/// The host of a URL, lower-cased, without `www.` and port.
pub fn host(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |x| x.1);
    let h = rest.split(['/', '?', '#']).next()?;
    let h = h.rsplit_once('@').map_or(h, |x| x.1);
    let h = h.split(':').next()?.to_ascii_lowercase();
    let h = h.strip_prefix("www.").unwrap_or(&h).to_string();
    (!h.is_empty() && h.contains('.')).then_some(h)
}

/// cleaneval's pages open with `<text id="URL" ...>`.
fn wrapper_url(bytes: &[u8]) -> Option<String> {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(2048)]);
    let rest = head.trim_start().strip_prefix("<text id=\"")?;
    Some(rest.split('"').next()?.to_string())
}

/// A page's URL: the set's `MANIFEST.json` (`urls` for WCXB, `id_map` for scrapinghub and
/// l3s_gn1), else cleaneval's `<text id="URL">` wrapper.
pub fn page_url(manifest: &Value, id: &str, bytes: &[u8]) -> Option<String> {
    manifest
        .get("urls")
        .and_then(|u| u.get(id))
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| {
            manifest
                .get("id_map")
                .and_then(|m| m.get(id))
                .and_then(|m| m.get("url"))
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .or_else(|| wrapper_url(bytes))
}

fn clean(s: &str) -> String {
    s.chars()
        .map(|c| {
            if matches!(c, '\t' | '\n' | '\r') {
                ' '
            } else {
                c
            }
        })
        .collect()
}

/// How the table's `label` column judges a block against a gold text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelRule {
    /// [`Labels::Text`]: 1 when at least half of its word pairs are in the gold, else 0.
    Block,
    /// [`Labels::CountedText`]: the gold's pairs counted, each claimed by one block.
    CountedPairs,
    /// The share of its word pairs in the gold, between 0 and 1 ([`rows::BlockRow::share`];
    /// snippet pages keep their 0 and 1).
    Share,
}

/// Writes the table to stdout and, with `pages`, the page lines there, blocks labelled
/// against a gold text by `rule`.
pub fn main(dirs: &[PathBuf], pages: Option<&Path>, rule: LabelRule) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut page_out = match pages.map(std::fs::File::create).transpose() {
        Ok(f) => f.map(BufWriter::new),
        Err(e) => {
            eprintln!("pith-lab blocks: {e}");
            return ExitCode::FAILURE;
        }
    };
    let _ = writeln!(out, "{}", header());
    // The rules' output (`auto` in the trainer's tables) and the options the model reads.
    let mut opts = Options::default();
    opts.extract.algo = pith::lab::extract::Algo::Rules;
    for dir in dirs {
        let gs = match GoldSet::open(dir) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("pith-lab blocks: {e}");
                return ExitCode::FAILURE;
            }
        };
        let set = &gs.set;
        let (mut n_pages, mut n_blocks) = (0usize, 0usize);
        for id in &gs.ds.ids {
            let gold = gs.ds.gold(id);
            if gold.text.is_none() && !gold.has_snippets {
                continue;
            }
            let bytes = match gs.ds.page(id) {
                Ok(b) => b,
                Err(e) => {
                    eprintln!("pith-lab blocks: {}/html/{id}: {e}", dir.display());
                    continue;
                }
            };
            let url = page_url(&gs.manifest, id, &bytes);
            let host = gs.host(id, url.as_deref());
            let ptype = gs.page_type(id);
            let auto_text = pith::lab::page::extract(&bytes, None, &opts)
                .map(|e| e.text)
                .unwrap_or_default();
            // The block model learns what `pith` prints by default, a page without its
            // comments (`--comments` adds `auto`'s comment sections to the model's
            // selection), so a comment is not content to it: a gold that keeps comments
            // (dragnet) labels against its article alone. The page line's `gold` keeps the
            // comments, as `pith eval` scores them.
            let label_gold = gold
                .text
                .as_deref()
                .map(|t| gold.comments_at.and_then(|at| t.get(..at)).unwrap_or(t));
            let labels = match label_gold {
                Some(t) if rule == LabelRule::CountedPairs => Labels::CountedText(t),
                Some(t) => Labels::Text(t),
                None => Labels::Snippets {
                    with: &gold.with,
                    without: &gold.without,
                },
            };
            let page_rows = rows::block_rows(&bytes, &opts, Some(labels)).ok();
            let blocks = page_rows.map(|p| p.blocks).unwrap_or_default();
            for (i, b) in blocks.iter().enumerate() {
                let label = match (b.gold, b.share) {
                    (Some(_), Some(share)) if rule == LabelRule::Share => share.to_string(),
                    (Some(true), _) => "1".to_string(),
                    (Some(false), _) => "0".to_string(),
                    (None, _) => "-1".to_string(),
                };
                let _ = write!(
                    out,
                    "{set}\t{id}\t{host}\t{ptype}\t{i}\t{label}\t{}\t{}",
                    if b.tag.is_empty() { "-" } else { b.tag },
                    if b.parent_tag.is_empty() {
                        "-"
                    } else {
                        b.parent_tag
                    },
                );
                // The shortest text that reads back as the same f32: the trainer sees
                // exactly the numbers the library's evaluator computes.
                for v in &b.features {
                    if v.fract() == 0.0 && v.abs() < 1e9 {
                        let _ = write!(out, "\t{}", *v as i64);
                    } else {
                        let _ = write!(out, "\t{v}");
                    }
                }
                let _ = writeln!(out, "\t{}", clean(&b.text));
            }
            n_pages += 1;
            n_blocks += blocks.len();
            if let Some(po) = page_out.as_mut() {
                let line = serde_json::json!({
                    "set": set, "page": id, "host": host, "type": ptype, "url": url,
                    "blocks": blocks.len(), "gold": gold.text, "auto": auto_text,
                });
                let _ = writeln!(po, "{line}");
            }
        }
        eprintln!("{set}: {n_pages} pages, {n_blocks} blocks");
    }
    if out.flush().is_err() || page_out.as_mut().is_some_and(|p| p.flush().is_err()) {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts() {
        assert_eq!(
            host("https://www.Example.com:8080/a/b?c").as_deref(),
            Some("example.com")
        );
        assert_eq!(
            host("http://news.bbc.co.uk").as_deref(),
            Some("news.bbc.co.uk")
        );
        assert_eq!(host("0001"), None);
    }

    #[test]
    fn header_matches_rows() {
        let h = header();
        let cols = h.split('\t').count();
        assert_eq!(cols, 8 + rows::N_FEATURES + 1);
        let page = b"<html><body><div class=post><p>One two three, four five.</p>\
                     <p><a href=x>Home</a> <a href=y>About us</a></p></div></body></html>";
        let r = rows::block_rows(
            page,
            &Options::default(),
            Some(Labels::Text("one two three four five")),
        )
        .unwrap();
        assert_eq!(r.blocks.len(), 2);
        assert!(
            r.blocks
                .iter()
                .all(|b| b.features.len() == rows::N_FEATURES)
        );
        assert_eq!(r.blocks[0].gold, Some(true));
        assert_eq!(r.blocks[1].gold, Some(false));
    }
}
