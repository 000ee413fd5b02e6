//! Tests of `agui_wire::media`: base64 views (against the `base64` crate and a WHATWG
//! reference), kernel agreement, escapes, streaming, data URLs and sniffing.

use std::io::Read;

use agui_wire::media::{
    Base64, Base64ErrorKind as K, Base64Mode, DataPayload, DataUrl, DataUrlErrorKind, Kernel,
    MediaType, PercentDecoded, mime_matches, sniff,
};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use proptest::prelude::*;

// ------------------------------------------------------------------------------------------
// Helpers
// ------------------------------------------------------------------------------------------

/// Every kernel that can run here, `Auto` first.
fn kernels() -> Vec<Kernel> {
    [Kernel::Auto, Kernel::Scalar, Kernel::Ssse3, Kernel::Avx2]
        .into_iter()
        .filter(|k| k.is_available())
        .collect()
}

/// Deterministic pseudo-random bytes (xorshift64*), fast enough for tens of MB.
fn random_bytes(len: usize, mut seed: u64) -> Vec<u8> {
    seed |= 1;
    let mut v = Vec::with_capacity(len + 8);
    while v.len() < len {
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        v.extend_from_slice(&seed.wrapping_mul(0x2545_F491_4F6C_DD1D).to_le_bytes());
    }
    v.truncate(len);
    v
}

fn b64(s: &str) -> Base64<'_> {
    Base64::from_str(s)
}

fn forgiving(s: &str) -> Base64<'_> {
    Base64::from_str(s).with_mode(Base64Mode::Forgiving)
}

/// (kind, offset) of the validation error.
fn err_of(b: Base64<'_>) -> (K, usize) {
    let e = b.validate().expect_err("expected an error");
    // Decoding must report the same first error.
    let d = b.decode_to_vec().expect_err("decode must fail too");
    assert_eq!(e, d, "validate and decode disagree");
    (e.kind(), e.offset())
}

