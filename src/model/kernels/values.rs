//! The attention's output for one query, `y = Σ_j p_j · v_j` with every value of `y` adding its
//! terms in the order of `j` (as `arithmetic::attention` defines it), `W` values of `y` at a time
//! held in registers while every `j` goes by: the loops are interchanged, no sum is reordered.
//! `portable::weighted_sum` is the reference: `j` outside, the values inside.

/// `y[i] += Σ_j p[j] · values[j · stride + i]`, in order of `j`, for `i < y.len() ≤ stride`.
#[inline(always)]
pub(super) fn weighted_lanes<const W: usize>(p: &[f32], values: &[f32], stride: usize, y: &mut [f32]) {
    let mut start = 0;
    while start + W <= y.len() {
        let mut acc: [f32; W] = y[start..start + W].try_into().expect("W values");
        for (j, p) in p.iter().enumerate() {
            let v: &[f32; W] = values[j * stride + start..][..W].try_into().expect("W values");
            for (acc, v) in acc.iter_mut().zip(v) {
                *acc += p * v;
            }
        }
        y[start..start + W].copy_from_slice(&acc);
        start += W;
    }
    if start < y.len() {
        super::portable::weighted_sum(p, &values[start..], stride, &mut y[start..]);
    }
}
