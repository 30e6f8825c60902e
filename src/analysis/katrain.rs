//! KaTrain's `KT`: three values, ownership, policy and KataGo's analysis,
//! each gzip-compressed then base64-encoded. Ownership is `rows × cols`
//! half-precision floats, policy one more (the pass), both row by row from
//! the top left and little-endian; an absent one packs to nothing. The
//! analysis is JSON: `{"root": {"winrate", "scoreLead", "visits", …},
//! "moves": {"Q16": {"order", "pv", …}, …}, …}`, in Black's view (KaTrain
//! asks KataGo to report for Black). The root's `KTV` gives the format's
//! version; `1.0` is the one known.

use super::Analysis;
use crate::value::BoardSize;

/// The most bytes one `KT` value may inflate to: far above a 52×52
/// board's analysis, so that a damaged or hostile value cannot take the
/// memory.
#[cfg_attr(not(feature = "katrain"), allow(dead_code))]
const MAX_INFLATED: u64 = 16 << 20;

/// The analysis in the values of `KT` (each raw, with its offset).
///
/// # Errors
///
/// A message and the index of the value it is about.
#[cfg(feature = "katrain")]
pub(super) fn decode(
    values: &[(&[u8], Option<usize>)],
    size: BoardSize,
    version: Option<&[u8]>,
) -> Result<Analysis, (String, usize)> {
    if let Some(v) = version
        && v.trim_ascii() != b"1.0"
    {
        return Err((
            format!(
                "KTV[{}] is a format version not known (1.0 is)",
                String::from_utf8_lossy(v)
            ),
            0,
        ));
    }
    if values.len() < 3 {
        return Err((
            format!(
                "KT has {} values, not 3 (ownership, policy, analysis)",
                values.len()
            ),
            0,
        ));
    }
    let points = usize::from(size.cols) * usize::from(size.rows);
    let mut parts = Vec::with_capacity(3);
    for (i, (raw, _)) in values.iter().take(3).enumerate() {
        parts.push(inflate(raw).map_err(|m| (m, i))?);
    }
    let floats = |bytes: &[u8], want: usize, i: usize, what: &str| {
        if bytes.is_empty() {
            return Ok(None);
        }
        if bytes.len() != want * 2 {
            return Err((
                format!(
                    "KT's {what} holds {} bytes, not {} ({want} half floats)",
                    bytes.len(),
                    want * 2
                ),
                i,
            ));
        }
        Ok(Some(super::half::unpack(bytes)))
    };
    let mut a = Analysis::new(super::Form::KaTrain);
    a.ownership = floats(&parts[0], points, 0, "ownership")?;
    a.policy = floats(&parts[1], points + 1, 1, "policy")?;
    let json: serde_json::Value = serde_json::from_slice(&parts[2])
        .map_err(|e| (format!("KT's analysis is not JSON: {e}"), 2))?;
    let root = json
        .get("root")
        .and_then(serde_json::Value::as_object)
        .ok_or_else(|| ("KT's analysis has no \"root\" object".to_owned(), 2))?;
    let num = |key: &str| root.get(key).and_then(serde_json::Value::as_f64);
    a.win_rate = num("winrate").filter(|w| (0.0..=1.0).contains(w));
    a.score_lead = num("scoreLead");
    a.visits = root.get("visits").and_then(serde_json::Value::as_u64);
    if let Some(moves) = json.get("moves").and_then(serde_json::Value::as_object) {
        let order = |m: &serde_json::Value| m.get("order").and_then(serde_json::Value::as_u64);
        let best = moves.values().min_by_key(|m| order(m).unwrap_or(u64::MAX));
        if let Some(pv) = best
            .and_then(|m| m.get("pv"))
            .and_then(serde_json::Value::as_array)
        {
            for m in pv {
                let text = m.as_str().unwrap_or("");
                let parsed = super::gtp::parse(text, size)
                    .ok_or_else(|| (format!("KT's principal variation has {m} (no point)"), 2))?;
                a.pv.push(parsed);
            }
        }
    }
    Ok(a)
}

/// Without the `katrain` feature `KT` is not decoded: a warning says so.
#[cfg(not(feature = "katrain"))]
pub(super) fn decode(
    _values: &[(&[u8], Option<usize>)],
    _size: BoardSize,
    _version: Option<&[u8]>,
) -> Result<Analysis, (String, usize)> {
    Err((
        "KT is not decoded: sgf-grove was built without feature \"katrain\"".to_owned(),
        0,
    ))
}

/// The bytes the base64 text `raw` holds, gunzipped.
#[cfg(feature = "katrain")]
fn inflate(raw: &[u8]) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let gz = super::base64::decode(raw)
        .map_err(|at| format!("KT value is not base64 (byte {at} of the value)"))?;
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(&gz[..])
        .take(MAX_INFLATED + 1)
        .read_to_end(&mut out)
        .map_err(|e| format!("KT value is not gzip data: {e}"))?;
    if out.len() as u64 > MAX_INFLATED {
        return Err(format!(
            "KT value inflates to more than {MAX_INFLATED} bytes"
        ));
    }
    Ok(out)
}