/// WHATWG forgiving-base64 decode, written from the spec, as a reference.
fn whatwg_decode(input: &[u8]) -> Option<Vec<u8>> {
    let mut v: Vec<u8> = input
        .iter()
        .copied()
        .filter(|b| !matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' '))
        .collect();
    if v.len().is_multiple_of(4) {
        if v.ends_with(b"==") {
            v.truncate(v.len() - 2);
        } else if v.ends_with(b"=") {
            v.truncate(v.len() - 1);
        }
    }
    if v.len() % 4 == 1 {
        return None;
    }
    let value = |b: u8| -> Option<u32> {
        Some(match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::new();
    let (mut buf, mut bits) = (0u32, 0);
    for &b in &v {
        buf = (buf << 6) | value(b)?;
        bits += 6;
        if bits == 24 {
            out.extend_from_slice(&[(buf >> 16) as u8, (buf >> 8) as u8, buf as u8]);
            buf = 0;
            bits = 0;
        }
    }
    match bits {
        12 => out.push((buf >> 4) as u8),
        18 => out.extend_from_slice(&[(buf >> 10) as u8, (buf >> 2) as u8]),
        _ => {}
    }
    Some(out)
}

/// Decodes `b` with each kernel in each way (vec, into, arena, reader) and checks they agree.
fn decode_all_ways(b: Base64<'_>) -> Result<Vec<u8>, agui_wire::media::Base64Error> {
    let mut first: Option<Result<Vec<u8>, _>> = None;
    for k in kernels() {
        let v = b.with_kernel(k);
        let whole = v.decode_to_vec();
        let valid = v.validate();
        assert_eq!(
            valid.err(),
            whole.as_ref().err().copied(),
            "{k:?} validate vs decode"
        );
        if let Ok(bytes) = &whole {
            assert_eq!(v.decoded_len(), Ok(bytes.len()), "{k:?} decoded_len");
            let arena = bumpalo::Bump::new();
            assert_eq!(v.decode_in(&arena).unwrap(), &bytes[..]);
            let mut exact = vec![0u8; bytes.len()];
            assert_eq!(v.decode_into(&mut exact), Ok(bytes.len()));
            assert_eq!(&exact, bytes);
        }
        match &first {
            None => first = Some(whole),
            Some(f) => assert_eq!(f, &whole, "kernel {k:?} disagrees"),
        }
    }
    first.unwrap()
}

/// Reads everything through `Read` with a buffer of `size`.
fn read_all(b: Base64<'_>, size: usize) -> std::io::Result<Vec<u8>> {
    let mut r = b.reader();
    let mut out = Vec::new();
    let mut buf = vec![0u8; size];
    loop {
        let n = r.read(&mut buf)?;
        if n == 0 {
            return Ok(out);
        }
        assert!(n <= size);
        out.extend_from_slice(&buf[..n]);
    }
}

/// Reads everything through `next_into` with a buffer of `size`.
fn lend_all(b: Base64<'_>, size: usize) -> Result<Vec<u8>, agui_wire::media::Base64Error> {
    let mut r = b.reader();
    let mut out = Vec::new();
    let mut buf = vec![0u8; size];
    while let Some(chunk) = r.next_into(&mut buf) {
        let chunk = chunk?;
        assert!(!chunk.is_empty());
        out.extend_from_slice(chunk);
    }
    assert!(r.is_finished());
    Ok(out)
}

/// Decodes chunk by chunk into a buffer of `size`.
fn chunk_all(b: Base64<'_>, size: usize) -> Result<Vec<u8>, agui_wire::media::Base64Error> {
    let mut out = Vec::new();
    let mut buf = vec![0u8; size.max(3)];
    for chunk in b.chunks(size) {
        let n = chunk.decode_into(&mut buf)?;
        out.extend_from_slice(&buf[..n]);
    }
    Ok(out)
}

const CHUNK_SIZES: [usize; 14] = [1, 2, 3, 4, 5, 6, 7, 11, 13, 64, 100, 1000, 4096, 65537];

fn check_streaming(b: Base64<'_>) {
    let whole = b.decode_to_vec();
    for size in CHUNK_SIZES {
        let lent = lend_all(b, size);
        assert_eq!(lent, whole, "next_into size {size}");
        let chunked = chunk_all(b, size);
        assert_eq!(chunked, whole, "chunks size {size}");
        match (&whole, read_all(b, size)) {
            (Ok(w), Ok(r)) => assert_eq!(w, &r, "read size {size}"),
            (Err(e), Err(r)) => {
                assert_eq!(r.kind(), std::io::ErrorKind::InvalidData);
                assert_eq!(r.into_inner().unwrap().to_string(), e.to_string());
            }
            (w, r) => panic!("read size {size}: whole {w:?} read {r:?}"),
        }
    }
}

/// Escapes `text` as a JSON encoder might: `/` as `\/` when `slash`, and every `every`-th
/// character as `\u00XX`.
fn json_escape(text: &str, slash: bool, every: usize) -> String {
    let mut s = String::new();
    for (i, c) in text.chars().enumerate() {
        if every != 0 && i % every == every - 1 {
            s.push_str(&format!("\\u{:04x}", c as u32));
        } else if slash && c == '/' {
            s.push_str("\\/");
        } else {
            s.push(c);
        }
    }
    s
}

// ------------------------------------------------------------------------------------------
// Decoding correctness
// ------------------------------------------------------------------------------------------

#[test]
fn rfc4648_vectors() {
    for (text, bytes) in [
        ("", &b""[..]),
        ("Zg==", b"f"),
        ("Zm8=", b"fo"),
        ("Zm9v", b"foo"),
        ("Zm9vYg==", b"foob"),
        ("Zm9vYmE=", b"fooba"),
        ("Zm9vYmFy", b"foobar"),
    ] {
        assert_eq!(decode_all_ways(b64(text)).unwrap(), bytes, "{text}");
        assert_eq!(decode_all_ways(forgiving(text)).unwrap(), bytes, "{text}");
    }
}

#[test]
fn every_size_up_to_300_and_some_large_ones() {
    let data = random_bytes(1 << 20, 42);
    let mut sizes: Vec<usize> = (0..=300).collect();
    sizes.extend([1023, 1024, 4095, 4096, 4097, 65535, 65536, 65537, 1 << 20]);
    for n in sizes {
        let text = STANDARD.encode(&data[..n]);
        assert_eq!(decode_all_ways(b64(&text)).unwrap(), &data[..n], "size {n}");
    }
}

#[test]
fn one_payload_over_64_mib() {
    // 86 copies of a 768 KiB block (a multiple of 3, so each encodes without padding):
    // 67.6 MB decoded, 90 MB of text, while encoding only one block.
    let block = random_bytes(3 << 18, 7);
    let block_text = STANDARD.encode(&block);
    let copies = 86;
    let text = block_text.repeat(copies);
    let n = block.len() * copies;
    assert!(n > 64 << 20);
    let view = b64(&text);
    assert_eq!(view.decoded_len(), Ok(n));
    assert_eq!(view.validate(), Ok(()));
    let mut out = vec![0u8; n];
    assert_eq!(view.decode_into(&mut out), Ok(n));
    assert!(
        out.chunks(block.len()).all(|c| c == block),
        "large decode differs"
    );
    // A bad byte near the very end of it is found, at the right place.
    let mut bad = text.into_bytes();
    let at = bad.len() - 5;
    bad[at] = b'*';
    let e = Base64::new(&bad, false, 3).validate().unwrap_err();
    assert_eq!(
        (e.kind(), e.offset(), e.doc_offset()),
        (K::InvalidChar('*'), at, at + 3)
    );
}

// ------------------------------------------------------------------------------------------
// Errors, with exact offsets
// ------------------------------------------------------------------------------------------

#[test]
fn invalid_characters_at_start_middle_end() {
    let text = STANDARD.encode(random_bytes(300, 1)); // 400 characters, no padding
    for at in [0, 1, 2, 3, 31, 32, 33, 63, 64, 200, 396, 397, 398, 399] {
        for bad in [b'!', b'"', b'\\', b'.', b'\0', b'~', 0x7F] {
            let mut t = text.clone().into_bytes();
            t[at] = bad;
            let t = String::from_utf8(t).unwrap();
            for k in kernels() {
                assert_eq!(
                    err_of(b64(&t).with_kernel(k)),
                    (K::InvalidChar(bad as char), at),
                    "{k:?} byte {bad:#x} at {at}"
                );
                assert_eq!(
                    err_of(forgiving(&t).with_kernel(k)),
                    (K::InvalidChar(bad as char), at)
                );
            }
        }
    }
    // Non-ASCII: the whole character is reported.
    let t = format!("{}é{}", &text[..100], &text[102..]);
    assert_eq!(err_of(b64(&t)), (K::InvalidChar('é'), 100));
    let raw = [b"QUJD".as_slice(), &[0xFF, b'A', b'=', b'=']].concat();
    assert_eq!(
        err_of(Base64::new(&raw, false, 0)),
        (K::InvalidByte(0xFF), 4)
    );
}

#[test]
fn padding_errors() {
    assert_eq!(err_of(b64("QQ")), (K::MissingPadding, 2));
    assert_eq!(err_of(b64("QUI")), (K::MissingPadding, 3));
    assert_eq!(err_of(b64("QQ=")), (K::IncompletePadding, 3));
    assert_eq!(err_of(forgiving("QQ=")), (K::IncompletePadding, 3));
    assert_eq!(err_of(b64("Q")), (K::ImpossibleLength, 0));
    assert_eq!(err_of(b64("QUJDQ")), (K::ImpossibleLength, 4));
    assert_eq!(err_of(forgiving("QUJDQ")), (K::ImpossibleLength, 4));
    assert_eq!(err_of(forgiving("QUJDQ===")), (K::MisplacedPadding, 5));
    assert_eq!(err_of(b64("=")), (K::MisplacedPadding, 0));
    assert_eq!(err_of(b64("====")), (K::MisplacedPadding, 0));
    assert_eq!(err_of(b64("Q===")), (K::MisplacedPadding, 1));
    assert_eq!(err_of(b64("QQ===")), (K::DataAfterPadding, 4));
    assert_eq!(err_of(b64("QUI==")), (K::DataAfterPadding, 4));
    // '=' in the middle, at various places in a long text (SIMD blocks stop there).
    let text = STANDARD.encode(random_bytes(300, 2));
    for q in [1usize, 8, 9, 50, 99] {
        let mut t = text.clone().into_bytes();
        t[4 * q - 2] = b'=';
        t[4 * q - 1] = b'=';
        let t = String::from_utf8(t).unwrap();
        for k in kernels() {
            let got = err_of(b64(&t).with_kernel(k));
            // Either the dropped bits of the padded group are not zero, or the data after it.
            assert!(
                got == (K::DataAfterPadding, 4 * q) || got == (K::NonZeroTrailingBits, 4 * q - 3),
                "{k:?} {got:?} q {q}"
            );
        }
    }
    assert_eq!(err_of(b64("QQ==QUJD")), (K::DataAfterPadding, 4));
    assert_eq!(err_of(b64("QUJDQQ=AQUJD")), (K::MisplacedPadding, 6));
    assert_eq!(err_of(b64("QR==")), (K::NonZeroTrailingBits, 1));
    assert_eq!(err_of(b64("QUJ=")), (K::NonZeroTrailingBits, 2));
    // Forgiving ignores the dropped bits, like atob.
    assert_eq!(forgiving("QR==").decode_to_vec().unwrap(), b"A");
    assert_eq!(forgiving("QR").decode_to_vec().unwrap(), b"A");
}

#[test]
fn url_safe_alphabet_rejected_in_both_modes() {
    for (t, c, at) in [("ab-d", '-', 2), ("_bcd", '_', 0), ("QUJD/+-_", '-', 6)] {
        assert_eq!(err_of(b64(t)), (K::UrlSafeChar(c), at));
        assert_eq!(err_of(forgiving(t)), (K::UrlSafeChar(c), at));
    }
    let msg = b64("ab-d").validate().unwrap_err().to_string();
    assert!(
        msg.contains("URL-safe") && msg.contains("'+' and '/'"),
        "{msg}"
    );
}

#[test]
fn whitespace_strict_vs_forgiving() {
    let data = random_bytes(1000, 3);
    let flat = STANDARD.encode(&data);
    // MIME style: CRLF every 76 characters.
    let mime: String = flat
        .as_bytes()
        .chunks(76)
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect::<Vec<_>>()
        .join("\r\n");
    assert_eq!(err_of(b64(&mime)), (K::Whitespace('\r'), 76));
    assert_eq!(decode_all_ways(forgiving(&mime)).unwrap(), data);
    let spaced = format!("  {} \n\t", flat.replace('A', " A"));
    let first_a = flat.find('A').unwrap();
    assert_eq!(err_of(b64(&spaced)), (K::Whitespace(' '), 0));
    assert_eq!(decode_all_ways(forgiving(&spaced)).unwrap(), data);
    assert_eq!(
        err_of(b64(&flat.replacen('A', " A", 1))),
        (K::Whitespace(' '), first_a)
    );
    // Vertical tab is not whitespace for WHATWG.
    assert_eq!(err_of(forgiving("QU\u{b}JD")), (K::InvalidChar('\u{b}'), 2));
    assert_eq!(forgiving(" Q Q = = ").decode_to_vec().unwrap(), b"A");
    assert_eq!(forgiving("QQ==  ").decode_to_vec().unwrap(), b"A");
    assert_eq!(err_of(forgiving("QQ== Q")), (K::DataAfterPadding, 5));
    let msg = b64("QU\nJD").validate().unwrap_err().to_string();
    assert!(
        msg.contains("line feed") && msg.contains("Forgiving"),
        "{msg}"
    );
}

#[test]
fn escaped_input() {
    // PHP: "\/" for every '/'.
    let data = random_bytes(5000, 4);
    let text = STANDARD.encode(&data);
    assert!(text.contains('/'));
    let php = json_escape(&text, true, 0);
    let view = Base64::new(php.as_bytes(), true, 0);
    assert_eq!(decode_all_ways(view).unwrap(), data);
    check_streaming(view);
    // Without the flag, the backslash is an invalid character at its raw offset.
    let first = php.find('\\').unwrap();
    assert_eq!(
        err_of(Base64::new(php.as_bytes(), false, 0)),
        (K::InvalidChar('\\'), first)
    );
    // \u00XX for every 7th character, and padding escaped too.
    let heavy = json_escape(&STANDARD.encode(&data[..4999]), true, 7);
    assert!(heavy.contains("\\u00"));
    assert_eq!(
        decode_all_ways(Base64::new(heavy.as_bytes(), true, 0)).unwrap(),
        &data[..4999]
    );
    assert_eq!(
        Base64::new(br"\u0041A==", true, 0).decode_to_vec().unwrap(),
        [0]
    );
    assert_eq!(
        Base64::new(br"QUJD\u003d\u003D", true, 0).decoded_len(),
        Err(Base64::new(br"QUJD\u003d\u003D", true, 0)
            .validate()
            .unwrap_err())
    );
    assert_eq!(
        Base64::new(br"QQ\u003d\u003D", true, 0)
            .decode_to_vec()
            .unwrap(),
        b"A"
    );
    // Errors point at the backslash of the offending escape.
    let e = Base64::new(br"QUJD\u0021AAA", true, 10)
        .validate()
        .unwrap_err();
    assert_eq!(
        (e.kind(), e.offset(), e.doc_offset()),
        (K::InvalidChar('!'), 4, 14)
    );
    let e = Base64::new(br#"QU\/D\"AAA"#, true, 0)
        .validate()
        .unwrap_err();
    assert_eq!((e.kind(), e.offset()), (K::InvalidChar('"'), 5));
    let e = Base64::new(br"QU\/D\nAAA", true, 0).validate().unwrap_err();
    assert_eq!((e.kind(), e.offset()), (K::Whitespace('\n'), 5));
    let f = Base64::new(br"QU\/D\nAAA\r\n", true, 0).with_mode(Base64Mode::Forgiving);
    assert_eq!(f.decode_to_vec().unwrap(), [0x41, 0x4F, 0xC3, 0, 0]);
    let e = Base64::new(br"QUJD\ud83d\ude00", true, 0)
        .validate()
        .unwrap_err();
    assert_eq!((e.kind(), e.offset()), (K::InvalidChar('\u{1F600}'), 4));
    let e = Base64::new(br"QUJD\x", true, 0).validate().unwrap_err();
    assert_eq!((e.kind(), e.offset()), (K::BadEscape, 4));
    let e = Base64::new(br"QUJD\u00", true, 0).validate().unwrap_err();
    assert_eq!((e.kind(), e.offset()), (K::BadEscape, 4));
    // The end of an escaped text is its raw length.
    let e = Base64::new(br"QU\/", true, 0).validate().unwrap_err();
    assert_eq!((e.kind(), e.offset()), (K::MissingPadding, 4));
    // An error far into a long escaped text (several 4 KiB stack chunks).
    let mut long = php.clone();
    long.push_str("QQ=*");
    let e = Base64::new(long.as_bytes(), true, 0)
        .validate()
        .unwrap_err();
    assert_eq!((e.kind(), e.offset()), (K::DataAfterPadding, php.len()));
    let unpadded = json_escape(&STANDARD.encode(&data[..4998]), true, 0);
    let long = format!("{unpadded}QQ=A");
    let e = Base64::new(long.as_bytes(), true, 0)
        .validate()
        .unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (K::MisplacedPadding, unpadded.len() + 2)
    );
}

#[test]
fn output_too_small() {
    let e = b64("Zm9vYmFy").decode_into(&mut [0u8; 5]).unwrap_err();
    assert_eq!(
        e.kind(),
        K::OutputTooSmall {
            needed: 6,
            available: 5
        }
    );
    let e = forgiving("Zm9v YmFy")
        .decode_into(&mut [0u8; 5])
        .unwrap_err();
    assert_eq!(
        e.kind(),
        K::OutputTooSmall {
            needed: 6,
            available: 5
        }
    );
    let e = Base64::new(br"Zm9v\/mFy", true, 0)
        .decode_into(&mut [0u8; 2])
        .unwrap_err();
    assert_eq!(
        e.kind(),
        K::OutputTooSmall {
            needed: 6,
            available: 2
        }
    );
    // Exactly enough room for padded endings.
    for (t, n) in [("QQ==", 1), ("QUI=", 2), ("QUJDQQ==", 4), ("QUJDQUI=", 5)] {
        let mut buf = vec![0u8; n];
        assert_eq!(b64(t).decode_into(&mut buf), Ok(n), "{t}");
        assert_eq!(
            Base64::new(t.as_bytes(), true, 0).decode_into(&mut buf),
            Ok(n),
            "{t}"
        );
        assert_eq!(
            forgiving(t.trim_end_matches('=')).decode_into(&mut buf),
            Ok(n),
            "{t}"
        );
        assert!(b64(t).decode_into(&mut buf[..n - 1]).is_err());
    }
    assert!(b64("").decode_into(&mut []).is_ok());
    let msg = e.to_string();
    assert!(msg.contains("6 bytes") && msg.contains("holds 2"), "{msg}");
}

// ------------------------------------------------------------------------------------------
// Streaming
// ------------------------------------------------------------------------------------------

#[test]
fn streaming_matches_whole_decode() {
    let data = random_bytes(10_000, 5);
    let text = STANDARD.encode(&data);
    check_streaming(b64(&text));
    for n in 0..20 {
        check_streaming(b64(&STANDARD.encode(&data[..n])));
    }
    let mime = text
        .as_bytes()
        .chunks(76)
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect::<Vec<_>>()
        .join("\n");
    check_streaming(forgiving(&mime));
    check_streaming(forgiving(&format!("{} \n", text.trim_end_matches('='))));
    // Invalid texts: same first error whichever way.
    for bad in ["QUJD!", "QUJDQQ==QUJD", "QQ", "QR==", "QUJD\nQUJD"] {
        check_streaming(b64(bad));
        check_streaming(forgiving(bad));
    }
    let mut t = text.clone().into_bytes();
    t[9000] = b'-';
    let t = String::from_utf8(t).unwrap();
    check_streaming(b64(&t));
    let e = lend_all(b64(&t), 7).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (K::UrlSafeChar('-'), 9000));
}

