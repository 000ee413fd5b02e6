//! Every string kernel held to the scalar twin on the same bytes: the check behind
//! [`crate::parser::differential::string_kernels_agree`], which the `fast_vs_scalar` fuzz
//! target and the scanner's tests call.

use super::*;

/// Every kernel against the scalar one at `at` (see
/// [`crate::parser::differential::string_kernels_agree`]).
pub(crate) fn kernels_agree(bytes: &[u8], at: usize) -> Result<(), String> {
    let from = at.min(bytes.len());
    let (want, scalar_na) = scalar::find_string_special(bytes, from);
    // The contract is exact in one direction only: a non-ASCII byte before the end must be
    // reported; a byte just past it may be (the scalar twin reads whole words, so it may say
    // `true` where a vector kernel, looking closer, says `false`).
    let want_na = bytes[from..want].iter().any(|&b| b >= 0x80);
    if want_na && !scalar_na {
        return Err(format!(
            "scalar find from {from}: ({want}, false) misses a non-ASCII byte"
        ));
    }
    let mut runs = vec![("dispatch", find_string_special(bytes, from))];
    runs.extend(
        Kernel::available()
            .into_iter()
            .map(|k| ("kernel", k.find(bytes, from))),
    );
    for (name, (end, na)) in runs {
        if end != want || (want_na && !na) {
            return Err(format!(
                "{name} find from {from}: ({end}, {na}), scalar ({want}, {want_na})"
            ));
        }
    }
    // The scan while copying (the chunk-fed parser's), over the next 300 bytes at most (the
    // fuzz target calls this at every offset): the same end, every byte copied.
    let window = &bytes[from..(from + 300).min(bytes.len())];
    let (w_end, w_na) = scalar::find_string_special(window, 0);
    let w_na = w_na && window[..w_end].iter().any(|&b| b >= 0x80);
    for (name, run) in [
        ("copy", copy::copy_string_run as fn(&[u8], &mut [_]) -> _),
        ("copy scalar", copy::scalar),
    ] {
        let mut dst = vec![std::mem::MaybeUninit::new(0u8); window.len()];
        let (end, na) = run(window, &mut dst);
        // SAFETY: every byte of `dst` was initialized (to 0, then maybe written over).
        let copied = dst.iter().map(|b| unsafe { b.assume_init() });
        if end != w_end || (w_na && !na) || !copied.eq(window.iter().copied()) {
            return Err(format!(
                "{name} from {from}: ({end}, {na}), scalar ({w_end}, {w_na}), or a byte not copied"
            ));
        }
    }
    // The short-string look: the closing quote when it is the first special byte of the
    // 16-byte window, with exactly the non-ASCII bytes before it; nothing otherwise.
    let window_end = (from + 16).min(bytes.len());
    let want_short = (bytes.len() >= 16 && from < bytes.len() && want < window_end)
        .then_some(want)
        .filter(|&e| bytes.get(e) == Some(&b'"'))
        .map(|e| (e, bytes[from..e].iter().any(|&b| b >= 0x80)));
    let got_short = short_string_end(bytes, from);
    if got_short != want_short {
        return Err(format!(
            "short_string_end at {from}: {got_short:?}, scalar {want_short:?}"
        ));
    }
    // The same over the whole 16-byte looks that fit, up to four, when 32 bytes are left
    // (else it is the 16-byte look).
    let want_64 = if bytes.len() >= from + 32 {
        let looked = from + 16 * ((bytes.len() - from) / 16).min(4);
        (want < looked && bytes.get(want) == Some(&b'"'))
            .then(|| (want, bytes[from..want].iter().any(|&b| b >= 0x80)))
    } else {
        want_short
    };
    let got_64 = string_end64(bytes, from);
    if got_64 != want_64 {
        return Err(format!(
            "string_end64 at {from}: {got_64:?}, scalar {want_64:?}"
        ));
    }
    if let Some(chunk) = bytes.get(from..from + 16) {
        let chunk: &[u8; 16] = chunk.try_into().map_err(|_| "16 bytes".to_string())?;
        if mask16(chunk) != scalar::mask16(chunk) {
            return Err(format!(
                "mask16 at {from}: {:?}, scalar {:?}",
                mask16(chunk),
                scalar::mask16(chunk)
            ));
        }
        if backslashes16(chunk) != scalar::backslashes16(chunk) {
            return Err(format!(
                "backslashes16 at {from}: {:#x}, scalar {:#x}",
                backslashes16(chunk),
                scalar::backslashes16(chunk)
            ));
        }
    }
    let want_end = scalar::find_line_end(bytes, from);
    let got_end = find_line_end(bytes, from);
    if got_end != want_end {
        return Err(format!(
            "find_line_end from {from}: {got_end:?}, scalar {want_end:?}"
        ));
    }
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 support was just checked.
        let avx = unsafe { avx2::find_line_end(bytes, from) };
        if avx != want_end {
            return Err(format!(
                "avx2 find_line_end from {from}: {avx:?}, scalar {want_end:?}"
            ));
        }
    }
    masks_agree(bytes, from)?;
    let want = scalar::special_mask(bytes, from);
    let got = special_mask(bytes, from);
    if got != want {
        return Err(format!("special_mask at {from}: {got:?}, scalar {want:?}"));
    }
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    if from + BLOCK <= bytes.len() {
        let sse = sse2::special_mask(bytes, from);
        if sse != (want.0, want.2) {
            return Err(format!("sse2 mask at {from}: {sse:?}, scalar {want:?}"));
        }
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 support was just checked, and `from + BLOCK <= bytes.len()`.
            let avx = unsafe { avx2::special_mask(bytes, from) };
            if avx != (want.0, want.2) {
                return Err(format!("avx2 mask at {from}: {avx:?}, scalar {want:?}"));
            }
        }
    }
    Ok(())
}

