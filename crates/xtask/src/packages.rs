//! The Debian packages the browser and MPI tests need: which are missing,
//! and installing them with apt-get when running as root (otherwise the
//! exact command to run, and a stop before anything else runs).

use anyhow::{bail, Context, Result};
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::process::Command;

/// A package and how to tell it is there.
struct Need {
    package: &'static str,
    why: &'static str,
    present: fn() -> bool,
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// bindgen (behind the `mpi` crate) loads libclang.so itself: the
/// versioned libclang-cpp that other packages bring is not enough.
fn libclang() -> bool {
    std::fs::read_dir("/usr/lib").is_ok_and(|dir| {
        dir.flatten().any(|e| {
            e.file_name().to_string_lossy().starts_with("llvm-")
                && e.path().join("lib/libclang.so").exists()
        })
    })
}

const NEEDS: &[Need] = &[
    Need {
        package: "chromium",
        why: "the browser test",
        present: || on_path("chromium"),
    },
    Need {
        package: "nodejs",
        why: "the browser test",
        present: || on_path("node"),
    },
    Need {
        package: "npm",
        why: "the browser test's packages",
        present: || on_path("npm"),
    },
    Need {
        package: "openmpi-bin",
        why: "the MPI tests (mpirun)",
        present: || on_path("mpirun"),
    },
    Need {
        package: "libopenmpi-dev",
        why: "the `mpi` feature (mpicc)",
        present: || on_path("mpicc"),
    },
    Need {
        package: "libclang-dev",
        why: "the `mpi` feature (bindgen)",
        present: libclang,
    },
    Need {
        package: "pkg-config",
        why: "finding libzstd",
        present: || on_path("pkg-config"),
    },
    Need {
        package: "libzstd-dev",
        why: "the tests' build links the system's zstd (runner::cargo_test)",
        present: crate::runner::system_zstd,
    },
    Need {
        package: "procps",
        why: "the MPI tests (pgrep)",
        present: || on_path("pgrep"),
    },
    Need {
        package: "python3",
        why: "the import-circle check (scripts/import-circles.py)",
        present: || on_path("python3"),
    },
];

/// The missing packages, each with what needs it.
pub fn missing() -> Vec<(&'static str, &'static str)> {
    NEEDS
        .iter()
        .filter(|n| !(n.present)())
        .map(|n| (n.package, n.why))
        .collect()
}

fn is_root() -> bool {
    // The owner of /proc/self is the process's effective user.
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

fn apt(args: &[&str]) -> Result<()> {
    println!("    apt-get {}", args.join(" "));
    let status = Command::new("apt-get")
        .args(args)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .status()
        .context("cannot start apt-get")?;
    if !status.success() {
        bail!("apt-get {} failed ({status})", args.join(" "));
    }
    Ok(())
}

/// Installs what is missing, or says exactly what to run and fails.
pub fn install() -> Result<()> {
    let missing = missing();
    if missing.is_empty() {
        println!(
            "    all there: {}",
            NEEDS
                .iter()
                .map(|n| n.package)
                .collect::<Vec<_>>()
                .join(", ")
        );
        return Ok(());
    }
    for (package, why) in &missing {
        println!("    missing: {package} ({why})");
    }
    let names: Vec<&str> = missing.iter().map(|(p, _)| *p).collect();
    let command = format!(
        "sudo apt-get update && sudo apt-get install -y {}",
        names.join(" ")
    );
    if !Path::new("/usr/bin/apt-get").exists() && !on_path("apt-get") {
        bail!(
            "no apt-get here: install the equivalents of {} (on Debian: {command})",
            names.join(", ")
        );
    }
    if !is_root() {
        bail!("installing packages needs root; run\n    {command}\nthen `cargo xtask test` again");
    }
    apt(&["update", "-qq"])?;
    let mut install = vec!["install", "-y", "-qq"];
    install.extend(&names);
    apt(&install)?;
    let still = missing_after();
    if !still.is_empty() {
        bail!("still missing after apt-get install: {}", still.join(", "));
    }
    Ok(())
}

fn missing_after() -> Vec<&'static str> {
    missing().into_iter().map(|(p, _)| p).collect()
}
