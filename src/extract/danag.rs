//! DANAg (Mohammadzadeh, Gottron, Schweiggert, Nakhaeizadeh 2011): the densest content region of
//! the page's line profile, then its neighbours within a gap.
//!
//! Section 3.1: per line, T1 counts characters of content and T2 characters of code. Scripts,
//! styles and comments are removed first (comments give no token; text under script,
//! style and the other non-content elements counts as neither). Section 3.2 smooths with
//! `diff_i = Σ_{j=i-1..i+1} (T1_j - T2_j)`; the positive region holding the most content
//! characters is the first paragraph of the main content. Section 3.3 joins positive regions up
//! and down while the lines between them number at most the gap (20 in the paper). Section 3.4
//! outputs the text of the chosen lines in document order.
//!
//! Two segmentations: the paper's physical source lines, and a normalized representation with
//! one line per block-level boundary, which gives minified one-line pages a profile at all.
//! Characters are counted as bytes: every byte of a tag is code (attribute blanks included), and
//! a text run counts without the blanks around it (indentation is neither content nor code).
//! A CJK character is three bytes and carries about a word, which suits a
//! language-independent density measure; counting needs no pass over the bytes themselves.

use crate::extract::Selection;
use crate::html::tags::flags;
use crate::html::tree::{NONE, context};
use crate::html::{Document, TokenKind};

/// The paper's gap between paragraphs of the main content, in lines (Section 3.3).
pub const PAPER_GAP: usize = 20;

/// How the page is cut into the lines DANAg counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Segments {
    /// One line per block-level start or end tag.
    Normalized,
    /// The source's own lines.
    PhysicalLines,
}

/// T1 and T2 per line, and the line each token starts on.
pub struct Profile {
    pub content: Vec<u32>,
    pub code: Vec<u32>,
    /// For each token of the document, the line it starts on.
    pub token_line: Vec<u32>,
}

/// Counts content and code characters per line (Section 3.1).
pub fn profile(doc: &Document<'_>, segments: Segments) -> Profile {
    if segments == Segments::Normalized {
        return normalized_profile(doc);
    }
    // Only token bytes are counted: comments are no token, so they count as nothing, as the
    // paper's preprocessing wants; their line breaks still separate physical lines.
    let bytes = doc.src.as_bytes();
    // A line holds at least one token, so the token count bounds the lines: reserving it once
    // avoids the copies of growing vectors on large pages (capacity never written costs no
    // memory).
    let mut lines = Vec::with_capacity(doc.tokens.len() + 1);
    lines.push(0);
    let mut p = Profile {
        content: lines.clone(),
        code: lines,
        token_line: Vec::with_capacity(doc.tokens.len()),
    };
    let mut line = 0usize;
    // Physical lines: the offset where the next line starts. Tokens come in document order, so
    // one forward cursor suffices.
    let mut next_break = match segments {
        Segments::PhysicalLines => memchr::memchr(b'\n', bytes).map_or(usize::MAX, |i| i + 1),
        Segments::Normalized => usize::MAX,
    };
    for tok in doc.tokens.iter() {
        let (s, e) = (tok.start as usize, tok.end as usize);
        let is_content = match tok.kind {
            TokenKind::Text => doc.tree.node(tok.node).context & context::HIDDEN == 0,
            _ => false,
        };
        let counted = match tok.kind {
            TokenKind::Text => is_content,
            // Tags of hidden elements are code too: they are markup on the line.
            _ => true,
        };
        if segments == Segments::Normalized && tok.kind != TokenKind::Text && tok.node != NONE {
            let tag = doc.tree.node(tok.node).tag;
            if tag.is(flags::BLOCK) && p.content[line] + p.code[line] > 0 {
                line += 1;
                p.content.push(0);
                p.code.push(0);
            }
        }
        // Physical lines: move to the line of the token's start, then spread the token over the
        // lines it spans.
        let mut at = s;
        while at >= next_break {
            line += 1;
            p.content.push(0);
            p.code.push(0);
            next_break = memchr::memchr(b'\n', &bytes[next_break..])
                .map_or(usize::MAX, |i| next_break + i + 1);
        }
        p.token_line.push(line as u32);
        if !counted {
            // Skip over the lines of uncounted text (a script body) without counting.
            while e > next_break {
                line += 1;
                p.content.push(0);
                p.code.push(0);
                next_break = memchr::memchr(b'\n', &bytes[next_break..])
                    .map_or(usize::MAX, |i| next_break + i + 1);
            }
            continue;
        }
        while at < e {
            let piece_end = e.min(next_break);
            let piece = &bytes[at..piece_end];
            if is_content {
                p.content[line] += piece.trim_ascii().len() as u32;
            } else {
                p.code[line] += piece.len() as u32;
            }
            at = piece_end;
            if at < e {
                line += 1;
                p.content.push(0);
                p.code.push(0);
                next_break = memchr::memchr(b'\n', &bytes[next_break..])
                    .map_or(usize::MAX, |i| next_break + i + 1);
            }
        }
    }
    p
}

