//! Game information through the tree: `GameTree::info` on hand-written
//! games, and the game-info parsers over every root node of the real corpus
//! in `../shared/corpus` (skipped with a printed reason when it is absent;
//! a failure when `CI` is set).

use crate::corpus_pass::{Check, Corpus, File};
use sgf_grove::game::{
    Application, Certainty, GameDates, GameInfo, GameResult, Handicap, Komi, KomiScale, Rank,
    Rules, TimeLimit, WinBy,
};
use sgf_grove::value::{Color, ValueType};
use sgf_grove::ErrorKind;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Mutex;

fn info_of(sgf: &[u8], check: impl FnOnce(GameInfo<'_>)) {
    let doc = sgf_grove::parse(sgf).expect("parses");
    check(doc.games().next().expect("a game").game_info());
}

#[test]
fn fox_root_node() {
    let sgf = "(;GM[1]FF[4]  SZ[19]  GN[]  DT[2019-02-19]  PB[相的佛陀]  PW[zerobot]  \
               BR[9段]  WR[P9段]  KM[375]HA[0]RU[Chinese]AP[GNU Go:3.8]RE[W+R]TM[60]TC[3]\
               TT[30]AP[foxwq]RL[0]  ;B[dd];W[pd])";
    info_of(sgf.as_bytes(), |info| {
        assert_eq!(info.game_name(), None);
        assert_eq!(info.black().name, Some("相的佛陀"));
        assert_eq!(
            info.black().rank,
            Some(Rank::Dan {
                level: 9,
                certainty: Certainty::Unspecified
            })
        );
        assert_eq!(info.white().rank.map(|r| r.to_string()), Some("9p".into()));
        let komi = info.komi().unwrap();
        assert_eq!(komi.scale(), KomiScale::Times50);
        assert_eq!(info.komi_points(), Some(7.5));
        assert_eq!(info.handicap(), Some(Handicap::NoStones(0)));
        assert_eq!(info.rules(), Some(Rules::Chinese));
        assert_eq!(
            info.result(),
            Some(GameResult::Win {
                winner: Color::White,
                by: WinBy::Resignation
            })
        );
        // The first of the two AP properties.
        assert_eq!(info.application().unwrap().name, "GNU Go");
        assert_eq!(info.time_limit().unwrap().seconds, 60.0);
    });
}

#[test]
fn escapes_line_breaks_and_pairs() {
    let sgf = b"(;CA[UTF-8]PB[Alice \\] & Bob]BR[3d & 1k]PW[Carol\r\nDave]RE[B+3.5]\
                GC[line one\\\r\n continued\nline two]DT[1996-05-06,07,08]\
                EV[  The \\]Event ]KM[]HA[]AP[Foo\\:Bar:1.0])";
    info_of(sgf, |info| {
        let black = info.black();
        assert_eq!(black.names().collect::<Vec<_>>(), ["Alice ]", "Bob"]);
        assert_eq!(
            black.ranks().map(|r| r.to_string()).collect::<Vec<_>>(),
            ["3d", "1k"]
        );
        // SimpleText: the line break becomes a space.
        assert_eq!(info.white().name, Some("Carol Dave"));
        assert_eq!(info.result().unwrap().margin(), Some(3.5));
        // Text: the soft break is removed, the hard one kept.
        assert_eq!(info.game_comment(), Some("line one continued\nline two"));
        assert_eq!(info.dates().unwrap().dates.len(), 3);
        assert_eq!(info.event(), Some("The ]Event"));
        // Empty values count as absent.
        assert_eq!((info.komi(), info.handicap()), (None, None));
        assert_eq!(info.get("KM"), Some(""));
        // Decoded text has lost the escape: split at the first `:`.
        let ap = info.application().unwrap();
        assert_eq!((&*ap.name, ap.version.as_deref()), ("Foo", Some("Bar:1.0")));
    });
}

#[test]
fn game_info_in_a_declared_charset() {
    // `9段` and `黑中盘胜` in GB2312.
    let mut sgf = b"(;CA[GB2312]BR[9".to_vec();
    sgf.extend_from_slice(&[0xB6, 0xCE]); // 段
    sgf.extend_from_slice(b"]RE[");
    sgf.extend_from_slice(&[0xBA, 0xDA, 0xD6, 0xD0, 0xC5, 0xCC, 0xCA, 0xA4]); // 黑中盘胜
    sgf.extend_from_slice(b"])");
    info_of(&sgf, |info| {
        assert_eq!(info.black().rank_text, Some("9段"));
        assert_eq!(
            info.result(),
            Some(GameResult::Win {
                winner: Color::Black,
                by: WinBy::Resignation
            })
        );
    });
}

#[test]
fn each_game_of_a_collection() {
    let doc = sgf_grove::parse(b"(;PB[a]KM[6.5])(;PB[b]KM[650]RU[Japanese])(;)").unwrap();
    let infos: Vec<_> = doc.games().map(|g| g.game_info().into_owned()).collect();
    assert_eq!(infos[0].black().name, Some("a"));
    assert_eq!(infos[0].komi_points(), Some(6.5));
    assert_eq!(infos[1].komi_points(), Some(6.5));
    assert_eq!(infos[2], GameInfo::default());
}

// -- Node::get for the game-info types ----------------------------------------

#[test]
fn node_get_reads_every_game_info_type() {
    let sgf = b"(;GM[1]KM[375]RU[Chinese]HA[2]BR[5d?]WR[P9\xe6\xae\xb5]RE[B+3.5]\
                DT[1996-12-27,28]TM[50:00]AP[Sabaki:0.52])";
    let doc = sgf_grove::parse(sgf).unwrap();
    let root = doc.games().next().unwrap().root();

    let komi = root.get::<Komi>("KM").unwrap().unwrap();
    assert_eq!((komi.raw(), komi.normalised()), ("375", 7.5));
    // The komi text is the input's own bytes, not a copy.
    let input = sgf.as_ptr_range();
    assert!(input.contains(&komi.raw().as_ptr()));
    assert_eq!(root.get::<Rules>("RU").unwrap(), Some(Rules::Chinese));
    assert_eq!(
        root.get::<Handicap>("HA").unwrap(),
        Some(Handicap::Stones(2))
    );
    assert_eq!(
        root.get::<Rank>("BR").unwrap(),
        Some(Rank::Dan {
            level: 5,
            certainty: Certainty::Uncertain
        })
    );
    assert_eq!(root.get::<Rank>("WR").unwrap().unwrap().to_string(), "9p");
    assert_eq!(
        root.get::<GameResult>("RE").unwrap().unwrap().margin(),
        Some(3.5)
    );
    let dates = root.get::<GameDates>("DT").unwrap().unwrap();
    assert_eq!(dates.dates.len(), 2);
    assert_eq!(
        root.get::<TimeLimit>("TM").unwrap(),
        Some(TimeLimit {
            seconds: 3000.0,
            lenient: true
        })
    );
    let ap = root.get::<Application>("AP").unwrap().unwrap();
    assert_eq!((&*ap.name, ap.version.as_deref()), ("Sabaki", Some("0.52")));
    assert!(matches!(ap.name, Cow::Borrowed(_)));
    // Absent properties.
    assert_eq!(root.get::<Komi>("PL").unwrap(), None);
    assert_eq!(root.get::<GameDates>("PL").unwrap(), None);
}

#[test]
fn node_get_game_info_errors_have_reason_text_and_position() {
    let sgf = b"(;GM[1]\n KM[six] DT[1996-02-30]\nTM[-])";
    let doc = sgf_grove::parse(sgf).unwrap();
    let root = doc.games().next().unwrap().root();
    for (ident, want_ident, text, reason, line, column) in [
        ("KM", "KM", "six", "not a number", 2, 5),
        ("DT", "DT", "1996-02-30", "no such date", 2, 13),
        ("TM", "TM", "-", "not a time", 3, 4),
    ] {
        let err = match ident {
            "KM" => root.get::<Komi>(ident).map(|_| ()),
            "DT" => root.get::<GameDates>(ident).map(|_| ()),
            _ => root.get::<TimeLimit>(ident).map(|_| ()),
        }
        .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidGameInfo { ident: want_ident });
        assert_eq!(err.value_text(), Some(text), "{ident}");
        assert_eq!(err.reason(), Some(reason), "{ident}");
        assert_eq!((err.line(), err.column()), (line, column), "{ident}");
        assert_eq!(sgf[err.offset() - 1], b'[');
        assert!(err.to_string().ends_with(&format!("at {line}:{column}")));
    }
    // A real getter on the same value still reports the value type.
    let err = root.get::<f64>("KM").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue(ValueType::Real));
}

