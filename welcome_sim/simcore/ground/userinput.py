"""Checks of what a user types or points at: numbers in range, names, input files, output paths.

Every check raises WelcomeSimError with one line naming the option (or file and key), the value
and what would be valid; the CLI prints it literally and exits with code 2.
"""

from __future__ import annotations

import difflib
import os
import re
import socket
import stat
import threading
from collections.abc import Iterable
from pathlib import Path

from welcome_sim.errors import WelcomeSimError

# Upper bounds: far beyond any real use, low enough that nothing overflows or allocates wildly.
MAX_GAMES = 1_000_000_000  # games per sweep cell
MAX_BATCH_GAMES = 10_000_000  # games held in memory at once (bench, tournament, tune)
MAX_SEED = 2**63 - 1
MAX_CHUNK = 10_000_000
MAX_DASK_JOBS = 10_000
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")
SCHEDULER_RE = re.compile(r"(?:(tcp|tls)://)?(\[[0-9A-Fa-f:]+\]|[A-Za-z0-9_.-]+):(\d{1,5})")
DATA_DIR_ENV = "WELCOME_SIM_DATA_DIR"


def shown(value: object) -> str:
    """A value as quoted in a message: repr for strings (shows '' and spaces), one line."""
    return repr(value) if isinstance(value, str) else str(value)


def nearest(word: str, valid: Iterable[str]) -> str:
    """' (did you mean 'x'?)' for the closest valid word, or ''."""
    match = difflib.get_close_matches(str(word), list(valid), n=1, cutoff=0.6)
    return f" (did you mean '{match[0]}'?)" if match else ""