/// The shape of [`blocks_by_mask`], for [`masks_agree`].
type BlocksFn<'f> = dyn Fn(&[u8], usize, &mut bool, &mut bool) -> Result<usize, usize> + 'f;

/// The escape-by-mask path against the per-bit loop and its kernels against the scalar one,
/// at `from` (part of [`kernels_agree`]): every kernel's [`string_masks`] equal to the scalar
/// twin's; [`blocks_by_mask`] (the dispatch: AVX-512 or AVX2, as the CPU has them) equal to
/// the same loop over the scalar masks, and so are the SSE2 and AVX2 loops; and, at a quote, the scanner with the mask path
/// ([`Cursor::text_string`](crate::scanner::Cursor::text_string)) giving exactly what the
/// per-bit scanner ([`Cursor::string`](crate::scanner::Cursor::string)) gives: the same token
/// and end, or the same error at the same offset.
pub(crate) fn masks_agree(bytes: &[u8], from: usize) -> Result<(), String> {
    let want = (from + BLOCK <= bytes.len()).then(|| scalar::string_masks(bytes, from));
    let got = string_masks(bytes, from);
    if got != want {
        return Err(format!("string_masks at {from}: {got:?}, scalar {want:?}"));
    }
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    if let Some(want) = want {
        let sse = sse2::string_masks(bytes, from);
        if sse != want {
            return Err(format!(
                "sse2 string_masks at {from}: {sse:?}, scalar {want:?}"
            ));
        }
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 support was just checked, and `from + BLOCK <= bytes.len()`.
            let avx = unsafe { avx2::string_masks(bytes, from) };
            if avx != want {
                return Err(format!(
                    "avx2 string_masks at {from}: {avx:?}, scalar {want:?}"
                ));
            }
        }
        if level() >= 3 {
            // SAFETY: level 3 is stored only after the AVX-512 feature tests passed, and
            // `from + BLOCK <= bytes.len()`.
            let avx = unsafe { avx512::string_masks(bytes, from) };
            if avx != want {
                return Err(format!(
                    "avx512 string_masks at {from}: {avx:?}, scalar {want:?}"
                ));
            }
        }
    }
    let run = |f: &BlocksFn<'_>| {
        let (mut e, mut n) = (false, false);
        let r = f(bytes, from, &mut e, &mut n);
        (r, e, n)
    };
    let want = run(&|b, at, e, n| {
        blocks_by_mask_with(b, at, e, n, |b, at| {
            (at + BLOCK <= b.len()).then(|| scalar::string_masks(b, at))
        })
    });
    let utf8_ok = std::cell::Cell::new(false);
    let got = run(&|b, at, e, n| {
        let mut ok = false;
        let r = blocks_by_mask(b, at, e, n, &mut ok);
        utf8_ok.set(ok);
        r
    });
    if got != want {
        return Err(format!(
            "blocks_by_mask from {from}: {got:?}, scalar {want:?}"
        ));
    }
    // A yes from the kernel's own UTF-8 check must be right for the string it found.
    if let (true, (Ok(end), ..)) = (utf8_ok.get(), got)
        && std::str::from_utf8(&bytes[from..end]).is_err()
    {
        return Err(format!(
            "blocks_by_mask from {from}: UTF-8 said valid up to {end}, and it is not"
        ));
    }
    #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
    {
        let sse = run(&|b, at, e, n| {
            blocks_by_mask_with(b, at, e, n, |b, at| {
                (at + BLOCK <= b.len()).then(|| sse2::string_masks(b, at))
            })
        });
        if sse != want {
            return Err(format!(
                "sse2 blocks_by_mask from {from}: {sse:?}, scalar {want:?}"
            ));
        }
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 support was just checked.
            let avx = run(&|b, at, e, n| unsafe { avx2::blocks_by_mask(b, at, e, n) });
            if avx != want {
                return Err(format!(
                    "avx2 blocks_by_mask from {from}: {avx:?}, scalar {want:?}"
                ));
            }
        }
    }
    if bytes.get(from) == Some(&b'"') {
        let mut bits = crate::scanner::Cursor::new(bytes);
        bits.pos = from;
        let mut masks = crate::scanner::Cursor::new(bytes);
        masks.pos = from;
        let summary = |r: crate::error::RawResult<crate::scanner::StrToken<'_>>, pos: usize| {
            r.map(|t| (t.raw.len(), t.start, t.escaped, pos))
        };
        let want = bits.string();
        let want = summary(want, bits.pos);
        let got = masks.text_string();
        let got = summary(got, masks.pos);
        if got != want {
            return Err(format!("text_string at {from}: {got:?}, string {want:?}"));
        }
    }
    Ok(())
}

