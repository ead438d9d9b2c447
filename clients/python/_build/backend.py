"""The package's PEP 517 build backend, standard library only: `pip install ./clients/python` needs nothing from an
index. (setuptools before 70.1 cannot build a wheel without the `wheel` package, and Python 3.12's virtual
environments come with neither.) It builds the wheel (also an editable one, PEP 660) and the sdist from the
`[project]` table of pyproject.toml and the files of `evm_node_client/`."""

from __future__ import annotations

import base64
import hashlib
import io
import re
import sys
import tarfile
import zipfile
from pathlib import Path
from typing import Mapping, Sequence

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "evm_node_client"
# Fixed timestamps: the same sources make the same archives.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
TAR_MTIME = 315532800

ConfigSettings = Mapping[str, object] | None


def _project() -> dict[str, object]:
    """pyproject.toml's `[project]` table (on Python 3.10, without tomllib, its `key = "string"` and
    `key = ["string", …]` lines, which is all it holds)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    if sys.version_info >= (3, 11):
        import tomllib

        table = tomllib.loads(text).get("project")
        if not isinstance(table, dict):
            raise ValueError("pyproject.toml has no [project] table")
        return table
    section = re.search(r"^\[project\]\n(.*?)(?=^\[|\Z)", text, re.S | re.M)
    if section is None:
        raise ValueError("pyproject.toml has no [project] table")
    project: dict[str, object] = {}
    for key, value in re.findall(r'^([A-Za-z-]+)\s*=\s*(".*"|\[.*\])\s*$', section.group(1), re.M):
        strings = re.findall(r'"((?:[^"\\]|\\.)*)"', value)
        project[key] = strings if value.startswith("[") else strings[0]
    return project


def _string(project: Mapping[str, object], key: str) -> str:
    value = project.get(key)
    if not isinstance(value, str):
        raise ValueError(f"pyproject.toml: [project] {key} must be a string")
    return value


def _strings(project: Mapping[str, object], key: str) -> list[str]:
    value = project.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"pyproject.toml: [project] {key} must be a list of strings")
    return [str(v) for v in value]


def _metadata(project: Mapping[str, object]) -> str:
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {_string(project, 'name')}",
        f"Version: {_string(project, 'version')}",
        f"Summary: {_string(project, 'description')}",
        f"Requires-Python: {_string(project, 'requires-python')}",
        *(f"Classifier: {c}" for c in _strings(project, "classifiers")),
        "Description-Content-Type: text/markdown",
    ]
    readme = (ROOT / _string(project, "readme")).read_text(encoding="utf-8")
    return "\n".join(lines) + "\n\n" + readme


def _distribution(project: Mapping[str, object]) -> str:
    """`evm_node_client-0.1.0`: the name and version as wheel and sdist file names spell them."""
    return f"{re.sub(r'[-_.]+', '_', _string(project, 'name'))}-{_string(project, 'version')}"


def _package_files() -> list[Path]:
    return sorted(p for p in (ROOT / PACKAGE).rglob("*") if p.is_file() and (p.suffix == ".py" or p.name == "py.typed"))


def _digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")


def _write_wheel(directory: str, files: Sequence[tuple[str, bytes]]) -> str:
    project = _project()
    dist = _distribution(project)
    info = f"{dist}.dist-info"
    wheel = "Wheel-Version: 1.0\nGenerator: evm-node-client _build/backend.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    entries = [*files, (f"{info}/METADATA", _metadata(project).encode()), (f"{info}/WHEEL", wheel.encode())]
    record = "".join(f"{name},{_digest(data)},{len(data)}\n" for name, data in entries) + f"{info}/RECORD,,\n"
    name = f"{dist}-py3-none-any.whl"
    with zipfile.ZipFile(Path(directory) / name, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in [*entries, (f"{info}/RECORD", record.encode())]:
            archive.writestr(zipfile.ZipInfo(path, ZIP_DATE), data, zipfile.ZIP_DEFLATED)
    return name


def get_requires_for_build_wheel(config_settings: ConfigSettings = None) -> list[str]:
    return []


def get_requires_for_build_sdist(config_settings: ConfigSettings = None) -> list[str]:
    return []


def get_requires_for_build_editable(config_settings: ConfigSettings = None) -> list[str]:
    return []


def build_wheel(wheel_directory: str, config_settings: ConfigSettings = None, metadata_directory: str | None = None) -> str:
    """A wheel holding the package's modules and py.typed."""
    return _write_wheel(wheel_directory, [(p.relative_to(ROOT).as_posix(), p.read_bytes()) for p in _package_files()])


def build_editable(wheel_directory: str, config_settings: ConfigSettings = None, metadata_directory: str | None = None) -> str:
    """A wheel holding a .pth file that puts this directory on sys.path: the sources are imported where they are."""
    return _write_wheel(wheel_directory, [(f"__editable__.{PACKAGE}.pth", f"{ROOT}\n".encode())])


def build_sdist(sdist_directory: str, config_settings: ConfigSettings = None) -> str:
    """The sources: pyproject.toml, the README, this backend, the package and its tests."""
    project = _project()
    dist = _distribution(project)
    sources = [ROOT / "pyproject.toml", ROOT / _string(project, "readme"), Path(__file__).resolve(), *_package_files()]
    sources += sorted((ROOT / "tests").glob("*.py"))
    name = f"{dist}.tar.gz"
    with tarfile.open(Path(sdist_directory) / name, "w:gz") as archive:
        members = [(f"{dist}/{p.relative_to(ROOT).as_posix()}", p.read_bytes()) for p in sources]
        members.append((f"{dist}/PKG-INFO", _metadata(project).encode()))
        for path, data in members:
            member = tarfile.TarInfo(path)
            member.size, member.mtime, member.mode = len(data), TAR_MTIME, 0o644
            archive.addfile(member, io.BytesIO(data))
    return name