#[test]
fn chunk_views() {
    let text = STANDARD.encode(random_bytes(100, 6)); // 136 characters, "=" at the end
    let chunks: Vec<_> = b64(&text).chunks(30).collect();
    assert_eq!(chunks.len(), 4);
    assert!(
        chunks
            .iter()
            .take(3)
            .all(|c| c.raw().len() == 40 && c.decoded_len() == Ok(30))
    );
    assert_eq!(chunks[3].raw().len(), 16);
    // Offsets of errors inside a chunk count from the start of the whole payload.
    let mut bad = text.clone().into_bytes();
    bad[95] = b'!';
    let view = Base64::new(&bad, false, 1000);
    let third = view.chunks(30).nth(2).unwrap();
    let e = third.validate().unwrap_err();
    assert_eq!((e.offset(), e.doc_offset()), (95, 1095));
    assert_eq!(third.doc_offset(), 1080);
    // A padded group can only end the text: data after it stays in the last chunk.
    let joined = "QQ==QUJDQUJD";
    let parts: Vec<_> = b64(joined).chunks(3).map(|c| c.raw()).collect();
    assert_eq!(parts, [joined.as_bytes()]);
    assert_eq!(
        chunk_all(b64(joined), 3).unwrap_err().kind(),
        K::DataAfterPadding
    );
    // Escaped: cuts never split an escape.
    let esc = json_escape(&text, true, 5);
    for size in [1, 3, 6, 9, 30] {
        for c in Base64::new(esc.as_bytes(), true, 0).chunks(size) {
            assert!(c.decoded_len().unwrap() <= size.max(3));
            assert!(!c.raw().ends_with(b"\\"));
        }
    }
    assert_eq!(b64("").chunks(10).count(), 0);
}

