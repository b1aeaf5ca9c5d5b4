"""Exits 0 when every `name==version` line of a requirements file is installed at that version in
this interpreter's environment, 1 (naming what is missing) otherwise: the Makefile installs only
then. Standard library only."""

import sys
from importlib.metadata import PackageNotFoundError, version


def main(path):
    missing = []
    with open(path) as f:
        for line in f:
            line = line.split("#")[0].strip()
            if not line:
                continue
            name, _, pinned = line.partition("==")
            try:
                found = version(name)
            except PackageNotFoundError:
                found = None
            if found != pinned:
                missing.append(f"{name}=={pinned} (installed: {found})")
    if missing:
        print("missing: " + ", ".join(missing), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
