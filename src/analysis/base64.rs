//! Standard base64 (RFC 4648 §4, `+` and `/`, `=` padding), decoding only:
//! what KaTrain's `KT` values are written in.

/// The value of a base64 digit, or `None`.
fn digit(b: u8) -> Option<u32> {
    match b {
        b'A'..=b'Z' => Some(u32::from(b - b'A')),
        b'a'..=b'z' => Some(u32::from(b - b'a') + 26),
        b'0'..=b'9' => Some(u32::from(b - b'0') + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// The bytes `text` encodes. Whitespace (an SGF writer's line breaks) is
/// skipped; padding is optional. `Err` holds the index in `text` of the
/// first byte that is no base64 digit, or `text.len()` when the digits
/// end in a lone one (6 bits, no whole byte).
pub(crate) fn decode(text: &[u8]) -> Result<Vec<u8>, usize> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 3);
    let (mut acc, mut bits, mut count) = (0u32, 0u32, 0usize);
    let mut end = text.len();
    for (i, &b) in text.iter().enumerate() {
        if b.is_ascii_whitespace() {
            continue;
        }
        if b == b'=' {
            end = i;
            break;
        }
        let d = digit(b).ok_or(i)?;
        acc = (acc << 6) | d;
        bits += 6;
        count += 1;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    // After the padding only padding and whitespace.
    if let Some(i) = text[end..]
        .iter()
        .position(|&b| b != b'=' && !b.is_ascii_whitespace())
    {
        return Err(end + i);
    }
    if count % 4 == 1 {
        return Err(text.len());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn rfc_4648_vectors() {
        for (text, plain) in [
            ("", ""),
            ("Zg==", "f"),
            ("Zm8=", "fo"),
            ("Zm9v", "foo"),
            ("Zm9vYg==", "foob"),
            ("Zm9vYmE=", "fooba"),
            ("Zm9vYmFy", "foobar"),
            ("Zm9v\nYmFy", "foobar"),
            ("Zm9vYg", "foob"),
        ] {
            assert_eq!(decode(text.as_bytes()).unwrap(), plain.as_bytes(), "{text}");
        }
        assert_eq!(decode(b"+/8="), Ok(vec![0xfb, 0xff]));
    }

    #[test]
    fn bad_digits_are_placed() {
        assert_eq!(decode(b"Zm9*"), Err(3));
        assert_eq!(decode(b"Zm9vY"), Err(5));
        assert_eq!(decode(b"Zg==x"), Err(4));
    }
}
