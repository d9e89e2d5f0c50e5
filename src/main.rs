//! The `pith` binary: a thin shell over the library; all logic lives in `pith::`.

use mimalloc::MiMalloc;

#[global_allocator]
static GLOBAL: MiMalloc = MiMalloc;

fn main() -> std::process::ExitCode {
    pith::cli::main()
}
