//! `pith-lab blocks SET_DIR... [--pages FILE [--peers DIR]]`: the block table for training a
//! block model.
//!
//! One TSV row per text block of every gold page of the sets given (the blocks `pith explain`
//! lists, see `pith::explain::rows`): the page's set, id, host and page type, the block's
//! index, its label (1 content, 0 not, -1 unjudged: under two words, or not judged by a
//! snippet gold; see `pith::lab::explain::rows::Labels`), the tags of its element and that
//! element's parent, the features, then
//!
//! - `repeat`: the block's repeat group on its page: blocks with the same tokens (at least
//!   one) share a number, 0, 1, ... in the order their groups first appear; -1 for a block no
//!   other block of the page repeats. The trainer keeps one block of a group in a selection,
//!   as the library's first repeat rule did (lab/train/train.py, `keep_once`);
//! - `tokens`: the block's tokens as the scorer counts them (`pith::lab::eval::metrics::tokens`),
//!   as `id:count` pairs separated by spaces, in the order they first appear in the block
//!   (empty for a block without a token). Ids number the page's vocabulary: the gold's
//!   tokens first (0, 1, ... in the order they first appear in it), then the blocks' other
//!   tokens as they first appear ([`PageTokens`]).
//!
//! `--pages FILE` also writes one JSON line per page: its set, id, host, type, URL and number
//! of blocks, `vocab` (its vocabulary's size), `gold` (the gold's count of each of the ids
//! 0, 1, ...), `gold_tokens` (their sum), and `auto`, the bag-of-words `[P, R, F1]` of
//! `auto`'s real output (`pith::lab::page::extract`, the text `pith` prints) against the gold
//! (`pith::lab::eval::metrics::bow`; P `null` for an output without a token). `gold`,
//! `gold_tokens` and `auto` are `null` for a page with snippet gold only. With `--peers DIR`,
//! `peers` maps each tool with saved outputs for the set (the folders of `DIR/<set>/` but
//! `runs`) to the same `[P, R, F1]` of its output, as `pith eval --pred` scores it
//! (`pith::eval::score_set`; a missing file is an empty output). So the trainer scores the
//! model, `auto` and the peers with one scorer, the library's, and tokenizes nothing.
//!
//! Pages are `html/<id>.html` or `html/<id>.html.gz` (wcxb_train), gold `gold/<id>.txt` cleaned
//! as `pith eval` cleans it, or `gold/<id>.json` snippets (trafilatura_eval): its blocks are
//! training rows, and the trainer, which scores pages against a gold text, scores no page of
//! such a set. The host comes from the set's `MANIFEST.json` (`urls` for WCXB,
//! `id_map` for scrapinghub and l3s_gn1), else from cleaneval's `<text id="URL">` wrapper, else
//! it is the page id (dragnet keeps no URL).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use pith::eval::{Dataset, Prf, System};
use pith::lab::eval::metrics;
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
    cols.push("repeat".into());
    cols.push("tokens".into());
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

/// A page's tokens as the table and the page line give them, over the page's vocabulary:
/// the gold's tokens are ids 0, 1, ... in the order they first appear in it, the blocks'
/// other tokens the next ids, in the order they first appear.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct PageTokens {
    /// The vocabulary's size.
    pub vocab: usize,
    /// The gold's count of each of its ids (0, 1, ...).
    pub gold: Vec<u32>,
    /// Per block, its (id, count) pairs in the order the tokens first appear in it.
    pub blocks: Vec<Vec<(u32, u32)>>,
}

impl PageTokens {
    /// The counts of `gold`'s and each block's tokens (`pith::lab::eval::metrics::tokens`).
    pub fn new<'t>(gold: &'t [String], blocks: &'t [Vec<String>]) -> PageTokens {
        let mut ids: HashMap<&'t str, u32> = HashMap::new();
        let mut id = |t: &'t str| -> u32 {
            let n = ids.len() as u32;
            *ids.entry(t).or_insert(n)
        };
        let mut gold_counts: Vec<u32> = Vec::new();
        for t in gold {
            let i = id(t) as usize;
            if i == gold_counts.len() {
                gold_counts.push(0);
            }
            gold_counts[i] += 1;
        }
        let blocks = blocks
            .iter()
            .map(|toks| {
                let mut pairs: Vec<(u32, u32)> = Vec::new();
                let mut at: HashMap<u32, usize> = HashMap::new();
                for t in toks {
                    let i = id(t);
                    let k = *at.entry(i).or_insert_with(|| {
                        pairs.push((i, 0));
                        pairs.len() - 1
                    });
                    pairs[k].1 += 1;
                }
                pairs
            })
            .collect();
        PageTokens {
            vocab: ids.len(),
            gold: gold_counts,
            blocks,
        }
    }
}

/// A block's `tokens` cell: its `id:count` pairs separated by spaces.
fn pairs_cell(pairs: &[(u32, u32)]) -> String {
    let mut cell = String::new();
    for (k, (id, count)) in pairs.iter().enumerate() {
        if k > 0 {
            cell.push(' ');
        }
        let _ = write!(cell, "{id}:{count}");
    }
    cell
}

