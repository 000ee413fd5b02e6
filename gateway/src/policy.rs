//! The request policies: inline media offloaded to files, encrypted values stripped.
//! A body no policy changes is forwarded as it came, byte for byte.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use agui_wire::media::MediaView;
use agui_wire::{Bump, InputContent, MediaInputContent};
use blake2::{Blake2b, Digest, digest::consts::U16};
use bytes::Bytes;

use crate::body::Checked;
use crate::reject::Rejection;

/// What to do to a valid body before forwarding it. Shared by all requests; `Send + Sync`.
///
/// ```
/// use agui_gateway::body::BodyCheck;
/// use agui_gateway::policy::Policy;
/// use agui_wire::ParseOptions;
/// let body = br#"{"threadId":"t","runId":"r","messages":[
///   {"id":"m1","role":"assistant","content":"hi","encryptedValue":"c2VjcmV0"}]}"#;
/// let checked = |body: &[u8]| {
///     let mut check = BodyCheck::new(ParseOptions::default(), None)?;
///     check.feed(body)?;
///     check.finish()
/// };
///
/// // No policy: the body is forwarded byte for byte.
/// let none = Policy::default();
/// assert!(!none.edits());
/// assert_eq!(&none.apply(checked(body)?)?[..], body);
///
/// // Encrypted values stripped.
/// let strip = Policy { strip_encrypted: true, ..Policy::default() };
/// let out = strip.apply(checked(body)?)?;
/// assert!(!String::from_utf8_lossy(&out).contains("encryptedValue"));
/// # Ok::<(), agui_gateway::reject::Rejection>(())
/// ```
///
/// With `media: Some((dir, url))` every inline media part is written to `dir` (named by a
/// hash of its bytes) and its source becomes a `url` source pointing at `url/NAME`.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    /// Folder for offloaded media and the URL it is served at (no trailing `/`).
    pub media: Option<(PathBuf, String)>,
    /// Remove `encryptedValue` from messages.
    pub strip_encrypted: bool,
}

impl Policy {
    /// Whether any policy may edit a body (else bodies are forwarded untouched, unparsed twice).
    ///
    /// ```
    /// use agui_gateway::policy::Policy;
    /// assert!(!Policy::default().edits());
    /// assert!(Policy { strip_encrypted: true, ..Policy::default() }.edits());
    /// ```
    pub fn edits(&self) -> bool {
        self.media.is_some() || self.strip_encrypted
    }

    /// The body to forward. Blocking (it writes files): run it off the async workers.
    ///
    /// Refused (`400`) when a media part cannot be decoded or written. See [`Policy`] for an
    /// example.
    pub fn apply(&self, checked: Checked) -> Result<Bytes, Rejection> {
        if !self.edits() {
            return Ok(checked.into_bytes());
        }
        let (bytes, _changes) = checked.edit(|input| {
            let mut changes = 0;
            if let Some((dir, base)) = &self.media {
                changes += offload(input, dir, base)?;
            }
            if self.strip_encrypted {
                changes += input.strip_encrypted_values();
            }
            Ok::<usize, Rejection>(changes)
        })?;
        Ok(bytes)
    }
}

/// Writes every inline media part to `dir` (named by a hash of its bytes, so equal media are
/// stored once and concurrent requests never collide) and points its source at `base/NAME`.
fn offload(
    input: &mut agui_wire::RunAgentInput<'_>,
    dir: &Path,
    base: &str,
) -> Result<usize, Rejection> {
    let mut failure = None;
    let n = input.offload_media(|path, media| {
        if failure.is_some() {
            return None;
        }
        match store(media, dir) {
            Ok(name) => Some(format!("{base}/{name}")),
            Err(e) => {
                failure = Some(Rejection::invalid(
                    format!("cannot offload the media part: {e}"),
                    format!("messages[{}].content[{}]", path.message, path.part),
                ));
                None
            }
        }
    });
    match failure {
        Some(f) => Err(f),
        None => Ok(n),
    }
}

/// Numbers temporary files.
static TMP: AtomicU64 = AtomicU64::new(0);

/// Decodes one inline part and writes it; returns the file name.
fn store(media: &MediaInputContent<'_>, dir: &Path) -> Result<String, String> {
    let part = InputContent::Image(MediaInputContent {
        source: media.source.clone(),
        ..Default::default()
    });
    let arena = Bump::new();
    let view = MediaView::of(&part, b"", &arena)
        .ok_or("not a media part")?
        .map_err(|e| e.to_string())?;
    let data = view
        .decode_to_vec()
        .map_err(|e| e.to_string())?
        .ok_or("the bytes are not inline")?;
    let sniffed = view.sniff().map(|t| t.mime().to_string());
    let declared = view.mime_type().map(str::to_string);
    let ext = extension(declared.as_deref().or(sniffed.as_deref()));
    let digest = Blake2b::<U16>::digest(&data);
    let mut name = String::with_capacity(40);
    for b in digest {
        let _ = write!(name, "{b:02x}");
    }
    name.push('.');
    name.push_str(ext);
    let file = dir.join(&name);
    if !file.exists() {
        // Written under a temporary name and renamed, so a reader never sees half a file.
        let unique = TMP.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{name}.{}.{unique}", std::process::id()));
        std::fs::write(&tmp, &data).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, &file)
            .map_err(|e| format!("cannot rename to {}: {e}", file.display()))?;
    }
    Ok(name)
}

/// A file extension for a MIME type.
fn extension(mime: Option<&str>) -> &'static str {
    match mime.unwrap_or("") {
        "image/png" => "png",
        "image/jpeg" => "jpg",
        "image/gif" => "gif",
        "image/webp" => "webp",
        "audio/mpeg" => "mp3",
        "audio/wav" | "audio/x-wav" => "wav",
        "video/mp4" => "mp4",
        "application/pdf" => "pdf",
        "text/plain" => "txt",
        _ => "bin",
    }
}