def check_int(option: str, value: int, low: int, high: int | None = None, what: str = "") -> int:
    """value must lie in low..high (high None: no upper bound)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise WelcomeSimError(f"{option}: expected a whole number, got {shown(value)}")
    if value < low or (high is not None and value > high):
        valid = f"{low:,} to {high:,}" if high is not None else f"at least {low:,}"
        raise WelcomeSimError(f"{option}: {value:,} is out of range; use {valid}{what}")
    return value


def check_float(option: str, value: float, low: float, high: float, *, open_low: bool = False) -> float:
    """A finite value in low..high (excluding low when open_low)."""
    ok = value == value and low <= value <= high and not (open_low and value == low)
    if not ok:
        lo = f"above {low:g}" if open_low else f"from {low:g}"
        raise WelcomeSimError(f"{option}: {value:g} is out of range; use a number {lo} to {high:g}")
    return value


def check_seed(option: str, value: int) -> int:
    return check_int(option, value, 0, MAX_SEED)


def check_nonempty(option: str, value: str, valid: str) -> str:
    """A text value that must not be empty or blank."""
    if not str(value).strip():
        raise WelcomeSimError(f"{option}: empty value {shown(value)}; give {valid}")
    return value


def check_name(option: str, value: str, taken: Iterable[str] = ()) -> str:
    """A name the tool writes into a file and reads back as a word: letters, digits, - and _."""
    if not NAME_RE.fullmatch(value):
        raise WelcomeSimError(
            f"{option}: {shown(value)} is not a valid name; use 1 to 40 letters, digits, '-' or '_', "
            "starting with a letter or digit (e.g. my-set)"
        )
    if value in set(taken):
        raise WelcomeSimError(
            f"{option}: {shown(value)} is a built-in strategy and read-only; choose another name"
        )
    return value


def check_jobs(jobs: int, backend: str) -> int:
    """-1 (all cores) or 1..cores for local processes; 1..MAX_DASK_JOBS on a Dask cluster."""
    cores = os.cpu_count() or 1
    high = cores if backend == "loky" else MAX_DASK_JOBS
    if jobs == -1:
        return jobs
    where = f" (this machine has {cores} cores)" if backend == "loky" else ""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= high:
        raise WelcomeSimError(
            f"--jobs: {shown(jobs)} is out of range; use 1 to {high:,}{where}, or -1 for all cores"
        )
    return jobs


def check_scheduler(address: str | None, backend: str, timeout: float = 3.0) -> None:
    """--scheduler applies to the dask backend only; an address must be well formed and answer."""
    if address is None:
        return
    if backend != "dask":
        raise WelcomeSimError(f"--scheduler: {shown(address)} applies only to --backend dask, not {backend}")
    if address == "local":
        return
    m = SCHEDULER_RE.fullmatch(address.strip())
    if not m or not 1 <= int(m.group(3)) <= 65535:
        raise WelcomeSimError(
            f"--scheduler: {shown(address)} is not a scheduler address; use tcp://HOST:PORT "
            "(e.g. tcp://10.0.0.5:8786) or 'local'"
        )
    host = m.group(2).strip("[]")
    try:
        with socket.create_connection((host, int(m.group(3))), timeout=timeout) as sock:
            if m.group(1) != "tls":
                _greeted(sock, address, timeout)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise WelcomeSimError(
            f"--scheduler: cannot reach {address} within {timeout:g} s ({reason}); start the Dask "
            "scheduler there or check the address"
        ) from None
    _check_dask_client(address, timeout)


def _greeted(sock: socket.socket, address: str, timeout: float) -> None:
    """A Dask scheduler sends its handshake as soon as it accepts a connection: a listener that
    stays silent is something else (distributed's Client would wait far past its timeout)."""
    sock.settimeout(timeout)
    try:
        first = sock.recv(1)
    except TimeoutError:
        raise WelcomeSimError(
            f"--scheduler: {address} accepts connections but sent nothing within {timeout:g} s (a Dask "
            "scheduler answers at once); check the address"
        ) from None
    if not first:
        raise WelcomeSimError(
            f"--scheduler: {address} accepts connections and closes them at once; it is not a Dask "
            "scheduler; check the address"
        )


def _check_dask_client(address: str, timeout: float) -> None:
    """Connect a Dask client and wait for a worker, all within a bounded time (in a thread: a
    client that hangs is abandoned, never waited for)."""
    try:
        from distributed import Client
    except ImportError:
        raise WelcomeSimError(
            "--backend dask: Dask is not installed; pip install 'welcome-sim[dask]'"
        ) from None
    result: dict[str, object] = {}

    def connect() -> None:
        try:
            client = Client(address, timeout=timeout)
        except BaseException as exc:  # any failure to talk to it: timeouts, protocol errors, garbage
            result["error"] = exc
            return
        try:
            client.wait_for_workers(1, timeout=timeout)
            result["ok"] = True
        except BaseException:
            result["no_workers"] = True
        finally:
            client.close(timeout=timeout)

    thread = threading.Thread(target=connect, name="welcome-sim-scheduler-check", daemon=True)
    thread.start()
    thread.join(3 * timeout + 2)
    if "ok" in result:
        return
    if "no_workers" in result:
        raise WelcomeSimError(
            f"--scheduler: {address} has no workers (none joined within {timeout:g} s); start some with "
            f"`dask worker {address}`"
        )
    what = type(result["error"]).__name__ if "error" in result else "no answer"
    raise WelcomeSimError(
        f"--scheduler: {address} answers but is not a Dask scheduler, or did not respond within "
        f"{timeout:g} s ({what}); check the address"
    )


def input_file(option: str, path: str | Path) -> Path:
    """An existing regular file that can be read."""
    p = Path(path)
    if not str(path).strip():
        raise WelcomeSimError(f"{option}: empty path; give a file")
    if not p.exists():
        raise WelcomeSimError(f"{option}: {p}: file not found")
    if p.is_dir():
        raise WelcomeSimError(f"{option}: {p} is a directory; give a file")
    if not os.access(p, os.R_OK):
        raise WelcomeSimError(f"{option}: {p}: not readable (permission denied)")
    return p


def read_text(option: str, path: str | Path) -> str:
    """A UTF-8 text file's content, or one line saying why it cannot be read."""
    from welcome_sim.simcore.ground.readfile import Unreadable, read_regular

    p = input_file(option, path)
    try:
        return read_regular(p).decode("utf-8")
    except Unreadable as exc:
        raise WelcomeSimError(f"{option}: {p}: {exc.problem}") from None
    except UnicodeDecodeError as exc:
        raise WelcomeSimError(
            f"{option}: {p}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start}); "
            "save it as UTF-8"
        ) from None
    except OSError as exc:
        raise WelcomeSimError(f"{option}: {p}: cannot read: {exc.strerror}") from None


# What a sweep folder holds and owns (sweep/store.py names its files by these; the manifest's
# temporary copies start with its name): nothing else may be written over them.
SWEEP_MANIFEST, SWEEP_LOCK, SWEEP_DATA = "manifest.json", "sweep.lock", "data"
SWEEP_OWNED = (SWEEP_MANIFEST, SWEEP_LOCK, SWEEP_DATA)
# Kernel and system file systems: a file there is not data (as root every permission check passes,
# and a write may change the system or fail half-way).
PSEUDO_FS = {
    "proc", "sysfs", "cgroup", "cgroup2", "debugfs", "tracefs", "securityfs", "bpf", "pstore",
    "configfs", "efivarfs", "fusectl", "binfmt_misc", "devpts", "mqueue", "autofs",
}  # fmt: skip
NAME_MAX = 255  # bytes in one file or folder name (Linux, macOS)


def _path_name_ok(option: str, p: Path) -> None:
    """A path the tool can write and print: UTF-8, each name at most NAME_MAX bytes."""
    text = str(p)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        printable = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        raise WelcomeSimError(
            f"{option}: '{printable}' is not a UTF-8 name; give a path of UTF-8 characters"
        ) from None
    for part in p.parts:
        if len(part.encode("utf-8")) > NAME_MAX:
            raise WelcomeSimError(
                f"{option}: a name in {shown(text[:60] + '...')} is {len(part.encode('utf-8')):,} bytes "
                f"long; the limit is {NAME_MAX}"
            )


def _mounts() -> list[tuple[Path, str]]:
    """(mount point, file system type) of each mount, from /proc/self/mounts ([] elsewhere)."""
    try:
        lines = Path("/proc/self/mounts").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    out = []
    for line in lines:
        fields = line.split()
        if len(fields) >= 3:  # spaces in a mount point are written as \040
            point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[1])
            out.append((Path(point), fields[2]))
    return out


