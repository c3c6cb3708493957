//! The web API's request bodies: read as the handlers read them, then the
//! position built as they build it; never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use zoo_app::{EngineOptions, GameKind, Session};
use zoo_web::api::{AnalyseRequest, PositionRequest};

fuzz_target!(|data: &[u8]| {
    if let Ok(r) = serde_json::from_slice::<PositionRequest>(data) {
        if let Ok(kind) = r.game.parse::<GameKind>() {
            if let Ok(mut s) = Session::new(kind, r.rules.as_deref(), EngineOptions::default()) {
                let _ = s.set_position(r.fen.as_deref(), &r.moves);
                let _ = (s.fen(), s.status(), s.legal_moves());
            }
        }
    }
    let _ = serde_json::from_slice::<AnalyseRequest>(data);
});
