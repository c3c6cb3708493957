//! `zoo tb manifest | size | wdl | recompress`: the table files on disk.

use super::args::*;
use anyhow::{bail, Result};
use zoo_app::human_bytes;

pub(super) fn run_manifest(a: &ManifestArgs) -> Result<()> {
    let set = a.tables.set(a.game)?;
    let dir = set.table_dir()?;
    if !a.check {
        let n = set.write_manifest()?;
        println!("{}: manifest of {n} tables written", dir.display());
        return Ok(());
    }
    let problems = set.check_manifest()?;
    for p in &problems {
        println!("  {p}");
    }
    if !problems.is_empty() {
        bail!(
            "{}: {} files differ from the manifest",
            dir.display(),
            problems.len()
        );
    }
    println!("{}: every table agrees with the manifest", dir.display());
    Ok(())
}

pub(super) fn run_size(a: &SizeArgs) -> Result<()> {
    let r = a.tables.set(a.game)?.disk(a.pieces)?;
    if a.json {
        if a.per_table {
            for t in &r.tables {
                crate::cmd::json::line("table", t)?;
            }
        }
        return crate::cmd::json::result(&serde_json::json!({
            "game": r.game,
            "rules": r.rules,
            "families": r.families,
            "wdl_families": r.wdl_families,
        }));
    }
    println!(
        "{} {}: table files by size (bits = file bytes x 8 / entries, or / positions as `zoo tb stats` counts them)",
        r.game, r.rules
    );
    println!(
        "{:>6} {:>9} {:>5} {:>5} {:>10} {:>16} {:>16} {:>10} {:>13}",
        "pieces",
        "files",
        "plain",
        "zstd",
        "bytes",
        "entries",
        "positions",
        "bits/entry",
        "bits/position"
    );
    let rows = r.families.iter().map(|f| (f, "")).chain(
        r.wdl_families
            .iter()
            .map(|f| (f, " (WDL-only files, zoo tb wdl)")),
    );
    for (f, what) in rows {
        println!(
            "{:>6} {:>9} {:>5} {:>5} {:>10} {:>16} {:>16} {:>10.3} {:>13.3}{what}",
            f.pieces,
            format!("{}/{}", f.files, f.materials),
            f.plain,
            f.zstd + f.wdl,
            human_bytes(f.bytes),
            f.entries,
            f.positions,
            f.bits_per_entry,
            f.bits_per_position
        );
    }
    if a.per_table {
        println!(
            "{:>10} {:>6} {:>8} {:>10} {:>14} {:>14} {:>10} {:>13}",
            "material",
            "pieces",
            "encoding",
            "bytes",
            "entries",
            "positions",
            "bits/entry",
            "bits/position"
        );
        for t in &r.tables {
            println!(
                "{:>10} {:>6} {:>8} {:>10} {:>14} {:>14} {:>10.3} {:>13.3}",
                t.material,
                t.pieces,
                t.encoding,
                human_bytes(t.bytes),
                t.entries,
                t.positions,
                t.bits_per_entry,
                t.bits_per_position
            );
        }
    }
    Ok(())
}

pub(super) fn run_wdl(a: &WdlArgs) -> Result<()> {
    let set = a.tables.set(a.game)?;
    let bar = crate::cmd::progress::count_bar("materials");
    let r = set.wdl(a.pieces, a.check, &crate::cmd::progress::follow(&bar));
    bar.finish_and_clear();
    let r = r?;
    if a.json {
        crate::cmd::json::result(&r)?;
    } else if a.check {
        println!(
            "{} {} up to {} pieces: {} WDL files ({}), {} entries compared with their tables, {} disagreements",
            r.game, r.rules, r.pieces, r.files, human_bytes(r.bytes), r.entries, r.disagreements
        );
    } else {
        println!(
            "{} {} up to {} pieces: {} WDL files written ({}), {} there already, {} materials without a table",
            r.game, r.rules, r.pieces, r.files, human_bytes(r.bytes), r.present, r.without_table
        );
    }
    if r.disagreements > 0 {
        bail!(
            "{} entries of the WDL files of {} differ from their tables",
            r.disagreements,
            r.disagreeing.join(", ")
        );
    }
    Ok(())
}

pub(super) fn run_recompress(a: &RecompressArgs) -> Result<()> {
    let set = a.tables.set(a.game)?;
    let bar = crate::cmd::progress::count_bar("materials");
    let r = set.recompress(a.pieces, &crate::cmd::progress::follow(&bar));
    bar.finish_and_clear();
    let r = r?;
    if a.json {
        return crate::cmd::json::result(&r);
    }
    println!(
        "{} {} up to {} pieces: {} tables rewritten, {} already in the smaller encoding, {} materials without a table; {} before, {} after",
        r.game,
        r.rules,
        r.pieces,
        r.rewritten,
        r.unchanged,
        r.without_table,
        human_bytes(r.bytes_before),
        human_bytes(r.bytes_after)
    );
    Ok(())
}
