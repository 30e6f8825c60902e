//! `sgf export --analysis` and `sgf strip --preset analysis` on a file
//! holding every form of engine analysis.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn sgf(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_sgf"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("sgf-grove-analysis-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Base64, standard alphabet, padded.
fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n =
            chunk.iter().fold(0u32, |acc, &b| acc << 8 | u32::from(b)) << (8 * (3 - chunk.len()));
        for i in 0..4 {
            out.push(if i <= chunk.len() {
                ABC[(n >> (18 - 6 * i) & 63) as usize] as char
            } else {
                '='
            });
        }
    }
    out
}

fn pack(bytes: &[u8]) -> String {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).unwrap();
    base64(&gz.finish().unwrap())
}

/// A 9×9 game with one form per move and two human comments.
fn every_form() -> String {
    let json = r#"{"root": {"winrate": 0.625, "scoreLead": 1.25, "visits": 500}, "moves": {"C3": {"order": 0, "pv": ["C3", "E5"]}}}"#;
    let ownership: Vec<u8> = std::iter::repeat_n(0x3c00u16.to_le_bytes(), 81)
        .flatten()
        .collect();
    let kt = format!(
        "{}][{}][{}",
        pack(&ownership),
        pack(b""),
        pack(json.as_bytes())
    );
    format!(
        "(;GM[1]SZ[9]KTV[1.0]C[Game start, 0.5 komi]\
         ;B[ee]KT[{kt}]\
         ;W[cc]LZ[0.7.2 40.0 1.2k\nmove G7 visits 1000 winrate 5800 scoreMean 1.5 pv G7 C7]\
         ;B[gg]SBKV[57.5]SBKS[2.5]\
         ;W[cg]SBKV[51]OGSC[0.5]\
         ;B[gc]C[0.40 0.60 0.00 -3.7 v=400 weight=1.00]\
         ;W[dd]C[White's win rate: 30.0% visits: 507]\
         ;B[ec]C[Black's winrate: 70.0% (+1.0%)\n(kata / 800 playouts)]\
         ;W[de]C[0.40 0.60 0.00 -3.7 was a close call])"
    )
}

fn write_input(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("review.sgf");
    std::fs::write(&path, text).unwrap();
    path
}

const FORMS: [&str; 8] = [
    "katrain",
    "lizzie",
    "sabaki",
    "ogatak",
    "katago-selfplay",
    "ogs",
    "lizzie-comment",
    "",
];

