//! `scripts/setup.sh`, the first thing `make demo` and `make test` run, on machines it must serve:
//! a bare one, a complete one, and ones where rustup cannot download. The script runs for real,
//! against stub commands on `PATH` that describe the machine and write down what they are asked;
//! each test asserts what the script asks to install. Nothing is downloaded or installed.

#![cfg(not(target_arch = "wasm32"))]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What a machine has before the set-up runs.
#[derive(Clone, Default)]
struct Machine {
    /// Commands on `PATH` (chromium, node, …).
    commands: Vec<&'static str>,
    /// Debian packages `dpkg -s` knows.
    debs: Vec<&'static str>,
    /// `rustup target list --installed`.
    targets: Vec<&'static str>,
    /// `rustup component list --installed`.
    components: Vec<&'static str>,
    /// rustup's downloads fail (no network to its server).
    rustup_offline: bool,
    /// `wasm-bindgen --version` answers this version.
    wasm_bindgen: Option<&'static str>,
    pip: bool,
    /// `python3 -c 'import ensurepip'` succeeds (Debian's python3-venv).
    venv: bool,
    /// node_modules exists, newer than package-lock.json.
    node_modules: bool,
    /// node_modules is a link to another checkout's, older than this package-lock.json.
    node_modules_link: bool,
}

const APT_COMMANDS: [&str; 8] = [
    "curl",
    "chromium",
    "chromedriver",
    "firefox-esr",
    "WebKitWebDriver",
    "Xvfb",
    "node",
    "npm",
];
const FONTS: [&str; 2] = ["fonts-noto-cjk", "fonts-noto-color-emoji"];
const DEBIAN_RUST: [&str; 4] = ["rustc-web", "cargo-web", "rust-web-src", "lld"];
/// rustup's components `make lint` runs, as `rustup component list --installed` names them.
const LINT_COMPONENTS: [&str; 2] = ["clippy-x86_64-unknown-linux-gnu", "rustfmt-x86_64-unknown-linux-gnu"];

impl Machine {
    fn bare() -> Self {
        Machine {
            targets: vec!["x86_64-unknown-linux-gnu"],
            components: vec!["cargo", "rustc", "rust-std-x86_64-unknown-linux-gnu"],
            ..Machine::default()
        }
    }

    fn complete() -> Self {
        let mut machine = Machine::bare();
        machine.commands = APT_COMMANDS.to_vec();
        machine.debs = FONTS.to_vec();
        machine.targets.push("wasm32-unknown-unknown");
        machine.components.push("rust-src");
        machine.components.extend(LINT_COMPONENTS);
        machine.wasm_bindgen = Some(wasm_bindgen_crate_version());
        machine.pip = true;
        machine.venv = true;
        machine.node_modules = true;
        machine
    }
}

/// The `wasm-bindgen` crate's version in Cargo.lock: the CLI must equal it.
fn wasm_bindgen_crate_version() -> &'static str {
    let lock = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock")).unwrap();
    let key = "name = \"wasm-bindgen\"\nversion = \"";
    let at = lock.find(key).unwrap() + key.len();
    let version = &lock[at..at + lock[at..].find('"').unwrap()];
    Box::leak(version.to_string().into_boxed_str())
}

/// Runs `scripts/setup.sh` on `machine`, which must succeed; the commands it ran that change the
/// machine, one per line (`apt-get install …`, `rustup target add …`, `cargo install …`,
/// `npm ci`), and its output.
fn set_up(machine: &Machine) -> (Vec<String>, String) {
    let (changes, said, succeeded) = run_set_up(machine);
    assert!(succeeded, "setup.sh failed:\n{said}");
    (changes, said)
}