#[test]
fn reader_edge_cases() {
    let mut r = b64("QUJD").reader();
    assert!(matches!(
        r.next_into(&mut []),
        Some(Err(e)) if matches!(e.kind(), K::OutputTooSmall { .. })
    ));
    let mut buf = [0u8; 8];
    assert_eq!(r.next_into(&mut buf).unwrap().unwrap(), b"ABC");
    assert!(r.next_into(&mut buf).is_none());
    assert!(r.next_into(&mut []).is_none());
    assert_eq!(r.read(&mut buf).unwrap(), 0);
    // The valid bytes before an error come first; then the error, once by next_into, at
    // every call by read.
    let mut r = b64("QUJD*").reader();
    assert_eq!(r.next_into(&mut buf).unwrap().unwrap(), b"ABC");
    let e = r.next_into(&mut buf).unwrap().unwrap_err();
    assert_eq!((e.kind(), e.offset()), (K::InvalidChar('*'), 4));
    assert!(r.next_into(&mut buf).is_none());
    let mut r = b64("QUJD*").reader();
    assert_eq!(r.read(&mut buf).unwrap(), 3);
    assert!(r.read(&mut buf).is_err());
    assert!(r.read(&mut buf).is_err());
    // An error right after a sniffing head does not spoil the head.
    let mut r = b64("QUJDQUJD*").reader();
    let mut six = [0u8; 6];
    assert_eq!(r.next_into(&mut six).unwrap().unwrap(), b"ABCABC");
    assert!(r.next_into(&mut six).unwrap().is_err());
    // Prefix decoding reads only what it needs.
    let mut head = [0u8; 3];
    assert_eq!(b64("QUJD!!!!").decode_prefix(&mut head), Ok(3));
    assert_eq!(&head, b"ABC");
    let mut head = [0u8; 4];
    assert_eq!(b64("QUJD").decode_prefix(&mut head), Ok(3));
}

