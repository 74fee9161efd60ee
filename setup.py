"""Builds pathlab's Python module with the project's own CMake build (python/CMakeLists.txt).

`pip install --no-build-isolation .` and `python3 -m build --wheel --no-isolation` run this:
CMake configures the library alone (no tests, no command, no install rules) for the Python
that runs pip, builds the one target _pathlab, and puts it where setuptools packs it.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class CMakeExtension(Extension):
    def __init__(self, name: str) -> None:
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        out_dir = Path(self.get_ext_fullpath(ext.name)).resolve().parent
        build_dir = Path(self.build_temp).resolve() / "cmake"
        args = [
            "-S", str(ROOT), "-B", str(build_dir),
            "-DCMAKE_BUILD_TYPE=Release",
            "-DPATHLAB_BUILD_TESTS=OFF", "-DPATHLAB_BUILD_APPS=OFF", "-DPATHLAB_INSTALL=OFF",
            "-DPATHLAB_BUILD_PYTHON=ON",
            f"-DPython_EXECUTABLE={sys.executable}",
            f"-DPATHLAB_PYTHON_OUTPUT_DIR={out_dir}",
        ]
        try:  # pybind11 from the package index knows where its CMake files are
            import pybind11

            args.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
        except ImportError:
            pass
        if shutil.which("ninja"):
            args += ["-G", "Ninja"]
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.run(["cmake", *args], check=True)
        subprocess.run(
            ["cmake", "--build", str(build_dir), "--target", "_pathlab", "-j", jobs], check=True
        )


BUILD = ROOT / "build-python"  # apart from the project's own CMake build folder (build/)
BUILD.mkdir(exist_ok=True)
setup(
    ext_modules=[CMakeExtension("pathlab._pathlab")],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": str(BUILD)}, "egg_info": {"egg_base": str(BUILD)}},
)
