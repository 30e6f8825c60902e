//! IEEE 754 half-precision floats (binary16), as KaTrain packs ownership
//! and policy.

/// The `f32` of the half-precision bits `h`.
pub(crate) fn to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let frac = f32::from(h & 0x3ff);
    match exp {
        0 => sign * frac * (2f32).powi(-24),
        31 if frac == 0.0 => sign * f32::INFINITY,
        31 => f32::NAN,
        _ => sign * (1.0 + frac / 1024.0) * (2f32).powi(exp - 15),
    }
}

/// The little-endian halves of `bytes` (an even number of them).
pub(crate) fn unpack(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(2)
        .map(|b| to_f32(u16::from_le_bytes([b[0], b[1]])))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::to_f32;

    #[test]
    fn known_halves() {
        assert_eq!(to_f32(0x3c00), 1.0);
        assert_eq!(to_f32(0xbc00), -1.0);
        assert_eq!(to_f32(0x3800), 0.5);
        assert_eq!(to_f32(0x0000), 0.0);
        assert_eq!(to_f32(0x7bff), 65504.0);
        assert_eq!(to_f32(0x0001), 2f32.powi(-24));
        assert_eq!(to_f32(0x7c00), f32::INFINITY);
        assert!(to_f32(0x7e00).is_nan());
        assert_eq!(to_f32(0x3555), 0.333_251_95);
    }
}
