//! [`BodyBuf`]: an append-only byte buffer whose bytes never move.

use std::alloc::{Layout, alloc, dealloc, handle_alloc_error};
use std::cell::UnsafeCell;
use std::fmt;
use std::ptr::NonNull;

/// An append-only byte buffer that can grow through a shared reference, and whose bytes never
/// move or change once appended.
///
/// This is what lets a [`BodyParser`](super::BodyParser) keep the messages it has parsed
/// while the body is still arriving: they borrow the buffer, and appending more bytes does not
/// invalidate them. A `Vec<u8>` cannot do this (growing it needs `&mut` and may move its
/// bytes). When the buffer outgrows its block it copies its bytes into a larger one, as a
/// `Vec` does, but keeps the old block alive until [`BodyBuf::clear`] or drop, so that every
/// slice handed out stays valid. Give the expected size up front and there is a single block:
/// from `Content-Length`, use [`BodyBuf::try_with_capacity`] with the size capped by the
/// largest body you accept (a client can send any number there).
///
/// ```
/// use agui_wire::stream::BodyBuf;
/// let buf = BodyBuf::new();
/// buf.extend_from_slice(b"{\"threadId\":");
/// let head = buf.as_bytes();
/// buf.extend_from_slice(&[b' '; 10_000]); // outgrows the first block
/// assert_eq!(head, b"{\"threadId\":"); // still valid, still the same bytes
/// assert_eq!(buf.len(), 12 + 10_000);
/// ```
pub struct BodyBuf {
    raw: UnsafeCell<Raw>,
}

struct Raw {
    /// The current block: `len` initialised bytes, `cap` in all.
    ptr: NonNull<u8>,
    len: usize,
    cap: usize,
    /// Earlier blocks (pointer, capacity, bytes it held), kept until `clear` or drop because
    /// slices handed out may still point into them.
    retired: Vec<(NonNull<u8>, usize, usize)>,
}

/// The first block when no capacity was given.
const MIN_BLOCK: usize = 4096;

fn allocate(cap: usize) -> NonNull<u8> {
    match try_allocate(cap) {
        Ok(p) => p,
        Err(None) => capacity_overflow(),
        Err(Some(layout)) => handle_alloc_error(layout),
    }
}

/// A block of `cap` bytes, or why not: `None` if no layout has that size, else the layout the
/// allocator refused.
fn try_allocate(cap: usize) -> Result<NonNull<u8>, Option<Layout>> {
    if cap == 0 {
        return Ok(NonNull::dangling());
    }
    let layout = Layout::array::<u8>(cap).map_err(|_| None)?;
    // SAFETY: `layout` has a non-zero size (`cap > 0`).
    let p = unsafe { alloc(layout) };
    NonNull::new(p).ok_or(Some(layout))
}

/// A [`BodyBuf`] could not get the block it was asked for (the size is more than the
/// allocator can give, or more than any allocation may be).
///
/// ```
/// use agui_wire::stream::BodyBuf;
/// let err = BodyBuf::try_with_capacity(usize::MAX).unwrap_err();
/// assert_eq!(err.requested(), usize::MAX);
/// assert!(err.to_string().contains("bytes"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CapacityError {
    requested: usize,
}

impl CapacityError {
    /// The capacity asked for, in bytes.
    ///
    /// ```
    /// # use agui_wire::stream::BodyBuf;
    /// assert_eq!(BodyBuf::try_with_capacity(1 << 62).unwrap_err().requested(), 1 << 62);
    /// ```
    pub fn requested(&self) -> usize {
        self.requested
    }
}

impl fmt::Display for CapacityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot allocate a body buffer of {} bytes",
            self.requested
        )
    }
}

impl std::error::Error for CapacityError {}

/// # Safety
/// `ptr` must come from `allocate(cap)` and not have been freed.
unsafe fn free(ptr: NonNull<u8>, cap: usize) {
    if cap != 0 {
        // SAFETY: `allocate` made this block with exactly this layout (the caller's promise);
        // `Layout::array` succeeded then, so it succeeds now.
        unsafe { dealloc(ptr.as_ptr(), Layout::array::<u8>(cap).unwrap_unchecked()) };
    }
}

#[cold]
fn capacity_overflow() -> ! {
    panic!("BodyBuf capacity overflow")
}

