use anyhow::Result;

const USAGE: &str = "usage: gpu-runner env    (describe the Python environment jobs run in)";

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("env") => {
            let venv = gpu_runner::default_venv();
            let env = gpu_runner::probe(&venv)?;
            println!("environment: {}", venv.display());
            println!("python {}, torch {}", env.python, env.torch);
            println!("CUDA devices: {}, backend for jobs: {}", env.cuda_devices, env.backend());
            Ok(())
        }
        _ => {
            eprintln!("{USAGE}");
            std::process::exit(2);
        }
    }
}
