//! Where a transform's elements lie: cuFFT's basic and advanced data layouts.
//!
//! For a rank-r transform, element `x = (x0, .., x(r-1))` of batch `b` is at
//! `b * dist + ((x0 * embed[1] + x1) * embed[2] + ..) * stride` elements from the base
//! pointer (`embed[0]` is never used), separately for the input and the output. The
//! basic layout is the advanced one with `embed = dims`, `stride = 1` and `dist` the
//! product of the dims, where for real transforms the complex side has the half spectrum
//! (`n[r-1] / 2 + 1`) in its last dimension and an in-place real side is padded to
//! `2 * (n[r-1] / 2 + 1)` reals there.

use crate::types::Kind;

/// The advanced layout given at planning (`inembed`, `istride`, ..., from
/// `cufftPlanMany`); elements are the side's own (reals or complexes).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Advanced {
    pub inembed: Vec<usize>,
    pub istride: usize,
    pub idist: usize,
    pub onembed: Vec<usize>,
    pub ostride: usize,
    pub odist: usize,
}

/// One side (input or output) of a transform: the logical dims of its elements and where
/// each lies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    /// The side's logical extent per dimension (the half spectrum for a complex side of
    /// a real transform).
    pub dims: Vec<usize>,
    /// Storage dims (`embed[0]` unused).
    pub embed: Vec<usize>,
    pub stride: usize,
    pub dist: usize,
}

/// `n` with the last dimension halved as the half spectrum of a real transform stores it.
pub fn half_spectrum(n: &[usize]) -> Vec<usize> {
    let mut dims = n.to_vec();
    if let Some(last) = dims.last_mut() {
        *last = *last / 2 + 1;
    }
    dims
}

/// The (input, output) sides of a transform of `kind` over dims `n`, with the advanced
/// layout if one was given, else the basic one (which pads an in-place real side).
pub fn resolve(kind: Kind, n: &[usize], advanced: Option<&Advanced>, in_place: bool) -> (Side, Side) {
    let half = half_spectrum(n);
    let (in_dims, out_dims) = match kind {
        Kind::C2C => (n.to_vec(), n.to_vec()),
        Kind::R2C => (n.to_vec(), half),
        Kind::C2R => (half, n.to_vec()),
    };
    if let Some(a) = advanced {
        let input = Side { dims: in_dims, embed: a.inembed.clone(), stride: a.istride, dist: a.idist };
        let output = Side { dims: out_dims, embed: a.onembed.clone(), stride: a.ostride, dist: a.odist };
        return (input, output);
    }
    let basic = |dims: Vec<usize>, padded: bool| {
        let mut embed = dims.clone();
        if padded {
            // The real side of an in-place real transform holds as many reals as its
            // complex side has complexes, twice.
            if let Some(last) = embed.last_mut() {
                *last = 2 * (*last / 2 + 1);
            }
        }
        let dist = embed.iter().product();
        Side { dims, embed, stride: 1, dist }
    };
    match kind {
        Kind::C2C => (basic(in_dims, false), basic(out_dims, false)),
        Kind::R2C => (basic(in_dims, in_place), basic(out_dims, false)),
        Kind::C2R => (basic(in_dims, false), basic(out_dims, in_place)),
    }
}

impl Side {
    /// The offset (in elements) of element 0 of the row `row` (the row-major index over
    /// all dims but the last) of batch `b`.
    pub fn row_offset(&self, b: usize, row: usize) -> usize {
        let rank = self.dims.len();
        // Decompose `row` over dims[..rank-1], innermost last.
        let mut rest = row;
        let mut linear = 0usize;
        let mut scale = 1usize;
        for k in (0..rank - 1).rev() {
            let x = rest % self.dims[k];
            rest /= self.dims[k];
            linear += x * scale * self.embed[k + 1];
            scale *= self.embed[k + 1];
        }
        b * self.dist + linear * self.stride
    }

    /// The number of rows (all dims but the last) of one batch.
    pub fn rows(&self) -> usize {
        self.dims[..self.dims.len() - 1].iter().product()
    }

    /// The length of a row (the last dim).
    pub fn row_len(&self) -> usize {
        *self.dims.last().expect("rank >= 1")
    }

    /// The number of elements of one batch.
    pub fn count(&self) -> usize {
        self.dims.iter().product()
    }

    /// The (count, stride in elements) of the batch index and then of each dim; `None`
    /// when a stride overflows.
    fn strides(&self, batch: usize) -> Option<Vec<(usize, usize)>> {
        let rank = self.dims.len();
        let mut out = vec![(batch, self.dist)];
        for k in 0..rank {
            let inner = self.embed[k + 1..].iter().try_fold(1usize, |a, &e| a.checked_mul(e))?;
            out.push((self.dims[k], inner.checked_mul(self.stride)?));
        }
        Some(out)
    }

