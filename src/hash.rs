//! The two fixed hash and random functions every stage may use: FNV-1a, for stable hashes of
//! tag names, paths and words, and xorshift64, for repeatable samples and test inputs. One copy
//! each, here, below every stage (`tests/it/layers.rs`: nothing imports a later stage).

/// FNV-1a 64-bit offset basis (the FNV specification, draft-eastlake-fnv).
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0100_0000_01b3;

/// Continues an FNV-1a hash over `bytes`.
#[inline]
pub fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h = fnv1a_byte(h, b);
    }
    h
}

/// Continues an FNV-1a hash over one byte.
#[inline]
pub(crate) fn fnv1a_byte(h: u64, b: u8) -> u64 {
    (h ^ u64::from(b)).wrapping_mul(FNV_PRIME)
}

/// xorshift64 (Marsaglia 2003): a fixed, tiny generator, so samples are repeatable. `state`
/// must not be 0.
pub fn xorshift64(state: &mut u64) -> u64 {
    let mut x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    x
}
