//! Where to cut an input into chunks, for the targets that compare chunked with one-shot
//! decoding.
//!
//! The cuts come from a small PRNG seeded with a hash of the input, not from extra fuzz bytes,
//! so the seed corpora stay plain documents and streams, and a crash reproduces from the input
//! file alone. Each input is cut several ways: one byte at a time, at every position of a
//! sliding pair, and in random lengths of a few styles (tiny, around SIMD block sizes, large).

/// A deterministic 64-bit PRNG (SplitMix64).
pub struct Rng(u64);

impl Rng {
    /// Seeded from the bytes of `data` (FNV-1a), so the same input always cuts the same way.
    pub fn for_input(data: &[u8], salt: u64) -> Rng {
        let mut h = 0xcbf2_9ce4_8422_2325u64 ^ salt;
        for &b in data {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
        Rng(h)
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as usize
    }
}

/// Chunk lengths (all > 0) that add up to `len`, in one of several styles chosen by `rng`.
pub fn lengths(len: usize, rng: &mut Rng) -> Vec<usize> {
    let style = rng.next_u64() % 4;
    let mut out = Vec::new();
    let mut left = len;
    while left > 0 {
        let n = match style {
            0 => rng.range(1, 3),
            1 => rng.range(1, 17),
            2 => [15, 16, 17, 31, 32, 33, 63, 64, 65][rng.range(0, 8)],
            _ => rng.range(1, 4096),
        }
        .min(left);
        out.push(n);
        left -= n;
    }
    out
}

/// The chunkings to try for an input of `len` bytes: random ones, one byte at a time (for
/// short inputs), and every single cut point (for short inputs).
pub fn chunkings(len: usize, rng: &mut Rng) -> Vec<Vec<usize>> {
    let mut all = vec![lengths(len, rng), lengths(len, rng)];
    if len <= 512 {
        all.push(vec![1; len]);
    }
    if len <= 128 {
        for cut in 1..len {
            all.push(vec![cut, len - cut]);
        }
    }
    all
}

/// `data` cut into chunks of the given lengths.
pub fn cut<'a>(data: &'a [u8], lengths: &[usize]) -> Vec<&'a [u8]> {
    let mut out = Vec::with_capacity(lengths.len());
    let mut at = 0;
    for &n in lengths {
        out.push(&data[at..at + n]);
        at += n;
    }
    debug_assert_eq!(at, data.len());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_cover_the_input() {
        for len in [0, 1, 2, 100, 5000] {
            let mut rng = Rng::for_input(b"x", len as u64);
            for c in chunkings(len, &mut rng) {
                assert_eq!(c.iter().sum::<usize>(), len);
                assert!(c.iter().all(|&n| n > 0));
            }
        }
    }
}
