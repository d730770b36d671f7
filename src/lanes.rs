//! Sixteen octets at a time: the scans of the parser and of URL paths.
//!
//! A scan tests sixteen octets at once and then needs the first octet that
//! a test marked. The tests are written as plain loops over a `[u8; 16]`
//! ([`lanes_where`], [`lanes_or`]), which the compiler turns into SIMD
//! compares (SSE2 and NEON are baseline). Turning the marked lanes into a
//! position is the one step safe Rust cannot express: on x86-64 it is
//! `pmovmskb`, one instruction, reached through `safe_arch` (the crate
//! forbids `unsafe`, and `core::arch` asks for it even for baseline
//! features). Elsewhere the lanes are read as one 128-bit integer, as every
//! target did before; on x86-64 the compiler took that integer through the
//! stack (a store, two loads, a shuffle), the hottest instructions of the
//! parse. ([`Marks`] hides which reading a target uses.)

/// Sixteen octets, or sixteen lane results (0 or 0xFF).
pub(crate) type Lanes = [u8; 16];

/// 0xFF in the lanes where `f` holds, 0 elsewhere. One loop over the lanes,
/// which the compiler makes one or two SIMD operations; a predicate written
/// as one expression over an octet is not reliably vectorised, so callers
/// combine several of these with [`lanes_or`].
#[inline(always)]
pub(crate) fn lanes_where(v: &Lanes, f: impl Fn(u8) -> bool) -> Lanes {
    let mut r = [0u8; 16];
    for i in 0..16 {
        r[i] = if f(v[i]) { 0xFF } else { 0 };
    }
    r
}

/// The lanes where `first` holds for the octet and `second` for the octet
/// after it. The last lane's next octet lies past these sixteen: it is
/// taken to hold, so that a scan stops there and looks for itself. The two
/// tests are made on the octets as they lie, and the second's marks moved
/// down a lane as an integer ([`Marks::followed_by`]): testing a shifted
/// copy of the octets compiled to a dozen shuffles and partial compares,
/// which made a check's reading of its URL take half as long again.
#[inline(always)]
pub(crate) fn pair(v: &Lanes, first: impl Fn(u8) -> bool, second: impl Fn(u8) -> bool) -> Marks {
    Marks::of(lanes_where(v, first)).followed_by(Marks::of(lanes_where(v, second)))
}

/// Lane-wise or.
#[inline(always)]
pub(crate) fn lanes_or(a: Lanes, b: Lanes) -> Lanes {
    let mut r = [0u8; 16];
    for i in 0..16 {
        r[i] = a[i] | b[i];
    }
    r
}

/// The position of the first octet at or after `i` that `mark` marks, or
/// `input.len()`: sixteen octets a step. `mark` gives 0xFF for the lanes to
/// find (built from [`lanes_where`] and [`lanes_or`]); `table` holds 1 for
/// the same octets, for inputs shorter than sixteen. `i` must be at most
/// `input.len()` (every caller starts within the input or at its end).
#[inline(always)]
pub(crate) fn find(
    input: &[u8],
    i: usize,
    mark: impl Fn(&Lanes) -> Lanes,
    table: &[u8; 256],
) -> usize {
    find_marks(input, i, |v| Marks::of(mark(v)), table)
}

/// [`find`] with `mark` giving the marked lanes as [`Marks`]: for scans
/// that combine [`pair`]'s marks with others.
#[inline(always)]
pub(crate) fn find_marks(
    input: &[u8],
    mut i: usize,
    mark: impl Fn(&Lanes) -> Marks,
    table: &[u8; 256],
) -> usize {
    debug_assert!(
        i <= input.len(),
        "find from {i} past the end {}",
        input.len()
    );
    while let Some(chunk) = input.get(i..i + 16) {
        let k = mark(chunk.try_into().expect("16 octets")).first();
        i += k;
        if k < 16 {
            return i;
        }
    }
    // Fewer than sixteen octets are left: when the input has sixteen, the
    // last sixteen are one more step, with the octets already scanned
    // shifted out (no loop and no branch per octet).
    if let Some(start) = input.len().checked_sub(16) {
        let chunk = input[start..].try_into().expect("16 octets");
        let hits = mark(chunk).after(i - start);
        return i + hits.first().min(input.len() - i);
    }
    while i < input.len() && table[input[i] as usize] == 0 {
        i += 1;
    }
    i
}