// ------------------------------------------------------------------------------------------
// Property tests
// ------------------------------------------------------------------------------------------

/// Text made mostly of base64 characters plus everything that is special to a decoder.
fn nasty_text() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        8 => proptest::sample::select(
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".to_vec()
        ),
        2 => Just(b'='),
        1 => proptest::sample::select(b" \n\r\t\x0c\x0b-_\\\"%.".to_vec()),
        1 => any::<u8>(),
    ];
    proptest::collection::vec(byte, 0..120)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 8 } else { 512 }))]

    #[test]
    fn roundtrip_against_base64_crate(data in proptest::collection::vec(any::<u8>(), 0..3000)) {
        let text = STANDARD.encode(&data);
        prop_assert_eq!(decode_all_ways(b64(&text)).unwrap(), data.clone());
        prop_assert_eq!(forgiving(&text).decode_to_vec().unwrap(), data);
    }

    #[test]
    fn strict_agrees_with_base64_crate(text in nasty_text()) {
        let ours = decode_all_ways(Base64::new(&text, false, 0));
        let theirs = STANDARD.decode(&text);
        prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "ours {:?} theirs {:?}", ours, theirs);
        if let (Ok(a), Ok(b)) = (ours, theirs) {
            prop_assert_eq!(a, b);
        }
    }

    #[test]
    fn forgiving_agrees_with_whatwg(text in nasty_text()) {
        let ours = decode_all_ways(Base64::new(&text, false, 0).with_mode(Base64Mode::Forgiving));
        prop_assert_eq!(ours.ok(), whatwg_decode(&text));
    }

    #[test]
    fn kernels_agree_on_long_texts_with_one_bad_byte(
        data in proptest::collection::vec(any::<u8>(), 0..2000),
        pos in any::<prop::sample::Index>(),
        bad in any::<u8>(),
        forgive in any::<bool>(),
    ) {
        let mut text = STANDARD.encode(&data).into_bytes();
        if !text.is_empty() {
            let at = pos.index(text.len());
            text[at] = bad;
        }
        let mode = if forgive { Base64Mode::Forgiving } else { Base64Mode::Strict };
        // decode_all_ways asserts that every kernel gives the same result and error.
        let ours = decode_all_ways(Base64::new(&text, false, 0).with_mode(mode));
        if !forgive {
            prop_assert_eq!(ours.is_ok(), STANDARD.decode(&text).is_ok());
        }
    }

    #[test]
    fn escaped_equals_plain(
        data in proptest::collection::vec(any::<u8>(), 0..600),
        every in 0usize..9,
        slash in any::<bool>(),
    ) {
        let text = STANDARD.encode(&data);
        let esc = json_escape(&text, slash, every);
        let view = Base64::new(esc.as_bytes(), true, 0);
        prop_assert_eq!(decode_all_ways(view).unwrap(), data);
    }

    #[test]
    fn streaming_equals_whole(
        text in nasty_text(),
        size in 1usize..20,
        forgive in any::<bool>(),
        escape_every in 0usize..4,
    ) {
        let mode = if forgive { Base64Mode::Forgiving } else { Base64Mode::Strict };
        let s = String::from_utf8_lossy(&text).into_owned();
        let esc = json_escape(&s, true, escape_every);
        for view in [
            Base64::new(&text, false, 0).with_mode(mode),
            Base64::new(esc.as_bytes(), true, 0).with_mode(mode),
        ] {
            let whole = view.decode_to_vec();
            prop_assert_eq!(&lend_all(view, size), &whole);
            prop_assert_eq!(&chunk_all(view, size), &whole);
            prop_assert_eq!(read_all(view, size).ok(), whole.ok());
        }
    }
}

