//! The portable classifier: one byte at a time through a table. It is the reference the vector
//! kernels are tested against, and what miri and other targets run.

use super::{BLOCK, Classes};

const QUOTE: u8 = 1;
const BACKSLASH: u8 = 2;
const WS: u8 = 4;
const OP: u8 = 8;
const CTRL: u8 = 16;
const HIGH: u8 = 32;
const DIGIT: u8 = 64;

/// The class bits of every byte value.
const TABLE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = match c {
            b'"' => QUOTE,
            b'\\' => BACKSLASH,
            b' ' => WS,
            b'\t' | b'\n' | b'\r' => WS | CTRL,
            b'{' | b'}' | b'[' | b']' | b':' | b',' => OP,
            0..=0x1f => CTRL,
            0x80..=0xff => HIGH,
            b'0'..=b'9' => DIGIT,
            _ => 0,
        };
        b += 1;
    }
    t
};

/// The classes of the block at `at`; bytes past the end of `bytes` read as spaces.
pub(crate) fn classify(bytes: &[u8], at: usize) -> Classes {
    let mut c = Classes::default();
    for k in 0..BLOCK {
        let b = at
            .checked_add(k)
            .and_then(|i| bytes.get(i))
            .copied()
            .unwrap_or(b' ');
        let t = TABLE[b as usize];
        let bit = 1u64 << k;
        let set = |m: &mut u64, class: u8| {
            if t & class != 0 {
                *m |= bit;
            }
        };
        set(&mut c.quote, QUOTE);
        set(&mut c.backslash, BACKSLASH);
        set(&mut c.ws, WS);
        set(&mut c.op, OP);
        set(&mut c.ctrl, CTRL);
        set(&mut c.high, HIGH);
        set(&mut c.digit, DIGIT);
    }
    c
}