/// The same, whether or not the script succeeds: and whether it did.
fn run_set_up(machine: &Machine) -> (Vec<String>, String, bool) {
    let root = tempdir();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    fs::create_dir_all(root.join("scripts")).unwrap();
    fs::copy(repo.join("scripts/setup.sh"), root.join("scripts/setup.sh")).unwrap();
    fs::copy(repo.join("Cargo.lock"), root.join("Cargo.lock")).unwrap();
    if machine.node_modules_link {
        // Another checkout's install, made before this checkout's package-lock.json.
        fs::create_dir(root.join("elsewhere")).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::os::unix::fs::symlink(root.join("elsewhere"), root.join("node_modules")).unwrap();
    }
    fs::write(root.join("package-lock.json"), "{}").unwrap();
    if machine.node_modules {
        // Newer than package-lock.json, as `npm ci` then `touch` leave it.
        std::thread::sleep(std::time::Duration::from_millis(20));
        fs::create_dir(root.join("node_modules")).unwrap();
    }
    let bin = root.join("bin");
    fs::create_dir(&bin).unwrap();
    let log = root.join("log");
    fs::write(&log, "").unwrap();
    // The real tools the script reads files with.
    for tool in [
        "bash", "sed", "awk", "grep", "dirname", "touch", "cat", "chmod", "readlink",
    ] {
        let path = which(tool);
        std::os::unix::fs::symlink(path, bin.join(tool)).unwrap();
    }
    let bash = which("bash");
    let stub = |name: &str, body: &str| {
        let path = bin.join(name);
        fs::write(&path, format!("#!{}\n{body}\n", bash.display())).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    };
    let record = format!("echo \"$(basename \"$0\") $*\" >> {}", log.display());
    // Commands a machine may have: those it has are on PATH; apt-get puts a package's there.
    let shelf = root.join("shelf");
    fs::create_dir(&shelf).unwrap();
    for command in APT_COMMANDS {
        let body = if command == "npm" { record.as_str() } else { "exit 0" };
        fs::write(shelf.join(command), format!("#!{}\n{body}\n", bash.display())).unwrap();
        fs::set_permissions(shelf.join(command), fs::Permissions::from_mode(0o755)).unwrap();
        if machine.commands.contains(&command) {
            fs::copy(shelf.join(command), bin.join(command)).unwrap();
        }
    }
    stub("basename", "echo \"${1##*/}\"");
    stub(
        "apt-get",
        &format!(
            "{record}\n\
             for package in \"$@\"; do\n\
               case $package in\n\
                 chromium-driver) command=chromedriver ;; webkit2gtk-driver) command=WebKitWebDriver ;;\n\
                 xvfb) command=Xvfb ;; nodejs) command=node ;; *) command=$package ;;\n\
               esac\n\
               if [ -e {shelf}/$command ]; then cat {shelf}/$command > {bin}/$command; chmod 755 {bin}/$command; fi\n\
             done",
            shelf = shelf.display(),
            bin = bin.display(),
        ),
    );
    let debs = machine.debs.join(" ");
    stub(
        "dpkg",
        &format!("shift; for p in \"$@\"; do case \" {debs} \" in *\" $p \"*) ;; *) exit 1 ;; esac; done"),
    );
    let offline = if machine.rustup_offline { "exit 1" } else { "exit 0" };
    stub(
        "rustup",
        &format!(
            "case \"$1 $2\" in\n\
             'target list') printf '%s\\n' {targets} ;;\n\
             'component list') printf '%s\\n' {components} ;;\n\
             'target add'|'component add') {record}; {offline} ;;\n\
             *) {record} ;;\n\
             esac",
            targets = machine.targets.join(" "),
            components = machine.components.join(" "),
        ),
    );
    if let Some(version) = machine.wasm_bindgen {
        stub("wasm-bindgen", &format!("echo wasm-bindgen {version}"));
    }
    stub("cargo", &record);
    let answers = |has: bool| if has { 0 } else { 1 };
    stub(
        "python3",
        &format!(
            "case \"$*\" in *ensurepip*) exit {};; *) exit {};; esac",
            answers(machine.venv),
            answers(machine.pip)
        ),
    );
    let output = Command::new(&bash)
        .arg(root.join("scripts/setup.sh"))
        .env_clear()
        .env("PATH", &bin)
        .env("HOME", &root)
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let ran = fs::read_to_string(&log).unwrap();
    let changes = ran
        .lines()
        .filter(|l| !l.starts_with("apt-get update"))
        .map(|l| {
            // apt-get's flags are the same every time; the packages are what matters.
            l.replace(" install -y -qq", " install")
        })
        .collect();
    fs::remove_dir_all(&root).unwrap();
    (changes, said, output.status.success())
}

fn which(tool: &str) -> PathBuf {
    for dir in ["/usr/bin", "/bin", "/usr/local/bin"] {
        let path = Path::new(dir).join(tool);
        if path.exists() {
            return path;
        }
    }
    panic!("{tool} not found");
}

fn tempdir() -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("sampling-lab-setup-{}-{n}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn installs(changes: &[String], what: &str) -> bool {
    changes.iter().any(|c| c == what)
}

#[test]
fn a_bare_machine_gets_the_wasm_target_and_rust_src_and_everything_else() {
    let (changes, said) = set_up(&Machine::bare());
    let version = wasm_bindgen_crate_version();
    let expected = [
        "apt-get install curl".to_string(),
        "apt-get install chromium".into(),
        "apt-get install chromium-driver".into(),
        "apt-get install firefox-esr".into(),
        "apt-get install webkit2gtk-driver".into(),
        "apt-get install xvfb".into(),
        "apt-get install nodejs".into(),
        "apt-get install npm".into(),
        "apt-get install python3-pip".into(),
        "apt-get install python3-venv".into(),
        "apt-get install fonts-noto-cjk fonts-noto-color-emoji".into(),
        "rustup target add wasm32-unknown-unknown".into(),
        "rustup component add rust-src".into(),
        "rustup component add clippy".into(),
        "rustup component add rustfmt".into(),
        format!("cargo install wasm-bindgen-cli --version {version} --locked --quiet"),
        "npm ci --no-audit --no-fund --loglevel=error".into(),
    ];
    assert_eq!(changes, expected, "{said}");
}