// SAFETY: a `BodyBuf` owns its blocks exclusively (as a `Vec<u8>` does) and holds no
// thread-bound state, so it can move to another thread. It is not `Sync` (the `UnsafeCell`):
// appending through `&self` is only sound on one thread.
unsafe impl Send for BodyBuf {}

impl BodyBuf {
    /// An empty buffer; the first append allocates.
    ///
    /// ```
    /// # use agui_wire::stream::BodyBuf;
    /// assert!(BodyBuf::new().is_empty());
    /// ```
    pub fn new() -> BodyBuf {
        BodyBuf::with_capacity(0)
    }

    /// An empty buffer with room for `capacity` bytes: a body of at most that size is kept in
    /// one block, never copied.
    ///
    /// ```
    /// # use agui_wire::stream::BodyBuf;
    /// let buf = BodyBuf::with_capacity(1 << 20);
    /// assert!(buf.capacity() >= 1 << 20);
    /// ```
    ///
    /// Like `Vec::with_capacity`, this aborts the process when the allocator cannot give the
    /// block: for a size taken from a request (`Content-Length`), use
    /// [`BodyBuf::try_with_capacity`], and cap it by the largest body you accept.
    pub fn with_capacity(capacity: usize) -> BodyBuf {
        BodyBuf::from_block(allocate(capacity), capacity)
    }

    /// An empty buffer with room for `capacity` bytes, or an error if that much memory cannot
    /// be had (never an abort).
    ///
    /// ```
    /// use agui_wire::stream::BodyBuf;
    /// assert!(BodyBuf::try_with_capacity(1 << 16)?.capacity() >= 1 << 16);
    /// // 100 GB from a hostile Content-Length: an error, not an abort.
    /// assert!(BodyBuf::try_with_capacity(1 << 62).is_err());
    /// # Ok::<(), agui_wire::stream::CapacityError>(())
    /// ```
    pub fn try_with_capacity(capacity: usize) -> Result<BodyBuf, CapacityError> {
        match try_allocate(capacity) {
            Ok(ptr) => Ok(BodyBuf::from_block(ptr, capacity)),
            Err(_) => Err(CapacityError {
                requested: capacity,
            }),
        }
    }

    fn from_block(ptr: NonNull<u8>, cap: usize) -> BodyBuf {
        BodyBuf {
            raw: UnsafeCell::new(Raw {
                ptr,
                len: 0,
                cap,
                retired: Vec::new(),
            }),
        }
    }

    fn raw(&self) -> &Raw {
        // SAFETY: the only `&mut Raw` is made inside `extend_from_slice` and `reserve`, which
        // run no foreign code while they hold it, and the type is not `Sync`, so no `&mut Raw`
        // is live while this shared one is.
        unsafe { &*self.raw.get() }
    }

    /// Appends `bytes`. Slices from [`BodyBuf::as_bytes`] taken before stay valid and
    /// unchanged.
    ///
    /// ```
    /// # use agui_wire::stream::BodyBuf;
    /// let buf = BodyBuf::with_capacity(4);
    /// buf.extend_from_slice(b"ab");
    /// let ab = buf.as_bytes();
    /// buf.extend_from_slice(b"cdef");
    /// assert_eq!((ab, buf.as_bytes()), (&b"ab"[..], &b"abcdef"[..]));
    /// ```
    pub fn extend_from_slice(&self, bytes: &[u8]) {
        self.reserve(bytes.len());
        // SAFETY: see `raw`: no other reference to the `Raw` is live while this one is (this
        // function calls no foreign code), and slices handed out point into the blocks, not
        // into the `Raw`.
        let raw = unsafe { &mut *self.raw.get() };
        // SAFETY: `reserve` made `len + bytes.len() <= cap`, so the destination lies inside the
        // current block, in its unused part. No slice handed out covers it: they cover at most
        // the first `len` bytes of some block. For the same reason `bytes` cannot overlap it,
        // even when it is a slice of this very buffer (then it lies in written bytes, possibly
        // of a retired block, which stays allocated).
        unsafe {
            std::ptr::copy_nonoverlapping(
                bytes.as_ptr(),
                raw.ptr.as_ptr().add(raw.len),
                bytes.len(),
            );
        }
        raw.len += bytes.len();
    }

