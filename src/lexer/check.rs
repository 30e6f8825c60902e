//! Whether bytes written as a value are read back as that value: the rules
//! of [`scan_value`] run the other way, for values an edit brings in
//! ([`check_new_value`]) and for values whose charset changes
//! ([`reads_alike`]).

use super::*;

/// Why `value`, written between `[` and `]`, would not be read back as
/// exactly that value in `mode`; `Ok` when it would. Stricter than the
/// reader, which keeps an unescaped `]` when brackets pair up: a new value
/// has every `]` escaped.
pub(crate) fn check_new_value(value: &[u8], mode: ValueMode) -> Result<(), &'static str> {
    // What a reader sees: the value between its brackets.
    let mut framed = Vec::with_capacity(value.len() + 2);
    framed.push(b'[');
    framed.extend_from_slice(value);
    framed.push(b']');
    let end = framed.len() - 1;
    let mut i = 1;
    while i < end {
        let b = framed[i];
        if mode.is_lead(b) {
            if i + 1 >= end {
                return Err("a character cut in half at the end of the value");
            }
            i += 2;
            continue;
        }
        match b {
            b']' => return Err("an unescaped `]`"),
            b'\\' => {
                if i + 1 >= end {
                    return Err("a lone `\\` at the end of the value");
                }
                if framed[i + 1] == b'(' && resync_point(&framed, i + 1) {
                    return Err("`(;` and a root property: a reader starts a new game there");
                }
                i += 2;
                continue;
            }
            b'(' if resync_point(&framed, i) => {
                return Err("`(;` and a root property: a reader starts a new game there");
            }
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// Whether `value`, read in `from`, is read the same way in `to`: the same
/// bytes are brackets, escapes and the starts of new games in both, so
/// that it still ends where it ends.
pub(crate) fn reads_alike(value: &[u8], from: ValueMode, to: ValueMode) -> bool {
    from == to || structure(value, from) == structure(value, to)
}

/// Whether `new`, written in place of `old`, is read the way `old` is in
/// `mode`: the same bytes are brackets, escapes and the starts of new
/// games (for a value changed byte for byte, such as a colour exchanged).
pub(crate) fn same_reading(old: &[u8], new: &[u8], mode: ValueMode) -> bool {
    old.len() == new.len() && structure(old, mode) == structure(new, mode)
}

/// The offsets of the bytes of `value` that its reading in `mode` turns on:
/// unescaped `[` and `]`, escapes, `(` where a new game starts, and a
/// character cut in half at the end (the offset of the value's end).
fn structure(value: &[u8], mode: ValueMode) -> Vec<usize> {
    let mut framed = Vec::with_capacity(value.len() + 2);
    framed.push(b'[');
    framed.extend_from_slice(value);
    framed.push(b']');
    let end = framed.len() - 1;
    let mut marks = Vec::new();
    let mut i = 1;
    while i < end {
        let b = framed[i];
        if mode.is_lead(b) {
            if i + 1 >= end {
                marks.push(end);
            }
            i += 2;
            continue;
        }
        match b {
            b'[' | b']' => marks.push(i),
            b'\\' => {
                marks.push(i);
                if i + 1 < end && framed[i + 1] == b'(' && resync_point(&framed, i + 1) {
                    marks.push(i + 1);
                }
                i += 2;
                continue;
            }
            b'(' if resync_point(&framed, i) => marks.push(i),
            _ => {}
        }
        i += 1;
    }
    marks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_values() {
        let bytes = ValueMode::Bytes;
        assert!(check_new_value(b"", bytes).is_ok());
        assert!(check_new_value(br"a\]b\\", bytes).is_ok());
        assert!(check_new_value(b"a[b", bytes).is_ok());
        assert!(check_new_value(b"a]b", bytes).is_err());
        assert!(check_new_value(b"ab\\", bytes).is_err());
        assert!(check_new_value(b"x (;GM[1\\]", bytes).is_err());
        assert!(check_new_value(b"(;GM[1\\]", bytes).is_err());
        assert!(check_new_value(b"(\\;GM[1\\]", bytes).is_ok());
        // `表` in Shift_JIS ends with 0x5C: no escape there.
        assert!(check_new_value(b"\x95\x5c", ValueMode::ShiftJis).is_ok());
        assert!(check_new_value(b"\x95\x5c", bytes).is_err());
        assert!(check_new_value(b"a\x95", ValueMode::ShiftJis).is_err());
    }

    #[test]
    fn alike() {
        let sjis = ValueMode::ShiftJis;
        assert!(reads_alike(b"plain", ValueMode::Bytes, sjis));
        assert!(!reads_alike(b"\x95\x5c]", sjis, ValueMode::Bytes));
        assert!(!reads_alike(b"\x95", ValueMode::Bytes, sjis));
    }
}
