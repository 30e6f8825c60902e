//! The property catalogue through the public API.

use sgf_grove::value::catalogue::{
    all, find, game_name, game_table, lookup, AMAZONS, BACKGAMMON, GENERAL, GO, HEX,
    LINES_OF_ACTION, OCTI, OLD, UPDATE_2016,
};
use sgf_grove::value::{Arity, Origin, PropKind, ValueType};

#[test]
fn go_game_record_properties() {
    let km = lookup(1, "KM").unwrap();
    assert_eq!((km.ty, km.kind), (ValueType::Real, PropKind::GameInfo));
    let lb = lookup(1, "LB").unwrap();
    assert_eq!(
        (lb.ty, lb.arity),
        (
            ValueType::Compose(&ValueType::Point, &ValueType::SimpleText),
            Arity::List
        )
    );
    let sz = lookup(1, "SZ").unwrap();
    assert_eq!(sz.ty, ValueType::Number);
    assert_eq!(
        sz.alt,
        Some(ValueType::Compose(&ValueType::Number, &ValueType::Number))
    );
    assert_eq!(lookup(1, "TB").unwrap().arity, Arity::EList);
    assert!(lookup(1, "XX").is_none());
}

#[test]
fn game_specific_and_older_tables() {
    assert_eq!(lookup(18, "AA").unwrap().kind, PropKind::Setup);
    assert!(lookup(1, "AA").is_none());
    assert_eq!(lookup(1, "LT").unwrap().origin, Origin::Update2016);
    assert_eq!(find(OLD, "LT").unwrap().ty, ValueType::None);
    assert_eq!(lookup(4, "KI").unwrap().origin, Origin::Old);
    assert_eq!(game_table(19), OCTI);
    assert_eq!(game_name(19), Some("Octi"));
    let total = [
        GENERAL,
        GO,
        BACKGAMMON,
        LINES_OF_ACTION,
        HEX,
        AMAZONS,
        OCTI,
        UPDATE_2016,
        OLD,
    ]
    .iter()
    .map(|t| t.len())
    .sum::<usize>();
    assert_eq!(all().count(), total);
}
