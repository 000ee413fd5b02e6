//! The tables of the UTF-8 check by lookups that the AVX2 and AVX-512 kernels share
//! ([`super::avx2::valid_utf8`], [`super::avx512::valid_utf8`] and the AVX-512 string blocks):
//! 16 entries each, repeated in every 16-byte lane of a vector (`vpshufb` looks up in its
//! lane); the AVX2 kernels load the first 32 bytes.

/// The error classes of the UTF-8 check by table lookups (Keiser and Lemire, "Validating UTF-8
/// in less than one instruction per byte", 2021): each table marks the classes a byte's high or
/// low nibble may belong to, and a byte pair is wrong when all three agree on a class.
pub(super) mod utf8_classes {
    /// A lead byte not followed by a continuation.
    pub(super) const TOO_SHORT: u8 = 1 << 0;
    /// A continuation not after a lead byte or another continuation.
    pub(super) const TOO_LONG: u8 = 1 << 1;
    /// E0 followed by 80..9F.
    pub(super) const OVERLONG_3: u8 = 1 << 2;
    /// F4 followed by 90..BF, or F5..FF.
    pub(super) const TOO_LARGE: u8 = 1 << 3;
    /// ED followed by A0..BF.
    pub(super) const SURROGATE: u8 = 1 << 4;
    /// C0 or C1.
    pub(super) const OVERLONG_2: u8 = 1 << 5;
    /// F5..FF followed by 80..8F (with `TOO_LARGE`), F0 followed by 80..8F (with `OVERLONG_4`).
    pub(super) const TOO_LARGE_1000: u8 = 1 << 6;
    pub(super) const OVERLONG_4: u8 = 1 << 6;
    /// Two continuations in a row: right only as a three- or four-byte sequence's tail, which
    /// the check of the bytes two and three back settles.
    pub(super) const TWO_CONTS: u8 = 1 << 7;
    pub(super) const CARRY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;
}

/// A 16-entry table repeated in the four lanes of a vector (`vpshufb` looks up in its lane).
const fn lanes(t: [u8; 16]) -> [u8; 64] {
    let mut v = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        v[i] = t[i % 16];
        i += 1;
    }
    v
}

/// The classes of the previous byte's high nibble.
pub(super) const PREV_HIGH: [u8; 64] = {
    use utf8_classes::*;
    lanes([
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TOO_LONG,
        TWO_CONTS,
        TWO_CONTS,
        TWO_CONTS,
        TWO_CONTS,
        TOO_SHORT | OVERLONG_2,
        TOO_SHORT,
        TOO_SHORT | OVERLONG_3 | SURROGATE,
        TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
    ])
};

/// The classes of the previous byte's low nibble.
pub(super) const PREV_LOW: [u8; 64] = {
    use utf8_classes::*;
    lanes([
        CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
        CARRY | OVERLONG_2,
        CARRY,
        CARRY,
        CARRY | TOO_LARGE,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
    ])
};

/// The classes of the byte's own high nibble.
pub(super) const HIGH: [u8; 64] = {
    use utf8_classes::*;
    lanes([
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
        TOO_SHORT,
    ])
};
