"""Numba's cache follows the code digest: a kernel that inlines an edited module computes with the new code."""

import os
import subprocess
import sys
import textwrap
import time

# A kernel cached by numba that reads a constant of another module: numba keys its cache by the kernel's
# own file, so without a cache folder per digest the second run loads the first run's machine code.
_KERNEL = """
from numba import njit

from toy.rules import TRICKS


@njit(cache=True)
def tricks():
    return TRICKS
"""
_RUN = """
import sys
from pathlib import Path

from analyzer.experiments.code_digest import use_digest_cache

folder = use_digest_cache(Path(sys.argv[1]) / "toy")
from toy.kernel import tricks

print(tricks(), folder)
"""


def _run(root, env=None):
    env = {**(env or {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}), "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", _RUN, str(root)], env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    return int(out[0]), out[1]


def _toy_package(root):
    package = root / "toy"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "kernel.py").write_text(textwrap.dedent(_KERNEL))
    (package / "rules.py").write_text("TRICKS = 13\n")
    return package


def test_an_edit_of_an_inlined_module_gets_a_fresh_numba_cache(tmp_path):
    package = _toy_package(tmp_path)
    first, first_folder = _run(tmp_path)
    assert first == 13 and first_folder.startswith(str(package / "__pycache__" / "numba"))
    assert any(path.suffix == ".nbi" for path in (package / "__pycache__").rglob("*"))
    (package / "rules.py").write_text("TRICKS = 12\n")
    recent = package / "__pycache__" / "numba" / ("0" * 16)  # another version's, in use an hour ago
    recent.mkdir()
    os.utime(recent, (time.time() - 3600,) * 2)
    os.utime(first_folder, (time.time() - 2 * 86400,) * 2)
    second, second_folder = _run(tmp_path)
    assert second == 12
    assert second_folder != first_folder and not os.path.exists(first_folder)  # two days old: deleted
    assert recent.exists()
    assert _run(tmp_path) == (12, second_folder)  # the same code finds its cache folder again


def test_a_numba_cache_folder_the_user_chose_is_kept(tmp_path):
    package = _toy_package(tmp_path)
    chosen = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "mine")}
    assert _run(tmp_path, chosen) == (13, "None")
    assert any(path.suffix == ".nbi" for path in (tmp_path / "mine").rglob("*"))
    assert not (package / "__pycache__" / "numba").exists()


_RACE = """
import pathlib
import sys

from analyzer.experiments.code_digest import NUMBA_CACHES, code_digest, use_digest_cache

package = pathlib.Path(sys.argv[1]) / "toy"
(package / NUMBA_CACHES / code_digest(package)[:16]).mkdir(parents=True)
real_is_dir, looks = pathlib.Path.is_dir, []
# Another process makes the folder just after this one first looks for it.
pathlib.Path.is_dir = lambda self: real_is_dir(self) if looks else looks.append(self) or False
print(use_digest_cache(package))
"""


def test_a_folder_made_by_a_process_starting_alongside_is_used(tmp_path):
    package = _toy_package(tmp_path)
    env = {**{k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}, "PYTHONPATH": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", _RACE, str(tmp_path)], env=env, capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out.startswith(str(package / "__pycache__" / "numba"))