/// The UTF-8 check of a string's bytes from `at` (what `utf8::valid` takes on this CPU, and
/// the AVX2 kernel where the CPU has it) against std, on ranges that end around each 32-byte
/// chunk edge up to 97 bytes, and at the end of the next 300 bytes (see
/// [`crate::parser::differential::utf8_kernels_agree`]).
pub(crate) fn utf8_agrees(bytes: &[u8], at: usize) -> Result<(), String> {
    let from = at.min(bytes.len());
    let window = &bytes[from..(from + 300).min(bytes.len())];
    let ends = [
        0..=3,
        31..=33,
        63..=65,
        95..=97,
        window.len()..=window.len(),
    ];
    for end in ends.into_iter().flatten().filter(|&e| e <= window.len()) {
        let want = std::str::from_utf8(&window[..end]).is_ok();
        let check = |name: &str, got: bool| {
            (got == want)
                .then_some(())
                .ok_or_else(|| format!("{name} UTF-8 of {from}..{}: {got}, std {want}", from + end))
        };
        check(
            "dispatch",
            crate::scanner::utf8::valid(bytes, from, from + end),
        )?;
        #[cfg(all(target_arch = "x86_64", not(miri), not(agui_wire_force_scalar)))]
        if level() >= 2 {
            // SAFETY: level 2 or more is stored only after the AVX2 feature test passed, and
            // `from + end <= bytes.len()`.
            check("avx2", unsafe { avx2::valid_utf8(bytes, from, from + end) })?;
        }
    }
    Ok(())
}