#[test]
fn a_complete_machine_installs_nothing() {
    let (changes, said) = set_up(&Machine::complete());
    assert_eq!(changes, Vec::<String>::new(), "{said}");
}

#[test]
fn a_machine_with_the_target_but_not_rust_src_gets_rust_src_alone() {
    let mut machine = Machine::complete();
    machine.components.retain(|c| *c != "rust-src");
    let (changes, said) = set_up(&machine);
    assert_eq!(changes, ["rustup component add rust-src"], "{said}");
}

#[test]
fn a_machine_with_rust_src_but_not_the_target_gets_the_target_alone() {
    let mut machine = Machine::complete();
    machine.targets.retain(|t| *t != "wasm32-unknown-unknown");
    let (changes, said) = set_up(&machine);
    assert_eq!(changes, ["rustup target add wasm32-unknown-unknown"], "{said}");
}

#[test]
fn where_rustup_cannot_download_debian_s_rustc_web_covers_both_builds() {
    let mut machine = Machine::complete();
    machine.targets.retain(|t| *t != "wasm32-unknown-unknown");
    machine.components.retain(|c| *c != "rust-src");
    machine.rustup_offline = true;
    let (changes, said) = set_up(&machine);
    assert!(
        installs(&changes, "rustup target add wasm32-unknown-unknown"),
        "tried first: {changes:?}"
    );
    assert!(
        installs(&changes, &format!("apt-get install {}", DEBIAN_RUST.join(" "))),
        "{changes:?}\n{said}"
    );
}

#[test]
fn rust_src_alone_missing_and_undownloadable_also_falls_back_to_rustc_web() {
    let mut machine = Machine::complete();
    machine.components.retain(|c| *c != "rust-src");
    machine.rustup_offline = true;
    let (changes, said) = set_up(&machine);
    assert_eq!(
        changes,
        [
            "rustup component add rust-src".to_string(),
            format!("apt-get install {}", DEBIAN_RUST.join(" "))
        ],
        "{said}"
    );
}

#[test]
fn rustc_web_already_there_is_not_installed_again() {
    let mut machine = Machine::complete();
    machine.targets.retain(|t| *t != "wasm32-unknown-unknown");
    machine.rustup_offline = true;
    machine.debs.extend(DEBIAN_RUST);
    let (changes, said) = set_up(&machine);
    assert_eq!(changes, ["rustup target add wasm32-unknown-unknown"], "{said}");
}

#[test]
fn a_wasm_bindgen_cli_of_another_version_is_replaced() {
    let mut machine = Machine::complete();
    machine.wasm_bindgen = Some("0.2.100");
    let (changes, said) = set_up(&machine);
    assert_eq!(changes.len(), 1, "{said}");
    assert!(
        changes[0].starts_with("cargo install wasm-bindgen-cli --version "),
        "{changes:?}"
    );
}

#[test]
fn a_machine_without_clippy_or_rustfmt_gets_the_one_it_lacks() {
    for lacking in ["clippy", "rustfmt"] {
        let mut machine = Machine::complete();
        machine.components.retain(|c| !c.starts_with(lacking));
        let (changes, said) = set_up(&machine);
        assert_eq!(changes, [format!("rustup component add {lacking}")], "{said}");
    }
}

#[test]
fn where_rustup_cannot_add_clippy_the_set_up_stops_and_says_what_to_run() {
    let mut machine = Machine::complete();
    machine.components.retain(|c| !c.starts_with("clippy"));
    machine.rustup_offline = true;
    let (changes, said, succeeded) = run_set_up(&machine);
    assert!(!succeeded, "{said}");
    assert_eq!(changes, ["rustup component add clippy"], "{said}");
    assert!(said.contains("rustup component add clippy"), "{said}");
}

#[test]
fn a_node_modules_linked_to_another_checkout_is_never_reinstalled_through_the_link() {
    let mut machine = Machine::complete();
    machine.node_modules = false;
    machine.node_modules_link = true;
    let (changes, said) = set_up(&machine);
    assert_eq!(
        changes,
        Vec::<String>::new(),
        "npm ci would empty the other checkout's: {said}"
    );
    assert!(said.contains("node_modules links to "), "{said}");
}
