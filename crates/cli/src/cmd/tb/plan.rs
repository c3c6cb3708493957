//! `zoo tb plan`: prints what building the tables of a size would cost
//! (the plan is `zoo_app::TableSet::cost_plan`'s).

use super::args::PlanArgs;
use anyhow::Result;
use zoo_app::human_bytes;
use zoo_app::tables::plan::{CostPlan, PlanRates, PlanRequest};

pub(super) fn run(a: &PlanArgs) -> Result<()> {
    let set = a.tables.set(a.game)?;
    let rates = match &a.rates {
        Some(path) => {
            let text = zoo_app::files::read_text(path, zoo_app::files::TEXT_LIMIT, "rates")?;
            Some(PlanRates::from_json(&text)?)
        }
        None => None,
    };
    if rates.is_none() && !a.json {
        eprintln!("measuring this machine's rates (a few seconds; --rates FILE skips it)...");
    }
    let plan = set.cost_plan(&PlanRequest {
        pieces: a.pieces,
        only: a.only,
        machines: a.machines,
        memory_per_machine_gb: a.memory_per_machine,
        disk_per_machine_gb: a.disk_per_machine,
        threads_per_machine: a.threads_per_machine,
        network_gb_per_sec: a.network,
        rates,
        solve_all: a.solve_all,
        encoding: a.encoding.map(|e| e.encoding()),
    })?;
    if a.json {
        return crate::cmd::json::result(&plan);
    }
    print_plan(&plan, a.top);
    Ok(())
}

/// `42 s`, `12.5 min`, `3.2 h`, `4.1 days`.
fn human_secs(s: f64) -> String {
    if s < 120.0 {
        format!("{s:.1} s")
    } else if s < 7200.0 {
        format!("{:.1} min", s / 60.0)
    } else if s < 3.0 * 86400.0 {
        format!("{:.1} h", s / 3600.0)
    } else {
        format!("{:.1} days", s / 86400.0)
    }
}

/// `1.2 G`, `34.5 M`: a count.
fn human_count(n: u64) -> String {
    let x = n as f64;
    if x >= 1e12 {
        format!("{:.2} T", x / 1e12)
    } else if x >= 1e9 {
        format!("{:.2} G", x / 1e9)
    } else if x >= 1e6 {
        format!("{:.1} M", x / 1e6)
    } else {
        n.to_string()
    }
}

