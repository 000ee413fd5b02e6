//! The grammar of the indexed walk ([`super::walk`]) as tables: the class of a token by its
//! first byte, and what the walk does at a token of each class in each state, folded into one
//! lookup ([`STEP`]).

// Token classes (by first byte).
pub(super) const BAD: u8 = 0;
pub(super) const QUOTE: u8 = 1;
pub(super) const COLON: u8 = 2;
pub(super) const COMMA: u8 = 3;
pub(super) const OPEN_OBJECT: u8 = 4;
pub(super) const OPEN_ARRAY: u8 = 5;
pub(super) const CLOSE_OBJECT: u8 = 6;
pub(super) const CLOSE_ARRAY: u8 = 7;
pub(super) const NUMBER: u8 = 8;
pub(super) const LITERAL: u8 = 9;

pub(super) const CLASS: [u8; 256] = {
    let mut t = [BAD; 256];
    t[b'"' as usize] = QUOTE;
    t[b':' as usize] = COLON;
    t[b',' as usize] = COMMA;
    t[b'{' as usize] = OPEN_OBJECT;
    t[b'[' as usize] = OPEN_ARRAY;
    t[b'}' as usize] = CLOSE_OBJECT;
    t[b']' as usize] = CLOSE_ARRAY;
    t[b'-' as usize] = NUMBER;
    let mut d = b'0';
    while d <= b'9' {
        t[d as usize] = NUMBER;
        d += 1;
    }
    t[b't' as usize] = LITERAL;
    t[b'f' as usize] = LITERAL;
    t[b'n' as usize] = LITERAL;
    t
};

// States of the automaton: what the next token may be. Multiples of 16, so that a state
// plus a token class indexes the 256 entries of `NEXT`.
pub(super) const ERR: u8 = 0;
/// A value or `]` (just after `[`).
pub(super) const ARRAY_FIRST: u8 = 16;
/// A value in an array (after `,`).
pub(super) const ARRAY_VALUE: u8 = 2 * 16;
/// A member's value (after `:`).
pub(super) const OBJECT_VALUE: u8 = 3 * 16;
/// A key or `}` (just after `{`).
pub(super) const OBJECT_FIRST: u8 = 4 * 16;
/// A key (after `,` in an object).
pub(super) const KEY: u8 = 5 * 16;
/// `:` after a key.
pub(super) const AFTER_KEY: u8 = 6 * 16;
/// `,` or `}` after a member.
pub(super) const OBJECT_AFTER: u8 = 7 * 16;
/// `,` or `]` after an element.
pub(super) const ARRAY_AFTER: u8 = 8 * 16;
/// After a closing bracket, in the walk by [`FAST`] only: `OBJECT_AFTER` or `ARRAY_AFTER`
/// by the container now innermost (the bit that [`FAST`] is indexed with).
pub(super) const CLOSED: u8 = 9 * 16;

/// The next state for each state plus token class; `ERR` where the grammar forbids the
/// token. After a closing bracket the state is set from the enclosing container instead.
pub(super) const NEXT: [u8; 256] = {
    let mut t = [ERR; 256];
    let values = [
        (ARRAY_FIRST, ARRAY_AFTER),
        (ARRAY_VALUE, ARRAY_AFTER),
        (OBJECT_VALUE, OBJECT_AFTER),
    ];
    let mut k = 0;
    while k < values.len() {
        let (s, after) = values[k];
        t[(s + QUOTE) as usize] = after;
        t[(s + NUMBER) as usize] = after;
        t[(s + LITERAL) as usize] = after;
        t[(s + OPEN_OBJECT) as usize] = OBJECT_FIRST;
        t[(s + OPEN_ARRAY) as usize] = ARRAY_FIRST;
        k += 1;
    }
    t[(ARRAY_FIRST + CLOSE_ARRAY) as usize] = ARRAY_AFTER;
    t[(OBJECT_FIRST + QUOTE) as usize] = AFTER_KEY;
    t[(OBJECT_FIRST + CLOSE_OBJECT) as usize] = OBJECT_AFTER;
    t[(KEY + QUOTE) as usize] = AFTER_KEY;
    t[(AFTER_KEY + COLON) as usize] = OBJECT_VALUE;
    t[(OBJECT_AFTER + COMMA) as usize] = KEY;
    t[(OBJECT_AFTER + CLOSE_OBJECT) as usize] = OBJECT_AFTER;
    t[(ARRAY_AFTER + COMMA) as usize] = ARRAY_VALUE;
    t[(ARRAY_AFTER + CLOSE_ARRAY) as usize] = ARRAY_AFTER;
    t
};

// What the walk does at a token besides changing state (the low byte of a `STEP` entry), as
// bits, so that each is one test (no jump table).
pub(super) const GO: u8 = 0;
pub(super) const FAIL: u8 = 1;
pub(super) const PUSH: u8 = 2;
pub(super) const POP: u8 = 4;
pub(super) const SCALAR: u8 = 8;
/// With `PUSH`: the container is an object; with `SCALAR`: a number (else a literal).
pub(super) const FLAG: u8 = 16;