// ------------------------------------------------------------------------------------------
// Data URLs
// ------------------------------------------------------------------------------------------

#[test]
fn data_url_base64() {
    let png = STANDARD.encode(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    let s = format!("data:image/png;base64,{png}");
    let url = DataUrl::parse(&s).unwrap();
    assert_eq!(url.mime_type(), "image/png");
    assert!(url.is_base64());
    assert_eq!(url.params().count(), 0);
    assert_eq!(url.payload(), png.as_bytes());
    assert_eq!(url.payload_offset(), 22);
    assert_eq!(url.sniff(), Some(MediaType::Png));
    assert!(mime_matches(url.mime_type(), url.sniff().unwrap()));
    assert_eq!(
        url.decoded().to_vec().unwrap(),
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"
    );
    // Errors count from the start of the URL.
    let e = DataUrl::parse("data:image/png;base64,QUJD-A==")
        .unwrap()
        .decoded()
        .to_vec()
        .unwrap_err();
    assert_eq!(e.kind(), DataUrlErrorKind::Base64(K::UrlSafeChar('-')));
    assert_eq!(e.offset(), 26);
    assert!(e.to_string().contains("URL-safe"), "{e}");
    // Parameters, case, spaces before "base64".
    let url = DataUrl::parse(" data:audio/wav;rate=16000;channels=1; BASE64,UklGRg== ").unwrap();
    assert_eq!(url.mime_type(), "audio/wav");
    assert_eq!(
        url.params().collect::<Vec<_>>(),
        [("rate", "16000"), ("channels", "1")]
    );
    assert_eq!(url.decoded().to_vec().unwrap(), b"RIFF");
    // ";base64" must be its own parameter.
    let url = DataUrl::parse("data:text/plain;xbase64,QQ==").unwrap();
    assert!(!url.is_base64());
    // Missing mime type with base64.
    let url = DataUrl::parse("data:;base64,QUJD").unwrap();
    assert_eq!(url.mime_type(), "text/plain");
    assert_eq!(url.param("charset"), Some("US-ASCII"));
    assert!(url.is_default_media_type());
    assert_eq!(url.decoded().to_vec().unwrap(), b"ABC");
    // Forgiving on request.
    let url = DataUrl::parse("data:;base64,QU JD").unwrap();
    let b = url.base64().unwrap();
    assert!(b.validate().is_err());
    assert_eq!(
        b.with_mode(Base64Mode::Forgiving).decode_to_vec().unwrap(),
        b"ABC"
    );
}

#[test]
fn data_url_percent_and_defaults() {
    let url = DataUrl::parse("data:,Hello%2C%20World%21").unwrap();
    assert_eq!(url.mime_type(), "text/plain");
    assert_eq!(url.params().collect::<Vec<_>>(), [("charset", "US-ASCII")]);
    let DataPayload::Percent(p) = url.decoded() else {
        panic!("percent payload expected")
    };
    assert_eq!(p.decoded_len().unwrap(), 13);
    assert_eq!(p.to_vec().unwrap(), b"Hello, World!");
    let mut buf = [0u8; 13];
    assert_eq!(p.decode_into(&mut buf), Ok(13));
    assert_eq!(
        p.decode_into(&mut buf[..12]).unwrap_err().kind(),
        DataUrlErrorKind::OutputTooSmall {
            needed: 13,
            available: 12
        }
    );
    // Bad or partial escapes stay literal; case of hex digits does not matter.
    let p = DataUrl::parse("data:text/plain;charset=utf-8,%e2%82%AC%%4%g1%").unwrap();
    assert_eq!(p.param("charset"), Some("utf-8"));
    assert_eq!(p.decoded().to_vec().unwrap(), "€%%4%g1%".as_bytes());
    assert_eq!(p.decoded().decoded_len().unwrap(), 10);
    // Only parameters: text/plain with them.
    let url = DataUrl::parse("data:;charset=utf-8,x").unwrap();
    assert_eq!(
        (url.mime_type(), url.param("charset")),
        ("text/plain", Some("utf-8"))
    );
    // Unusable mime types fall back to the default.
    let url = DataUrl::parse("data:png,x").unwrap();
    assert_eq!(url.mime_type(), "text/plain");
    assert!(url.is_default_media_type());
    // Quoted parameter values.
    let url = DataUrl::parse("data:image/svg+xml;name=\"a;b\";charset=utf-8,<svg/>").unwrap();
    assert_eq!(url.mime_type(), "image/svg+xml");
    assert_eq!(url.decoded().to_vec().unwrap(), b"<svg/>");
    assert_eq!(url.param("charset"), Some("utf-8"));
    // Not data URLs.
    assert_eq!(
        DataUrl::parse("https://x/y.png").unwrap_err().kind(),
        DataUrlErrorKind::NotDataUrl
    );
    assert_eq!(
        DataUrl::parse("dat").unwrap_err().kind(),
        DataUrlErrorKind::NotDataUrl
    );
    let e = DataUrl::parse("data:image/png;base64").unwrap_err();
    assert_eq!((e.kind(), e.offset()), (DataUrlErrorKind::MissingComma, 21));
    assert!(e.to_string().contains("','"), "{e}");
    // The payload sniffing works on percent payloads too.
    assert_eq!(
        DataUrl::parse("data:,%89PNG%0D%0A%1A%0A").unwrap().sniff(),
        Some(MediaType::Png)
    );
}

#[test]
fn data_url_from_escaped_json() {
    let arena = bumpalo::Bump::new();
    let data = random_bytes(3000, 8);
    let text = STANDARD.encode(&data);
    // PHP style: "data:image\/png;base64,...\/..."
    let raw = json_escape(&format!("data:image/png;base64,{text}"), true, 0);
    let url = DataUrl::parse_json(raw.as_bytes(), true, 100, &arena).unwrap();
    assert_eq!(url.mime_type(), "image/png");
    assert!(url.is_base64());
    assert_eq!(url.payload_offset(), 23);
    assert_eq!(url.decoded().to_vec().unwrap(), data);
    // Header without escapes: nothing goes to the arena.
    let before = arena.allocated_bytes();
    let raw2 = json_escape(
        &format!("data:application/octet-stream;base64,{text}"),
        true,
        0,
    );
    let url = DataUrl::parse_json(raw2.as_bytes(), true, 0, &arena).unwrap();
    assert_eq!(arena.allocated_bytes(), before);
    assert_eq!(url.decoded().to_vec().unwrap(), data);
    // Even the comma may be escaped.
    let url = DataUrl::parse_json(br"data:text\/plain\u002cA%42\u0043", true, 0, &arena).unwrap();
    assert_eq!(url.mime_type(), "text/plain");
    assert_eq!(url.payload_offset(), 22);
    assert_eq!(url.decoded().to_vec().unwrap(), b"ABC");
    // Errors inside the escaped payload count raw bytes from the URL start and the document.
    let url =
        DataUrl::parse_json(br"data:image\/gif;base64,R0lG\u0021ODlh", true, 50, &arena).unwrap();
    let e = url.decoded().to_vec().unwrap_err();
    assert_eq!(e.kind(), DataUrlErrorKind::Base64(K::InvalidChar('!')));
    assert_eq!((e.offset(), e.doc_offset()), (27, 77));
    let e = DataUrl::parse_json(br"data:image\/gif", true, 0, &arena).unwrap_err();
    assert_eq!(e.kind(), DataUrlErrorKind::MissingComma);
    let e = DataUrl::parse_json(br"dat\u0061", true, 0, &arena).unwrap_err();
    assert_eq!(e.kind(), DataUrlErrorKind::NotDataUrl);
    let e = DataUrl::parse_json(br"data:a\q,x", true, 0, &arena).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (DataUrlErrorKind::BadEscape, 6));
    let long = format!("data:{}\\/x,", "a".repeat(5000));
    let e = DataUrl::parse_json(long.as_bytes(), true, 0, &arena).unwrap_err();
    assert_eq!(e.kind(), DataUrlErrorKind::HeaderTooLong);
    // Percent view over escaped text.
    let p = PercentDecoded::new(br"caf%C3%A9 \u00e9\/", true, 0);
    assert_eq!(p.to_vec().unwrap(), "café é/".as_bytes());
    assert_eq!(p.decoded_len().unwrap(), "café é/".len());
}