#[test]
fn node_get_game_info_empty_and_option() {
    let doc = sgf_grove::parse(b"(;KM[]DT[ ]HA[]RE[])").unwrap();
    let root = doc.games().next().unwrap().root();
    // `KM[]` is no komi: an error as `Komi`, `None` as `Option<Komi>`.
    assert_eq!(root.get::<Komi>("KM").unwrap_err().reason(), Some("empty"));
    assert_eq!(root.get::<Option<Komi>>("KM").unwrap(), Some(None));
    assert_eq!(root.get::<Option<GameDates>>("DT").unwrap(), Some(None));
    // An error through `Option` keeps its reason.
    let doc = sgf_grove::parse(b"(;KM[x])").unwrap();
    let root = doc.games().next().unwrap().root();
    let err = root.get::<Option<Komi>>("KM").unwrap_err();
    assert_eq!((err.reason(), err.column()), (Some("not a number"), 6));
    // The never-failing parsers keep their fallbacks.
    let doc = sgf_grove::parse(b"(;HA[]RE[])").unwrap();
    let root = doc.games().next().unwrap().root();
    assert_eq!(
        root.get::<Handicap>("HA").unwrap(),
        Some(Handicap::Invalid(String::new()))
    );
    assert_eq!(
        root.get::<GameResult>("RE").unwrap(),
        Some(GameResult::Unparsed(String::new()))
    );
}

