//! The portable classifier: one byte at a time through a table. It is the reference the vector
//! kernels are tested against, and what miri and other targets run.

use super::{BLOCK, Classes};

const QUOTE: u16 = 1;
const BACKSLASH: u16 = 2;
const WS: u16 = 4;
const OP: u16 = 8;
const CTRL: u16 = 16;
const HIGH: u16 = 32;
const DIGIT: u16 = 64;
const DOT: u16 = 128;
const SIGN: u16 = 256;
const EXP: u16 = 512;
const ZERO: u16 = 1024;
const CLOSE: u16 = 2048;

/// The class bits of every byte value.
const TABLE: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = match c {
            b'"' => QUOTE,
            b'\\' => BACKSLASH,
            b' ' => WS,
            b'\t' | b'\n' | b'\r' => WS | CTRL,
            b'}' | b']' => OP | CLOSE,
            b'{' | b'[' | b':' | b',' => OP,
            0..=0x1f => CTRL,
            0x80..=0xff => HIGH,
            b'0' => DIGIT | ZERO,
            b'1'..=b'9' => DIGIT,
            b'.' => DOT,
            b'+' | b'-' => SIGN,
            b'e' | b'E' => EXP,
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
        let set = |m: &mut u64, class: u16| {
            if t & class != 0 {
                *m |= bit;
            }
        };
        set(&mut c.quote, QUOTE);
        set(&mut c.backslash, BACKSLASH);
        set(&mut c.ws, WS);
        set(&mut c.op, OP);
        set(&mut c.close, CLOSE);
        set(&mut c.ctrl, CTRL);
        set(&mut c.high, HIGH);
        set(&mut c.marks.digit, DIGIT);
        set(&mut c.marks.dot, DOT);
        set(&mut c.marks.sign, SIGN);
        set(&mut c.marks.exp, EXP);
        set(&mut c.marks.zero, ZERO);
    }
    c
}
