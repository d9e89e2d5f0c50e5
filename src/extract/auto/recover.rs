//! Step 4: prose outside the chosen container. A paragraph of real sentences with hardly any
//! links is content wherever it stands (a lead paragraph above a figure, a section the markup
//! split off), unless a boilerplate ancestor removed it, it stands in a teaser, or it is a
//! site's legal notice. The thresholds are the mode's ([`Tuning`]).

use super::marks::{Marks, mark, mark_subtrees};
use super::rules::{COPYRIGHT_SIGNS, RIGHTS_RESERVED};
use super::stats::NodeStats;
use super::{Rule, Tuning};
use crate::html::Document;
use crate::html::tree::{Kind, NodeId};

/// Flags the chosen `roots` and the paragraphs recovered outside them in `ROOT`, the roots'
/// subtrees in `UNDER`; gives whether any paragraph was recovered.
pub(super) fn recover(
    doc: &Document<'_>,
    tuning: &Tuning,
    stats: &NodeStats,
    marks: &Marks,
    roots: &[NodeId],
) -> bool {
    let nodes = &doc.tree.nodes;
    let n = nodes.len();
    let (is_paragraph, removed, teaser) = (
        marks.flag(mark::PARAGRAPH),
        marks.flag(mark::REMOVED),
        marks.flag(mark::TEASER),
    );
    let is_root = marks.flag(mark::ROOT);
    for &r in roots {
        is_root.set(r as usize);
    }
    // Inside the chosen roots (collected anyway: no paragraph there needs recovering).
    let under = marks.flag(mark::UNDER);
    let mut in_order = roots.to_vec();
    in_order.sort_unstable();
    mark_subtrees(doc, &in_order, &under);
    let mut recovered = false;
    for i in 1..n {
        if is_paragraph.get(i)
            && !under.get(i)
            && !removed.get(i)
            && !teaser.get(i)
            && tuning.recover_min_text > 0
            && stats.get(i).text >= tuning.recover_min_text
            && stats.get(i).link_density() < tuning.recover_max_link_density
            && stats.get(nodes[i].parent as usize).link_density()
                < tuning.recover_max_parent_link_density
            && (tuning.off.has(Rule::LegalNotice) || !legal_notice(doc, i as NodeId))
        {
            is_root.set(i);
            recovered = true;
        }
    }
    recovered
}

/// A site's legal footer (a copyright line, a data-provider notice): it reads as prose but
/// names its owner with `©` or "all rights reserved". Asked only of paragraphs outside the
/// container, where a lead paragraph would otherwise be recovered. (Not of the container's
/// siblings: an agency's notice under its story, "© Reuters 2008. All rights reserved...",
/// is part of what it sent, and gold sets count it.)
fn legal_notice(doc: &Document<'_>, id: NodeId) -> bool {
    let signs = |b: &[u8]| owner_sign(b) || rights_reserved(b);
    // The text runs of the subtree are slices of the source from the paragraph's start to the
    // end of its last node (runs do not overlap the nodes after them): when that span shows no
    // sign (two scans, not two per run), no run does.
    let nodes = &doc.tree.nodes;
    let range = doc.tree.subtree(id);
    let (first, last) = (&nodes[range.start], &nodes[range.end - 1]);
    let span = first.start as usize..first.end.max(last.end) as usize;
    if doc.src.as_bytes().get(span).is_some_and(|b| !signs(b)) {
        return false;
    }
    range
        .filter(|&d| nodes[d].kind == Kind::Text)
        .any(|d| signs(doc.raw_text(d as NodeId).as_bytes()))
}

/// The bytes the copyright signs start with (`©` is C2 A9 in UTF-8, the entities start with
/// `&`).
const SIGN_STARTS: [u8; 2] = [COPYRIGHT_SIGNS[0][0], COPYRIGHT_SIGNS[1][0]];
const _: () = {
    let mut i = 0;
    while i < COPYRIGHT_SIGNS.len() {
        let c = COPYRIGHT_SIGNS[i][0];
        assert!(c == SIGN_STARTS[0] || c == SIGN_STARTS[1]);
        i += 1;
    }
};

/// Whether `b` holds a copyright sign (one of [`COPYRIGHT_SIGNS`]: `©`, `&copy;`, `&#169;`).
/// One SIMD scan for the bytes these start with; `&` and C2 are rare in prose, so few are
/// checked.
fn owner_sign(b: &[u8]) -> bool {
    memchr::memchr2_iter(SIGN_STARTS[0], SIGN_STARTS[1], b).any(|k| {
        let rest = &b[k..];
        COPYRIGHT_SIGNS.iter().any(|sign| rest.starts_with(sign))
    })
}

/// Whether `b` says [`RIGHTS_RESERVED`] (any case). One SIMD scan for the phrase's rarest
/// letter, the `v` of "reserved" (about 1% of English letters), each confirmed by a look at
/// the bytes around it.
fn rights_reserved(b: &[u8]) -> bool {
    // Where the `v` sits in the phrase.
    const V: usize = {
        let mut k = 0;
        while RIGHTS_RESERVED[k] != b'v' {
            k += 1;
        }
        k
    };
    memchr::memchr2_iter(b'v', b'V', b).any(|k| {
        k >= V
            && b.get(k - V..k - V + RIGHTS_RESERVED.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(RIGHTS_RESERVED))
    })
}

#[cfg(test)]
mod legal_notice_tests {
    use super::{owner_sign, rights_reserved};

    #[test]
    fn copyright_signs_in_every_spelling() {
        assert!(owner_sign("Photo © Reuters".as_bytes()));
        assert!(owner_sign(b"&copy; 2008 Example Ltd"));
        assert!(owner_sign(b"&#169; 2008"));
        // Other C2 characters (a no-break space, a pound sign) and other entities are not it.
        assert!(!owner_sign("costs £5\u{a0}now &amp; later".as_bytes()));
        assert!(!owner_sign(b"&cop"));
    }

    #[test]
    fn all_rights_reserved_in_any_case() {
        assert!(rights_reserved(b"Example Inc. All Rights Reserved."));
        assert!(rights_reserved(b"ALL RIGHTS RESERVED"));
        assert!(rights_reserved(b"all rights reserved"));
        // The phrase at the very start and end of the text.
        assert!(rights_reserved(b"All rights reserved"));
        assert!(!rights_reserved(b"rights reserved"));
        assert!(!rights_reserved(
            b"We reserved all rights to the venue, very vivid."
        ));
        assert!(!rights_reserved(b"v"));
    }
}
