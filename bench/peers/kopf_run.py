"""`kopf run` of a source checkout of Kopf on PYTHONPATH, on Debian's Python packages, for the load benchmark.

    PYTHONPATH=$KOPF4J_BENCH_KOPF_SOURCE /usr/bin/python3 bench/peers/kopf_run.py --namespace=NS --standalone FILE...
    PYTHONPATH=$KOPF4J_BENCH_KOPF_SOURCE /usr/bin/python3 bench/peers/kopf_run.py --version

Two things stand between a checkout and `kopf run` there, and this bridges them without changing Kopf:
- a checkout lacks kopf/_cogs/helpers/versions.py, which setuptools-scm writes when Kopf is built into
  a package: this provides that module, the version from `git describe --tags` in the checkout;
- Kopf 1.44's CLI declares an option with an enum's choices, which click parses only from 8.2 on
  (Debian 12 has 8.1.3): this runs the `run` command's own code (kopf.cli.run: logging set up,
  the files loaded, the operator run) with the options given here and the other options' defaults,
  through click's context as the CLI does, only without click's parsing of the command line.
--version prints Kopf's version and those of what it runs on, one line, after importing all that
`kopf run` imports (so that their bytecode is cached, as after a user's first start). It fails with
one line saying why when Kopf cannot run here as released: a package missing (the Debian packages of
bench/README.md), or older than the checkout's pyproject.toml asks for; click is exempt, as only its
parsing of the command line falls short (above), while the others do the operator's work.
"""
import argparse
import importlib.metadata
import importlib.util
import os
import re
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
        if not found or found.group(1) == 'click' or not python_marker_holds(marker):
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


def main():
    if any(arg in ('-h', '--help') for arg in sys.argv[1:]):   # every script answers --help, doing nothing else
        print(__doc__.strip())
        return
    package_dir = provide_versions()
    if sys.argv[1:] == ['--version']:
        unmet = unmet_requirements(package_dir)
        if unmet:
            sys.exit(f'its pyproject.toml asks for {", ".join(unmet)} (Python {sys.version.split()[0]})')
    import aiohttp
    import click
    import kopf
    import kopf.cli
    from kopf._core.actions import loggers

    if sys.argv[1:] == ['--version']:
        print(f'Kopf {kopf.__version__ or "(unknown version)"} (Python {sys.version.split()[0]},'
              f' aiohttp {aiohttp.__version__}, click {click.__version__})')
        return
    parser = argparse.ArgumentParser(prog='kopf_run.py', description='kopf run, with these of its options')
    parser.add_argument('-n', '--namespace', dest='namespaces', action='append', default=[])
    parser.add_argument('--standalone', action='store_true', default=None)
    parser.add_argument('paths', nargs='+')
    options = parser.parse_args()
    with click.Context(kopf.cli.run, info_name='run') as context:
        context.invoke(kopf.cli.run.callback,
                       verbose=False, quiet=False, debug=False, log_format=loggers.LogFormat.FULL, log_refkey=None,
                       log_prefix=None, clusterwide=False, namespaces=tuple(options.namespaces),
                       standalone=options.standalone, dev=False, liveness_endpoint=None, peering_name=None,
                       priority=None, modules=(), paths=tuple(options.paths))


if __name__ == '__main__':
    main()
