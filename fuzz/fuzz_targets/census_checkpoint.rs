//! Census checkpoints (`zoo census --checkpoint`): never a panic, and a
//! text that reads gives a consistent state: every row adds up, its
//! pieces are its material's, the whole lines end where it says, and
//! reading those lines alone gives the same materials.
#![no_main]
use libfuzzer_sys::fuzz_target;
use zoo_app::census::checkpoint::{parse, Header};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let census = Header {
        game: "jungle".into(),
        rules: "leiden".into(),
        reach: "thesis".into(),
    };
    if let Ok(p) = parse(text, &census) {
        assert!(p.keep <= text.len() && text.is_char_boundary(p.keep));
        for (&m, &(pieces, r)) in &p.done {
            assert_eq!(m.count_ones(), pieces);
            assert_eq!(r.pieces, pieces);
            assert_eq!(
                r.unfinished + r.stalemates + r.won_material + r.won_den,
                r.reachable
            );
        }
        let again = parse(&text[..p.keep], &census).expect("its whole lines read");
        assert_eq!(again.done, p.done);
        assert_eq!(again.last, p.last);
    }
});
