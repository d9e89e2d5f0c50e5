//! The bytes of a template file (`docs/site-templates.md`, "File format"), read as a third
//! party reads them, for the tests that damage a good file (the library's
//! `tests/it/template_file.rs`, the command's `cli/tests/it/templates_faults.rs`): where a
//! count stands, and the checksum recomputed after an edit ([`fnv1a64`], apart from the
//! library's: the round-trip test checks that the two agree on a good file).

use super::fnv1a64;

/// Replaces the trailing checksum with the right one for the edited bytes.
pub fn reseal(mut b: Vec<u8>) -> Vec<u8> {
    let n = b.len() - 8;
    let sum = fnv1a64(&b[..n]);
    b[n..].copy_from_slice(&sum.to_le_bytes());
    b
}

/// Offset of the host's length in the file header: after magic, version, reserved, members
/// and signature length.
pub const HOST_LEN: usize = 16;

/// Offset of the first member's P count: after the header and host, the member's path count
/// and signature, then its body's dims, reserved, three f32, pages, min_words, host length and
/// bytes.
pub fn p_count_offset(b: &[u8]) -> usize {
    let host_len = u16::from_le_bytes([b[HOST_LEN], b[HOST_LEN + 1]]) as usize;
    let k = u16::from_le_bytes([b[14], b[15]]) as usize;
    let body = HOST_LEN + 2 + host_len + 4 + 8 * k;
    let body_host = u16::from_le_bytes([b[body + 24], b[body + 25]]) as usize;
    body + 26 + body_host
}
