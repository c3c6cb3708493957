//! The bytes each algorithm stores per node, the figure the memory limit
//! (`--hash`) is divided by: `cargo test --release -p zoo-solve --test
//! sizes -- --nocapture` prints them (docs/solve.md, "Benchmarks"). The
//! asserts pin them, so a change to the structs shows here.

use zoo_animal::{JungleCheckersPos, JunglePos};
use zoo_checkers::ClassicalPos;
use zoo_solve::{dfpn, pns, Ghi};

#[test]
fn bytes_per_stored_node() {
    let rows = [
        (
            "PNS/PN² tree node, Jungle Checkers",
            pns::bytes_per_node::<JungleCheckersPos>(),
        ),
        (
            "PNS/PN² tree node, Jungle",
            pns::bytes_per_node::<JunglePos>(),
        ),
        (
            "PNS/PN² tree node, Classical Checkers",
            pns::bytes_per_node::<ClassicalPos>(),
        ),
        (
            "df-pn table entry, naive / no-repetition-store / local-repetition",
            dfpn::bytes_per_entry_in(Ghi::NoRepetitionStore),
        ),
        (
            "df-pn table entry, path (with its chain)",
            dfpn::bytes_per_entry_in(Ghi::Path),
        ),
    ];
    for (what, bytes) in rows {
        println!("{what}: {bytes} bytes");
    }
    assert_eq!(dfpn::bytes_per_entry(), 24);
    assert_eq!(dfpn::bytes_per_entry_in(Ghi::Path), 24 + 8 * dfpn::MAX_DEPS);
    // A tree node: five u32 numbers, the move and the leaf kind.
    for (_, bytes) in &rows[..3] {
        assert!(*bytes >= 20 && *bytes <= 40, "{rows:?}");
    }
}
