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
use crate::html::tree::context;
use crate::html::{Document, NodeId, Token, TokenKind};

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

/// T1 and T2 per line.
pub struct Profile {
    /// T1: content characters (bytes of visible text) per line.
    pub content: Vec<u32>,
    /// T2: code characters (bytes of tags) per line.
    pub code: Vec<u32>,
}

/// What a walk over the lines reports to (see [`walk`]).
trait Lines {
    /// A token, with the line it starts on; `content` when it is text outside hidden
    /// elements (script, style...).
    fn token(&mut self, line: usize, tok: &Token, content: bool);
    /// Characters a token adds to a line (a token over several physical lines adds to each).
    fn count(&mut self, line: usize, content: u32, code: u32);
}

/// Walks the tokens in document order, cutting lines as `segments` says and reporting each
/// token and what it counts to `to`. Returns the number of lines.
fn walk(doc: &Document<'_>, segments: Segments, to: &mut impl Lines) -> usize {
    if segments == Segments::Normalized {
        return walk_normalized(doc, to);
    }
    // Only token bytes are counted: comments are no token, so they count as nothing, as the
    // paper's preprocessing wants; their line breaks still separate physical lines.
    let bytes = doc.src.as_bytes();
    let mut line = 0usize;
    // Whether the current line has counted anything (a block tag starts a new line only then).
    let mut used = false;
    // Physical lines: the offset where the next line starts. Tokens come in document order, so
    // one forward cursor suffices.
    let mut next_break = match segments {
        Segments::PhysicalLines => memchr::memchr(b'\n', bytes).map_or(usize::MAX, |i| i + 1),
        Segments::Normalized => usize::MAX,
    };
    let new_line = |line: &mut usize, used: &mut bool| {
        *line += 1;
        *used = false;
    };
    for tok in doc.tokens() {
        let (s, e) = (tok.start as usize, tok.end as usize);
        let is_content = match tok.kind {
            TokenKind::Text => tok.context & context::HIDDEN == 0,
            _ => false,
        };
        let counted = match tok.kind {
            TokenKind::Text => is_content,
            // Tags of hidden elements are code too: they are markup on the line.
            _ => true,
        };
        // (A stray end tag's kind is `Other`: no block.)
        if segments == Segments::Normalized
            && tok.kind != TokenKind::Text
            && tok.tag.is(flags::BLOCK)
            && used
        {
            new_line(&mut line, &mut used);
        }
        // Physical lines: move to the line of the token's start, then spread the token over the
        // lines it spans.
        let mut at = s;
        while at >= next_break {
            new_line(&mut line, &mut used);
            next_break = memchr::memchr(b'\n', &bytes[next_break..])
                .map_or(usize::MAX, |i| next_break + i + 1);
        }
        to.token(line, &tok, is_content);
        if !counted {
            // Skip over the lines of uncounted text (a script body) without counting.
            while e > next_break {
                new_line(&mut line, &mut used);
                next_break = memchr::memchr(b'\n', &bytes[next_break..])
                    .map_or(usize::MAX, |i| next_break + i + 1);
            }
            continue;
        }
        while at < e {
            let piece_end = e.min(next_break);
            let piece = &bytes[at..piece_end];
            let (content, code) = if is_content {
                (piece.trim_ascii().len() as u32, 0)
            } else {
                (0, piece.len() as u32)
            };
            if content + code > 0 {
                to.count(line, content, code);
                used = true;
            }
            at = piece_end;
            if at < e {
                new_line(&mut line, &mut used);
                next_break = memchr::memchr(b'\n', &bytes[next_break..])
                    .map_or(usize::MAX, |i| next_break + i + 1);
            }
        }
    }
    line + 1
}

/// [`walk`] on normalized lines: the same reports without the physical-line cursor (every
/// page's `auto` runs this once per token, so the loop is kept to what a line cut needs).
fn walk_normalized(doc: &Document<'_>, to: &mut impl Lines) -> usize {
    let bytes = doc.src.as_bytes();
    let (mut line, mut used) = (0usize, false);
    for tok in doc.tokens() {
        let (s, e) = (tok.start as usize, tok.end as usize);
        if tok.kind == TokenKind::Text {
            // Hidden text (a script body) is neither content nor code.
            let content = tok.context & context::HIDDEN == 0;
            to.token(line, &tok, content);
            if content && s < e {
                let chars = bytes[s..e].trim_ascii().len() as u32;
                if chars > 0 {
                    to.count(line, chars, 0);
                    used = true;
                }
            }
            continue;
        }
        // A block-level tag starts a line, unless the current one is still empty.
        // (A stray end tag's kind is `Other`: no block.)
        if used && tok.tag.is(flags::BLOCK) {
            (line, used) = (line + 1, false);
        }
        to.token(line, &tok, false);
        if s < e {
            to.count(line, 0, (e - s) as u32);
            used = true;
        }
    }
    line + 1
}

