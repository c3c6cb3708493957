//! Raw bytes as one HTTP connection into the server: hyper's HTTP/1
//! parser, the connection limits, the router's checks and every handler,
//! as `zoo serve` runs them (`zoo_web::serve_connection` over an in-memory
//! stream). Searches and proofs are held to a millisecond and a small
//! table, so that an input that starts one is quick. Never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use zoo_web::Config;

struct Server {
    rt: tokio::runtime::Runtime,
    app: axum::Router,
    config: Config,
}

fn server() -> &'static Server {
    static S: OnceLock<Server> = OnceLock::new();
    S.get_or_init(|| {
        let config = Config {
            max_movetime_ms: 1,
            max_depth: 2,
            max_prove_mb: 1,
            hash_mb: 1,
            ..Config::default()
        };
        Server {
            rt: tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime"),
            app: zoo_web::router(config.clone()),
            config,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let s = server();
    s.rt.block_on(async {
        let (mut client, conn) = tokio::io::duplex(1 << 16);
        let task = tokio::spawn(zoo_web::serve_connection(conn, s.app.clone(), &s.config));
        let _ = client.write_all(data).await;
        let _ = client.shutdown().await;
        let mut answer = Vec::new();
        let _ = client.read_to_end(&mut answer).await;
        if let Err(e) = task.await {
            if e.is_panic() {
                std::panic::resume_unwind(e.into_panic());
            }
        }
    });
});