fn print_plan(p: &CostPlan, top: usize) {
    let m = &p.machines;
    let sizes = if p.only {
        format!("tables of {} pieces", p.pieces)
    } else {
        format!("tables of 2 to {} pieces", p.pieces)
    };
    println!(
        "{} {}: {sizes} on {} machine{} ({} of memory, {} threads{})",
        p.game,
        p.rules,
        m.count,
        if m.count == 1 { "" } else { "s" },
        human_bytes(m.memory_bytes),
        m.threads,
        match m.disk_bytes {
            Some(d) => format!(", {} of disk", human_bytes(d)),
            None => ", disk not checked".into(),
        },
    );
    let r = &p.rates;
    let updates: Vec<String> = r
        .update_ns
        .iter()
        .map(|u| format!("{:.1} ns in {}", u.ns, human_bytes(u.state_bytes)))
        .collect();
    match &p.calibration {
        Some(c) => println!(
            "rates measured here in {:.1} s ({} solved by one thread: {} entries in {:.2} s, {} told):",
            c.total_seconds,
            c.material,
            human_count(c.positions),
            c.seconds,
            human_count(c.told)
        ),
        None => println!("rates given:"),
    }
    if p.generator == "generic" {
        println!(
            "  a solve {:.1} ns per entry and piece, and {:.2} predecessors told per entry and piece, \
             by the generic generator: each table whole in one machine's memory, the tables shared \
             out among the machines; a copy from the colour swap {:.1} ns per entry",
            r.solve_ns, r.told_per_entry, r.copy_ns,
        );
    } else {
        println!(
            "  a solve {:.1} ns per entry and piece, and {:.2} predecessors told per entry and piece, \
             each a state update of {}; a copy {:.1} ns per entry; network {:.2} GB/s a machine",
            r.solve_ns,
            r.told_per_entry,
            updates.join(" to "),
            r.copy_ns,
            m.network_bytes_per_second / 1e9
        );
    }
    println!();
    println!(
        "{:>6} {:>7} {:>6} {:>10} {:>8} {:>11} {:>10} {:>10} {:>11} {:>5} {:>9} {:>10} {:>11}",
        "pieces",
        "configs",
        "copies",
        "positions",
        "encoding",
        "bytes/entry",
        "disk",
        "at 1 bit",
        "working max",
        "split",
        "messages",
        "CPU time",
        "wall time"
    );
    for s in &p.sizes {
        println!(
            "{:>6} {:>7} {:>6} {:>10} {:>8} {:>11} {:>10} {:>10} {:>11} {:>5} {:>9} {:>10} {:>11}",
            s.pieces,
            s.configurations,
            s.copies,
            human_count(s.positions),
            s.encoding,
            format!(
                "{:.3}{}",
                s.bytes_per_entry,
                if s.measured_pieces.is_some() { "" } else { "*" }
            ),
            human_bytes(s.table_bytes),
            human_bytes(s.one_bit_bytes),
            human_bytes(s.working_max_bytes),
            s.split + s.in_files,
            human_count(s.messages),
            human_secs(s.thread_seconds),
            human_secs(s.seconds),
        );
    }
    let t = &p.totals;
    println!(
        "{:>6} {:>7} {:>6} {:>10} {:>8} {:>11} {:>10} {:>10} {:>11} {:>5} {:>9} {:>10} {:>11}",
        "all",
        t.configurations,
        t.copies,
        human_count(t.positions),
        "",
        "",
        human_bytes(t.table_bytes),
        human_bytes(t.one_bit_bytes),
        "",
        "",
        human_count(t.messages),
        human_secs(t.thread_seconds),
        human_secs(t.seconds),
    );
    for s in &p.sizes {
        if let Some(n) = s.measured_pieces.filter(|&n| n != s.pieces) {
            println!(
                "{} pieces: bytes per entry of the {}-piece {} tables here",
                s.pieces, n, s.encoding
            );
        } else if s.measured_pieces.is_none() {
            println!(
                "{} pieces: * no {} table here to measure: bytes per entry assumed",
                s.pieces, s.encoding
            );
        }
        if s.split > 0 {
            println!(
                "{} pieces: {} configuration{} split across the {} machines ({} of messages)",
                s.pieces,
                s.split,
                if s.split == 1 { "" } else { "s" },
                m.count,
                human_bytes(s.message_bytes)
            );
        }
        if s.in_files > 0 && p.generator == "generic" {
            println!(
                "{} pieces: {} table{} larger than a machine's memory: the generic generator cannot build {}",
                s.pieces,
                s.in_files,
                if s.in_files == 1 { "" } else { "s" },
                if s.in_files == 1 { "it" } else { "them" }
            );
        } else if s.in_files > 0 {
            println!(
                "{} pieces: {} configuration{} larger than all the machines' memory: state in files \
                 (slower than planned)",
                s.pieces,
                s.in_files,
                if s.in_files == 1 { "" } else { "s" }
            );
        }
    }
    println!(
        "disk: {} on the machine that needs the most (every table and its scratch){}",
        human_bytes(t.machine_disk_bytes),
        match t.fits_disk {
            Some(true) => ", fits",
            Some(false) => ", MORE than --disk-per-machine",
            None => "",
        }
    );
    let mut order: Vec<_> = p.configurations.iter().collect();
    order.sort_by(|a, b| b.seconds.total_cmp(&a.seconds));
    let shown = order.len().min(top);
    if shown == 0 {
        return;
    }
    println!();
    println!(
        "the {shown} longest of {} configurations (--top):",
        order.len()
    );
    println!(
        "{:<10} {:>10} {:>10} {:>10} {:>9} {:>10} {:>9} {:>7} {:>14} {:>10}",
        "name",
        "positions",
        "working",
        "disk",
        "copy of",
        "told",
        "messages",
        "needs",
        "placed",
        "wall time"
    );
    for c in &order[..shown] {
        let placed = match (c.placement, c.machine) {
            ("machine", Some(r)) => format!("machine {r}"),
            ("state_in_files", Some(r)) => format!("files on {r}"),
            ("does_not_fit", _) => "too large".into(),
            _ => "split".into(),
        };
        println!(
            "{:<10} {:>10} {:>10} {:>10} {:>9} {:>10} {:>9} {:>7} {:>14} {:>10}",
            c.name,
            human_count(c.positions),
            human_bytes(c.working_bytes),
            human_bytes(c.table_bytes),
            c.copied_from.as_deref().unwrap_or("-"),
            human_count(c.told),
            human_count(c.messages),
            format!("{} m", c.machines_needed),
            placed,
            human_secs(c.seconds),
        );
    }
}