#[test]
fn node_get_game_info_in_a_declared_charset() {
    // `18级` as BR, `黑中盘胜` as RE, `三子` as HA, `中国` as RU, in GB2312.
    let mut sgf = b"(;CA[GB2312]BR[18".to_vec();
    sgf.extend_from_slice(&[0xBC, 0xB6]); // 级
    sgf.extend_from_slice(b"]RE[");
    sgf.extend_from_slice(&[0xBA, 0xDA, 0xD6, 0xD0, 0xC5, 0xCC, 0xCA, 0xA4]); // 黑中盘胜
    sgf.extend_from_slice(b"]HA[");
    sgf.extend_from_slice(&[0xC8, 0xFD, 0xD7, 0xD3]); // 三子
    sgf.extend_from_slice(b"]RU[");
    sgf.extend_from_slice(&[0xD6, 0xD0, 0xB9, 0xFA]); // 中国
    sgf.extend_from_slice(b"]KM[\xD6\xD0])");
    let doc = sgf_grove::parse(&sgf).unwrap();
    let root = doc.games().next().unwrap().root();
    assert_eq!(root.get::<Rank>("BR").unwrap().unwrap().to_string(), "18k");
    assert_eq!(
        root.get::<GameResult>("RE").unwrap(),
        Some(GameResult::Win {
            winner: Color::Black,
            by: WinBy::Resignation
        })
    );
    assert_eq!(
        root.get::<Handicap>("HA").unwrap().unwrap().stones(),
        Some(3)
    );
    assert_eq!(root.get::<Rules>("RU").unwrap(), Some(Rules::Chinese));
    // A komi that is not ASCII is no number, whatever the charset.
    let err = root.get::<Komi>("KM").unwrap_err();
    assert_eq!(err.reason(), Some("not a number"));
}

#[test]
fn node_get_application_splits_the_raw_value() {
    let doc = sgf_grove::parse(br"(;AP[Foo\:Bar:1.0]AP[x])").unwrap();
    let root = doc.games().next().unwrap().root();
    let ap = root.get::<Application>("AP").unwrap().unwrap();
    // Unlike `GameInfo::application`, which splits decoded text.
    assert_eq!((&*ap.name, ap.version.as_deref()), ("Foo:Bar", Some("1.0")));
    let all: Vec<_> = root
        .get_all::<Application>("AP")
        .map(|ap| ap.unwrap().name.into_owned())
        .collect();
    assert_eq!(all, ["Foo:Bar", "x"]);
}

// -- the real corpus ----------------------------------------------------------

/// Counts of values read and not read, per property, with the unread texts.
#[derive(Default)]
struct Tally {
    values: BTreeMap<&'static str, usize>,
    unread: BTreeMap<&'static str, BTreeMap<String, usize>>,
}

