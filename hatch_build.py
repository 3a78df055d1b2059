"""Build hook: compile the engine's hot modules with mypyc when the wheel is built.

`pip install .` on a machine with a C compiler gives a wheel whose engine modules
(listed in pyproject.toml under [tool.hatch.build.targets.wheel.hooks.custom],
`compile`) are C extensions built from the same typed Python; everywhere else the
package stays pure Python and works the same, only slower.

- `CASSINO_PURE_PYTHON=1 pip install .` builds the pure-Python package on purpose.
- `CASSINO_REQUIRE_NATIVE=1 pip install .` fails instead of falling back (for CI).
- Editable installs (`pip install -e .`) are never compiled, so edits to the source
  always take effect.
At run time, `CASSINO_PURE_PYTHON=1 cassino ...` uses the Python source even where the
compiled modules are installed; `cassino --version` says which engine runs.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCE_ROOT = "interpreter"   # the folder that holds the `cassino` package


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        if os.environ.get("CASSINO_PURE_PYTHON") == "1":
            self._say("CASSINO_PURE_PYTHON=1: building the pure-Python package")
            return
        modules: list[str] = list(self.config.get("compile", []))
        try:
            built = self._compile(modules)
        except BaseException as exc:  # noqa: BLE001 - any failure (mypyc exits on errors): pure Python
            if isinstance(exc, KeyboardInterrupt):
                raise
            if os.environ.get("CASSINO_REQUIRE_NATIVE") == "1":
                raise
            self._say(f"could not compile the engine ({type(exc).__name__}: {exc}); "
                      "installing the pure-Python engine, which works the same, only slower")
            return
        for src, dst in built:
            build_data["force_include"][str(src)] = dst
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        self._say(f"compiled {len(modules)} engine modules with mypyc")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        tmp = getattr(self, "_tmp", None)
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)

    # ------------------------------------------------------------------ helpers
    def _say(self, text: str) -> None:
        print(f"cassino build: {text}", file=sys.stderr)

    def _compile(self, modules: list[str]) -> list[tuple[Path, str]]:
        """mypyc's C for ``modules``, compiled; returns (built file, path in the wheel)."""
        from mypyc.build import mypycify
        from setuptools import Distribution

        root = Path(self.root) / SOURCE_ROOT
        self._tmp = Path(tempfile.mkdtemp(prefix="cassino-mypyc-"))
        paths = [str(Path(*m.split(".")).with_suffix(".py")) for m in modules]
        cwd = os.getcwd()
        os.chdir(root)   # mypyc names modules by their path from here
        try:
            # Only the listed modules are checked and compiled; the modules they import
            # (and the libraries those use) are read for their types, silently.
            options = ["--follow-imports=silent", "--ignore-missing-imports"]
            extensions = mypycify([*options, *paths], opt_level="3", target_dir=str(self._tmp / "c"),
                                  group_name="cassino_engine")
            if sys.platform.startswith("linux"):   # (GCC's default; clang, macOS's, inlines so already)
                # The modules' functions reach each other by direct C calls within one shared library
                # (the other modules find it through capsules, never by symbol): nothing interposes them,
                # so the compiler may inline the small ones (``movegen._ones``, the state's reads), which
                # position-independent code otherwise forbids; and calls into CPython go through its table
                # of addresses directly, not by a jump through the procedure linkage table.
                for ext in extensions:
                    ext.extra_compile_args = [*(ext.extra_compile_args or []), "-fno-semantic-interposition", "-fno-plt"]
            dist = Distribution({"name": "cassino", "ext_modules": extensions})
            cmd = dist.get_command_obj("build_ext")
            cmd.build_lib = str(self._tmp / "lib")
            cmd.build_temp = str(self._tmp / "obj")
            cmd.ensure_finalized()
            cmd.run()
        finally:
            os.chdir(cwd)
        suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
        out = []
        for path in (self._tmp / "lib").rglob(f"*{suffix}"):
            out.append((path, path.relative_to(self._tmp / "lib").as_posix()))
        if len(out) < len(modules):
            raise RuntimeError(f"expected {len(modules)} compiled modules, found {len(out)}")
        return out
