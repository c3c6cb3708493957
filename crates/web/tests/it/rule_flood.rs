//! A flood of distinct rule-set names (`leiden+no-capture-limit=N`) keeps
//! the server's memory and its time per request flat (issue 33, finding
//! 2: each name was kept for good in a list searched linearly under a
//! lock: about 115 bytes a name, 2.7 MB over the batches compared). 32,000 requests in 8 batches; the resident size after the
//! second batch and at the end, and the time of the second and the last
//! batch, are compared with generous margins.

use crate::common;

use std::time::Instant;
use zoo_web::client::request;
use zoo_web::Config;

fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

const BATCHES: u64 = 8;
const PER_BATCH: u64 = 4000;
const CLIENTS: u64 = 8;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn distinct_rule_names_keep_memory_and_time_flat() {
    let _alone = crate::common::alone().await;
    let srv = common::start(Config::default()).await;
    let addr = srv.addr;
    let (mut rss, mut secs) = (Vec::new(), Vec::new());
    let mut statuses = std::collections::BTreeMap::new();
    for batch in 0..BATCHES {
        let t = Instant::now();
        let tasks: Vec<_> = (0..CLIENTS)
            .map(|c| {
                tokio::spawn(async move {
                    let mut seen = Vec::new();
                    for i in (c..PER_BATCH).step_by(CLIENTS as usize) {
                        let n = 1 + batch * PER_BATCH + i;
                        let body =
                            format!(r#"{{"game":"jungle","rules":"leiden+no-capture-limit={n}"}}"#);
                        let (s, _) = request(addr, "POST", "/api/position", Some(&body))
                            .await
                            .unwrap();
                        seen.push(s);
                    }
                    seen
                })
            })
            .collect();
        for t in tasks {
            for s in t.await.unwrap() {
                *statuses.entry(s).or_insert(0u64) += 1;
            }
        }
        secs.push(t.elapsed().as_secs_f64());
        rss.push(rss_kib());
    }
    eprintln!("RSS KiB after each batch: {rss:?}; seconds: {secs:?}; answers {statuses:?}");
    // Every request answered: made (200), or refused past the cap (400).
    assert_eq!(statuses.values().sum::<u64>(), BATCHES * PER_BATCH);
    assert!(
        statuses.keys().all(|s| *s == 200 || *s == 400),
        "{statuses:?}"
    );
    let grown = rss[BATCHES as usize - 1].saturating_sub(rss[1]);
    assert!(grown < 2 * 1024, "RSS grew {grown} KiB: {rss:?}");
    let (second, last) = (secs[1], secs[BATCHES as usize - 1]);
    assert!(last < 3.0 * second + 0.5, "batches took {secs:?} s");

    // A name made before the cap still works; a new one past it is
    // refused with a reason.
    let (s, _) = request(
        addr,
        "POST",
        "/api/position",
        Some(r#"{"game":"jungle","rules":"leiden+no-capture-limit=1"}"#),
    )
    .await
    .unwrap();
    assert_eq!(s, 200);
    let (s, body) = request(
        addr,
        "POST",
        "/api/position",
        Some(r#"{"game":"jungle","rules":"leiden+no-capture-limit=65000"}"#),
    )
    .await
    .unwrap();
    assert_eq!(s, 400, "{body}");
    assert!(body.contains("rule sets"), "{body}");
}
