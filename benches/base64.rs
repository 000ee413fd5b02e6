//! Base64 validation and decoding of random payloads, side by side with the `base64` crate
//! and a plain copy of the encoded bytes (the memory-bandwidth ceiling).
//!
//! Throughput is counted in bytes of base64 text read. Every engine's result is checked
//! against the original bytes before it is timed.
//!
//! Run: `cargo bench --bench base64 -- --warm-up-time 1 --measurement-time 2`

use std::hint::black_box;

use agui_wire::media::{Base64, Kernel};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// Deterministic pseudo-random bytes (xorshift64*).
fn random_bytes(len: usize, mut seed: u64) -> Vec<u8> {
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

fn bench_base64(c: &mut Criterion) {
    let mut group = c.benchmark_group("base64");
    group.sample_size(20);
    for (label, size) in [("64KiB", 64 << 10), ("1MiB", 1 << 20), ("16MiB", 16 << 20)] {
        let data = random_bytes(size, 0x9E37_79B9_7F4A_7C15);
        let text = STANDARD.encode(&data);
        // PHP-style JSON: every '/' written as "\/".
        let escaped = text.replace('/', "\\/");
        let mut out = vec![0u8; size];
        let mut copy = vec![0u8; text.len()];

        // Check every engine before timing it.
        let view = Base64::from_str(&text);
        assert_eq!(view.validate(), Ok(()));
        for k in [Kernel::Auto, Kernel::Scalar, Kernel::Ssse3] {
            out.fill(0);
            assert_eq!(view.with_kernel(k).decode_into(&mut out), Ok(size));
            assert!(out == data, "{k:?} decodes wrongly");
        }
        out.fill(0);
        let esc_view = Base64::new(escaped.as_bytes(), true, 0);
        assert_eq!(esc_view.decode_into(&mut out), Ok(size));
        assert!(out == data, "escaped decodes wrongly");
        out.fill(0);
        assert_eq!(STANDARD.decode_slice(text.as_bytes(), &mut out), Ok(size));
        assert!(out == data);

        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("agui validate", label), &text, |b, t| {
            b.iter(|| Base64::from_str(black_box(t)).validate())
        });
        let auto = format!("agui decode_into ({})", Kernel::detected().name());
        group.bench_with_input(BenchmarkId::new(auto, label), &text, |b, t| {
            b.iter(|| Base64::from_str(black_box(t)).decode_into(black_box(&mut out)))
        });
        if Kernel::Ssse3.is_available() && Kernel::detected() != Kernel::Ssse3 {
            group.bench_with_input(
                BenchmarkId::new("agui decode_into (ssse3)", label),
                &text,
                |b, t| {
                    b.iter(|| {
                        Base64::from_str(black_box(t))
                            .with_kernel(Kernel::Ssse3)
                            .decode_into(black_box(&mut out))
                    })
                },
            );
        }
        group.bench_with_input(
            BenchmarkId::new("agui decode_into (scalar)", label),
            &text,
            |b, t| {
                b.iter(|| {
                    Base64::from_str(black_box(t))
                        .with_kernel(Kernel::Scalar)
                        .decode_into(black_box(&mut out))
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("agui decode_into escaped \\/", label),
            &escaped,
            |b, t| {
                b.iter(|| {
                    Base64::new(black_box(t.as_bytes()), true, 0).decode_into(black_box(&mut out))
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("base64 crate decode_slice", label),
            &text,
            |b, t| b.iter(|| STANDARD.decode_slice(black_box(t.as_bytes()), black_box(&mut out))),
        );
        group.bench_with_input(
            BenchmarkId::new("memcpy of the text", label),
            &text,
            |b, t| b.iter(|| black_box(&mut copy[..]).copy_from_slice(black_box(t.as_bytes()))),
        );
    }
    group.finish();
}

criterion_group!(benches, bench_base64);
criterion_main!(benches);