    /// [`BodyBuf::extend_from_slice`] for bytes that continue a JSON string: scans them for
    /// the string's end as they are copied (see [`copy_string_run`]), and returns the offset in
    /// `bytes` of the first quote, backslash or control byte (`bytes.len()` if none) and whether
    /// a byte from 0x80 may come before it.
    ///
    /// [`copy_string_run`]: crate::scanner::simd::copy::copy_string_run
    pub(crate) fn extend_scanning_string(&self, bytes: &[u8]) -> (usize, bool) {
        self.reserve(bytes.len());
        // SAFETY: as in `extend_from_slice`, this is the only live reference to the `Raw`.
        let raw = unsafe { &mut *self.raw.get() };
        // SAFETY: `reserve` made `len + bytes.len() <= cap`: the `bytes.len()` bytes after the
        // first `len` lie in the current block's unused part, which no slice handed out covers
        // and `bytes` cannot overlap (see `extend_from_slice`). Uninitialised bytes are valid
        // `MaybeUninit<u8>`s.
        let spare: &mut [std::mem::MaybeUninit<u8>] = unsafe {
            std::slice::from_raw_parts_mut(raw.ptr.as_ptr().add(raw.len).cast(), bytes.len())
        };
        let found = crate::scanner::simd::copy::copy_string_run(bytes, spare);
        // `copy_string_run` wrote all of `spare` (as long as `bytes`).
        raw.len += bytes.len();
        found
    }

    /// Makes room for at least `additional` more bytes in the current block.
    ///
    /// ```
    /// # use agui_wire::stream::BodyBuf;
    /// let buf = BodyBuf::new();
    /// buf.reserve(10_000);
    /// assert!(buf.capacity() >= 10_000);
    /// ```
    pub fn reserve(&self, additional: usize) {
        self.reserve_within(additional, usize::MAX);
    }

    /// [`BodyBuf::reserve`], growing the block to at most `ceiling` bytes unless more are
    /// needed (the streaming parser passes its `max_input_bytes`, so that doubling never
    /// reserves more than the largest body it accepts).
    pub(crate) fn reserve_within(&self, additional: usize, ceiling: usize) {
        let (len, cap) = (self.raw().len, self.raw().cap);
        let need = len
            .checked_add(additional)
            .unwrap_or_else(|| capacity_overflow());
        if need <= cap {
            return;
        }
        let doubled = cap.saturating_mul(2).max(MIN_BLOCK).min(ceiling);
        let new_cap = need.max(doubled);
        let new = allocate(new_cap);
        // SAFETY: as in `extend_from_slice`, this is the only live reference to the `Raw`.
        let raw = unsafe { &mut *self.raw.get() };
        // SAFETY: the first `len` bytes of the old block are initialised; the new block has
        // room for them and is a different allocation.
        unsafe { std::ptr::copy_nonoverlapping(raw.ptr.as_ptr(), new.as_ptr(), len) };
        let old = std::mem::replace(&mut raw.ptr, new);
        if cap != 0 {
            raw.retired.push((old, cap, len));
        }
        raw.cap = new_cap;
    }

