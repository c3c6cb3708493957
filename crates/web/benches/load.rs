//! The web server under load on loopback (docs/web.md, "Load"): position
//! requests a second with 8 clients, the latency of a 100 ms analysis with
//! 8 clients asking at once, and the mixed load of issue 33 (every
//! endpoint, 50 analyses asking for far more than the 10 s cap, 8 clients
//! timing `GET /api/games`, 50 slow clients): the peak RSS, the p50/p99
//! latency of the cheap request, and whether every analysis was answered
//! within its cap and a second. Prints the figures; bounded in count and
//! time (4,000 requests, 3 rounds of analyses, one mixed round of about
//! 11 s).

use zoo_web::load::{self, Mix};
use zoo_web::Config;

fn main() {
    let rt = tokio::runtime::Runtime::new().expect("a runtime");
    rt.block_on(async {
        let mix = Mix {
            analyses: 50,
            cap_ms: 10_000,
            cheap_clients: 8,
            slow_clients: 50,
        };
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let addr = listener.local_addr().expect("an address");
        let config = Config {
            max_searches: mix.analyses + 2,
            max_movetime_ms: mix.cap_ms,
            ..Config::default()
        };
        tokio::spawn(zoo_web::serve_on(listener, config, std::future::pending()));
        let t = load::positions(addr, 8, 500).await;
        println!(
            "position: {} requests by 8 clients in {:.2} s: {:.0} requests/s, {} failed",
            t.requests,
            t.seconds,
            t.per_second(),
            t.failures
        );
        for round in 1..=3 {
            let mut ms: Vec<f64> = load::analyses(addr, 8, 100).await.into_iter().flatten().collect();
            ms.sort_by(f64::total_cmp);
            println!(
                "analyse 100 ms, 8 clients at once, round {round}: {} answered, latency min {:.0} ms, median {:.0} ms, max {:.0} ms",
                ms.len(),
                ms.first().copied().unwrap_or(f64::NAN),
                ms.get(ms.len() / 2).copied().unwrap_or(f64::NAN),
                ms.last().copied().unwrap_or(f64::NAN)
            );
        }
        let r = load::mixed(addr, &mix).await;
        let mut ms: Vec<f64> = r.analyses.iter().map(|(_, ms)| *ms).collect();
        ms.sort_by(f64::total_cmp);
        let ok = r.analyses.iter().filter(|(s, _)| *s == 200).count();
        println!(
            "mixed: {} analyses of 10^9 ms (cap {} ms, hash {} MiB each): {ok} answered 200 ({} of them late, from a starved search's last iteration), {} later than the cap and a second; answer times min {:.0} ms, median {:.0} ms, max {:.0} ms",
            r.analyses.len(),
            mix.cap_ms,
            Config::default().hash_mb,
            r.starved,
            r.late(mix.cap_ms, 0),
            ms.first().copied().unwrap_or(f64::NAN),
            ms.get(ms.len() / 2).copied().unwrap_or(f64::NAN),
            ms.last().copied().unwrap_or(f64::NAN)
        );
        println!(
            "mixed: GET /api/games by {} clients: {} requests, {} failed, p50 {:.1} ms, p99 {:.1} ms; other endpoints {} requests, {} unanswered; slow clients closed {} of {}; peak RSS {:.0} MiB",
            mix.cheap_clients,
            r.cheap.0,
            r.cheap.1,
            r.cheap_p50_ms,
            r.cheap_p99_ms,
            r.others.0,
            r.others.1,
            r.slow.1,
            r.slow.0,
            r.max_rss_kib as f64 / 1024.0
        );
    });
}
