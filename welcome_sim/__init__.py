"""welcome-sim: Monte Carlo balance analysis for Welcome To... Your Perfect Home."""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sys
import time
from pathlib import Path

__version__ = "0.1.0"

# Every folder holding compiled code or what it reads at compile time (constants, helpers): an
# edit in any of them must start from a clean cache. tests/test_cache_key.py checks that every
# module compiled code imports lives under one of them.
# simcore/ holds the expansions and the input checks (ground/userinput.py) the loaders use.
KERNEL_SOURCES = ("simcore", "strategies", "errors.py")

# Written into a cache folder once every function of a kernel variant is compiled into it
# (welcome_sim.simcore.engine.warmup; ready_marker names it per variant); it holds the seconds the compile took.
READY_MARKER = "compiled"
# Every process using a cache folder holds a shared lock on this file, so that pruning (an
# exclusive lock) never removes a folder a running process reads.
IN_USE_FILE = ".in-use"
# A folder made by a version without the lock file is pruned only after this long unused.
UNLOCKED_GRACE_S = 3600.0
# Besides its own, a new folder keeps this many of the most recently used others: two checkouts
# of different versions used in turn (a speed comparison) would otherwise each prune the other's
# folder and compile the whole kernel (two minutes or more) on every run. About 24 MB each.
KEEP_RECENT = 2
# Besides those, every folder used within this long stays: three or more checkouts used in turn
# (worktrees compared side by side) would otherwise prune each other's past the two kept above.
RECENT_USE_S = 3600.0

_held: list = []  # the open lock file of this process's cache folder, kept for its lifetime


def _cache_root() -> Path:
    """The welcome-sim folder under the user's cache folder (XDG_CACHE_HOME or ~/.cache)."""
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "welcome-sim"


def _numba_cache_dir(user: str | None = None) -> str:
    """A Numba cache directory keyed by the hash of every compiled source file: under the user's
    cache folder, or inside `user` (a NUMBA_CACHE_DIR set by the user), unless `user` is already
    the keyed folder (a child process inherits its parent's).

    Numba's on-disk cache checks only a function's own file, so a kernel function would keep
    stale machine code of a helper edited in another module. Keying the directory by the sources'
    contents makes any edit start from a clean cache.
    """
    name = f"numba-{kernel_digest()}"
    if user is None:
        return str(_cache_root() / name)
    return user if Path(user).name == name else str(Path(user) / name)


def kernel_digest() -> str:
    """16 hex digits of the sha1 of the version and every compiled source file: the code that
    plays the games (a sweep records it and resumes only under the same code)."""
    root = Path(__file__).parent
    digest = hashlib.sha1(__version__.encode())
    for sub in KERNEL_SOURCES:
        top = root / sub
        for path in sorted(top.rglob("*.py")) if top.is_dir() else [top]:
            digest.update(path.read_bytes())
    _digest_extra(digest)
    return digest.hexdigest()[:16]


def _digest_extra(digest) -> None:
    """Add the expansions of one's own named by $WELCOME_SIM_EXPANSIONS (expansions/record.py
    EXTRA_ENV) to the digest: the variable's value and each module's source, found without importing
    it. Their hooks are bound into the kernel at compile time (expansions/extra.py), so a kernel
    compiled with one set of them must never be read back with another; nothing is added when the
    variable is unset, so the built-in kernel keeps its key."""
    import importlib.util

    value = os.environ.get("WELCOME_SIM_EXPANSIONS", "").strip()
    if not value:
        return
    digest.update(f"extra expansions: {value}".encode())
    for name in (m.strip() for m in value.split(",") if m.strip()):
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):  # named wrongly: the records' import says so later
            spec = None
        if spec is not None and spec.origin and Path(spec.origin).is_file():
            digest.update(Path(spec.origin).read_bytes())


def _hold(folder: Path) -> object | None:
    """Create the cache folder if needed and hold a shared lock on its in-use file; None where
    file locks are unavailable (then nothing is ever pruned)."""
    try:
        import fcntl
    except ImportError:  # not a POSIX system: no pruning, so no lock is needed
        return None
    for _ in range(5):
        folder.mkdir(parents=True, exist_ok=True)
        f = open(folder / IN_USE_FILE, "a")  # noqa: SIM115 - held open for the process's lifetime
        fcntl.flock(f, fcntl.LOCK_SH)
        # A pruner may have renamed the folder away between open() and flock(): then the lock is
        # on a file in the trash, and the folder must be made again.
        with contextlib.suppress(OSError):
            if os.stat(folder / IN_USE_FILE).st_ino == os.fstat(f.fileno()).st_ino:
                os.utime(folder / IN_USE_FILE)  # its last use: a load from the cache writes nothing
                return f
        f.close()
    return None


def _last_use(folder: Path) -> float:
    """The newest modification time of the folder and what it holds: subfolders (Numba writes
    into those) and the in-use file (touched by every process that uses the folder)."""
    newest = 0.0
    with contextlib.suppress(OSError):
        newest = folder.stat().st_mtime
        for sub in folder.iterdir():
            newest = max(newest, sub.stat().st_mtime)
    return newest


