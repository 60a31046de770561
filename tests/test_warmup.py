"""The compiled-kernel cache: the ready marker, the compile notice, pruning of old folders."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import run_cli

import welcome_sim
from welcome_sim import IN_USE_FILE, READY_MARKER, kernel_cache_ready, prune_cache_dirs, ready_marker
from welcome_sim.errors import WelcomeSimError
from welcome_sim.simcore.engine.warmup import (
    ALL_VARIANTS,
    compile_notice,
    entry_cached,
    expected_compile_seconds,
    warm_kernel,
)

fcntl = pytest.importorskip("fcntl")  # pruning needs POSIX file locks


def _folder(root: Path, name: str, lock_file: bool = True, age: float = 0.0) -> Path:
    d = root / name
    (d / "simcore_abc").mkdir(parents=True)
    (d / "simcore_abc" / "kernel.nbi").write_bytes(b"x")
    if lock_file:
        (d / IN_USE_FILE).touch()
    if age:
        old = time.time() - age
        for p in (d / "simcore_abc", d):
            os.utime(p, (old, old))
    return d


def test_prune_removes_unused_folders_and_keeps_held_and_current(tmp_path):
    current = _folder(tmp_path, "numba-current")
    unused = _folder(tmp_path, "numba-unused")
    held = _folder(tmp_path, "numba-held")
    legacy_recent = _folder(tmp_path, "numba-legacy1", lock_file=False)
    legacy_old = _folder(tmp_path, "numba-legacy2", lock_file=False, age=2 * welcome_sim.UNLOCKED_GRACE_S)
    other = tmp_path / "compare"
    other.mkdir()
    # Another process holds its folder as every running welcome-sim does.
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, sys, time; f = open(sys.argv[1], 'a'); fcntl.flock(f, fcntl.LOCK_SH); "
            "print('held', flush=True); time.sleep(60)",
            str(held / IN_USE_FILE),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        removed = prune_cache_dirs(str(current), keep_recent=0, recent_s=0.0)
    finally:
        holder.kill()
        holder.wait()
    assert sorted(removed) == ["numba-legacy2", "numba-unused"]
    assert current.is_dir() and held.is_dir() and legacy_recent.is_dir() and other.is_dir()
    assert not unused.exists() and not legacy_old.exists()
    assert not list(tmp_path.glob(".trash-*"))


def test_prune_keeps_the_most_recently_used_others(tmp_path):
    """Two checkouts of different versions used in turn keep each other's folder: the keep_recent
    most recently used folders stay, older unused ones go."""
    current = _folder(tmp_path, "numba-current")
    ages = {"numba-a": 3600.0, "numba-b": 2 * 3600.0, "numba-c": 3 * 3600.0, "numba-d": 4 * 3600.0}
    for name, age in ages.items():
        _folder(tmp_path, name, age=age)
        os.utime(tmp_path / name / IN_USE_FILE, (time.time() - age,) * 2)
    # A use of the oldest (a load from its cache touches its in-use file) makes it the most recent.
    os.utime(tmp_path / "numba-d" / IN_USE_FILE)
    removed = prune_cache_dirs(str(current), keep_recent=2)
    assert sorted(removed) == ["numba-b", "numba-c"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["numba-a", "numba-current", "numba-d"]


def test_prune_keeps_every_folder_used_within_the_hour(tmp_path):
    """Three or more checkouts used in turn (worktrees compared side by side) keep each other's
    folders while they are in use by turns: a folder used within RECENT_USE_S stays whatever its
    rank; one unused for longer goes."""
    current = _folder(tmp_path, "numba-current")
    for name in ("numba-a", "numba-b", "numba-c"):
        _folder(tmp_path, name, age=60.0)
    _folder(tmp_path, "numba-old", age=2 * welcome_sim.RECENT_USE_S)
    os.utime(tmp_path / "numba-old" / IN_USE_FILE, (time.time() - 2 * welcome_sim.RECENT_USE_S,) * 2)
    assert prune_cache_dirs(str(current), keep_recent=0) == ["numba-old"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["numba-a", "numba-b", "numba-c", "numba-current"]


def test_a_new_cache_folder_prunes_the_old_ones(tmp_path):
    cache = tmp_path / "cache" / "welcome-sim"
    n_old = welcome_sim.KEEP_RECENT + 1
    for i in range(n_old):  # numba-...0 is the least recently used
        _folder(cache, f"numba-{i:016d}", age=(n_old - i) * 3600.0)
        os.utime(cache / f"numba-{i:016d}" / IN_USE_FILE, (time.time() - (n_old - i) * 3600.0,) * 2)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    code = "import os, welcome_sim; welcome_sim.configure_cache(); print(os.environ['NUMBA_CACHE_DIR'])"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    mine = Path(done.stdout.strip())
    assert mine.parent == cache and (mine / IN_USE_FILE).is_file()
    assert time.time() - (mine / IN_USE_FILE).stat().st_mtime < 600  # its use is recorded
    kept = sorted(p.name for p in cache.iterdir())
    assert kept == sorted([mine.name] + [f"numba-{i:016d}" for i in range(1, n_old)])


# Markers and locks stay behind, and files Numba is still writing (another test worker may be
# compiling into the shared folder: it writes NAME.tmp.UID, then renames it).
_NOT_COPIED = shutil.ignore_patterns(f"{READY_MARKER}*", IN_USE_FILE, "*.tmp.*")


def test_warm_kernel_marks_the_folder_ready_and_the_notice_goes(tmp_path, monkeypatch):
    warm_kernel()  # the suite's own cache: loads, or compiles once
    folder = Path(welcome_sim.configure_cache())
    assert kernel_cache_ready() and compile_notice() is None
    # A copy of the compiled cache without the marker reads as not ready (as after an
    # interrupted compile); warming it loads everything and marks it.
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy, ignore=_NOT_COPIED)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(copy))
    # The compile times come from a folder no other test worker writes while this test reads it.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    import welcome_sim.simcore.engine.warmup as W

    monkeypatch.setattr(W, "load_factor", lambda: 1.0)  # the estimate as the test computes it
    assert not kernel_cache_ready() and not kernel_cache_ready("base_greedy")
    # The entry points compiled (as after games played from Python): the notice says it loads.
    assert entry_cached("full") and entry_cached("base_greedy")
    notice = compile_notice()
    assert notice is not None and notice.startswith("loading the kernel (compiled outside a warm-up")
    for index in copy.glob("welcome_sim.simcore.engine/kernel.play_batch*.nbi"):
        index.unlink()
    assert not entry_cached("full") and not entry_cached("base_greedy")
    notice = compile_notice()
    # The one wording every command prints (commands/common.compiling: notice_line).
    assert notice == (
        f"compiling the kernel (first run after install or an update): about {expected_compile_seconds(ALL_VARIANTS)} s"
        "; later runs load it in a second"
    )
    # Each variant has its own marker: a base greedy game needs only its own.
    (copy / ready_marker("base_greedy")).write_text("1.0\n")
    assert compile_notice(["base_greedy"]) is None
    assert f"about {expected_compile_seconds(['full'])} s" in compile_notice()
    (copy / READY_MARKER).write_text("1.0\n")
    assert kernel_cache_ready() and compile_notice() is None


def test_commands_say_on_stderr_when_they_compile(tmp_path):
    warm_kernel()
    # Named as the keyed folder is, so the child takes it as it is (not a folder of the user's,
    # in which it would choose a keyed subfolder).
    copy = tmp_path / Path(welcome_sim.configure_cache()).name
    shutil.copytree(welcome_sim.configure_cache(), copy, ignore=_NOT_COPIED)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(copy)}
    first = subprocess.run(
        [sys.executable, "-m", "welcome_sim.cli", "play", "--seed", "1"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert first.returncode == 0, first.stderr
    # The copy holds the compiled code but no marker, as after games played from Python: the
    # command says it loads (what is missing would compile), not that it compiles the whole kernel.
    assert "loading the kernel (compiled outside a warm-up" in first.stderr
    assert "kernel loaded in" in first.stderr
    assert "compiling" not in first.stdout
    # play compiles (here: loads) only the variant its games need: base games, greedy players.
    assert (copy / ready_marker("base_greedy")).is_file() and not (copy / READY_MARKER).exists()
    again = subprocess.run(
        [sys.executable, "-m", "welcome_sim.cli", "play", "--seed", "1"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert again.returncode == 0 and "compiling" not in again.stderr


def _cache_choice(env: dict) -> list[str]:
    """NUMBA_CACHE_DIR, USER_CACHE_DIR and OWN_CACHE_DIR as a welcome-sim process started with env
    sees them."""
    code = (
        "import os, welcome_sim; welcome_sim.configure_cache(); print(os.environ['NUMBA_CACHE_DIR']); "
        "print(welcome_sim.USER_CACHE_DIR); print(welcome_sim.OWN_CACHE_DIR)"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def test_a_cache_folder_the_user_sets_holds_the_kernel_keyed_by_its_sources(tmp_path):
    # Numba checks only a function's own file: in a folder of the user's used by two versions, a
    # cached caller would keep a callee's old code. The kernel goes into a keyed subfolder.
    mine = tmp_path / "mine"
    keyed = mine / f"numba-{welcome_sim.kernel_digest()}"
    env = dict(os.environ)
    env["NUMBA_CACHE_DIR"] = str(mine)
    assert _cache_choice(env) == [str(keyed), str(mine), "False"]
    # A child of such a process inherits the keyed folder and its user's choice.
    (mine / "numba-0000000000000000").mkdir()
    env |= {
        "NUMBA_CACHE_DIR": str(keyed),
        welcome_sim.CHOSEN_ENV: str(keyed),
        welcome_sim.USER_ENV: str(mine),
    }
    assert _cache_choice(env) == [str(keyed), str(mine), "False"]
    assert (mine / "numba-0000000000000000").is_dir()  # nothing beside the keyed folder is removed
    # A child of a process that chose its own folder keeps the default: so do the test workers.
    own = tmp_path / "cache" / "welcome-sim" / keyed.name
    env |= {
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "NUMBA_CACHE_DIR": str(own),
        welcome_sim.CHOSEN_ENV: str(own),
        welcome_sim.USER_ENV: "",
    }
    assert _cache_choice(env) == [str(own), "None", "True"]
    # An empty value is no choice.
    env |= {"NUMBA_CACHE_DIR": "", welcome_sim.CHOSEN_ENV: ""}
    assert _cache_choice(env) == [str(own), "None", "True"]


def test_an_old_folder_of_ours_the_user_names_is_not_pruned_while_in_use(tmp_path):
    root = tmp_path / "cache" / "welcome-sim"
    old = _folder(root, "numba-0000000000000000", age=7200.0)
    env = dict(os.environ) | {"NUMBA_CACHE_DIR": str(old), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop(welcome_sim.CHOSEN_ENV, None)
    user = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, welcome_sim; welcome_sim.configure_cache(); print('up', flush=True); sys.stdin.read()",
        ],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert user.stdout.readline().strip() == "up"
        # A default process of another version prunes every old folder it can lock.
        removed = welcome_sim.prune_cache_dirs(
            str(root / "numba-ffffffffffffffff"), keep_recent=0, recent_s=0.0
        )
        assert old.name not in removed and old.is_dir()
    finally:
        user.communicate("")
    assert welcome_sim.prune_cache_dirs(
        str(root / "numba-ffffffffffffffff"), keep_recent=0, recent_s=0.0
    ) == [old.name]


def test_warmup_command_reports_a_compiled_kernel():
    res = run_cli("warmup")
    assert res.returncode == 0, res.stderr
    assert "kernel compiled already" in res.stdout


def test_a_checkout_at_another_path_loads_the_compiled_kernel(tmp_path):
    warm_kernel()
    copy = tmp_path / "elsewhere"
    shutil.copytree(
        Path(welcome_sim.__file__).parent, copy / "welcome_sim", ignore=shutil.ignore_patterns("__pycache__")
    )
    # The copy chooses its cache folder and locators itself, as a fresh checkout would.
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "NUMBA_CACHE_LOCATOR_CLASSES")}
    env |= {"PYTHONPATH": str(copy), "NUMBA_DEBUG_CACHE": "1"}
    code = (
        "import welcome_sim, os; welcome_sim.configure_cache(); print(welcome_sim.__file__); print(os.environ['NUMBA_CACHE_DIR']); "
        "from welcome_sim.simcore.engine.game import game_seeds, simulate; "
        "from welcome_sim.simcore.rules.ruleset import load_ruleset; "
        "simulate(load_ruleset('collector'), game_seeds(1, 2), 1, ['greedy'])"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == str(copy / "welcome_sim" / "__init__.py")
    assert lines[1] == os.environ["NUMBA_CACHE_DIR"]  # the same sources, the same folder
    assert "[cache] data loaded from" in done.stdout and "kernel.play_batch" in done.stdout
    assert "[cache] data saved" not in done.stdout  # nothing compiled again


class _Warmed(Exception):
    """Stops a command right after its warm-up (the games are not what is checked)."""


@pytest.mark.parametrize(
    ("argv", "wanted"),
    [
        # Greedy-family players only, base game: the smaller variant alone (no whole-kernel compile).
        (["tournament", "--strategy", "greedy", "--strategy", "builder"], {"base_greedy"}),
        (["tournament"], {"base_greedy", "full"}),  # random plays on the whole kernel
        (["tournament", "--strategy", "greedy", "--expansion", "easter"], {"full"}),
        (["skill", "--level", "greedy", "--level", "builder", "--players", "2"], {"base_greedy"}),
        (["skill", "--level", "random", "--level", "greedy"], {"base_greedy", "full"}),
        (["tune", "--no-write"], {"base_greedy"}),
        (["tune", "--strategy", "plan-rusher", "--no-write"], {"base_greedy"}),
        (["difficulty", "--reference", "greedy", "--expert", "builder"], {"base_greedy", "full"}),
    ],
)
def test_commands_warm_only_the_variants_their_games_play_on(monkeypatch, argv, wanted):
    from typer.testing import CliRunner

    import welcome_sim.simcore.engine.warmup as W
    from welcome_sim.cli import app

    seen: list[tuple[str, ...]] = []

    def record(notice=None, variants=ALL_VARIANTS):
        seen.append(tuple(variants))
        raise _Warmed

    monkeypatch.setattr(W, "warm_kernel", record)
    res = CliRunner().invoke(app, argv)
    assert isinstance(res.exception, _Warmed), res.output
    assert set(seen[0]) == wanted


def test_importing_the_package_does_no_io(tmp_path):
    # `import welcome_sim` (a --help, a test collecting, a notebook) must not hash the sources,
    # create the cache folder, lock it or prune its neighbours: that waits for the first compiled
    # module (simcore/ground/jit.py chooses the folder before anything is decorated).
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", welcome_sim.CHOSEN_ENV)}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    code = (
        "import os, sys, welcome_sim; "
        "print('NUMBA_CACHE_DIR' in os.environ, 'numba' in sys.modules, welcome_sim._configured); "
        "import welcome_sim.simcore.ground.jit; print(os.environ['NUMBA_CACHE_DIR'])"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    before, chosen = done.stdout.splitlines()
    assert before == "False False []"
    assert (
        Path(chosen).parent == tmp_path / "cache" / "welcome-sim" and (Path(chosen) / IN_USE_FILE).is_file()
    )
    # Nothing but the chosen folder was made, and only once a compiled module was imported.
    assert sorted(p.name for p in (tmp_path / "cache" / "welcome-sim").iterdir()) == [Path(chosen).name]


def test_missing_variants_compile_at_once_in_processes_of_their_own(monkeypatch):
    """On two cores the whole kernel compiles in a child process while this one compiles the base
    variant; the estimate is then the longest compile, not the sum."""
    import welcome_sim.simcore.engine.warmup as W

    monkeypatch.setattr(W, "DEFAULT_COMPILE_S", {"full": 100, "base_greedy": 40})
    monkeypatch.setattr(W, "_seconds_file", lambda v: Path("/nonexistent") / v)
    started: list[list[str]] = []
    helpers: list[list[str]] = []
    child_envs: list[dict] = []
    killed: list[bool] = []
    compiled_here: list[tuple[str, ...]] = []

    stopped: list[bool] = []

    class Child:
        def __init__(self, argv, env=None, **kwargs):
            # A variant's compile, or (splitcompile.py) a helper taking part of a child's.
            self.helper = "splitcompile" in argv[2]
            (helpers if self.helper else started).append(argv[3:])
            if not self.helper:
                child_envs.append(env or {})

        def poll(self):
            return None  # still compiling

        def wait(self):
            return 0

        def terminate(self):
            if not self.helper:
                stopped.append(True)

        def kill(self):
            killed.append(self.helper)

    monkeypatch.setattr(W.subprocess, "Popen", Child)
    monkeypatch.setattr(W, "play_families", lambda v: compiled_here.append(v))
    monkeypatch.setattr(W, "_mark_ready", lambda *a: None)
    monkeypatch.setattr(W, "missing_variants", lambda vs=ALL_VARIANTS: list(vs))
    # Whatever the suite's cache holds: the variants are loaded after their compile, not compiled
    # again (so no helper starts for them there).
    monkeypatch.setattr(W, "kernel_cache_ready", lambda v: True)
    monkeypatch.setenv("WELCOME_SIM_COMPILE_PROCESSES", "2")
    assert W.compile_processes(2) == 2 and W.compile_processes(1) == 1
    assert W.expected_compile_seconds(ALL_VARIANTS, factor=1.0) == 100
    W.warm_kernel()
    assert started == [["full"]]  # the largest goes to a child
    assert compiled_here[0] == "base_greedy" and not stopped
    # Its own compile done while the child still compiles, this process starts a helper for it
    # (when the record exists), and the child starts none of its own.
    assert helpers == ([["full"]] if W.splitcompile.RECORD.is_file() else [])
    assert child_envs[0].get(W.splitcompile.OFF_ENV) == "0"
    assert killed == [True] * len(helpers)  # the helper ends when the child's compile does

    def interrupted(v):
        raise KeyboardInterrupt

    # Interrupted here (Ctrl-C, an error), the child's compile is stopped too.
    monkeypatch.setattr(W, "play_families", interrupted)
    with pytest.raises(KeyboardInterrupt):
        W.warm_kernel()
    assert stopped == [True]
    monkeypatch.setattr(W, "play_families", lambda v: compiled_here.append(v))
    monkeypatch.setenv("WELCOME_SIM_COMPILE_PROCESSES", "1")
    assert W.expected_compile_seconds(ALL_VARIANTS, factor=1.0) == 140
    started.clear()
    W.warm_kernel()
    assert started == []
    monkeypatch.setenv("WELCOME_SIM_COMPILE_PROCESSES", "two")
    with pytest.raises(
        WelcomeSimError, match="WELCOME_SIM_COMPILE_PROCESSES: 'two' is not a number of processes"
    ):
        W.compile_processes(2)


def test_a_bad_compile_processes_value_is_a_one_line_error(tmp_path, monkeypatch):
    # In an empty cache the warm-up estimates its compile first: the variable is read before
    # anything compiles, and a bad value stops the command with one line naming it.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.delenv(welcome_sim.CHOSEN_ENV, raising=False)
    monkeypatch.setenv("WELCOME_SIM_COMPILE_PROCESSES", "-3")
    res = run_cli("warmup")
    assert res.returncode != 0 and "Traceback" not in res.stderr, res.stderr
    lines = [x for x in res.stderr.splitlines() if x.strip()]
    assert lines == [
        "error: WELCOME_SIM_COMPILE_PROCESSES: '-3' is not a number of processes; give 1 or more "
        "(1: the variants one after the other), or 0 or nothing for one per core"
    ], res.stderr


def test_a_bad_split_compile_value_is_a_one_line_error_before_the_notice(tmp_path, monkeypatch):
    # Read before anything compiles (an empty cache): one line naming it, no compile notice first.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.delenv(welcome_sim.CHOSEN_ENV, raising=False)
    monkeypatch.setenv("WELCOME_SIM_SPLIT_COMPILE", "yes")
    res = run_cli("play", "--seed", "1")
    assert res.returncode != 0 and "Traceback" not in res.stderr, res.stderr
    lines = [x for x in res.stderr.splitlines() if x.strip()]
    assert lines == [
        "error: WELCOME_SIM_SPLIT_COMPILE: 'yes' is not 0 or 1; give 0 (no helper process) or 1 or "
        "nothing (a helper process takes part of a compile on two cores)"
    ], res.stderr
