//! [`List`]: a list of the model, a slice in the parse arena or a `Vec` once edited.

use std::fmt;

/// A list in the model: a slice in the parse arena, or a `Vec` once built or edited by hand.
///
/// It dereferences to `[T]`, so it reads like a slice. [`List::to_mut`] turns it into a
/// `Vec` for edits (copying the elements, which are cheap borrowed views).
///
/// ```
/// use agui_wire::List;
/// let mut l: List<'_, u32> = List::from(vec![1, 2]);
/// l.to_mut().push(3);
/// assert_eq!(&l[..], &[1, 2, 3]);
/// assert_eq!(l.len(), 3);
/// ```
pub struct List<'a, T> {
    repr: ListRepr<'a, T>,
}

/// Two words: an owned list is boxed (lists are edited rarely and read often, and a parsed
/// body holds thousands of them).
#[allow(clippy::box_collection)] // the box is the point: it keeps `List` at two words
enum ListRepr<'a, T> {
    Arena(&'a [T]),
    Owned(Box<Vec<T>>),
}

impl<'a, T> List<'a, T> {
    /// An empty list.
    ///
    /// ```
    /// # use agui_wire::List;
    /// assert!(List::<u8>::new().is_empty());
    /// ```
    pub const fn new() -> List<'a, T> {
        List {
            repr: ListRepr::Arena(&[]),
        }
    }

    /// A list over an arena (or any borrowed) slice.
    ///
    /// ```
    /// # use agui_wire::List;
    /// let l = List::borrowed(&[1u8, 2][..]);
    /// assert_eq!(l.len(), 2);
    /// ```
    pub const fn borrowed(items: &'a [T]) -> List<'a, T> {
        List {
            repr: ListRepr::Arena(items),
        }
    }

    /// The elements as a slice.
    ///
    /// ```
    /// # use agui_wire::List;
    /// assert_eq!(List::from(vec!['a']).as_slice(), &['a']);
    /// ```
    pub fn as_slice(&self) -> &[T] {
        match &self.repr {
            ListRepr::Arena(s) => s,
            ListRepr::Owned(v) => v,
        }
    }

    /// Whether the list owns a heap `Vec` (built or edited by hand).
    pub(crate) fn is_owned(&self) -> bool {
        matches!(self.repr, ListRepr::Owned(_))
    }

    /// A `Vec` to edit, copying the elements out of the arena the first time.
    ///
    /// ```
    /// # use agui_wire::List;
    /// let mut l = List::borrowed(&[1, 2, 3][..]);
    /// l.to_mut().retain(|&x| x != 2);
    /// assert_eq!(l.as_slice(), &[1, 3]);
    /// ```
    pub fn to_mut(&mut self) -> &mut Vec<T>
    where
        T: Clone,
    {
        if let ListRepr::Arena(s) = self.repr {
            self.repr = ListRepr::Owned(Box::new(s.to_vec()));
        }
        match &mut self.repr {
            ListRepr::Owned(v) => v,
            ListRepr::Arena(_) => unreachable!("converted above"),
        }
    }

    /// Maps every element into a new owned list.
    ///
    /// ```
    /// # use agui_wire::List;
    /// let l = List::from(vec![1, 2]).map(|x| x * 10);
    /// assert_eq!(l.as_slice(), &[10, 20]);
    /// ```
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> List<'static, U>
    where
        T: Clone,
    {
        let v: Vec<T> = match self.repr {
            ListRepr::Arena(s) => s.to_vec(),
            ListRepr::Owned(v) => *v,
        };
        List::from(v.into_iter().map(f).collect::<Vec<U>>())
    }
}

impl<T> Default for List<'_, T> {
    fn default() -> Self {
        List::new()
    }
}

impl<T: Clone> Clone for List<'_, T> {
    fn clone(&self) -> Self {
        match &self.repr {
            ListRepr::Arena(s) => List::borrowed(s),
            ListRepr::Owned(v) => List::from(Vec::clone(v)),
        }
    }
}

impl<T> std::ops::Deref for List<'_, T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T> From<Vec<T>> for List<'_, T> {
    fn from(v: Vec<T>) -> Self {
        List {
            repr: ListRepr::Owned(Box::new(v)),
        }
    }
}

impl<T: PartialEq> PartialEq for List<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: fmt::Debug> fmt::Debug for List<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'l, T> IntoIterator for &'l List<'_, T> {
    type Item = &'l T;
    type IntoIter = std::slice::Iter<'l, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}