/// Each block's repeat group: blocks with the same token sequence (at least one token) share
/// a number, 0, 1, ... in the order their groups first appear; -1 for a block whose tokens no
/// other block has.
pub fn repeat_groups(blocks: &[Vec<String>]) -> Vec<i64> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of: HashMap<&[String], usize> = HashMap::new();
    for (i, toks) in blocks.iter().enumerate() {
        if toks.is_empty() {
            continue;
        }
        let g = *group_of.entry(toks.as_slice()).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(i);
    }
    let mut out = vec![-1; blocks.len()];
    for (n, members) in groups.iter().filter(|g| g.len() > 1).enumerate() {
        for &i in members {
            out[i] = n as i64;
        }
    }
    out
}

/// `[P, R, F1]` of a page's bag-of-words score, as the page line writes it.
fn prf_json(s: &Prf) -> serde_json::Value {
    serde_json::json!([s.precision, s.recall, s.f1])
}

/// Per tool with saved outputs for `gs`'s pages (the folders of `peers/<set>/` but `runs`,
/// in name order), each page's bag-of-words score as `pith eval --pred` scores it; empty
/// when the set has no such folder.
fn peer_scores(peers: &Path, gs: &GoldSet) -> Vec<(String, HashMap<String, Prf>)> {
    let Ok(entries) = std::fs::read_dir(peers.join(&gs.set)) else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir() && p.file_name().is_some_and(|n| n != "runs"))
        .collect();
    dirs.sort();
    dirs.into_iter()
        .map(|dir| {
            let sys = System::Pred(dir);
            let scores = pith::eval::score_set(&gs.ds, &sys, 1)
                .into_iter()
                .filter_map(|p| Some((p.id, p.bow?)))
                .collect();
            (sys.name(), scores)
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

/// Writes the table to stdout and, with `pages`, the page lines there (with `peers`, the
/// scores of the peers' saved outputs under that folder), blocks labelled against a gold text
/// by `rule`.
pub fn main(
    dirs: &[PathBuf],
    pages: Option<&Path>,
    peers: Option<&Path>,
    rule: LabelRule,
) -> ExitCode {
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
        let peer = match (&page_out, peers) {
            (Some(_), Some(dir)) => Some(peer_scores(dir, &gs)),
            _ => None,
        };
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
            // The tokens as the scorer counts them: the trainer scores selections of blocks,
            // and keeps one block of each repeat group, by these alone.
            let block_tokens: Vec<Vec<String>> =
                blocks.iter().map(|b| metrics::tokens(&b.text)).collect();
            let gold_tokens = gold.text.as_deref().map(metrics::tokens);
            let toks = PageTokens::new(gold_tokens.as_deref().unwrap_or_default(), &block_tokens);
            let repeats = repeat_groups(&block_tokens);
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
                let _ = writeln!(out, "\t{}\t{}", repeats[i], pairs_cell(&toks.blocks[i]));
            }
            n_pages += 1;
            n_blocks += blocks.len();
            if let Some(po) = page_out.as_mut() {
                let auto_tokens = metrics::tokens(&auto_text);
                let scored = gold_tokens.as_ref().map(|g| metrics::bow(&auto_tokens, g));
                let mut line = serde_json::json!({
                    "set": set, "page": id, "host": host, "type": ptype, "url": url,
                    "blocks": blocks.len(), "vocab": toks.vocab,
                    "gold": gold_tokens.as_ref().map(|_| &toks.gold),
                    "gold_tokens": gold_tokens.as_ref().map(Vec::len),
                    "auto": scored.as_ref().map(prf_json),
                });
                if let Some(peer) = &peer {
                    let scores: serde_json::Map<String, serde_json::Value> = peer
                        .iter()
                        .filter_map(|(tool, by_id)| Some((tool.clone(), prf_json(by_id.get(id)?))))
                        .collect();
                    line["peers"] = serde_json::Value::Object(scores);
                }
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
        assert_eq!(cols, 8 + rows::N_FEATURES + 2);
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

    fn toks(s: &str) -> Vec<String> {
        metrics::tokens(s)
    }

    #[test]
    fn page_tokens_number_the_gold_first() {
        let gold = toks("The cat, the hat.");
        let blocks = [toks("A hat; a CAT"), toks("---"), toks("the dog")];
        let t = PageTokens::new(&gold, &blocks);
        // the 0, cat 1, hat 2; then a 3, dog 4.
        assert_eq!(t.gold, [2, 1, 1]);
        assert_eq!(t.vocab, 5);
        assert_eq!(t.blocks[0], [(3, 2), (2, 1), (1, 1)]);
        assert!(t.blocks[1].is_empty());
        assert_eq!(t.blocks[2], [(0, 1), (4, 1)]);
        assert_eq!(pairs_cell(&t.blocks[0]), "3:2 2:1 1:1");
        assert_eq!(pairs_cell(&t.blocks[1]), "");
        // No gold (snippet pages): the blocks' tokens alone.
        let t = PageTokens::new(&[], &blocks);
        assert_eq!((t.vocab, t.gold.len()), (5, 0));
        assert_eq!(t.blocks[0], [(0, 2), (1, 1), (2, 1)]);
    }

    #[test]
    fn repeats_are_equal_token_sequences() {
        let blocks = [
            toks("Share this"),
            toks("Body text."),
            toks("share -- THIS!"),
            toks("this share"),
            toks("***"),
            toks("..."),
            toks("Body text"),
            toks("Share this"),
        ];
        // Empty blocks repeat nothing; the same words in another order are another text.
        assert_eq!(repeat_groups(&blocks), [0, 1, 0, -1, -1, -1, 1, 0]);
        assert!(repeat_groups(&[]).is_empty());
    }
}
