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

/// A grade probes its environment once per process: a stand-in Python that counts its runs
/// answers the first probe, and a second probe of the same environment does not run it. A
/// probe that failed is not kept.
#[test]
fn an_environment_is_probed_once_per_process() {
    use std::os::unix::fs::PermissionsExt;
    let venv = tempfile::tempdir().unwrap();
    let bin = venv.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let runs = venv.path().join("runs");
    let fails = venv.path().join("fail-next");
    let python = format!(
        "#!/bin/sh\necho run >> '{runs}'\nif [ -e '{fails}' ]; then rm '{fails}'; echo broken >&2; exit 1; fi\n\
         echo '{{\"python\": \"3.11.7\", \"torch\": \"2.13.0\", \"cuda_devices\": 0, \"gloo\": true, \
         \"nccl\": false, \"prefix\": \"/v\", \"base_prefix\": \"/b\"}}'\n",
        runs = runs.display(),
        fails = fails.display()
    );
    std::fs::write(bin.join("python"), python).unwrap();
    std::fs::set_permissions(bin.join("python"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let ran = || std::fs::read_to_string(&runs).unwrap_or_default().lines().count();

    std::fs::write(&fails, "").unwrap();
    let err = gpu_runner::probe_once(venv.path()).unwrap_err();
    assert!(err.to_string().contains("broken"), "{err}");
    let first = gpu_runner::probe_once(venv.path()).unwrap();
    assert_eq!((first.torch.as_str(), ran()), ("2.13.0", 2), "the failure was not kept");
    let again = gpu_runner::probe_once(venv.path()).unwrap();
    assert_eq!((again, ran()), (first, 2), "the second probe was answered from the first");
}