/// The set of marked lanes of a [`Lanes`] result, in order: lane 0 first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Marks(imp::Bits);

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use sse2 as imp;

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
use portable as imp;

impl Marks {
    /// No lane.
    pub(crate) const NONE: Marks = Marks(0);

    /// The lanes of `m` that are not 0; each lane must be 0 or 0xFF.
    #[inline(always)]
    pub(crate) fn of(m: Lanes) -> Marks {
        Marks(imp::bits(m))
    }

    /// The first marked lane, or 16 when none is.
    #[inline(always)]
    pub(crate) fn first(self) -> usize {
        imp::first(self.0)
    }

    /// No lane is marked.
    #[inline(always)]
    pub(crate) fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The marks of lanes `..r` (all of them for `r` of 16 or more).
    #[inline(always)]
    pub(crate) fn before(self, r: usize) -> Marks {
        let keep = (1 as imp::Bits)
            .checked_shl(r as u32 * imp::LANE_BITS)
            .map_or(!0, |bit| bit - 1);
        Marks(self.0 & keep)
    }

    /// The lanes marked in either.
    #[inline(always)]
    pub(crate) fn or(self, other: Marks) -> Marks {
        Marks(self.0 | other.0)
    }

    /// The lanes of `self` whose next lane is marked in `next`, and the
    /// last lane if marked in `self` (its next lies past the sixteen).
    #[inline(always)]
    pub(crate) fn followed_by(self, next: Marks) -> Marks {
        Marks(self.0 & ((next.0 >> imp::LANE_BITS) | imp::LAST))
    }

    /// The marks of lanes `r..`, moved down to start at lane 0 (none for
    /// `r` of 16 or more).
    #[inline(always)]
    pub(crate) fn after(self, r: usize) -> Marks {
        Marks(self.0.checked_shr(r as u32 * imp::LANE_BITS).unwrap_or(0))
    }
}

/// One bit per lane: `pmovmskb` takes the top bit of each.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    pub(super) type Bits = u32;
    pub(super) const LANE_BITS: u32 = 1;
    /// The last lane's bit.
    pub(super) const LAST: Bits = 1 << 15;

    #[inline(always)]
    pub(super) fn bits(m: super::Lanes) -> Bits {
        safe_arch::move_mask_i8_m128i(safe_arch::m128i::from(m)) as u32
    }

    #[inline(always)]
    pub(super) fn first(b: Bits) -> usize {
        // A 17th lane, always marked, stands for "none".
        (b | 1 << 16).trailing_zeros() as usize
    }
}

/// The lanes themselves, eight bits each (compiled for tests too, which
/// check it against the same reading as the SSE2 version).
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
mod portable {
    pub(super) type Bits = u128;
    pub(super) const LANE_BITS: u32 = 8;
    /// The last lane's bits.
    pub(super) const LAST: Bits = 0xFF << 120;

    #[inline(always)]
    pub(super) fn bits(m: super::Lanes) -> Bits {
        u128::from_le_bytes(m)
    }

