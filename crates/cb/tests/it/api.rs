//! The library as a CheckerBoard host calls it: `enginecommand`'s answers
//! and `getmove`'s board, move structure and `playnow`.

use std::ffi::c_char;
use std::time::{Duration, Instant};
use zoo_app::cbapi::board::{from_fen, square_xy, to_fen, BLACK, KING, MAN, WHITE};
use zoo_app::cbapi::host::{text, CbMove};

fn command(cmd: &str) -> (i32, String) {
    let mut c = [0 as c_char; 256];
    for (d, s) in c.iter_mut().zip(cmd.bytes()) {
        *d = s as c_char;
    }
    let mut reply = [0 as c_char; 1024];
    // SAFETY: the API's buffer sizes.
    let r = unsafe { zoo_cb::enginecommand(c.as_ptr(), reply.as_mut_ptr()) };
    (r, text(&reply))
}

/// `getmove` on `fen` with `maxtime` and `playnow`: the result, the board
/// after as a position string, the move and the time it took.
fn getmove(fen: &str, maxtime: f64, playnow: i32) -> (i32, String, CbMove, Duration) {
    let (mut board, color) = from_fen(fen).unwrap();
    let mut status = [0 as c_char; 1024];
    let mut now = playnow;
    let mut mv = CbMove::default();
    let t0 = Instant::now();
    // SAFETY: every pointer is to a live buffer of the API's size.
    let r = unsafe {
        zoo_cb::getmove(
            &mut board,
            color,
            maxtime,
            status.as_mut_ptr(),
            &mut now,
            0,
            0,
            &mut mv,
        )
    };
    let next = if color == BLACK { WHITE } else { BLACK };
    (r, to_fen(&board, next).unwrap(), mv, t0.elapsed())
}

#[test]
fn engine_commands_are_answered_and_unknown_ones_refused() {
    assert_eq!(command("get gametype"), (1, "21".into()));
    assert_eq!(command("get protocolversion"), (1, "2".into()));
    let (r, name) = command("name");
    assert_eq!(r, 1);
    assert!(name.starts_with("zoo "), "{name}");
    assert_eq!(command("about").0, 1);
    assert_eq!(command("help").0, 1);
    assert_eq!(command("set hashsize 16").0, 1);
    assert_eq!(command("get hashsize"), (1, "16".into()));
    assert_eq!(command("set hashsize lots").0, 0);
    assert_eq!(command("get book"), (0, "?".into()));
    assert_eq!(command("fly away"), (0, "?".into()));
    let (r, why) = command("set tables /no/such/directory");
    assert_eq!(r, 0);
    assert!(why.starts_with("zoo: "), "{why}");
}

#[test]
fn a_capture_is_played_on_the_board_and_described() {
    // Black's man on 15 must take 18 and then 26 (15x22x31), becoming a king.
    let (r, after, mv, _) = getmove("B:W18,26:B15", 0.05, 0);
    // Black took White's last pieces: Black, who moved, wins.
    assert_eq!(r, zoo_app::cbapi::result::WIN);
    assert_eq!(after, "W:W:BK31");
    let xy = |n| {
        let (x, y) = square_xy(n);
        (x as i32, y as i32)
    };
    assert_eq!((mv.from.x, mv.from.y), xy(15));
    assert_eq!((mv.to.x, mv.to.y), xy(31));
    assert_eq!(mv.jumps, 2);
    assert_eq!((mv.del[0].x, mv.del[0].y), xy(18));
    assert_eq!((mv.del[1].x, mv.del[1].y), xy(26));
    assert_eq!(mv.delpiece[0], WHITE | MAN);
    assert_eq!(mv.oldpiece, BLACK | MAN);
    assert_eq!(mv.newpiece, BLACK | KING);
}

#[test]
fn playnow_ends_the_search_at_once() {
    // A minute to think, but `playnow` is already raised.
    let (r, _, mv, took) = getmove(
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        60.0,
        1,
    );
    assert_eq!(r, zoo_app::cbapi::result::UNKNOWN);
    assert!(took < Duration::from_secs(10), "{took:?}");
    // Still a move: a man of Black's from row 2 forward.
    assert_eq!(mv.jumps, 0);
    assert_eq!(mv.from.y, 2);
    assert_eq!(mv.to.y, 3);
}

#[test]
fn a_board_that_is_no_position_is_refused_in_the_status() {
    let mut board = [[0; 8]; 8];
    board[6][0] = WHITE | BLACK;
    let mut status = [0 as c_char; 1024];
    let mut mv = CbMove::default();
    // SAFETY: live buffers of the API's sizes; `playnow` may be null.
    let r = unsafe {
        zoo_cb::getmove(
            &mut board,
            BLACK,
            0.01,
            status.as_mut_ptr(),
            std::ptr::null_mut(),
            0,
            0,
            &mut mv,
        )
    };
    assert_eq!(r, zoo_app::cbapi::result::UNKNOWN);
    assert!(
        text(&status).contains("square 1 holds 3"),
        "{}",
        text(&status)
    );
    assert_eq!(board[6][0], WHITE | BLACK, "the board is left as it was");
}