#[test]
fn export_analysis_jsonl() {
    let dir = temp_dir("jsonl");
    let input = write_input(&dir, &every_form());
    let out = sgf(&[
        "export",
        "--format",
        "jsonl",
        "--analysis",
        "-q",
        input.to_str().unwrap(),
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    let record: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let rows = record["analysis"].as_array().unwrap();
    let forms: Vec<&str> = rows.iter().map(|r| r["form"].as_str().unwrap()).collect();
    assert_eq!(forms, FORMS[..7]);
    let kt = &rows[0];
    assert_eq!(kt["move_number"], 1);
    assert_eq!(kt["move"], "ee");
    assert_eq!(kt["win_rate"], 0.625);
    assert_eq!(kt["pv"], "cg ee");
    assert_eq!(kt["has_ownership"], true);
    assert_eq!(kt["has_policy"], false);
    // Lizzie: White moved with 40% → Black 60%; the score is Black's (to move).
    let lz = &rows[1];
    assert!((lz["win_rate"].as_f64().unwrap() - 0.6).abs() < 1e-9);
    assert_eq!(
        (lz["score_lead"].as_f64(), lz["visits"].as_u64()),
        (Some(1.5), Some(1200))
    );
    assert_eq!(lz["pv"], "gc cc");
    let selfplay = &rows[4];
    assert_eq!(
        (
            selfplay["before_move"].as_bool(),
            selfplay["score_lead"].as_f64()
        ),
        (Some(true), Some(3.7))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn export_analysis_csv_and_parquet() {
    let dir = temp_dir("tables");
    let input = write_input(&dir, &every_form());
    let csv_dir = dir.join("csv");
    sgf(&[
        "export",
        "--format",
        "csv",
        "--analysis",
        "-q",
        "--out",
        csv_dir.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(csv_dir.join("analysis.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let names: Vec<&str> = sgf_grove::table::ANALYSIS_COLUMNS
        .iter()
        .map(|c| c.name)
        .collect();
    assert_eq!(header, names);
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 7);
    assert_eq!(rows[3][6], "ogatak");
    assert_eq!((rows[3][8], rows[3][9]), ("0.51", "0.5"));

    let pq_dir = dir.join("pq");
    sgf(&[
        "export",
        "--format",
        "parquet",
        "--analysis",
        "-q",
        "--out",
        pq_dir.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    let file = std::fs::File::open(pq_dir.join("analysis.parquet")).unwrap();
    let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    let mut forms = Vec::new();
    let mut win_rates = Vec::new();
    for batch in reader {
        use arrow_array::cast::AsArray;
        let batch = batch.unwrap();
        let form = batch.column_by_name("form").unwrap().as_string::<i32>();
        let wr = batch
            .column_by_name("win_rate")
            .unwrap()
            .as_primitive::<arrow_array::types::Float64Type>();
        for i in 0..batch.num_rows() {
            forms.push(form.value(i).to_owned());
            win_rates.push(wr.value(i));
        }
    }
    assert_eq!(forms, FORMS[..7]);
    assert_eq!(win_rates[2], 0.575);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn export_without_analysis_gives_no_rows() {
    let dir = temp_dir("none");
    let input = write_input(&dir, "(;GM[1]SZ[19]C[0.5 points];B[pd]C[nice];W[dd])");
    let out = sgf(&[
        "export",
        "--format",
        "jsonl",
        "--analysis",
        "-q",
        input.to_str().unwrap(),
    ]);
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(record["analysis"].as_array().unwrap().len(), 0);
    let csv_dir = dir.join("csv");
    sgf(&[
        "export",
        "--format",
        "csv",
        "--analysis",
        "-q",
        "--out",
        csv_dir.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(csv_dir.join("analysis.csv")).unwrap();
    assert_eq!(text.lines().count(), 1, "the header alone: {text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn export_reports_malformed_analysis() {
    let dir = temp_dir("bad");
    let input = write_input(&dir, "(;SZ[19];B[pd]SBKV[lots];W[dd]SBKV[45])");
    let out = sgf(&[
        "export",
        "--format",
        "jsonl",
        "--analysis",
        "-q",
        input.to_str().unwrap(),
    ]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("game 0: sabaki analysis: SBKV[lots] is not a percentage at 1:20 (byte 19)"),
        "{err}"
    );
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(record["analysis"].as_array().unwrap().len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn strip_removes_every_form_and_keeps_human_comments() {
    let dir = temp_dir("strip");
    let input = write_input(&dir, &every_form());
    let out = sgf(&["strip", "--preset", "analysis", input.to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    for ident in ["KT[", "KTV[", "LZ[", "SBKV[", "SBKS[", "OGSC["] {
        assert!(!text.contains(ident), "{ident} left: {text}");
    }
    for engine in ["0.60 0.00 -3.7 v=400", "win rate:", "winrate:"] {
        assert!(!text.contains(engine), "{engine} left: {text}");
    }
    assert!(text.contains("C[Game start, 0.5 komi]"), "{text}");
    assert!(
        text.contains("C[0.40 0.60 0.00 -3.7 was a close call]"),
        "{text}"
    );
    // Nothing else changed: the moves are all there.
    assert_eq!(text.matches(";B[").count() + text.matches(";W[").count(), 8);
    // And the stripped file has no analysis left to export.
    let stripped = dir.join("stripped.sgf");
    std::fs::write(&stripped, &text).unwrap();
    let out = sgf(&[
        "export",
        "--format",
        "jsonl",
        "--analysis",
        "-q",
        stripped.to_str().unwrap(),
    ]);
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(record["analysis"].as_array().unwrap().len(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}