/// `NEXT` and `CLASS` folded into one lookup by state and byte: entry
/// `STEP[row | byte]` holds the next state's row (`state / 16 << 8`, the high byte) and the
/// action (the low byte). Most tokens (quotes, colons, commas) need no action, so the walk
/// branches once for them.
pub(super) const STEP: [u16; 4096] = {
    let mut t = [FAIL as u16; 4096];
    let mut s = 1;
    while s < 16 {
        let mut b = 0;
        while b < 256 {
            let class = CLASS[b];
            let next = if s <= 8 {
                NEXT[s * 16 + class as usize]
            } else {
                ERR
            };
            t[s << 8 | b] = if next == ERR {
                FAIL as u16
            } else {
                // After a closing bracket the walk takes the state from the stack.
                let next = if class == CLOSE_OBJECT || class == CLOSE_ARRAY {
                    0
                } else {
                    row(next) as u16
                };
                next | match class {
                    OPEN_OBJECT => PUSH | FLAG,
                    OPEN_ARRAY => PUSH,
                    CLOSE_OBJECT | CLOSE_ARRAY => POP,
                    NUMBER => SCALAR | FLAG,
                    LITERAL => SCALAR,
                    _ => GO,
                } as u16
            };
            b += 1;
        }
        s += 1;
    }
    t
};

/// `STEP` with numbers and literals taken as no action: away from the end of a growing buffer
/// the walk checks them by block ([`super::number::block_numbers`], and the literals' own
/// loop), so that the per-token branch is taken for brackets only.
pub(super) const STEP_BULK: [u16; 4096] = {
    let mut t = STEP;
    let mut k = 0;
    while k < t.len() {
        if t[k] & SCALAR as u16 != 0 {
            t[k] &= 0xff00;
        }
        k += 1;
    }
    t
};

/// The grammar for a block walked without a branch per token (brackets that neither end the
/// value nor go past the innermost 64 levels; scalars checked by block): entry
/// `FAST[row << 1 | byte << 1 | top]` is the next state's row times two (the part of the next
/// index that the state gives: from one token to the next the walk adds `byte << 1 | top`,
/// computed apart, and reads), 0 where the grammar forbids the token (row 0 leads only to row
/// 0, so an error stays to the block's end). `top` is 1 when the innermost open container is
/// an object; only the row of `CLOSED` reads it.
pub(super) const FAST: [u16; 8192] = {
    let mut t = [0u16; 8192];
    let mut s = 1;
    while s <= 9 {
        let mut top = 0;
        while top < 2 {
            // `CLOSED` steps as the state after a member or an element.
            let from = if s < 9 {
                s
            } else if top == 1 {
                (OBJECT_AFTER / 16) as usize
            } else {
                (ARRAY_AFTER / 16) as usize
            };
            let mut b = 0;
            while b < 256 {
                let class = CLASS[b];
                let next = NEXT[from * 16 + class as usize];
                t[(s << 8 | b) << 1 | top] = if next == ERR {
                    0
                } else if class == CLOSE_OBJECT || class == CLOSE_ARRAY {
                    (row(CLOSED) << 1) as u16
                } else {
                    (row(next) << 1) as u16
                };
                b += 1;
            }
            top += 1;
        }
        s += 1;
    }
    t
};

/// What a token's byte does to the stack of open containers held with a sentinel bit above
/// them (`s`: bit 0 the innermost, 1 = object), as `s = (s << 1 | object) >> shift` (one
/// `lea` and one shift; the sentinel must stay below bit 63): the entry is `[object, shift]`,
/// `shift` 0 for an opening bracket, 2 for a closing one, 1 for any other byte.
pub(super) const MOVE: [[u8; 2]; 256] = {
    let mut t = [[0u8, 1]; 256];
    t[b'{' as usize] = [1, 0];
    t[b'[' as usize] = [0, 0];
    t[b'}' as usize] = [0, 2];
    t[b']' as usize] = [0, 2];
    t
};

/// Every entry of [`FAST`] is a row below `0x1000` times two, so that the next index, the
/// entry plus `byte << 1 | top` (below `0x200`), is below its length (the walk reads it
/// unchecked).
const _: () = {
    let mut k = 0;
    while k < FAST.len() {
        assert!(FAST[k] < 0x2000 && FAST[k] & 0x1ff == 0);
        k += 1;
    }
    assert!(FAST.len() == 0x2000);
};

/// The hexadecimal digits.
pub(super) const HEX: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u8).is_ascii_hexdigit();
        b += 1;
    }
    t
};

/// The `STEP` row of a state.
pub(super) const fn row(state: u8) -> usize {
    (state as usize) << 4
}