/// [`profile`] on normalized lines: the same counts without the physical-line cursor, with the
/// current line's counts in registers (every page's `auto` runs this, once per token).
fn normalized_profile(doc: &Document<'_>) -> Profile {
    let bytes = doc.src.as_bytes();
    let nodes = &doc.tree.nodes;
    let mut p = Profile {
        content: Vec::with_capacity(doc.tokens.len() + 1),
        code: Vec::with_capacity(doc.tokens.len() + 1),
        token_line: Vec::with_capacity(doc.tokens.len()),
    };
    let (mut line, mut content, mut code) = (0u32, 0u32, 0u32);
    for tok in doc.tokens.iter() {
        let (s, e) = (tok.start as usize, tok.end as usize);
        if tok.kind == TokenKind::Text {
            p.token_line.push(line);
            // Hidden text (a script body) is neither content nor code.
            if nodes[tok.node as usize].context & context::HIDDEN == 0 && s < e {
                content += bytes[s..e].trim_ascii().len() as u32;
            }
            continue;
        }
        // A block-level tag starts a line, unless the current one is still empty.
        if tok.node != NONE && nodes[tok.node as usize].tag.is(flags::BLOCK) && content + code > 0 {
            p.content.push(content);
            p.code.push(code);
            (line, content, code) = (line + 1, 0, 0);
        }
        p.token_line.push(line);
        if s < e {
            code += (e - s) as u32;
        }
    }
    p.content.push(content);
    p.code.push(code);
    p
}

/// Section 3.2 and 3.3: the smoothed profile, the densest positive region, and the regions
/// joined to it within `gap` lines. Returns the selected lines as inclusive ranges.
pub fn select_lines(p: &Profile, gap: usize) -> Vec<(usize, usize)> {
    choose(p, gap).selected().to_vec()
}

/// What Sections 3.2 and 3.3 decided on one profile (`pith explain` draws it).
pub struct Choice {
    /// Maximal runs of positive smoothed profile ([`smoothed`]) as inclusive line ranges, with their content characters.
    pub regions: Vec<(usize, usize, u64)>,
    /// The densest region (index into `regions`), and the joined run `lo..=hi` of regions
    /// around it; `None` when no region holds content.
    pub best: Option<usize>,
    pub joined: std::ops::Range<usize>,
}

impl Choice {
    /// The selected regions: the densest and those joined to it.
    pub fn selected(&self) -> Vec<(usize, usize)> {
        self.regions
            .get(self.joined.clone())
            .unwrap_or_default()
            .iter()
            .map(|r| (r.0, r.1))
            .collect()
    }
}

/// Section 3.2's smoothed value of line `i`: `diff_i = Σ_{j=i-1..i+1} (T1_j - T2_j)`.
/// Computed when read, so no vector as long as the profile is kept.
#[inline]
pub fn smoothed(p: &Profile, i: usize) -> i64 {
    let d = |j: usize| i64::from(p.content[j]) - i64::from(p.code[j]);
    let mut s = d(i);
    if i > 0 {
        s += d(i - 1);
    }
    if i + 1 < p.content.len() {
        s += d(i + 1);
    }
    s
}

