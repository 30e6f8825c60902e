//! Counts as printed in text output: one style for every command, a comma
//! every three digits (`48,881 games`). JSON output has plain numbers.

use std::fmt::Display;

/// A count with a comma every three digits: `1234567` → `1,234,567`
/// (any unsigned integer type).
pub fn thousands(n: impl Display) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::thousands;

    #[test]
    fn a_comma_every_three_digits() {
        assert_eq!(thousands(0u64), "0");
        assert_eq!(thousands(999u32), "999");
        assert_eq!(thousands(1000usize), "1,000");
        assert_eq!(thousands(18171u64), "18,171");
        assert_eq!(thousands(1234567u64), "1,234,567");
    }
}
