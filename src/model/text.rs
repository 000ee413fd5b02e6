//! `Text`: the two-word string behind [`Str`](super::Str) and [`RawJson`](super::RawJson).
//!
//! A parsed body holds one of these per string and per raw value, so their size is most of the
//! model's size (and of the arena a parse fills). `Cow<'a, str>` takes three words and a flag
//! beside it a fourth; `Text` takes two: a pointer and a word holding the length, the
//! caller's flags (a string's "has escapes", a raw value's kind and compactness) and whether
//! the text is owned. It behaves as `Cow<'a, str>`: borrowed text is a slice of the input,
//! owned text (a string built or edited by hand) is a heap `String` it frees when dropped.

use std::marker::PhantomData;
use std::ptr::NonNull;

/// Flag bits a caller may use (the low bits of the meta word, below [`OWNED`]).
pub(crate) const FLAG_BITS: u32 = 4;
/// The meta word's bit saying the pointer is a `Box<String>` the value owns.
const OWNED: usize = 1 << FLAG_BITS;
/// Where the length starts in the meta word.
const LEN_SHIFT: u32 = FLAG_BITS + 1;
const FLAG_MASK: usize = (1 << FLAG_BITS) - 1;

/// A borrowed (`'a`) or owned string with [`FLAG_BITS`] flag bits, in two words; `Option<Text>`
/// is two words too.
pub(crate) struct Text<'a> {
    repr: Repr,
    _borrows: PhantomData<&'a str>,
}

/// The lifetime-free half that owns the heap string, if any: its `Drop` is here, not on
/// `Text<'a>`, so a `Text` (like the `Cow` it replaces) may be dropped after what it borrows
/// is gone, as long as it is not used.
struct Repr {
    /// Borrowed: the first byte of the text. Owned: a `Box<String>` from `Box::into_raw`.
    ptr: NonNull<u8>,
    /// `len << LEN_SHIFT | OWNED? | flags`.
    meta: usize,
}

// SAFETY: a `Repr` is a `&str` or an owned `Box<String>`, both `Send` and `Sync`; nothing else
// refers to an owned string (clones copy it), so moving or sharing it across threads is sound.
unsafe impl Send for Repr {}
// SAFETY: as above; shared access only reads.
unsafe impl Sync for Repr {}

impl Drop for Repr {
    fn drop(&mut self) {
        if self.meta & OWNED != 0 {
            // SAFETY: an owned `Repr` holds the pointer `Box::into_raw` gave for its string,
            // and only this drop frees it (clones box a copy).
            drop(unsafe { Box::from_raw(self.ptr.as_ptr().cast::<String>()) });
        }
    }
}

impl<'a> Text<'a> {
    /// Borrowed text with `flags` (below `1 << FLAG_BITS`).
    #[inline(always)]
    pub(crate) const fn borrowed(text: &'a str, flags: usize) -> Text<'a> {
        debug_assert!(flags <= FLAG_MASK);
        Text {
            repr: Repr {
                // SAFETY: a slice's pointer is never null (an empty one's is dangling).
                ptr: unsafe { NonNull::new_unchecked(text.as_ptr().cast_mut()) },
                meta: text.len() << LEN_SHIFT | flags,
            },
            _borrows: PhantomData,
        }
    }

    /// Owned text with `flags`.
    pub(crate) fn owned(text: String, flags: usize) -> Text<'a> {
        debug_assert!(flags <= FLAG_MASK);
        let len = text.len();
        let ptr = NonNull::from(Box::leak(Box::new(text))).cast::<u8>();
        Text {
            repr: Repr {
                ptr,
                meta: len << LEN_SHIFT | OWNED | flags,
            },
            _borrows: PhantomData,
        }
    }

    /// The flags given when the text was made.
    #[inline(always)]
    pub(crate) const fn flags(&self) -> usize {
        self.repr.meta & FLAG_MASK
    }

    /// Length in bytes.
    #[inline(always)]
    pub(crate) const fn len(&self) -> usize {
        self.repr.meta >> LEN_SHIFT
    }

