//! Every installed executable: its `bg-` name and its `--version`.

use std::process::Command;

fn executables() -> Vec<(&'static str, &'static str)> {
    #[allow(unused_mut)] // without the board and tune features nothing is added
    let mut all = vec![
        ("bg-breakthrough", env!("CARGO_BIN_EXE_bg-breakthrough")),
        ("bg-hex", env!("CARGO_BIN_EXE_bg-hex")),
        ("bg-gomoku", env!("CARGO_BIN_EXE_bg-gomoku")),
        ("bg-cavalo", env!("CARGO_BIN_EXE_bg-cavalo")),
        ("bg-cavalo-tools", env!("CARGO_BIN_EXE_bg-cavalo-tools")),
        ("bg-referee", env!("CARGO_BIN_EXE_bg-referee")),
        ("pbrain-bg-gomoku", env!("CARGO_BIN_EXE_pbrain-bg-gomoku")),
    ];
    #[cfg(feature = "board")]
    all.push(("bg-board", env!("CARGO_BIN_EXE_bg-board")));
    #[cfg(feature = "tune")]
    all.push(("bg-tune", env!("CARGO_BIN_EXE_bg-tune")));
    all
}

#[test]
fn every_executable_prints_its_name_and_version() {
    for (name, path) in executables() {
        let output = Command::new(path).arg("--version").output().expect(name);
        assert!(output.status.success(), "{name} --version failed");
        let shown = String::from_utf8_lossy(&output.stdout);
        assert_eq!(
            shown.trim(),
            format!("{name} {}", env!("CARGO_PKG_VERSION"))
        );
    }
}