impl Lines for Profile {
    fn token(&mut self, _: usize, _: &Token, _: bool) {}
    fn count(&mut self, line: usize, content: u32, code: u32) {
        if self.content.len() <= line {
            self.content.resize(line + 1, 0);
            self.code.resize(line + 1, 0);
        }
        self.content[line] += content;
        self.code[line] += code;
    }
}

/// Counts content and code characters per line (Section 3.1).
pub fn profile(doc: &Document<'_>, segments: Segments) -> Profile {
    let mut p = Profile {
        content: vec![0],
        code: vec![0],
    };
    let lines = walk(doc, segments, &mut p);
    p.content.resize(lines, 0);
    p.code.resize(lines, 0);
    p
}

/// The line each token starts on, in token order (for `pith explain`; extraction keeps no
/// such index).
pub fn token_lines(doc: &Document<'_>, segments: Segments) -> Vec<u32> {
    struct TokenLines(Vec<u32>);
    impl Lines for TokenLines {
        fn token(&mut self, line: usize, _: &Token, _: bool) {
            self.0.push(line as u32);
        }
        fn count(&mut self, _: usize, _: u32, _: u32) {}
    }
    let mut lines = TokenLines(Vec::new());
    walk(doc, segments, &mut lines);
    lines.0
}

/// Section 3.2 and 3.3: the smoothed profile, the densest positive region, and the regions
/// joined to it within `gap` lines. Returns the selected lines as inclusive ranges.
pub fn select_lines(p: &Profile, gap: usize) -> Vec<(usize, usize)> {
    choose(p, gap).selected().to_vec()
}

/// What Sections 3.2 and 3.3 decided on one profile (`pith explain` draws it).
pub(crate) struct Choice {
    /// Maximal runs of positive smoothed profile ([`smoothed`]) as inclusive line ranges, with their content characters.
    pub regions: Vec<(usize, usize, u64)>,
    /// The densest region (index into `regions`), and the joined run `lo..=hi` of regions
    /// around it; `None` when no region holds content.
    pub best: Option<usize>,
    /// Indices into `regions` of the joined run, `lo..hi + 1` (empty `0..0` when `best` is `None`).
    pub joined: std::ops::Range<usize>,
}

