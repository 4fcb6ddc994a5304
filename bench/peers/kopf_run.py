"""`python3 -m kopf` for a source checkout of Kopf on PYTHONPATH, for the load benchmark.

    PYTHONPATH=$KOPF4J_BENCH_KOPF_SOURCE:$(bench/peers/kopf-deps.sh) /usr/bin/python3 bench/peers/kopf_run.py run --namespace=NS --standalone FILE...
    PYTHONPATH=$KOPF4J_BENCH_KOPF_SOURCE:$(bench/peers/kopf-deps.sh) /usr/bin/python3 bench/peers/kopf_run.py --version

Kopf's own command line (kopf.cli, which `kopf run ...` and `python3 -m kopf run ...` run), changing
nothing of Kopf: it only provides the one module that a checkout lacks, kopf/_cogs/helpers/versions.py,
which setuptools-scm writes when Kopf is built into a package (the version from `git describe --tags`
in the checkout). Kopf's dependencies are Debian's packages that bench/peers/kopf-deps.sh unpacks
into a directory of their own (Debian 12's own aiohttp and click are too old for Kopf 1.44).
--version (this script's; Kopf's `kopf --version` reads the metadata of an installed Kopf, which a
checkout has not) prints Kopf's version and those of what it runs on, one line, after importing all
that `kopf run` imports (so that their bytecode is cached, as after a user's first start); the line
names the packages whose C extensions this Python did not load (built for another Python: they run
their pure-Python code). It fails with one line saying why when Kopf cannot run here as released: a
package missing, or older than the checkout's pyproject.toml asks for.
"""
import importlib.machinery
import importlib.metadata
import importlib.util
import os
import re
import runpy
import subprocess
import sys
import tomllib
import types

VERSIONS = 'kopf._cogs.helpers.versions'


def checkout_version(package_dir):
    try:
        described = subprocess.run(['git', '-C', package_dir, 'describe', '--tags'], capture_output=True, text=True,
                                   timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return described or None


def provide_versions():
    spec = importlib.util.find_spec('kopf')   # finds the package without importing it
    if spec is None or not spec.submodule_search_locations:
        sys.exit('no Kopf on PYTHONPATH: set it to a checkout of Kopf\'s source (bench/README.md)')
    package_dir = list(spec.submodule_search_locations)[0]
    if os.path.exists(os.path.join(package_dir, '_cogs', 'helpers', 'versions.py')):
        return package_dir   # a built Kopf: its own
    version = checkout_version(package_dir)
    module = types.ModuleType(VERSIONS)
    module.__version__ = module.version = version
    module.__version_tuple__ = module.version_tuple = tuple(
        int(part) for part in (version or '').split('-')[0].split('.') if part.isdigit())
    module.__commit_id__ = module.commit_id = None
    sys.modules[VERSIONS] = module
    return package_dir


def version_tuple(text):
    return tuple(int(part) for part in re.findall(r'\d+', text)[:3])


def python_marker_holds(marker):
    """A python_version marker of pyproject's dependencies, e.g. python_version >= '3.12'; others hold."""
    found = re.fullmatch(r"\s*python_version\s*(>=|<=|==|>|<)\s*['\"]([\d.]+)['\"]\s*", marker)
    if not found:
        return True
    here, there = sys.version_info[:2], version_tuple(found.group(2))
    return {'>=': here >= there, '<=': here <= there, '==': here == there, '>': here > there, '<': here < there}[found.group(1)]


def unmet_requirements(package_dir):
    """["aiohttp>=3.11.0 (here 3.8.4)", ...]: what the checkout's pyproject.toml asks and this Python lacks."""
    try:
        with open(os.path.join(os.path.dirname(package_dir), 'pyproject.toml'), 'rb') as file:
            dependencies = tomllib.load(file)['project']['dependencies']
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return []
    unmet = []
    for dependency in dependencies:
        requirement, _, marker = dependency.partition(';')
        found = re.fullmatch(r'\s*([A-Za-z0-9_.-]+)\s*(?:>=\s*([\d.]+))?\s*', requirement)
        if not found or not python_marker_holds(marker):
            continue
        name, minimum = found.groups()
        try:
            installed = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            unmet.append(f'{name} (missing)')
            continue
        if minimum and version_tuple(installed) < version_tuple(minimum):
            unmet.append(f'{name}>={minimum} (here {installed})')
    return unmet


def without_extensions():
    """The imported packages that ship C extensions of which this Python loaded none, sorted."""
    loaded = {name.split('.')[0] for name, module in list(sys.modules.items())
              if isinstance(getattr(module, '__loader__', None), importlib.machinery.ExtensionFileLoader)}
    packages = []
    for name, module in list(sys.modules.items()):
        if '.' in name or name in loaded or not getattr(module, '__path__', None):
            continue
        if any(file.endswith('.so') for directory in module.__path__ for _, _, files in os.walk(directory) for file in files):
            packages.append(name)
    return sorted(packages)


def main():
    if any(arg in ('-h', '--help') for arg in sys.argv[1:]):   # every script answers --help, doing nothing else
        print(__doc__.strip())
        return
    package_dir = provide_versions()
    if sys.argv[1:] != ['--version']:
        sys.argv[0] = 'kopf'
        runpy.run_module('kopf', run_name='__main__', alter_sys=True)   # python3 -m kopf ...
        return
    unmet = unmet_requirements(package_dir)
    if unmet:
        sys.exit(f'its pyproject.toml asks for {", ".join(unmet)} (Python {sys.version.split()[0]})')
    import kopf
    import kopf.cli   # noqa: F401 (all that `kopf run` imports)

    pure = without_extensions()
    print(f'Kopf {kopf.__version__ or "(unknown version)"} (Python {sys.version.split()[0]},'
          f' aiohttp {importlib.metadata.version("aiohttp")}, click {importlib.metadata.version("click")}'
          + (f'; without their C extensions: {", ".join(pure)}' if pure else '') + ')')


if __name__ == '__main__':
    main()
