//! The board in the browser: `board [--host H] [--port P]` prints the
//! address to open; each tab plays its own game of Breakthrough, Hex,
//! Gomoku or Jogo do Cavalo against any engine (or a person).

use clap::Parser;

#[derive(Parser, Debug)]
#[command(
    name = "bg-board",
    version,
    about = "Play, watch and analyse Breakthrough, Hex, Gomoku and Jogo do Cavalo in the browser"
)]
struct Args {
    /// Address to listen on (127.0.0.1: this machine only).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Port to listen on; 0 picks a free one.
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Let pages run any engine command even when listening beyond this
    /// machine (always allowed on a loopback address).
    #[arg(long)]
    allow_commands: bool,
}

/// Whether `host` is this machine only.
fn is_loopback(host: &str) -> bool {
    host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

fn main() {
    // The engine watchdog is this executable run again (see
    // referee::watchdog): it kills what the server leaves behind however
    // the server ends, Ctrl-C included.
    if std::env::args().nth(1).as_deref() == Some("--watchdog") {
        boardgames::referee::watchdog::run();
        return;
    }
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let args = Args::parse();
    let commands = args.allow_commands || is_loopback(&args.host);
    boardgames::board::engines::allow_commands(commands);
    if !commands {
        eprintln!("board: listening beyond this machine: pages may play only our own engines (--allow-commands lets them run any command)");
    }
    if let Err(e) = boardgames::referee::watchdog::start() {
        log::warn!("{e}; engines may outlive an interrupted server");
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("board: cannot start: {e}");
            std::process::exit(1);
        }
    };
    let served = runtime.block_on(boardgames::board::server::serve(
        &args.host,
        args.port,
        |address| {
            println!("board: open http://{address}/");
        },
    ));
    if let Err(e) = served {
        eprintln!("board: {e}");
        std::process::exit(1);
    }
    // Engines of tabs still open die with the watchdog's pipe; the tab
    // threads are not waited for.
    std::process::exit(0);
}