// ------------------------------------------------------------------------------------------
// Sniffing
// ------------------------------------------------------------------------------------------

fn padded(head: &[u8]) -> Vec<u8> {
    let mut v = head.to_vec();
    v.resize(64, 0);
    v
}

#[test]
fn sniff_each_format() {
    let riff = |form: &[u8]| [b"RIFF\x24\x08\0\0".as_slice(), form].concat();
    let ftyp = |brand: &[u8], compat: &[u8]| {
        let size = (16 + compat.len()) as u32;
        [&size.to_be_bytes()[..], b"ftyp", brand, b"\0\0\0\0", compat].concat()
    };
    let ebml = |doc: &[u8]| {
        [
            &[
                0x1A,
                0x45,
                0xDF,
                0xA3,
                0x9F,
                0x42,
                0x86,
                0x81,
                0x01,
                0x42,
                0x82,
                0x80 | doc.len() as u8,
            ][..],
            doc,
        ]
        .concat()
    };
    let mut bmp = b"BM\x36\x00\x0c\x00\0\0\0\0\x36\0\0\0\x28\0\0\0".to_vec();
    bmp.resize(54, 0);
    let cases: Vec<(Vec<u8>, MediaType)> = vec![
        (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec(), MediaType::Png),
        (b"\xff\xd8\xff\xe0\0\x10JFIF\0".to_vec(), MediaType::Jpeg),
        (b"\xff\xd8\xff\xe1\0\x10Exif\0".to_vec(), MediaType::Jpeg),
        (b"GIF87a\x01\0\x01\0".to_vec(), MediaType::Gif),
        (b"GIF89a\x01\0\x01\0".to_vec(), MediaType::Gif),
        (riff(b"WEBPVP8 "), MediaType::WebP),
        (riff(b"WAVEfmt "), MediaType::Wav),
        (bmp, MediaType::Bmp),
        (b"II*\0\x08\0\0\0".to_vec(), MediaType::Tiff),
        (b"MM\0*\0\0\0\x08".to_vec(), MediaType::Tiff),
        (
            b"\0\0\x01\0\x01\0\x10\x10\0\0\x01\0\x20\0".to_vec(),
            MediaType::Ico,
        ),
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3".to_vec(), MediaType::Pdf),
        (b"ID3\x04\0\0\0\0\0\0".to_vec(), MediaType::Mp3),
        (b"\xff\xfb\x90\x64\0\0".to_vec(), MediaType::Mp3),
        (b"\xff\xf3\x48\xc4\0\0".to_vec(), MediaType::Mp3),
        (b"\xff\xf1\x50\x80\x02\x1f\xfc".to_vec(), MediaType::Aac),
        (b"OggS\0\x02\0\0\0\0".to_vec(), MediaType::Ogg),
        (b"fLaC\0\0\0\x22".to_vec(), MediaType::Flac),
        (ftyp(b"isom", b"isomiso2avc1mp41"), MediaType::Mp4),
        (ftyp(b"mp42", b"mp42isom"), MediaType::Mp4),
        (ftyp(b"3gp4", b""), MediaType::Mp4),
        (ftyp(b"M4A ", b"M4A mp42isom"), MediaType::M4a),
        (ftyp(b"qt  ", b"qt  "), MediaType::QuickTime),
        (ftyp(b"heic", b"mif1heic"), MediaType::Heic),
        (ftyp(b"avif", b"avifmif1"), MediaType::Avif),
        (ftyp(b"mif1", b"mif1avif"), MediaType::Avif),
        (ebml(b"webm"), MediaType::WebM),
        (ebml(b"matroska"), MediaType::Matroska),
        (b"PK\x03\x04\x14\0\0\0".to_vec(), MediaType::Zip),
        (b"PK\x05\x06\0\0\0\0".to_vec(), MediaType::Zip),
    ];
    for (bytes, want) in &cases {
        assert_eq!(sniff(bytes), Some(*want), "{want:?} short");
        assert_eq!(sniff(&padded(bytes)), Some(*want), "{want:?} padded");
        // Through base64, decoding only the head of a long payload.
        let mut long = padded(bytes);
        long.extend(random_bytes(10_000, 9));
        let text = STANDARD.encode(&long);
        assert_eq!(b64(&text).sniff(), Some(*want));
        let esc = json_escape(&text, true, 3);
        assert_eq!(Base64::new(esc.as_bytes(), true, 0).sniff(), Some(*want));
        assert!(mime_matches(want.mime(), *want));
    }
    for junk in [
        &b""[..],
        b"hello world",
        b"BMW is a car",
        b"\0\0\0\0",
        b"RIFF\0\0\0\0AVI ",
        b"\xff\xff\xff",
    ] {
        assert_eq!(sniff(junk), None, "{junk:?}");
    }
    // An invalid base64 head sniffs as nothing.
    assert_eq!(b64("iVBO!w0KGgo=").sniff(), None);
}

