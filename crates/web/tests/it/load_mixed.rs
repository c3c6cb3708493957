//! A mixed load on loopback, bounded in count and time (issue 33): every
//! endpoint, 50 analyses asking for far more than the cap, 4 clients
//! timing `GET /api/games`, 20 slow clients. Every analysis must be
//! answered within its cap and a second (200, or 504 for a search that
//! did not stop in time), every other request answered, every slow client
//! closed. The figures printed are only looked at; the bench's
//! (`cargo bench -p zoo-web --bench load`) are in docs/log/web.md.

use zoo_web::load::{self, Mix};
use zoo_web::Config;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mixed_load_with_slow_clients_is_answered_within_the_caps() {
    let _alone = crate::common::alone().await;
    let mix = Mix {
        analyses: 50,
        cap_ms: 1500,
        cheap_clients: 4,
        slow_clients: 20,
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let config = Config {
        max_searches: mix.analyses + 2,
        max_movetime_ms: mix.cap_ms,
        hash_mb: 2,
        header_timeout_ms: 1000,
        ..Config::default()
    };
    tokio::spawn(zoo_web::serve_on(listener, config, std::future::pending()));
    let r = load::mixed(addr, &mix).await;
    eprintln!(
        "analyses {:?} ({} from a starved search's last iteration); cheap {:?} p50 {:.1} ms p99 {:.1} ms; others {:?}; slow {:?}; max RSS {} KiB",
        r.analyses, r.starved, r.cheap, r.cheap_p50_ms, r.cheap_p99_ms, r.others, r.slow, r.max_rss_kib
    );
    assert!(
        r.analyses.iter().all(|(s, _)| *s == 200 || *s == 504),
        "{:?}",
        r.analyses
    );
    // The server answers by the cap and a second at the latest; 2 s more
    // for this client's own scheduling on a shared machine (a load average
    // of 25 on 2 cores was seen while other builds ran; the bench's
    // figures, on a quieter machine, are in docs/log/web.md).
    assert_eq!(r.late(mix.cap_ms, 2000), 0, "{:?}", r.analyses);
    assert!(r.cheap.0 > 0 && r.cheap.1 == 0, "{:?}", r.cheap);
    assert_eq!(r.others.1, 0, "{:?}", r.others);
    assert_eq!(r.slow.1, r.slow.0, "slow clients left open: {:?}", r.slow);
}
