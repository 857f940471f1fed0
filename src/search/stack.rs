//! A fixed-capacity list on the stack whose unused slots are never written.
//!
//! Search nodes keep their moves in lists sized for the worst case
//! ([`MAX_MOVES`](crate::board::MAX_MOVES)) but hold about ten: zeroing the whole
//! array at every node cost the exact solver 4–8% of its time on FFO 40–48.

use std::mem::MaybeUninit;

/// Up to `N` values of `T`, pushed in order.
pub struct Stack<T: Copy, const N: usize> {
    items: [MaybeUninit<T>; N],
    len: usize,
}

impl<T: Copy, const N: usize> Stack<T, N> {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> Self {
        Stack {
            items: [const { MaybeUninit::uninit() }; N],
            len: 0,
        }
    }

    /// Appends `value`; panics when full (sized by the worst case, never).
    #[inline(always)]
    pub fn push(&mut self, value: T) {
        self.items[self.len].write(value);
        self.len += 1;
    }

    /// Removes the last value pushed (none when empty).
    #[inline(always)]
    pub fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }

    /// How many values are in the list.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The values pushed so far.
    #[inline(always)]
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: the first `len` slots were written by `push`, and `T: Copy`
        // has no drop glue to run twice.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast(), self.len) }
    }

    /// The values pushed so far, to reorder or update in place.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as in `as_slice`; the borrow is unique.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr().cast(), self.len) }
    }
}

impl<T: Copy, const N: usize> Default for Stack<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pushes_reads_and_reorders() {
        let mut s: Stack<(u8, u64), 64> = Stack::new();
        assert!(s.as_slice().is_empty());
        for i in 0..64u8 {
            s.push((i, u64::from(i) * 3));
        }
        assert_eq!(s.as_slice().len(), 64);
        assert_eq!(s.as_slice()[63], (63, 189));
        s.as_mut_slice().reverse();
        assert_eq!(s.as_slice()[0], (63, 189));
        s.pop();
        assert_eq!(s.len(), 63);
        assert_eq!(s.as_slice()[62], (1, 3));
    }

    #[test]
    #[should_panic]
    fn a_full_list_refuses_more() {
        let mut s: Stack<u8, 2> = Stack::new();
        for i in 0..3 {
            s.push(i);
        }
    }
}