impl Tally {
    fn add(&mut self, ident: &'static str, read: bool, text: &str) {
        *self.values.entry(ident).or_default() += 1;
        if !read {
            *self
                .unread
                .entry(ident)
                .or_default()
                .entry(text.to_owned())
                .or_default() += 1;
        }
    }

    fn unread(&self, ident: &str) -> usize {
        self.unread.get(ident).map_or(0, |m| m.values().sum())
    }
}

/// Every root node of the corpus through the game-info parsers. Text is
/// taken as UTF-8 (lossily: the Fox files are damaged UTF-8 without `CA`),
/// so that this measures the parsers, not charset detection. The numbers
/// are those measured when the parsers were written; the corpus does not
/// change.
#[derive(Default)]
pub struct RealGameInfo(Mutex<(Tally, usize)>);

impl Check for RealGameInfo {
    fn name(&self) -> &'static str {
        "real_corpus_game_info"
    }

    fn file(&self, file: &File<'_>) {
        let path = file.path;
        let Ok(coll) = file.parsed else {
            return;
        };
        let mut guard = self.0.lock().unwrap();
        let (tally, scaled) = &mut *guard;
        for game in coll.games() {
            let root = game.root();
            let info = GameInfo::from_lookup(|ident| {
                let raw = root.raw(ident)?;
                let text = String::from_utf8_lossy(&sgf_grove::text::unescape(raw)).into_owned();
                Some(Cow::Owned(text.replace(['\r', '\n', '\t'], " ")))
            });
            let text = |ident| info.get(ident).unwrap_or_default().to_owned();
            if let Some(komi) = info.komi_checked() {
                tally.add("KM", komi.is_ok(), &text("KM"));
                if let Ok(komi) = komi {
                    *scaled += komi.looks_scaled() as usize;
                    // Every scaled komi comes out as a usual komi in points.
                    if komi.looks_scaled() {
                        let points = info.komi_points().unwrap();
                        assert!([4.5, 5.5, 6.5, 7.5].contains(&points), "{path:?}");
                    }
                }
            }
            if let Some(h) = info.handicap() {
                tally.add("HA", h.stones().is_some(), &text("HA"));
            }
            for (player, ident) in [(info.black(), "BR"), (info.white(), "WR")] {
                if let Some(rank) = player.rank {
                    tally.add("BR/WR", rank.is_known(), &text(ident));
                }
            }
            if let Some(result) = info.result() {
                tally.add("RE", result.is_parsed(), &text("RE"));
            }
            if let Some(dates) = info.dates_checked() {
                tally.add("DT", dates.is_ok(), &text("DT"));
            }
            if let Some(time) = info.time_limit_checked() {
                tally.add("TM", time.is_ok(), &text("TM"));
            }
            if let Some(rules) = info.rules() {
                tally.add("RU", !matches!(rules, Rules::Other(_)), &text("RU"));
            }
        }
    }

    fn finish(&self, _: &Corpus) {
        let guard = self.0.lock().unwrap();
        let (tally, scaled) = &*guard;
        let scaled = *scaled;
        for (ident, n) in &tally.values {
            eprintln!("{ident}: {n} values, {} not read", tally.unread(ident));
            for (text, count) in tally.unread.get(ident).into_iter().flatten() {
                eprintln!("    {count:6} {text:?}");
            }
        }
        assert_eq!(tally.values["KM"], 48_622);
        assert_eq!(scaled, 6_076);
        assert_eq!(tally.unread("KM"), 0);
        assert_eq!(tally.unread("HA"), 0);
        assert_eq!(tally.unread("RE"), 0);
        assert_eq!(tally.unread("DT"), 0);
        assert_eq!(tally.unread("RU"), 0);
        // `11.6k`, `12.2k`, `13.0k`, `16.1k`, `15k* IGS`.
        assert_eq!(tally.unread("BR/WR"), 5);
        // `TM[-]` 42 times, `TM[1800,0,30,5]` twice.
        assert_eq!(tally.unread("TM"), 44);
        // A sample of the real forms, read as expected.
        let d = GameDates::parse("2001/10/11 21:22:51 UT").unwrap();
        assert!(d.time_of_day && d.non_standard);
    }
}