/// Finds the positive regions of the smoothed profile, the densest, and joins its neighbours.
pub fn choose(p: &Profile, gap: usize) -> Choice {
    let n = p.content.len();
    let diff = |i: usize| smoothed(p, i);
    // Maximal runs of positive diff, each with its content characters.
    let mut regions: Vec<(usize, usize, u64)> = Vec::new();
    let mut i = 0;
    while i < n {
        if diff(i) > 0 {
            let start = i;
            let mut chars = 0u64;
            while i < n && diff(i) > 0 {
                chars += u64::from(p.content[i]);
                i += 1;
            }
            regions.push((start, i - 1, chars));
        } else {
            i += 1;
        }
    }
    let best = regions
        .iter()
        .enumerate()
        .max_by_key(|(idx, r)| (r.2, std::cmp::Reverse(*idx)))
        .filter(|(_, r)| r.2 > 0)
        .map(|(idx, _)| idx);
    let Some(best) = best else {
        return Choice {
            regions,
            best: None,
            joined: 0..0,
        };
    };
    // Join up and down while the next region lies within the gap of the area so far.
    let (mut lo, mut hi) = (best, best);
    while lo > 0 && regions[lo].0 - regions[lo - 1].1 - 1 <= gap {
        lo -= 1;
    }
    while hi + 1 < regions.len() && regions[hi + 1].0 - regions[hi].1 - 1 <= gap {
        hi += 1;
    }
    Choice {
        regions,
        best: Some(best),
        joined: lo..hi + 1,
    }
}

/// Runs DANAg and returns the content text nodes of the selected lines.
pub fn extract(doc: &Document<'_>, segments: Segments, gap: usize) -> Selection {
    let p = profile(doc, segments);
    let ranges = select_lines(&p, gap);
    let mut sel = Selection {
        nodes: Vec::with_capacity(doc.tokens.len()),
    };
    let mut r = 0;
    for (tok, &line) in doc.tokens.iter().zip(&p.token_line) {
        if tok.kind != TokenKind::Text || doc.tree.node(tok.node).context & context::HIDDEN != 0 {
            continue;
        }
        let line = line as usize;
        while r < ranges.len() && ranges[r].1 < line {
            r += 1;
        }
        if r < ranges.len() && ranges[r].0 <= line {
            sel.nodes.push(tok.node);
        }
    }
    sel
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(content: &[u32], code: &[u32]) -> Profile {
        Profile {
            content: content.to_vec(),
            code: code.to_vec(),
            token_line: vec![],
        }
    }

    #[test]
    fn picks_the_densest_region_and_joins_within_gap() {
        // Code 10 on every line; content on lines 1-2 (50 each), 7-8 (40), 19-20 (30).
        // Smoothing widens each block by a line where the neighbour's surplus outweighs the
        // line's own deficit: regions (0,3), (6,9) and (19,21), 2 and 9 lines apart.
        let mut content = vec![0; 22];
        for (lines, v) in [(1..=2, 50), (7..=8, 40), (19..=20, 30)] {
            for i in lines {
                content[i] = v;
            }
        }
        let p = lines(&content, &[10; 22]);
        assert_eq!(select_lines(&p, 1), [(0, 3)]);
        assert_eq!(select_lines(&p, 2), [(0, 3), (6, 9)]);
        assert_eq!(select_lines(&p, 8), [(0, 3), (6, 9)]);
        assert_eq!(select_lines(&p, 9), [(0, 3), (6, 9), (19, 21)]);
        // What `pith explain` draws: the densest region first, then the joined run around it.
        let c = choose(&p, 2);
        assert_eq!((c.best, c.joined), (Some(0), 0..2));
        assert_eq!(c.regions.len(), 3);
        assert!(smoothed(&p, 1) > 0 && smoothed(&p, 4) <= 0);
    }

    #[test]
    fn nothing_positive_selects_nothing() {
        assert!(select_lines(&lines(&[0, 1], &[5, 5]), 20).is_empty());
        assert!(select_lines(&lines(&[], &[]), 20).is_empty());
    }
}
