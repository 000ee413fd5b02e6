//! Inline media: base64 payloads, `data:` URLs and magic-byte sniffing, without copying.
//!
//! AG-UI media parts carry their bytes inline, as a base64 string in a JSON document
//! (`{"type":"image","source":{"type":"data","value":"iVBOR...","mimeType":"image/png"}}`,
//! or the legacy `binary` part's `data`), sometimes as a `data:` URL. Such strings can be
//! 100 MB and more. This module reads them where they lie in the input buffer:
//!
//! * [`Base64`] is a view over the raw content of a JSON string (the bytes between the
//!   quotes) that validates, measures and decodes it into a caller's buffer, a bump arena or
//!   a `Vec`, or streams it through a small buffer ([`Base64::reader`], [`Base64::chunks`]).
//!   The encoded text is never copied; JSON escapes in it are resolved a few KiB at a time on
//!   the stack.
//! * [`DataUrl`] parses `data:[<mediatype>][;base64],<data>` and hands out the payload as a
//!   [`Base64`] or [`PercentDecoded`] view.
//! * [`sniff()`] recognises common image, audio, video and document formats from their first
//!   bytes, and [`mime_matches`] checks a declared `mimeType` against that, knowing the usual
//!   aliases. [`Base64::sniff`] decodes only the first 64 bytes to do so.
//!
//! ```
//! use agui_wire::media::{Base64, MediaType, mime_matches};
//!
//! // Raw content of the JSON string, its offset in the document, and the parser's flag
//! // saying whether it holds escapes.
//! let raw = br"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
//! let data = Base64::new(raw, false, 1024);
//! assert_eq!(data.sniff(), Some(MediaType::Png));
//! assert!(mime_matches("image/png", MediaType::Png));
//! let png = data.decode_to_vec().unwrap();
//! assert_eq!(png.len(), data.decoded_len().unwrap());
//! ```
//!
//! Piping a large payload through a fixed buffer (here `std::io::copy`'s 8 KiB one), or
//! through buffers the caller owns:
//!
//! ```
//! use agui_wire::media::Base64;
//!
//! let video = Base64::new(b"AAAAIGZ0eXBpc29tAAACAGlzb21pc28yYXZjMW1wNDE=", false, 0);
//! let mut sink = Vec::new();
//! let copied = std::io::copy(&mut video.reader(), &mut sink).unwrap();
//! assert_eq!(copied, 32);
//!
//! let mut buf = [0u8; 12];
//! let mut total = 0;
//! let mut r = video.reader();
//! while let Some(piece) = r.next_into(&mut buf) {
//!     total += piece.unwrap().len(); // forward `piece` here
//! }
//! assert_eq!(total, 32);
//! ```
//!
//! # Which base64 is accepted
//!
//! Everything that produces AG-UI media writes the same form: RFC 4648 §4 with the standard
//! alphabet (`A-Z a-z 0-9 + /`), `=` padding to a multiple of four characters, and no
//! whitespace. That is what Python's `base64.b64encode`, the browser's `btoa`,
//! `FileReader.readAsDataURL` and `canvas.toDataURL`, Node's `Buffer.toString("base64")`,
//! .NET's `Convert.ToBase64String`, Java's `Base64.getEncoder()`, Go's `StdEncoding` and the
//! AG-UI SDKs (which pass those strings through) emit. So the default,
//! [`Base64Mode::Strict`], accepts exactly that and nothing else, and also rejects non-zero
//! unused bits in the last character, as the `base64` crate's `STANDARD` engine does: a
//! string that was cut, joined, line-wrapped or hand-edited is reported instead of being
//! decoded into something different from what was sent, and every accepted text has one
//! meaning, which matters for a proxy that checks content.
//!
//! [`Base64Mode::Forgiving`] implements the WHATWG "forgiving-base64 decode" that `atob()`
//! and browsers' `data:` URLs use: ASCII whitespace is skipped anywhere (so MIME-style
//! line-wrapped text, e.g. from Python's `base64.encodebytes`, is accepted), padding may be
//! left out (but partial padding like `QQ=` is still an error), and unused bits are ignored.
//! It is meant for proxies in front of sloppy clients.
//!
//! The URL-safe alphabet (`-` and `_`, RFC 4648 §5) is rejected in both modes with its own
//! error, [`Base64ErrorKind::UrlSafeChar`], whose message says to re-encode with the standard
//! alphabet: it is not what the protocol carries, and guessing the alphabet per string would
//! make two different texts decode to the same bytes.
//!
//! # JSON escapes
//!
//! A JSON encoder may escape `/` as `\/` (PHP does by default) or write any character as
//! `\u00XX`. When the parser says a string holds escapes, build the view with
//! `escaped = true`: escapes are then read as the characters they stand for (so `\/` is `/`,
//! `\n` is whitespace, and `\"` is an invalid character), through a 4 KiB stack buffer.
//! Error offsets always point into the raw text (at the backslash of an escape).
//!
//! # Speed
//!
//! Validation and decoding run in blocks of 16 or 32 characters with SSSE3 or AVX2 when the
//! CPU has them (detected once, see [`Kernel`]), using nibble lookup tables to translate
//! and check characters in the same step; a scalar kernel is the portable fallback and the
//! reference the SIMD ones are tested against. Padding, whitespace, errors and the last
//! quantum are handled by a small scalar state machine shared by all entry points.

mod base64;
mod data_url;
mod engine;
mod escape;
mod reader;
mod simd;
mod sniff;
mod view;

pub use self::base64::{Base64, Base64Error, Base64ErrorKind, Base64Mode};
pub use self::data_url::{
    DataPayload, DataUrl, DataUrlError, DataUrlErrorKind, Params, PercentDecoded,
};
pub use self::reader::{Base64Reader, Chunks};
pub use self::simd::Kernel;
pub use self::sniff::{MediaType, mime_matches, sniff};
pub use self::view::{
    MediaError, MediaFinding, MediaLocation, MediaView, Severity, check_media, media_parts,
};
