use super::*;

#[test]
fn moves_parse_in_both_notations() {
    assert_eq!(parse_move("7,7", 15), Some((7, 7)));
    assert_eq!(parse_move(" 3 , 12 ", 15), Some((3, 12)));
    assert_eq!(parse_move("h8", 15), Some((7, 7)));
    assert_eq!(parse_move("H8", 15), Some((7, 7)));
    assert_eq!(parse_move("A1", 30), Some((26, 0)));
    assert_eq!(parse_move("-1,4", 15), Some((-1, 4)));
    for bad in [
        "",
        "h",
        "8",
        "h8x",
        "x,",
        ",3",
        "é4",
        "h-2",
        "99999999999999999999,1",
    ] {
        assert_eq!(parse_move(bad, 15), None, "{bad}");
    }
}

#[test]
fn splitmix_is_seeded() {
    let a: Vec<u64> = {
        let mut r = SplitMix64::new(7);
        (0..3).map(|_| r.next_u64()).collect()
    };
    let mut r = SplitMix64::new(7);
    assert_eq!(a, (0..3).map(|_| r.next_u64()).collect::<Vec<_>>());
    assert_ne!(a[0], SplitMix64::new(8).next_u64());
}
