//! Media type sniffing from magic bytes, and matching declared MIME types against it.
//!
//! [`sniff`] looks only at the first bytes (64 are always enough) and recognises the formats
//! an agent's media parts carry: images, audio, video, PDF and ZIP-based documents. It is
//! meant for checking that a declared `mimeType` is plausible, not for parsing the files: a
//! `Some` means the signature matches, not that the file is well formed.

/// A media type recognised by [`sniff`].
///
/// ```
/// use agui_wire::media::MediaType;
/// assert_eq!(MediaType::Jpeg.mime(), "image/jpeg");
/// assert_eq!(MediaType::Jpeg.extension(), "jpg");
/// assert_eq!(MediaType::from_mime("image/JPG"), Some(MediaType::Jpeg));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MediaType {
    /// PNG (and APNG).
    Png,
    /// JPEG / JFIF / Exif.
    Jpeg,
    /// GIF 87a or 89a.
    Gif,
    /// WebP (RIFF container).
    WebP,
    /// Windows bitmap.
    Bmp,
    /// TIFF, either byte order.
    Tiff,
    /// Windows icon.
    Ico,
    /// AVIF (ISO-BMFF `ftyp` with an AV1 image brand).
    Avif,
    /// HEIC / HEIF (ISO-BMFF `ftyp` with an HEVC image brand).
    Heic,
    /// PDF.
    Pdf,
    /// WAVE audio (RIFF container).
    Wav,
    /// MPEG audio: an ID3v2 tag or an MPEG-1/2 layer I-III frame header.
    Mp3,
    /// AAC in ADTS frames.
    Aac,
    /// Ogg container (Vorbis, Opus, Theora...).
    Ogg,
    /// FLAC.
    Flac,
    /// MPEG-4 audio (`ftyp` brand `M4A `, `M4B `, `M4P `).
    M4a,
    /// MPEG-4 / 3GPP (any other `ftyp` brand).
    Mp4,
    /// QuickTime movie (`ftyp` brand `qt  `).
    QuickTime,
    /// WebM (EBML with DocType `webm`).
    WebM,
    /// Matroska (EBML with DocType `matroska`, or no DocType in the first bytes).
    Matroska,
    /// ZIP archive, which includes DOCX/XLSX/PPTX, ODF and EPUB documents.
    Zip,
}

impl MediaType {
    /// Every variant, for iteration.
    ///
    /// ```
    /// use agui_wire::media::MediaType;
    /// assert!(MediaType::ALL.iter().all(|t| MediaType::from_mime(t.mime()) == Some(*t)));
    /// ```
    pub const ALL: [MediaType; 21] = [
        MediaType::Png,
        MediaType::Jpeg,
        MediaType::Gif,
        MediaType::WebP,
        MediaType::Bmp,
        MediaType::Tiff,
        MediaType::Ico,
        MediaType::Avif,
        MediaType::Heic,
        MediaType::Pdf,
        MediaType::Wav,
        MediaType::Mp3,
        MediaType::Aac,
        MediaType::Ogg,
        MediaType::Flac,
        MediaType::M4a,
        MediaType::Mp4,
        MediaType::QuickTime,
        MediaType::WebM,
        MediaType::Matroska,
        MediaType::Zip,
    ];

