//! Trees of extreme shape: a million nested variations, a million-move main
//! line, a million variations under one node. Building, walking, writing,
//! re-parsing and dropping them must all run on the normal test thread (2 MiB
//! of stack): nothing in the crate may recurse over the tree.

use sgf_grove::{parse, write_collection};

const N: usize = 1_000_000;

/// A point that changes with `i`, so that the values are not all alike.
fn point(i: usize) -> [u8; 2] {
    [b'a' + (i % 19) as u8, b'a' + (i / 19 % 19) as u8]
}

/// `;B[..]` or `;W[..]`, colours alternating.
fn push_move(out: &mut Vec<u8>, i: usize) {
    out.extend_from_slice(if i.is_multiple_of(2) { b";B[" } else { b";W[" });
    out.extend_from_slice(&point(i));
    out.push(b']');
}

#[test]
fn million_deep_variation_nesting() {
    // (;B[aa](;W[ba](;B[ca]...)))
    let mut input = Vec::with_capacity(N * 8);
    for i in 0..N {
        if i > 0 {
            input.push(b'(');
        }
        push_move(&mut input, i);
    }
    input.insert(0, b'(');
    input.resize(input.len() + N, b')');

    let doc = parse(&input).expect("parses");
    assert!(doc.warnings().is_empty(), "{:?}", &doc.warnings()[..1]);
    assert_eq!(doc.collection().len(), 1);
    assert_eq!(doc.collection().node_count(), N);
    let root = doc.games().next().unwrap().root();
    assert_eq!(root.descendants().count(), N);
    let deepest = root.main_line().last().unwrap();
    assert!(deepest.is_leaf());
    assert_eq!(deepest.depth(), N - 1);
    assert_eq!(deepest.raw("W"), Some(&point(N - 1)[..]));
    assert_eq!(deepest.ancestors().last(), Some(root));

    // Each variation is an only child, so it is written as a main line.
    let written = write_collection(doc.collection());
    assert!(written.starts_with(b"(;B[aa];W[ba];B[ca]"));
    let again = parse(&written).expect("re-parses");
    assert!(again.warnings().is_empty());
    assert_eq!(again.collection().node_count(), N);
    assert_eq!(again.games().next().unwrap().nodes().count(), N);
    assert_eq!(write_collection(again.collection()), written);
    drop(again);
    drop(doc);
}

#[test]
fn million_move_main_line() {
    // (;GM[1];B[aa];W[ba]...)
    let mut input = Vec::with_capacity(N * 6 + 16);
    input.extend_from_slice(b"(;GM[1]");
    for i in 0..N {
        push_move(&mut input, i);
    }
    input.push(b')');

    let doc = parse(&input).expect("parses");
    assert!(doc.warnings().is_empty());
    let root = doc.games().next().unwrap().root();
    assert_eq!(root.main_line().count(), N + 1);
    assert_eq!(root.descendants().count(), N + 1);
    let last = root.main_line().last().unwrap();
    assert_eq!(last.depth(), N);
    assert_eq!(last.raw("W"), Some(&point(N - 1)[..]));

    let written = write_collection(doc.collection());
    assert_eq!(written.len(), input.len() + 1);
    assert_eq!(&written[..input.len()], &input[..]);
    let again = parse(&written).expect("re-parses");
    assert_eq!(again.collection().node_count(), N + 1);
    assert_eq!(write_collection(again.collection()), written);
    drop(again);
    drop(doc);
}

#[test]
fn million_wide_node() {
    // (;GM[1](;B[aa])(;B[ba])...)
    let mut input = Vec::with_capacity(N * 8 + 16);
    input.extend_from_slice(b"(;GM[1]");
    for i in 0..N {
        input.push(b'(');
        push_move(&mut input, 2 * i);
        input.push(b')');
    }
    input.push(b')');

    let doc = parse(&input).expect("parses");
    assert!(doc.warnings().is_empty());
    let root = doc.games().next().unwrap().root();
    assert_eq!(root.children().count(), N);
    assert_eq!(root.descendants().count(), N + 1);
    let last = root.children().last().unwrap();
    assert!(last.is_leaf());
    assert_eq!(last.depth(), 1);
    assert_eq!(last.raw("B"), Some(&point(2 * (N - 1))[..]));

    let written = write_collection(doc.collection());
    assert_eq!(written.len(), input.len() + 1);
    assert_eq!(&written[..input.len()], &input[..]);
    let again = parse(&written).expect("re-parses");
    assert_eq!(again.games().next().unwrap().root().children().count(), N);
    assert_eq!(write_collection(again.collection()), written);
    drop(again);
    drop(doc);
}