    /// The text.
    #[inline(always)]
    pub(crate) fn as_str(&self) -> &str {
        if self.repr.meta & OWNED != 0 {
            // SAFETY: an owned `Repr` points at its live `Box<String>`.
            unsafe { self.repr.ptr.cast::<String>().as_ref() }
        } else {
            // SAFETY: borrowed: `ptr` and the length came from a `&'a str`, alive for `'a`,
            // which outlives `&self`.
            unsafe { self.borrowed_unchecked() }
        }
    }

    /// The text when borrowed, for the full `'a`.
    #[inline(always)]
    pub(crate) fn as_borrowed(&self) -> Option<&'a str> {
        if self.repr.meta & OWNED != 0 {
            None
        } else {
            // SAFETY: borrowed, as just checked: the slice is alive for `'a`.
            Some(unsafe { self.borrowed_unchecked() })
        }
    }

    /// # Safety
    /// The text must be borrowed.
    #[inline(always)]
    unsafe fn borrowed_unchecked(&self) -> &'a str {
        debug_assert!(self.repr.meta & OWNED == 0);
        // SAFETY: (the caller's promise) `ptr` and the length are those of a `&'a str`.
        unsafe {
            std::str::from_utf8_unchecked(std::slice::from_raw_parts(
                self.repr.ptr.as_ptr(),
                self.len(),
            ))
        }
    }

    /// The same text, owned (a copy when borrowed).
    pub(crate) fn into_owned(self) -> Text<'static> {
        let flags = self.flags();
        if self.repr.meta & OWNED != 0 {
            let repr = Repr {
                ptr: self.repr.ptr,
                meta: self.repr.meta,
            };
            std::mem::forget(self);
            return Text {
                repr,
                _borrows: PhantomData,
            };
        }
        Text::owned(self.as_str().to_owned(), flags)
    }
}

impl Clone for Text<'_> {
    fn clone(&self) -> Self {
        if self.repr.meta & OWNED != 0 {
            Text::owned(self.as_str().to_owned(), self.flags())
        } else {
            Text {
                repr: Repr {
                    ptr: self.repr.ptr,
                    meta: self.repr.meta,
                },
                _borrows: PhantomData,
            }
        }
    }
}

impl Default for Text<'_> {
    fn default() -> Self {
        Text::borrowed("", 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_words_and_an_option_too() {
        assert_eq!(size_of::<Text<'_>>(), 2 * size_of::<usize>());
        assert_eq!(size_of::<Option<Text<'_>>>(), 2 * size_of::<usize>());
    }

    #[test]
    fn borrowed_and_owned_read_back() {
        let src = String::from("héllo");
        let b = Text::borrowed(&src, 0b1010);
        assert_eq!((b.as_str(), b.len(), b.flags()), ("héllo", 6, 0b1010));
        assert_eq!(b.as_borrowed(), Some("héllo"));
        let o = Text::owned(String::from("owned"), 0b0101);
        assert_eq!((o.as_str(), o.len(), o.flags()), ("owned", 5, 0b0101));
        assert_eq!(o.as_borrowed(), None);
        let e = Text::default();
        assert_eq!((e.as_str(), e.flags()), ("", 0));
    }

    #[test]
    fn clones_and_into_owned_keep_text_and_flags() {
        let src = String::from("abc");
        let b = Text::borrowed(&src, 3);
        let c = b.clone();
        assert_eq!(c.as_borrowed(), Some("abc"));
        let o = b.into_owned();
        assert_eq!((o.as_str(), o.flags(), o.as_borrowed()), ("abc", 3, None));
        let oc = o.clone();
        drop(o);
        assert_eq!((oc.as_str(), oc.flags()), ("abc", 3));
        let again = oc.into_owned();
        assert_eq!(again.as_str(), "abc");
    }

    #[test]
    fn may_be_dropped_after_what_it_borrows_when_unused() {
        // As with `Cow<'a, str>`, dropping does not use the borrow.
        let t;
        {
            let s = String::from("gone");
            t = Text::borrowed(&s, 0);
            assert_eq!(t.as_str(), "gone");
        }
    }

    #[test]
    fn send_and_sync() {
        fn both<T: Send + Sync>() {}
        both::<Text<'static>>();
    }
}