impl Choice {
    /// The selected regions: the densest and those joined to it.
    pub(crate) fn selected(&self) -> Vec<(usize, usize)> {
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
pub(crate) fn smoothed(p: &Profile, i: usize) -> i64 {
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

/// Section 3.2 over lines given in order, one line behind: each line's smoothed value is
/// known once the next line is, so the maximal runs of positive values (with their content
/// characters) are found without keeping the profile. [`choose`] feeds it a stored profile;
/// [`extract`] feeds it the walk directly, with the content text nodes of each line: those of
/// a line found positive are kept, in order, the others dropped, so the selection needs
/// neither a profile nor a line index per token (on a page of a million nested tags, two
/// million lines and tokens).
#[derive(Default)]
struct Regions {
    regions: Vec<(usize, usize, u64)>,
    /// The line being counted and its T1, T2 so far (counts arrive line by line).
    line: usize,
    content: u64,
    code: u64,
    /// `T1 - T2` of the line before the last complete one, and `T1 - T2` and T1 of the last
    /// complete one, whose smoothed value waits for the next line (zeros before the first
    /// lines: a missing neighbour adds nothing to a smoothed value).
    before_last: i64,
    last: (i64, u64),
    /// The positive run under way: its first line, content characters, and where its nodes
    /// start in `kept`.
    open: Option<(usize, u64, usize)>,
    /// Content text nodes of the line being counted, and of the last complete one.
    nodes: Vec<NodeId>,
    last_nodes: Vec<NodeId>,
    /// Content text nodes of the positive lines, in order, and for each region the range of
    /// them it holds.
    kept: Vec<NodeId>,
    kept_at: Vec<std::ops::Range<usize>>,
}

impl Regions {
    /// Moves on to `line` (at or after the line of every earlier call).
    #[inline]
    fn reach(&mut self, line: usize) {
        while self.line < line {
            self.complete();
        }
    }

    /// Closes the line being counted: the line before it now has its smoothed value.
    fn complete(&mut self) {
        let d = self.content as i64 - self.code as i64;
        let (d_last, content_last) = self.last;
        // Line 0 has no line before it to settle.
        if self.line > 0 {
            self.settle(self.line - 1, self.before_last + d_last + d, content_last);
        }
        self.before_last = d_last;
        self.last = (d, self.content);
        (self.line, self.content, self.code) = (self.line + 1, 0, 0);
        std::mem::swap(&mut self.nodes, &mut self.last_nodes);
        self.nodes.clear();
    }

    /// Line `i` (the last complete one) has smoothed value `diff`: it extends, starts or ends
    /// a positive run.
    fn settle(&mut self, i: usize, diff: i64, content: u64) {
        if diff > 0 {
            let (start, chars, at) = self.open.unwrap_or((i, 0, self.kept.len()));
            self.open = Some((start, chars + content, at));
            self.kept.extend_from_slice(&self.last_nodes);
        } else if let Some((start, chars, at)) = self.open.take() {
            self.regions.push((start, i - 1, chars));
            self.kept_at.push(at..self.kept.len());
        }
    }

    /// The regions of a profile of `lines` lines.
    fn finish(&mut self, lines: usize) -> Vec<(usize, usize, u64)> {
        self.reach(lines);
        // The last line has no line after it.
        if self.line > 0 {
            let (d_last, content_last) = self.last;
            self.settle(lines - 1, self.before_last + d_last, content_last);
        }
        if let Some((start, chars, at)) = self.open.take() {
            self.regions.push((start, lines - 1, chars));
            self.kept_at.push(at..self.kept.len());
        }
        std::mem::take(&mut self.regions)
    }
}

impl Lines for Regions {
    #[inline]
    fn token(&mut self, line: usize, tok: &Token, content: bool) {
        // Only content text is ever selected.
        if content {
            self.reach(line);
            self.nodes.push(tok.node);
        }
    }

    #[inline]
    fn count(&mut self, line: usize, content: u32, code: u32) {
        self.reach(line);
        self.content += u64::from(content);
        self.code += u64::from(code);
    }
}

/// Finds the positive regions of the smoothed profile, the densest, and joins its neighbours.
pub(crate) fn choose(p: &Profile, gap: usize) -> Choice {
    let mut r = Regions::default();
    for (i, (&content, &code)) in p.content.iter().zip(&p.code).enumerate() {
        r.count(i, content, code);
    }
    join(r.finish(p.content.len()), gap)
}

/// Section 3.3: the densest region and the regions joined to it within `gap` lines.
fn join(regions: Vec<(usize, usize, u64)>, gap: usize) -> Choice {
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
    // One walk finds the regions and keeps the text of their lines; the chosen regions are
    // one run of them, so their text is one run of the kept nodes.
    let mut regions = Regions::default();
    let lines = walk(doc, segments, &mut regions);
    let choice = join(regions.finish(lines), gap);
    let mut nodes = std::mem::take(&mut regions.kept);
    let (lo, hi) = (choice.joined.start, choice.joined.end);
    match (
        regions.kept_at.get(lo),
        hi.checked_sub(1).and_then(|h| regions.kept_at.get(h)),
    ) {
        (Some(first), Some(last)) if lo < hi => {
            nodes.truncate(last.end);
            nodes.drain(..first.start);
        }
        _ => nodes.clear(),
    }
    Selection { nodes }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(content: &[u32], code: &[u32]) -> Profile {
        Profile {
            content: content.to_vec(),
            code: code.to_vec(),
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

    /// [`extract`] finds the regions while walking and walks again for the text; the stored
    /// profile and the line of each token ([`profile`], [`token_lines`], what `pith explain`
    /// draws) must give the same selection.
    #[test]
    fn walking_twice_selects_what_the_stored_profile_selects() {
        let article = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/pages/article.html"
        ))
        .expect("tests/pages/article.html");
        let para = "<p>Words of a sentence, with commas, and more words.</p>\n";
        let pages = [
            article,
            format!(
                "<div><a href=x>menu</a></div>\n{}<ul><li><a>l</a></li></ul>\n{}",
                para.repeat(3),
                para
            ),
            format!(
                "<script>a\nb\nc</script>{}<br>\n\n\n<p>x</p>{}",
                para,
                para.repeat(2)
            ),
            "<p>one line</p>".into(),
            "\n\n<div></div>\n".into(),
        ];
        // Cases where more than one region was selected: the joins are exercised.
        let mut joined = 0;
        for page in &pages {
            let arena = bumpalo::Bump::new();
            let doc = Document::parse(page, &arena);
            for segments in [Segments::Normalized, Segments::PhysicalLines] {
                for gap in [0, 1, 2, PAPER_GAP] {
                    let ranges = select_lines(&profile(&doc, segments), gap);
                    joined += usize::from(ranges.len() > 1);
                    let expected: Vec<_> = doc
                        .tokens()
                        .zip(token_lines(&doc, segments))
                        .filter(|(t, line)| {
                            let line = *line as usize;
                            t.kind == TokenKind::Text
                                && doc.tree.node(t.node).context() & context::HIDDEN == 0
                                && ranges.iter().any(|r| r.0 <= line && line <= r.1)
                        })
                        .map(|(t, _)| t.node)
                        .collect();
                    let got = extract(&doc, segments, gap).nodes;
                    assert_eq!(got, expected, "{segments:?} gap {gap}: {page:.60}");
                }
            }
        }
        assert!(joined > 0);
    }

    #[test]
    fn nothing_positive_selects_nothing() {
        assert!(select_lines(&lines(&[0, 1], &[5, 5]), 20).is_empty());
        assert!(select_lines(&lines(&[], &[]), 20).is_empty());
    }
}