    /// The bytes appended so far, borrowed for as long as the buffer is.
    ///
    /// ```
    /// # use agui_wire::stream::BodyBuf;
    /// let buf = BodyBuf::new();
    /// buf.extend_from_slice(b"{}");
    /// assert_eq!(buf.as_bytes(), b"{}");
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        let raw = self.raw();
        // SAFETY: the first `len` bytes of the current block are initialised, are never
        // written again (appends go after them, or into a new block), and the block stays
        // allocated until `clear` or drop, which need `&mut self` and so cannot happen while
        // the returned borrow of `self` lives.
        unsafe { std::slice::from_raw_parts(raw.ptr.as_ptr(), raw.len) }
    }

    /// Number of bytes appended.
    ///
    /// ```
    /// # use agui_wire::stream::BodyBuf;
    /// let buf = BodyBuf::new();
    /// buf.extend_from_slice(b"abc");
    /// assert_eq!(buf.len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        self.raw().len
    }

    /// Whether nothing has been appended.
    ///
    /// ```
    /// # use agui_wire::stream::BodyBuf;
    /// assert!(BodyBuf::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Size of the current block.
    ///
    /// ```
    /// # use agui_wire::stream::BodyBuf;
    /// assert_eq!(BodyBuf::with_capacity(100).capacity(), 100);
    /// ```
    pub fn capacity(&self) -> usize {
        self.raw().cap
    }

    /// Bytes held in blocks that the buffer outgrew, kept alive because slices into them may
    /// still be in use (zero when the buffer never outgrew its first block).
    ///
    /// ```
    /// # use agui_wire::stream::BodyBuf;
    /// let buf = BodyBuf::with_capacity(8);
    /// buf.extend_from_slice(&[0; 8]);
    /// assert_eq!(buf.retired_bytes(), 0);
    /// buf.extend_from_slice(&[0; 1]);
    /// assert_eq!(buf.retired_bytes(), 8);
    /// ```
    pub fn retired_bytes(&self) -> usize {
        self.raw().retired.iter().map(|&(_, cap, _)| cap).sum()
    }

    /// The offset in the body of `part`, a slice of the buffer (as every string and raw value
    /// of a document parsed from it is), whichever block it lies in.
    ///
    /// Slices taken before the buffer outgrew a block point into that older block, which holds
    /// the same bytes at the same offsets; [`offset_in`](crate::offset_in) on
    /// [`BodyBuf::as_bytes`] does not see them, this does.
    ///
    /// ```
    /// # use agui_wire::stream::BodyBuf;
    /// let buf = BodyBuf::with_capacity(4);
    /// buf.extend_from_slice(b"abcd");
    /// let cd = &buf.as_bytes()[2..];
    /// buf.extend_from_slice(b"ef"); // moves to a new block
    /// assert_eq!(agui_wire::offset_in(buf.as_bytes(), cd), None);
    /// assert_eq!(buf.offset_of(cd), Some(2));
    /// ```
    pub fn offset_of(&self, part: &[u8]) -> Option<usize> {
        let raw = self.raw();
        let p = part.as_ptr() as usize;
        std::iter::once((raw.ptr, raw.len))
            .chain(raw.retired.iter().map(|&(ptr, _, len)| (ptr, len)))
            .find_map(|(ptr, len)| {
                let base = ptr.as_ptr() as usize;
                (p >= base && p + part.len() <= base + len).then(|| p - base)
            })
    }

    /// Empties the buffer for the next body, keeping its current block and freeing the ones
    /// it outgrew.
    ///
    /// ```
    /// # use agui_wire::stream::BodyBuf;
    /// let mut buf = BodyBuf::new();
    /// buf.extend_from_slice(&[1; 10_000]);
    /// buf.clear();
    /// assert!(buf.is_empty() && buf.capacity() >= 10_000 && buf.retired_bytes() == 0);
    /// ```
    pub fn clear(&mut self) {
        let raw = self.raw.get_mut();
        for (ptr, cap, _) in raw.retired.drain(..) {
            // SAFETY: every retired block came from `allocate(cap)` and is freed only here or
            // in drop, after being removed from the list.
            unsafe { free(ptr, cap) };
        }
        raw.len = 0;
    }
}

impl Drop for BodyBuf {
    fn drop(&mut self) {
        self.clear();
        let raw = self.raw.get_mut();
        // SAFETY: the current block came from `allocate(raw.cap)` and is freed only here.
        unsafe { free(raw.ptr, raw.cap) };
    }
}

impl Default for BodyBuf {
    fn default() -> Self {
        BodyBuf::new()
    }
}

impl fmt::Debug for BodyBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BodyBuf")
            .field("len", &self.len())
            .field("capacity", &self.capacity())
            .field("retired_bytes", &self.retired_bytes())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_survive_growth() {
        let buf = BodyBuf::new();
        let mut held = Vec::new();
        let mut want = Vec::new();
        for i in 0..2000u32 {
            let chunk: Vec<u8> = (0..(i % 37)).map(|k| (i as u8) ^ (k as u8)).collect();
            buf.extend_from_slice(&chunk);
            want.extend_from_slice(&chunk);
            held.push((buf.as_bytes(), want.len()));
        }
        for (slice, len) in held {
            assert_eq!(slice, &want[..len]);
            if let Some(last) = slice.last() {
                assert_eq!(buf.offset_of(std::slice::from_ref(last)), Some(len - 1));
            }
        }
        assert_eq!(buf.as_bytes(), &want[..]);
    }

    #[test]
    fn empty_and_zero_capacity() {
        let mut buf = BodyBuf::with_capacity(0);
        buf.extend_from_slice(b"");
        assert_eq!(buf.as_bytes(), b"");
        buf.extend_from_slice(b"x");
        assert_eq!(buf.as_bytes(), b"x");
        buf.clear();
        assert!(buf.is_empty());
        assert_eq!(
            format!("{buf:?}"),
            "BodyBuf { len: 0, capacity: 4096, retired_bytes: 0 }"
        );
    }
}