def prune_cache_dirs(keep: str, keep_recent: int = KEEP_RECENT, recent_s: float = RECENT_USE_S) -> list[str]:
    """Remove the sibling numba-* cache folders of `keep` that no running process holds, except the
    keep_recent most recently used and those used within recent_s seconds; return the names
    removed. A folder without the in-use file (made by an older version) goes only after
    UNLOCKED_GRACE_S seconds unused."""
    try:
        import fcntl
    except ImportError:
        return []
    kept = Path(keep)
    removed = []
    siblings = [s for s in kept.parent.glob("numba-*") if s.name != kept.name and s.is_dir()]
    uses = {s: _last_use(s) for s in siblings}
    siblings.sort(key=lambda s: (-uses[s], s.name))
    for rank, sib in enumerate(siblings):
        if rank < keep_recent or time.time() - uses[sib] < recent_s:
            continue
        lock_path = sib / IN_USE_FILE
        if not lock_path.exists() and time.time() - uses[sib] < UNLOCKED_GRACE_S:
            continue
        trash = kept.parent / f".trash-{sib.name}-{os.getpid()}"
        try:
            with open(lock_path, "a") as f:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)  # fails while any process holds it
                os.rename(sib, trash)  # atomic: a process starting now makes a fresh folder
        except OSError:  # in use, or removed by a concurrent pruner
            continue
        shutil.rmtree(trash, ignore_errors=True)
        removed.append(sib.name)
    for trash in kept.parent.glob(".trash-*"):  # left by a pruner that was killed mid-way
        if time.time() - _last_use(trash) > 60:
            shutil.rmtree(trash, ignore_errors=True)
    return removed


def ready_marker(variant: str = "full") -> str:
    """The marker file of a compiled kernel variant (simcore/engine/variants.py) in its cache folder."""
    return READY_MARKER if variant == "full" else f"{READY_MARKER}-{variant}"


def kernel_cache_ready(variant: str = "full") -> bool:
    """Whether the cache folder in use holds the kernel variant compiled (a warm-up finished there)."""
    configure_cache()  # the folder is chosen once; a test may point NUMBA_CACHE_DIR elsewhere since
    return (Path(os.environ["NUMBA_CACHE_DIR"]) / ready_marker(variant)).is_file()


# Numba's locators, ours first: it names the package's cache subfolders by their place in the
# package rather than the checkout's absolute path (simcore/ground/cachelocator.py). Safe only in a cache
# folder keyed by every compiled source; Numba before 0.68 ignores the variable.
LOCATORS = (
    "welcome_sim.simcore.ground.cachelocator.PackageRelativeLocator,UserProvidedCacheLocator,"
    "InTreeCacheLocator,UserWideCacheLocator,IPythonCacheLocator,ZipCacheLocator"
)

# A process exports the keyed folder it chose and the folder its user had set, so that a child
# process (a sweep's or the tests' workers, a command run by a test) tells a folder inherited from
# a welcome-sim parent from one its user set, and keys it by its own sources (an older or newer
# checkout run as a child gets a folder of its own).
CHOSEN_ENV = "WELCOME_SIM_CACHE_CHOSEN"
USER_ENV = "WELCOME_SIM_USER_CACHE_DIR"


def _user_choices() -> tuple[str | None, str | None]:
    """(the cache folder, the Numba cache locators) the user set, None where they set none; an
    inherited choice of a welcome-sim parent counts as its user's. An empty value counts as none."""
    env = os.environ
    folder, locators = env.get("NUMBA_CACHE_DIR") or None, env.get("NUMBA_CACHE_LOCATOR_CLASSES") or None
    if folder is not None and folder == env.get(CHOSEN_ENV):
        folder = env.get(USER_ENV) or None
    return folder, (None if locators == LOCATORS else locators)


# Only a folder welcome-sim chose is pruned and shared between checkouts; in a folder the user
# set, the kernel goes into a subfolder keyed the same way (a folder of the user's own would
# otherwise keep a caller's stale code after an update), and nothing else there is touched.
# USER_CACHE_DIR: the folder the user set (None: none), before the keyed subfolder was chosen in it.
# All three are set by configure_cache(), which importing the package does not run.
USER_CACHE_DIR: str | None = None
OWN_CACHE_DIR = True
OWN_LOCATORS = True
_configured: list[str] = []  # the keyed folder, once this process has chosen it


def configure_cache() -> str:
    """Choose this process's keyed Numba cache folder, point Numba at it and hold it (once per
    process; later calls return the same folder). simcore/ground/jit.py calls it before anything is
    compiled, so that `import welcome_sim` alone hashes, locks and prunes nothing."""
    global USER_CACHE_DIR, OWN_CACHE_DIR, OWN_LOCATORS
    if _configured:
        return _configured[0]
    USER_CACHE_DIR, user_locators = _user_choices()
    OWN_CACHE_DIR = USER_CACHE_DIR is None
    OWN_LOCATORS = user_locators is None
    chosen = _numba_cache_dir(USER_CACHE_DIR)
    os.environ["NUMBA_CACHE_DIR"] = os.environ[CHOSEN_ENV] = chosen
    os.environ[USER_ENV] = USER_CACHE_DIR or ""
    if OWN_LOCATORS:
        os.environ["NUMBA_CACHE_LOCATOR_CLASSES"] = LOCATORS
    if "numba" in sys.modules:  # numba imported first: its config was already read
        from numba.core import config

        config.CACHE_DIR = chosen
        if OWN_LOCATORS and hasattr(config, "CACHE_LOCATOR_CLASSES"):
            config.CACHE_LOCATOR_CLASSES = LOCATORS
    with contextlib.suppress(OSError):  # an unwritable cache folder: Numba compiles without one
        if USER_CACHE_DIR is not None and (Path(USER_CACHE_DIR) / IN_USE_FILE).is_file():
            # The user named a folder of ours (an old version's): its lock keeps a default process
            # from pruning it, and the kernel inside it, while this one runs.
            outer = _hold(Path(USER_CACHE_DIR))
            if outer is not None:
                _held.append(outer)
        new = not Path(chosen).exists()
        lock = _hold(Path(chosen))
        if lock is not None:
            _held.append(lock)
            if new and OWN_CACHE_DIR:
                prune_cache_dirs(chosen)
    _configured.append(chosen)
    return chosen
