// scratch: rewrite every table of a directory in the builder's default (smallest) encoding
use zoo_tb::file::{write_table_smallest, Table};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let (src, dst) = (std::path::Path::new(&a[1]), std::path::Path::new(&a[2]));
    std::fs::create_dir_all(dst).unwrap();
    let mut files: Vec<_> = std::fs::read_dir(src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().map(|e| e == "zootb").unwrap_or(false))
        .collect();
    files.sort();
    for p in files {
        let (h, _, _) = zoo_tb::file::read_header(&p).unwrap();
        let t = Table::open(&p, &h.game, &h.rules, h.material, h.size).unwrap();
        let fill = |s: usize, start: u64, out: &mut [u8]| t.read_codes(s, start, out).unwrap();
        write_table_smallest(&dst.join(p.file_name().unwrap()), &t.header, &fill).unwrap();
    }
}
