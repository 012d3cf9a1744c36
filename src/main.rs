fn main() {
    std::process::exit(dustmail::cli::main());
}
