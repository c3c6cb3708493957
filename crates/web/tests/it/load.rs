//! A short load on loopback, bounded in count: every position request of
//! 8 clients at once is answered, and 8 analyses asked at once (as many as
//! the server allows) all come back. The figures are the bench's
//! (`cargo bench -p zoo-web --bench load`), not checked here; the mixed
//! load is in `load_mixed.rs` (never beside this one: both hold
//! `common::alone`, since its searches would slow this one's).

use zoo_web::load;
use zoo_web::Config;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_load_is_answered() {
    let _alone = crate::common::alone().await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let config = Config {
        max_searches: 8,
        ..Config::default()
    };
    tokio::spawn(zoo_web::serve_on(listener, config, std::future::pending()));
    let t = load::positions(addr, 8, 25).await;
    assert_eq!((t.requests, t.failures), (200, 0));
    let answered = load::analyses(addr, 8, 100).await;
    assert!(answered.iter().all(Option::is_some), "{answered:?}");
}