def _is_sweep_folder(folder: Path) -> bool:
    """A folder holding a sweep: its manifest names the tool near its start (another program's
    manifest.json does not make a folder a sweep), or a data folder lies beside it."""
    manifest = folder / SWEEP_MANIFEST
    if not manifest.is_file():
        return False
    try:
        with manifest.open("rb") as fh:
            head = fh.read(4096)
    except OSError:
        return True  # unreadable: assume the worst, it is never written over
    return b'"welcome-sim"' in head or (folder / SWEEP_DATA).is_dir()


def _not_system_or_sweep(option: str, p: Path) -> None:
    """Refuse a path on a kernel file system (/proc, /sys) and one a sweep folder owns (its
    manifest, lock or data folder: an HTML report written there would lose the sweep)."""
    full = Path(os.path.abspath(p))
    real = full.resolve()
    for point, fstype in _mounts():
        if fstype in PSEUDO_FS and (real == point or point in real.parents) and point != Path("/"):
            raise WelcomeSimError(
                f"{option}: {p} is on the system's {fstype} file system ({point}); write to a folder of yours"
            )
    for target in dict.fromkeys((full, real)):
        for folder in target.parents:
            if not _is_sweep_folder(folder):
                continue
            first = target.relative_to(folder).parts[0]
            if first in SWEEP_OWNED or first.startswith(SWEEP_MANIFEST + "."):
                raise WelcomeSimError(
                    f"{option}: {p} is part of the sweep in {folder} ({first}); it is never written over: "
                    "write elsewhere (a new file beside them is fine)"
                )


def _writable_parent(option: str, p: Path, *, create: bool) -> None:
    parent = p.parent if str(p.parent) else Path(".")
    if not create:
        if not parent.exists():
            raise WelcomeSimError(f"{option}: {p}: the folder {parent} does not exist; create it first")
        if not parent.is_dir():
            raise WelcomeSimError(f"{option}: {p}: {parent} is not a folder")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise WelcomeSimError(f"{option}: {p}: cannot write in {parent} (permission denied)")
        return
    # A folder may be created with its parents: the nearest existing ancestor must be a writable folder.
    anc = parent
    while not anc.exists() and anc != anc.parent:
        anc = anc.parent
    if not anc.is_dir():
        raise WelcomeSimError(f"{option}: {p}: {anc} is not a folder")
    if not os.access(anc, os.W_OK | os.X_OK):
        raise WelcomeSimError(f"{option}: {p}: cannot write in {anc} (permission denied)")


def output_file(option: str, path: str | Path) -> Path:
    """A file to write: new, or an existing regular file (never a folder, device, pipe or socket);
    its folder must exist and be writable."""
    if not str(path).strip():
        raise WelcomeSimError(f"{option}: empty path; give a file name")
    p = Path(path)
    _path_name_ok(option, p)
    if p.exists() or p.is_symlink():
        try:
            mode = p.stat().st_mode
        except OSError:
            raise WelcomeSimError(f"{option}: {p}: a broken link; give a regular file") from None
        if stat.S_ISDIR(mode):
            example = {"--output": "report.html", "--csv": "scores.csv"}.get(option)
            inside = f" (e.g. {p / example})" if example else " inside it"
            raise WelcomeSimError(f"{option}: {p} is a folder; give a file name{inside}")
        if not stat.S_ISREG(mode):
            raise WelcomeSimError(
                f"{option}: {p} is not a regular file (a device, pipe or socket); it is never replaced"
            )
        if not os.access(p, os.W_OK):
            raise WelcomeSimError(f"{option}: {p}: not writable (permission denied)")
    _writable_parent(option, p, create=False)
    _not_system_or_sweep(option, p)
    return p


def output_dir(option: str, path: str | Path) -> Path:
    """A folder to write into: existing, or created with its parents under a writable folder."""
    if not str(path).strip():
        raise WelcomeSimError(f"{option}: empty path; give a folder")
    p = Path(path)
    _path_name_ok(option, p)
    if p.exists():
        if not p.is_dir():
            raise WelcomeSimError(f"{option}: {p} exists and is not a folder; give a folder")
        if not os.access(p, os.W_OK | os.X_OK):
            raise WelcomeSimError(f"{option}: {p}: cannot write in it (permission denied)")
    else:
        _writable_parent(option, p, create=True)
    _not_system_or_sweep(option, p)
    return p


def user_data_dir() -> Path:
    """Where welcome-sim keeps what a user makes (tuned parameter sets): $WELCOME_SIM_DATA_DIR, else
    the platform's user data folder (platformdirs; XDG_DATA_HOME on Linux)."""
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env)
    try:
        import platformdirs

        return Path(platformdirs.user_data_dir("welcome-sim", appauthor=False))
    except ImportError:  # pragma: no cover - platformdirs is a dependency; the XDG rule as a fallback
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        return Path(base) / "welcome-sim"