    /// The canonical MIME type (IANA registration where there is one, else the name browsers
    /// use).
    ///
    /// ```
    /// use agui_wire::media::MediaType;
    /// assert_eq!(MediaType::Wav.mime(), "audio/wav");
    /// assert_eq!(MediaType::Mp3.mime(), "audio/mpeg");
    /// ```
    pub const fn mime(self) -> &'static str {
        match self {
            MediaType::Png => "image/png",
            MediaType::Jpeg => "image/jpeg",
            MediaType::Gif => "image/gif",
            MediaType::WebP => "image/webp",
            MediaType::Bmp => "image/bmp",
            MediaType::Tiff => "image/tiff",
            MediaType::Ico => "image/x-icon",
            MediaType::Avif => "image/avif",
            MediaType::Heic => "image/heic",
            MediaType::Pdf => "application/pdf",
            MediaType::Wav => "audio/wav",
            MediaType::Mp3 => "audio/mpeg",
            MediaType::Aac => "audio/aac",
            MediaType::Ogg => "audio/ogg",
            MediaType::Flac => "audio/flac",
            MediaType::M4a => "audio/mp4",
            MediaType::Mp4 => "video/mp4",
            MediaType::QuickTime => "video/quicktime",
            MediaType::WebM => "video/webm",
            MediaType::Matroska => "video/x-matroska",
            MediaType::Zip => "application/zip",
        }
    }

    /// The usual file extension, without the dot.
    ///
    /// ```
    /// assert_eq!(agui_wire::media::MediaType::QuickTime.extension(), "mov");
    /// ```
    pub const fn extension(self) -> &'static str {
        match self {
            MediaType::Png => "png",
            MediaType::Jpeg => "jpg",
            MediaType::Gif => "gif",
            MediaType::WebP => "webp",
            MediaType::Bmp => "bmp",
            MediaType::Tiff => "tiff",
            MediaType::Ico => "ico",
            MediaType::Avif => "avif",
            MediaType::Heic => "heic",
            MediaType::Pdf => "pdf",
            MediaType::Wav => "wav",
            MediaType::Mp3 => "mp3",
            MediaType::Aac => "aac",
            MediaType::Ogg => "ogg",
            MediaType::Flac => "flac",
            MediaType::M4a => "m4a",
            MediaType::Mp4 => "mp4",
            MediaType::QuickTime => "mov",
            MediaType::WebM => "webm",
            MediaType::Matroska => "mkv",
            MediaType::Zip => "zip",
        }
    }

    /// Other names in use for the same bytes (lowercase), besides [`MediaType::mime`].
    ///
    /// Container formats list the names of what they commonly hold: an `.m4a` file often
    /// carries a generic MP4 brand, so `audio/mp4` is an alias of [`MediaType::Mp4`] too.
    ///
    /// ```
    /// use agui_wire::media::MediaType;
    /// assert!(MediaType::Jpeg.aliases().contains(&"image/jpg"));
    /// ```
    pub const fn aliases(self) -> &'static [&'static str] {
        match self {
            MediaType::Png => &["image/apng", "image/x-png"],
            MediaType::Jpeg => &["image/jpg", "image/pjpeg", "image/jfif"],
            MediaType::Gif => &[],
            MediaType::WebP => &[],
            MediaType::Bmp => &["image/x-bmp", "image/x-ms-bmp"],
            MediaType::Tiff => &["image/tif", "image/x-tiff"],
            MediaType::Ico => &["image/vnd.microsoft.icon", "image/ico", "image/icon"],
            MediaType::Avif => &["image/avif-sequence"],
            MediaType::Heic => &["image/heif", "image/heic-sequence", "image/heif-sequence"],
            MediaType::Pdf => &["application/x-pdf"],
            MediaType::Wav => &[
                "audio/x-wav",
                "audio/wave",
                "audio/vnd.wave",
                "audio/x-pn-wav",
            ],
            MediaType::Mp3 => &[
                "audio/mp3",
                "audio/mpeg3",
                "audio/x-mpeg",
                "audio/x-mp3",
                "audio/x-mpeg-3",
            ],
            MediaType::Aac => &["audio/x-aac", "audio/aacp"],
            MediaType::Ogg => &["application/ogg", "video/ogg", "audio/x-ogg"],
            MediaType::Flac => &["audio/x-flac"],
            MediaType::M4a => &["audio/x-m4a", "audio/m4a", "application/mp4"],
            MediaType::Mp4 => &[
                "audio/mp4",
                "application/mp4",
                "video/x-m4v",
                "audio/x-m4a",
                "audio/m4a",
                "video/3gpp",
                "audio/3gpp",
                "video/3gpp2",
                "audio/3gpp2",
            ],
            MediaType::QuickTime => &[],
            MediaType::WebM => &["audio/webm", "video/x-matroska", "audio/x-matroska"],
            MediaType::Matroska => &["audio/x-matroska", "video/matroska", "audio/matroska"],
            MediaType::Zip => &[
                "application/x-zip-compressed",
                "application/x-zip",
                "application/epub+zip",
                "application/java-archive",
                "application/vnd.android.package-archive",
            ],
        }
    }

    /// Families of document types that are ZIP archives.
    const fn prefix_aliases(self) -> &'static [&'static str] {
        match self {
            MediaType::Zip => &[
                "application/vnd.openxmlformats-officedocument.",
                "application/vnd.oasis.opendocument.",
                "application/vnd.ms-word.",
                "application/vnd.ms-excel.",
                "application/vnd.ms-powerpoint.",
            ],
            _ => &[],
        }
    }

    /// The media type a MIME name stands for (canonical names first, then aliases),
    /// ignoring case and parameters.
    ///
    /// ```
    /// use agui_wire::media::MediaType;
    /// assert_eq!(MediaType::from_mime("audio/x-wav; rate=8000"), Some(MediaType::Wav));
    /// assert_eq!(MediaType::from_mime("text/plain"), None);
    /// ```
    pub fn from_mime(name: &str) -> Option<MediaType> {
        let essence = essence(name);
        MediaType::ALL
            .into_iter()
            .find(|t| t.mime().eq_ignore_ascii_case(essence))
            .or_else(|| MediaType::ALL.into_iter().find(|t| t.is_alias(essence)))
    }

    fn is_alias(self, essence: &str) -> bool {
        self.aliases()
            .iter()
            .any(|a| a.eq_ignore_ascii_case(essence))
            || self.prefix_aliases().iter().any(|p| {
                essence
                    .get(..p.len())
                    .is_some_and(|head| head.eq_ignore_ascii_case(p))
            })
    }
}