    #[inline(always)]
    pub(super) fn first(b: Bits) -> usize {
        // 128 trailing zeros when none is marked.
        b.trailing_zeros() as usize / 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each lane pattern of one or two marks, with a 17th lane standing
    /// for "none".
    fn patterns() -> impl Iterator<Item = (Lanes, usize, usize)> {
        (0..=16).flat_map(|a| {
            (0..=16).map(move |b| {
                let mut m = [0u8; 16];
                for i in [a, b] {
                    if i < 16 {
                        m[i] = 0xFF;
                    }
                }
                (m, a, b)
            })
        })
    }

    /// The first marked lane at or after `r` (16 at most), counted from
    /// `r`, or 16 when none is.
    fn naive(m: &Lanes, r: usize) -> usize {
        let r = r.min(16);
        (r..16).find(|&i| m[i] != 0).map_or(16, |i| i - r)
    }

    /// `Marks` (whichever implementation this target uses) agrees with
    /// reading the lanes one by one, for every shift.
    #[test]
    fn marks_agree_with_lanes() {
        for (m, a, b) in patterns() {
            let marks = Marks::of(m);
            assert_eq!(marks.first(), naive(&m, 0));
            assert_eq!(marks.is_empty(), a == 16 && b == 16);
            for r in 0..=20 {
                assert_eq!(marks.after(r).first(), naive(&m, r), "{a} {b} {r}");
                // Of the lanes before `r`, the first marked, if any.
                let before = (0..r.min(16)).find(|&i| m[i] != 0).unwrap_or(16);
                assert_eq!(marks.before(r).first(), before, "{a} {b} {r}");
            }
        }
    }

    /// The portable version, which other targets use, reads the same.
    #[test]
    fn portable_agrees_with_lanes() {
        for (m, ..) in patterns() {
            let bits = portable::bits(m);
            assert_eq!(portable::first(bits), naive(&m, 0));
            for r in 0..16 {
                let after = bits >> (r as u32 * portable::LANE_BITS);
                assert_eq!(portable::first(after), naive(&m, r));
            }
        }
    }

    /// `find` agrees with a search octet by octet, from every offset of
    /// inputs of every length up to 40, wherever the octets to find are.
    #[test]
    fn find_agrees_with_a_plain_search() {
        let mut table = [0u8; 256];
        table[b'#' as usize] = 1;
        for len in 0..40 {
            for at in 0..=len {
                let mut input = vec![b'a'; len];
                if at < len {
                    input[at] = b'#';
                }
                if len > 20 {
                    input[len - 3] = b'#';
                }
                for i in 0..=len {
                    let want = (i..len).find(|&j| input[j] == b'#').unwrap_or(len);
                    let got = find(&input, i, |v| lanes_where(v, |b| b == b'#'), &table);
                    assert_eq!(got, want, "{len} {at} {i}");
                }
            }
        }
    }

    /// `pair` (and the portable marks, as other targets shift them) marks
    /// each lane whose octet and next octet pass, and the last lane on its
    /// own octet, wherever the two octets lie, with others of each around.
    #[test]
    fn pair_marks_an_octet_and_the_next() {
        for slashes in [0u32, 1, 0x8000, 0x8001, 0x1234, 0xFFFF, 0xAAAA, 0x5555] {
            for dots in [0u32, 2, 0x4000, 0xFFFE, 0x2468, 0x5555, 0xAAAA] {
                let v: Lanes = std::array::from_fn(|i| match (slashes >> i & 1, dots >> i & 1) {
                    (1, _) => b'/',
                    (_, 1) => b'.',
                    _ => b'a',
                });
                let want: Vec<usize> = (0..16)
                    .filter(|&i| v[i] == b'/' && v.get(i + 1).is_none_or(|&b| b == b'.'))
                    .collect();
                let marks = pair(&v, |b| b == b'/', |b| b == b'.');
                let got: Vec<usize> = (0..16).filter(|&r| marks.after(r).first() == 0).collect();
                assert_eq!(got, want, "{v:?}");
                let (now, next) = (
                    portable::bits(lanes_where(&v, |b| b == b'/')),
                    portable::bits(lanes_where(&v, |b| b == b'.')),
                );
                let bits = now & ((next >> portable::LANE_BITS) | portable::LAST);
                let got: Vec<usize> = (0..16)
                    .filter(|&r| portable::first(bits >> (r as u32 * portable::LANE_BITS)) == 0)
                    .collect();
                assert_eq!(got, want, "portable {v:?}");
            }
        }
    }

    #[test]
    fn lanes_where_and_or() {
        let v: Lanes = *b"ab\ncd#ef\0gh\rijkl";
        let m = lanes_or(
            lanes_where(&v, |b| b == b'\n' || b == b'\r'),
            lanes_where(&v, |b| b == b'#' || b == 0),
        );
        let marked: Vec<usize> = (0..16).filter(|&i| m[i] == 0xFF).collect();
        assert_eq!(marked, [2, 5, 8, 11]);
        assert_eq!(Marks::of(m).first(), 2);
        assert_eq!(Marks::of(m).after(3).first(), 2);
    }
}
