//! The `referee` executable: engine matches, human play, compliance checks.

fn main() {
    boardgames::protocol::init_logging();
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(boardgames::referee::main_with_args(&args));
}