    /// One past the largest element offset that `batch` batches touch (0 when a dim is 0);
    /// `None` when it overflows.
    pub fn extent(&self, batch: usize) -> Option<usize> {
        let mut last = 0usize;
        for (count, stride) in self.strides(batch)? {
            if count == 0 {
                return Some(0);
            }
            last = last.checked_add((count - 1).checked_mul(stride)?)?;
        }
        last.checked_add(1)
    }

    /// Whether the `batch` batches lie densely one after another, each in row-major
    /// order (stride 1, storage dims equal to the dims, dist equal to a batch's count).
    pub fn is_dense(&self, batch: usize) -> bool {
        self.stride == 1 && self.embed[1..] == self.dims[1..] && (batch <= 1 || self.dist == self.count())
    }

    /// Whether distinct (batch, element) pairs surely lie at distinct offsets: with the
    /// batch index and the dims sorted by stride, each stride passes the span of all
    /// smaller ones. (A sufficient test; layouts failing it are run one batch at a time.)
    pub fn is_injective(&self, batch: usize) -> bool {
        let Some(strides) = self.strides(batch) else {
            return false;
        };
        let mut strides: Vec<(usize, usize)> = strides.into_iter().filter(|&(count, _)| count > 1).collect();
        strides.sort_by_key(|&(_, stride)| stride);
        let mut span = 0usize; // the largest offset reached by the smaller strides
        for (count, stride) in strides {
            if stride <= span {
                return false;
            }
            span = match (count - 1).checked_mul(stride).and_then(|s| s.checked_add(span)) {
                Some(s) => s,
                None => return false,
            };
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every offset of every element, by the documented formula, computed plainly.
    fn offsets(side: &Side, batch: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let d = &side.dims;
        for b in 0..batch {
            match d.len() {
                1 => (0..d[0]).for_each(|x| out.push(b * side.dist + x * side.stride)),
                2 => {
                    for x in 0..d[0] {
                        for y in 0..d[1] {
                            out.push(b * side.dist + (x * side.embed[1] + y) * side.stride);
                        }
                    }
                }
                3 => {
                    for x in 0..d[0] {
                        for y in 0..d[1] {
                            for z in 0..d[2] {
                                out.push(b * side.dist + ((x * side.embed[1] + y) * side.embed[2] + z) * side.stride);
                            }
                        }
                    }
                }
                _ => unreachable!(),
            }
        }
        out
    }

    fn side(dims: &[usize], embed: &[usize], stride: usize, dist: usize) -> Side {
        Side { dims: dims.to_vec(), embed: embed.to_vec(), stride, dist }
    }

    #[test]
    fn row_offsets_follow_the_documented_formula() {
        let cases = [
            (side(&[7], &[0], 3, 40), 3),
            (side(&[4, 5], &[9, 6], 2, 100), 2),
            (side(&[3, 4, 5], &[3, 7, 6], 1, 200), 2),
            (side(&[2, 3, 4], &[2, 3, 4], 5, 1), 5),
        ];
        for (s, batch) in cases {
            let expected = offsets(&s, batch);
            let mut got = Vec::new();
            for b in 0..batch {
                for r in 0..s.rows() {
                    let base = s.row_offset(b, r);
                    (0..s.row_len()).for_each(|j| got.push(base + j * s.stride));
                }
            }
            assert_eq!(got, expected, "{s:?}");
            assert_eq!(s.extent(batch), Some(expected.iter().max().unwrap() + 1), "{s:?}");
            let mut unique = expected.clone();
            unique.sort();
            unique.dedup();
            if s.is_injective(batch) {
                assert_eq!(unique.len(), expected.len(), "{s:?} said injective");
            }
        }
    }

    #[test]
    fn injectivity() {
        // Interleaved batches (CuPy's batch along the last axis): injective.
        assert!(side(&[8, 4], &[8, 4], 6, 1).is_injective(6));
        // Overlapping batches: not.
        assert!(!side(&[8], &[8], 1, 4).is_injective(2));
        // Rows padded: injective.
        assert!(side(&[4, 5], &[4, 8], 1, 32).is_injective(3));
        // One batch's dist is never used.
        assert!(side(&[4], &[4], 1, 0).is_injective(1));
    }

    #[test]
    fn basic_layouts() {
        let (i, o) = resolve(Kind::R2C, &[4, 6], None, false);
        assert_eq!((i.embed.clone(), i.dist, o.dims.clone(), o.dist), (vec![4, 6], 24, vec![4, 4], 16));
        let (i, o) = resolve(Kind::R2C, &[4, 7], None, true);
        assert_eq!((i.embed.clone(), i.dist, o.dims.clone(), o.dist), (vec![4, 8], 32, vec![4, 4], 16));
        let (i, o) = resolve(Kind::C2R, &[5], None, true);
        assert_eq!((i.dims.clone(), i.dist, o.embed.clone(), o.dist), (vec![3], 3, vec![6], 6));
        assert!(i.is_dense(4) && !o.is_dense(4));
        let (i, o) = resolve(Kind::C2C, &[2, 3, 4], None, false);
        assert_eq!(i, o);
        assert_eq!(i.extent(3), Some(72));
    }
}