#[test]
fn mime_aliases() {
    for (declared, t) in [
        ("image/jpg", MediaType::Jpeg),
        ("image/JPEG", MediaType::Jpeg),
        ("image/pjpeg", MediaType::Jpeg),
        ("audio/x-wav", MediaType::Wav),
        ("audio/wave", MediaType::Wav),
        ("audio/mpeg", MediaType::Mp3),
        ("audio/mp3", MediaType::Mp3),
        ("audio/mp4", MediaType::Mp4),
        ("audio/mp4", MediaType::M4a),
        ("audio/x-m4a", MediaType::M4a),
        ("video/webm;codecs=vp8", MediaType::WebM),
        ("audio/webm; codecs=opus", MediaType::WebM),
        ("audio/ogg; codecs=opus", MediaType::Ogg),
        ("application/ogg", MediaType::Ogg),
        ("audio/x-flac", MediaType::Flac),
        ("image/vnd.microsoft.icon", MediaType::Ico),
        ("image/heif", MediaType::Heic),
        ("application/x-pdf", MediaType::Pdf),
        (" Application/PDF ; version=1.7", MediaType::Pdf),
        (
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            MediaType::Zip,
        ),
        ("application/epub+zip", MediaType::Zip),
    ] {
        assert!(mime_matches(declared, t), "{declared} ~ {t:?}");
    }
    for (declared, t) in [
        ("image/png", MediaType::Jpeg),
        ("image/jpeg", MediaType::Png),
        ("audio/wav", MediaType::Mp3),
        ("video/mp4", MediaType::WebM),
        ("video/webm", MediaType::Matroska),
        ("application/octet-stream", MediaType::Png),
        ("image/jpegx", MediaType::Jpeg),
        ("", MediaType::Pdf),
    ] {
        assert!(!mime_matches(declared, t), "{declared} !~ {t:?}");
    }
}

#[test]
fn huge_document_offsets_do_not_overflow() {
    let e = Base64::new(b"QU*D", false, usize::MAX - 1)
        .validate()
        .unwrap_err();
    assert_eq!((e.offset(), e.doc_offset()), (2, usize::MAX));
    let arena = bumpalo::Bump::new();
    let url = DataUrl::parse_json(b"data:;base64,QU*D", false, usize::MAX, &arena).unwrap();
    assert_eq!(url.decoded().to_vec().unwrap_err().doc_offset(), usize::MAX);
    assert!(
        url.base64()
            .unwrap()
            .chunks(3)
            .all(|c| c.doc_offset() == usize::MAX)
    );
}
