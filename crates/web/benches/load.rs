//! The web server under load on loopback: `/api/position` requests a
//! second with 8 clients, and the latency of a 100 ms analysis with 8
//! clients asking at once (docs/web.md, "Load"). Prints the figures;
//! bounded in count (4,000 requests, 3 rounds of analyses).

use zoo_web::{load, Config};

fn main() {
    let rt = tokio::runtime::Runtime::new().expect("a runtime");
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let addr = listener.local_addr().expect("an address");
        let config = Config {
            max_searches: 8,
            ..Config::default()
        };
        tokio::spawn(async move { zoo_web::serve_on(listener, config, std::future::pending()).await });
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
    });
}