/// The `type/subtype` part of a MIME type: before any `;`, trimmed.
fn essence(mime: &str) -> &str {
    mime.split(';')
        .next()
        .unwrap_or_default()
        .trim_matches(|c: char| c.is_ascii_whitespace())
}

/// Whether a declared MIME type (e.g. a part's `mimeType`) names what the bytes were
/// sniffed as: the canonical name or an alias, ignoring case and parameters.
///
/// Generic types such as `application/octet-stream` do not match anything: decide
/// separately whether to accept them.
///
/// ```
/// use agui_wire::media::{mime_matches, MediaType};
/// assert!(mime_matches("image/jpg", MediaType::Jpeg));
/// assert!(mime_matches("Audio/X-WAV", MediaType::Wav));
/// assert!(mime_matches("audio/mp3", MediaType::Mp3));
/// assert!(mime_matches("video/webm; codecs=\"vp9, opus\"", MediaType::WebM));
/// assert!(!mime_matches("image/png", MediaType::Jpeg));
/// ```
pub fn mime_matches(declared: &str, sniffed: MediaType) -> bool {
    let essence = essence(declared);
    sniffed.mime().eq_ignore_ascii_case(essence) || sniffed.is_alias(essence)
}

fn u16_le(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_le(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn u32_be(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// `RIFF <size> <form>`.
fn riff(b: &[u8], form: &[u8; 4]) -> bool {
    b.starts_with(b"RIFF") && b.get(8..12) == Some(form.as_slice())
}

/// ISO base media file format (MP4, MOV, HEIF, AVIF...): the first box is `ftyp`.
fn ftyp(b: &[u8]) -> Option<MediaType> {
    let size = u32_be(b, 0)? as usize;
    if b.get(4..8)? != b"ftyp" || size < 12 {
        return None;
    }
    let major: [u8; 4] = b.get(8..12)?.try_into().ok()?;
    let brands = b.get(16..size.min(b.len())).unwrap_or_default();
    let compatible = |x: &[u8; 4]| brands.as_chunks::<4>().0.contains(x);
    Some(match &major {
        b"avif" | b"avis" => MediaType::Avif,
        b"heic" | b"heix" | b"heim" | b"heis" | b"hevc" | b"hevx" => MediaType::Heic,
        b"mif1" | b"msf1" => {
            if compatible(b"avif") || compatible(b"avis") {
                MediaType::Avif
            } else {
                MediaType::Heic
            }
        }
        b"qt  " => MediaType::QuickTime,
        b"M4A " | b"M4B " | b"M4P " => MediaType::M4a,
        _ => MediaType::Mp4,
    })
}

/// Reads an EBML variable-length integer: `(value, length)`.
fn vint(b: &[u8]) -> Option<(u64, usize)> {
    let first = *b.first()?;
    let len = first.leading_zeros() as usize + 1;
    if len > 8 {
        return None;
    }
    let mut v = u64::from(first) & (0xFF >> len);
    for &x in b.get(1..len)? {
        v = (v << 8) | u64::from(x);
    }
    Some((v, len))
}

/// EBML (Matroska, WebM): the DocType element (ID `42 82`) in the header says which.
fn ebml(b: &[u8]) -> MediaType {
    let doc_type = b.windows(2).position(|w| w == [0x42, 0x82]).and_then(|p| {
        let rest = b.get(p + 2..)?;
        let (len, n) = vint(rest)?;
        rest.get(n..n + usize::try_from(len).ok()?)
    });
    match doc_type {
        Some(b"webm") => MediaType::WebM,
        _ => MediaType::Matroska,
    }
}

/// `BM`, zero reserved fields and a known DIB header size.
fn bmp(b: &[u8]) -> bool {
    b.starts_with(b"BM")
        && u32_le(b, 6) == Some(0)
        && matches!(u32_le(b, 14), Some(12 | 16 | 40 | 52 | 56 | 64 | 108 | 124))
}

/// Icon directory: reserved 0, type 1, at least one image, first entry's reserved byte 0.
fn ico(b: &[u8]) -> bool {
    b.starts_with(&[0, 0, 1, 0])
        && u16_le(b, 4).is_some_and(|n| n > 0)
        && b.get(9).is_none_or(|&r| r == 0)
}

/// MPEG-1/2/2.5 audio frame header, layers I-III.
fn mpeg_audio_frame(b: &[u8]) -> bool {
    let (Some(&b0), Some(&b1), Some(&b2)) = (b.first(), b.get(1), b.get(2)) else {
        return false;
    };
    let version = (b1 >> 3) & 3;
    let layer = (b1 >> 1) & 3;
    let bitrate = b2 >> 4;
    let rate = (b2 >> 2) & 3;
    b0 == 0xFF && b1 & 0xE0 == 0xE0 && version != 1 && layer != 0 && bitrate != 0xF && rate != 3
}

/// AAC ADTS frame header: 12-bit sync, layer 0.
fn adts(b: &[u8]) -> bool {
    matches!((b.first(), b.get(1)), (Some(0xFF), Some(&b1)) if b1 & 0xF6 == 0xF0)
}

/// Guesses the media type from the first bytes of a file (64 bytes are enough).
///
/// ```
/// use agui_wire::media::{sniff, MediaType};
/// assert_eq!(sniff(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"), Some(MediaType::Png));
/// assert_eq!(sniff(b"%PDF-1.7\n"), Some(MediaType::Pdf));
/// assert_eq!(sniff(b"hello"), None);
/// ```
pub fn sniff(b: &[u8]) -> Option<MediaType> {
    use MediaType as M;
    let starts = |p: &[u8]| b.starts_with(p);
    Some(if starts(b"\x89PNG\r\n\x1a\n") {
        M::Png
    } else if starts(&[0xFF, 0xD8, 0xFF]) {
        M::Jpeg
    } else if starts(b"GIF87a") || starts(b"GIF89a") {
        M::Gif
    } else if riff(b, b"WEBP") {
        M::WebP
    } else if riff(b, b"WAVE") {
        M::Wav
    } else if starts(b"%PDF-") {
        M::Pdf
    } else if starts(b"II*\0") || starts(b"MM\0*") {
        M::Tiff
    } else if starts(b"OggS\0") {
        M::Ogg
    } else if starts(b"fLaC") {
        M::Flac
    } else if starts(b"ID3") && b.get(3).is_none_or(|&v| v < 0xFF) {
        M::Mp3
    } else if starts(&[0x1A, 0x45, 0xDF, 0xA3]) {
        ebml(b)
    } else if starts(b"PK\x03\x04") || starts(b"PK\x05\x06") || starts(b"PK\x07\x08") {
        M::Zip
    } else if let Some(t) = ftyp(b) {
        t
    } else if bmp(b) {
        M::Bmp
    } else if ico(b) {
        M::Ico
    } else if mpeg_audio_frame(b) {
        M::Mp3
    } else if adts(b) {
        M::Aac
    } else {
        return None;
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn essence_and_aliases() {
        assert_eq!(essence("  image/png ; charset=x"), "image/png");
        assert!(mime_matches("IMAGE/PNG", MediaType::Png));
        assert!(mime_matches(
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            MediaType::Zip
        ));
        assert!(!mime_matches("application/octet-stream", MediaType::Zip));
        assert!(!mime_matches("application/vnd", MediaType::Zip));
        assert!(!mime_matches("", MediaType::Png));
        for t in MediaType::ALL {
            assert!(mime_matches(t.mime(), t));
            for a in t.aliases() {
                assert!(mime_matches(a, t), "{a} ~ {t:?}");
                assert_eq!(a.to_ascii_lowercase(), *a);
            }
        }
    }

    #[test]
    fn vints() {
        assert_eq!(vint(&[0x84]), Some((4, 1)));
        assert_eq!(vint(&[0x40, 0x02]), Some((2, 2)));
        assert_eq!(vint(&[0x00]), None);
        assert_eq!(vint(&[0x40]), None);
    }

    #[test]
    fn no_panic_on_short_or_odd_input() {
        for len in 0..16 {
            for fill in [0x00, 0xFF, b'R', 0x1A] {
                let _ = sniff(&vec![fill; len]);
            }
        }
        // An ftyp box whose size is far larger than the input.
        assert_eq!(
            sniff(b"\xff\xff\xff\xffftypmif1\0\0\0\0"),
            Some(MediaType::Heic)
        );
        assert_eq!(sniff(b"\0\0\0\x08ftypisom"), None);
        // EBML DocType with a length past the end.
        assert_eq!(
            sniff(&[0x1A, 0x45, 0xDF, 0xA3, 0x42, 0x82, 0x88, b'w']),
            Some(MediaType::Matroska)
        );
    }
}
