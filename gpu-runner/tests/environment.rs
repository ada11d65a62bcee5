//! The environment the README set-up creates really has the pinned torch, with gloo.

#[test]
fn set_up_environment_has_pinned_torch() {
    let venv = gpu_runner::default_venv();
    let env = gpu_runner::probe(&venv).unwrap_or_else(|e| panic!("{e}"));
    let pinned = include_str!("../requirements.txt")
        .lines()
        .find_map(|l| l.trim().strip_prefix("torch=="))
        .expect("requirements.txt pins torch");
    assert!(env.torch.starts_with(pinned), "torch {} but requirements pin {pinned}", env.torch);
    assert!(env.gloo, "gloo is compiled in");
    if env.cuda_devices == 0 {
        assert_eq!(env.backend(), "gloo");
    }
}

#[test]
fn missing_environment_says_how_to_create_it() {
    let err = gpu_runner::probe(std::path::Path::new("/nonexistent/venv")).unwrap_err();
    assert!(err.to_string().contains("cargo xtask"), "{err}");
}
